"""The learned bot (sim.kit.learned): the conditional-logit fit on synthetic choices with known
weights, the same choices in both engines, ``cardlab train`` and its policy files."""

import json

import numpy as np
import pytest

from sim.kit import learned

from sim.run import stats
from sim.games import available, get_game
from tests.engines import engines_agree
from tests.game_cases import case
from tests.test_cli import cardlab, one_line_error

LEARNED_GAMES = [g for g in available() if getattr(get_game(g), "learned", None) is not None]


def synthetic_choices(weights, groups: int, options: int, seed: int):
    """Choices drawn from a conditional logit with ``weights`` (Gumbel-max), plus a feature that is
    the same for every option of a decision (it cannot be estimated)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(groups, options, len(weights)))
    utility = x @ np.asarray(weights) + rng.gumbel(size=(groups, options))
    chosen = np.zeros((groups, options), dtype=np.int64)
    chosen[np.arange(groups), utility.argmax(axis=1)] = 1
    constant = np.repeat(rng.normal(size=(groups, 1, 1)), options, axis=1)
    x = np.concatenate([x, constant], axis=2).reshape(groups * options, -1)
    return x, chosen.ravel(), np.repeat(np.arange(groups), options)


def test_conditional_logit_recovers_known_weights():
    truth = [1.0, -2.0, 0.5]
    x, chosen, group = synthetic_choices(truth, groups=4000, options=4, seed=7)
    fit = stats.conditional_logit(x, chosen, group)
    est, se = fit["params"], fit["bse"]
    assert fit["groups"] == 4000 and fit["llf_null"] == pytest.approx(-4000 * np.log(4))
    assert np.all(np.abs(est[:3] - truth) < 4 * se[:3]) and np.all(se[:3] < 0.06)
    assert est[3] == 0.0 and np.isnan(se[3])  # the same for every option: no weight
    assert fit["llf"] > fit["llf_null"] and fit["max_score"] < 0.5  # a sum over 4,000 decisions


def test_best_option_is_the_first_of_the_highest():
    assert learned.best_option([1.0, -1.0], [[0, 1], [1, 0], [2, 1]]) == 1
    assert learned.best_option([0.0, 0.0], [[3, 1], [1, 5]]) == 0


@pytest.mark.parametrize("name", LEARNED_GAMES)
def test_both_engines_play_the_learned_bot_alike(name):
    """The learned bot (with the game's fitted weights, and with other ones) and the search bot
    playing its rollouts with it: the same tables in both engines."""
    game = get_game(name)
    table = case(name, "learned")
    rng = np.random.default_rng(3)
    other = {f"bot.learned.w_{f}": float(w) for f, w in zip(game.learned.FEATURES, rng.normal(size=len(
        game.learned.FEATURES)))}
    for weights in ({}, other):
        cfg = game.make_config(players=len(table["bots"]), bots=table["bots"], seed=9,
                               overrides={**table["overrides"], **weights})
        engines_agree(game, cfg, 0, table["games"])
    bots = table["search_bots"]
    cfg = game.make_config(players=len(bots), bots=bots, seed=9,
                           overrides={"bot.search.rollout": game.bots["learned"].policy, "bot.search.budget": 8})
    engines_agree(game, cfg, 0, table["search_games"], limited=False)


@pytest.mark.parametrize("name", LEARNED_GAMES)
def test_learned_bot_beats_random_on_a_fixed_sample(name):
    """The game's fitted weights: the learned seat wins more games than the random seats do."""
    game = get_game(name)
    n = game.min_players
    cfg = game.make_config(players=n, bots=["learned"] + ["random"] * (n - 1), seed=21)
    seats = game.run_batch(cfg, 0, 400, "fast")["seats"]
    wins = seats.groupby("bot")["win"].mean()
    assert wins["learned"] > wins["random"] + 0.1


@pytest.mark.parametrize("name", LEARNED_GAMES)
def test_train_writes_a_policy_the_learned_bot_plays(name, tmp_path):
    game = get_game(name)
    out = tmp_path / "policy.json"
    res = cardlab("train", name, "--games", 2, "--budget", 4, "--out", out)
    assert res.returncode == 0, res.stderr
    doc = learned.load_policy(out, name, game.learned.FEATURES)
    assert doc["training"]["games"] == 2 and doc["training"]["budget"] == 4
    assert doc["fit"]["decisions"] > 0 and 0.0 <= doc["fit"]["agreement"] <= 1.0
    bots = ",".join(["learned"] + ["random"] * (game.min_players - 1))
    res = cardlab("simulate", name, "--games", 6, "--bots", bots, "--players", game.min_players, "--policy", out,
                  "--out", tmp_path / "run", "-q")
    assert res.returncode == 0, res.stderr
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["learned_policy"] == learned.policy_note(out)
    assert {k: v for k, v in meta["config"]["bot_params"]["learned"].items() if k.startswith("w_")} == \
        learned.weights_of(doc)


@pytest.mark.parametrize("content,message", [
    (None, "policy file not found"),
    ("{\"format\": ", "cannot read policy file"),
    ("{\"format\": \"cardlab-learned-policy\", \"version\": 1, \"game\": \"x\", \"features\": [\"a\"], "
     "\"weights\": []}", "features and weights must be lists of the same length"),
    ("{\"format\": \"cardlab-learned-policy\", \"version\": 1, \"game\": \"chess\", \"features\": [], "
     "\"weights\": []}", "is a policy for chess"),
])
def test_a_bad_policy_file_is_a_one_line_error(tmp_path, content, message):
    name = LEARNED_GAMES[0]
    path = tmp_path / "policy.json"
    if content is not None:
        path.write_text(content)
    res = cardlab("simulate", name, "--games", 2, "--bots", "learned,random", "--players", 2, "--policy", path,
                  "--out", tmp_path / "run", "-q")
    assert message in one_line_error(res)
    assert not (tmp_path / "run").exists()
