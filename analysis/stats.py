"""Re-exports ``sim.stats``, the project's one statistics stack (import from there)."""

from sim.stats import *  # noqa: F401,F403
