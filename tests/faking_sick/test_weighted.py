"""The faking-sick search with weighted worlds (bots.WEIGHTED, kernel.search.likelihood,
sim.kit.search.decide): a world's weight is the epsilon-softened honest likelihood of the opponents'
plays. That it does not peek (FS-11.2/11.3) and that with every weight 1 it is the search:
tests/test_search_contract.py."""

import numpy as np
import pytest

from sim.games.faking_sick import GAME
from sim.games.faking_sick.kernel import search as KS
from sim.games.faking_sick.kernel import state as S
from sim.games.faking_sick import tables as T
from sim.games.faking_sick.rules import K_BPP, K_N, MAX_PLAYERS, NT
from tests.searching import case_states


def test_likelihood_is_epsilon_to_the_plays_of_banned_types():
    """FS-5: a world banning types t and u for opponent o (and t twice for another) weighs
    epsilon ** (o's plays of t and u + the other's plays of t); the seat's own plays do not count."""
    b = next(case_states(GAME))[1]
    n, k = int(b[K_N]), int(b[K_BPP])
    assert n == 4 and k >= 2
    seat = int(b[S.PSEAT])
    o, p = [q for q in range(n) if q != seat][:2]
    plays = lambda t, q: S.PLAY_SUMS + (t * MAX_PLAYERS + q) * T.NP + KS.P_PLAYS  # noqa: E731
    b[S.PLAY_SUMS:S.PLAY_SUMS + NT * MAX_PLAYERS * T.NP] = 0
    b[plays(1, o)], b[plays(2, o)], b[plays(1, p)], b[plays(1, seat)], b[plays(3, o)] = 3, 2, 4, 9, 5
    w = b.copy()
    w[S.BANNED:S.BANNED + n * k] = -1
    w[S.BANNED + o * k], w[S.BANNED + o * k + 1] = 1, 2
    w[S.BANNED + p * k], w[S.BANNED + p * k + 1] = 1, 1
    w[S.BANNED + seat * k] = 1
    assert KS.likelihood(w, b, np.int64(seat)) == pytest.approx(KS.BLUFF_EPSILON ** (3 + 2 + 4), rel=1e-12)
