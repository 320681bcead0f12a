"""analysis.stats computes what statsmodels and scipy.stats compute, to the last bit, on
the scipy.special functions they call (without importing either on the report path)."""

import subprocess
import sys

import numpy as np
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

from analysis import stats as S

RNG = np.random.default_rng(20261201)
N = RNG.integers(1, 10**7, 300)
K = np.array([int(RNG.integers(0, n + 1)) for n in N])
K[:5], N[:5] = [0, 1, 7, 10, 0], [1, 1, 7, 11, 10**6]  # the ends: no and every success


def test_wilson_is_statsmodels_wilson():
    lo, hi = S.wilson(K, N)
    ref_lo, ref_hi = proportion_confint(K, N, alpha=0.05, method="wilson")
    assert np.array_equal(lo, ref_lo) and np.array_equal(hi, ref_hi)
    lo, hi = S.wilson([3, 0], [0, 5], alpha=0.01)
    assert np.isnan(lo[0]) and np.isnan(hi[0])
    assert (lo[1], hi[1]) == tuple(float(v) for v in proportion_confint(0, 5, alpha=0.01, method="wilson"))


def test_two_proportion_p_is_statsmodels_ztest():
    for s1, n1, s2, n2 in zip(K[5:105], N[5:105], K[105:205], N[105:205]):
        if 0 < s1 + s2 < n1 + n2:
            assert S.two_proportion_p(int(s1), int(n1), int(s2), int(n2)) == proportions_ztest([s1, s2], [n1, n2])[1]


def test_binomial_p_greater_is_scipy_binomtest():
    for k, n, p in zip(K[:200], N[:200], RNG.random(200)):
        assert S.binomial_p_greater(int(k), int(n), float(p)) == sps.binomtest(int(k), int(n), float(p), alternative="greater").pvalue


def test_fdr_bh_is_statsmodels_multipletests():
    p = np.concatenate([RNG.random(40) ** 3, [0.5, 0.5, 1.0, 0.0]])
    assert np.array_equal(S.fdr_bh(p), multipletests(p, alpha=0.05, method="fdr_bh")[1])


def test_mean_ci_is_scipy_t_interval():
    for mean, sd, n in zip(RNG.normal(30, 10, 100), RNG.random(100) * 20, RNG.integers(2, 10**6, 100)):
        lo, hi = sps.t.interval(0.95, n - 1, loc=mean, scale=sd / np.sqrt(n))
        assert S.mean_ci_from(mean, sd, int(n)) == (float(mean), float(lo), float(hi))


def test_report_statistics_import_neither_statsmodels_nor_scipy_stats():
    code = ("import sys, analysis.stats as S, analysis.findings, reports.build\n"
            "S.wilson([1], [3]); S.mean_ci_from(1.0, 2.0, 9); S.compare_rates(1, 4, 3, 5)\n"
            "S.binomial_p_greater(2, 9, 0.1); S.fdr_bh([0.1, 0.2])\n"
            "assert not {'statsmodels', 'scipy.stats'} & set(sys.modules), 'imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)
