"""What a study searches (``TuneSpec``), a configuration it compares (``Candidate``), and what is
checked after the search (``Checks``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from sim.run import runner
from sim.kit.config import ConfigError, RunConfig, RunOptions, Table
from sim.games import get_game
from sim.run.metrics import Metric, resolve, sample_columns
from sim.run.stopping import StoppingRule, stopping_rule
from sim.run.tuner.goals import Constraint, Objective, parse_constraint
from sim.run.tuner.space import parse_space, space_items

STUDY_KEY = "cardlab"  # the study's user attribute that holds ``TuneSpec.identity``
FINISHED = ("COMPLETE", "PRUNED")  # the trial states that count as finished


@dataclass
class TuneSpec:
    """What a study searches; everything but the trial count, output and storage. ``space``: Dims,
    or ``{name: (lo, hi) | [choices] | "lo..hi"}``, or ``"name=lo..hi"`` items; ``constraints``:
    Constraints or their text (``"mean_turns in 40..50"``); ``table``: the base configuration;
    ``options``: how each configuration is played (workers, engine, batch size)."""

    game: str
    space: Any
    objective: Objective | list[Objective]  # several: a multi-objective study
    constraints: list[Constraint | str] = field(default_factory=list)
    games: int = 10_000
    precision: float | None = None
    metric: str | None = None  # stopping metric; default: the objective's metric
    table: Table = Table()
    options: RunOptions = RunOptions()

    def __post_init__(self):
        self.plugin = get_game(self.game)
        self.game = self.plugin.name
        if self.space is None or isinstance(self.space, dict) or any(isinstance(d, str) for d in self.space):
            self.space = parse_space(self.plugin, space_items(self.space))
        self.constraints = [parse_constraint(c) if isinstance(c, str) else c for c in self.constraints]
        self.base = self.config({})
        cols = sample_columns(self.plugin, self.base)
        self.objectives = list(self.objective) if isinstance(self.objective, (list, tuple)) else [self.objective]
        self.objective = self.objectives[0]
        self.objective_metrics = [resolve(o.metric, self.plugin, self.base, cols).scalar() for o in self.objectives]
        self.objective_metric = self.objective_metrics[0]
        self.constraint_metrics = [resolve(c.metric, self.plugin, self.base, cols).scalar() for c in self.constraints]
        self.catalog = cols
        self.rule = stopping_rule(self.precision, self.metric, self.objective.metric)
        if self.rule:
            self.rule.bind(self.plugin, self.base)
        runner.plan(self.base, self.games, self.options.batch_size, self.options.engine)

    def config(self, values: dict[str, Any]) -> RunConfig:
        """The base config with ``values`` (a trial's parameters) on top."""
        return self.table.config(self.plugin, values)

    def run_options(self, stopping: StoppingRule | None = None) -> RunOptions:
        """How the study plays a configuration: its workers, engine and batch size, no progress bar."""
        return dataclasses.replace(self.options, progress=False, stopping=stopping)

    def identity(self) -> dict[str, Any]:
        """What a stored study must match to be resumed."""
        return {
            "game": self.game, "base_config": self.base.digest(), "space": [d.to_dict() for d in self.space],
            "objective": (self.objective.identity() if not self.multi else [o.identity() for o in self.objectives]),
            "constraints": [c.text for c in self.constraints], "games": self.games, "precision": self.precision,
            "stopping_metric": self.rule.metric if self.rule else None, "engine": self.options.engine,
            "batch_size": self.options.batch_size,
        }

    @property
    def multi(self) -> bool:
        return len(self.objectives) > 1

    def metrics(self) -> list[Metric]:
        return [*self.objective_metrics, *self.constraint_metrics]

    def describe(self) -> str:
        return "; ".join(o.describe() for o in self.objectives)


@dataclass(frozen=True)
class Candidate:
    """A configuration in the race or confirmation: the default or a trial's."""

    label: str  # "default" or "trial <n>"
    params: dict[str, Any]  # the searched parameters' values
    config: RunConfig  # at the study seed
    trial: int | None = None

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.params.items())


@dataclass(frozen=True)
class StudySettings:
    """Where a study lives and how it samples: the Optuna ``storage`` URL (default
    ``sqlite:///OUT/study.db``), the study's ``name`` in it and the TPE sampler's seed."""

    storage: str | None = None
    name: str = "cardlab"
    sampler_seed: int = 0


@dataclass(frozen=True)
class Checks:
    """After the search: race the ``race`` best trials and the default (0: no race) from
    ``--games`` games, doubling up to ``race_games``; confirm on ``confirm_games`` fresh games;
    ``write_best``: write best.toml even without a confirmed improvement."""

    race: int = 4
    race_games: int | None = None  # default 8 x --games
    confirm_games: int | None = None  # default 4 x --games
    write_best: bool = False

    def check(self, spec: TuneSpec) -> None:
        if self.race < 0:
            raise ConfigError(f"--race must be 0 or more, got {self.race}")
        for name, v in (("--race-games", self.race_games), ("--confirm-games", self.confirm_games)):
            if v is not None and v < 1:
                raise ConfigError(f"{name} must be at least 1, got {v}")
        if self.write_best and spec.multi:
            raise ConfigError("--write-best needs one goal; a multi-objective study lists its Pareto front in pareto.toml")
