"""cardlab simulation: engines, bots, runner and Parquet I/O. ``sim.run`` is the notebook API."""

from sim import jit_cache

jit_cache.install()  # before any kernel module compiles: cached kernels track their whole package

from sim.api import run  # noqa: E402

__all__ = ["run"]
