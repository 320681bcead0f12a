"""Search rule and bot parameters for a balance target with Optuna (``cardlab tune``).

Every trial is a run through the runner with the same seed, so all trials play the same
game seeds (common random numbers), and with a stopping rule when a precision is given.
A trial's run directory is named by its config hash (``OUT/runs/<hash>``), so a config
proposed twice reuses its games. The study lives in an Optuna storage (default
``sqlite:///OUT/study.db``): rerunning with a larger trial count resumes it. One process works
in OUT at a time (its writer lock); several processes, each with its own OUT, share one study
through ``--storage``. A trial left running by a process that died is marked failed and played
again: at once for the default storage (OUT's lock shows no one else runs it), after Optuna's
heartbeat grace period for a shared one. The study remembers what it searches (game,
base config, space, objective, constraints, games, precision); a rerun that asks for
something else is refused before anything is written.

Space items: ``name=lo..hi`` (int or float, by the parameter's type), ``name=a,b,c``
(categorical); ``bot.<bot>.<param>`` for bot parameters. Constraints: ``"M in lo..hi"``,
``"M <= x"``, ``"M >= x"``, with metric names from ``sim.metrics``. Goals: ``--minimize M``,
``--maximize M``, ``--target M=V`` or ``--target M=LO..HI`` (distance to the band), each
repeatable; several goals make a multi-objective study (Optuna's TPE sampler).

Every trial measures its configuration on few games, so the best trial is partly the luckiest.
After the search (one goal) the best ``--race`` trials and the default are raced
(``run_race``): replayed on a common new seed (study seed + RACE_SEED_OFFSET), from ``--games``
games each and doubling up to ``--race-games``, dropping at each rung every candidate that is
worse than the leader beyond noise (Holm over the rung's comparisons) or breaks a constraint
beyond noise, until one is left or all are within ``--precision`` of the leader. The race's
winner (or, when the default wins, the search's best trial) is then confirmed (``confirm``)
against the default on ``--confirm-games`` fresh games (study seed + CONFIRM_SEED_OFFSET, which
no trial or race plays); ``best.toml`` is written only when the improvement holds there (95%
interval of the difference on the better side of zero, constraints met) or with
``--write-best``. With several goals each Pareto configuration is confirmed against the
default and ``pareto.toml`` lists them. ``answer.json`` holds the answer in one sentence,
``race.parquet`` the race, ``confirmation.parquet`` every metric of each confirmation.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sim import runner, stats
from sim.config import ConfigError, RunConfig, RunOptions, read_toml
from sim.games import get_game
from sim.metrics import Counts, Estimate, Metric, read_counts, resolve, sample_columns
from sim.stopping import StoppingRule
from sim.store import RunDir, writer_lock

STUDY_KEY = "cardlab"
FINISHED = ("COMPLETE", "PRUNED")
HEARTBEAT_S = 15  # a running trial's heartbeat in the storage; one silent for GRACE_S is stale
GRACE_S = 60
RETRIES = 2  # a trial whose process died is played again at most this often


# ---- search space ------------------------------------------------------------------------
@dataclass(frozen=True)
class Dim:
    """One searched parameter: an int or float range, or a list of choices."""

    name: str
    kind: str  # int | float | categorical
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()

    def suggest(self, trial) -> Any:
        if self.kind == "int":
            return trial.suggest_int(self.name, int(self.lo), int(self.hi))
        if self.kind == "float":
            return trial.suggest_float(self.name, float(self.lo), float(self.hi))
        return trial.suggest_categorical(self.name, list(self.choices))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "lo": self.lo, "hi": self.hi, "choices": list(self.choices)}


def parse_space(game, items: list[str], file: str | Path | None = None) -> list[Dim]:
    """Dims from ``name=lo..hi`` / ``name=a,b`` items and a TOML file's ``[space]`` table."""
    raw: dict[str, Any] = {}
    if file is not None:
        doc = read_toml(file)
        if not isinstance(doc.get("space"), dict) or set(doc) - {"space"}:
            raise ConfigError(f"space file {file} must hold one [space] table")
        raw.update(doc["space"])
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ConfigError(f"bad --space {item!r}: expected name=lo..hi or name=a,b,c")
        raw[name.strip()] = value.strip()
    if not raw:
        raise ConfigError("the search space is empty: give --space name=lo..hi or --space-file")
    return [_dim(game, name, value) for name, value in raw.items()]


def _dim(game, name: str, value: Any) -> Dim:
    coerce, kind = _coercer(game, name)
    if isinstance(value, dict):
        if set(value) != {"low", "high"}:
            raise ConfigError(f"space '{name}': a table needs exactly low and high")
        value = (value["low"], value["high"])
    elif isinstance(value, str) and ".." in value:
        value = tuple(v.strip() for v in value.split("..", 1))
    elif isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, tuple):
        if kind not in ("int", "float"):
            raise ConfigError(f"space '{name}': a {kind} parameter takes a list of values, not a range")
        lo, hi = coerce(value[0]), coerce(value[1])
        if lo > hi:
            raise ConfigError(f"space '{name}': empty range {lo}..{hi}")
        return Dim(name, kind, lo, hi)
    choices = tuple(coerce(v) for v in value)
    if not choices:
        raise ConfigError(f"space '{name}': no values")
    if any(isinstance(c, tuple) for c in choices):
        raise ConfigError(f"space '{name}': set parameters cannot be searched")
    return Dim(name, "categorical", choices=tuple(dict.fromkeys(choices)))


