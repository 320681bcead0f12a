"""The virus-dogs search with weighted worlds (bots.WEIGHTED, kernel_search.likelihood,
sim.search.decide): it does not peek (VD-22), and a world's weight is the chance that
the opponents kept its viruses hidden under the cautious rule softened by HIDE_EPSILON."""

import numpy as np

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs import kernel as K
from sim.games.virus_dogs import kernel_search as KS
from sim.games.virus_dogs import kernel_state as S
from sim.search import MODE_HONEST, MODE_SEEING, MODE_WEIGHTED, N_STATS, decide, search_key
from tests.virus_dogs.test_search import BUDGET, CFG, hidden_swaps, search_states, snap

NT = S.NT


def weighted_choice(b: np.ndarray, key) -> int:
    seat = int(b[S.S_PSEAT])
    return int(KS.search_decide(b, np.int64(seat), np.uint64(key), np.int64(BUDGET), np.int64(0), np.int64(1),
                                np.empty(GAME.step.max_options, dtype=np.int64), np.int64(MODE_WEIGHTED),
                                np.zeros(N_STATS, dtype=np.int64)))


def test_likelihood_is_epsilon_to_the_viruses_held_beside_a_cure():
    """VD-6: a world giving a live opponent 2 viruses and an antiseptic, another 3 viruses and a
    doctor while a declaration is safe, a third 4 viruses and nothing that cures weighs
    epsilon ** (2 + 3); the seat's own viruses and an eliminated opponent's do not count."""
    b = search_states(1)[0].copy()
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


def test_no_peeking_weighted_choice_unchanged_when_the_hidden_cards_are_permuted():
    """VD-22: the weighted search gives the same choice on states whose hidden cards are
    permuted consistently with the seat's view (the same stream), as the honest search does."""
    rng = np.random.default_rng(1)
    pairs = []
    for state in search_states(12, every=3):
        if len(pairs) >= 20:
            break
        seat = int(state[S.S_PSEAT])
        other = hidden_swaps(state, seat, rng)
        if other is not None and not np.array_equal(other[S.O_USNAP:S.O_PSNAP], state[S.O_USNAP:S.O_PSNAP]):
            key = search_key(np.uint64(CFG.seed), np.int64(0), np.int64(seat), KS.decision_number(state, seat))
            pairs.append((state, other, key))
    assert len(pairs) >= 15
    assert [weighted_choice(a, k) for a, _, k in pairs] == [weighted_choice(b, k) for _, b, k in pairs]
    # the same check fails a weight that peeks: worlds nearer the true hands weigh more
    peeks = [(peeking_choice(a, k), peeking_choice(b, k)) for a, b, k in pairs]
    assert any(x != y for x, y in peeks)


def peeking_choice(b: np.ndarray, key) -> int:
    """The weighted search with a weight that reads the true hands of ``b``: 0.01 to the number
    of cards a world's hands differ from them by."""
    seat, hands = int(b[S.S_PSEAT]), slice(S.O_H, S.O_H + int(b[S.S_N]) * NT)

    def peek(w, truth, s):
        return 0.01 ** float(np.abs(w[hands] - truth[hands]).sum())

    def redeal(w, b, seat, key):  # a compiled uint64 comes back to Python as an int
        return KS.determinize.py_func(w, b, seat, np.uint64(key))

    head = (b, np.int64(seat), np.uint64(key), np.int64(BUDGET), np.int64(0), np.int64(1),
            np.empty(GAME.step.max_options, dtype=np.int64))
    return int(decide.py_func(*head, np.int64(MODE_WEIGHTED), K.step_legal, KS.resume_copy, redeal, redeal, peek,
                              KS.rollout.py_func, KS.score, np.zeros(N_STATS, dtype=np.int64)))


def test_with_every_weight_1_the_weighted_search_is_the_search():
    """The weighted search with a weight of 1 for every world chooses as the honest one does
    (the same worlds and rollouts from the same stream): the weights are the only difference."""
    def unit(w, b, seat):
        return 1.0

    def redeal(w, b, seat, key):  # a compiled uint64 comes back to Python as an int
        return KS.determinize.py_func(w, b, seat, np.uint64(key))

    for state in search_states(2)[:6]:
        seat = int(state[S.S_PSEAT])
        head = (state, np.int64(seat), np.uint64(77 + seat), np.int64(12), np.int64(0), np.int64(1),
                np.empty(GAME.step.max_options, dtype=np.int64))
        plain = int(KS.search_decide(*head, np.int64(MODE_HONEST), np.zeros(N_STATS, dtype=np.int64)))
        weighted = int(decide.py_func(*head, np.int64(MODE_WEIGHTED), K.step_legal, KS.resume_copy, redeal, redeal,
                                      unit, KS.rollout.py_func, KS.score, np.zeros(N_STATS, dtype=np.int64)))
        assert weighted == plain


def test_a_weighted_seat_is_marked_for_the_search_driver():
    """``step_start`` marks the weighted seat (S_WEIGHTED) among the search seats (S_SEARCH), and
    the driver searches weighted worlds for it."""
    cfg = GAME.make_config(players=4, bots=["cautious", "weighted", "seeing", "search"], seed=2)
    g = K.new_state()
    KS.start_search_game(g, cfg.seed, 0, K.run_vector(GAME, cfg))
    assert (int(g[S.S_WEIGHTED]), int(g[S.S_SEEING]), int(g[S.S_SEARCH])) == (0b0010, 0b0100, 0b1110)
    assert [KS.world_mode(g, s) for s in (1, 2, 3)] == [MODE_WEIGHTED, MODE_SEEING, MODE_HONEST]
