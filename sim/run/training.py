"""Expert iteration for the learned bot (``sim.kit.learned``), resumable from a work folder.

Iteration 0 evaluates the starting policy. Each later iteration plays ``games`` new games whose
search seats play their rollouts with the current policy (``rollout`` "learned"; or with another
bot), records the search's choices, refits the policy on every decision recorded so far and
evaluates the fitted policy: one learned seat against the reference bot in the other seats on
the same fixed deals every iteration (seats rotated). The fitted policy becomes the current one
when its win share is higher than the current one's.

The work folder holds ``plan.json`` (the settings; a rerun with others is refused) and one
folder an iteration, ``iteration-NNN``, with its decisions (``decisions.npz``), its fitted
policy (``policy.json``) and, written last, its result (``result.json``). A rerun with the same
settings takes the finished iterations as they are and plays the rest, so a stopped run ends
with the policy an uninterrupted one would have. Every file is written whole (a temporary file
renamed) so a run stopped mid-write leaves no half file.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from sim.kit.config import ConfigError, RunConfig
from sim.kit.learned import FORMAT, LEARNED, VERSION, WEIGHT_BOUND, policy_overrides

TRAINER = "expert-iteration"
TRAINER_VERSION = 1
EVAL_SEED_OFFSET = 1  # the evaluation deals: seed + 1, games 0 .. eval_games-1

# make(bots, overrides, seed): the checked run configuration of the game being trained
MakeConfig = Callable[[list, dict, int], RunConfig]


METHODS = ("expert", "cmaes")
SCALES = ("weight", "feature")  # cmaes: each weight's scale, its own size or its size in score units
# the games an iteration (expert) or a trial (cmaes), and the evaluation's, when not given
DEFAULT_GAMES = {"expert": (200, 400), "cmaes": (10_000, 10_000)}


@dataclass(frozen=True)
class Training:
    """``cardlab train``'s schedule. ``method`` "expert": ``iterations`` of ``games`` games with
    search seats at ``budget`` rollouts a decision played by ``rollout``; "cmaes"
    (``sim.run.training_cmaes``): ``trials`` trials of ``games`` games each, first steps ``sigma``
    times each weight's scale (``scale``: "weight" its own size, "feature" its size in score units).
    Both judge on ``eval_games`` games, keep their work in the folder ``work`` (None: beside the
    policy file) and start from the policy file ``start`` (None: the game's own). ``games`` and
    ``eval_games`` default by method (``DEFAULT_GAMES``)."""

    iterations: int = 4
    games: int | None = None
    budget: int = 64
    rollout: str = "learned"
    eval_games: int | None = None
    work: str | Path | None = None
    start: str | Path | None = None
    method: str = "expert"
    trials: int = 200
    sigma: float = 0.1
    scale: str = "weight"

    def counts(self) -> tuple[int, int]:
        """The games an iteration or trial and the evaluation's, the method's defaults filled in."""
        if self.method not in METHODS:
            raise ConfigError(f"unknown training method {self.method!r}; known: {', '.join(METHODS)}")
        if self.scale not in SCALES:
            raise ConfigError(f"unknown --scale {self.scale!r}; known: {', '.join(SCALES)}")
        games, eval_games = DEFAULT_GAMES[self.method]
        return (games if self.games is None else self.games, eval_games if self.eval_games is None else self.eval_games)


@dataclass(frozen=True)
class Plan:
    """The settings of a training run (``plan.json``); ``iterations`` may grow on a rerun."""

    game: str
    bots: tuple[str, ...]  # the training table: one or more search seats
    reference: str  # the bot the evaluation seats against the learned one
    games: int  # games with search seats an iteration
    budget: int  # the search's rollouts a decision
    rollout: str  # the bot that plays the search's rollouts ("learned": the current policy)
    seed: int
    eval_games: int
    config_hash: str  # the starting table's configuration (rules, bot parameters, start weights)

    def stored(self) -> dict:
        """The settings as ``plan.json`` holds them."""
        return asdict(self)

    def check(self) -> None:
        if self.games < 1 or self.budget < 1 or self.eval_games < 1:
            raise ConfigError("--games, --budget and --eval-games must be at least 1")
        if "search" not in self.bots:
            raise ConfigError("training needs a search seat: seat the search bot with --bots")


def train(game, plan: Plan, make: MakeConfig, start: dict, iterations: int, work: str | Path,
          notify: Callable[[str], None] = lambda line: None) -> dict:
    """Run (or resume) ``iterations`` iterations of expert iteration from the policy ``start``
    in the work folder ``work``; returns the best policy's file contents (the start's when no fit
    beat it), its training record naming the iteration it comes from, every iteration's result
    and the start's own training record."""
    plan.check()
    if iterations < 1:
        raise ConfigError("--iterations must be at least 1")
    work = Path(work)
    _open_work(work, plan)
    rollout = _rollout_code(game, plan.rollout)
    current, best, best_share, history, parts = start, 0, 0.0, [], []
    for i in range(iterations + 1):
        folder = work / f"iteration-{i:03d}"
        done = _read_done(folder, game)
        if done is None:
            _clear_from(work, i)
            began = time.process_time()
            if i == 0:
                doc, part = start, None
            else:
                cfg = make(list(plan.bots), {"bot.search.budget": plan.budget, **rollout,
                                             **policy_overrides(game, current)}, plan.seed)
                part = _as_stored(record_search_choices(game, cfg, plan.games, first=(i - 1) * plan.games))
                _write_npz(folder / "decisions.npz", part)
                doc = fit_policy(game, _joined(parts + [part]), _record(plan, i))
            share = evaluate(game, make, doc, plan)
            result = {"iteration": i, "decisions": 0 if part is None else int(len(np.unique(part["group"]))),
                      "agreement": doc["fit"]["agreement"] if part is not None else None,
                      "share": share, "kept": i == 0 or share > best_share,
                      "cpu_seconds": round(time.process_time() - began, 1)}
            _write_text(folder / "policy.json", json.dumps(doc, indent=1) + "\n")
            _write_text(folder / "result.json", json.dumps(result, indent=1) + "\n")
            resumed = False
        else:
            doc, result, part = done
            resumed = True
        if part is not None:
            parts.append(part)
        if result["kept"]:
            current, best, best_share = doc, i, result["share"]
        history.append({k: result[k] for k in ("iteration", "decisions", "agreement", "share", "kept")})
        notify(_progress(plan, result, sum(h["decisions"] for h in history), best_share, resumed))
    record = {**_record(plan, best), "iterations": iterations, "history": history, "start": start["training"]}
    return {**current, "training": record}


