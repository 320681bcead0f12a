"""cardlab, the application: the ``cardlab`` command line (``cardlab.cli``), the notebook API
(``cardlab.run``, ``cardlab.tune``: ``cardlab.api``), the reinforcement-learning environments
(``cardlab.env``: ``cardlab.rl``, loaded on first use; needs the ``rl`` extra) and the report bench
(``cardlab.report_bench``). It orchestrates the layers below it: ``reports`` over ``analysis``
over the simulator ``sim``.

Importing it imports neither numba nor pandas: the CLI starts fast, and reading results
(``cardlab report``, ``cardlab sql``) never loads a kernel.
"""

from cardlab.api import run, tune

__all__ = ["env", "run", "tune"]


def __getattr__(name: str):
    """``cardlab.env``, imported on first use (it imports PettingZoo)."""
    if name == "env":
        from cardlab.rl import env

        return env
    raise AttributeError(f"module 'cardlab' has no attribute {name!r}")
