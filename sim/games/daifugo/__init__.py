"""Daifugō with rule cards (rules and rule IDs, §…, DEC-…, QA-…, T-…: docs/rules/daifugo.md): the game
plug-in ``GAME``, its configuration checks and the engine hooks of ``sim.games.base.Game``."""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from sim.kit.config import ConfigError
from sim.games.base import Game, Table
from sim.games.daifugo.levers import LEVERS
from sim.kit.rng import Rng
from sim.kit.search_params import SEARCH_BOTS, seats_search

from . import rules as R
from . import tables as T
from .reference.bots import BOT_PARAMS, BOTS, ROLLOUT_BOTS, BotAgent


def bot_params(cfg, names):
    """Resolved parameters of each named bot."""
    return [cfg.bot_values(BOTS[b]) for b in names]


def sole_leader(points) -> int:
    """The seat with strictly the most points, or -1 when the top score is shared."""
    best = max(points)
    top = [q for q, x in enumerate(points) if x == best]
    return top[0] if len(top) == 1 else -1


def game_feel(standings, winners) -> list[int]:
    """Game feel measures (docs/rules/daifugo.md): ``standings[k]`` are the points per seat
    after round k + 1, the last entry the final points; the winner is ``min(winners)``.
    Returns ``tables.FEEL_COLS``: lead changes, leader-from round (-1: the winner is not the
    sole points leader at the end), the winner's largest deficit and worst place."""
    leaders = [sole_leader(x) for x in standings]
    seen = [q for q in leaders if q >= 0]
    changes = sum(1 for a, b in zip(seen, seen[1:]) if a != b)
    w = min(winners)
    start = -1
    if leaders[-1] == w:
        start = len(standings)
        while start > 1 and leaders[start - 2] == w:
            start -= 1
    behind = max(max(x) - x[w] for x in standings)
    worst = max(1 + sum(1 for v in x if v > x[w]) for x in standings)
    return [changes, start, behind, worst]


def game_values(eng) -> dict[str, int]:
    """A finished reference game's ``tables.GAME_COLS`` values, by column name."""
    h, w = eng.history, eng.winners
    sc = sorted(eng.scores, reverse=True)
    return {"plays": eng.total_plays, "rounds": len(h), "laws_mask": sum(1 << (c - 1) for c in eng.laws),
            "winner": min(w), "n_winners": len(w), "top_points": sc[0], "margin": sc[0] - sc[1],
            "revolutions": sum(x.revolutions for x in h), "forbidden": sum(x.forbidden for x in h),
            "capital_falls": sum(x.capital_falls for x in h), "guard_hits": sum(x.guard_hit for x in h),
            "kings_kept": sum(x.king_kept for x in h), "decisions": eng.decisions}


def precept_masks(eng) -> list[int]:
    """Per seat, the precepts it holds as a bit mask (bit c - 1: card c)."""
    masks = [0] * eng.n
    for c in range(1, R.N_RULE_CARDS + 1):
        if eng.owner[c] >= 0:
            masks[eng.owner[c]] |= 1 << (c - 1)
    return masks


def seat_values(eng, q: int, mask: int) -> dict[str, int]:
    """Seat q's ``tables.SEAT_COLS`` values, by column name (``mask``: its precepts)."""
    return {"points": eng.scores[q], "rank_points": eng.rank_pts[q], "bonus_points": eng.bonus_pts[q],
            "precept_points": eng.vp_pts[q], "win": int(q in eng.winners),
            "firsts": sum(1 for h in eng.history if h.ranking[0] == q), "forbidden": eng.ff_by_seat[q],
            "revolutions": eng.revs_by_seat[q], "precepts_mask": mask, "n_precepts": bin(mask).count("1")}


ROUND_VALUES = attrgetter(*T.ROUND_COLS)  # a RoundStats' values of the ``tables.ROUND_COLS``, in order


def fill_arrays(eng, g, r, s) -> None:
    """Copy a finished reference game into one game's raw rows (``tables.GAME_ROW`` ..., column
    by column in the order ``tables.py`` declares them)."""
    values = game_values(eng)
    g[:T.G_FIXED] = [values[c] for c in T.GAME_COLS]
    for k, h in enumerate(eng.history):
        g[T.G_LAW0 + k] = h.law
        r[k, :T.R_FIXED] = ROUND_VALUES(h)  # RoundStats has every column
        for pos, q in enumerate(h.ranking):
            r[k, T.R_POS0 + q] = pos + 1
            s[q, T.S_POS0 + k] = pos + 1
    cards = R.N_RULE_CARDS  # cards 1..25 (index 0 of the engine's lists is unused)
    g[T.G_OWNER0:T.G_OWNER0 + cards] = eng.owner[1:]
    g[T.G_PICK0:T.G_PICK0 + cards] = eng.precept_pick[1:]
    g[T.G_PICK_ROUND0:T.G_PICK_ROUND0 + cards] = eng.precept_round[1:]
    standings = [h.standing for h in eng.history[:-1]] + [eng.scores]
    g[T.G_FEEL0:T.G_FEEL0 + len(T.FEEL_COLS)] = game_feel(standings, eng.winners)
    seats = [seat_values(eng, q, mask) for q, mask in enumerate(precept_masks(eng))]
    s[:eng.n, :T.S_FIXED] = [[values[c] for c in T.SEAT_COLS] for values in seats]


