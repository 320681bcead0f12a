"""analysis.stats: the statsmodels/scipy.stats computations on aggregated counts, with the
edge cases a report meets (no games in a group, no variation), imported only when used."""

import subprocess
import sys

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from analysis import stats as S


def test_wilson_is_statsmodels_wilson_and_empty_groups_are_nan():
    lo, hi = S.wilson([0, 7, 3], [10, 7, 0], alpha=0.01)
    ref_lo, ref_hi = proportion_confint([0, 7], [10, 7], alpha=0.01, method="wilson")
    assert np.array_equal(lo[:2], ref_lo) and np.array_equal(hi[:2], ref_hi)
    assert np.isnan(lo[2]) and np.isnan(hi[2])


def test_tests_on_known_counts():
    assert S.compare_rates(0, 10, 0, 10) == {"diff": 0.0, "lo": 0.0, "hi": 0.0, "p": 1.0}
    assert abs(S.two_proportion_p(60, 100, 40, 100) - 0.004677734981047177) < 1e-12
    assert S.binomial_p_greater(0, 0, 0.3) == 1.0
    assert abs(S.binomial_p_greater(10, 10, 0.5) - 0.5 ** 10) < 1e-15
    assert np.allclose(S.fdr_bh([0.01, 0.04, 0.03]), [0.03, 0.04, 0.04], rtol=0, atol=1e-15)
    assert S.mean_ci_from(5.0, 0.0, 9) == (5.0, 5.0, 5.0)


def test_reading_a_report_module_imports_no_statistics_library_until_used():
    code = ("import sys, analysis.stats, analysis.findings, reports.build\n"
            "assert not {'statsmodels', 'scipy.stats'} & set(sys.modules), 'imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)
