"""Virus Dogs' step contract (kernel ``step_*``, sim/games/virus_dogs/step.py): the batch is the
contract with nothing applied, the buffer's step fields, and the status codes. The contract
itself, random games against the reference engine, is tests/test_game_contract.py."""

import numpy as np
import pytest

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs import kernel as K
from sim.games.virus_dogs import tables as tb

from tests.stepping import check_driver_seats
from tests.virus_dogs.test_differential import VARIANTS

STEP = GAME.step


@pytest.mark.parametrize("overrides", [{}] + VARIANTS[:4], ids=lambda o: ",".join(o) or "defaults")
def test_batch_rows_are_start_then_play_on(overrides):
    """Every game of a batch equals step_start + step_play_on of the same index (game and seat
    rows), and the batch's draw sums are the sums of the games'."""
    cfg = GAME.make_config(players=4, bots=["random", "cautious", "aggressive", "random"], seed=9,
                           overrides=overrides)
    start, count = 30, 25
    games, seats, _dens, draws, deck = GAME.fast_batch(cfg, start, count)
    draw_sum, deck_sum = np.zeros_like(draws, dtype=np.int64), np.zeros_like(deck, dtype=np.int64)
    for k in range(count):
        buf = STEP.start(cfg, start + k)
        K.step_play_on(buf)
        out = STEP.outcome(cfg, buf)
        assert np.array_equal(out["games"], games[:, k]), k
        assert np.array_equal(out["seats"], seats[:, k * 4:(k + 1) * 4].T), k
        draw_sum += out["draw_density"]
        deck_sum += out["deck_density"]
    assert np.array_equal(draw_sum, draws) and np.array_equal(deck_sum, deck)


def test_step_fields_are_declared_and_fit():
    """The step block is declared in LAYOUT after the engine state it snapshots: the unit
    snapshot holds the per-game state, the generator's counter and a full deck, the pending
    state everything up to the deck's end; the pending options block holds the largest
    decision (a full action menu, every subset of the largest mask peek); the kind names are
    the reference engine's."""
    f = K.LAYOUT.fields
    assert f["unit_snapshot"].size == K.FRESH_STOP + 1 + f["deck"].size and f["deck"].offset == f["rng"].stop
    assert f["pending_state"].size == f["deck"].stop <= f["stepped"].offset
    assert f["pending_options"].size >= max(f["options"].size, 1 << GAME.param("mask_peek").hi,
                                            GAME.param("black_market_look").hi)
    assert STEP.kinds == K.KINDS and STEP.max_options == f["pending_options"].size
    assert K.RUN.size == K.RUN["table_bot_params"].stop
    assert K.STEP not in {spec.policy for spec in GAME.bots.values()}


def test_apply_status_leaves_the_buffer_unchanged():
    cfg = GAME.make_config(seed=2)
    buf = STEP.start(cfg, 1)
    out = np.zeros(STEP.max_options, dtype=np.int64)
    n = K.step_legal(buf, out)
    seat, kind = K.step_pending(buf)
    assert n >= 1 and seat == K.LAYOUT.view(buf, "game_row")[tb.G_FIRST] and STEP.kinds[kind] == "action"
    before = buf.copy()
    assert K.step_apply(buf, np.int64(-7)) == -2
    assert np.array_equal(buf, before)
    K.step_play_on(buf)
    over = buf.copy()
    assert K.step_pending(buf) == (-1, -1) and K.step_legal(buf, out) == 0
    assert K.step_apply(buf, out[0]) == -1
    assert np.array_equal(buf, over)


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


@pytest.mark.parametrize("overrides", [{}, {"hq_target": "choice", "draw_count_declared_upfront": True}],
                         ids=["defaults", "hq-choice,upfront"])
def test_driver_seats_answer_only_their_own_decisions(overrides):
    """step_seats: with seat s alone the driver's, every pending decision is s's, the other
    seats' bots answer theirs (in the unit's replays too), and the finished game is the
    reference engine's with s's decisions forced to the same options; with no driver seat the
    bots play it out as the batch does."""
    cfg = GAME.make_config(players=4, bots=["random", "cautious", "aggressive", "cautious"], seed=13,
                           overrides=overrides)
    check_driver_seats(GAME, cfg, range(12), lambda i: GAME.fast_batch(cfg, i, 1)[0][:, 0])
