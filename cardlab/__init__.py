"""cardlab, the application: the ``cardlab`` command line (``cardlab.cli``: arguments and
printing), the API every command calls (``cardlab.api``; in a notebook ``cardlab.run`` and
``cardlab.tune``), the engine checks and the benches (``cardlab.advice``, ``engine_bench``,
``search_bench``, ``report_bench``). It orchestrates the layers below it: ``reports`` over ``analysis``
over the simulator ``sim``.

Importing it imports neither numba nor pandas: the CLI starts fast, and reading results
(``cardlab report``, ``cardlab sql``) never loads a kernel.
"""

from cardlab.api import run, tune

__all__ = ["run", "tune"]
