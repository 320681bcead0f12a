"""A small Python API for notebooks: run games and get DataFrames back (``cardlab.run``,
``cardlab.tune``). pandas loads on the first call, so importing ``cardlab`` stays light."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.games import get_game

if TYPE_CHECKING:
    import pandas as pd


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

    The games go through the runner (batches, ``workers`` processes) into ``out``, a run
    directory that keeps the Parquet batches and resumes, or without ``out`` into a temporary
    directory removed once the tables are loaded.

    >>> tables = run("virus-dogs", games=1000, bots="cautious,random", players=2)  # doctest: +SKIP
    """
    import tempfile

    from analysis.load import Run
    from sim import runner

    g = get_game(game)
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    cfg = g.make_config(players=players, bots=bots, seed=seed, overrides=params)

    def play(path) -> dict[str, pd.DataFrame]:
        runner.run(cfg, games, path, runner.RunOptions(workers=workers, batch_size=batch_size, engine=engine,
                                                       progress=False))
        loaded = Run(path)
        return {name: loaded.table(name) for name in g.tables}

    if out is not None:
        return play(out)
    with tempfile.TemporaryDirectory(prefix="cardlab-run-") as tmp:
        return play(Path(tmp) / "run")


def tune(
    game: str,
    space: dict[str, Any] | list[str],
    minimize: str | list[str] | None = None,
    maximize: str | list[str] | None = None,
    target: str | list[str] | None = None,
    constraints: list[str] | None = None,
    trials: int = 20,
    games: int = 10_000,
    out: str | Path = "tune",
    precision: float | None = None,
    metric: str | None = None,
    players: int | None = None,
    bots: list[str] | str | None = None,
    seed: int = 0,
    params: dict[str, Any] | None = None,
    storage: str | None = None,
    study: str = "cardlab",
    sampler_seed: int = 0,
    workers: int = 1,
    engine: str = "fast",
    batch_size: int | None = None,
    report: bool = True,
    race: int = 4,
    race_games: int | None = None,
    confirm_games: int | None = None,
    write_best: bool = False,
):
    """The ``cardlab tune`` command as a function; returns a ``sim.tuner.TuneResult``.

    ``space`` maps a parameter to a ``(lo, hi)`` range, a list of choices or a ``"lo..hi"``
    string, or is a list of CLI-style ``"name=lo..hi"`` items. ``minimize``, ``maximize`` and
    ``target`` take a metric or a list of them (several goals: a multi-objective study).
    ``result.answer`` is the answer in one sentence, ``result.confirmed`` whether an
    improvement over the default held on fresh games, ``result.best.params`` the search's best
    trial, ``result.trials_table`` the trials Parquet file.

    >>> r = tune("virus-dogs", {"n_bat": (1, 6)}, minimize="seat_spread", trials=10, games=2000)  # doctest: +SKIP
    """
    from sim.tuner import Checks, TuneSpec, parse_constraint, parse_objectives, parse_space, run_study

    g = get_game(game)
    if isinstance(space, dict):
        items = [f"{k}={_space_text(v)}" for k, v in space.items()]
    else:
        items = list(space)
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    spec = TuneSpec(game=g.name, space=parse_space(g, items), objective=parse_objectives(minimize, maximize, target),
                    constraints=[parse_constraint(c) for c in constraints or []], games=games, precision=precision,
                    metric=metric, players=players, bots=bots, seed=seed, overrides=dict(params or {}),
                    engine=engine, batch_size=batch_size)
    result = run_study(spec, trials, out, storage, study, workers, sampler_seed,
                       Checks(race, race_games, confirm_games, write_best))
    if report:
        from reports.tuning import build

        build(result)
    return result


def _space_text(value: Any) -> str:
    if isinstance(value, tuple) and len(value) == 2:
        return f"{value[0]}..{value[1]}"
    if isinstance(value, (list, set)):
        return ",".join(str(v) for v in value)
    return str(value)
