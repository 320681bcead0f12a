"""The daifugo search with weighted worlds (bots.WEIGHTED, kernel/search.likelihood,
sim.kit.search.decide): a world's weight is MISPLAY_EPSILON to the opponents' decisions in the trick
the strategist's rule would not make. That it does not peek (§2.4, DEC-1, DEC-16) and that the
driver marks its seat: tests/test_search_contract.py."""

import numpy as np

from sim.games.daifugo import GAME
from sim.games.daifugo import rules as R
from sim.games.daifugo.kernel import search as KS
from sim.games.daifugo.kernel import state as S
from tests.searching import case_states

EPS = KS.MISPLAY_EPSILON
R4, R5, R6, R9 = 1, 2, 3, 6  # rank indices (rules: 3 is 0, 2 is 12)


def card(rank: int, suit: int = 0) -> int:
    return 1 << (4 * rank + suit)


def trick_world(hands: dict[int, int]) -> tuple[np.ndarray, np.ndarray, int]:
    """A state of the search tests with the seat to answer a single 5 that seat ``o3`` led,
    ``o1`` and ``o2`` having passed, no rule card in force; and a world of it holding ``hands``
    (by opponent: 1, 2, 3 for o1, o2, o3). Returns (state, world, seat)."""
    b = next(case_states(GAME))[1]
    n = int(b[S.NP])
    assert n == 4
    seat = int(b[S.PSEAT])
    o1, o2, o3 = [q for q in range(n) if q != seat]
    b[S.LAWS] = 0
    b[S.OWN0:S.OWN0 + R.N_RULE_CARDS + 1] = -1
    b[S.REV] = b[S.JB] = b[S.SL] = b[S.NL] = b[S.HUNT] = 0
    b[S.TK], b[S.TC], b[S.TL], b[S.TH], b[S.TS], b[S.TM], b[S.TO] = S.SETK, 1, R5, R5, 1, card(R5), o3
    b[S.PK] = S.NONE
    b[S.A0:S.A0 + n] = 1
    b[S.PASSED] = (1 << o1) | (1 << o2)
    w = b.copy()
    for i, o in ((1, o1), (2, o2), (3, o3)):
        w[S.H0 + o] = hands[i]
    return b, w, seat


def test_likelihood_is_epsilon_to_the_unlikely_passes_and_top_play():
    """§6 D8/D9, §2.11.3: o1 passed on a single 5 holding a 6 (a cheap play the strategist makes,
    greedy too), o2 holding only a K and a 2 (control cards: the strategist may keep them), and
    o3 led the 5 holding a 4 beside three more cards (both bots lead their weakest card): two
    unlikely decisions. With a 2 in place of o3's 4, one; a 6 beside only 2s and a joker is no
    cheap play (it would strand the hand on control cards), and a lead from four cards is not
    judged (the strategist's strong lead)."""
    o1_hand, o2_hand = card(R6) | card(R9, 1) | card(R.RK, 2), card(R.RK) | card(R.R2)
    o3_hand = card(R9) | card(R.RQ) | card(R.RA)
    b, w, seat = trick_world({1: o1_hand, 2: o2_hand, 3: o3_hand | card(R4)})
    assert KS.likelihood(w, b, np.int64(seat)) == EPS ** 2
    b, w, seat = trick_world({1: o1_hand, 2: o2_hand, 3: o3_hand | card(R.R2)})
    assert KS.likelihood(w, b, np.int64(seat)) == EPS
    stranded = card(R6) | card(R.R2, 1) | card(R.R2, 2) | (1 << R.JOKER)
    b, w, seat = trick_world({1: stranded, 2: o2_hand, 3: card(R4) | card(R9) | card(R.RQ)})
    assert KS.likelihood(w, b, np.int64(seat)) == 1.0
    b, w, seat = trick_world({1: o1_hand, 2: o2_hand | card(R.R3), 3: o3_hand | card(R4)})
    assert KS.likelihood(w, b, np.int64(seat)) == EPS ** 2  # a 3 does not beat the 5: o2's pass stays likely
    o1 = [q for q in range(4) if q != seat][0]
    w[S.A0 + o1] = 0  # an opponent out of the round is not judged
    assert KS.likelihood(w, b, np.int64(seat)) == EPS
    w[S.PK], w[S.PC], w[S.PL], w[S.PH] = S.SETK, 1, R4, R4  # o3 answered a 4: no weaker single beats it
    assert KS.likelihood(w, b, np.int64(seat)) == 1.0
    w[S.PASSED] |= 1 << seat  # the seat's own pass is not judged
    w[S.H0 + seat] = card(R6, 3)
    assert KS.likelihood(w, b, np.int64(seat)) == 1.0
