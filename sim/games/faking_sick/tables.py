"""Faking-sick result tables: column layout of the result arrays and DataFrame building.

Both engines fill the same arrays (``new_arrays``) and ``frames`` turns them into the
DataFrames, so column order and dtypes cannot differ between engines.

- ``games[g, :]``: ``GAME_FIELDS`` (winner, turns, win_method 0 none / 1 play_out /
  2 push_out, turn_cap 0/1, then ``GAME_STATS`` counts).
- ``seats[g, s, :]``: ``SEAT_FIELDS`` (final_hand then ``SEAT_STATS``).
- ``calls[t, d, c, :]``: judged calls on played type ``t`` by caller seat ``c`` at clockwise
  distance ``d`` from the challenged player (1 = the challenged player's next player):
  (calls, successes).
- ``plays[t, s, :]``: ``PLAY_SUMS`` per played type and seat.
- ``banned_calls[y, t, :]``: judged calls on played type ``t`` against a player with a
  face-down banned card of type ``y``: (calls, successes).

Column meanings (spec "Metrics"). games: ``winner`` seat or -1, ``n_winners`` 0/1,
``turns`` turns started (FS-3.2), ``win_method`` 0 none / 1 play_out / 2 push_out,
``turn_cap`` (FS-9.6), ``plays``, ``bluffs`` (plays of own banned types), ``bluffs_caught``
(successful calls plus voided going-out bluffs), ``call_requests`` (every player who called),
``calls_made`` (judged calls), ``calls_succeeded``, ``calls_failed``, ``cards_pushed``,
``reveals``, ``duplicate_reveals`` (FS-7.1 with two equal banned cards),
``viruses_skipped`` (FS-8.2), ``reshuffles``, ``draws`` (voluntary DRAW actions),
``penalty_draws`` (attack penalties suffered), ``cards_drawn`` (cards into hands),
``attacks_played``, ``attacks_countered``, ``attacks_accepted``, ``headache_bans``,
``virus_blocked`` (normal turns with a VIR in hand made unplayable by a ban),
``void_go_outs`` (``banned_last_card = void``), ``decisions`` (player decisions: every time
the engine asks a player to choose among the legal options, forced ones included: each turn
decision D1, attack decision D2 and after-draw decision, one per eligible player asked in a
call window D3 (call or not), and one per push D4 (the choice of the pushed cards; no
decision when the caller has no card to push); both engines count in the same places). seats: ``outcome`` 0 lost / 1 won /
2 turn cap, ``final_hand``, ``plays``, ``bluffs``, ``bluffs_caught``, ``call_requests``,
``calls_made``, ``calls_correct``, ``times_called``, ``cards_pushed``, ``cards_received``,
``cards_drawn``, ``draws``, ``attacks_suffered``, ``initial_banned_<type>`` and
``final_banned_<type>`` for each type that can be banned (``fev`` .. ``ice``): the seat's
banned cards of that type at setup (FS-2.1) and at the game's end (face down; a card revealed
by the call that ends the game is no longer banned). ``card`` keys are type codes 0..6
(rules.TYPES).

Game feel (docs/rules/faking-sick.md, "Game feel measures"): the leader is the one player
holding the fewest cards (a tie: no leader), observed at the end of every turn and at the
game's end. games: ``lead_changes`` (times the leader became another player than the
previous leader), ``leader_from_turn`` (the turn, counted as ``turns``, from whose end on the
winner was the leader at every observation; -1 without a winner), ``winner_max_behind`` (the
winner's largest excess of cards over the fewest held, -1 without a winner). seats:
``max_behind`` (the seat's largest excess of cards over the fewest held).

``banned_calls`` (call success by banned type): every judged call counts once in each row
``(banned, card)`` where ``banned`` is a type among the challenged player's face-down banned
cards at the call (a duplicate counts once) and ``card`` the played type; ``successes`` are
the right calls (the played type was banned), so the rows with ``banned == card`` hold only
right calls and the others the calls that were right because of the player's other banned card.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.games.base import SEAT_KEYS, Table, seat_keys

from .rules import NT, TYPES, VIR

GAME_STATS = (
    "plays", "bluffs", "bluffs_caught", "call_requests", "calls_made", "calls_succeeded",
    "calls_failed", "cards_pushed", "reveals", "duplicate_reveals", "viruses_skipped",
    "reshuffles", "draws", "penalty_draws", "cards_drawn", "attacks_played",
    "attacks_countered", "attacks_accepted", "headache_bans", "virus_blocked", "void_go_outs",
    "decisions",
)
GAME_FEEL = ("lead_changes", "leader_from_turn", "winner_max_behind")  # game feel (docs/rules/faking-sick.md)
SEAT_STATS = (
    "plays", "bluffs", "bluffs_caught", "call_requests", "calls_made", "calls_correct",
    "times_called", "cards_pushed", "cards_received", "cards_drawn", "draws", "attacks_suffered",
)
PLAY_SUMS = ("plays", "bluffs", "called", "bluffs_caught")
CALL_SUMS = ("calls", "successes")
GAME_FIELDS = ("winner", "turns", "win_method", "turn_cap") + GAME_STATS + GAME_FEEL
BANNABLE = tuple(t for t in range(NT) if t != VIR)  # FS-2.1 / FS-8.2: VIRUS is never banned
SEAT_BANNED = tuple(f"{when}_banned_{TYPES[t].lower()}" for when in ("initial", "final") for t in BANNABLE)
SEAT_FIELDS = ("final_hand",) + SEAT_STATS + SEAT_BANNED + ("max_behind",)
NG, NS, NP = len(GAME_FIELDS), len(SEAT_FIELDS), len(PLAY_SUMS)

# array indices used by the kernel
G = {name: i for i, name in enumerate(GAME_FIELDS)}
S = {name: i for i, name in enumerate(SEAT_FIELDS)}
P = {name: i for i, name in enumerate(PLAY_SUMS)}
C = {name: i for i, name in enumerate(CALL_SUMS)}
# seat column of banned type t (t != VIR) at setup / at the end: S_INITIAL_BANNED0 + BANNED_COL[t]
S_INITIAL_BANNED0, S_FINAL_BANNED0 = S[SEAT_BANNED[0]], S[SEAT_BANNED[len(BANNABLE)]]
BANNED_COL = tuple(BANNABLE.index(t) if t != VIR else -1 for t in range(NT))
OUTCOME_LOST, OUTCOME_WON, OUTCOME_CAP = 0, 1, 2
WIN_METHODS = ("none", "play_out", "push_out")



def _int64(*names: str) -> tuple[tuple[str, str], ...]:
    return tuple((c, "int64") for c in names)


TABLES = {
    "games": Table("game", "one row per game: winner, length, calls, bluffs, reveals, pushes, turn cap",
                   columns=(*_int64("game", "winner", "n_winners", "turns", "win_method"), ("turn_cap", "bool"),
                            *_int64(*GAME_STATS, *GAME_FEEL))),
    "seats": Table("seat", "one row per seat per game: bot, outcome, bluffs, calls made and correct",
                   columns=(*SEAT_KEYS, ("win", "bool"), *_int64("outcome", *SEAT_FIELDS))),
    "calls": Table("sum", "judged calls and successes by played card type (code), clockwise distance "
                   "from the challenged player to the caller, and caller seat", ("card", "distance", "caller_seat"),
                   columns=_int64("card", "distance", "caller_seat", *CALL_SUMS)),
    "plays": Table("sum", "plays, bluffs, called plays and caught bluffs by card type (code) and seat",
                   ("card", "seat"), columns=_int64("card", "seat", *PLAY_SUMS)),
    "banned_calls": Table("sum", "judged calls and right calls by a banned type (code) of the challenged player"
                          " and the played card type (code)", ("banned", "card"),
                          columns=_int64("banned", "card", *CALL_SUMS)),
}


def new_arrays(count: int, n: int) -> dict[str, np.ndarray]:
    return {
        "games": np.zeros((count, NG), dtype=np.int64),
        "seats": np.zeros((count, n, NS), dtype=np.int64),
        "calls": np.zeros((NT, n, n, len(CALL_SUMS)), dtype=np.int64),
        "plays": np.zeros((NT, n, NP), dtype=np.int64),
        "banned_calls": np.zeros((NT, NT, len(CALL_SUMS)), dtype=np.int64),
    }


def frames(cfg, arr: dict[str, np.ndarray], start: int) -> dict[str, pd.DataFrame]:
    """DataFrames of every table from filled arrays of games ``start..`` of run ``cfg``."""
    games_a, seats_a = arr["games"], arr["seats"]
    count, n = seats_a.shape[0], seats_a.shape[1]
    game_ids = np.arange(start, start + count, dtype=np.int64)
    games = pd.DataFrame(games_a, columns=list(GAME_FIELDS), copy=False)
    games.insert(0, "game", game_ids)
    games.insert(2, "n_winners", (games_a[:, G["winner"]] >= 0).astype(np.int64))
    games["turn_cap"] = games["turn_cap"].astype(bool)

    winner = np.repeat(games_a[:, G["winner"]], n)
    seat_ids = np.tile(np.arange(n, dtype=np.int64), count)
    win = winner == seat_ids
    cap = np.repeat(games_a[:, G["turn_cap"]], n) == 1
    outcome = np.where(win, OUTCOME_WON, np.where(cap, OUTCOME_CAP, OUTCOME_LOST)).astype(np.int64)
    seats = pd.DataFrame(seats_a.reshape(count * n, NS), columns=list(SEAT_FIELDS), copy=False)
    for i, (name, col) in enumerate((*seat_keys(cfg, start, count).items(), ("win", win), ("outcome", outcome))):
        seats.insert(i, name, col)

    calls_a = arr["calls"]
    rows = [(t, d, c, *calls_a[t, d, c]) for t in range(NT) for d in range(1, n) for c in range(n)]
    calls = pd.DataFrame(rows, columns=["card", "distance", "caller_seat", *CALL_SUMS]).astype(np.int64)

    plays_a = arr["plays"]
    rows = [(t, st, *plays_a[t, st]) for t in range(NT) for st in range(n)]
    plays = pd.DataFrame(rows, columns=["card", "seat", *PLAY_SUMS]).astype(np.int64)

    bc = arr["banned_calls"]
    rows = [(y, t, *bc[y, t]) for y in BANNABLE for t in range(NT)]
    banned_calls = pd.DataFrame(rows, columns=["banned", "card", *CALL_SUMS]).astype(np.int64)
    return {"games": games, "seats": seats, "calls": calls, "plays": plays, "banned_calls": banned_calls}