def _coercer(game, name: str):
    """(value converter, kind) of a rule parameter or ``bot.<bot>.<param>``."""
    if name.startswith("bot."):
        parts = name.split(".")
        if len(parts) != 3 or parts[1] not in game.bots or parts[2] not in game.bots[parts[1]].params:
            raise ConfigError(f"unknown bot parameter '{name}' in the space (see: cardlab rules {game.name})")
        spec = game.bot_param_spec(parts[2])
        return (lambda v: spec.coerce(name, v)), "float"
    p = game.param(name)
    return p.coerce, p.kind


# ---- objective and constraints -----------------------------------------------------------
@dataclass(frozen=True)
class Objective:
    """``minimize`` or ``maximize`` a metric, or ``target``: minimize |metric - target|, or the
    distance from the metric to a ``band`` (0 inside it)."""

    mode: str
    metric: str
    target: float | None = None
    band: tuple[float, float] | None = None

    def direction(self) -> str:
        return "maximize" if self.mode == "maximize" else "minimize"

    def score(self, e: Estimate) -> float:
        if self.mode != "target":
            return e.value
        if self.band is not None:
            return max(self.band[0] - e.value, e.value - self.band[1], 0.0)
        return abs(e.value - self.target)

    def describe(self) -> str:
        if self.band is not None:
            return f"target {self.metric} in {self.band[0]:g}..{self.band[1]:g}"
        return f"target {self.metric} = {self.target}" if self.mode == "target" else f"{self.mode} {self.metric}"

    def identity(self) -> list:
        return [self.mode, self.metric, list(self.band) if self.band else self.target]

    def score_difference(self, metric: Metric, a: Counts, b: Counts) -> Estimate:
        """How much worse ``a`` is than ``b`` on this goal, as a minimized score (negative: ``a``
        is better), with its 95% interval and p-value. A distance to a target or band gets the
        standard error of the metric's difference (the distance has slope 1 in the metric)."""
        d = next(iter(metric.difference(a, b).values()))
        if self.mode == "minimize":
            return d
        if self.mode == "maximize":
            return Estimate(-d.value, -d.hi, -d.lo, d.p)
        gap = self.score(metric.value(a)) - self.score(metric.value(b))
        t = stats.estimate_test(gap, d.half_width / 1.959964 if math.isfinite(d.half_width) else math.nan)
        return Estimate(t["diff"], t["lo"], t["hi"], t["p"])


def parse_objective(minimize: str | None, maximize: str | None, target: str | None) -> Objective:
    """Exactly one goal (the single-objective form)."""
    goals = parse_objectives(minimize, maximize, target)
    if len(goals) != 1:
        raise ConfigError("give exactly one of --minimize METRIC, --maximize METRIC, --target METRIC=VALUE")
    return goals[0]


def parse_objectives(minimize, maximize, target) -> list[Objective]:
    """The goals of a study: each option a string or a list of strings (repeated options);
    more than one goal makes a multi-objective study. ``--target M=V`` or ``M=LO..HI``."""
    goals = []
    for mode, texts in (("minimize", minimize), ("maximize", maximize), ("target", target)):
        for text in [texts] if isinstance(texts, str) else texts or []:
            goals.append(Objective(mode, text.strip()) if mode != "target" else _target(text))
    if not goals:
        raise ConfigError("give --minimize METRIC, --maximize METRIC or --target METRIC=VALUE (repeatable)")
    if len({g.metric for g in goals}) < len(goals):
        raise ConfigError("each metric may be the goal of one --minimize, --maximize or --target only")
    return goals


def _target(text: str) -> Objective:
    name, sep, value = text.partition("=")
    where = f"--target {text!r}"
    if not sep:
        _number("", where)
    if ".." in value:
        lo, hi = (_number(v, where) for v in value.split("..", 1))
        if lo > hi:
            raise ConfigError(f"{where}: empty band {lo:g}..{hi:g}")
        return Objective("target", name.strip(), (lo + hi) / 2, (lo, hi))
    return Objective("target", name.strip(), _number(value, where))


@dataclass(frozen=True)
class Constraint:
    """``metric`` within ``lo..hi`` (either end may be open); feasible when violation <= 0."""

    metric: str
    lo: float = -math.inf
    hi: float = math.inf
    text: str = ""

    def violation(self, e: Estimate) -> float:
        return max(self.lo - e.value, e.value - self.hi)


def parse_constraint(text: str) -> Constraint:
    m = re.fullmatch(r"\s*(\S+)\s+in\s+(\S+?)\s*\.\.\s*(\S+)\s*", text)
    if m:
        lo, hi = _number(m[2], text), _number(m[3], text)
        if lo > hi:
            raise ConfigError(f"constraint {text!r}: empty range {lo}..{hi}")
        return Constraint(m[1], lo, hi, text.strip())
    m = re.fullmatch(r"\s*(\S+?)\s*(<=|>=)\s*(\S+)\s*", text)
    if m:
        x = _number(m[3], text)
        return Constraint(m[1], hi=x, text=text.strip()) if m[2] == "<=" else Constraint(m[1], lo=x, text=text.strip())
    raise ConfigError(f"bad --constraint {text!r}: expected 'METRIC in LO..HI', 'METRIC <= X' or 'METRIC >= X'")


