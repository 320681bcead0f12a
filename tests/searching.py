"""Shared by the games' search and step-seat tests: driver seats, and runs with search seats."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.load import Run
from sim import runner


def assert_driver_seats_answer_alone(game, cfg, games: int, batch_games_row) -> None:
    """``step_seats`` (a kernel with a search bot): with seat s alone the driver's, every pending
    decision is s's, the other seats' bots answer theirs (in replays too), and the finished game
    is the reference engine's with s's decisions forced to the same random options; with no
    driver seat the bots play it out as the batch does (``batch_games_row(cfg, index)``: the
    batch's games row of that game)."""
    step = game.step
    k = step.kernel()
    rng = np.random.default_rng(3)
    options = np.zeros(step.max_options, dtype=np.int64)
    for index in range(games):
        seat = index % cfg.players
        buf = step.start(cfg, index)
        k.step_seats(buf, np.int64(1 << seat))
        chosen = []
        while k.step_pending(buf)[0] >= 0:
            assert k.step_pending(buf)[0] == seat
            pick = int(rng.integers(k.step_legal(buf, options)))
            chosen.append(pick)
            assert k.step_apply(buf, options[pick]) == 0
        assert chosen, index
        ref, asked = step.reference_outcome(cfg, index, chosen, seats=1 << seat)
        out = step.outcome(cfg, buf)
        assert sum(s == seat for s, _, _ in asked) == len(chosen)
        for name in out:
            assert np.array_equal(out[name], ref[name]), (index, name)
        alone = step.start(cfg, index)
        k.step_seats(alone, np.int64(0))
        assert k.step_pending(alone) == (-1, -1)
        assert np.array_equal(step.outcome(cfg, alone)["games"], batch_games_row(cfg, index))


def assert_same_for_any_worker_count(game, cfg, tmp_path, games: int = 8) -> None:
    """A run (with search seats): 1 worker in one batch equals 2 workers in batches of 3."""
    runner.run(cfg, games, tmp_path / "a", workers=1, batch_size=games, progress=False)
    runner.run(cfg, games, tmp_path / "b", workers=2, batch_size=3, progress=False)
    a, b = Run(tmp_path / "a"), Run(tmp_path / "b")
    for name in game.tables:
        pd.testing.assert_frame_equal(a.table(name), b.table(name))


def assert_search_leaves_states(states, choose) -> None:
    """The search works on copies: each game buffer, its generator counter included, is the
    same after ``choose(state)`` (a search decision), so the game's own draws follow its protocol."""
    for state in states:
        before = state.copy()
        choose(state)
        assert np.array_equal(state, before)
