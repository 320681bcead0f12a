"""The all-seeing faking-sick search (bots.SEEING, kernel_search.reveal): its worlds are the true
game, only the chance still to come drawn again."""

import numpy as np

from sim.games.faking_sick import GAME
from sim.games.faking_sick import kernel as K
from sim.games.faking_sick import kernel_search as KS
from sim.games.faking_sick import kernel_state as S
from sim.games.faking_sick.rules import K_N, NT
from tests.faking_sick.test_search import search_states


def pile(b: np.ndarray) -> np.ndarray:
    return b[S.DRAW:S.DRAW + int(b[S.ND])]


def test_the_all_seeing_world_is_the_true_game_but_the_pile_order():
    """Every kept world holds every hand and banned card exactly as the game does (FS-11.2/11.3's
    hidden cards seen), the same draw pile as a multiset, and the seat's view; over varied states
    the worlds are kept and the pile's order is drawn again in some of them."""
    kept = tried = reordered = 0
    for i, state in enumerate(search_states(4)[:40]):
        seat = int(state[S.PSEAT])
        n = int(state[K_N])
        for t in range(3):
            w = state.copy()
            tried += 1
            if not KS.reveal.py_func(w, state, np.int64(seat), np.uint64(7000 * i + t)):
                continue
            kept += 1
            assert np.array_equal(w[S.HAND:S.HAND + n * NT], state[S.HAND:S.HAND + n * NT])
            assert np.array_equal(w[S.BANNED:S.BANNED + int(state[S.POOL_SIZE])],
                                  state[S.BANNED:S.BANNED + int(state[S.POOL_SIZE])])
            assert np.array_equal(np.sort(pile(w)), np.sort(pile(state)))
            assert KS.same_view(w, state, np.int64(seat))
            reordered += not np.array_equal(pile(w), pile(state))
    assert kept >= 0.9 * tried and reordered >= 0.5 * kept, (kept, tried, reordered)


def test_a_seeing_seat_is_marked_for_the_search_driver():
    """``start_search_game`` drives the seeing seat as a search seat and marks it (SEEING_SEATS)."""
    cfg = GAME.make_config(players=4, bots=["caller", "seeing", "search", "caller"], seed=2)
    g = K.new_state()
    mask = KS.start_search_game(g, np.uint64(cfg.seed), np.int64(0), K.run_vector(GAME, cfg))
    assert (int(g[S.SEEING_SEATS]), int(mask)) == (0b0010, 0b0110)


def test_seeing_the_banned_cards_beats_the_honest_search_at_the_same_budget():
    """80 games of one search seat against three callers, budget 4, the same deals: the seat that
    sees the hidden cards (FS-11.3) wins more, the Newcombe 95% interval of the difference above 0."""
    from sim.stats import rate_difference

    wins = {}
    for bot in ("search", "seeing"):
        cfg = GAME.make_config(players=4, bots=[bot, "caller", "caller", "caller"], seed=11,
                               overrides={f"bot.{bot}.budget": 4})
        seats = GAME.run_batch(cfg, 0, 80, "fast")["seats"]
        mine = seats[seats["bot"] == bot]
        wins[bot] = (int(mine["win"].sum()), len(mine))
    d = rate_difference(*wins["seeing"], *wins["search"])
    assert d["lo"] > 0, (wins, d)
