"""Tuning the learned bot's weights on its win share directly: CMA-ES (Optuna's ``CmaEsSampler``)
from a starting policy, resumable from a work folder.

Each trial plays one learned seat with the trial's weights against the reference bots in the other
seats on the training deals (seed + ``TRAIN_SEED_OFFSET``, games 0 .. games-1, the same deals every
trial, seats rotated game by game) and scores its win share (a shared win split between its
winners, as the ladder counts it). The search starts at the policy's weights (``x0``; the first
trial plays them); each weight ranges over its start value plus or minus ``SPAN`` times its scale
(its own size, at least a quarter of the mean size), and the first steps are ``sigma`` times that
scale. With ``scale`` "feature" the sizes are measured in score units, each weight times its
feature's typical size (``feature_sizes``), so a weight of a feature counted in tens (a
percentage, a hand size) steps as far in score as one of a yes-or-no feature. At the end the best
trial is played on the held-out evaluation deals (seed + 1, as expert iteration's) and kept only
when it wins more often there than the start.

The work folder holds ``plan.json`` (the settings; a rerun with others is refused) and the Optuna
study ``study.log`` (its journal file), one writer at a time. Every trial's sampler is seeded from
the plan's seed and the number of finished trials, and a trial stopped mid-way is finished on the
rerun with the weights it was given, so a stopped run resumes to the policy an uninterrupted one
ends with.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from sim.kit.config import ConfigError
from sim.kit.learned import LEARNED, WEIGHT_BOUND
from sim.run.training import EVAL_SEED_OFFSET, MakeConfig, _open_work

TRAINER = "cmaes"
TRAINER_VERSION = 1
TRAIN_SEED_OFFSET = 2  # the training deals: seed + 2, games 0 .. games-1 (never the evaluation's)
SPAN = 3.0  # each weight's range: its start value +- SPAN scales
STUDY = "cmaes"
SIZE_GAMES = 200  # the games whose decisions measure the features' typical sizes


@dataclass(frozen=True)
class CmaPlan:
    """The settings of a CMA-ES run (``plan.json``); the number of trials may grow on a rerun."""

    game: str
    bots: tuple[str, ...]  # the table: one learned seat, the reference bots in the others
    games: int  # training games a trial
    eval_games: int
    sigma: float  # the first steps, in scales of each weight
    seed: int
    start: tuple[float, ...]  # the starting policy's weights
    config_hash: str
    sizes: tuple[float, ...] = ()  # scale "feature": each feature's typical size (none: "weight")

    def stored(self) -> dict:
        """The settings as ``plan.json`` holds them (no sizes with scale "weight", as before the option)."""
        return {k: v for k, v in asdict(self).items() if k != "sizes" or v}

    def check(self) -> None:
        if self.games < 1 or self.eval_games < 1:
            raise ConfigError("--games and --eval-games must be at least 1")
        if self.sizes and (len(self.sizes) != len(self.start) or min(self.sizes) <= 0):
            raise ConfigError("the features' sizes must be one positive number a weight")
        if not 0 < self.sigma <= SPAN:
            raise ConfigError(f"--sigma must be above 0 and at most {SPAN:g}, got {self.sigma:g}")
        if self.bots.count(LEARNED) != 1:
            raise ConfigError("CMA-ES training needs exactly one learned seat: set --bots learned,REFERENCE,...")

    @property
    def reference(self) -> str:
        return ",".join(dict.fromkeys(b for b in self.bots if b != LEARNED))


    @property
    def scale(self) -> str:
        return "feature" if self.sizes else "weight"


def scales(weights, sizes=()) -> list[float]:
    """Each weight's scale: its own size, at least a quarter of the mean size (1 for all zeros);
    with ``sizes`` (each feature's typical size) the same in score units, weight times size, divided
    back by the size."""
    sizes = sizes or [1.0] * len(weights)
    parts = [abs(w) * m for w, m in zip(weights, sizes)]
    floor = sum(parts) / len(parts) / 4 if any(parts) else 1.0
    return [max(p, floor) / m for p, m in zip(parts, sizes)]


def feature_sizes(game, cfg, weights, games: int = SIZE_GAMES) -> tuple[float, ...]:
    """Each learned feature's typical size: the root mean square of its nonzero values over the
    options of every decision with two or more options that the learned bot weighs, in games 0 ..
    games-1 of ``cfg`` driven through the step contract, every seat playing ``weights`` at those
    decisions and a random option (seeded by ``cfg.seed``) at the others (1 for a feature that is
    never nonzero there)."""
    import numpy as np

    from sim.kit.learned import best_option
    from sim.run.training import learned_kernel, weighed_kinds

    step, k = game.step, game.step.kernel()
    features_of, weighed = learned_kernel(game).features_of, weighed_kinds(game)
    rng = np.random.default_rng(cfg.seed)
    opts = np.zeros(step.max_options, dtype=np.int64)
    squares = np.zeros(len(game.learned.FEATURES))
    counts = np.zeros(len(game.learned.FEATURES))
    for index in range(games):
        buf = step.start(cfg, index)
        while (pending := k.step_pending(buf))[0] >= 0:
            n = int(k.step_legal(buf, opts))
            choice = int(rng.integers(n))
            if n >= 2 and pending[1] in weighed:
                x = features_of(buf, np.int64(pending[0]), np.int64(pending[1]), opts, np.int64(n))
                choice = best_option(weights, x.tolist())
                squares += (x.astype(float) ** 2).sum(axis=0)
                counts += (x != 0).sum(axis=0)
            k.step_apply(buf, opts[choice])
    return tuple(float(math.sqrt(q / c)) if c else 1.0 for q, c in zip(squares, counts))


def tune(game, plan: CmaPlan, make: MakeConfig, start: dict, trials: int, work: str | Path,
         notify: Callable[[str], None] = lambda line: None, scores=None) -> dict:
    """Run (or resume) CMA-ES up to ``trials`` finished trials (the first plays the start) from the
    policy ``start`` in the work folder ``work``; returns the best trial's policy file contents when
    it beats the start on the evaluation deals, else the start's weights (with a training record
    either way). ``scores``: two functions (weights -> win share) that replace the training and
    the evaluation games (tests)."""
    plan.check()
    if trials < 1:
        raise ConfigError(f"--trials must be at least 1, got {trials}")
    from sim.run.store import writer_lock

    scores = scores or (lambda w: win_share(game, make, plan, w, plan.seed + TRAIN_SEED_OFFSET, plan.games),
                        lambda w: win_share(game, make, plan, w, plan.seed + EVAL_SEED_OFFSET, plan.eval_games))
    work = Path(work)
    with writer_lock(work, f"{plan.game} training", "work folder"):
        return _tune(plan, start, trials, work, notify, scores)


def _tune(plan: CmaPlan, start: dict, trials: int, work: Path, notify, scores) -> dict:
    _open_work(work, plan)
    features = list(start["features"])
    objective, evaluate = scores
    study = _open_study(work, dict(zip(features, plan.start)))
    began = time.monotonic()
    _finish_stopped(study, features, objective, notify)
    while _complete(study) < trials:
        _play_trial(study, plan, features, objective)
        n = _complete(study)
        if n % _popsize(len(features)) == 0 or n == trials:
            notify(_progress(study, n, trials, plan, time.monotonic() - began))
    best = study.best_trial
    weights = [best.params[f] for f in features]
    start_share, best_share = evaluate(list(plan.start)), evaluate(weights)
    kept = best_share > start_share
    notify(f"best trial {best.number}: win share {best.value:.4f} on the training deals; on the evaluation deals "
           f"({plan.eval_games:,} games) {best_share:.4f} against the start's {start_share:.4f}: "
           + ("kept" if kept else "not kept, the start stays"))
    record = {"trainer": TRAINER, "trainer_version": TRAINER_VERSION, "trials": _complete(study),
              "best_trial": best.number, "games_per_trial": plan.games, "players": len(plan.bots),
              "bots": list(plan.bots), "reference": plan.reference, "sigma": plan.sigma, "span": SPAN,
              "scale": plan.scale, **({"feature_sizes": list(plan.sizes)} if plan.sizes else {}),
              "seed": plan.seed, "train_seed": plan.seed + TRAIN_SEED_OFFSET, "train_share": best.value,
              "eval_games": plan.eval_games, "eval_seed": plan.seed + EVAL_SEED_OFFSET,
              "eval_share": best_share, "eval_share_start": start_share, "kept": kept,
              "config_hash": plan.config_hash, "start": start.get("training", {})}
    doc = {k: v for k, v in start.items() if k not in ("training", "fit")}
    return {**doc, "weights": weights if kept else list(start["weights"]), "training": record}


def win_share(game, make: MakeConfig, plan: CmaPlan, weights, seed: int, games: int) -> float:
    """The win share of the learned seat playing ``weights`` against the plan's other seats on the
    deals of ``seed``, games 0 .. games-1 (seats rotated game by game), a shared win split between
    its winners as the ladder counts it (``analysis.skill.share_counts``)."""
    features = game.learned.FEATURES
    cfg = make(list(plan.bots), {f"bot.{LEARNED}.w_{f}": repr(float(w)) for f, w in zip(features, weights)}, seed)
    seats = game.run_batch(cfg, 0, games, "fast")["seats"]
    return learned_share(seats)


def learned_share(seats) -> float:
    """The learned seats' mean share of each game's win (``win_share`` when the game records one,
    else ``win`` over the game's winners)."""
    if "win_share" in seats.columns:
        share = seats["win_share"].astype(float)
    else:
        win = seats["win"].astype(float)
        share = win / win.groupby(seats["game"]).transform("sum").clip(lower=1.0)
    return float(share[seats["bot"] == LEARNED].mean())


# ---- the Optuna study ---------------------------------------------------------------------------
def _open_study(work: Path, start: dict[str, float]):
    """The work folder's study; a new one plays the start's weights first."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    from optuna.storages.journal import JournalFileBackend, JournalStorage

    path = work / "study.log"
    try:
        storage = JournalStorage(JournalFileBackend(str(path)))
        study = optuna.create_study(study_name=STUDY, storage=storage, direction="maximize", load_if_exists=True)
        if not study.trials:
            study.enqueue_trial(start)
        return study
    except Exception as e:  # SQLAlchemy and Optuna raise many types for a damaged file
        raise ConfigError(f"damaged work folder: cannot open {path}: {str(e).splitlines()[0]}") from None


def _sampler(plan: CmaPlan, features: list[str], finished: int):
    """A CMA-ES sampler seeded by the plan's seed and the trials finished so far; its state (the
    mean, step and covariance) is restored from the study's trials."""
    import warnings

    import optuna

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # x0 and sigma0 are marked deprecated, still supported
        return optuna.samplers.CmaEsSampler(x0=dict(zip(features, plan.start)), sigma0=plan.sigma / (2 * SPAN),
                                            seed=(plan.seed * 1_000_003 + finished) % 2**31,
                                            warn_independent_sampling=False)