def _number(text: str, where: str) -> float:
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not math.isfinite(x):
        raise ConfigError(f"{where}: expected a number, got {text.strip()!r}")
    return x


# ---- the study ---------------------------------------------------------------------------
@dataclass
class TuneSpec:
    """What a study searches; everything but the trial count, output and storage."""

    game: str
    space: list[Dim]
    objective: Objective | list[Objective]  # several: a multi-objective study
    constraints: list[Constraint] = field(default_factory=list)
    games: int = 10_000
    precision: float | None = None
    metric: str | None = None  # stopping metric; default: the objective's metric
    players: int | None = None
    bots: list[str] | None = None
    seed: int | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    config_file: dict[str, Any] | None = None
    engine: str = "fast"
    batch_size: int | None = None

    def __post_init__(self):
        self.plugin = get_game(self.game)
        self.base = self.config({})
        cols = sample_columns(self.plugin, self.base)
        self.objectives = list(self.objective) if isinstance(self.objective, (list, tuple)) else [self.objective]
        self.objective = self.objectives[0]
        self.objective_metrics = [resolve(o.metric, self.plugin, self.base, cols).scalar() for o in self.objectives]
        self.objective_metric = self.objective_metrics[0]
        self.constraint_metrics = [resolve(c.metric, self.plugin, self.base, cols).scalar() for c in self.constraints]
        self.catalog = cols
        self.rule = StoppingRule(self.precision, self.metric or self.objective.metric) if self.precision is not None else None
        if self.rule:
            self.rule.bind(self.plugin, self.base)
        runner.plan(self.base, self.games, self.batch_size, self.engine)

    def config(self, values: dict[str, Any]) -> RunConfig:
        """The base config with ``values`` (a trial's parameters) on top."""
        return self.plugin.make_config(players=self.players, bots=self.bots, seed=self.seed,
                                       overrides={**self.overrides, **values}, file=self.config_file)

    def run_options(self, workers: int, stopping: StoppingRule | None = None) -> RunOptions:
        """How the study plays a configuration: its engine and batch size, no progress bar."""
        return RunOptions(workers=workers, batch_size=self.batch_size, engine=self.engine, progress=False,
                          stopping=stopping)

    def identity(self) -> dict[str, Any]:
        """What a stored study must match to be resumed."""
        return {
            "game": self.game, "base_config": self.base.digest(), "space": [d.to_dict() for d in self.space],
            "objective": (self.objective.identity() if not self.multi else [o.identity() for o in self.objectives]),
            "constraints": [c.text for c in self.constraints], "games": self.games, "precision": self.precision,
            "stopping_metric": self.rule.metric if self.rule else None, "engine": self.engine,
            "batch_size": self.batch_size,
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


@dataclass
class Race:
    """The race of the leading candidates: one row per rung and candidate (``race.parquet``)."""

    rows: pd.DataFrame
    winner: Candidate
    reason: str  # one left | indistinguishable at the precision | game cap reached
    games: int  # games per candidate in the last rung


@dataclass
class Confirmation:
    """A candidate against the default on fresh games (a seed no trial or race played)."""

    chosen: Candidate
    default: Candidate
    games: int
    seed: int
    runs: tuple[Path, Path]  # chosen, default
    values: list[tuple[Estimate, Estimate]]  # per goal: (chosen, default) metric estimates
    diffs: list[Estimate]  # per goal: metric difference chosen - default
    goals: list[Estimate]  # per goal: score difference chosen - default (negative: chosen is better)
    broken: list[str]  # constraints the chosen configuration breaks on these games
    table: pd.DataFrame  # every metric: both values, the difference, its interval, a flag

    @property
    def improves(self) -> bool:
        """Better beyond noise on some goal, worse beyond noise on none, constraints kept."""
        return (any(g.hi < 0 for g in self.goals) and not any(g.lo > 0 for g in self.goals)
                and not self.broken)


@dataclass
class TuneResult:
    """A finished ``tune`` call: the study, its best trial, the race, the confirmation(s)."""

    spec: TuneSpec
    study: Any  # optuna.Study
    out: Path
    storage: str
    best: Any  # optuna.FrozenTrial: the search's best trial (single objective; first Pareto one)
    best_config: RunConfig
    default_config: RunConfig
    best_run: Path  # confirmation run of the chosen configuration (fresh seed)
    default_run: Path  # confirmation run of the default
    trials_table: Path
    best_toml: Path | None  # written for a confirmed improvement (or with --write-best)
    new_trials: int = 0
    race: Race | None = None
    confirmations: list[Confirmation] = field(default_factory=list)
    answer: str = ""
    pareto_toml: Path | None = None

    @property
    def confirmed(self) -> bool:
        return any(c.improves for c in self.confirmations)

    def counts(self, which: str) -> Counts:
        path = self.best_run if which == "best" else self.default_run
        rd = RunDir(path)
        return read_counts(self.spec.plugin, rd, [b["id"] for b in rd.manifest()["batches"]])


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


def run_study(spec: TuneSpec, trials: int, out: str | Path, storage: str | None = None, study_name: str = "cardlab",
              workers: int = 1, sampler_seed: int = 0, checks: Checks | None = None) -> TuneResult:
    """Run (or resume) the study up to ``trials`` finished trials in total, race and confirm
    its best configurations, and write the outputs."""
    import optuna

    checks = checks or Checks()
    if trials < 1:
        raise ConfigError(f"--trials must be at least 1, got {trials}")
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    checks.check(spec)
    out = Path(out)
    with writer_lock(out, f"{spec.game} tune"):
        url = storage or f"sqlite:///{(out / 'study.db').resolve()}"
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        study = _open_study(optuna, spec, url, study_name, sampler_seed)
        if storage is None:
            _retry_abandoned(optuna, study)
        before = _finished(study)
        mine: list[int] = []  # trials this call ran (other processes may share the study)
        if before < trials:
            states = tuple(getattr(optuna.trial.TrialState, s) for s in FINISHED)
            study.optimize(_objective(spec, out, workers), n_trials=trials - before,
                           callbacks=[optuna.study.MaxTrialsCallback(trials, states=states),
                                      lambda _, trial: mine.append(trial.number)])
        return _results(spec, study, out, url, workers, len(mine), checks)


def _retry_abandoned(optuna, study) -> None:
    """Mark every trial still RUNNING failed and queue it again (same parameters): called with
    the default storage under OUT's writer lock, so no live process runs any of them."""
    storage = study._storage
    retry = storage.get_heartbeat_stale_trial_callback()
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        try:
            storage.set_trial_state_values(t._trial_id, state=optuna.trial.TrialState.FAIL)
        except optuna.exceptions.UpdateFinishedTrialError:
            continue
        retry(study, storage.get_trial(t._trial_id))


def _open_study(optuna, spec: TuneSpec, url: str, name: str, sampler_seed: int):
    """Load or create the study; refuse one that searches something else."""
    storage, names = _storage(optuna, url)
    mine = json.loads(json.dumps(spec.identity()))
    if name in names:
        old = optuna.load_study(study_name=name, storage=storage).user_attrs.get(STUDY_KEY)
        if old != mine:
            diff = sorted(k for k in mine if not old or old.get(k) != mine[k])
            raise ConfigError(f"study '{name}' in {url} searches another {', '.join(diff) or 'study'}; "
                              "use a new --out, --storage or --study")
    existing = 0 if name not in names else len(optuna.load_study(study_name=name, storage=storage).trials)
    # seeded by the trials already stored, so a resumed study draws new startup points
    sampler = optuna.samplers.TPESampler(seed=sampler_seed + existing)
    study = optuna.create_study(study_name=name, storage=storage, sampler=sampler,
                                directions=[o.direction() for o in spec.objectives], load_if_exists=True)
    if name not in names:
        study.set_user_attr(STUDY_KEY, mine)
    return study


def _storage(optuna, url: str, attempts: int = 3):
    """The RDB storage and its study names. Processes that create one database at the same
    moment race on its schema table, so a failed first open is retried."""
    import warnings

    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)  # heartbeats are "experimental"
    retry = optuna.storages.RetryHeartbeatStaleTrialCallback(max_retry=RETRIES)
    for attempt in range(attempts):
        try:
            storage = optuna.storages.RDBStorage(url, heartbeat_interval=HEARTBEAT_S, grace_period=GRACE_S,
                                                 heartbeat_stale_trial_callback=retry)
            return storage, [s.study_name for s in optuna.get_all_study_summaries(storage, include_best_trial=False)]
        except Exception as e:  # SQLAlchemy and Optuna raise many types for a bad URL or file
            if attempt == attempts - 1:
                raise ConfigError(f"cannot open study storage {url}: {str(e).splitlines()[0]}") from None
            time.sleep(0.5 * (attempt + 1))


