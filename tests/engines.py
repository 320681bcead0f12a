"""Shared check for differential tests: both engines give identical result tables."""

import os

import pandas as pd

# `make test-boundscheck` sets this: the bounds-checked fast engine still plays every game,
# the slow reference engine only the first this-many games of each check
REFERENCE_GAMES = int(os.environ.get("CARDLAB_DIFF_REFERENCE_GAMES", "0")) or None


def engines_agree(game, cfg, start: int, count: int) -> dict[str, pd.DataFrame]:
    """Play games ``start..start+count-1`` in both engines; assert every table is equal.

    Returns the fast engine's tables for further checks.
    """
    fast = game.run_batch(cfg, start, count, "fast")
    compared = fast
    if REFERENCE_GAMES and count > REFERENCE_GAMES:
        count = REFERENCE_GAMES
        compared = game.run_batch(cfg, start, count, "fast")
    ref = game.run_batch(cfg, start, count, "reference")
    assert set(fast) == set(ref) == set(game.tables)
    for name in game.tables:
        pd.testing.assert_frame_equal(compared[name], ref[name], check_exact=True, obj=f"table '{name}'")
    return fast
