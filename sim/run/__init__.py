"""The run machinery: plays runs of a game and keeps their results. The runner (``runner``) drives
batches, the stopping rule (``stopping``) reads the batch counts it is handed, the store (``store``)
writes Parquet batches atomically; per-game metrics (``metrics``), statistics (``stats``), both
engines compared (``verify``), skill ladders (``ladder``), parameter search (``tuner``) and the engines compiled ahead
(``precompile``). It
plays games through their plug-ins (``sim.games``) and the engine kit (``sim.kit``)."""