def _finished(study) -> int:
    return sum(t.state.name in FINISHED for t in study.get_trials(deepcopy=False))


def _objective(spec: TuneSpec, out: Path, workers: int):
    import optuna

    def objective(trial) -> float:
        values = {d.name: d.suggest(trial) for d in spec.space}
        try:
            cfg = spec.config(values)
        except ConfigError as e:  # cross-parameter rules (e.g. draw_min <= draw_max)
            trial.set_user_attr("invalid", str(e))
            raise optuna.TrialPruned(str(e)) from None
        run = simulate(spec, cfg, out, workers)
        counts = read_counts(spec.plugin, RunDir(run.path), range(run.batches))
        estimates = [m.value(counts) for m in spec.metrics()]
        goals = len(spec.objectives)
        violations = [c.violation(e) if not math.isnan(e.value) else math.inf
                      for c, e in zip(spec.constraints, estimates[goals:])]
        trial.set_user_attr("config_hash", cfg.digest())
        trial.set_user_attr("games", run.games)
        trial.set_user_attr("stop_reason", run.stopping["reason"] if run.stopping else "games reached")
        for m, e in zip(spec.metrics(), estimates):
            trial.set_user_attr(m.name, e.value)
            trial.set_user_attr(f"{m.name}_lo", e.lo)
            trial.set_user_attr(f"{m.name}_hi", e.hi)
        for c, v in zip(spec.constraints, violations):
            trial.set_constraint(c.text, v)  # the TPE sampler models feasibility from these
        if spec.constraints:
            trial.set_user_attr("feasible", all(v <= 0 for v in violations))
        scores = [o.score(e) for o, e in zip(spec.objectives, estimates)]
        return tuple(scores) if spec.multi else scores[0]

    return objective


