"""``cardlab train --method cmaes`` (sim.run.training_cmaes): CMA-ES on a synthetic win share with a
known best, weights scaled by their features' sizes where the features' scales differ, resuming a stopped run to the uninterrupted one's policy, keeping the start when the
held-out deals say so, a tiny real run and its one-line errors."""

import json

import numpy as np
import pytest

from sim.kit import learned
from sim.kit.config import ConfigError
from sim.games import get_game
from sim.run import training_cmaes
from sim.run.training_cmaes import CmaPlan, tune
from tests.test_cli import cardlab, one_line_error

FEATURES = ["a", "b", "c"]
START = [1.0, -2.0, 0.5]
TARGET = np.array([1.6, -1.4, 0.2])  # the synthetic share's best weights


def share(weights) -> float:
    """A synthetic win share, highest (0.6) at ``TARGET``."""
    return float(0.6 - 0.05 * np.sum((np.asarray(weights) - TARGET) ** 2))


def plan(**changes) -> CmaPlan:
    settings = dict(game="toy", bots=("learned", "x", "x"), games=10, eval_games=10, sigma=0.5, seed=3,
                    start=tuple(START), config_hash="h")
    return CmaPlan(**{**settings, **changes})


def toy_tune(work, trials, notify=lambda line: None, objective=share, evaluate=share, **changes):
    weights = list(changes.get("start", START))
    start = {"format": learned.FORMAT, "version": learned.VERSION, "game": "toy", "features": FEATURES,
             "weights": weights, "training": {"trainer": "before"}, "fit": {"agreement": 0.5}}
    return tune(None, plan(**changes), None, start, trials, work, notify, (objective, evaluate))


def test_scales_follow_each_weight_with_a_floor_of_a_quarter_of_the_mean():
    assert training_cmaes.scales([4.0, -2.0, 0.0, 0.1]) == [4.0, 2.0, 0.38125, 0.38125]
    assert training_cmaes.scales([0.0, 0.0]) == [1.0, 1.0]
    assert training_cmaes.scales([4.0, -2.0, 0.0, 0.1], [1.0, 1.0, 1.0, 1.0]) == [4.0, 2.0, 0.38125, 0.38125]


def test_feature_scales_measure_each_weight_in_score_units():
    # score parts |w| * size: 4, 0.5, 0, 0.02; the floor a quarter of their mean, 0.2825
    assert training_cmaes.scales([4.0, -0.01, 0.0, 0.1], [1.0, 50.0, 2.0, 0.2]) == pytest.approx(
        [4.0, 0.01, 0.2825 / 2.0, 0.2825 / 0.2])


# features on different scales: the second counted in tens, the third in hundredths
SIZES = (1.0, 50.0, 0.02)
SCALED_START = (1.0, -0.04, 0.5)
SCALED_TARGET = np.array([1.6, -0.028, 30.5])  # 0.6, 0.6 and 0.6 in score units from the start


def scaled_share(weights) -> float:
    """A synthetic win share of the score units, highest (0.6) at ``SCALED_TARGET``."""
    return float(0.6 - 0.05 * np.sum(((np.asarray(weights) - SCALED_TARGET) * SIZES) ** 2))


def test_feature_scales_reach_a_best_that_weight_scales_cannot(tmp_path):
    by_weight = toy_tune(tmp_path / "w", 60, objective=scaled_share, evaluate=scaled_share, start=SCALED_START)
    by_feature = toy_tune(tmp_path / "f", 60, objective=scaled_share, evaluate=scaled_share, start=SCALED_START,
                          sizes=SIZES)
    # by weight the third weight ranges over 0.5 +- 3 * 0.5, at most 2: 0.6 - 0.05 (28.5 * 0.02)^2 at best
    assert by_weight["weights"][2] <= 2.0 and scaled_share(by_weight["weights"]) < 0.6 - 0.05 * 0.57 ** 2 + 1e-9
    assert scaled_share(by_feature["weights"]) > 0.595
    assert by_feature["training"]["scale"] == "feature" and by_feature["training"]["feature_sizes"] == list(SIZES)
    assert by_weight["training"]["scale"] == "weight" and "feature_sizes" not in by_weight["training"]


