"""cardlab simulation: engines, bots, runner and Parquet I/O. ``sim.run`` and ``sim.tune``
are the notebook API.

Nothing here imports numba: the kernels (and ``sim.kernel_util``, which installs the
package-aware numba cache locators of ``sim.jit_cache``) load when a game is played, so
reading results (``cardlab report``, ``cardlab sql``) stays light.
"""

__all__ = ["run", "tune"]


def __getattr__(name: str):
    if name in __all__:
        from sim import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