def simulate(spec: TuneSpec, cfg: RunConfig, out: Path, workers: int):
    """One configuration's run (``OUT/runs/<config hash>``), resumed if already there."""
    return runner.run(cfg, spec.games, out / "runs" / cfg.digest(), spec.run_options(workers, spec.rule))


def _results(spec: TuneSpec, study, out: Path, url: str, workers: int, new: int, checks: Checks) -> TuneResult:
    done = [t for t in study.get_trials(deepcopy=False) if t.state.name == "COMPLETE"]
    if not done:
        raise ConfigError(f"the study in {url} has no completed trial (every configuration was invalid?)")
    table = out / "trials.parquet"
    with replacing(table) as tmp:
        _trials_frame(study, spec.multi).to_parquet(tmp, index=False)
    feasible = [t for t in done if t.user_attrs.get("feasible", True)]
    if not feasible:
        raise ConfigError(f"{unmet_constraints(spec, done)}; no best.toml written; trials in {table}")
    default = Candidate("default", {d.name: param_value(spec.plugin, spec.base, d.name) for d in spec.space}, spec.base)
    confirm_games = checks.confirm_games or 4 * spec.games
    if spec.multi:
        return _multi_results(spec, study, out, url, workers, new, table, default, confirm_games)
    ranked = _ranked(spec, feasible)
    race = None
    cands = _candidates(spec, ranked, max(1, checks.race), default)
    chosen = cands[1] if len(cands) > 1 else None
    if checks.race and len(cands) > 1:
        race = run_race(spec, cands, out, workers, checks.race_games or 8 * spec.games)
        if race.winner.label != "default":
            chosen = race.winner
        with replacing(out / "race.parquet") as tmp:
            race.rows.to_parquet(tmp, index=False)
    confs = [confirm(spec, chosen, default, out, workers, confirm_games)] if chosen else []
    best = ranked[0]
    text = answer(spec, confs[0] if confs else None, default)
    toml = out / "best.toml"
    toml.unlink(missing_ok=True)  # a best.toml of an earlier call must not outlive its answer
    if confs and (confs[0].improves or checks.write_best):
        note = ("confirmed: " if confs[0].improves else "NOT a confirmed improvement (written with --write-best): ")
        write_config_toml(spec, chosen.config, toml, note + text)
    runs = confs[0].runs if confs else (None, None)
    _write_answer(out, text, race, confs)
    return TuneResult(spec, study, out, url, best, chosen.config if chosen else spec.base, spec.base, runs[0], runs[1],
                      table, toml if toml.exists() else None, new, race, confs, text)


def _ranked(spec: TuneSpec, trials) -> list:
    """Trials best first on the (single) objective."""
    return sorted(trials, key=lambda t: t.value, reverse=spec.objective.direction() == "maximize")


def _candidates(spec: TuneSpec, ranked, k: int, default: Candidate) -> list[Candidate]:
    """The default, then the ``k`` best trials of distinct configurations (a trial that plays
    the default configuration is the default)."""
    out = [default]
    seen = {spec.base.digest()}
    for t in ranked:
        if len(out) > k:
            break
        cfg = spec.config(dict(t.params))
        if cfg.digest() not in seen:
            seen.add(cfg.digest())
            out.append(Candidate(f"trial {t.number}", dict(t.params), cfg, t.number))
    return out


def param_value(game, cfg: RunConfig, name: str) -> Any:
    """A searched parameter's value in ``cfg`` (rule parameter or ``bot.<bot>.<param>``)."""
    if name.startswith("bot."):
        _, bot, key = name.split(".")
        return cfg.bot_param(bot, key, game.bots[bot].params)
    return cfg.params.get(name)


# ---- race and confirmation -----------------------------------------------------------
RACE_SEED_OFFSET = 1_000_003  # race runs play the study seed + this
CONFIRM_SEED_OFFSET = 2_000_006  # confirmation runs play the study seed + this


def play(spec: TuneSpec, cfg: RunConfig, offset: int, games: int, out: Path, workers: int) -> tuple[Path, Counts]:
    """``games`` games of ``cfg`` at the study seed + ``offset``, in ``out/<hash>-<games>``
    (resumed if there), and their counts."""
    cfg = dataclasses.replace(cfg, seed=cfg.seed + offset)
    run = runner.run(cfg, games, out / f"{cfg.digest()}-{games}", spec.run_options(workers))
    return run.path, read_counts(spec.plugin, RunDir(run.path), range(run.batches))


