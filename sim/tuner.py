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
``"M <= x"``, ``"M >= x"``, with metric names from ``sim.metrics``.
"""

from __future__ import annotations

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

from sim import runner
from sim.config import ConfigError, RunConfig, read_toml
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
    """``minimize`` or ``maximize`` a metric, or ``target``: minimize |metric - target|."""

    mode: str
    metric: str
    target: float | None = None

    def direction(self) -> str:
        return "maximize" if self.mode == "maximize" else "minimize"

    def score(self, e: Estimate) -> float:
        return abs(e.value - self.target) if self.mode == "target" else e.value

    def describe(self) -> str:
        return f"target {self.metric} = {self.target}" if self.mode == "target" else f"{self.mode} {self.metric}"


def parse_objective(minimize: str | None, maximize: str | None, target: str | None) -> Objective:
    given = [(m, v) for m, v in (("minimize", minimize), ("maximize", maximize), ("target", target)) if v]
    if len(given) != 1:
        raise ConfigError("give exactly one of --minimize METRIC, --maximize METRIC, --target METRIC=VALUE")
    mode, text = given[0]
    if mode != "target":
        return Objective(mode, text.strip())
    name, sep, value = text.partition("=")
    return Objective(mode, name.strip(), _number(value, f"--target {text!r}") if sep else _number("", f"--target {text!r}"))


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
    objective: Objective
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
        self.objective_metric = resolve(self.objective.metric, self.plugin, self.base, cols).scalar()
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

    def identity(self) -> dict[str, Any]:
        """What a stored study must match to be resumed."""
        return {
            "game": self.game, "base_config": self.base.digest(), "space": [d.to_dict() for d in self.space],
            "objective": [self.objective.mode, self.objective.metric, self.objective.target],
            "constraints": [c.text for c in self.constraints], "games": self.games, "precision": self.precision,
            "stopping_metric": self.rule.metric if self.rule else None, "engine": self.engine,
            "batch_size": self.batch_size,
        }

    def metrics(self) -> list[Metric]:
        return [self.objective_metric, *self.constraint_metrics]


@dataclass
class TuneResult:
    """A finished ``tune`` call: the study, the best and the default configuration's runs."""

    spec: TuneSpec
    study: Any  # optuna.Study
    out: Path
    storage: str
    best: Any  # optuna.FrozenTrial
    best_config: RunConfig
    default_config: RunConfig
    best_run: Path
    default_run: Path
    trials_table: Path
    best_toml: Path
    new_trials: int = 0

    def counts(self, which: str) -> Counts:
        path = self.best_run if which == "best" else self.default_run
        rd = RunDir(path)
        return read_counts(self.spec.plugin, rd, [b["id"] for b in rd.manifest()["batches"]])


def run_study(spec: TuneSpec, trials: int, out: str | Path, storage: str | None = None, study_name: str = "cardlab",
              workers: int = 1, sampler_seed: int = 0) -> TuneResult:
    """Run (or resume) the study up to ``trials`` finished trials in total; write the outputs."""
    import optuna

    if trials < 1:
        raise ConfigError(f"--trials must be at least 1, got {trials}")
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
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
        return _results(spec, study, out, url, workers, len(mine))


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
                                direction=spec.objective.direction(), load_if_exists=True)
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
        violations = [c.violation(e) if not math.isnan(e.value) else math.inf
                      for c, e in zip(spec.constraints, estimates[1:])]
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
        return spec.objective.score(estimates[0])

    return objective


def simulate(spec: TuneSpec, cfg: RunConfig, out: Path, workers: int):
    """One configuration's run (``OUT/runs/<config hash>``), resumed if already there."""
    return runner.run(cfg, spec.games, out / "runs" / cfg.digest(), workers, spec.batch_size, spec.engine,
                      progress=False, stopping=spec.rule)


def _results(spec: TuneSpec, study, out: Path, url: str, workers: int, new: int) -> TuneResult:
    done = [t for t in study.get_trials(deepcopy=False) if t.state.name == "COMPLETE"]
    if not done:
        raise ConfigError(f"the study in {url} has no completed trial (every configuration was invalid?)")
    table = out / "trials.parquet"
    with replacing(table) as tmp:
        _trials_frame(study).to_parquet(tmp, index=False)
    try:
        best = study.best_trial
    except ValueError:  # no trial meets the constraints
        raise ConfigError(f"{unmet_constraints(spec, done)}; no best.toml written; trials in {table}") from None
    best_cfg = spec.config(dict(best.params))
    best_run = simulate(spec, best_cfg, out, workers).path  # kept here (another process may have played it)
    default_run = simulate(spec, spec.base, out, workers).path
    toml = out / "best.toml"
    write_config_toml(spec, best_cfg, toml, f"best trial {best.number}: {spec.objective.describe()} = {best.value:.6g}")
    return TuneResult(spec, study, out, url, best, best_cfg, spec.base, best_run, default_run, table, toml, new)


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


def _trials_frame(study) -> pd.DataFrame:
    """One row per trial: number, state, value, times, parameters and measured metrics."""
    df = study.trials_dataframe(attrs=("number", "value", "datetime_start", "datetime_complete", "duration",
                                       "params", "user_attrs", "state"))
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
