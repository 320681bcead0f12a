"""Numba building blocks shared by the game kernels.

``fn`` compiles a separate function; ``inl`` one that LLVM inlines into every caller
(``forceinline``), which removes the call overhead of passing state arrays around. Both
set every flag explicitly, since an unset flag is inherited from whichever caller compiles
first. Helpers run without the numba runtime (``_nrt=False``): none of them allocates, so
no call pays reference counting on its array arguments.

Importing this module installs the package-aware cache locators (``sim.jit_cache``) first:
every kernel module imports it (directly or through ``sim.rng`` and ``seat_bot``) before its
first ``@njit(cache=True)``.
"""

import numpy as np

from sim import jit_cache

jit_cache.install()

from numba import njit  # noqa: E402

fn = njit(cache=True, _nrt=False, error_model="numpy", boundscheck=False, forceinline=False)
inl = njit(cache=True, _nrt=False, error_model="numpy", boundscheck=False, forceinline=True)


@inl
def ix(i):
    """A non-negative index as unsigned: numba then skips the negative-index wraparound check
    (a compare and select per access). Constant indices need no ``ix``."""
    return np.uint64(i)


@njit(cache=True)
def seat_bot(table_bots, game_index, seat):
    """Bot of ``seat`` in game ``game_index``: the table's bot list rotated by the game index
    (``sim.games.base.seat_bots`` is its Python twin).

    Seat s plays ``table_bots[(s + i) % n]``, so over any n consecutive games every bot
    sits in every seat once and seat effects separate from bot effects.
    """
    n = table_bots.shape[0]
    return table_bots[(seat + game_index) % n]
