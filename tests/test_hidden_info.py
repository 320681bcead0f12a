"""What hidden information is worth (``analysis.hidden_info``): the skill ratio and its bootstrap
on synthetic numbers with a known answer, an all-seeing run kept out of the design findings, and
the "Hidden information" section of a ladder part (toy game with stand-in search bots)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis import eligibility as E
from analysis import hidden_info as H
from sim.run.ladder import Player, plan
from sim.run.stats import ratio_interval, share_draws, skill_ratio
from tests.test_cli import cardlab

TOY = "toy=tests.toy_game,toy-search=tests.toy_search_game"


def test_skill_ratio_known_answers():
    """(G_m - G_0) / (G_u - G_0): half way, all the way, none of it; undefined when G_u = G_0."""
    assert float(skill_ratio(0.1, 0.3, 0.5)) == pytest.approx(0.5)
    assert float(skill_ratio(0.1, 0.5, 0.5)) == pytest.approx(1.0)
    assert float(skill_ratio(0.1, 0.1, 0.5)) == pytest.approx(0.0)
    assert np.isnan(skill_ratio(0.2, 0.3, 0.2))
    assert skill_ratio([0.0, 0.1], [0.5, 0.2], [1.0, 0.5]) == pytest.approx([0.5, 0.25])


def test_the_ratio_interval_covers_the_known_ratio_and_narrows_with_games():
    """Win shares 0.1, 0.3 and 0.5 over n games each: the bootstrap ratio's interval holds 0.5,
    and is about half as wide with four times the games."""
    widths = []
    for n in (2000, 8000):
        draws = [share_draws([0.0, 1.0], [n - k, k], 2000, seed) for seed, k in enumerate((n // 10, 3 * n // 10, n // 2))]
        est = float(skill_ratio(0.1, 0.3, 0.5))
        out = ratio_interval(est, skill_ratio(*draws))
        assert out["lo"] < 0.5 < out["hi"] and out["undefined"] == 0.0
        widths.append(out["hi"] - out["lo"])
    assert widths[1] == pytest.approx(widths[0] / 2, rel=0.15)


def test_share_draws_resample_games():
    d = share_draws([0.0, 0.5, 1.0], [500, 0, 500], 4000, 1)
    assert d.mean() == pytest.approx(0.5, abs=0.002) and d.std() == pytest.approx(0.5 / np.sqrt(1000), rel=0.1)


def test_the_skill_index_top_rung_is_never_the_all_seeing_one():
    """The ladder's top-against-bottom pairing takes the strongest honest rung."""
    rungs = [Player("random"), Player("plain"), Player("search", 8), Player("seeing", 8)]
    pairings = plan(rungs, Player("plain"))
    assert [p.name for p in pairings] == ["random-vs-plain", "search@8-vs-plain", "seeing@8-vs-plain",
                                          "search@8-vs-random"]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    d = tmp_path_factory.mktemp("hidden")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDLAB_GAMES", TOY)
        res = cardlab("simulate", "toy-search", "--games", 2000, "--bots", "seeing,plain", "--seed", 4, "--players", 2,
                      "-q", "--out", d / "seeing")
        assert res.returncode == 0, res.stderr
        res = cardlab("ladder", "toy-search", "--rungs", "random,plain,search@8,seeing@8", "--reference", "plain",
                      "--games", 4000, "--seed", 4, "--players", 2, "--set", "lucky_bonus=2", "--out", d / "ladder")
        assert res.returncode == 0, res.stderr
        yield d


@pytest.fixture(autouse=True)
def toy_games(monkeypatch):
    monkeypatch.setenv("CARDLAB_GAMES", TOY)


def test_an_all_seeing_run_is_marked_and_kept_out_of_the_design_findings(made):
    from analysis.load import Run
    from reports.build import report_parts

    assert json.loads((made / "seeing" / "run.json").read_text())["all_seeing"] is True
    run = Run(made / "seeing")
    s = E.standing("seeing", run, [])
    assert s.all_seeing and not s.eligible and not s.shown_strong and E.SEEING_REASON in s.reasons()
    verdict = dict(report_parts([made / "seeing"]))["Verdict"]
    kept = [sec for sec in verdict if sec.title == E.SEEING_TITLE]
    assert len(kept) == 1 and "all-seeing" in kept[0].items[0][0]
    assert not any(sec.title == E.KEPT_TITLE for sec in verdict)


def test_the_hidden_information_section_renders(made, tmp_path):
    """The ladder part holds the section, its measures table (G_0, G_m, G_u, gain, skill ratios)
    and its definitions; the HTML report shows them."""
    from reports.build import report_parts

    parts = dict(report_parts([made / "ladder"]))
    ladder_part = next(v for k, v in parts.items() if k.startswith("Skill ladder"))
    section = next(s for s in ladder_part if s.title == H.TITLE)
    measures = section.tables[0][1]
    g0, gm, gu = "random bot's win share (G_0)", "honest search's win share (G_m)", "all-seeing search's win share (G_u)"
    assert list(measures["measure"][:4]) == [g0, gm, gu, "gain: all-seeing minus honest search"]
    ratio = measures.set_index("measure").loc["skill ratio (win shares)"]
    g = measures.set_index("measure")["value"]
    expected = (g[gm] - g[g0]) / (g[gu] - g[g0])
    assert ratio["value"] == pytest.approx(expected) and ratio["95% low"] < ratio["value"] < ratio["95% high"]
    assert any(s.title == f"{H.TITLE}: definitions" and "Dreef" in s.text for s in ladder_part)
    res = cardlab("report", made / "ladder", "--out", tmp_path / "r")
    assert res.returncode == 0, res.stderr
    html = (tmp_path / "r" / "report.html").read_text()
    assert ">Hidden information</h2>" in html and "skill ratio" in html


def test_one_reading_from_the_strongest_honest_player():
    """Where the strongest honest player is not the search, the words come from its ratio only
    (the search's ratio is a number without a reading of its own)."""
    row = {"budget": 8, "G_m (search)": 0.158, "G_m lo": 0.13, "G_m hi": 0.19, "G_u (all-seeing)": 0.247,
           "G_u lo": 0.21, "G_u hi": 0.28, "gain": 0.089, "gain lo": 0.043, "gain hi": 0.134, "G_0 (random)": 0.011,
           "skill ratio": 0.62, "ratio lo": 0.46, "ratio hi": 0.75, "strongest honest": "cautious", "G_m best": 0.25,
           "best ratio": 1.01, "best lo": 0.85, "best hi": 1.14}

    class L:
        seats, reference = 4, "cautious"

    text = H._budget_sentence(L, row)
    assert "the hidden cards matter little" in text and "what the opponents hide matters" not in text
    assert "the search's skill ratio is 0.62 [0.46, 0.75]." in text