def evaluate(game, make: MakeConfig, doc: dict, plan: Plan) -> float:
    """The win share of one learned seat playing ``doc`` against the reference in the other
    seats, on the fixed evaluation deals (seats rotated game by game)."""
    players = len(plan.bots)
    cfg = make([LEARNED] + [plan.reference] * (players - 1),
               {k: v for k, v in policy_overrides(game, doc).items() if k.startswith(f"bot.{LEARNED}.")},
               plan.seed + EVAL_SEED_OFFSET)
    seats = game.run_batch(cfg, 0, plan.eval_games, "fast")["seats"]
    return float(seats.loc[seats["bot"] == LEARNED, "win"].astype(float).mean())


def _rollout_code(game, rollout: str) -> dict:
    from sim.kit.search_params import SEARCH_BOTS

    if rollout not in game.bots or rollout in SEARCH_BOTS:
        raise ConfigError(f"unknown rollout bot {rollout!r}; known: "
                          + ", ".join(b for b in game.bots if b not in SEARCH_BOTS))
    return {"bot.search.rollout": game.bots[rollout].policy}


def _record(plan: Plan, iteration: int) -> dict:
    """The training record of the policy fitted at ``iteration``."""
    return {"trainer": TRAINER, "trainer_version": TRAINER_VERSION, "iteration": iteration,
            "games": plan.games * iteration, "games_per_iteration": plan.games, "seed": plan.seed,
            "players": len(plan.bots), "bots": list(plan.bots), "budget": plan.budget, "rollout": plan.rollout,
            "reference": plan.reference, "eval_games": plan.eval_games,
            "eval_seed": plan.seed + EVAL_SEED_OFFSET, "config_hash": plan.config_hash}


