"""Result tables: both engines fill the same integer arrays; DataFrames are built only here.

games   one row per game: mode, players, laws in order (``law_1`` … card id, 0 = none),
        ``laws_mask`` (bit c-1 for law c), precept owners ``owner_01`` … ``owner_25``
        (-1 = none), the precept draft record ``pick_01`` … ``pick_25`` (pick position of the
        card in its round's draft: 1 = first pick; 0 = not drafted) and ``pick_round_01`` …
        ``pick_round_25`` (the round it was drafted, 0 = not drafted), final points per seat ``points_s0`` …, winner (lowest winning seat),
        ``n_winners`` (ties), top points, margin,
        totals of revolutions, forbidden finishes, capital falls, play-count guard hits,
        ``decisions``: the player decisions of the game, counted alike in both engines as every
        point where a player chooses among two or more options: each precept draft pick, gift
        to the king among tied strongest cards, gift of the king, trim (one per player holding
        more than ``trim_to`` cards, whatever the number discarded), start-player choice, play
        or pass on a turn, optional revolution (card 07 variant), pull-back (10) and ten discard
        (03) choices, the card-18 precept exchange, every recycle offer (01), loophole (24) and
        dobon (25) chance. Decisions with a single option (a forced pass, a lone lead, the last
        precept on offer) are not counted.
        Game feel (docs/rules/daifugo.md, "Game feel measures"; standings = cumulative points
        after each round, the last one being the final points): ``lead_changes`` (changes of
        the sole leader), ``leader_from_round`` (first round from which the winner is sole
        leader after every round; -1 when the winner is not the sole points leader at the end),
        ``winner_max_behind`` (largest deficit of the winner to the top score after any round),
        ``winner_worst_place`` (worst standing place of the winner after any round, 1 + the
        seats with strictly more points).
rounds  one row per round (kind ``round``, keys game, round): law revealed, king, start
        player, whether the king stayed king, capital falls, revolutions, J-backs, eight cuts,
        suit/number locks and both together (激縛), forbidden finishes, tricks, plays, passes,
        cards trimmed, guard hit, plays made through a card's permission (``slip_throughs``:
        card 06, a single or the Joker onto a set or a set onto a single; ``equal_plays``:
        card 16, equal strength to the top play, the Joker onto the Joker included;
        ``three_returns``: card 22, a 3 onto a Joker single, flowing; ``three_threes``: card 23,
        three 3s, flowing, also when leading; ``magician_hunts``: card 11 hunts started by a
        single Q; ``forced_jokers``: Joker singles the hunt forced; ``pull_backs``/``pulled_cards``:
        card 10 pull-backs that took cards and the cards taken; ``ten_discards``/``ten_discarded``:
        card 03 discards of one card or more and the cards discarded; ``substitutions``: cards
        played as another rank through card 20; ``exiled_revolutions``: card 17, revolution-size
        plays with a joker that caused no revolution; ``free_gifts``: card 08, gifts to the king weaker
        than the giver's strongest card; ``second_joker``: card 05, 1 when the second joker is in the
        game in this round (added after this round's exchange, or dealt from 54 cards);
        ``collusion_swaps``: card 12 law, cards given between commoners after the exchange;
        ``collusion_takes``: card 12 precept, take-and-gives made by the holder; card 13 armed force:
        ``af_claims`` revolutions that claimed the round, ``af_fizzles`` claims a later revolution
        cancelled, ``af_promotions`` claimants made 1st, ``af_promotions_from_bottom`` of them from a
        bottom place, ``af_capital_falls`` capital falls those promotions caused; ``flux_swaps``:
        card 18 hand exchanges after a revolution; ``fusions``: card 02 fusion revolutions;
        ``counter_revolutions``: revolutions that turned a revolution back, any kind; ``taboo_breaks``:
        card 04, finishes that would have been forbidden and were not; ``recycles``: card 01, cards
        taken from the discard pile; ``loopholes``: card 24, random discard cards drawn; ``dobons``:
        card 25, players who went out by a dobon), and the finishing position of every seat
        (``pos_s0`` …, 1 = first, 0 = no such seat).
seats   one row per seat: bot, final points split by source, win, win share (1/k for k
        tied winners), rounds won, forbidden finishes, revolutions made, precepts held
        (``precepts_mask`` bit c-1, count) and the position in every round (``pos_r1`` …).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.games.base import SEAT_KEYS, seat_keys
from sim.kit.layout import Layout

from .rules import MAX_PLAYERS, MAX_ROUNDS, N_RULE_CARDS, n_rounds

# ---- the columns of each table, declared once --------------------------------------------------
# Everything else follows from these lists: the raw rows both engines fill (``GAME_ROW``,
# ``ROUND_ROW``, ``SEAT_ROW``), the fast engine's counters (``kernel/state.py``: one slot per
# ``ROUND_COLS`` column), the reference engine's row filling (``game.fill_arrays``: one value
# per column, by name) and the DataFrames (``frames``).
GAME_COLS = ["plays", "rounds", "laws_mask", "winner", "n_winners", "top_points", "margin",
             "revolutions", "forbidden", "capital_falls", "guard_hits", "kings_kept", "decisions"]
ROUND_COLS = ["law", "king", "start_player", "king_kept", "capital_falls", "revolutions", "jbacks",
              "eight_cuts", "suit_locks", "number_locks", "geki", "forbidden", "tricks", "plays", "passes",
              "trimmed", "guard_hit", "slip_throughs", "equal_plays", "three_returns", "three_threes",
              "magician_hunts", "forced_jokers", "pull_backs", "pulled_cards", "ten_discards", "ten_discarded",
              "substitutions",
              "exiled_revolutions",  # card 17
              "free_gifts",  # card 08
              "second_joker", "collusion_swaps", "collusion_takes",  # cards 05, 12
              "af_claims", "af_fizzles", "af_promotions", "af_promotions_from_bottom", "af_capital_falls",  # card 13
              "flux_swaps",  # card 18
              "fusions", "counter_revolutions",  # card 02
              "taboo_breaks",  # card 04
              "recycles", "loopholes", "dobons"]  # cards 01, 24, 25
FEEL_COLS = ["lead_changes", "leader_from_round", "winner_max_behind", "winner_worst_place"]  # game feel
SEAT_COLS = ["points", "rank_points", "bonus_points", "precept_points", "win", "firsts", "forbidden",
             "revolutions", "precepts_mask", "n_precepts"]
G_FIXED, R_FIXED, S_FIXED = len(GAME_COLS), len(ROUND_COLS), len(SEAT_COLS)
BOOL_COLS = {"win", "king_kept", "guard_hit"}


def _row(name: str, cols: list[str], *blocks: tuple[str, int, str]) -> Layout:
    """A raw row: one slot per column of ``cols``, then the per-round / per-seat / per-card blocks."""
    row = Layout(name)
    for c in cols:
        row.scalar(c)
    for block, size, doc in blocks:
        row.block(block, size, doc)
    return row


# The raw rows both engines fill (int64; ``alloc``): a games row, a rounds row per round, a seats
# row per seat. Blocks are sized for the most rounds and players; a run uses their first entries.
GAME_ROW = _row("daifugo games row", GAME_COLS,
                ("law", MAX_ROUNDS, "law_k: the card revealed as law in round k (0 none)"),
                ("owner", N_RULE_CARDS, "owner_NN: precept owner of card NN (-1 none)"),
                ("pick", N_RULE_CARDS, "pick_NN: pick position of card NN in its round's draft (0 none)"),
                ("pick_round", N_RULE_CARDS, "pick_round_NN: the round card NN was drafted (0 none)"))
for _c in FEEL_COLS:
    GAME_ROW.scalar(_c)
ROUND_ROW = _row("daifugo rounds row", ROUND_COLS, ("pos", MAX_PLAYERS, "pos_sq: finishing position of seat q (1 = first)"))
SEAT_ROW = _row("daifugo seats row", SEAT_COLS, ("pos", MAX_ROUNDS, "pos_rk: the seat's position in round k"))
G_LAW0, G_OWNER0, G_PICK0, G_PICK_ROUND0 = (GAME_ROW[b].offset for b in ("law", "owner", "pick", "pick_round"))
G_FEEL0 = GAME_ROW[FEEL_COLS[0]].offset
R_POS0, S_POS0 = ROUND_ROW["pos"].offset, SEAT_ROW["pos"].offset


def _types(cols, default: str) -> tuple[tuple[str, str], ...]:
    return tuple((c, "bool" if c in BOOL_COLS else default) for c in cols)


# Columns of every run (``Table.columns``); law_k, points_sq, pos_sq and pos_rk follow the
# run's rounds and players (int8, points int64).
GAME_TYPES = (("game", "int64"), ("mode", "int8"), ("players", "int8"), *_types(GAME_COLS, "int64"),
              *((f"owner_{c:02d}", "int8") for c in range(1, N_RULE_CARDS + 1)),
              *((f"pick_{c:02d}", "int8") for c in range(1, N_RULE_CARDS + 1)),
              *((f"pick_round_{c:02d}", "int8") for c in range(1, N_RULE_CARDS + 1)),
              *((c, "int64") for c in FEEL_COLS))
ROUND_TYPES = (("game", "int64"), ("round", "int64"), *_types(ROUND_COLS, "int64"))
SEAT_TYPES = (*SEAT_KEYS, *_types(SEAT_COLS, "int64"), ("win_share", "float64"))


def alloc(count: int, players: int, rounds: int):
    """Preallocated raw result arrays of a batch: games, rounds, seats rows."""
    return (np.zeros((count, GAME_ROW.size), np.int64),
            np.zeros((count, rounds, ROUND_ROW.size), np.int64),
            np.zeros((count, players, SEAT_ROW.size), np.int64))


def _fixed(cols: dict, names: list[str], flat: np.ndarray) -> None:
    """The fixed columns ``names`` from the first slots of the raw rows ``flat``."""
    for j, name in enumerate(names):
        cols[name] = flat[:, j].astype(bool) if name in BOOL_COLS else flat[:, j]


def frames(cfg, start: int, g, r, s) -> dict[str, pd.DataFrame]:
    """DataFrames from the result arrays of games ``start..`` of run ``cfg``."""
    count, players, rounds = g.shape[0], cfg.players, n_rounds(cfg)
    mode = int(cfg.params["mode"] == "madness")
    game_ids = np.arange(start, start + count, dtype=np.int64)
    cols: dict[str, np.ndarray] = {"game": game_ids, "mode": np.full(count, mode, np.int8),
                                   "players": np.full(count, players, np.int8)}
    _fixed(cols, GAME_COLS, g)
    for k in range(rounds):
        cols[f"law_{k + 1}"] = g[:, G_LAW0 + k].astype(np.int8)
    for block, prefix in ((G_OWNER0, "owner"), (G_PICK0, "pick"), (G_PICK_ROUND0, "pick_round")):
        for c in range(1, N_RULE_CARDS + 1):
            cols[f"{prefix}_{c:02d}"] = g[:, block + c - 1].astype(np.int8)
    for q in range(players):
        cols[f"points_s{q}"] = s[:, q, SEAT_COLS.index("points")]
    for j, name in enumerate(FEEL_COLS):
        cols[name] = g[:, G_FEEL0 + j]
    games = pd.DataFrame(cols)

    flat = r.reshape(count * rounds, -1)
    cols = {"game": np.repeat(game_ids, rounds), "round": np.tile(np.arange(1, rounds + 1, dtype=np.int64), count)}
    _fixed(cols, ROUND_COLS, flat)
    for q in range(players):
        cols[f"pos_s{q}"] = flat[:, R_POS0 + q].astype(np.int8)
    rr = pd.DataFrame(cols)

    flat = s.reshape(count * players, -1)
    cols = seat_keys(cfg, start, count)
    _fixed(cols, SEAT_COLS, flat)
    nw = np.repeat(g[:, GAME_COLS.index("n_winners")], players)
    cols["win_share"] = np.where(cols["win"], 1.0 / np.maximum(nw, 1), 0.0)
    for k in range(rounds):
        cols[f"pos_r{k + 1}"] = flat[:, S_POS0 + k].astype(np.int8)
    return {"games": games, "rounds": rr, "seats": pd.DataFrame(cols)}
