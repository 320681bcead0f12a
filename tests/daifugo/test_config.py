"""Configuration: defaults, parameter table, bench configurations (bad input: tests/game_cases.py)."""

import json

from sim.games.daifugo import GAME
from sim.games.daifugo.rules import PARAMS, param_vector, N_PARAMS


def test_defaults():
    cfg = GAME.make_config()
    assert cfg.players == 4 and cfg.params["mode"] == "normal" and cfg.params["rounds"] == 5
    assert cfg.params["madness_rounds"] == 3 and len(cfg.params["rule_deck"]) == 25
    assert len(param_vector(cfg)) == N_PARAMS


def test_the_one_study_option_is_laws():
    """The parameter table's one option of the study, not a rule of the game (the source tags of
    every game: tests/test_game_contract.py)."""
    study = [p for p in PARAMS if p.source == "study"]  # DEC-53: the one study option, no printed rule
    assert [(p.name, p.default, p.choices) for p in study] == [("laws", "on", ("on", "off"))]
    assert "study option" in study[0].doc


def test_rule_deck_subset_and_empty():
    cfg = GAME.make_config(overrides={"rule_deck": "21,07"})
    assert cfg.params["rule_deck"] == ("07", "21")
    cfg = GAME.make_config(overrides={"rule_deck": ""})
    t = GAME.run_batch(cfg, 0, 3, "reference")
    assert (t["games"]["laws_mask"] == 0).all()


def test_bench_config():
    cfg = GAME.bench_config()
    assert cfg.players == 4 and cfg.params["rounds"] == 1 and cfg.params["rule_deck"] == ()
    assert GAME.unit == "rounds"


def test_full_game_bench_config_is_the_default_game():
    """bench's full game: normal mode, 5 rounds, the whole 25-card rule deck, 4 players (§2.2, §1.1)."""
    cfg = GAME.full_game_bench_config()
    p = cfg.params
    assert cfg.players == 4 and p["mode"] == "normal" and p["rounds"] == 5 and len(p["rule_deck"]) == 25
    assert cfg.bots == GAME.make_config(players=4).bots


def test_bench_json_has_full_game_keys():
    from tests.test_cli import cardlab

    res = cardlab("bench", "daifugo", "--games", 200, "--reference-games", 10, "--repeat", 1, "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    for key in ("fast_games_per_s", "reference_games_per_s", "ratio",
                "full_game_games_per_s", "full_game_reference_games_per_s", "full_game_ratio"):
        assert out[key] > 0, key
    assert out["compile_s"] >= 0  # a load from the numba cache can take under the 0.01 s it is rounded to


def test_replay_matches_batch():
    cfg = GAME.make_config(seed=9, overrides={"mode": "madness", "rule_deck": "07,09,14,15,19,21"})
    lines, tables = GAME.replay(cfg, 4)
    batch = GAME.run_batch(cfg, 4, 1, "fast")
    for name in GAME.tables:
        assert tables[name].equals(batch[name])
    assert any("drafts precept" in x for x in lines)