def _progress(plan: Plan, result: dict, decisions: int, best: float, resumed: bool) -> str:
    i = result["iteration"]
    head = f"iteration {i}" + (" (done before)" if resumed else f" [{result['cpu_seconds']:.0f} s cpu]")
    share = f"win share {result['share']:.3f} against {plan.reference} ({plan.eval_games} games)"
    if i == 0:
        return f"{head}: the starting policy, {share}"
    verdict = "kept" if result["kept"] else f"not kept (best {best:.3f})"
    return (f"{head}: {result['decisions']:,} search decisions ({decisions:,} in all), the fit repeats "
            f"{result['agreement']:.1%} of them; {share}: {verdict}")


# ---- the work folder ----------------------------------------------------------------------------
def _open_work(work: Path, plan: Plan) -> None:
    """Start the work folder with ``plan.json``, or check that it holds the same plan."""
    path = work / "plan.json"
    mine = json.loads(json.dumps(plan.stored()))
    if path.exists():
        try:
            theirs = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise _damaged(path, str(e).splitlines()[0]) from None
        if theirs != mine:
            changed = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k)) if \
                isinstance(theirs, dict) else ["plan"]
            raise ConfigError(f"work folder {work} was started with other settings ({', '.join(changed)}): "
                              "use another --work folder or the same settings")
        return
    try:
        work.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot write the work folder {work}: {e.strerror or e}") from None
    _write_text(path, json.dumps(mine, indent=1) + "\n")


