"""What a seat of the toy with a redraw cannot see (HR-1): the others' cards and the cards still to
be drawn. The search's hidden-information contract (tests/test_search_contract.py) permutes them
(``hidden`` in tests/game_cases.py); the toy has no all-seeing or weighted search bot, so nothing
compares where its hidden cards lie (``unseen_cards``)."""

import numpy as np

from .kernel import CARD, N, RNG
from .kernel.search import same_view


def permuted(state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray | None:
    """``state`` with the others' cards dealt again and another generator counter for the draws to
    come (every card is drawn from 13 alike, so any cards fit what the seat saw), or None when
    the others' cards came out the same."""
    b = state.copy()
    others = np.array([s for s in range(int(b[N])) if s != seat])
    b[CARD + others] = rng.integers(13, size=len(others))
    b[RNG] = rng.integers(1 << 62)
    unchanged = np.array_equal(b[CARD + others], state[CARD + others])
    return None if unchanged or not same_view(b, state, np.int64(seat)) else b