def run_race(spec: TuneSpec, cands: list[Candidate], out: Path, workers: int, cap: int) -> Race:
    """Race ``cands`` on common seeds (the study seed + RACE_SEED_OFFSET), from ``--games``
    games each, doubling up to ``cap``. At each rung the leader is the best candidate that
    keeps the constraints; every other candidate is compared with it (score difference with
    its 95% interval, Holm-adjusted p over the rung's comparisons) and dropped when worse
    beyond noise (adjusted p < 0.05) or when it breaks a constraint beyond noise (the
    constraint metric's whole interval outside the allowed range). The race ends when one
    candidate is left, when every difference to the leader lies within +-``--precision``
    (indistinguishable at the requested precision), or at the cap; the leader wins."""
    alive, rows, games = list(cands), [], min(spec.games, cap)
    while True:
        counts = {c.label: play(spec, c.config, RACE_SEED_OFFSET, games, out / "race", workers)[1] for c in alive}
        leader, kept, rung = _rung(spec, alive, counts)
        rows += [{"rung": len({r["rung"] for r in rows}), "games": games, **r} for r in rung]
        alive = [leader, *kept]
        within = spec.precision is not None and all(
            max(abs(r["diff_lo"]), abs(r["diff_hi"])) <= spec.precision for r in rung if r["status"] == "kept")
        reason = ("one left" if not kept else "indistinguishable at the precision" if within
                  else "game cap reached" if games >= cap else "")
        if reason:
            return Race(pd.DataFrame(rows), leader, reason, games)
        games = min(2 * games, cap)


def _rung(spec: TuneSpec, alive: list[Candidate], counts: dict[str, Counts]):
    """One rung: (leader, the candidates kept, one record per candidate)."""
    obj, metric = spec.objective, spec.objective_metric
    est = {c.label: metric.value(counts[c.label]) for c in alive}
    fit = {c.label: constraint_fit(spec, counts[c.label]) for c in alive}
    pool = [c for c in alive if fit[c.label] != "breaks"] or alive
    sign = -1 if obj.direction() == "maximize" else 1
    leader = min(pool, key=lambda c: (fit[c.label] != "keeps", sign * obj.score(est[c.label])))
    others = [c for c in pool if c is not leader]
    diffs = [obj.score_difference(metric, counts[c.label], counts[leader.label]) for c in others]
    adjusted = stats.holm([d.p if math.isfinite(d.p) else 1.0 for d in diffs])
    kept, records = [], []
    for c in alive:
        e = est[c.label]
        rec = {"candidate": c.label, "trial": c.trial, "params": c.describe(), "value": e.value, "lo": e.lo,
               "hi": e.hi, "constraints": fit[c.label], "diff": math.nan, "diff_lo": math.nan, "diff_hi": math.nan,
               "p": math.nan, "p_holm": math.nan}
        if c is leader:
            rec["status"] = "leader"
        elif c not in pool:
            rec["status"] = "dropped: breaks a constraint"
        else:
            i = others.index(c)
            d = diffs[i]
            rec.update(diff=d.value, diff_lo=d.lo, diff_hi=d.hi, p=d.p, p_holm=float(adjusted[i]))
            worse = d.value > 0 and adjusted[i] < 0.05
            rec["status"] = "dropped: worse beyond noise" if worse else "kept"
            if not worse:
                kept.append(c)
        records.append(rec)
    return leader, kept, records


def constraint_fit(spec: TuneSpec, counts: Counts) -> str:
    """``keeps`` (every constraint met by the estimate), ``breaks`` (some constraint's 95%
    interval lies wholly outside its range) or ``unclear``."""
    worst = "keeps"
    for c, m in zip(spec.constraints, spec.constraint_metrics):
        e = m.value(counts)
        if math.isnan(e.value) or e.lo > c.hi or e.hi < c.lo:
            return "breaks"
        if c.violation(e) > 0:
            worst = "unclear"
    return worst


def confirm(spec: TuneSpec, chosen: Candidate, default: Candidate, out: Path, workers: int, games: int) -> Confirmation:
    """``chosen`` and the default on ``games`` fresh games each (the study seed +
    CONFIRM_SEED_OFFSET, which no trial and no race plays): every goal and metric compared."""
    path_a, a = play(spec, chosen.config, CONFIRM_SEED_OFFSET, games, out / "confirm", workers)
    path_b, b = play(spec, default.config, CONFIRM_SEED_OFFSET, games, out / "confirm", workers)
    values = [(m.value(a), m.value(b)) for m in spec.objective_metrics]
    diffs = [next(iter(m.difference(a, b).values())) for m in spec.objective_metrics]
    goals = [o.score_difference(m, a, b) for o, m in zip(spec.objectives, spec.objective_metrics)]
    broken = [c.text for c, m in zip(spec.constraints, spec.constraint_metrics) if c.violation(m.value(a)) > 0]
    return Confirmation(chosen, default, games, spec.base.seed + CONFIRM_SEED_OFFSET, (path_a, path_b), values, diffs,
                        goals, broken, metric_table(spec, a, b))


def metric_table(spec: TuneSpec, a: Counts, b: Counts) -> pd.DataFrame:
    """Every metric of the game (goals and constraints first) for ``a`` (chosen) against
    ``b`` (default): both values with 95% intervals, the difference a - b with its interval and
    p, the Benjamini-Hochberg q over the table, and a flag: ``worse beyond noise`` /
    ``better beyond noise`` for metrics with a known good direction (goals, spreads, stall,
    stalemate and turn-cap rates), ``changed beyond noise`` for the others (q < 0.05)."""
    from sim.metrics import better, catalog

    goal_dir = {o.metric: ("lower" if o.direction() == "minimize" else "higher")
                for o in spec.objectives if o.mode != "target"}
    names = list(dict.fromkeys([*(m.name for m in spec.metrics()), *catalog(spec.plugin, spec.base, spec.catalog)]))
    rows = []
    for name in names:
        m = resolve(name, spec.plugin, spec.base, spec.catalog)
        ea, eb, dd = m.estimates(a), m.estimates(b), m.difference(a, b)
        for label, d in dd.items():
            rows.append({"metric": label, "default": eb[label].value, "default_lo": eb[label].lo,
                         "default_hi": eb[label].hi, "chosen": ea[label].value, "chosen_lo": ea[label].lo,
                         "chosen_hi": ea[label].hi, "diff": d.value, "diff_lo": d.lo, "diff_hi": d.hi, "p": d.p,
                         "good": goal_dir.get(label) or better(label) or ""})
    df = pd.DataFrame(rows)
    df["q"] = stats.fdr_bh(df["p"].fillna(1.0).to_numpy())
    df["flag"] = [_flag(r.diff, r.q, r.good) for r in df.itertuples()]
    head = {"metric": "games", "default": float(b.get("games", 0)), "chosen": float(a.get("games", 0)), "good": "",
            "flag": ""}
    return pd.concat([pd.DataFrame([head]), df], ignore_index=True)


