"""The one random number generator, shared by every engine.

Counter-based SplitMix64: a generator's whole state is one uint64 counter held in a
length-1 ``np.uint64`` array; each draw adds the golden-ratio increment and mixes the
counter. Game ``i`` of a run starts from ``game_state(run_seed, i)``, so any game can be
replayed alone and results never depend on worker count or batch size.

Every function is ``@njit`` (in ``sim.kit.rng_compiled``): numba kernels call them natively and
the reference engines call the same compiled functions from Python, so both consume identical
streams. They are loaded on first use (``from sim.kit.rng import randbelow``, a ``Rng``), so code
that only reads results (the report, ``cardlab sql``) never imports numba.

Random-consumption protocol (both engines MUST follow it):

- ``randbelow(s, n)``: one draw, ``next_u64 % n`` (bias below 2**-50 for the n used here).
- ``uniform(s)``: one draw, the top 53 bits as a float in [0, 1).
- ``shuffle(s, a, n)``: Fisher-Yates over ``a[0:n]``: for ``i = n-1 .. 1``,
  ``j = randbelow(s, i + 1)``, swap ``a[i], a[j]`` (exactly ``n - 1`` draws).

Kernels that keep the counter in a slot of their own state buffer use the ``*_at(buf, slot,
...)`` forms (any 64-bit integer buffer; ``forceinline``, no numba runtime): the same draws,
with ``s`` standing for ``buf[slot]``. The plain forms are slot 0 of a length-1 array.
"""

from __future__ import annotations

import numpy as np

COMPILED = ("mix64", "derive", "game_state", "next_u64_at", "randbelow_at", "uniform_at", "shuffle_at",
            "next_u64", "randbelow", "uniform", "shuffle")


def _load() -> None:
    """Bind the compiled functions into this module (imports numba, compiles or loads the cache)."""
    from sim.kit import rng_compiled

    namespace = globals()
    for name in COMPILED:
        namespace[name] = getattr(rng_compiled, name)


def __getattr__(name: str):
    if name in COMPILED:
        _load()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Rng:
    """Python-side handle on one game's generator, for reference engines.

    Calls the same compiled functions as the kernels, so the streams are identical.
    """

    __slots__ = ("state",)

    def __init__(self, run_seed: int, game_index: int):
        if "game_state" not in globals():
            _load()
        self.state = game_state(np.uint64(run_seed), np.uint64(game_index))

    def randbelow(self, n: int) -> int:
        return int(randbelow(self.state, n))

    def uniform(self) -> float:
        return float(uniform(self.state))

    def shuffle(self, items: list) -> None:
        """Shuffle a Python list in place with the same protocol as ``shuffle``: the compiled
        ``shuffle`` permutes the positions (the same draws, the same swaps) in one call."""
        order = np.arange(len(items), dtype=np.int64)
        shuffle(self.state, order, len(items))
        items[:] = [items[i] for i in order.tolist()]
