"""Faking-sick through ``cardlab.env`` (cardlab/rl.py): a seat's observation (what
``kernel.search.same_view`` says it sees, FS-11; docs/reinforcement-learning.md lists it), the
action ids and the rewards.

Action ids: a ``turn``, ``attack`` or ``after_draw`` option is its code (the card type 0-6, 7 to
draw / accept / end), a ``call`` option 0 (no call) or 1 (call), a ``push`` option ``PUSHES``
plus the pushed multiset's place among every multiset of at most ``push_count`` cards, by size,
then in ``itertools.combinations_with_replacement`` order of the types.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np
from numba import njit

from sim.games.faking_sick import tables as T
from sim.games.faking_sick.kernel.search import PUBLIC_GAME
from sim.games.faking_sick.kernel.state import (ATK, ATK_T, BAN, BANNED, CLEARED, DHI, DLO, FALLBACK, GAME_ROW,
                                                HAND, HS, LIMBO, ND, PKIND, PLAY_SUMS, POOL_SIZE, PSEAT, PUSH,
                                                PUSH_BITS, REV_ALL, REVEALED, TO_MOVE, TURNS)
from sim.games.faking_sick.rules import K_BPP, K_N, K_PUSH, MAX_PLAYERS, NT
from sim.kit.kernel_util import ix

DISCARD_TOP = 8  # the discard pile's cards shown, from the top
PUSHES = FALLBACK + 1  # the first push action id
SCALARS = np.array([TO_MOVE, TURNS, ND, POOL_SIZE, LIMBO, ATK, ATK_T, BAN, REV_ALL], dtype=np.int64)
PLAYS = (PLAY_SUMS + (np.arange(NT)[:, None] * MAX_PLAYERS + np.arange(MAX_PLAYERS)) * T.NP + T.P["plays"]).ravel()
PUBLIC = np.concatenate([SCALARS, GAME_ROW + PUBLIC_GAME, REVEALED + np.arange(NT), HS + np.arange(MAX_PLAYERS),
                         CLEARED + np.arange(MAX_PLAYERS * NT), PLAYS])


@lru_cache(maxsize=None)
def push_ids(most: int) -> dict[int, int]:
    """Push option code (type t's count at bits ``PUSH_BITS * t``) -> action id, for pushes of up
    to ``most`` cards."""
    ids: dict[int, int] = {}
    for size in range(most + 1):
        for types in combinations_with_replacement(range(NT), size):
            ids[sum(1 << (PUSH_BITS * t) for t in types)] = PUSHES + len(ids)
    return ids


def action_count(cfg) -> int:
    """The size of the Discrete action space."""
    return PUSHES + len(push_ids(cfg.params["push_count"]))


def action_ids(buf: np.ndarray, options: np.ndarray) -> np.ndarray:
    """The action ids of the pending decision's legal options (module docstring)."""
    if buf[PKIND] != PUSH:
        return options
    ids = push_ids(int(buf[K_PUSH]))
    return np.array([ids[int(o)] for o in options], dtype=np.int64)


def size(buf: np.ndarray) -> int:
    """The observation's length (``sim.kit.step.observe``): the seat's banned cards vary with the rules."""
    return 2 + len(PUBLIC) + 1 + NT + DISCARD_TOP + NT + int(buf[K_BPP])


@njit(cache=True, error_model="numpy")
def observe_into(b, seat, out):
    """``seat``'s observation into ``out``, in the order of docs/reinforcement-learning.md."""
    out[0] = seat
    out[1] = b[PKIND] if b[PSEAT] == seat else -1
    j = 2
    for x in PUBLIC:
        out[j] = b[ix(x)]
        j += 1
    out[j] = b[DHI] - b[DLO]
    j += 1
    out[j:j + NT] = 0
    for i in range(b[DLO], b[DHI]):
        out[j + b[ix(i)]] += 1
    j += NT
    for i in range(DISCARD_TOP):
        out[j + i] = b[ix(b[DHI] - 1 - i)] if i < b[DHI] - b[DLO] else -1
    j += DISCARD_TOP
    for t in range(NT):
        out[j + t] = b[ix(HAND + seat * NT + t)]
    j += NT
    for i in range(b[K_BPP]):
        out[j + i] = b[ix(BANNED + seat * b[K_BPP] + i)]


def out_of_game(buf: np.ndarray, seat: int) -> bool:
    """Faking-sick has no elimination: every seat plays to the game's end."""
    return False


def rewards(buf: np.ndarray) -> np.ndarray:
    """Each seat's reward for the finished game: 1 for the winner, 0 for the others and for
    everyone in a game ended by the turn cap (FS-9.6, a draw)."""
    out = np.zeros(int(buf[K_N]), dtype=float)
    winner = buf[GAME_ROW + T.G["winner"]]
    if winner >= 0:
        out[winner] = 1.0
    return out
