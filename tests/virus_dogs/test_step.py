"""Virus Dogs' step contract (kernel ``step_*``, sim/games/virus_dogs/contract.py): the buffer's step
fields and independent copies. The contract itself (random games against the reference engine,
the batch as the contract with nothing applied, refused options, driver seats) is
tests/test_step_contract.py."""

import numpy as np

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs import kernel as K

STEP = GAME.step


def test_step_fields_are_declared_and_fit():
    """The step block is declared in LAYOUT after the engine state it snapshots: the unit
    snapshot holds the per-game state, the generator's counter and a full deck, the pending
    state everything up to the deck's end; the pending options block holds the largest
    decision (a full action menu, every subset of the largest mask peek); the kind names are
    the reference engine's."""
    f = K.LAYOUT.fields
    assert f["snapshot"].size == K.FRESH_STOP + 1 + f["deck"].size and f["deck"].offset == f["rng"].stop
    assert f["pending_state"].size == f["deck"].stop <= f["stepped"].offset
    assert f["pending_options"].size >= max(f["options"].size, 1 << GAME.param("mask_peek").hi,
                                            GAME.param("black_market_look").hi)
    assert STEP.kinds == K.KINDS and STEP.max_options == f["pending_options"].size
    assert K.RUN.size == K.RUN["table_bot_params"].stop
    assert K.STEP not in {spec.policy for spec in GAME.bots.values()}


def test_a_copy_goes_on_alone():
    """Applying options on a copy leaves the original where it was, and the original then
    plays on to the same game as one never copied."""
    cfg = GAME.make_config(seed=4)
    a = STEP.start(cfg, 3)
    out = np.zeros(STEP.max_options, dtype=np.int64)
    for _ in range(5):
        K.step_legal(a, out)
        assert K.step_apply(a, out[0]) == 0
    b = a.copy()
    while K.step_pending(b)[0] >= 0:
        K.step_legal(b, out)
        K.step_apply(b, out[K.step_legal(b, out) - 1])
    fresh = STEP.start(cfg, 3)
    for _ in range(5):
        K.step_legal(fresh, out)
        K.step_apply(fresh, out[0])
    assert np.array_equal(a, fresh)
    K.step_play_on(a)
    K.step_play_on(fresh)
    assert np.array_equal(a, fresh)
