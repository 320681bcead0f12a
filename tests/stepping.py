"""Shared by the games' step tests: games driven one decision at a time from outside."""

from __future__ import annotations

import numpy as np


def decisions(step, cfg, games: int):
    """Every decision of games 0..games-1 of ``cfg`` driven through ``step`` (a ``sim.step.Step``):
    ``(index, buf, seat, kind name, legal options)``; the caller applies an option to ``buf``
    before the next."""
    k = step.kernel()
    out = np.zeros(step.max_options, dtype=np.int64)
    for index in range(games):
        buf = step.start(cfg, index)
        while (pending := k.step_pending(buf))[0] >= 0:
            n = k.step_legal(buf, out)
            yield index, buf, int(pending[0]), step.kinds[pending[1]], out[:n].copy()
