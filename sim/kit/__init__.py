"""The engine kit: what a game's two engines are built from. The one generator (``rng``), the
named state buffer (``layout``), the compiled helpers and bot-parameter encoding (``kernel_util``),
the step contract (``step``), the search core (``search``, ``search_twin``, ``search_params``), the
learned bot (``learned``), levers (``levers``), scenarios (``scenario``), the batched environment's
loop (``vector``), rule and run parameters (``config``) and numba's cache
(``jit_cache``). It knows no game and nothing of running, storing or judging runs (``sim.run``)."""
