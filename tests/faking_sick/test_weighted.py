"""The faking-sick search with weighted worlds (bots.WEIGHTED, kernel_search.likelihood,
sim.search.decide): it does not peek (FS-11.2/11.3), and a world's weight is the
epsilon-softened honest likelihood of the opponents' plays."""

import numpy as np
import pytest

from sim.games.faking_sick import GAME
from sim.games.faking_sick import kernel as K
from sim.games.faking_sick import kernel_search as KS
from sim.games.faking_sick import kernel_state as S
from sim.games.faking_sick import tables as T
from sim.games.faking_sick.rules import K_BPP, K_N, MAX_PLAYERS, NT
from sim.search import MODE_HONEST, MODE_WEIGHTED, N_STATS, decide, search_key
from tests.faking_sick.test_search import hidden_swaps, search_states


def weighted_choice(b: np.ndarray) -> int:
    seat = int(b[S.PSEAT])
    key = search_key(np.uint64(5), np.int64(0), np.int64(seat), np.int64(b[S.GAME_ROW + KS.G_DECISIONS]))
    return int(KS.search_decide(b, np.int64(seat), np.uint64(key), np.int64(24), np.int64(0), np.int64(1),
                                np.empty(GAME.step.max_options, dtype=np.int64), np.int64(MODE_WEIGHTED),
                                np.zeros(N_STATS, dtype=np.int64)))


def test_likelihood_is_epsilon_to_the_plays_of_banned_types():
    """FS-5: a world banning types t and u for opponent o (and t twice for another) weighs
    epsilon ** (o's plays of t and u + the other's plays of t); the seat's own plays do not count."""
    b = search_states(1)[0].copy()
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


def test_no_peeking_weighted_choice_unchanged_when_the_hidden_cards_are_permuted():
    """FS-11.3: the weighted search gives the same choice on states whose hidden cards are
    permuted consistently with the seat's view (the same stream), as the honest search does."""
    rng = np.random.default_rng(1)
    pairs = []
    options = np.zeros(GAME.step.max_options, dtype=np.int64)
    for state in search_states(6):
        if len(pairs) >= 20:
            break
        if K.step_legal(state, options) < 2:
            continue
        other = hidden_swaps(state, int(state[S.PSEAT]), rng)
        if other is not None and not np.array_equal(other[S.SNAP:], state[S.SNAP:]):
            pairs.append((state, other))
    assert len(pairs) >= 15
    assert [weighted_choice(a) for a, _ in pairs] == [weighted_choice(b) for _, b in pairs]
    # the same check fails a weight that peeks: worlds nearer the true hands and banned cards weigh more
    peeks = [(peeking_choice(a), peeking_choice(b)) for a, b in pairs]
    assert any(x != y for x, y in peeks)


def peeking_choice(b: np.ndarray) -> int:
    """The weighted search with a weight that reads the true hidden cards of ``b``: 0.01 to the
    number of hand cards and banned slots a world has otherwise."""
    seat, n, k = int(b[S.PSEAT]), int(b[K_N]), int(b[K_BPP])
    hands, banned = slice(S.HAND, S.HAND + n * NT), slice(S.BANNED, S.BANNED + n * k)

    def peek(w, truth, s):
        return 0.01 ** float(np.abs(w[hands] - truth[hands]).sum() + (w[banned] != truth[banned]).sum())

    key = search_key(np.uint64(5), np.int64(0), np.int64(seat), np.int64(b[S.GAME_ROW + KS.G_DECISIONS]))
    head = (b, np.int64(seat), np.uint64(key), np.int64(24), np.int64(0), np.int64(1),
            np.empty(GAME.step.max_options, dtype=np.int64))
    return int(decide.py_func(*head, np.int64(MODE_WEIGHTED), K.step_legal, KS.resume_copy, KS.determinize.py_func,
                              KS.determinize.py_func, peek, KS.rollout.py_func, KS.score,
                              np.zeros(N_STATS, dtype=np.int64)))


def test_with_every_weight_1_the_weighted_search_is_the_search():
    """The weighted search with a weight of 1 for every world chooses as the honest one does
    (the same worlds and rollouts from the same stream): the weights are the only difference."""
    def unit(w, b, seat):
        return 1.0

    for state in search_states(2)[:6]:
        seat = int(state[S.PSEAT])
        head = (state, np.int64(seat), np.uint64(77 + seat), np.int64(12), np.int64(0), np.int64(1),
                np.empty(GAME.step.max_options, dtype=np.int64))
        plain = int(KS.search_decide(*head, np.int64(MODE_HONEST), np.zeros(N_STATS, dtype=np.int64)))
        weighted = int(decide.py_func(*head, np.int64(MODE_WEIGHTED), K.step_legal, KS.resume_copy,
                                      KS.determinize.py_func, KS.determinize.py_func, unit, KS.rollout.py_func,
                                      KS.score, np.zeros(N_STATS, dtype=np.int64)))
        assert weighted == plain
