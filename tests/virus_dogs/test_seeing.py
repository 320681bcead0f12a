"""The all-seeing virus-dogs search (bots.SEEING, kernel_search.reveal): its worlds are the true
game, only the chance still to come drawn again."""

import numpy as np

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs import kernel as K
from sim.games.virus_dogs import kernel_search as KS
from sim.games.virus_dogs import kernel_state as S
from tests.virus_dogs.test_search import search_states

NT = S.NT


def deck(b: np.ndarray) -> np.ndarray:
    return b[S.O_DECK:S.O_DECK + int(b[S.S_DSIZE])]


def test_the_all_seeing_world_is_the_true_game_but_the_deck_order():
    """Every kept world holds every hand exactly as the game does (VD-22's hidden cards seen),
    the same deck as a multiset, and the seat's view; over varied states the worlds are kept
    and the deck's order below the cards seen is drawn again in some of them."""
    kept = tried = reordered = 0
    for i, state in enumerate(search_states(4, every=3)[:40]):
        seat = int(state[S.S_PSEAT])
        n = int(state[S.S_N])
        for t in range(3):
            w = state.copy()
            tried += 1
            if not KS.reveal.py_func(w, state, np.int64(seat), np.uint64(7000 * i + t)):
                continue
            kept += 1
            assert np.array_equal(w[S.O_H:S.O_H + n * NT], state[S.O_H:S.O_H + n * NT])
            assert np.array_equal(np.sort(deck(w)), np.sort(deck(state)))
            assert w[S.S_PSEAT] == state[S.S_PSEAT] and w[S.S_PKIND] == state[S.S_PKIND]
            assert KS.same_view(w, state, np.int64(seat))
            reordered += not np.array_equal(deck(w), deck(state))
    assert kept >= 0.9 * tried and reordered >= 0.5 * kept, (kept, tried, reordered)


def test_a_seeing_seat_is_marked_for_the_search_driver():
    """``step_start`` marks the seeing seat (S_SEEING) among the search seats (S_SEARCH)."""
    cfg = GAME.make_config(players=4, bots=["cautious", "seeing", "search", "cautious"], seed=2)
    g = K.new_state()
    KS.start_search_game(g, cfg.seed, 0, K.run_vector(GAME, cfg))
    policies = [cfg.bots[(0 + s) % 4] for s in range(4)]
    seeing = sum(1 << s for s, p in enumerate(policies) if p == "seeing")
    search = sum(1 << s for s, p in enumerate(policies) if p in ("seeing", "search"))
    assert (int(g[S.S_SEEING]), int(g[S.S_SEARCH])) == (seeing, search)
