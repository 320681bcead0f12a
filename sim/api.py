"""A small Python API for notebooks: run games and get DataFrames back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from sim.games import get_game


def run(
    game: str,
    games: int = 1_000,
    players: int | None = None,
    bots: list[str] | str | None = None,
    seed: int = 0,
    params: dict[str, Any] | None = None,
    engine: str = "fast",
    out: str | Path | None = None,
    workers: int = 1,
    batch_size: int | None = None,
) -> dict[str, pd.DataFrame]:
    """Simulate and return ``{table: DataFrame}``.

    With ``out`` the run goes through the runner (Parquet batches, resume, workers) and is
    loaded back; without it the games are played in memory in one process.

    >>> tables = run("virus-dogs", games=1000, bots="cautious,random", players=2)  # doctest: +SKIP
    """
    from analysis.load import Run
    from sim import runner

    g = get_game(game)
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    cfg = g.make_config(players=players, bots=bots, seed=seed, overrides=params)
    if out is not None:
        runner.run(cfg, games, out, workers, batch_size, engine, progress=False)
        loaded = Run(out)
        return {name: loaded.table(name) for name in g.tables}
    facts = runner.plan(cfg, games, batch_size, engine)
    parts: dict[str, list[pd.DataFrame]] = {name: [] for name in g.tables}
    for k in range(facts.n_batches()):
        start, count = facts.batch_range(k)
        for name, df in g.run_batch(cfg, start, count, engine).items():
            parts[name].append(df)
    result = {}
    for name, spec in g.tables.items():
        df = pd.concat(parts[name], ignore_index=True)
        if spec.kind == "sum":
            df = df.groupby(list(spec.keys), as_index=False, sort=True).sum()
        result[name] = df
    return result
