"""sim.run.stats, the one statistics stack: statsmodels/scipy.stats on aggregated counts, each
interval with the test that inverts it, the edge cases a report meets (no games in a group,
no variation), imported only when used."""

import subprocess
import sys

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from sim.run import stats as S


def test_wilson_is_statsmodels_wilson_and_empty_groups_are_nan():
    lo, hi = S.wilson([0, 7, 3], [10, 7, 0], alpha=0.01)
    ref_lo, ref_hi = proportion_confint([0, 7], [10, 7], alpha=0.01, method="wilson")
    assert np.array_equal(lo[:2], ref_lo) and np.array_equal(hi[:2], ref_hi)
    assert np.isnan(lo[2]) and np.isnan(hi[2])


def test_edge_cases_on_known_counts():
    same = S.rate_difference(0, 10, 0, 10)
    assert same["diff"] == 0.0 and same["p"] == 1.0 and same["lo"] < 0 < same["hi"]
    assert np.isnan(S.rate_difference(3, 0, 1, 10)["p"])
    assert S.rate_test_greater(0, 0, 0.3) == 1.0
    assert np.allclose(S.fdr_bh([0.01, 0.04, 0.03]), [0.03, 0.04, 0.04], rtol=0, atol=1e-15)
    assert S.mean_ci_from(5.0, 0.0, 9) == (5.0, 5.0, 5.0)
    assert S.mean_test(0.0, 0.0, 9)["p"] == 1.0 and S.mean_test(0.5, 0.0, 9)["p"] == 0.0


@pytest.mark.parametrize("counts", [(60, 100, 40, 100), (5, 10, 0, 10), (2900, 10000, 2800, 10000),
                                    (10, 10, 5, 10), (1, 100000, 0, 100000), (0, 50, 7, 40)])
def test_rate_difference_interval_is_newcombe_and_p_inverts_it(counts):
    r = S.rate_difference(*counts)
    lo, hi = confint_proportions_2indep(*counts, method="newcomb", compare="diff")
    assert (r["lo"], r["hi"]) == pytest.approx((lo, hi), abs=1e-15)
    assert (r["p"] < 0.05) == (lo > 0 or hi < 0)  # one method: significant exactly when 0 is outside
    at_p = confint_proportions_2indep(*counts, method="newcomb", compare="diff", alpha=r["p"])
    assert min(abs(at_p[0]), abs(at_p[1])) == pytest.approx(0, abs=1e-6)  # the interval at level p touches 0


def test_rate_difference_far_beyond_zero_has_p_zero():
    assert S.rate_difference(300000, 1000000, 200000, 1000000)["p"] == 0.0


def test_rate_test_greater_is_the_score_test_wilson_inverts():
    k, n, p0 = 130, 1000, 0.11
    p = S.rate_test_greater(k, n, p0)
    z = (k / n - p0) / np.sqrt(p0 * (1 - p0) / n)
    assert p == pytest.approx(sps.norm.sf(z), rel=1e-12)
    lo, _ = proportion_confint(k, n, alpha=2 * p, method="wilson")  # one-sided level p: Wilson's bound is p0
    assert lo == pytest.approx(p0, abs=1e-9)


def test_mean_difference_is_welch_on_synthetic_data():
    rng = np.random.default_rng(3)
    a, b = rng.normal(10.3, 2.0, 400), rng.normal(10.0, 3.0, 300)
    r = S.mean_difference(a.mean(), a.var(ddof=1), len(a), b.mean(), b.var(ddof=1), len(b))
    ref = sps.ttest_ind(a, b, equal_var=False)
    assert r["p"] == pytest.approx(ref.pvalue, rel=1e-10)
    ci = ref.confidence_interval(0.95)
    assert (r["lo"], r["hi"]) == pytest.approx((ci.low, ci.high), rel=1e-10)


def test_estimate_test_interval_and_p_agree():
    r = S.estimate_test(1.959963984540054, 1.0)
    assert r["p"] == pytest.approx(0.05, rel=1e-9) and r["lo"] == pytest.approx(0.0, abs=1e-9)
    arr = S.estimate_test(np.array([1.0, 2.0]), np.array([0.0, 1.0]), 10)
    assert np.isnan(arr["p"][0]) and arr["p"][1] == pytest.approx(2 * sps.t.sf(2.0, 10))


def test_basic_bootstrap_p_inverts_the_basic_interval():
    rng = np.random.default_rng(0)
    draws = rng.normal(0.5, 0.2, 4000)
    lo, hi = S.basic_interval(0.5, draws)
    assert lo > 0 and S.basic_p(0.5, draws) < 0.05
    assert S.basic_p(0.2, rng.normal(0.2, 0.2, 4000)) > 0.05


def test_reading_a_report_module_imports_no_statistics_library_until_used():
    code = ("import sys, sim.run.stats, sim.run.metrics, analysis.findings, reports.build\n"
            "assert not {'statsmodels', 'scipy.stats'} & set(sys.modules), 'imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_quantile_interval_is_the_binomial_order_statistic_interval():
    values, counts = np.arange(1, 1001), np.ones(1000, int)
    est, lo, hi = S.quantile_interval(values, counts, 0.5)
    assert est == 500.5  # linear interpolation, as numpy
    k_lo, k_hi = int(sps.binom.ppf(0.025, 1000, 0.5)), int(sps.binom.ppf(0.975, 1000, 0.5))
    assert (lo, hi) == (values[k_lo - 1], values[k_hi])


def test_cluster_contrasts_on_groups_is_the_unit_level_cluster_fit():
    """Grouping units with equal regressors changes neither the coefficients nor, but for the
    small-sample factor (N - 1) / (N - K), the cluster-robust covariance of a contrast."""
    import statsmodels.api as sm

    rng = np.random.default_rng(3)
    units, clusters = 6000, 40
    cluster = rng.integers(clusters, size=units)
    card = rng.integers(3, size=units)
    x = np.column_stack([card == 0, card == 1, card == 2, cluster % 2]).astype(float)
    y = (rng.random(units) < 0.3 + 0.1 * x[:, 0] + 0.05 * x[:, 3]).astype(float)
    contrast = np.array([[1.0, -0.5, -0.5, 0.0]])
    unit = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": cluster})
    keys, inverse = np.unique(np.column_stack([cluster, card]), axis=0, return_inverse=True)
    inverse = inverse.ravel()
    counts = np.bincount(inverse)
    means = np.bincount(inverse, y) / counts
    gx = x[np.unique(inverse, return_index=True)[1]]
    got = S.cluster_contrasts(gx, means, counts, keys[:, 0], contrast)
    assert got["est"][0] == pytest.approx((contrast @ unit.params)[0], abs=1e-12)
    k = x.shape[1]
    factor = ((units - 1) / (units - k)) / ((len(counts) - 1) / (len(counts) - k))
    assert got["se"][0] == pytest.approx(float(np.sqrt(contrast @ unit.cov_params() @ contrast.T)[0, 0] / np.sqrt(factor)),
                                         rel=1e-9)
    assert got["clusters"] == clusters and got["lo"][0] < got["est"][0] < got["hi"][0]
