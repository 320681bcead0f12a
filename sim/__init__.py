"""cardlab simulation: engines, bots, runner and Parquet I/O. ``sim.run`` is the notebook API."""

from sim.api import run

__all__ = ["run"]
