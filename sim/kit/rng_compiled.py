"""The compiled SplitMix64 functions of ``sim.kit.rng`` (the protocol is written there).

Kernels import them through ``sim.kit.rng`` (``from sim.kit.rng import randbelow_at``), which loads
this module, and with it numba, only when a compiled function is first asked for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import inl, ix

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True)
def mix64(z):
    """SplitMix64 finaliser: a bijective avalanche of a uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def mixed_counter(z):
    """``mix64(z)`` as a generator counter (a signed buffer slot), from compiled code or Python."""
    return np.int64(mix64(z))


@njit(cache=True)
def derive(run_seed, game_index):
    """Starting counter of game ``game_index`` of the run seeded ``run_seed``."""
    a = mix64(np.uint64(run_seed) + GOLDEN)
    return mix64(a ^ mix64(np.uint64(game_index) * GOLDEN + np.uint64(1)))


@njit(cache=True)
def game_state(run_seed, game_index):
    """A fresh generator (length-1 uint64 array) for one game."""
    s = np.empty(1, dtype=np.uint64)
    s[0] = derive(run_seed, game_index)
    return s


@inl
def next_u64_at(buf, slot):
    """Advance the counter held in ``buf[slot]`` and return the next 64 random bits."""
    z = np.uint64(buf[slot]) + GOLDEN
    buf[slot] = z
    return mix64(z)


@inl
def randbelow_at(buf, slot, n):
    """``randbelow`` with the counter in ``buf[slot]``."""
    return np.int64(next_u64_at(buf, slot) % np.uint64(n))


@inl
def uniform_at(buf, slot):
    """``uniform`` with the counter in ``buf[slot]``."""
    return np.float64(next_u64_at(buf, slot) >> _S11) * _INV53


@inl
def shuffle_at(buf, slot, a, lo, n):
    """``shuffle`` of ``a[lo:lo+n]`` with the counter in ``buf[slot]`` (``a`` may be ``buf``
    itself, outside ``slot``). The counter stays in a local during the loop: the stores into
    ``a`` would otherwise force it through memory on every draw."""
    c = np.uint64(buf[slot])
    for i in range(n - 1, 0, -1):
        c += GOLDEN
        j = np.int64(mix64(c) % np.uint64(i + 1))
        t = a[ix(lo + i)]
        a[ix(lo + i)] = a[ix(lo + j)]
        a[ix(lo + j)] = t
    buf[slot] = c


@njit(cache=True)
def next_u64(s):
    """Advance the counter and return the next 64 random bits."""
    return next_u64_at(s, 0)


@njit(cache=True)
def randbelow(s, n):
    """A uniform integer in [0, n); n >= 1. Always consumes exactly one draw."""
    return randbelow_at(s, 0, n)


@njit(cache=True)
def uniform(s):
    """A uniform float in [0, 1). Always consumes exactly one draw."""
    return uniform_at(s, 0)


@njit(cache=True)
def shuffle(s, a, n):
    """Fisher-Yates shuffle of ``a[0:n]`` in place (n - 1 draws)."""
    shuffle_at(s, 0, a, 0, n)
