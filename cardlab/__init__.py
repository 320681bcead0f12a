"""cardlab, the application: the ``cardlab`` command line (``cardlab.cli``: arguments and
printing), the API every command calls (``cardlab.api``; in a notebook ``cardlab.run`` and
``cardlab.tune``, with their option groups ``cardlab.Table`` and ``cardlab.RunOptions``), the
reinforcement-learning environments (``cardlab.env``: ``cardlab.rl``, and ``cardlab.vector_env``:
``cardlab.vector_rl``, loaded on first use; needs the ``rl`` extra), the checked VP advice
(``cardlab.advice``) and the benches
(``engine_bench``, ``search_bench``, ``report_bench``). It orchestrates the layers below it: ``reports`` over ``analysis``
over the simulator ``sim``.

Importing it imports neither numba nor pandas: the CLI starts fast, and reading results
(``cardlab report``, ``cardlab sql``) never loads a kernel.
"""

from cardlab.api import run, tune
from sim.kit.config import RunOptions, Table

__all__ = ["RunOptions", "Table", "env", "run", "tune", "vector_env"]


def __getattr__(name: str):
    """``cardlab.env`` and ``cardlab.vector_env``, imported on first use (they import PettingZoo
    and Gymnasium)."""
    if name == "env":
        from cardlab.rl import env

        return env
    if name == "vector_env":
        from cardlab.vector_rl import vector_env

        return vector_env
    raise AttributeError(f"module 'cardlab' has no attribute {name!r}")
