"""The learned bot (sim.kit.learned): the conditional-logit fits on synthetic choices with known
weights, the same choices in both engines, ``cardlab train`` (expert iteration, sim.run.training:
its policy files, its work folder and resuming it) and its one-line errors."""

import json

import numpy as np
import pytest

from cardlab import api
from sim.kit import learned
from sim.kit.config import Table
from sim.run import training
from sim.run.training import Training
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


def test_ridge_conditional_logit_recovers_known_weights_as_the_statsmodels_fit_does():
    truth = [1.0, -2.0, 0.5]
    x, chosen, group = synthetic_choices(truth, groups=4000, options=4, seed=7)
    fit = stats.ridge_conditional_logit(x, chosen, group)
    reference = stats.conditional_logit(x, chosen, group)
    est, se = fit["params"], fit["bse"]
    assert np.all(np.abs(est[:3] - truth) < 4 * se[:3]) and np.all(se[:3] < 0.06)
    assert np.allclose(est[:3], reference["params"][:3], atol=1e-4)  # the ridge (0.01) moves little
    assert np.allclose(se[:3], reference["bse"][:3], rtol=1e-3)
    assert est[3] == 0.0 and np.isnan(se[3])  # the same for every option: no weight
    assert fit["llf"] == pytest.approx(reference["llf"], abs=1e-3) and fit["llf_null"] == reference["llf_null"]
    assert fit["groups"] == 4000 and fit["max_score"] < 1e-6


def test_agreement_counts_the_first_best_option():
    data = {"x": np.array([[1], [1], [0], [2]]), "chosen": np.array([0, 1, 0, 1]), "group": np.array([0, 0, 1, 1])}
    assert training.agreement([1.0], data) == 0.5  # a tie goes to the first option, not the chosen one
    assert training.agreement([-1.0], data) == 0.0


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


TOY_TRAINING = ("--games", 2, "--budget", 4, "--eval-games", 8, "--seed", 5)


@pytest.mark.parametrize("name", LEARNED_GAMES)
def test_train_writes_a_policy_the_learned_bot_plays(name, tmp_path):
    game = get_game(name)
    out = tmp_path / "policy.json"
    res = cardlab("train", name, "--iterations", 1, *TOY_TRAINING, "--out", out)
    assert res.returncode == 0, res.stderr
    assert "iteration 0" in res.stdout and "iteration 1 [" in res.stdout  # progress lines
    doc = learned.load_policy(out, name, game.learned.FEATURES)
    record = doc["training"]
    assert [h["iteration"] for h in record["history"]] == [0, 1] and record["iterations"] == 1
    assert record["trainer"] == "expert-iteration" and record["trainer_version"] == 1
    assert record["start"] == learned.load_policy(game.learned.POLICY_FILE)["training"]
    fitted = json.loads((tmp_path / "policy-training" / "iteration-001" / "policy.json").read_text())
    assert fitted["training"]["trainer"] == "expert-iteration" and fitted["training"]["budget"] == 4
    assert fitted["training"]["games"] == 2 and fitted["training"]["rollout"] == "learned"
    assert fitted["fit"]["decisions"] == record["history"][1]["decisions"] > 0
    kept = [h["iteration"] for h in record["history"] if h["kept"]][-1]
    assert record["iteration"] == kept and doc["weights"] == (fitted["weights"] if kept == 1 else
                              learned.load_policy(game.learned.POLICY_FILE)["weights"])
    bots = ",".join(["learned"] + ["random"] * (game.min_players - 1))
    res = cardlab("simulate", name, "--games", 6, "--bots", bots, "--players", game.min_players, "--policy", out,
                  "--out", tmp_path / "run", "-q")
    assert res.returncode == 0, res.stderr
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["learned_policy"] == learned.policy_note(out)
    assert {k: v for k, v in meta["config"]["bot_params"]["learned"].items() if k.startswith("w_")} == \
        learned.weights_of(doc)


def toy_training(out, iterations, notify=lambda line: None):
    return api.train("virus-dogs", out, Training(iterations, games=3, budget=4, eval_games=40), Table(seed=5),
                     notify=notify)


def test_a_stopped_training_resumes_to_the_uninterrupted_policy(tmp_path):
    whole = toy_training(tmp_path / "whole.json", 3)
    kept = [h["kept"] for h in whole["training"]["history"]]

    def stop_after_iteration_one(line):
        if line.startswith("iteration 1 "):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        toy_training(tmp_path / "stopped.json", 3, stop_after_iteration_one)
    work = tmp_path / "stopped-training"
    assert sorted(p.name for p in work.iterdir()) == ["iteration-000", "iteration-001", "plan.json"]
    (work / "iteration-002").mkdir()  # a run killed in iteration 2: a half-written file, no result
    (work / "iteration-002" / "decisions.npz.tmp").write_bytes(b"PK\x03")
    lines = []
    resumed = toy_training(tmp_path / "stopped.json", 3, lines.append)
    assert lines[0].startswith("iteration 0 (done before)") and lines[1].startswith("iteration 1 (done before)")
    assert lines[2].startswith("iteration 2 [") and lines[3].startswith("iteration 3 [")
    assert resumed == whole and (tmp_path / "stopped.json").read_text() == (tmp_path / "whole.json").read_text()
    assert len(kept) == 4 and kept[0]
    more = toy_training(tmp_path / "stopped.json", 4, lines.append)  # more iterations continue the folder
    assert more["training"]["history"][:4] == whole["training"]["history"] and lines[4].endswith("(40 games)")


@pytest.mark.parametrize("args,message", [
    (("virus-dogs", "--budget", 0), "--budget and --eval-games must be at least 1"),
    (("virus-dogs", "--iterations", 0), "--iterations must be at least 1"),
    (("chess",), "unknown game"),
    (("virus-dogs", "--rollout", "search"), "unknown rollout bot 'search'"),
    (("virus-dogs", "--bots", "cautious,cautious,cautious,cautious"), "training needs a search seat"),
])
def test_bad_training_input_is_a_one_line_error(tmp_path, args, message):
    res = cardlab("train", *args, "--out", tmp_path / "p.json")
    assert message in one_line_error(res)
    assert not (tmp_path / "p.json").exists()


def test_an_unwritable_out_or_a_damaged_work_folder_is_a_one_line_error(tmp_path):
    (tmp_path / "file").write_text("x")
    res = cardlab("train", "virus-dogs", *TOY_TRAINING, "--out", tmp_path / "file" / "p.json")
    assert "cannot write in" in one_line_error(res)
    out = tmp_path / "p.json"
    assert cardlab("train", "virus-dogs", "--iterations", 1, *TOY_TRAINING, "--out", out).returncode == 0
    before = out.read_text()
    res = cardlab("train", "virus-dogs", "--iterations", 1, *TOY_TRAINING[:-1], 6, "--out", out)
    assert "was started with other settings (config_hash, seed)" in one_line_error(res)
    result = tmp_path / "p-training" / "iteration-001" / "result.json"
    result.write_text("{\"iteration\": ")
    res = cardlab("train", "virus-dogs", "--iterations", 1, *TOY_TRAINING, "--out", out)
    assert f"damaged work folder: {result}" in one_line_error(res)
    (tmp_path / "p-training" / "iteration-001" / "decisions.npz").write_bytes(b"not a zip")
    result.write_text(json.dumps({"iteration": 1, "decisions": 3, "share": 0.1, "kept": False}))
    res = cardlab("train", "virus-dogs", "--iterations", 1, *TOY_TRAINING, "--out", out)
    assert "damaged work folder" in one_line_error(res) and "decisions.npz" in res.stderr
    assert out.read_text() == before


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
