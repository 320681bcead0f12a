"""The kernel's named state buffer (``LAYOUT``, kernel/state.py): fields, sizes and the final state
they hold."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sim.games.faking_sick import GAME
from sim.games.faking_sick import kernel as K
from sim.games.faking_sick.kernel import state as KS
from sim.games.faking_sick.rules import MAX_DECK, MAX_PLAYERS, MAX_POOL, NT, PARAMS, PV, VIR, encode
from sim.games.faking_sick.tables import new_arrays


def test_state_fields_are_named_and_sized_from_the_parameter_bounds():
    hi = {p.name: p.hi for p in PARAMS}
    assert GAME.max_players <= MAX_PLAYERS
    assert MAX_DECK == NT * hi["deck_counts"] and MAX_POOL == NT * hi["banned_pool"]
    f = K.LAYOUT.fields
    assert f["hands"].size == f["cleared"].size == MAX_PLAYERS * NT
    assert f["banned"].size == MAX_POOL and f["draw_pile"].size == MAX_DECK
    # the discard pile restarts at DISC_MID with room for the whole deck below and above it
    assert f["discard_pile"].offset + MAX_DECK == KS.DISC_MID
    assert f["discard_pile"].stop >= KS.DISC_MID + MAX_DECK
    assert K.LAYOUT.size == sum(x.size for x in f.values())
    assert "draw_pile" in K.LAYOUT.describe()


def test_parameter_vector_is_named():
    cfg = GAME.make_config(players=3, overrides={"push_count": 4, "banned_pool": "FEV=3,SNZ=2,INJ=1"})
    v = encode(cfg)
    assert len(v) == PV.size
    assert v[PV["players"].offset] == 3 and v[PV["push_count"].offset] == 4
    assert list(PV.view(v, "banned_pool")) == [0, 3, 2, 1, 0, 0, 0]


def final_state(cfg, game_index):
    """The state buffer after game ``game_index`` (fast engine) and its games/seats rows."""
    arr = new_arrays(1, cfg.players)
    b = K.run_kernel(GAME, cfg, game_index, 1, arr)
    return b, arr["games"][0], arr["seats"][0]


def zone_counts(cfg, b) -> Counter:
    """FS-1.3: every card of the final state by type, read through the LAYOUT field names."""
    n, k = cfg.players, cfg.params["banned_per_player"]
    c = Counter({VIR: 1})  # the virus marker (FS-2.2)
    hands = K.LAYOUT.view(b, "hands")[:n * NT].reshape(n, NT)
    for t in range(NT):
        c[t] += int(hands[:, t].sum())
    pool = K.LAYOUT.view(b, "banned")[:b[KS.POOL_SIZE]]  # n*k slots, then the unused pool
    c.update(int(x) for x in pool if x >= 0)
    c.update(int(x) for x in K.LAYOUT.view(b, "draw_pile")[:b[KS.ND]])
    c.update(int(x) for x in b[b[KS.DLO]:b[KS.DHI]])
    assert K.LAYOUT["discard_pile"].offset <= b[KS.DLO] < b[KS.DHI] <= K.LAYOUT["discard_pile"].stop
    assert len(pool) >= n * k
    return c


@pytest.mark.parametrize("players", [3, 4])
def test_final_state_holds_every_card(players):
    """FS-1.3 on the kernel's own final state: the zones hold the whole deck (less the card
    left in limbo by a push-out, FS-7.3 step 2), and the named fields agree with the tables."""
    cfg = GAME.make_config(players=players, seed=4)
    deck = cfg.params["deck_counts"]
    seen_methods = set()
    for g in range(12):
        b, games, seats = final_state(cfg, g)
        method = games[KS.G_METHOD]
        seen_methods.add(int(method))
        counts = zone_counts(cfg, b)
        limbo = 1 if method == KS.PUSH_OUT else 0
        assert sum(counts.values()) + limbo == sum(deck)
        if not limbo:
            assert [counts[t] for t in range(NT)] == list(deck)
        sizes = K.LAYOUT.view(b, "hand_sizes")[:players]
        hands = K.LAYOUT.view(b, "hands")[:players * NT].reshape(players, NT)
        assert list(sizes) == list(hands.sum(axis=1)) == list(seats[:, KS.S_FINAL])
        assert list(K.LAYOUT.view(b, "game_row")) == list(games) and b[KS.TURNS] == games[KS.G_TURNS]
        assert b[KS.POOL_SIZE] == sum(cfg.params["banned_pool"])
    assert KS.PLAY_OUT in seen_methods


def test_state_buffer_is_reused_between_games():
    """Nothing of one game leaks into the next: a reused buffer gives the same rows."""
    cfg = GAME.make_config(players=4, seed=9)
    arr = new_arrays(1, 4)
    b = K.run_kernel(GAME, cfg, 5, 1, arr)
    fresh = arr["games"].copy()
    b[:] = 7  # garbage from an imaginary earlier game
    arr = new_arrays(1, 4)
    K.run_kernel(GAME, cfg, 5, 1, arr, state=b)
    assert np.array_equal(arr["games"], fresh)
