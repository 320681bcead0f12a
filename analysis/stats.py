"""Confidence intervals and significance tests on aggregated counts.

Each is the statsmodels or scipy.stats computation it names, step for step, on the scipy
distribution functions those call (``scipy.special``: ``ndtri``, ``ndtr``, ``stdtrit``,
``betainc``). Importing statsmodels or ``scipy.stats`` costs about 2 s, longer than all of a
report's queries; ``scipy.special`` a tenth of that, and only when a function here runs.
tests/test_stats.py checks every function against the statsmodels/scipy.stats original.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def _normal_isf(q):
    """``scipy.stats.norm.isf``."""
    from scipy.special import ndtri

    return -ndtri(q)


def wilson(successes, n, alpha: float = 0.05):
    """95% (by default) Wilson score interval; arrays in, (lo, hi) arrays out. n=0 gives NaN.

    statsmodels ``proportion_confint(successes, n, alpha, method="wilson")``."""
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    q = np.where(n > 0, successes, 0.0) / safe
    crit = _normal_isf(alpha / 2.0)
    crit2 = crit**2
    denom = 1 + crit2 / safe
    center = (q + crit2 / (2 * safe)) / denom
    dist = crit * np.sqrt(q * (1.0 - q) / safe + crit2 / (4.0 * safe**2)) / denom
    lo, hi = np.clip(center - dist, 0, 1), np.clip(center + dist, 0, 1)
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
    return with_rates(g.reset_index())


def with_rates(g: pd.DataFrame) -> pd.DataFrame:
    """Add ``rate``, ``lo``, ``hi`` (95% Wilson) to a frame of counts ``n`` and ``successes``."""
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
    p = two_proportion_p(s1, n1, s2, n2)
    se = np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    d = p1 - p2
    return {"diff": d, "lo": d - 1.96 * se, "hi": d + 1.96 * se, "p": float(p)}


def two_proportion_p(s1: int, n1: int, s2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test: statsmodels
    ``proportions_ztest([s1, s2], [n1, n2])[1]``."""
    from scipy.special import ndtr

    pooled = (s1 + s2) / (n1 + n2)
    z = (s1 / n1 - s2 / n2) / np.sqrt(pooled * (1 - pooled) * (1.0 / n1 + 1.0 / n2))
    return float(ndtr(-np.abs(z)) * 2)


def binomial_p_greater(k: int, n: int, p: float) -> float:
    """One-sided exact binomial test, H1: rate > ``p``: scipy
    ``binomtest(k, n, p, alternative="greater").pvalue`` (``binom.sf(k - 1, n, p)``)."""
    from scipy.special import betainc

    return 1.0 if k <= 0 else float(betainc(k, n - k + 1, p))


def fdr_bh(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values), in the input order: statsmodels
    ``multipletests(pvalues, method="fdr_bh")[1]``."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    ranked = p[order] / (np.arange(1, p.size + 1) / p.size)
    q = np.minimum(np.minimum.accumulate(ranked[::-1])[::-1], 1)
    out = np.empty_like(q)
    out[order] = q
    return out


def mean_ci(values) -> tuple[float, float, float]:
    """Mean with a 95% t interval."""
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        m = float(v.mean()) if v.size else np.nan
        return m, np.nan, np.nan
    return mean_ci_from(float(v.mean()), float(v.std(ddof=1)), v.size)


def mean_ci_from(mean: float, sd: float, n: int) -> tuple[float, float, float]:
    """Mean with a 95% t interval from the sample mean, standard deviation (ddof 1) and size."""
    if n < 2 or not np.isfinite(sd):
        return (float(mean) if n else np.nan), np.nan, np.nan
    if sd == 0:
        return float(mean), float(mean), float(mean)
    from scipy.special import stdtrit

    scale = sd / np.sqrt(n)  # scipy.stats.t.interval(0.95, n - 1, loc=mean, scale=scale)
    lo, hi = mean + stdtrit(n - 1, (1.0 - 0.95) / 2) * scale, mean + stdtrit(n - 1, (1.0 + 0.95) / 2) * scale
    return float(mean), float(lo), float(hi)


def histogram_summary(values: np.ndarray, counts: np.ndarray, qs=(0.05, 0.25, 0.5, 0.75, 0.95)) -> dict:
    """Mean, standard deviation (ddof 1), quantiles (linear interpolation, as pandas and
    numpy) and max of integer data given as sorted distinct ``values`` and their ``counts``."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    mean = float((values * counts).sum() / n)
    sd = float(np.sqrt((counts * (values - mean) ** 2).sum() / (n - 1))) if n > 1 else np.nan
    ends = np.cumsum(counts)  # rank r (0-based) holds values[searchsorted(ends, r, 'right')]

    def at(rank: int) -> float:
        return values[np.searchsorted(ends, rank, side="right")]

    quantiles = []
    for q in qs:
        h = (n - 1) * q
        lo = int(np.floor(h))
        quantiles.append(at(lo) + (h - lo) * (at(min(lo + 1, n - 1)) - at(lo)))
    return {"n": n, "mean": mean, "std": sd, "quantiles": quantiles, "max": float(values[-1])}
