"""Numba building blocks shared by the game kernels.

``fn`` compiles a separate function; ``inl`` one that LLVM inlines into every caller
(``forceinline``), which removes the call overhead of passing state arrays around. Both
set every flag explicitly, since an unset flag is inherited from whichever caller compiles
first. Helpers run without the numba runtime (``_nrt=False``): none of them allocates, so
no call pays reference counting on its array arguments.
"""

import numpy as np
from numba import njit

fn = njit(cache=True, _nrt=False, error_model="numpy", boundscheck=False, forceinline=False)
inl = njit(cache=True, _nrt=False, error_model="numpy", boundscheck=False, forceinline=True)


@inl
def ix(i):
    """A non-negative index as unsigned: numba then skips the negative-index wraparound check
    (a compare and select per access). Constant indices need no ``ix``."""
    return np.uint64(i)
