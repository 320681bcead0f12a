"""The kernel helpers' decorators (sim/kit/kernel_util.py)."""

import numpy as np
from numba import njit

from sim.kit.kernel_util import (bot_param_words, fn, inl, listed, param_float, param_int, restore_snapshot, same_slots,
                              save_snapshot, script_option)


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


@njit(cache=False)
def _apply(b, option):
    return script_option(b, option, b[0] >= 0 and listed(b, 3, b[1], option), 0, 2, 8, 2)


def test_script_option_statuses_and_bookkeeping():
    """sim.kit.step.STATUS: -1 once the game is over (pending seat < 0), -2 for an option not
    listed, -3 with the script full, each with the buffer unchanged; 0 appends to the script."""
    b = np.zeros(10, dtype=np.int64)
    b[1], b[3:6] = 3, (7, -1, 12)  # pending seat 0, three listed options
    assert _apply(b, 12) == 0 and b[2] == 1 and b[8] == 12
    assert _apply(b, -1) == 0 and b[2] == 2 and b[9] == -1
    before = b.copy()
    assert _apply(b, 7) == -3  # the script (2 slots) is full
    assert _apply(b, 5) == -2
    b[0] = -1
    assert _apply(b, 7) == -1
    b[0] = 0
    assert np.array_equal(b, before)


class _Table:
    """A game's ``bot_matrix`` stand-in: two table positions, three parameters."""

    def bot_matrix(self, cfg):
        return np.array([3, 1], dtype=np.int64), np.array([[0.25, 8.9, -0.0], [1e-7, 64.0, -2.5]])


@njit(cache=False)
def _read(words, i, j):
    return param_float(words[i, j]), param_int(words[i, j])


def test_bot_parameters_travel_as_float64_bits():
    """One encoding for every kernel: ``bot_param_words`` writes each parameter as its float64's
    bits, ``param_float`` gives the float back exactly and ``param_int`` truncates it toward zero."""
    policy, words = bot_param_words(_Table(), None)
    assert policy.tolist() == [3, 1] and words.dtype == np.int64 and words.shape == (2, 3)
    assert words[0, 0] == np.float64(0.25).view(np.int64) == 0x3FD0000000000000
    assert [_read(words, 0, j) for j in range(3)] == [(0.25, 0), (8.9, 8), (0.0, 0)]
    assert [_read(words, 1, j) for j in range(3)] == [(1e-7, 0), (64.0, 64), (-2.5, -2)]


@njit(cache=False)
def _snapshot_round_trip(b, snap):
    """Save b[0:3] and b[5:7] one after the other into the snapshot at ``snap``, scribble over
    them, put them back; the snapshot's next slot after each call."""
    k = save_snapshot(b, snap, 0, 3)
    end = save_snapshot(b, k, 5, 2)
    for i in range(8):
        b[i] = -1
    k2 = restore_snapshot(b, snap, 0, 3)
    return k, end, restore_snapshot(b, k2, 5, 2)


def test_snapshot_ranges_go_one_after_the_other_and_come_back():
    """save_snapshot puts each range after the last; restore_snapshot reads them back in the
    same order; the slots between the ranges are not saved."""
    b = np.array([10, 11, 12, 13, 14, 15, 16, 17, 0, 0, 0, 0, 0], dtype=np.int64)
    assert _snapshot_round_trip(b, 8) == (11, 13, 13)
    assert b.tolist() == [10, 11, 12, -1, -1, 15, 16, -1, 10, 11, 12, 15, 16]


@njit
def _same_slots(w, b, at, n):
    return same_slots(w, b, at, n)


def test_same_slots_compares_only_the_run_asked_for():
    """Two buffers that differ only at slot 4: the same on 0..3 and 5..7, not on any run over 4;
    an empty run is the same."""
    w, b = np.arange(8, dtype=np.int64), np.arange(8, dtype=np.int64)
    b[4] = -4
    assert [_same_slots(w, b, at, n) for at, n in ((0, 4), (5, 3), (4, 0), (3, 2), (4, 1), (0, 8))] == [
        True, True, True, False, False, False]
