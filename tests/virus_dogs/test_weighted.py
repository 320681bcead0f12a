"""The virus-dogs search with weighted worlds (bots.WEIGHTED, kernel.search.likelihood,
sim.kit.search.decide): a world's weight is the chance that the opponents kept its viruses hidden
under the cautious rule softened by HIDE_EPSILON. That it does not peek (VD-22), that with every
weight 1 it is the search and that the driver marks its seat: tests/test_search_contract.py."""

import numpy as np

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs.kernel import search as KS
from sim.games.virus_dogs.kernel import state as S
from tests.searching import case_states

NT = S.NT


def test_likelihood_is_epsilon_to_the_viruses_held_beside_a_cure():
    """VD-6: a world giving a live opponent 2 viruses and an antiseptic, another 3 viruses and a
    doctor while a declaration is safe, a third 4 viruses and nothing that cures weighs
    epsilon ** (2 + 3); the seat's own viruses and an eliminated opponent's do not count."""
    b = next(case_states(GAME))[1]
    n = int(b[S.S_N])
    assert n == 4
    seat = int(b[S.S_PSEAT])
    o, p, q = [x for x in range(n) if x != seat]
    w = b.copy()
    w[S.O_H:S.O_H + n * NT] = 0
    for x in range(n):
        w[S.O_PL + x * S.NF + S.F_LIVE] = 1
        w[S.O_PL + x * S.NF + S.F_O] = 0
    w[S.O_H + o * NT + S.V], w[S.O_H + o * NT + S.ANT] = 2, 1
    w[S.O_H + p * NT + S.V], w[S.O_H + p * NT + S.DOC] = 3, 1
    w[S.O_H + q * NT + S.V] = 4
    w[S.O_H + seat * NT + S.V], w[S.O_H + seat * NT + S.AMB] = 5, 1
    assert KS.likelihood(w, b, np.int64(seat)) == KS.HIDE_EPSILON ** (2 + 3)
    w[S.O_PL + p * S.NF + S.F_O] = w[S.O_P + S.P_THR] - 1  # a declaration would eliminate p: it must hide
    assert KS.likelihood(w, b, np.int64(seat)) == KS.HIDE_EPSILON ** 2
    w[S.O_PL + o * S.NF + S.F_LIVE] = 0
    assert KS.likelihood(w, b, np.int64(seat)) == 1.0
