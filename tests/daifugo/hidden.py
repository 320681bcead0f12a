"""What a daifugo seat cannot see (§2.4, DEC-1, DEC-16): the opponents' hands, the set-aside and
removed cards and the undrawn rule cards' order. The search's hidden-information contract
(tests/test_search_contract.py) permutes and compares them (``hidden`` in tests/game_cases.py)."""

import numpy as np

from sim.games.daifugo import rules as R
from sim.games.daifugo.kernel import search as KS
from sim.games.daifugo.kernel import state as S
from sim.games.daifugo.kernel.step import resume_at
from sim.kit.step import STOP_AT_NEXT

SWAP_TRIES = 4  # ``hidden_swaps`` tried on one state before it is given up


def hidden_swaps(state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray | None:
    """``state`` with what ``seat`` cannot know permuted at the unit's snapshot: cards swapped
    between the opponents' hands and the set-aside and removed cards (an opponent's cards put
    face up in the unit stay with it), the undrawn rule cards reordered; None unless replaying
    the unit then shows the seat exactly what it saw (``same_view``)."""
    b = state.copy()
    snap = S.SNAP
    shown = (b[S.FIELD] | b[S.DISC]) & ~(b[snap + S.FIELD] | b[snap + S.DISC])
    zones = [S.H0 + o for o in range(int(b[S.NP])) if o != seat] + [S.UNDEALT, S.REMOVED]
    cards = [(z, c) for z in zones for c in range(R.N_CARD_IDS) if b[snap + z] >> c & 1 and not shown >> c & 1]
    owners = [z for z, _ in cards]
    ids = [c for _, c in cards]
    rng.shuffle(ids)
    for z in zones:
        b[snap + z] &= shown
    for z, c in zip(owners, ids):
        b[snap + z] |= 1 << c
    lo, hi = int(b[snap + S.DECK_PTR]), int(b[snap + S.DECK_LEN])
    b[snap + S.DECK0 + lo:snap + S.DECK0 + hi] = rng.permutation(b[snap + S.DECK0 + lo:snap + S.DECK0 + hi])
    resume_at(b, STOP_AT_NEXT)
    return b if KS.same_view(b, state, np.int64(seat)) else None


def permuted(state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray | None:
    """The first of ``SWAP_TRIES`` ``hidden_swaps`` that shows the seat what it saw, or None
    (none does, or the unit's snapshot came out unchanged)."""
    for _ in range(SWAP_TRIES):
        other = hidden_swaps(state, seat, rng)
        if other is not None:
            break
    unit = slice(S.SNAP, S.SNAP + S.STATE_SIZE)
    return None if other is None or np.array_equal(other[unit], state[unit]) else other


def unseen_cards(b: np.ndarray) -> tuple[np.ndarray, None]:
    """Where every card lies that some seat cannot see, one 0/1 a card of every hand, the set-aside
    and the removed cards (the all-seeing world holds them so); no pile of cards whose order it
    draws again is compared."""
    zones = b[np.r_[S.H0:S.H0 + int(b[S.NP]), S.UNDEALT, S.REMOVED]]
    return ((zones[:, None] >> np.arange(R.N_CARD_IDS)) & 1).ravel(), None
