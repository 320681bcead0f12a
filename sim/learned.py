"""The learned bot: a linear softmax over a decision's legal options (a conditional logit),
fitted to the search bot's choices, played as its argmax in both engines.

Each game describes an option by a few whole-number features the deciding seat can see (its
``learned`` module's ``FEATURES`` and ``reference_features``, twinned in its kernel); the bot
picks the option whose features weigh most (``best_option``, the first of equals). Its weights
are bot parameters ``w_<feature>`` of the ``learned`` bot (and of the ``search`` bot, whose
``rollout`` bot may be ``learned``), so a run's config holds the policy it played.

Training (``sim.training``, expert iteration): games with search seats driven through the step
contract (``sim.step``), at every search decision with two or more options the features of each
legal option and the one the search chose are recorded (``record_search_choices``), and the
weights fitted by ``fit_logit`` (``fit_policy``). A policy
file (JSON, ``FORMAT``) holds the game, the feature names, the weights, how it was trained and
the fit's statistics; each game ships one (its default weights, ``default_weights``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from sim.config import BotParam, ConfigError

FORMAT = "cardlab-learned-policy"
VERSION = 1
WEIGHT_BOUND = 1e6
LEARNED = "learned"
RIDGE = 0.01  # the fit's penalty on the squared weights (fit_logit)


def best_option(weights, rows) -> int:
    """The position of the option whose features ``rows[j]`` weigh most by ``weights`` (the first
    of equals), summed feature by feature in order as the kernels do."""
    best, best_score = 0, 0.0
    for j, row in enumerate(rows):
        score = 0.0
        for w, f in zip(weights, row):
            score += w * f
        if j == 0 or score > best_score:
            best, best_score = j, score
    return best


def weight_params(features) -> tuple[BotParam, ...]:
    """The ``BotParam`` rows of the learned bot's weights, one per feature."""
    return tuple(BotParam("w_" + f, -WEIGHT_BOUND, WEIGHT_BOUND, f"learned: the weight of feature {f}")
                 for f in features)


def default_weights(path: Path, game: str, features) -> dict[str, float]:
    """The weights of the policy file a game ships (``w_<feature>``: value), zeros without one."""
    if not path.exists():
        return {"w_" + f: 0.0 for f in features}
    return weights_of(load_policy(path, game, features))


def weights_of(policy: dict) -> dict[str, float]:
    return {"w_" + f: float(w) for f, w in zip(policy["features"], policy["weights"])}


