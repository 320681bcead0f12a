"""Shared by the games' step tests: games driven one decision at a time from outside."""

from __future__ import annotations

import numpy as np


def decisions(step, cfg, games: int):
    """Every decision of games 0..games-1 of ``cfg`` driven through ``step`` (a ``sim.kit.step.Step``):
    ``(index, buf, seat, kind name, legal options)``; the caller applies an option to ``buf``
    before the next."""
    k = step.kernel()
    out = np.zeros(step.max_options, dtype=np.int64)
    for index in range(games):
        buf = step.start(cfg, index)
        while (pending := k.step_pending(buf))[0] >= 0:
            n = k.step_legal(buf, out)
            yield index, buf, int(pending[0]), step.kinds[pending[1]], out[:n].copy()


def check_driver_seats(game, cfg, indices, first_batch_row) -> None:
    """step_seats: with seat s alone the driver's (s = index % players), every pending decision
    is s's, the other seats' bots answer theirs (in replays too), and the finished game is the
    reference engine's with s's decisions forced to the same options; with no driver seat the
    bots play it out as the batch does (``first_batch_row(index)``: the batch's games row)."""
    step, k = game.step, game.step.kernel()
    rng = np.random.default_rng(3)
    options = np.zeros(step.max_options, dtype=np.int64)
    for index in indices:
        seat = index % cfg.players
        buf = step.start(cfg, index)
        k.step_seats(buf, np.int64(1 << seat))
        chosen = []
        while k.step_pending(buf)[0] >= 0:
            assert k.step_pending(buf)[0] == seat
            i = int(rng.integers(k.step_legal(buf, options)))
            chosen.append(i)
            assert k.step_apply(buf, options[i]) == 0
        assert chosen, index
        ref, asked = step.reference_outcome(cfg, index, chosen, seats=1 << seat)
        out = step.outcome(cfg, buf)
        assert sum(s == seat for s, _, _ in asked) == len(chosen)
        for name in out:
            assert np.array_equal(out[name], ref[name]), (index, name)
        alone = step.start(cfg, index)
        k.step_seats(alone, np.int64(0))
        assert k.step_pending(alone) == (-1, -1)
        assert np.array_equal(step.outcome(cfg, alone)["games"], first_batch_row(index))
