"""Daifugō through ``cardlab.env`` (cardlab/rl.py): a seat's observation (what the search's
``kernel/search.py`` ``same_view`` says it sees; docs/reinforcement-learning.md lists it), the
action ids and the rewards.

Action ids: a listed option's code plus one (the pass and a decline, code -1, are 0; a play's
code is its row in the move table, a no / yes 0 / 1, card ids, seats and rule card ids as
listed); a ``trim``, ``ten_discard`` or ``pull_back`` option is the bit set of the chosen cards
among the cards it chooses from, bit ``j`` for the ``j``-th of them by ascending card id.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.daifugo import rules as R
from sim.games.daifugo.kernel.search import PUBLIC as PUBLIC_SLOTS
from sim.games.daifugo.kernel.state import (DECK0, DECK_PTR, H0, K_PLAY, K_PULL_BACK, K_TEN_DISCARD, K_TRIM,
                                            MAX_LISTED, MAX_MOVES, MJR, MMASK, MOVE_COLS, MV0, NP, PCARDS, PHI,
                                            PKIND, PLO, PN, POPT, PPASS, PSEAT, PSTEP, REMOVED, UNDEALT, WIN0,
                                            popcount)
from sim.games.daifugo.kernel.step import MAX_OPTIONS
from sim.kit.kernel_util import ix

SUBSETS = (K_TRIM, K_TEN_DISCARD, K_PULL_BACK)
PENDING = np.array([PN, PPASS, PCARDS, PLO, PHI, PSTEP], dtype=np.int64)
PUBLIC = np.flatnonzero(PUBLIC_SLOTS)
SIZE = 2 + len(PENDING) + MAX_LISTED + 2 * MAX_MOVES + len(PUBLIC) + 1 + R.MAX_PLAYERS + 2 + R.N_RULE_CARDS


def action_count(cfg) -> int:
    """The size of the Discrete action space (the subset decisions' bit sets)."""
    return MAX_OPTIONS


def action_ids(buf: np.ndarray, options: np.ndarray) -> np.ndarray:
    """The action ids of the pending decision's legal options (module docstring)."""
    if buf[PKIND] not in SUBSETS:
        return options + 1
    ids = np.zeros_like(options)
    for j, c in enumerate(c for c in range(R.N_CARD_IDS) if buf[PCARDS] >> c & 1):
        ids |= ((options >> c) & 1) << j
    return ids


@njit(cache=True, error_model="numpy")
def observe_into(b, seat, out):
    """``seat``'s observation into ``out`` (``SIZE`` slots), in the order of docs/reinforcement-learning.md.
    ``out`` holds zeros or an earlier observation: of the move table's rows past the legal plays,
    only those it lists are set back to 0."""
    own = b[PSEAT] == seat
    kind = b[PKIND]
    out[0] = seat
    out[1] = kind if own else -1
    j = 2
    for x in PENDING:
        out[j] = b[ix(x)] if own else 0
        j += 1
    listed = own and kind != K_PLAY and kind != K_TRIM and kind != K_TEN_DISCARD and kind != K_PULL_BACK
    for i in range(MAX_LISTED):
        out[j + i] = b[ix(POPT + i)] if listed and i < b[PN] else -2
    j += MAX_LISTED
    plays = b[PN] if own and kind == K_PLAY else 0
    for m in range(plays):
        out[ix(j + m)] = b[ix(MV0 + m * MOVE_COLS + MMASK)]
        out[ix(j + MAX_MOVES + m)] = b[ix(MV0 + m * MOVE_COLS + MJR)]
    m = plays  # on to the rows ``out`` still lists (a play's card mask is never 0)
    while m < MAX_MOVES and out[ix(j + m)] != 0:
        out[ix(j + m)] = 0
        out[ix(j + MAX_MOVES + m)] = 0
        m += 1
    j += 2 * MAX_MOVES
    for x in PUBLIC:
        out[j] = b[ix(x)]
        j += 1
    out[j] = b[ix(H0 + seat)]
    j += 1
    for s in range(R.MAX_PLAYERS):
        out[j + s] = popcount(b[ix(H0 + s)])
    j += R.MAX_PLAYERS
    out[j] = popcount(b[UNDEALT])
    out[j + 1] = popcount(b[REMOVED])
    j += 2
    for i in range(R.N_RULE_CARDS):
        out[j + i] = b[ix(DECK0 + i)] if i < b[DECK_PTR] else -1


def out_of_game(buf: np.ndarray, seat: int) -> bool:
    """A seat out of cards for the round plays the later rounds: every seat plays to the game's end."""
    return False


def rewards(buf: np.ndarray) -> np.ndarray:
    """Each seat's reward for the finished game: 1 for the winner by the game's scoring (most
    points after the last round), a shared win split."""
    win = buf[WIN0:WIN0 + buf[NP]].astype(float)
    return win / max(win.sum(), 1.0)
