"""The lever search of ``cardlab suggest`` (``sim.run.tuner.prescribe``, ``cardlab.advice``) on a
constructed game whose levers have known effects (``tests.toy_levers``): seat 0's bonus of 3
makes seat order the red line; ``lead_bonus=0`` evens it (found), ``coin_ends`` evens it halfway
by sending half the games to the turn cap (rejected for that side effect)."""

import json
from pathlib import Path

import pytest

from analysis.load import Run
from cardlab import advice, api
from sim.kit.config import ConfigError, Table
from sim.games import get_game
from sim.run.runner import RunOptions
from sim.run.tuner.prescribe import Sizes, holds_for, search, singles


@pytest.fixture
def lever_game(monkeypatch):
    import os

    monkeypatch.setenv("CARDLAB_GAMES", os.environ.get("CARDLAB_GAMES", "") + ",toy-levers=tests.toy_levers")
    return get_game("toy-levers")


@pytest.fixture
def source(lever_game, tmp_path):
    cfg = lever_game.make_config(seed=3)
    api.simulate("toy-levers", 4000, tmp_path / "run", Table(seed=3), RunOptions(progress=False))
    return Run(tmp_path / "run"), cfg


def test_singles_are_every_lever_value_that_names_the_line_smallest_change_first(lever_game):
    cfg = lever_game.make_config()
    assert singles(lever_game, lever_game.levers, cfg, "seat_spread") == [
        {"coin_ends": True}, {"lead_bonus": 2}, {"lead_bonus": 1}, {"lead_bonus": 0}]
    assert singles(lever_game, lever_game.levers, cfg, "rate:turn_cap") == []


def test_the_search_finds_the_lever_that_evens_the_seats_and_rejects_the_harmful_one(lever_game, source, tmp_path):
    run, cfg = source
    lines = lever_game.rule_lines(cfg)
    found = search(lever_game, lever_game.levers, run.config, lines[0], lines, tmp_path / "adv", Sizes(3000, 6000, 1))
    assert found["status"] == "prescribed"
    assert found["set"] == {"lead_bonus": 0}  # the known lever; the coin is nearer but sends games to the cap
    coin = next(t for t in found["tried"] if t["set"] == {"coin_ends": True})
    assert coin["other_lines"] == "breaks"
    assert found["before"]["value"] > 0.2 and found["after"]["value"] <= 0.05  # seat 0: +3 on 0..12 against even
    assert found["change"]["hi"] < 0
    cap = next(s for s in found["side_effects"] if s["line"] == "rate:turn_cap")
    assert cap["before"]["value"] == 0 and cap["after"]["value"] == 0 and not cap["harmful"]
    pops = found["populations"]
    assert list(pops) == ["the run's bots (plain, plain, plain)"]  # the game has no strong bot
    assert found["holds_for"] == "all"


def test_a_lever_whose_only_effect_is_harmful_is_never_prescribed(lever_game, source, tmp_path):
    run, cfg = source
    lines = lever_game.rule_lines(cfg)
    only_coin = (lever_game.levers[0],)
    found = search(lever_game, only_coin, run.config, lines[0], lines, tmp_path / "adv", Sizes(3000, 6000, 1))
    assert found["status"] == "none"
    assert found["reason"] == "every lever moves another line out of its band"


def test_suggest_writes_the_advice_and_a_rerun_resumes_to_the_same_advice(lever_game, source, tmp_path):
    run, _ = source
    first = advice.suggest(run, tmp_path / "adv", 6000, 1)
    path = advice.write(first, tmp_path / "adv")
    again = advice.suggest(run, tmp_path / "adv", 6000, 1)
    assert json.loads(path.read_text()) == advice.plain(again)  # strict JSON, the same advice
    assert "Infinity" not in path.read_text() and json.loads(path.read_text())["prescriptions"][0]["band"][0] is None
    (p,) = first["prescriptions"]
    assert (p["game"], p["line"], p["set"]) == ("toy-levers", "seat_spread", {"lead_bonus": 0})
    assert {"before", "after", "populations", "side_effects"} <= p.keys()
    assert [s["status"] for s in first["lines"]] == ["out", "in"]


def test_the_prescription_replayed_with_its_set_on_a_new_seed_lands_in_its_interval(lever_game, source, tmp_path):
    run, _ = source
    (p,) = advice.suggest(run, tmp_path / "adv", 6000, 1)["prescriptions"]
    sets = [f"{k}={v}" for k, v in p["set"].items()]
    api.simulate("toy-levers", 6000, tmp_path / "replay", Table(seed=99, params=sets), RunOptions(progress=False))
    replay = advice.line_states(Run(tmp_path / "replay"), get_game("toy-levers").rule_lines(run.config))[0]
    assert replay["status"] == "in"
    assert p["after"]["lo"] - 0.02 <= replay["value"] <= p["after"]["hi"] + 0.02


def test_suggest_refuses_to_write_into_a_run_and_names_bad_lines_and_levers(lever_game, source, tmp_path):
    run, _ = source
    before = sorted(p.name for p in Path(run.path).iterdir())
    for out in (run.path, run.path / "sub"):
        with pytest.raises(ConfigError, match="is (inside )?a run directory"):
            advice.suggest(run, out, 100, 1)
    assert sorted(p.name for p in Path(run.path).iterdir()) == before  # nothing written into the run
    with pytest.raises(ConfigError, match="unknown line .seat_order. for this toy-levers run; lines: seat_spread, rate:turn_cap"):
        advice.suggest(run, tmp_path / "a", 100, 1, advice.Scope(lines=("seat_order",)))
    with pytest.raises(ConfigError, match="lead_bonus=7 is outside the lever's range"):
        advice.suggest(run, tmp_path / "a", 100, 1, advice.Scope(levers=("lead_bonus=7",)))
    with pytest.raises(ConfigError, match="n_bat is no lever of toy-levers"):
        advice.suggest(run, tmp_path / "a", 100, 1, advice.Scope(levers=("n_bat",)))


def test_holds_for_says_which_populations_a_change_helps():
    better = {"better": True, "worse": False}
    same = {"better": False, "worse": False}
    worse = {"better": False, "worse": True}
    assert holds_for({"a": better, "b": better}) == "all"
    assert holds_for({"a": better, "b": same}) == "some"
    assert holds_for({"a": better, "b": worse}) == "disagree"
    assert holds_for({"a": same}) == "none"


def test_a_side_line_out_of_its_band_already_is_harmed_only_by_a_practical_worsening(lever_game):
    """Shared wins (band 5%) at 17%: +0.7 points is no veto; +2 points beyond noise is; a line in its
    band pushed out beyond noise is harmed whatever the size."""
    from sim.kit.levers import Line
    from sim.run.tuner.prescribe import side_effect

    cfg = lever_game.make_config()
    line = Line("rate:turn_cap", "the cap", hi=0.05)
    cols = {"games": ["game", "turn_cap"], "seats": ["game", "seat", "bot", "win"], "dtypes": {"turn_cap": "bool"}}

    def counts(capped):
        return {"games": 100_000, "nonzero/turn_cap": capped}

    assert not side_effect(lever_game, cfg, cols, line, counts(17_800), counts(17_100))["harmful"]
    assert side_effect(lever_game, cfg, cols, line, counts(19_100), counts(17_100))["harmful"]
    assert side_effect(lever_game, cfg, cols, line, counts(5_600), counts(4_800))["harmful"]  # 4.8% -> 5.6%: left
