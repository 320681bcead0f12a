"""Virus Dogs' step contract (kernel ``step_*``, sim/games/virus_dogs/contract.py): the buffer's step
fields and independent copies. The contract itself (random games against the reference engine,
the batch as the contract with nothing applied, refused options, driver seats) is
tests/test_step_contract.py."""

import numpy as np

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs import kernel as K
from sim.games.virus_dogs import tables as tb

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


def test_a_driven_game_sums_its_own_turns_whatever_the_buffer_held():
    """``step_start`` does not clear the per-turn sums (``turn_sums``, after the rest of the
    buffer): a driven game zeroes each turn's row as the turn starts, so a buffer full of another
    game's numbers (or garbage) ends with the same outcome, the per-turn rows included."""
    cfg = GAME.make_config(seed=6)
    run = STEP.run_vector(cfg)
    clean, dirty = np.zeros(K.SIZE, dtype=np.int64), np.full(K.SIZE, 7, dtype=np.int64)
    for b in (clean, dirty):
        K.step_start(b, np.int64(cfg.seed), np.int64(2), run)
        K.step_play_on(b)
    assert K.LAYOUT.fields["turn_sums"].stop == K.SIZE  # last: step_start clears only what is before it
    got, want = STEP.outcome(cfg, dirty), STEP.outcome(cfg, clean)
    assert set(got) == set(want) and all(np.array_equal(got[n], want[n]) for n in want)
    games = want["density"][:, tb.D_GAMES]  # one observation per turn end (the last turn may end the game)
    turns = int(want["games"][tb.G_TURNS])
    assert turns > 1 and (games[:turns - 1] == 1).all() and games[turns - 1] in (0, 1) and not games[turns:].any()
