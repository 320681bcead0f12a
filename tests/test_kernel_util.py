"""The kernel helpers' decorators (sim/kernel_util.py)."""

import numpy as np
from numba import njit

from sim.kernel_util import fn, inl


@inl
def _scaled(x, factor, negate):
    return -x * factor if negate else x * factor


@fn
def _offset(a, i):
    return a[i] + 1


@njit(cache=False)
def _caller(a, k):
    return _scaled(a[0], 3, False) + _scaled(a[1], 5, True) + _scaled(a[2], k, False) + _offset(a, 0) + _offset(a, 2)


def test_constant_arguments_compile_one_copy_of_a_helper():
    """Calls with constants (3, 5, True, 0, 2) and with a variable share one compiled helper
    each, typed by the arguments' plain types, and compute the same values."""
    a = np.array([2, 7, 11], dtype=np.int64)
    assert _caller(a, 4) == 2 * 3 - 7 * 5 + 11 * 4 + 3 + 12
    assert [str(s) for s in _scaled.signatures] == ["(int64, int64, bool)"]
    assert [str(s) for s in _offset.signatures] == ["(Array(int64, 1, 'C', False, aligned=True), int64)"]
