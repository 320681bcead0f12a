"""The daifugo search with weighted worlds (bots.WEIGHTED, kernel/search.likelihood,
sim.search.decide): it does not peek (§2.4, DEC-1, DEC-16), and a world's weight is
MISPLAY_EPSILON to the opponents' decisions in the trick the strategist's rule would not make."""

import numpy as np

from sim.games.daifugo import GAME
from sim.games.daifugo import kernel as K
from sim.games.daifugo import rules as R
from sim.games.daifugo.kernel import search as KS
from sim.games.daifugo.kernel import state as S
from sim.search import MODE_HONEST, MODE_SEEING, MODE_WEIGHTED, N_STATS, decide, search_key
from tests.daifugo.test_search import BUDGET, CFG, hidden_swaps, search_states

EPS = KS.MISPLAY_EPSILON
R4, R5, R6, R9 = 1, 2, 3, 6  # rank indices (rules: 3 is 0, 2 is 12)


def card(rank: int, suit: int = 0) -> int:
    return 1 << (4 * rank + suit)


def trick_world(hands: dict[int, int]) -> tuple[np.ndarray, np.ndarray, int]:
    """A state of the search tests with the seat to answer a single 5 that seat ``o3`` led,
    ``o1`` and ``o2`` having passed, no rule card in force; and a world of it holding ``hands``
    (by opponent: 1, 2, 3 for o1, o2, o3). Returns (state, world, seat)."""
    b = search_states(1)[0].copy()
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


def weighted_choice(b: np.ndarray, key) -> int:
    seat = int(b[S.PSEAT])
    return int(KS.search_decide(b, np.int64(seat), np.uint64(key), np.int64(BUDGET), np.int64(0), np.int64(1),
                                np.empty(GAME.step.max_options, dtype=np.int64), np.int64(MODE_WEIGHTED),
                                np.zeros(N_STATS, dtype=np.int64)))


def peeking_choice(b: np.ndarray, key) -> int:
    """The weighted search with a weight that reads the true hands of ``b``: 0.01 to the number
    of cards a world's hands differ from them by."""
    seat, n = int(b[S.PSEAT]), int(b[S.NP])

    def peek(w, truth, s):
        return 0.01 ** float(sum(bin(int(w[S.H0 + o]) ^ int(truth[S.H0 + o])).count("1") for o in range(n)))

    def redeal(w, b, seat, key):  # a compiled uint64 comes back to Python as an int
        return KS.determinize.py_func(w, b, seat, np.uint64(key))

    head = (b, np.int64(seat), np.uint64(key), np.int64(BUDGET), np.int64(0), np.int64(1),
            np.empty(GAME.step.max_options, dtype=np.int64))
    return int(decide.py_func(*head, np.int64(MODE_WEIGHTED), K.step_legal, KS.resume_copy, redeal, redeal, peek,
                              KS.rollout.py_func, KS.score, np.zeros(N_STATS, dtype=np.int64)))


def test_no_peeking_weighted_choice_unchanged_when_the_hidden_cards_are_permuted():
    """§2.4, DEC-1, DEC-16: the weighted search gives the same choice on states whose hidden cards
    are permuted consistently with the seat's view (the same stream), as the honest search does;
    the same check fails a weight that reads the true hands."""
    rng = np.random.default_rng(1)
    pairs = []
    for state in search_states(4):
        if len(pairs) >= 40:
            break
        seat = int(state[S.PSEAT])
        other = None
        for _ in range(4):
            other = hidden_swaps(state, seat, rng)
            if other is not None:
                break
        if other is not None and not np.array_equal(other[S.SNAP:S.SNAP + S.STATE_SIZE],
                                                    state[S.SNAP:S.SNAP + S.STATE_SIZE]):
            key = search_key(np.uint64(CFG.seed), np.int64(0), np.int64(seat), state[S.DECISIONS])
            pairs.append((state, other, key))
    assert len(pairs) >= 30
    assert sum(a[S.PASSED] != 0 for a, _, _ in pairs) >= 5  # decisions after passes in the trick: weights differ
    assert [weighted_choice(a, k) for a, _, k in pairs] == [weighted_choice(b, k) for _, b, k in pairs]
    peeks = [(peeking_choice(a, k), peeking_choice(b, k)) for a, b, k in pairs]
    assert any(x != y for x, y in peeks)


def test_a_weighted_seat_is_marked_for_the_search_driver():
    """``start_search_game`` drives the weighted seat as a search seat and marks it
    (WEIGHTED_SEATS); the driver searches weighted worlds for it."""
    cfg = GAME.make_config(players=4, bots=["greedy", "weighted", "seeing", "search"], seed=2)
    g = K.new_state()
    mask = KS.start_search_game(g, np.uint64(cfg.seed), np.int64(0), K.run_vector(GAME, cfg))
    assert (int(g[S.WEIGHTED_SEATS]), int(g[S.SEEING_SEATS]), int(mask)) == (0b0010, 0b0100, 0b1110)
    assert [KS.world_mode(g, s) for s in (1, 2, 3)] == [MODE_WEIGHTED, MODE_SEEING, MODE_HONEST]
