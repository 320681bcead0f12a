"""cardlab, the application: the ``cardlab`` command line (``cardlab.cli``), the notebook API
(``cardlab.run``, ``cardlab.tune``: ``cardlab.api``) and the report bench
(``cardlab.report_bench``). It orchestrates the layers below it: ``reports`` over ``analysis``
over the simulator ``sim``.

Importing it imports neither numba nor pandas: the CLI starts fast, and reading results
(``cardlab report``, ``cardlab sql``) never loads a kernel.
"""

from cardlab.api import run, tune

__all__ = ["run", "tune"]
