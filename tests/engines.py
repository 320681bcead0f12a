"""Shared check for differential tests: both engines give identical result tables."""

import os

import pandas as pd

# The reference engine replays the first this-many games of each check (unset: all of them).
# `make test-boundscheck` sets 0: the bounds-checked fast engine plays every game again, and
# the reference engine, which the normal pass compared on these very games, plays none.
_LIMIT = os.environ.get("CARDLAB_DIFF_REFERENCE_GAMES")
REFERENCE_GAMES = None if _LIMIT in (None, "") else int(_LIMIT)


def engines_agree(game, cfg, start: int, count: int, limited: bool = True) -> dict[str, pd.DataFrame]:
    """Play games ``start..start+count-1`` in both engines; assert every table is equal (the
    reference engine only the first ``REFERENCE_GAMES``, unless not ``limited``: a test that
    watches the reference engine play them).

    Returns the fast engine's tables for further checks.
    """
    fast = game.run_batch(cfg, start, count, "fast")
    compared = fast
    if limited and REFERENCE_GAMES is not None and count > REFERENCE_GAMES:
        count = REFERENCE_GAMES
        if count == 0:
            return fast
        compared = game.run_batch(cfg, start, count, "fast")
    ref = game.run_batch(cfg, start, count, "reference")
    assert set(fast) == set(ref) == set(game.tables)
    for name in game.tables:
        pd.testing.assert_frame_equal(compared[name], ref[name], check_exact=True, obj=f"table '{name}'")
    return fast


def same_for_any_workers(game, cfg, games: int, tmp_path) -> None:
    """A run of ``cfg``: 1 worker in one batch equals 2 workers in batches of 3."""
    from analysis.load import Run
    from sim.run import runner

    runner.run(cfg, games, tmp_path / "a", runner.RunOptions(workers=1, batch_size=games, progress=False))
    runner.run(cfg, games, tmp_path / "b", runner.RunOptions(workers=2, batch_size=3, progress=False))
    a, b = Run(tmp_path / "a"), Run(tmp_path / "b")
    for name in game.tables:
        pd.testing.assert_frame_equal(a.table(name), b.table(name))