def test_a_weight_scaled_plan_is_stored_as_before_the_option(tmp_path):
    toy_tune(tmp_path / "w", 1)
    stored = json.loads((tmp_path / "w" / "plan.json").read_text())
    assert "sizes" not in stored and stored["sigma"] == 0.5
    toy_tune(tmp_path / "f", 1, sizes=(1.0, 2.0, 3.0))
    assert json.loads((tmp_path / "f" / "plan.json").read_text())["sizes"] == [1.0, 2.0, 3.0]


def test_feature_sizes_are_the_typical_nonzero_values_of_the_weighed_options():
    game = get_game("faking-sick")
    cfg = game.make_config(players=4, bots=["learned", "caller", "caller", "caller"], seed=4)
    sizes = dict(zip(game.learned.FEATURES, training_cmaes.feature_sizes(
        game, cfg, learned.load_policy(game.learned.POLICY_FILE)["weights"], games=20)))
    for yes_or_no in ("fallback", "bluff", "going_out", "type_vir", "call", "call_urgent", "call_winning"):
        assert sizes[yes_or_no] == 1.0, yes_or_no  # a feature that is 0 or 1: size 1
    assert 10 < sizes["call_ban_pct"] <= 100  # a percentage
    assert 1 < sizes["fallback_hand"] and 1 <= sizes["held"]  # cards in hand, copies held


def test_the_learned_share_splits_a_shared_win_between_its_winners():
    import pandas as pd

    seats = pd.DataFrame({"game": [0, 0, 0, 1, 1, 1, 2, 2, 2], "bot": ["learned", "x", "x"] * 3,
                          "win": [True, True, False, True, False, False, False, False, False]})
    assert training_cmaes.learned_share(seats) == pytest.approx((0.5 + 1 + 0) / 3)
    seats["win_share"] = [1 / 3, 1 / 3, 1 / 3, 1, 0, 0, 0, 0, 0]  # a game's own split wins
    assert training_cmaes.learned_share(seats) == pytest.approx((1 / 3 + 1) / 3)


def test_cmaes_climbs_a_synthetic_win_share_towards_its_best(tmp_path):
    lines = []
    doc = toy_tune(tmp_path / "w", 60, lines.append)
    record = doc["training"]
    assert record["trainer"] == "cmaes" and record["trials"] == 60 and record["kept"]
    assert record["eval_share_start"] == share(START) and record["eval_share"] == share(doc["weights"])
    before, after = np.linalg.norm(np.array(START) - TARGET), np.linalg.norm(np.array(doc["weights"]) - TARGET)
    assert after < before / 3, (doc["weights"], after)
    assert record["start"] == {"trainer": "before"} and "fit" not in doc
    popsize = training_cmaes._popsize(3)
    assert popsize == 7 and lines[0].startswith(f"trial {popsize}/60: ")  # one line a generation
    assert lines[-1].startswith(f"best trial {record['best_trial']}: ") and lines[-1].endswith(": kept")


def test_the_first_trial_plays_the_start(tmp_path):
    seen = []
    toy_tune(tmp_path / "w", 1, objective=lambda w: seen.append(list(w)) or share(w))
    assert seen == [START]


def test_a_stopped_run_resumes_to_the_uninterrupted_policy(tmp_path):
    whole = toy_tune(tmp_path / "whole", 30)
    toy_tune(tmp_path / "stopped", 9)  # stopped between trials
    calls = []

    def killed_in_trial_17(weights):
        calls.append(weights)
        if len(calls) == 8:  # trials 9 .. 16 finish, the run dies in trial 17
            raise KeyboardInterrupt
        return share(weights)

    with pytest.raises(KeyboardInterrupt):
        toy_tune(tmp_path / "stopped", 30, objective=killed_in_trial_17)
    lines = []
    resumed = toy_tune(tmp_path / "stopped", 30, lines.append)
    assert lines[0] == "trial 16: finished (it was stopped mid-way)"
    assert resumed == whole


