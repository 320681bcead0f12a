"""Each real game through the CLI: bad input per game, and simulate -> replay -> report."""

import json

import pytest

from sim.games import MODULES
from tests.test_cli import cardlab, one_line_error


@pytest.mark.parametrize(
    "args, message",
    [
        (["virus-dogs", "--players", "6"], "2 to 5 players"),
        (["virus-dogs", "--players", "1"], "2 to 5 players"),
        (["virus-dogs", "--set", "n_toilet=-1"], "bad value '-1' for 'n_toilet'"),
        (["virus-dogs", "--set", "hq_target=random"], "'hq_target'"),
        (["virus-dogs", "--players", "2", "--bots", "cautious,shark"], "unknown bot 'shark'"),
        (["virus-dogs", "--set", "bot.cautious.nerve_of_steel=1"], "unknown parameter 'nerve_of_steel'"),
        (["virus-dogs", "--set", "bot.cautious.skip_density=-5"],
         "bad value '-5' for 'bot.cautious.skip_density': expected a number in [0, 1]"),
        (["faking-sick", "--set", "bot.bluffer.bluff_k=0"], "'bot.bluffer.bluff_k': expected a number in [0.01, 100]"),
        (["daifugo", "--set", "bot.strategist.revolt_below=x"], "'bot.strategist.revolt_below': expected a number in [0, 13]"),
        (["faking-sick", "--players", "5"], "3 to 4 players"),
        (["faking-sick", "--set", "banned_per_player=5"], "banned_per_player"),
        (["faking-sick", "--set", "last_card_forbidden_types=MSK"], "MSK"),
        (["daifugo", "--players", "7"], "3 to 6 players"),
        (["daifugo", "--set", "rule_deck=01,99"], "'99'"),
        (["daifugo", "--set", "rounds=0"], "'rounds'"),
    ],
)
def test_game_bad_input(tmp_path, args, message):
    res = cardlab("simulate", *args, "--games", 10, "--out", tmp_path / "r", "-q")
    assert message in one_line_error(res)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("game", list(MODULES))  # the built-in games
def test_simulate_replay_report_rules(tmp_path, game):
    out = tmp_path / "run"
    res = cardlab("simulate", game, "--games", 400, "--seed", 3, "--workers", 2, "--out", out, "-q")
    assert res.returncode == 0, res.stderr
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["complete"] and sum(b["count"] for b in manifest["batches"]) == 400
    res = cardlab("replay", out, "--game", 399)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().endswith("replay of game 399 matches the stored results")
    assert len(res.stdout.splitlines()) > 5
    res = cardlab("report", out, "--out", tmp_path / "rep")
    assert res.returncode == 0, res.stderr
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "Win rate by seat and by bot" in html and html.count("data:image/png;base64,") >= 4
    rules = json.loads(cardlab("rules", game, "--json").stdout)
    assert rules["game"] == game and all(p["source"] for p in rules["params"])
    declared = {p["name"]: p for p in rules["bot_params"]}
    for bot in rules["bots"]:
        for name, default in bot["params"].items():
            assert bot["bot"] in declared[name]["bots"] and declared[name]["lo"] <= default <= declared[name]["hi"]
