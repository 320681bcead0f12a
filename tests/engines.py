"""Shared check for differential tests: both engines give identical result tables."""

import pandas as pd


def engines_agree(game, cfg, start: int, count: int) -> dict[str, pd.DataFrame]:
    """Play games ``start..start+count-1`` in both engines; assert every table is equal.

    Returns the fast engine's tables for further checks.
    """
    fast = game.run_batch(cfg, start, count, "fast")
    ref = game.run_batch(cfg, start, count, "reference")
    assert set(fast) == set(ref) == set(game.tables)
    for name in game.tables:
        pd.testing.assert_frame_equal(fast[name], ref[name], check_exact=True, obj=f"table '{name}'")
    return fast
