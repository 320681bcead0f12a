"""bench --report measures each command's own peak memory, not the bench process's."""

import numpy as np
import pytest

from cardlab.report_bench import timed


def test_peak_is_the_commands_own_not_the_bench_process():
    ballast = np.ones(300 * 2**20 // 8)  # the bench process holds 300 MB while it measures
    wall, peak_mb = timed(["rules", "virus-dogs"])
    assert ballast.sum() > 0 and wall > 0
    assert 10 < peak_mb < 200


def test_failed_command_is_one_line():
    with pytest.raises(RuntimeError, match=r"^report /nonexistent failed: error: "):
        timed(["report", "/nonexistent", "--out", "/nonexistent/x"])
