"""Which runs carry the design findings and the verdict (``analysis.eligibility``): a small
scripted run and a tiny search run of a toy game with a stand-in search bot
(``tests.toy_search_game``), with and without a skill ladder that rates the search player."""

from __future__ import annotations

import pytest
from scipy.stats import norm

from analysis import eligibility as E
from sim.run.stats import rate_difference
from tests.test_cli import cardlab

SCRIPTED = "High card, lucky bonus 3, 2 players, plain bots"  # run titles in words (``analysis.glossary.run_title``)
SEARCH = "High card, lucky bonus 3, 2 players, search bots"
NOT_RATED = "not rated (no skill ladder of this game in the report)"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """scripted: plain x2, 2,000 games; tiny: search x2 at budget 8, 300 games; strong: the same
    at 2,000 games; other-budget: search x2 at budget 4, 2,000 games; ladder: search@8 against
    plain. The same seed and rules (lucky_bonus 3: the search seat's card gets 3) in every run."""
    d = tmp_path_factory.mktemp("eligibility")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDLAB_GAMES", "toy=tests.toy_game,toy-search=tests.toy_search_game")
        common = ["--seed", 4, "--players", 2, "--set", "lucky_bonus=3", "-q"]
        for name, games, bots, budget in (("scripted", 2000, "plain,plain", None), ("tiny", 300, "search,search", 8),
                                          ("strong", 2000, "search,search", 8),
                                          ("other-budget", 2000, "search,search", 4)):
            extra = ["--set", f"bot.search.budget={budget}"] if budget else []
            res = cardlab("simulate", "toy-search", "--games", games, "--bots", bots, *common, *extra, "--out", d / name)
            assert res.returncode == 0, res.stderr
        res = cardlab("ladder", "toy-search", "--rungs", "plain,search@8", "--reference", "plain", "--games", 2000,
                      "--seed", 4, "--players", 2, "--set", "lucky_bonus=3", "--out", d / "ladder")
        assert res.returncode == 0, res.stderr
        yield d


@pytest.fixture(autouse=True)
def toy_search_game(monkeypatch):
    monkeypatch.setenv("CARDLAB_GAMES", "toy=tests.toy_game,toy-search=tests.toy_search_game")


def parts_of(*args, **kw) -> dict:
    from reports.build import report_parts

    return dict(report_parts(*args, **kw))


def test_the_game_threshold_is_what_its_docstring_says():
    """2,000 games at an even four-seat table: a seat's advantage to about +-2.2 points, and an
    effect of three points found about three times in four."""
    n = E.MIN_DESIGN_GAMES
    d = rate_difference(n // 4, n, 3 * n // 4, 3 * n)
    assert d["hi"] - d["diff"] == pytest.approx(0.022, abs=0.001)
    se = (d["hi"] - d["lo"]) / (2 * 1.959964)
    assert norm.cdf(0.03 / se - 1.959964) == pytest.approx(0.76, abs=0.02)


def test_a_tiny_search_run_carries_no_finding_and_no_verdict(runs):
    parts = parts_of([runs / "scripted", runs / "tiny"])
    verdict = [s.title for s in parts["Verdict"]]
    assert verdict == ["How to read the verdict", SCRIPTED, f"{SCRIPTED}: bots and engine", E.KEPT_TITLE]
    (kept,) = parts["Verdict"][-1].items
    assert kept == (f"tiny: search x2 at budget 8, 300 games, {NOT_RATED}. Kept out: 300 games are fewer than the "
                    "2,000 that design findings need; its search player is not shown stronger than the game's "
                    "scripted reference.", (SEARCH, ""))
    tested = parts["Appendix"][0].tables[-1][1]
    assert set(tested["run"]) == {SCRIPTED}  # not one test of the tiny run joins the findings
    assert all(target[0] != SEARCH for s in parts["Findings"] for _, target in s.items)
    assert parts[SEARCH][0].title == "Kept out of the design findings"  # its part stays, as measurements


def test_a_tiny_search_run_of_a_robustness_pair_is_a_smoke_test_only(runs):
    parts = parts_of([runs / "scripted", runs / "tiny"], robustness=(runs / "tiny", runs / "scripted"))
    title = f"Robustness smoke test: search x2 at budget 8, 300 games, {NOT_RATED}"
    assert title in parts and SEARCH not in parts
    assert [s.title for s in parts["Verdict"]][-1] != E.KEPT_TITLE  # shown in the robustness part, not listed
    level, text = parts[title][0].marks[0]
    assert level == "amber" and text.startswith(
        "A smoke test of the robustness machinery, not evidence: 300 games are fewer than the 2,000 that design "
        "findings need; its search player is not shown stronger than the game's scripted reference.")
    assert all(lv != "red" for s in parts[title] for lv, _ in s.marks)


def test_a_search_run_the_ladder_rates_stronger_carries_findings(runs):
    parts = parts_of([runs / "ladder", runs / "strong", runs / "scripted", runs / "other-budget"],
                     robustness=(runs / "strong", runs / "scripted"))
    title = next(t for t in parts if t.startswith("Robustness"))
    assert title.startswith("Robustness under strong play: search x2 at budget 8, 2,000 games, rated ")
    assert "Elo above plain (95% interval +" in title and title.endswith("; skill ladder ladder)")
    assert not parts[title][0].marks[0][1].startswith("A smoke test")
    verdict = [s.title for s in parts["Verdict"]]
    assert f"{SEARCH}: strong" in verdict and SCRIPTED in verdict and f"{SEARCH}: other-budget" not in verdict
    kept = parts["Verdict"][-1]
    assert kept.title == E.KEPT_TITLE and [t for t, _ in kept.items] == [
        "other-budget: search x2 at budget 4, 2,000 games, not rated (the skill ladder ladder has no search@4 rung). "
        "Kept out: its search player is not shown stronger than the game's scripted reference."]


def test_a_scripted_run_needs_only_enough_games():
    from types import SimpleNamespace

    from sim.kit.config import RunConfig

    def run(games: int):
        cfg = RunConfig("toy-search", 2, ("plain", "lucky"), 4)
        return SimpleNamespace(games_done=games, config=cfg, path=None)

    small, enough = E.standing("small", run(300), []), E.standing("enough", run(2000), [])
    assert (small.eligible, enough.eligible) == (False, True)
    assert small.reasons() == "300 games are fewer than the 2,000 that design findings need" and enough.reasons() == ""
    assert enough.strength.text == NOT_RATED and enough.headline() == f"plain, lucky, 2,000 games, {NOT_RATED}"