def _read_done(folder: Path, game) -> tuple[dict, dict, dict | None] | None:
    """A finished iteration's policy, result and decisions, or None when it did not finish."""
    from sim.kit.learned import load_policy

    if not (folder / "result.json").exists():
        return None
    try:
        result = json.loads((folder / "result.json").read_text())
        if not isinstance(result, dict) or not {"iteration", "decisions", "share", "kept"} <= set(result):
            raise ValueError("not an iteration's result")
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise _damaged(folder / "result.json", str(e).splitlines()[0]) from None
    try:
        doc = load_policy(folder / "policy.json", game.name, game.learned.FEATURES)
    except ConfigError as e:
        raise _damaged(folder / "policy.json", str(e)) from None
    if result["iteration"] == 0:
        return doc, result, None
    try:
        with np.load(folder / "decisions.npz") as z:
            part = {k: z[k] for k in ("x", "chosen", "group")}
    except (OSError, ValueError, KeyError, EOFError) as e:
        raise _damaged(folder / "decisions.npz", str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    return doc, result, part


def _damaged(path: Path, why: str) -> ConfigError:
    return ConfigError(f"damaged work folder: {path}: {why} (remove that iteration's folder to play it again)")


def _clear_from(work: Path, first: int) -> None:
    """Remove iteration ``first``'s folder and every later one (they built on what is replayed)."""
    for folder in sorted(work.glob("iteration-*")):
        suffix = folder.name.removeprefix("iteration-")
        if suffix.isdigit() and int(suffix) >= first:
            shutil.rmtree(folder)


def _joined(parts: list[dict]) -> dict[str, np.ndarray]:
    """The decisions of several iterations as one set (their decision numbers made distinct)."""
    groups, offset = [], 0
    for p in parts:
        groups.append(p["group"] + offset)
        offset += int(p["group"].max()) + 1 if len(p["group"]) else 0
    return {"x": np.concatenate([p["x"] for p in parts]), "chosen": np.concatenate([p["chosen"] for p in parts]),
            "group": np.concatenate(groups)}


def _write_text(path: Path, text: str) -> None:
    _write_whole(path, lambda tmp: tmp.write_text(text))


def _as_stored(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Decisions in the types ``decisions.npz`` keeps (a resumed run fits the very same arrays)."""
    return {"x": data["x"].astype(np.int32), "chosen": data["chosen"].astype(np.int8),
            "group": data["group"].astype(np.int64)}


def _write_npz(path: Path, data: dict[str, np.ndarray]) -> None:
    def save(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **data)
    _write_whole(path, save)


def _write_whole(path: Path, write: Callable[[Path], object]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(tmp)
        os.replace(tmp, path)
    except OSError as e:
        raise ConfigError(f"cannot write {path}: {e.strerror or e}") from None


# ---- recording the search's choices and fitting them -------------------------------------------
def record_search_choices(game, cfg, games: int, first: int = 0) -> dict[str, np.ndarray]:
    """Play games ``first .. first+games-1`` of ``cfg`` (search seats driven through the step
    contract) and record, at every search decision with two or more legal options, each option's
    features (``x``), whether the search chose it (``chosen``) and the decision's number
    (``group``, from 0); only the kinds the game's learned bot weighs (its ``KINDS``, default all)."""
    from sim.kit.search import BOT_ANSWER, N_STATS

    step = game.step
    kernel, search = step.kernel(), step.search()
    features_of = learned_kernel(game).features_of
    run = kernel.run_vector(game, cfg)
    weighed = weighed_kinds(game)
    opts = np.zeros(step.max_options, dtype=np.int64)
    counts = np.zeros(N_STATS, dtype=np.int64)
    xs, chosen, group = [], [], []
    for index in range(first, first + games):
        buf = kernel.new_state()
        search.start_search_game(buf, np.uint64(cfg.seed), np.int64(index), run)
        while True:
            seat, kind = (int(v) for v in kernel.step_pending(buf))
            if seat < 0:
                break
            n = int(kernel.step_legal(buf, opts))
            option = int(search.search_option(buf, cfg.seed, index, counts))
            if n >= 2 and option != BOT_ANSWER and kind in weighed:
                xs.append(features_of(buf, np.int64(seat), np.int64(kind), opts, np.int64(n)))
                chosen.append(opts[:n] == option)
                group.append(np.full(n, len(group)))
            kernel.step_apply(buf, np.int64(option))
    width = len(game.learned.FEATURES)
    return {"x": np.concatenate(xs) if xs else np.zeros((0, width), dtype=np.int64),
            "chosen": np.concatenate(chosen).astype(np.int64) if chosen else np.zeros(0, dtype=np.int64),
            "group": np.concatenate(group) if group else np.zeros(0, dtype=np.int64)}


def weighed_kinds(game) -> list[int]:
    """The kind codes of the decisions the game's learned bot weighs (its ``KINDS``, default all)."""
    kinds = game.step.kinds
    return [kinds.index(k) for k in getattr(game.learned, "KINDS", kinds)]


def learned_kernel(game):
    """The game's compiled learned-feature module."""
    from importlib import import_module

    return import_module(game.learned.KERNEL_MODULE)


def fit_policy(game, data: dict[str, np.ndarray], training: dict) -> dict:
    """The policy file's contents: the conditional logit of ``data`` (``record_search_choices``)
    and how often its argmax picks the search's option."""
    features = list(game.learned.FEATURES)
    if len(np.unique(data["group"])) < 2:
        raise ConfigError("too few search decisions to fit a policy: play more --games")
    from sim.run import stats  # pandas: loaded when a fit is made, not when the CLI starts

    fit = stats.ridge_conditional_logit(data["x"], data["chosen"], data["group"])
    weights = np.clip(fit["params"], -WEIGHT_BOUND, WEIGHT_BOUND)
    return {"format": FORMAT, "version": VERSION, "game": game.name, "features": features,
            "weights": [float(w) for w in weights],
            "training": training,
            "fit": {"decisions": fit["groups"], "options": int(len(data["group"])),
                    "log_likelihood": fit["llf"], "log_likelihood_uniform": fit["llf_null"],
                    "mcfadden_r2": 1.0 - fit["llf"] / fit["llf_null"] if fit["llf_null"] else 0.0,
                    "agreement": agreement(weights, data),
                    "std_errors": [None if not np.isfinite(s) else float(s) for s in fit["bse"]],
                    "max_score": fit["max_score"]}}


def agreement(weights, data: dict[str, np.ndarray]) -> float:
    """The share of recorded decisions at which ``best_option`` picks the search's option."""
    group = data["group"]
    if not len(group):
        return 0.0
    score = data["x"] @ np.asarray(weights, dtype=float)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    sizes = np.diff(np.r_[starts, len(group)])
    rows = np.repeat(np.arange(len(starts)), sizes)
    top = np.maximum.reduceat(score, starts)
    first_best = np.minimum.reduceat(np.where(score == top[rows], np.arange(len(group)), len(group)), starts)
    return float(np.mean(data["chosen"][first_best]))