def test_the_start_is_kept_unless_the_best_trial_beats_it_on_the_evaluation_deals(tmp_path):
    def worse_away_from_the_start(weights):  # held-out deals on which every change loses
        return 0.5 - float(np.sum(np.abs(np.asarray(weights) - START)))

    doc = toy_tune(tmp_path / "w", 20, evaluate=worse_away_from_the_start)
    record = doc["training"]
    assert not record["kept"] and doc["weights"] == START
    assert record["eval_share_start"] == 0.5 > record["eval_share"] and record["train_share"] > share(START)


@pytest.mark.parametrize("changes,message", [
    (dict(games=0), "--games and --eval-games must be at least 1"),
    (dict(sigma=0.0), "--sigma must be above 0"),
    (dict(bots=("x", "x", "x")), "exactly one learned seat"),
    (dict(sizes=(1.0, 0.0, 2.0)), "the features' sizes must be one positive number a weight"),
])
def test_bad_settings_are_refused(tmp_path, changes, message):
    with pytest.raises(ConfigError, match=message):
        toy_tune(tmp_path / "w", 5, **changes)
    with pytest.raises(ConfigError, match="--trials must be at least 1"):
        toy_tune(tmp_path / "w", 0)


TINY = ("--method", "cmaes", "--trials", 3, "--games", 12, "--eval-games", 12, "--seed", 5)


def test_a_tiny_run_writes_a_policy_no_worse_than_the_start(tmp_path):
    game = get_game("virus-dogs")
    out = tmp_path / "p.json"
    res = cardlab("train", "virus-dogs", *TINY, "--out", out)
    assert res.returncode == 0, res.stderr
    doc = learned.load_policy(out, "virus-dogs", game.learned.FEATURES)
    record, start = doc["training"], learned.load_policy(game.learned.POLICY_FILE)
    assert record["trainer"] == "cmaes" and record["trials"] == 3 and record["reference"] == "cautious"
    assert record["train_seed"] == 7 and record["eval_seed"] == 6 and record["start"] == start["training"]
    if record["kept"]:
        assert record["eval_share"] > record["eval_share_start"] and doc["weights"] != start["weights"]
    else:
        assert doc["weights"] == start["weights"]
    assert "release" in start and "release" not in doc  # a shipped policy's number stays with it
    assert "best trial" in res.stdout and "-> " + str(out) in res.stdout
    study = tmp_path / "p-training" / "study.log"
    assert study.exists() and json.loads((tmp_path / "p-training" / "plan.json").read_text())["games"] == 12
    res = cardlab("train", "virus-dogs", *TINY[:-1], 6, "--out", out)
    assert "was started with other settings (config_hash, seed)" in one_line_error(res)
    study.write_text("not a journal\n")
    res = cardlab("train", "virus-dogs", *TINY, "--out", out)
    assert "damaged work folder" in one_line_error(res)


@pytest.mark.parametrize("args,message", [
    (("--method", "genetic"), "unknown training method 'genetic'"),
    (("--method", "cmaes", "--trials", 0), "--trials must be at least 1"),
    (("--method", "cmaes", "--sigma", -1), "--sigma must be above 0"),
    (("--method", "cmaes", "--scale", "size"), "unknown --scale 'size'; known: weight, feature"),
    (("--method", "cmaes", "--bots", "cautious,cautious,cautious,cautious"), "exactly one learned seat"),
])
def test_bad_cmaes_input_is_a_one_line_error(tmp_path, args, message):
    res = cardlab("train", "virus-dogs", *args, "--out", tmp_path / "p.json")
    assert message in one_line_error(res)
    assert not (tmp_path / "p.json").exists()


def test_a_tiny_feature_scaled_run_records_the_sizes(tmp_path):
    game = get_game("faking-sick")
    out = tmp_path / "p.json"
    res = cardlab("train", "faking-sick", *TINY, "--scale", "feature", "--out", out)
    assert res.returncode == 0, res.stderr
    record = learned.load_policy(out, "faking-sick", game.learned.FEATURES)["training"]
    assert record["scale"] == "feature" and len(record["feature_sizes"]) == len(game.learned.FEATURES)
    assert json.loads((tmp_path / "p-training" / "plan.json").read_text())["sizes"] == record["feature_sizes"]