def _space(plan: CmaPlan, features: list[str]) -> dict:
    import optuna

    return {f: optuna.distributions.FloatDistribution(max(-WEIGHT_BOUND, w - SPAN * s), min(WEIGHT_BOUND, w + SPAN * s))
            for f, w, s in zip(features, plan.start, scales(plan.start, plan.sizes))}


def _play_trial(study, plan: CmaPlan, features: list[str], objective) -> None:
    study.sampler = _sampler(plan, features, _complete(study))
    trial = study.ask(_space(plan, features))
    study.tell(trial, objective([trial.params[f] for f in features]))


def _finish_stopped(study, features: list[str], objective, notify) -> None:
    """Finish the trials a stopped run left running, with the weights they were given."""
    import optuna

    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        if set(features) <= set(t.params):
            study.tell(t.number, objective([t.params[f] for f in features]))
            notify(f"trial {t.number}: finished (it was stopped mid-way)")
        else:
            study.tell(t.number, state=optuna.trial.TrialState.FAIL)


def _complete(study) -> int:
    import optuna

    return len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)))


def _popsize(dim: int) -> int:
    """CMA-ES's default population (cmaes: 4 + 3 ln n): trials a generation."""
    return 4 + math.floor(3 * math.log(dim))


def _progress(study, n: int, trials: int, plan: CmaPlan, seconds: float) -> str:
    size = _popsize(len(plan.start))
    complete = [t for t in study.trials if t.value is not None]
    last = [t.value for t in complete[-(n % size or size):]]
    best = study.best_trial
    return (f"trial {n}/{trials}: this generation's win share {min(last):.4f} to {max(last):.4f} "
            f"({plan.games:,} games a trial); best {best.value:.4f} (trial {best.number}) [{seconds:.0f} s]")
