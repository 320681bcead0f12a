"""The daifugo plug-in: configuration checks, both engines behind ``run_batch``, replay."""

from __future__ import annotations


from sim.config import ConfigError
from sim.games.base import Game, Table, seat_bots
from sim.rng import Rng

from . import rules as R
from . import tables as T
from .bots import BOTS, BotAgent


def bot_params(cfg, names):
    return [{k: cfg.bot_param(b, k, BOTS[b].params) for k in BOTS[b].params} for b in names]


def fill_arrays(eng, g, r, s) -> None:
    """Copy a finished reference game into one game's rows of the result arrays."""
    n, rounds = eng.n, len(eng.history)
    w = eng.winners
    sc = sorted(eng.scores, reverse=True)
    gv = [eng.total_plays, rounds, sum(1 << (c - 1) for c in eng.laws), min(w), len(w), sc[0],
          sc[0] - sc[1], sum(h.revolutions for h in eng.history), sum(h.forbidden for h in eng.history),
          sum(h.capital_falls for h in eng.history), sum(h.guard_hit for h in eng.history),
          sum(1 for h in eng.history if h.king >= 0 and h.ranking[0] == h.king)]
    g[:T.G_FIXED] = gv
    for k, h in enumerate(eng.history):
        g[T.G_FIXED + k] = h.law
        rv = [h.law, h.king, h.start_player, int(h.king >= 0 and h.ranking[0] == h.king), h.capital_falls,
              h.revolutions, h.jbacks, h.eight_cuts, h.suit_locks, h.number_locks, h.geki, h.forbidden,
              h.tricks, h.plays, h.passes, h.trimmed, int(h.guard_hit)]
        r[k, :T.R_FIXED] = rv
        for pos, q in enumerate(h.ranking):
            r[k, T.R_FIXED + q] = pos + 1
            s[q, T.S_FIXED + k] = pos + 1
    for c in range(1, R.N_RULE_CARDS + 1):
        g[T.G_FIXED + rounds + c - 1] = eng.owner[c]
    for q in range(n):
        mask = sum(1 << (c - 1) for c in range(1, R.N_RULE_CARDS + 1) if eng.owner[c] == q)
        s[q, :T.S_FIXED] = [eng.scores[q], eng.rank_pts[q], eng.bonus_pts[q], eng.vp_pts[q], int(q in w),
                            sum(1 for h in eng.history if h.ranking[0] == q), eng.ff_by_seat[q],
                            eng.revs_by_seat[q], mask, bin(mask).count("1")]


def reference_game(cfg, index: int, log=None):
    """Play game ``index`` in the reference engine; returns the finished engine."""
    from .reference import Engine

    names = seat_bots(cfg, index)
    eng = Engine(cfg, Rng(cfg.seed, index), BotAgent(names, bot_params(cfg, names)), log)
    eng.start_game()
    eng.run()
    return eng


class Daifugo(Game):
    name = "daifugo"
    title = "Daifugō with rule cards (Cthulhu variant)"
    spec = "daifugo-rule-cards.md"
    min_players = 3
    max_players = R.MAX_PLAYERS
    default_players = 4
    params = R.PARAMS
    bots = BOTS
    default_bots = ("strategist", "greedy", "random", "strategist", "greedy", "random")
    length_column = "plays"
    unit = "rounds"
    tables = {
        "games": Table("game", "one row per game: mode, laws in order, precept owners, winner, ties, totals"),
        "rounds": Table("round", "one row per round (keys game, round): placements, king, capital fall, "
                        "revolutions, J-backs, eight cuts, locks, forbidden finishes, tricks, plays, guard",
                        ("game", "round")),
        "seats": Table("seat", "one row per seat: bot, points by source, win, placements, precepts held"),
    }

    def check(self, cfg) -> None:
        h = cfg.params["hand_size_six"] if cfg.players == 6 else cfg.params["hand_size"]
        if h * cfg.players > R.BASE_DECK:
            raise ConfigError(f"hand size {h} x {cfg.players} players needs more than {R.BASE_DECK} cards")

    def bench_config(self):
        """One round, 4 players, no rule cards, default bots (issue: rounds/s)."""
        return self.make_config(players=4, overrides={"rounds": 1, "rule_deck": ""})

    def run_batch(self, cfg, start, count, engine="fast"):
        rounds = R.n_rounds(cfg)
        g, r, s = T.alloc(count, cfg.players, rounds)
        if engine == "reference":
            for i in range(count):
                fill_arrays(reference_game(cfg, start + i), g[i], r[i], s[i])
        elif engine == "fast":
            from .kernel import run_kernel

            run_kernel(self, cfg, start, count, g, r, s)
        else:
            raise ConfigError(f"unknown engine '{engine}'")
        return T.frames(start, int(cfg.params["mode"] == "madness"), cfg.players, rounds, cfg.bots, g, r, s)

    def replay(self, cfg, index):
        lines: list[str] = []
        eng = reference_game(cfg, index, lines)
        rounds = R.n_rounds(cfg)
        g, r, s = T.alloc(1, cfg.players, rounds)
        fill_arrays(eng, g[0], r[0], s[0])
        return lines, T.frames(index, int(cfg.params["mode"] == "madness"), cfg.players, rounds, cfg.bots, g, r, s)

    def scenario(self, spec):
        from .scenario import run_scenario

        return run_scenario(self, spec)

    def report_sections(self, run):
        from .report import sections

        return sections(run)


GAME = Daifugo()