def _flag(diff: float, q: float, good: str) -> str:
    if not q < 0.05:
        return ""
    if not good:
        return "changed beyond noise"
    return "worse beyond noise" if (diff > 0) == (good == "lower") else "better beyond noise"


# ---- the answer in words -------------------------------------------------------------
WORDS = {"seat_spread": "the seat spread (beyond chance)", "bot_spread": "the bot spread (beyond chance)",
         "seat_spread_raw": "the raw seat spread", "bot_spread_raw": "the raw bot spread"}


def _words(metric: str) -> str:
    return WORDS.get(metric, metric)


def _n(x: float) -> str:
    return f"{x:.4g}"


def _diff_text(d: Estimate) -> str:
    return f"difference {d.value:+.4g}, 95% interval {d.lo:+.4g} to {d.hi:+.4g}"


def goal_phrase(o: Objective, values: tuple[Estimate, Estimate], diff: Estimate, goal: Estimate) -> str:
    """``lowers the seat spread from X to Y (difference D, 95% interval ...)`` and the like."""
    a, b = values
    if o.mode == "target":
        aim = f"the {o.metric} band {o.band[0]:g}..{o.band[1]:g}" if o.band else f"{o.metric} = {o.target:g}"
        verb = "brings" if goal.value < 0 else "takes"
        return (f"{verb} {o.metric} from {_n(b.value)} to {_n(a.value)}, {'closer to' if goal.value < 0 else 'away from'} "
                f"{aim} (distance to it changes by {goal.value:+.4g}, 95% interval {goal.lo:+.4g} to {goal.hi:+.4g})")
    verb = "lowers" if diff.value < 0 else "raises"
    return f"{verb} {_words(o.metric)} from {_n(b.value)} to {_n(a.value)} ({_diff_text(diff)})"


def answer(spec: TuneSpec, conf: Confirmation | None, default: Candidate) -> str:
    """The study's answer in one sentence (single objective)."""
    if conf is None:
        return ("no configuration tried beats the default by more than the noise (the default configuration "
                f"{default.describe()} was the search's best)")
    o = spec.objective
    phrase = goal_phrase(o, conf.values[0], conf.diffs[0], conf.goals[0])
    fresh = f"{conf.games:,} fresh games each"
    if conf.improves:
        return f"{conf.chosen.describe()} {phrase} against the default {default.describe()}, on {fresh}"
    why = f"; it breaks {', '.join(repr(c) for c in conf.broken)}" if conf.broken else ""
    return (f"no configuration tried beats the default {default.describe()} by more than the noise (the race's choice "
            f"{conf.chosen.describe()} {phrase}, on {fresh}{why})")


def _write_answer(out: Path, text: str, race: Race | None, confs: list[Confirmation]) -> None:
    """``OUT/answer.json``: the answer, the race's outcome, each confirmation's goals, and
    ``confirmation.parquet``: each confirmation's metric table."""
    doc = {"answer": text,
           "race": None if race is None else {"winner": race.winner.label, "reason": race.reason, "games": race.games},
           "confirmations": [{"candidate": c.chosen.label, "params": c.chosen.params, "games": c.games, "seed": c.seed,
                              "improves": c.improves, "broken": c.broken,
                              "goals": [{"value": g.value, "lo": g.lo, "hi": g.hi, "p": g.p} for g in c.goals]}
                             for c in confs]}
    with replacing(out / "answer.json") as tmp:
        tmp.write_text(json.dumps(doc, indent=2, default=_json_default) + "\n")
    if confs:
        frame = pd.concat([c.table.assign(candidate=c.chosen.label) for c in confs], ignore_index=True)
        with replacing(out / "confirmation.parquet") as tmp:
            frame.to_parquet(tmp, index=False)


def _json_default(x):
    return x.item() if hasattr(x, "item") else str(x)


# ---- several goals: the Pareto front --------------------------------------------------
PARETO_MAX = 8  # Pareto configurations confirmed at most (the first ones by the first goal)


def pareto_candidates(spec: TuneSpec, study) -> list[Candidate]:
    """The feasible Pareto-front trials of distinct, non-default configurations."""
    front = sorted((t for t in study.best_trials if t.user_attrs.get("feasible", True)),
                   key=lambda t: (t.values[0] * (-1 if spec.objectives[0].direction() == "maximize" else 1)))
    seen, out = {spec.base.digest()}, []
    for t in front:
        cfg = spec.config(dict(t.params))
        if cfg.digest() not in seen and len(out) < PARETO_MAX:
            seen.add(cfg.digest())
            out.append(Candidate(f"trial {t.number}", dict(t.params), cfg, t.number))
    return out


