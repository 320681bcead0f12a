"""Confidence intervals and significance tests on aggregated counts, from statsmodels and
scipy.stats. The libraries are imported inside the functions, so that reading a run does not
pay for them before a statistic is needed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import pandas as pd

LIBRARIES = ("scipy.stats", "statsmodels.stats.proportion", "statsmodels.stats.multitest")


def preload() -> threading.Thread:
    """Import the statistics libraries in a background thread, so that their import overlaps
    the DuckDB scans of a report (which release the GIL) instead of following them."""
    import importlib

    thread = threading.Thread(target=lambda: [importlib.import_module(m) for m in LIBRARIES],
                              name="cardlab-preload-stats", daemon=True)
    thread.start()
    return thread


def wilson(successes, n, alpha: float = 0.05):
    """95% (by default) Wilson score interval; arrays in, (lo, hi) arrays out. n=0 gives NaN."""
    from statsmodels.stats.proportion import proportion_confint

    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(np.where(n > 0, successes, 0.0), safe, alpha=alpha, method="wilson")
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
    """Two-sided p-value of the pooled two-proportion z-test (statsmodels ``proportions_ztest``)."""
    from statsmodels.stats.proportion import proportions_ztest

    return float(proportions_ztest([s1, s2], [n1, n2])[1])


def binomial_p_greater(k: int, n: int, p: float) -> float:
    """One-sided exact binomial test, H1: rate > ``p`` (scipy ``binomtest``)."""
    from scipy.stats import binomtest

    if k <= 0:
        return 1.0
    return float(binomtest(int(k), int(n), float(p), alternative="greater").pvalue)


def fdr_bh(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values), in the input order (statsmodels
    ``multipletests(method="fdr_bh")``)."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float)
    return multipletests(p, alpha=0.05, method="fdr_bh")[1] if p.size else p


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
    from scipy.stats import t

    lo, hi = t.interval(0.95, n - 1, loc=mean, scale=sd / np.sqrt(n))
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


@dataclass
class GroupedFit:
    """A unit-level linear model fitted from groups of units with identical regressors.

    ``coef`` (p x k: one column per outcome), ``xtx_inv`` (p x p, the pseudo-inverse of X'WX),
    ``sigma`` (k x k residual covariance of one unit's outcomes) and ``dof`` (units minus rank):
    the covariance of coefficient row j is ``xtx_inv[j, j] * sigma``."""

    coef: np.ndarray
    xtx_inv: np.ndarray
    sigma: np.ndarray
    dof: float

    def cov(self, contrast: np.ndarray) -> np.ndarray:
        """k x k covariance of ``contrast @ coef`` (a linear combination of coefficient rows)."""
        return float(contrast @ self.xtx_inv @ contrast) * self.sigma


def grouped_ols(x: np.ndarray, means: np.ndarray, counts: np.ndarray, within: np.ndarray) -> GroupedFit | None:
    """OLS of unit-level outcomes (k of them) on regressors constant within each of G groups.

    ``x``: G x p regressors; ``means``: G x k group means; ``counts``: units per group;
    ``within``: k x k sum over groups of the within-group cross-products of the outcomes about
    their group means (for one outcome, sum of n_g times its population variance). Weighted least
    squares on the group means (statsmodels ``WLS``) gives the unit-level coefficients; the
    residual covariance pools the groups' residuals and their within spread, so the standard
    errors are the unit-level ones too. None when there are no residual degrees of freedom."""
    import statsmodels.api as sm
    import warnings

    means = np.asarray(means, float).reshape(len(x), -1)
    counts = np.asarray(counts, float)
    with warnings.catch_warnings():  # collinear designs: the contrasts callers use stay estimable
        warnings.simplefilter("ignore")
        fit = sm.WLS(means, x, weights=counts).fit()
    coef = np.asarray(fit.params).reshape(x.shape[1], -1)
    resid = means - x @ coef
    dof = counts.sum() - np.linalg.matrix_rank(x)
    if dof <= 0:
        return None
    sigma = (resid.T @ (resid * counts[:, None]) + np.atleast_2d(within)) / dof
    return GroupedFit(coef, np.asarray(fit.normalized_cov_params), sigma, float(dof))
