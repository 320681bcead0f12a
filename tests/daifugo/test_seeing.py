"""The all-seeing daifugo search (bots.SEEING, kernel/search.reveal): its worlds are the true game,
only the chance still to come (the undrawn rule cards' order, later deals) drawn again."""

import numpy as np

from sim.games.daifugo import GAME
from sim.games.daifugo import kernel as K
from sim.games.daifugo.kernel import search as KS
from sim.games.daifugo.kernel import state as S
from tests.daifugo.test_search import search_states


def test_the_all_seeing_world_is_the_true_game():
    """Every kept world holds every hand, the set-aside and the removed cards exactly as the game
    does (§2.4, DEC-1, DEC-16: what an honest seat cannot see), and the seat's view; over varied
    states nearly every world is kept."""
    kept = tried = 0
    for i, state in enumerate(search_states(2)[:30]):
        seat = int(state[S.PSEAT])
        n = int(state[S.NP])
        for t in range(2):
            w = state.copy()
            tried += 1
            if not KS.reveal.py_func(w, state, np.int64(seat), np.uint64(7000 * i + t)):
                continue
            kept += 1
            assert np.array_equal(w[S.H0:S.H0 + n], state[S.H0:S.H0 + n])
            assert (w[S.UNDEALT], w[S.REMOVED]) == (state[S.UNDEALT], state[S.REMOVED])
            assert KS.same_view(w, state, np.int64(seat))
    assert kept >= 0.9 * tried, (kept, tried)


def test_a_seeing_seat_is_marked_for_the_search_driver():
    """``start_search_game`` drives the seeing seat as a search seat and marks it (SEEING_SEATS)."""
    cfg = GAME.make_config(players=4, bots=["greedy", "seeing", "search", "greedy"], seed=2)
    g = K.new_state()
    mask = KS.start_search_game(g, np.uint64(cfg.seed), np.int64(0), K.run_vector(GAME, cfg))
    assert (int(g[S.SEEING_SEATS]), int(mask)) == (0b0010, 0b0110)