def _multi_results(spec, study, out, url, workers, new, table, default, confirm_games) -> TuneResult:
    cands = pareto_candidates(spec, study)
    confs = [confirm(spec, c, default, out, workers, confirm_games) for c in cands]
    text = multi_answer(spec, confs, default)
    toml = out / "pareto.toml"
    write_pareto_toml(spec, confs, toml, text)
    (out / "best.toml").unlink(missing_ok=True)
    _write_answer(out, text, None, confs)
    best = study.best_trials[0] if not cands else next(t for t in study.trials if t.number == cands[0].trial)
    runs = confs[0].runs if confs else (None, None)
    return TuneResult(spec, study, out, url, best, cands[0].config if cands else spec.base, spec.base, runs[0], runs[1],
                      table, None, new, None, confs, text, toml)


def multi_answer(spec: TuneSpec, confs: list[Confirmation], default: Candidate) -> str:
    """The answer of a multi-objective study in one sentence."""
    good = [c for c in confs if c.improves]
    fresh = f"{confs[0].games:,} fresh games each" if confs else "no fresh games"
    if not good:
        return (f"no configuration on the Pareto front ({len(confs)} confirmed against the default "
                f"{default.describe()} on {fresh}) beats the default by more than the noise on a goal "
                "without losing on another")
    parts = [f"{c.chosen.describe()} " + " and ".join(goal_phrase(o, v, d, g) for o, v, d, g in
                                                       zip(spec.objectives, c.values, c.diffs, c.goals)) for c in good]
    return (f"{len(good)} of {len(confs)} configurations on the Pareto front beat the default {default.describe()} "
            f"beyond the noise (on {fresh}): " + "; ".join(parts))


def write_pareto_toml(spec: TuneSpec, confs: list[Confirmation], path: Path, note: str) -> None:
    """``pareto.toml``: every confirmed Pareto configuration, its parameters and goals; pick one
    and pass its parameters as ``--set`` or a ``[params]`` table."""
    import tomli_w

    entries = []
    for c in confs:
        goals = {o.metric: {"chosen": v[0].value, "default": v[1].value, "diff": d.value, "diff_lo": d.lo,
                            "diff_hi": d.hi} for o, v, d in zip(spec.objectives, c.values, c.diffs)}
        entries.append({"label": c.chosen.label, "params": c.chosen.params, "improves": c.improves,
                        "broken": c.broken, "games": c.games, "goals": goals})
    with replacing(path) as tmp:
        tmp.write_text(f"# cardlab tune {spec.game}: {note}\n" + tomli_w.dumps({"pareto": entries}))


def unmet_constraints(spec: TuneSpec, trials) -> str:
    """Why no trial is feasible, in words: the constraints that no trial met, each with the value
    that came closest, or that each was met but never all at once."""
    def closest(c: Constraint):
        t = min(trials, key=lambda t: t.constraints[c.text])
        return f"'{c.text}' (closest: {c.metric} = {t.user_attrs.get(c.metric, math.nan):.4g} in trial {t.number})"

    never = [c for c in spec.constraints if all(t.constraints[c.text] > 0 for t in trials)]
    if never:
        return f"no trial of {len(trials)} met " + " nor ".join(closest(c) for c in never)
    return f"no trial of {len(trials)} met every constraint at once ({', '.join(repr(c.text) for c in spec.constraints)})"


def _trials_frame(study, multi: bool = False) -> pd.DataFrame:
    """One row per trial: number, state, value(s), times, parameters and measured metrics."""
    df = study.trials_dataframe(attrs=("number", "values" if multi else "value", "datetime_start", "datetime_complete",
                                       "duration", "params", "user_attrs", "state"))
    df["state"] = df["state"].astype(str)
    df = df[df["state"].isin(FINISHED)].reset_index(drop=True)  # not the running, failed or waiting ones
    by_trial = {t.number: t.constraints for t in study.get_trials(deepcopy=False)}
    for c in study.user_attrs.get(STUDY_KEY, {}).get("constraints", []):
        df[f"constraint {c}"] = df["number"].map(lambda n: by_trial.get(n, {}).get(c))
    return df


def write_config_toml(spec: TuneSpec, cfg: RunConfig, path: Path, note: str) -> None:
    """``cfg`` as a TOML file ``cardlab simulate --config`` accepts: players, bots, seed, the
    parameters that differ from the defaults or were searched, bot parameters."""
    import tomli_w

    searched = {d.name for d in spec.space}
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in cfg.params.items()
              if k in searched or spec.plugin.param(k).default != v}
    doc = {"players": cfg.players, "bots": list(cfg.bots), "seed": cfg.seed, "params": params}
    if cfg.bot_params:
        doc["bot_params"] = cfg.bot_params
    with replacing(path) as tmp:
        tmp.write_text(f"# cardlab tune {spec.game}: {note}\n" + tomli_w.dumps(doc))


@contextmanager
def replacing(path: Path):
    """Yield a temporary path next to ``path``; rename it over ``path`` when the block succeeds."""
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