def rollout_agent(names, values) -> BotAgent:
    """The seats' bots with each search seat's rollout bot (the bot whose policy code is its
    ``rollout`` value): a search seat leaves some decisions to it."""
    by_code = {code: name for name, code in ROLLOUT_BOTS.items()}
    return BotAgent([by_code[int(v["rollout"])] if n in SEARCH_BOTS else n for n, v in zip(names, values)], values)


class Daifugo(Game):
    name = "daifugo"
    title = "Daifugō with rule cards (Cthulhu variant)"
    min_players = 3
    max_players = R.MAX_PLAYERS
    default_players = 4
    params = R.PARAMS
    bots = BOTS
    bot_param_specs = BOT_PARAMS
    default_bots = ("strategist", "greedy", "random", "strategist", "greedy", "random")
    length_column = "plays"
    unit = "rounds"
    report_module = "analysis.games.daifugo"
    rule_id_prefixes = ("DEC", "QA")
    step_class = "sim.games.daifugo.contract.DaifugoStep"
    strong_bot = "learned"
    levers = LEVERS
    own_line_prefixes = ("precept_imbalance", "law:")
    learned_module = "sim.games.daifugo.reference.learned"
    tables = {
        "games": Table("game", "one row per game: mode, laws in order, precept owners, the precept draft "
                       "record (pick_NN: pick position of card NN in its round's draft, 1 = first, 0 = not "
                       "drafted; pick_round_NN: the round it was drafted), winner, ties, totals, game feel "
                       "(lead_changes, leader_from_round, winner_max_behind, winner_worst_place: "
                       "docs/rules/daifugo.md, Game feel measures)",
                       columns=T.GAME_TYPES),
        "rounds": Table("round", "one row per round (keys game, round): placements, king, capital fall, "
                        "revolutions, J-backs, eight cuts, locks, forbidden finishes, tricks, plays, guard, "
                        "rule-card counters (free_gifts: card 08 gifts weaker than the strongest card; "
                        "second_joker: card 05's joker in the game; collusion_swaps: card 12 law cards given; "
                        "collusion_takes: card 12 precept take-and-gives; see sim/games/daifugo/tables.py)",
                        ("game", "round"), columns=T.ROUND_TYPES),
        "seats": Table("seat", "one row per seat: bot, points by source, win, placements, precepts held",
                       columns=T.SEAT_TYPES),
    }

    def check(self, cfg) -> None:
        h = cfg.params["hand_size_six"] if cfg.players == 6 else cfg.params["hand_size"]
        if h * cfg.players > R.BASE_DECK:
            raise ConfigError(f"hand size {h} x {cfg.players} players needs more than {R.BASE_DECK} cards")
        for bot in sorted({b for b in cfg.bots if seats_search([b])}):
            rollout = int(cfg.bot_values(self.bots[bot])["rollout"])
            if rollout not in ROLLOUT_BOTS.values():
                raise ConfigError(f"bot.{bot}.rollout {rollout} is no rollout bot; "
                                  + ", ".join(f"{code} {name}" for name, code in ROLLOUT_BOTS.items()))

    def bench_config(self):
        """One round, 4 players, no rule cards, default bots (issue: rounds/s)."""
        return self.make_config(players=4, overrides={"rounds": 1, "rule_deck": ""})

    def full_game_bench_config(self):
        """The full default game: normal mode, every default round, the default rule deck,
        default bots, 4 players."""
        return self.make_config(players=4)

    def new_arrays(self, cfg, count):
        return T.alloc(count, cfg.players, R.n_rounds(cfg))

    def fast_batch(self, cfg, start, count):
        if seats_search(cfg.bots):
            from sim.kit.search import N_STATS

            from .kernel.search import search_batch

            return search_batch(self, cfg, start, count, np.zeros(N_STATS, dtype=np.int64))
        from .kernel import run_kernel

        raw = self.new_arrays(cfg, count)
        run_kernel(self, cfg, start, count, *raw)
        return raw

    def play_reference(self, cfg, index, log=None, wrap=None):
        from .reference import Engine

        names, values = zip(*self.seat_params(cfg, index))
        rollout = rollout_agent(names, values) if seats_search(cfg.bots) else None
        agent = self.reference_agent(cfg, index, BotAgent(names, values), wrap, rollout)
        eng = Engine(cfg, Rng(cfg.seed, index), agent, log)
        eng.start_game()
        eng.run()
        return eng

    def record(self, eng, raw, row):
        g, r, s = raw
        fill_arrays(eng, g[row], r[row], s[row])

    def build_tables(self, cfg, start, count, raw):
        return T.frames(cfg, start, *raw)

    def scenario(self, spec):
        from .scenario import run_scenario

        return run_scenario(self, spec)


GAME = Daifugo()