# ---- policy files -------------------------------------------------------------------------------
def load_policy(path: str | Path, game: str | None = None, features=None) -> dict:
    """The checked policy file at ``path`` (for ``game``, with ``features`` when given); any fault
    is a one-line ConfigError."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"policy file not found: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"cannot read policy file {path}: {str(e).splitlines()[0]}") from None
    problem = _policy_problem(doc)
    if problem:
        raise ConfigError(f"{path} is not a cardlab policy file: {problem}")
    if game is not None and doc["game"] != game:
        raise ConfigError(f"{path} is a policy for {doc['game']}, not {game}")
    if features is not None and tuple(doc["features"]) != tuple(features):
        raise ConfigError(f"{path} has other features than {doc['game']}'s learned bot: retrain it")
    return doc


def _policy_problem(doc: Any) -> str:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return f"no \"format\": \"{FORMAT}\""
    if doc.get("version") != VERSION:
        return f"version {doc.get('version')!r}, this code reads version {VERSION}"
    feats, weights = doc.get("features"), doc.get("weights")
    if not isinstance(doc.get("game"), str):
        return "no game"
    if not (isinstance(feats, list) and isinstance(weights, list) and len(feats) == len(weights)
            and all(isinstance(f, str) for f in feats)):
        return "features and weights must be lists of the same length"
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) and abs(w) <= WEIGHT_BOUND
               for w in weights):
        return f"weights must be numbers in [-{WEIGHT_BOUND:g}, {WEIGHT_BOUND:g}]"
    return ""


def save_policy(path: str | Path, doc: dict) -> None:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc, indent=1) + "\n")
    except OSError as e:
        raise ConfigError(f"cannot write {path}: {e.strerror or e}") from None


def policy_note(path: str | Path) -> dict:
    """What a run records of the policy file it played (``run.json``'s ``learned_policy``)."""
    path = Path(path)
    doc = load_policy(path)
    return {"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "version": doc["version"]}


def policy_overrides(game, policy: dict) -> dict[str, str]:
    """``--set`` overrides that seat ``policy``'s weights in the learned bot and in the search
    bot's rollouts."""
    out = {}
    for bot in (LEARNED, "search"):
        if bot in game.bots:
            out.update({f"bot.{bot}.{k}": repr(v) for k, v in weights_of(policy).items()})
    return out


def seats_learned(game, cfg) -> bool:
    """Does ``cfg`` play the learned bot (seated, or as the search bot's rollout bot)?"""
    if LEARNED not in game.bots:
        return False
    code = game.bots[LEARNED].policy
    return LEARNED in cfg.bots or ("search" in cfg.bots and
                                   int(cfg.bot_values(game.bots["search"]).get("rollout", -1)) == code)


# ---- training -----------------------------------------------------------------------------------
def record_search_choices(game, cfg, games: int, first: int = 0) -> dict[str, np.ndarray]:
    """Play games ``first .. first+games-1`` of ``cfg`` (search seats driven through the step
    contract) and record, at every search decision with two or more legal options, each option's
    features (``x``), whether the search chose it (``chosen``) and the decision's number
    (``group``, from 0); only the kinds the game's learned bot weighs (its ``KINDS``, default all)."""
    from sim.search import BOT_ANSWER, N_STATS

    step = game.step
    kernel, search = step.kernel(), step.search()
    features_of = _learned_kernel(game).features_of
    run = kernel.run_vector(game, cfg)
    weighed = [step.kinds.index(k) for k in getattr(game.learned, "KINDS", step.kinds)]
    opts = np.zeros(step.max_options, dtype=np.int64)
    stats = np.zeros(N_STATS, dtype=np.int64)
    xs, chosen, group = [], [], []
    for index in range(first, first + games):
        buf = kernel.new_state()
        search.start_search_game(buf, np.uint64(cfg.seed), np.int64(index), run)
        while True:
            seat, kind = (int(v) for v in kernel.step_pending(buf))
            if seat < 0:
                break
            n = int(kernel.step_legal(buf, opts))
            option = int(search.search_option(buf, cfg.seed, index, stats))
            if n >= 2 and option != BOT_ANSWER and kind in weighed:
                xs.append(features_of(buf, np.int64(seat), np.int64(kind), opts, np.int64(n)))
                chosen.append(opts[:n] == option)
                group.append(np.full(n, len(group)))
            kernel.step_apply(buf, np.int64(option))
    width = len(game.learned.FEATURES)
    return {"x": np.concatenate(xs) if xs else np.zeros((0, width), dtype=np.int64),
            "chosen": np.concatenate(chosen).astype(np.int64) if chosen else np.zeros(0, dtype=np.int64),
            "group": np.concatenate(group) if group else np.zeros(0, dtype=np.int64)}


def _learned_kernel(game):
    from importlib import import_module

    return import_module(game.learned.KERNEL_MODULE)


def fit_logit(x, chosen, group, ridge: float = RIDGE, max_steps: int = 100) -> dict:
    """The conditional logit of choices (``x`` one row per option, ``chosen`` 1 for the picked
    option, ``group`` the decision of each row, decisions contiguous) by Newton's method on the
    log-likelihood less ``ridge``/2 |w|^2, vectorised over the decisions (seconds for a million
    options). A feature that never differs within a decision gets weight 0 and no standard
    error; the small ridge keeps a separating feature's weight finite. Returns ``params``,
    ``bse``, ``llf`` (without the ridge), ``llf_null`` (the uniform choice's), ``groups`` and
    ``max_score`` (the largest absolute gradient of the penalised log-likelihood left)."""
    x = np.asarray(x, dtype=float)
    chosen = np.asarray(chosen, dtype=bool)
    group = np.asarray(group)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if len(group) else np.zeros(0, dtype=int)
    sizes = np.diff(np.r_[starts, len(group)])
    rows = np.repeat(np.arange(len(starts)), sizes)
    varies = (np.maximum.reduceat(x, starts) != np.minimum.reduceat(x, starts)).any(axis=0) if len(group) else \
        np.zeros(x.shape[1], dtype=bool)
    xv = x[:, varies]
    eye = ridge * np.eye(xv.shape[1])

    def evaluate(w):
        score = xv @ w
        top = np.maximum.reduceat(score, starts)
        e = np.exp(score - top[rows])
        total = np.add.reduceat(e, starts)
        p = e / total[rows]
        mean = np.add.reduceat(p[:, None] * xv, starts)
        info = (xv * p[:, None]).T @ xv - mean.T @ mean
        return float(score[chosen].sum() - (top + np.log(total)).sum()), xv.T @ (chosen - p), info

    w = np.zeros(xv.shape[1])
    llf, grad, info = evaluate(w)
    for _ in range(max_steps):
        step = np.linalg.solve(info + eye, grad - ridge * w)
        goal = llf - ridge / 2 * w @ w
        for _ in range(30):  # halve the step until the penalised log-likelihood rises
            new = evaluate(w + step)
            if new[0] - ridge / 2 * (w + step) @ (w + step) >= goal:
                break
            step = step / 2
        w = w + step
        llf, grad, info = new
        if np.max(np.abs(step), initial=0.0) < 1e-10:
            break
    params = np.zeros(x.shape[1])
    bse = np.full(x.shape[1], np.nan)
    params[varies] = w
    bse[varies] = np.sqrt(np.diag(np.linalg.inv(info + eye)))
    return {"params": params, "bse": bse, "llf": llf, "llf_null": float(-np.log(sizes).sum()),
            "groups": int(len(starts)), "max_score": float(np.max(np.abs(grad - ridge * w), initial=0.0))}


def fit_policy(game, data: dict[str, np.ndarray], training: dict) -> dict:
    """The policy file's contents: the conditional logit of ``data`` (``record_search_choices``)
    and how often its argmax picks the search's option."""
    features = list(game.learned.FEATURES)
    if len(np.unique(data["group"])) < 2:
        raise ConfigError("too few search decisions to fit a policy: play more --games")
    fit = fit_logit(data["x"], data["chosen"], data["group"])
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
