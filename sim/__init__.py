"""cardlab simulation: engines, bots, runner and Parquet I/O (the notebook API over it is
``cardlab.run`` and ``cardlab.tune``).

Nothing here imports numba: the kernels (and ``sim.kit.kernel_util``, which installs the
package-aware numba cache locators of ``sim.kit.jit_cache``) load when a game is played, so
reading results (``cardlab report``, ``cardlab sql``) stays light.
"""
