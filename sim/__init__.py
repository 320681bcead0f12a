"""cardlab simulation: engines, bots, runner and Parquet I/O. ``sim.run`` and ``sim.tune``
are the notebook API."""

from sim import jit_cache

jit_cache.install()  # before any kernel module compiles: cached kernels track their whole package

from sim.api import run, tune  # noqa: E402

__all__ = ["run", "tune"]
