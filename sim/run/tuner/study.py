"""The Optuna study of ``cardlab tune``: opened or resumed in its storage (refused when it searches
something else), abandoned trials played again, one run per trial (``OUT/runs/<config hash>``,
the study seed: common random numbers), then the race, confirmation and files (``outcome``)."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from sim.run import runner
from sim.kit.config import ConfigError, RunConfig
from sim.run.metrics import read_counts
from sim.run.store import RunDir, writer_lock
from sim.run.tuner.outcome import TuneResult, conclude
from sim.run.tuner.spec import FINISHED, STUDY_KEY, Checks, StudySettings, TuneSpec

HEARTBEAT_S = 15  # a running trial's heartbeat in the storage; one silent for GRACE_S is stale
GRACE_S = 60
RETRIES = 2  # a trial whose process died is played again at most this often


def run_study(spec: TuneSpec, trials: int, out: str | Path, settings: StudySettings = StudySettings(),
              checks: Checks = Checks()) -> TuneResult:
    """Run (or resume) the study up to ``trials`` finished trials in total, race and confirm
    its best configurations, and write the outputs."""
    import optuna

    if trials < 1:
        raise ConfigError(f"--trials must be at least 1, got {trials}")
    if spec.options.workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {spec.options.workers}")
    checks.check(spec)
    out = Path(out)
    with writer_lock(out, f"{spec.game} tune"):
        url = settings.storage or f"sqlite:///{(out / 'study.db').resolve()}"
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        study = _open_study(optuna, spec, url, settings)
        if settings.storage is None:
            _retry_abandoned(optuna, study)
        before = _finished(study)
        mine: list[int] = []  # trials this call ran (other processes may share the study)
        if before < trials:
            states = tuple(getattr(optuna.trial.TrialState, s) for s in FINISHED)
            study.optimize(_objective(spec, out), n_trials=trials - before,
                           callbacks=[optuna.study.MaxTrialsCallback(trials, states=states),
                                      lambda _, trial: mine.append(trial.number)])
        return conclude(spec, study, out, url, len(mine), checks)


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


def _open_study(optuna, spec: TuneSpec, url: str, settings: StudySettings):
    """Load or create the study; refuse one that searches something else."""
    storage, names = _storage(optuna, url)
    mine = json.loads(json.dumps(spec.identity()))
    name = settings.name
    if name in names:
        old = optuna.load_study(study_name=name, storage=storage).user_attrs.get(STUDY_KEY)
        if old != mine:
            diff = sorted(k for k in mine if not old or old.get(k) != mine[k])
            raise ConfigError(f"study '{name}' in {url} searches another {', '.join(diff) or 'study'}; "
                              "use a new --out, --storage or --study")
    existing = 0 if name not in names else len(optuna.load_study(study_name=name, storage=storage).trials)
    # seeded by the trials already stored, so a resumed study draws new startup points
    sampler = optuna.samplers.TPESampler(seed=settings.sampler_seed + existing)
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


def _objective(spec: TuneSpec, out: Path):
    import optuna

    def objective(trial) -> float:
        values = {d.name: d.suggest(trial) for d in spec.space}
        try:
            cfg = spec.config(values)
        except ConfigError as e:  # cross-parameter rules (e.g. draw_min <= draw_max)
            trial.set_user_attr("invalid", str(e))
            raise optuna.TrialPruned(str(e)) from None
        run = simulate(spec, cfg, out)
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


def simulate(spec: TuneSpec, cfg: RunConfig, out: Path):
    """One configuration's run (``OUT/runs/<config hash>``), resumed if already there."""
    return runner.run(cfg, spec.games, out / "runs" / cfg.digest(), spec.run_options(spec.rule))
