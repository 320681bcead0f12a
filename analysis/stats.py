"""Confidence intervals and significance tests (from statsmodels/scipy, not hand-written)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint, proportions_ztest


def wilson(successes, n, alpha: float = 0.05):
    """95% (by default) Wilson score interval; arrays in, (lo, hi) arrays out. n=0 gives NaN."""
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(successes, safe, alpha=alpha, method="wilson")
    return np.where(n > 0, lo, np.nan), np.where(n > 0, hi, np.nan)


def rate_table(df: pd.DataFrame, by: str | list[str], success: str, weight: str | None = None) -> pd.DataFrame:
    """Rate of the boolean/0-1 column ``success`` per group ``by``, with Wilson intervals.

    Columns: the group keys, ``n``, ``successes``, ``rate``, ``lo``, ``hi``. With ``weight``,
    ``n`` is the sum of that column (for pre-aggregated counts) and ``success`` a count.
    """
    if weight is None:
        g = df.groupby(by, observed=True)[success].agg(["size", "sum"])
    else:
        g = df.groupby(by, observed=True)[[weight, success]].sum()
    g.columns = ["n", "successes"]
    g = g.reset_index()
    g["rate"] = g["successes"] / g["n"].where(g["n"] > 0)
    g["lo"], g["hi"] = wilson(g["successes"], g["n"])
    return g


def compare_rates(s1: int, n1: int, s2: int, n2: int) -> dict:
    """Two-proportion z-test: difference, its 95% interval (Newcombe-free normal approx.), p-value."""
    if min(n1, n2) == 0:
        return {"diff": np.nan, "lo": np.nan, "hi": np.nan, "p": np.nan}
    p1, p2 = s1 / n1, s2 / n2
    if (s1 + s2) in (0, n1 + n2):  # no variation at all: identical rates, nothing to test
        return {"diff": 0.0, "lo": 0.0, "hi": 0.0, "p": 1.0}
    _, p = proportions_ztest([s1, s2], [n1, n2])
    se = np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    d = p1 - p2
    return {"diff": d, "lo": d - 1.96 * se, "hi": d + 1.96 * se, "p": float(p)}


def mean_ci(values) -> tuple[float, float, float]:
    """Mean with a 95% t interval."""
    from scipy import stats

    v = np.asarray(values, dtype=float)
    if v.size < 2:
        m = float(v.mean()) if v.size else np.nan
        return m, np.nan, np.nan
    m = float(v.mean())
    lo, hi = stats.t.interval(0.95, v.size - 1, loc=m, scale=stats.sem(v))
    return m, float(lo), float(hi)
