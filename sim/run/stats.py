"""The project's one statistics stack: confidence intervals and tests on aggregated counts, from
statsmodels and scipy.stats, used by the report, ``compare``, sweeps, the stopping rule and the
tuner alike. Each interval and its test come from one method, so that a p below 0.05 always
means a 95% interval that excludes the reference:

- one rate: Wilson's score interval; its test against a value is the score test it inverts;
- a difference of two rates: Newcombe's hybrid score interval; its p-value is the level at which
  that interval just reaches zero (``rate_difference``);
- a mean, or an estimate with a standard error: the t interval and the t test
  (``estimate_test``, ``mean_test``); a difference of two means: Welch's (``mean_difference``);
- a bootstrap statistic: the basic interval and the p-value that inverts it (``basic_p``),
  a ratio such as the skill ratio of Dreef et al. (``skill_ratio``) from games resampled
  (``share_draws``, ``ratio_interval``);
  a largest-minus-smallest spread of rates beyond what chance alone gives: a parametric (normal,
  with the rates' covariance) basic bootstrap (``spread_beyond_chance``, ``draws_difference``);
- a rank correlation: Spearman's rho with the Fisher-z interval (Bonett-Wright standard error)
  and the z test it inverts (``rank_correlation``);
- several tests at once: Benjamini-Hochberg (``fdr_bh``) or Holm (``holm``) adjusted p-values.

The libraries are imported inside the functions, so that reading a run (or a worker process)
does not pay for them before a statistic is needed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

LIBRARIES = ("scipy.stats", "scipy.optimize", "statsmodels.stats.proportion", "statsmodels.stats.multitest")


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


def rate_test_greater(k: int, n: int, p0: float) -> float:
    """One-sided score test of H1: rate > ``p0`` (statsmodels ``proportions_ztest`` with the
    variance at ``p0``): the test that Wilson's interval inverts. No games: p = 1."""
    from statsmodels.stats.proportion import proportions_ztest

    if n <= 0 or not 0 < p0 < 1:
        return 1.0
    return float(proportions_ztest(k, n, value=p0, alternative="larger", prop_var=p0)[1])


