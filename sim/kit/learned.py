"""The learned bot: a linear softmax over a decision's legal options (a conditional logit),
fitted to the search bot's choices, played as its argmax in both engines.

Each game describes an option by a few whole-number features the deciding seat can see (its
``learned`` module's ``FEATURES`` and ``reference_features``, twinned in its kernel); the bot
picks the option whose features weigh most (``best_option``, the first of equals). Its weights
are bot parameters ``w_<feature>`` of the ``learned`` bot (and of the ``search`` bot, whose
``rollout`` bot may be ``learned``), so a run's config holds the policy it played.

Training (``sim.run.training``, expert iteration): games with search seats driven through the step
contract (``sim.kit.step``), at every search decision with two or more options the features of each
legal option and the one the search chose are recorded (``record_search_choices``), and the
weights fitted by ``sim.run.stats.ridge_conditional_logit`` (``fit_policy``). A policy file (JSON, ``FORMAT``) holds the game, the feature names, the weights, how it was trained and
the fit's statistics; each game ships one (its default weights, ``default_weights``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any


from sim.kit.config import BotParam, ConfigError

FORMAT = "cardlab-learned-policy"
VERSION = 1
WEIGHT_BOUND = 1e6
LEARNED = "learned"


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