def newcombe(s1, n1, s2, n2, alpha: float = 0.05) -> tuple[float, float]:
    """Newcombe's interval of the difference rate1 - rate2 (statsmodels
    ``confint_proportions_2indep``, method "newcomb")."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    lo, hi = confint_proportions_2indep(s1, n1, s2, n2, method="newcomb", compare="diff", alpha=alpha)
    return float(lo), float(hi)


def rate_difference(s1: int, n1: int, s2: int, n2: int) -> dict:
    """Difference of two rates: ``diff``, its 95% Newcombe interval ``lo``/``hi`` and the
    two-sided ``p`` that inverts that interval (the smallest level at which it excludes zero,
    found by root-finding on the interval's normal quantile). NaN when a group is empty."""
    if min(n1, n2) <= 0:
        return {"diff": np.nan, "lo": np.nan, "hi": np.nan, "p": np.nan}
    lo, hi = newcombe(s1, n1, s2, n2)
    d = s1 / n1 - s2 / n2
    return {"diff": d, "lo": lo, "hi": hi, "p": _newcombe_p(s1, n1, s2, n2, d)}


_Z_MAX = 37.0  # beyond this quantile the two-sided p underflows double precision


def _newcombe_p(s1, n1, s2, n2, d: float) -> float:
    from scipy.optimize import brentq
    from scipy.stats import norm

    if d == 0:
        return 1.0

    def inner_bound(z: float) -> float:  # the interval's bound nearer zero, signed toward d
        lo, hi = newcombe(s1, n1, s2, n2, alpha=2 * norm.sf(z))
        return lo if d > 0 else -hi

    if inner_bound(_Z_MAX) > 0:
        return 0.0
    z = brentq(inner_bound, 1e-9, _Z_MAX, xtol=1e-6)
    return float(2 * norm.sf(z))


def estimate_test(estimate, se, dof=np.inf) -> dict:
    """An estimate with a known standard error: its 95% interval and two-sided p from the same
    t distribution (``dof`` degrees of freedom; the normal when infinite). Arrays work too;
    a non-positive or NaN standard error gives NaN."""
    from scipy.stats import t

    est, se = np.asarray(estimate, float), np.asarray(se, float)
    ok = np.isfinite(se) & (se > 0)
    safe = np.where(ok, se, 1.0)
    half = np.where(ok, t.ppf(0.975, dof) * safe, np.nan)
    p = np.where(ok, 2 * t.sf(np.abs(est) / safe, dof), np.nan)
    out = {"diff": est, "lo": est - half, "hi": est + half, "p": p}
    return {k: float(v) for k, v in out.items()} if est.ndim == 0 and se.ndim == 0 else out


def mean_test(mean: float, sd: float, n: int) -> dict:
    """A mean (of matched differences, say) with its 95% t interval and the one-sample t test
    against zero. No spread: the interval is the point, p 1 at zero and 0 elsewhere."""
    if n < 2 or not np.isfinite(sd):
        return {"diff": mean, "lo": np.nan, "hi": np.nan, "p": np.nan}
    if sd == 0:
        return {"diff": mean, "lo": mean, "hi": mean, "p": 1.0 if abs(mean) < 1e-12 else 0.0}
    return estimate_test(mean, sd / np.sqrt(n), n - 1)


def mean_difference(m1: float, var1: float, n1: int, m2: float, var2: float, n2: int) -> dict:
    """Difference of two means from their sample means, variances (ddof 1) and sizes: Welch's
    t test and the 95% interval of the same t distribution (Welch-Satterthwaite degrees of
    freedom), so the two agree. No spread at all: equal means (p 1) or certainly different (p 0)."""
    d = m1 - m2
    if min(n1, n2) < 2 or not (np.isfinite(var1) and np.isfinite(var2)):
        return {"diff": d, "lo": np.nan, "hi": np.nan, "p": np.nan}
    a, b = var1 / n1, var2 / n2
    if a + b == 0:
        same = bool(np.isclose(m1, m2, rtol=1e-9, atol=1e-12))
        return {"diff": 0.0 if same else d, "lo": d, "hi": d, "p": 1.0 if same else 0.0}
    dof = (a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
    return estimate_test(d, np.sqrt(a + b), dof)


def chi_square_p(statistic, dof) -> np.ndarray:
    """Upper-tail p-value of a chi-square statistic (scipy ``chi2.sf``); arrays work."""
    from scipy.stats import chi2

    return chi2.sf(statistic, dof)


def rate_change_p(successes, n) -> float:
    """Chi-square test of homogeneity of k rates (no continuity correction); NaN when nothing varies."""
    from scipy.stats import chi2_contingency

    s, n = np.asarray(successes, dtype=float), np.asarray(n, dtype=float)
    table = np.vstack([s, n - s])
    if (n == 0).any() or (table.sum(axis=1) == 0).any():
        return np.nan
    return float(chi2_contingency(table, correction=False).pvalue)


def mean_change_p(means, variances, nobs) -> float:
    """Welch's one-way ANOVA from summary statistics; pooled variances when a group has none."""
    from statsmodels.stats.oneway import anova_generic

    means, variances, nobs = (np.asarray(v, dtype=float) for v in (means, variances, nobs))
    if (nobs < 2).any() or np.isnan(variances).any():
        return np.nan
    if (variances > 0).all():
        return float(anova_generic(means, variances, nobs, use_var="unequal").pvalue)
    pooled = float(((nobs - 1) * variances).sum() / (nobs - 1).sum())
    if pooled == 0:
        return 1.0 if np.ptp(means) == 0 else 0.0
    return float(anova_generic(means, pooled, nobs, use_var="equal").pvalue)


def basic_interval(estimate: float, draws: np.ndarray) -> tuple[float, float]:
    """95% basic (reverse percentile) bootstrap interval of ``estimate`` from its bootstrap
    ``draws``: it corrects a bias the draws share (for example the upward bias of a
    largest-minus-smallest spread of noisy rates)."""
    q_lo, q_hi = np.quantile(draws, [0.025, 0.975])
    return float(2 * estimate - q_hi), float(2 * estimate - q_lo)


def basic_p(estimate: float, draws: np.ndarray) -> float:
    """Two-sided p-value that inverts the basic bootstrap interval (the smallest level at which
    the interval reaches zero), so that the interval and the test always agree."""
    reflected = 2 * estimate - np.asarray(draws)
    return float(min(1.0, 2 * min(np.mean(reflected <= 0), np.mean(reflected >= 0)) + 1 / len(reflected)))


def rank_correlation(x, y) -> dict:
    """Spearman's rank correlation of paired values ``x``, ``y`` (scipy ``spearmanr``): ``rho``,
    its 95% interval on Fisher's z scale with the Bonett-Wright standard error
    sqrt((1 + rho^2 / 2) / (n - 3)) and the two-sided ``p`` of the z test that interval inverts,
    and ``n``. Fewer than 4 pairs or a constant side: NaN."""
    from scipy.stats import norm

    x, y = np.asarray(x, float), np.asarray(y, float)
    n = int(len(x))
    nan = {"rho": np.nan, "lo": np.nan, "hi": np.nan, "p": np.nan, "n": n}
    if n < 4 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return nan
    rho = spearman(x, y)
    if abs(rho) >= 1:
        return {"rho": rho, "lo": rho, "hi": rho, "p": 0.0, "n": n}
    se = np.sqrt((1 + rho * rho / 2) / (n - 3))
    z = np.arctanh(rho)
    half = norm.ppf(0.975) * se
    return {"rho": rho, "lo": float(np.tanh(z - half)), "hi": float(np.tanh(z + half)),
            "p": float(2 * norm.sf(abs(z) / se)), "n": n}


def fdr_bh(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values), in the input order (statsmodels
    ``multipletests(method="fdr_bh")``)."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float)
    return multipletests(p, alpha=0.05, method="fdr_bh")[1] if p.size else p


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error), in the input order (statsmodels
    ``multipletests(method="holm")``)."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float)
    return multipletests(p, alpha=0.05, method="holm")[1] if p.size else p


SPREAD_DRAWS = 4000


@lru_cache(maxsize=64)
def _normal_draws(k: int, seed: int) -> np.ndarray:
    """A fixed (seeded) SPREAD_DRAWS x k matrix of standard normal draws, read-only."""
    z = np.random.default_rng([k, seed]).standard_normal((SPREAD_DRAWS, k))
    z.flags.writeable = False
    return z


def _cov_root(cov: np.ndarray) -> np.ndarray:
    """A square root R of a covariance matrix (R @ R.T == cov; negative eigenvalues clipped)."""
    w, v = np.linalg.eigh((cov + cov.T) / 2)
    return v * np.sqrt(np.clip(w, 0, None))


def spread_beyond_chance(rates, cov, seed: int = 0) -> dict:
    """Largest minus smallest of ``rates`` net of the spread chance alone gives.

    ``cov`` is the covariance matrix of the rate estimates (one game's win indicators' covariance
    over the number of games, say). The chance level ``null`` is the mean spread of rates with
    no true difference and the same noise, E[max - min] of N(0, cov) draws; ``value`` = ``raw`` -
    ``null`` is then about 0 for equal rates at any sample size, while the raw spread shrinks as
    samples grow. The 95% interval is the basic bootstrap interval of parametric draws
    N(rates, cov) (``basic_interval``, which removes the draws' upward bias) and ``p`` its
    inverting p-value. Draws are seeded (the chance level always by seed 0, the bootstrap by
    ``seed``), so equal inputs give equal outputs;
    ``draws`` (the bootstrap draws of ``value``) feed ``draws_difference``."""
    r = np.asarray(rates, dtype=float)
    if r.size < 2 or not np.isfinite(r).all() or not np.isfinite(cov).all():
        return {"value": np.nan, "lo": np.nan, "hi": np.nan, "p": np.nan, "raw": np.nan, "null": np.nan,
                "draws": np.full(SPREAD_DRAWS, np.nan)}
    root = _cov_root(np.asarray(cov, dtype=float)).T
    null = float(np.ptp(_normal_draws(r.size, 0) @ root, axis=1).mean())  # the same for every ``seed``
    noise = _normal_draws(r.size, seed) @ root
    raw = float(np.ptp(r))
    draws = np.ptp(r + noise, axis=1) - null
    lo, hi = basic_interval(raw - null, draws)
    return {"value": raw - null, "lo": lo, "hi": hi, "p": basic_p(raw - null, draws), "raw": raw, "null": null,
            "draws": draws}


def draws_difference(estimate_a: float, draws_a, estimate_b: float, draws_b) -> dict:
    """Difference a - b of two bootstrap statistics from independent draws: the basic 95%
    interval and its inverting p-value (``basic_interval``, ``basic_p``)."""
    d = estimate_a - estimate_b
    draws = np.asarray(draws_a) - np.asarray(draws_b)
    if not np.isfinite(d) or not np.isfinite(draws).all():
        return {"diff": np.nan, "lo": np.nan, "hi": np.nan, "p": np.nan}
    lo, hi = basic_interval(d, draws)
    return {"diff": d, "lo": lo, "hi": hi, "p": basic_p(d, draws)}


def skill_ratio(g0, gm, gu):
    """Dreef et al.'s skill ratio (gm - g0) / (gu - g0): how much of the way from a player of
    strength ``g0`` (random) to one of ``gu`` (all-seeing) a player of ``gm`` goes; NaN where
    gu equals g0. Arrays work too (bootstrap draws)."""
    g0, gm, gu = (np.asarray(x, dtype=float) for x in (g0, gm, gu))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(gu != g0, (gm - g0) / np.where(gu != g0, gu - g0, 1.0), np.nan)


def share_draws(values, counts, draws: int, seed: int = 0) -> np.ndarray:
    """Bootstrap draws of a mean over games given as categories (``values`` with ``counts``
    games each): the games resampled with replacement (multinomial over the categories)."""
    values, counts = np.asarray(values, dtype=float), np.asarray(counts, dtype=float)
    n = int(counts.sum())
    if n == 0:
        return np.full(draws, np.nan)
    picks = np.random.default_rng(seed).multinomial(n, counts / n, size=draws)
    return picks @ values / n


def ratio_interval(estimate: float, draws) -> dict:
    """A ratio's basic bootstrap 95% interval from its draws (``basic_interval``); draws that are
    not finite (a denominator at zero) are dropped, and their share reported (``undefined``)."""
    draws = np.asarray(draws, dtype=float)
    ok = np.isfinite(draws)
    if not np.isfinite(estimate) or ok.sum() < 2:
        return {"ratio": float(estimate), "lo": np.nan, "hi": np.nan, "undefined": float(1 - ok.mean())}
    lo, hi = basic_interval(float(estimate), draws[ok])
    return {"ratio": float(estimate), "lo": lo, "hi": hi, "undefined": float(1 - ok.mean())}


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


def quantile_interval(values: np.ndarray, counts: np.ndarray, q: float) -> tuple[float, float, float]:
    """The ``q`` quantile of integer data (values with counts) and its 95% distribution-free
    interval: the order statistics at the binomial(n, q) 2.5% and 97.5% ranks."""
    from scipy.stats import binom

    n = int(counts.sum())
    ends = np.cumsum(counts)
    at = lambda rank: float(values[np.searchsorted(ends, min(max(rank, 0), n - 1), side="right")])  # noqa: E731
    est = histogram_summary(values, counts, qs=(q,))["quantiles"][0]
    return est, at(int(binom.ppf(0.025, n, q)) - 1), at(int(binom.ppf(0.975, n, q)))


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


def cluster_contrasts(x: np.ndarray, means: np.ndarray, counts: np.ndarray, clusters: np.ndarray,
                      contrasts: np.ndarray) -> dict:
    """Linear contrasts of a unit-level linear model fitted from groups of units with identical
    regressors, with cluster-robust 95% intervals and p.

    ``x``: G x p regressors, ``means``: the G group means of the outcome, ``counts``: units per
    group, ``clusters``: each group's cluster (a group's units share one; clusters independent);
    ``contrasts``: k x p. Weighted least squares on the group means (statsmodels ``WLS``) gives the
    unit-level coefficients, and its cluster-robust covariance (``cov_type="cluster"``) is the
    unit-level one, since within a group every unit's score has the same regressors. A collinear
    ``x`` is fitted by the pseudo-inverse: only contrasts it can estimate mean anything. Returns
    arrays ``est``, ``se``, ``lo``, ``hi``, ``p`` (t with clusters - 1 degrees of freedom) and
    ``clusters``."""
    import statsmodels.api as sm
    import warnings

    groups = np.unique(np.asarray(clusters), return_inverse=True)[1]
    with warnings.catch_warnings():  # collinear designs and few clusters: the contrasts stay estimable
        warnings.simplefilter("ignore")
        fit = sm.WLS(np.asarray(means, float), np.asarray(x, float), weights=np.asarray(counts, float)).fit(
            cov_type="cluster", cov_kwds={"groups": groups})
    c = np.atleast_2d(np.asarray(contrasts, float))
    est = c @ np.asarray(fit.params)
    se = np.sqrt(np.clip(np.einsum("ij,jk,ik->i", c, np.asarray(fit.cov_params()), c), 0, None))
    g = int(groups.max()) + 1 if groups.size else 0
    out = estimate_test(est, se, max(g - 1, 1))
    return {"est": est, "se": se, "lo": out["lo"], "hi": out["hi"], "p": out["p"], "clusters": g}


def spearman(a, b) -> float:
    """Spearman's rank correlation of two equally long sequences (scipy ``spearmanr``; ties get
    their mean rank), rounded to 12 decimals. NaN with fewer than two pairs or when a sequence is
    constant."""
    from scipy.stats import spearmanr

    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.size < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return np.nan
    return float(np.clip(round(float(spearmanr(a, b).statistic), 12), -1, 1))  # equal ranks: exactly 1


def _row_spearman(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's correlation of each row of ``a`` with the same row of ``b`` (scipy ``rankdata``
    along the rows, then Pearson's correlation of the ranks: what ``spearmanr`` computes)."""
    from scipy.stats import rankdata

    ra, rb = rankdata(a, axis=1), rankdata(b, axis=1)
    ra -= ra.mean(axis=1, keepdims=True)
    rb -= rb.mean(axis=1, keepdims=True)
    den = np.sqrt((ra * ra).sum(axis=1) * (rb * rb).sum(axis=1))
    return np.divide((ra * rb).sum(axis=1), den, out=np.full(len(ra), np.nan), where=den > 0)


RANK_DRAWS = 2000


def rank_agreement(est_a, se_a, est_b, se_b, seed: int = 0, draws: int = RANK_DRAWS) -> dict:
    """How well two sets of estimates of the same items agree in order: Spearman's rank
    correlation ``rho`` (``spearman``) with a 95% parametric-bootstrap interval.

    Each draw resamples every estimate from its sampling distribution, normal with its standard
    error (items and the two sets independent), and recomputes the correlation. Noise pulls the
    draws' correlations toward zero, as it pulls the observed one; the basic interval
    (``basic_interval``) reflects the draws about the estimate and so removes that pull, clipped
    to [-1, 1]. Seeded: equal inputs give equal outputs. Fewer than three items, or no spread:
    NaN."""
    a, b = np.asarray(est_a, float), np.asarray(est_b, float)
    sa, sb = np.nan_to_num(np.asarray(se_a, float)), np.nan_to_num(np.asarray(se_b, float))
    rho = spearman(a, b)
    if a.size < 3 or not np.isfinite(rho):
        return {"rho": rho, "lo": np.nan, "hi": np.nan, "draws": np.full(draws, np.nan)}
    rng = np.random.default_rng([a.size, seed])
    da = a + rng.standard_normal((draws, a.size)) * sa
    db = b + rng.standard_normal((draws, b.size)) * sb
    d = _row_spearman(da, db)
    d = d[np.isfinite(d)]
    if not d.size:
        return {"rho": rho, "lo": np.nan, "hi": np.nan, "draws": d}
    lo, hi = basic_interval(rho, d)
    return {"rho": rho, "lo": max(-1.0, lo), "hi": min(1.0, hi), "draws": d}


def conditional_logit(x: np.ndarray, chosen: np.ndarray, groups: np.ndarray) -> dict:
    """A linear softmax over each group's alternatives (McFadden's conditional logit, statsmodels
    ``ConditionalLogit``): ``x`` one row of features per alternative, ``chosen`` 1 for the one
    picked in its group, ``groups`` the group of each row. Features that never differ within a
    group, or that repeat a combination of the earlier ones there, carry no information: they get
    weight 0 and no standard error (nor do any when the information matrix is singular). Returns ``params`` and ``bse`` (one per feature), the
    log-likelihood ``llf``, the uniform choice's ``llf_null``, ``groups`` and ``max_score``, the largest absolute gradient
    of the log-likelihood at the estimate (near 0 at a maximum; a separating feature leaves a
    large weight with a small gradient)."""
    import warnings

    from statsmodels.discrete.conditional_models import ConditionalLogit

    x = np.asarray(x, dtype=float)
    chosen = np.asarray(chosen, dtype=float)
    groups = np.asarray(groups)
    _, inverse, sizes = np.unique(groups, return_inverse=True, return_counts=True)
    means = np.zeros((len(sizes), x.shape[1]))
    np.add.at(means, inverse, x)
    within = x - means[inverse] / sizes[inverse, None]
    keep: list[int] = []
    for j in range(x.shape[1]):
        if np.linalg.matrix_rank(within[:, keep + [j]]) == len(keep) + 1:
            keep.append(j)
    params = np.zeros(x.shape[1])
    bse = np.full(x.shape[1], np.nan)
    model = ConditionalLogit(chosen, x[:, keep], groups=groups)
    with warnings.catch_warnings():  # a feature that separates the choices: a large finite weight
        warnings.simplefilter("ignore")
        try:
            fit = model.fit(method="bfgs", maxiter=1000, disp=False)
            bse[keep] = fit.bse
        except ValueError:  # a singular information matrix: the estimate without standard errors
            fit = model.fit(method="bfgs", maxiter=1000, disp=False, skip_hessian=True)
    params[keep] = fit.params
    return {"params": params, "bse": bse, "llf": float(fit.llf), "llf_null": float(-np.log(sizes).sum()),
            "groups": int(len(sizes)), "max_score": float(np.max(np.abs(fit.model.score(fit.params)), initial=0.0))}


def ridge_conditional_logit(x, chosen, group, ridge: float = 0.01) -> dict:
    """``conditional_logit`` for many decisions at once (a million options in seconds): the
    log-likelihood less ``ridge``/2 |w|^2 maximised by scipy's trust-region Newton method
    (``trust-exact``) with its gradient and Hessian vectorised over the decisions (``group``:
    decisions contiguous). A feature that never differs within a decision gets weight 0 and no
    standard error; the small ridge keeps a separating feature's weight finite. Returns
    ``params``, ``bse``, ``llf`` (without the ridge), ``llf_null``, ``groups`` and ``max_score``
    (the largest absolute gradient of the penalised log-likelihood left)."""
    from scipy.optimize import minimize

    x = np.asarray(x, dtype=float)
    chosen = np.asarray(chosen, dtype=bool)
    group = np.asarray(group)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if len(group) else np.zeros(0, dtype=int)
    sizes = np.diff(np.r_[starts, len(group)])
    rows = np.repeat(np.arange(len(starts)), sizes)
    varies = (np.maximum.reduceat(x, starts) != np.minimum.reduceat(x, starts)).any(axis=0) if len(group) else \
        np.zeros(x.shape[1], dtype=bool)
    xv = x[:, varies]
    eye = ridge * np.eye(xv.shape[1])

    def parts(w):
        score = xv @ w
        top = np.maximum.reduceat(score, starts)
        e = np.exp(score - top[rows])
        total = np.add.reduceat(e, starts)
        p = e / total[rows]
        mean = np.add.reduceat(p[:, None] * xv, starts)
        info = (xv * p[:, None]).T @ xv - mean.T @ mean
        return float(score[chosen].sum() - (top + np.log(total)).sum()), xv.T @ (chosen - p), info

    cache: dict = {}

    def at(w):
        key = w.tobytes()
        if key not in cache:
            cache.clear()
            cache[key] = parts(w)
        return cache[key]

    fit = minimize(lambda w: -(at(w)[0] - ridge / 2 * w @ w), np.zeros(xv.shape[1]), method="trust-exact",
                   jac=lambda w: -(at(w)[1] - ridge * w), hess=lambda w: at(w)[2] + eye,
                   options={"gtol": 1e-8, "maxiter": 200})
    w = fit.x
    llf, grad, info = at(w)
    params = np.zeros(x.shape[1])
    bse = np.full(x.shape[1], np.nan)
    params[varies] = w
    bse[varies] = np.sqrt(np.diag(np.linalg.inv(info + eye)))
    return {"params": params, "bse": bse, "llf": llf, "llf_null": float(-np.log(sizes).sum()),
            "groups": int(len(starts)), "max_score": float(np.max(np.abs(grad - ridge * w), initial=0.0))}
