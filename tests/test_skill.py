"""The skill ladder: ratings recovered on a synthetic ladder with known strengths, the skill
index on the toy game with a known answer (the better player always wins; a coin decides),
and the ``cardlab ladder`` command end to end."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.skill import Ladder, ladder_summary, ratings, skill_index, win_share
from tests.test_cli import cardlab, one_line_error

TRUE_THETA = np.array([0.0, 0.8, 1.3, 2.1])  # log-strengths of players A..D
PLAYERS = ["A", "B", "C", "D"]
SEATS = 4


def synthetic_pairing(rng, challenger: int, opponent: int, games: int) -> pd.DataFrame:
    """Games of one challenger seat against three opponent seats, the winner drawn from the
    Plackett-Luce model with TRUE_THETA: share counts (c, t, n) as a ladder run gives them."""
    pc, po = np.exp(TRUE_THETA[challenger]), np.exp(TRUE_THETA[opponent])
    wins = rng.binomial(games, pc / (pc + (SEATS - 1) * po))
    return pd.DataFrame({"c": [0.0, 1.0], "t": [1.0, 1.0], "n": [games - wins, wins]})


def test_ratings_recover_known_strengths():
    """Each player against B, and D against A: the fitted log-strengths are the true ones
    (within 0.08), each 95% interval holds the true value, and the order is the true order."""
    rng = np.random.default_rng(11)
    plan = [(0, 1), (2, 1), (3, 1), (3, 0)]
    data = [(PLAYERS[c], PLAYERS[o], synthetic_pairing(rng, c, o, 20_000)) for c, o in plan]
    r = ratings(PLAYERS, data, SEATS, draws=200)
    assert np.abs(r.theta - TRUE_THETA).max() < 0.08
    table = r.table()
    elo = TRUE_THETA * 400 / np.log(10)
    assert ((table["lo"] <= elo + 1e-9) & (elo - 1e-9 <= table["hi"])).all(), table
    assert list(np.argsort(r.theta)) == [0, 1, 2, 3]
    p, lo, hi = r.head_to_head(3, 0)
    assert lo < 1 / (1 + np.exp(-2.1)) < hi and abs(p - 1 / (1 + np.exp(-2.1))) < 0.02


def test_a_player_that_never_loses_keeps_a_finite_rating():
    data = [("A", "B", pd.DataFrame({"c": [1.0], "t": [1.0], "n": [500]}))]
    r = ratings(["A", "B"], data, 2, draws=20)
    assert np.isfinite(r.theta).all() and r.theta[0] > r.theta[1] + 3


def test_skill_index_maps_the_equal_share_to_0_and_always_winning_to_1():
    assert skill_index(1.0, 1.0, 1.0, 4) == (1.0, 1.0, 1.0)
    assert skill_index(0.25, 0.2, 0.3, 4) == pytest.approx((0.0, -1 / 15, 1 / 15))
    assert win_share(pd.DataFrame({"c": [0.0, 0.5, 1.0], "t": [1.0, 1.0, 1.0], "n": [2, 2, 4]}))[:1] == (5 / 8,)


def _ladder(tmp_path, bonus: int, games: int = 3000):
    res = cardlab("ladder", "toy", "--rungs", "plain,lucky", "--games", games, "--players", 3, "--seed", 3,
                  "--set", f"lucky_bonus={bonus}", "--out", tmp_path / "ladder")
    assert res.returncode == 0, res.stderr
    return res, ladder_summary(Ladder.open(tmp_path / "ladder"))


def test_skill_index_is_1_when_the_better_player_always_wins(tmp_path):
    """lucky_bonus 13: the lucky seat's card beats every plain card, every game."""
    res, summary = _ladder(tmp_path, 13)
    sk = summary["skill"]
    assert (sk["share"], sk["index"], sk["upset"], sk["games"]) == (1.0, 1.0, 0.0, 3000)
    assert "skill index 1.000" in res.stdout
    assert summary["ratings"].theta[1] > summary["ratings"].theta[0] + 3


def test_skill_index_is_0_when_a_coin_decides(tmp_path):
    """lucky_bonus 0: both bots draw alike, so the index's interval holds 0 and is narrow."""
    _, summary = _ladder(tmp_path, 0)
    sk = summary["skill"]
    assert sk["index_lo"] < 0 < sk["index_hi"] and sk["index_hi"] - sk["index_lo"] < 0.07
    assert abs(summary["ratings"].theta[1]) < 0.1


def test_ladder_resumes_refuses_another_ladder_and_reports(tmp_path):
    _ladder(tmp_path, 2, games=600)
    again, _ = _ladder(tmp_path, 2, games=600)  # the same command: every pairing is kept
    assert "lucky-vs-plain: 600 games" in again.stdout
    other = cardlab("ladder", "toy", "--rungs", "lucky,plain", "--games", 600, "--players", 3, "--seed", 3,
                    "--set", "lucky_bonus=2", "--out", tmp_path / "ladder")
    assert "holds another ladder" in one_line_error(other)
    res = cardlab("report", tmp_path / "ladder", "--out", tmp_path / "report")
    assert res.returncode == 0, res.stderr
    html = (tmp_path / "report" / "report.html").read_text()
    assert "Skill index" in html and "Ratings" in html and "Bradley-Terry" in html


@pytest.mark.parametrize("args, message", [
    (["--rungs", "plain,wizard"], "unknown player 'wizard'"),
    (["--rungs", "plain,plain"], "more than once"),
    (["--rungs", "plain,lucky@4"], "only the search bot takes a budget"),
    (["--rungs", "plain"], "at least two players"),
    (["--rungs", "plain,lucky", "--reference", "plain@2"], "only the search bot takes a budget"),
    (["--rungs", "plain,lucky", "--games", 0], "fewer than the ladder's 1 pairings"),
    (["--rungs", "plain,lucky", "--precision", -1], "--precision must be a positive number"),
    (["--budgets", "8,x"], "--budgets '8,x'"),
])
def test_bad_ladder_input_is_one_line(tmp_path, args, message):
    res = cardlab("ladder", "toy", *args, "--out", tmp_path / "l")
    assert message in one_line_error(res)
    assert not (tmp_path / "l" / "ladder.json").exists()


def test_sweep_with_a_pairing_shows_the_skill_index_move(tmp_path):
    """``cardlab sweep --pairing``: the challenger's skill index per value (lucky_bonus 13: 1)."""
    from analysis.sweep import Sweep, metrics

    res = cardlab("sweep", "toy", "--param", "lucky_bonus", "--values", "0,13", "--pairing", "lucky,plain",
                  "--games", 1500, "--players", 3, "--out", tmp_path / "sw")
    assert res.returncode == 0, res.stderr
    sweep = Sweep.open(tmp_path / "sw")
    assert [r.config.bots for r in sweep.runs] == [("lucky", "plain", "plain")] * 2
    rows = metrics(sweep).query("group == 'Skill index'").set_index("value")
    assert rows.loc["13", "estimate"] == 1.0 and rows.loc["0", "lo"] < 0 < rows.loc["0", "hi"]
    assert "the challenger and the opponent must be different bots" in one_line_error(
        cardlab("sweep", "toy", "--param", "lucky_bonus", "--values", "0", "--pairing", "plain,plain",
                "--out", tmp_path / "x"))
    assert "leave --bots out" in one_line_error(
        cardlab("sweep", "toy", "--param", "lucky_bonus", "--values", "0", "--pairing", "lucky,plain",
                "--bots", "plain", "--out", tmp_path / "y"))


def test_precision_stops_each_pairing_at_its_half_width(tmp_path):
    res = cardlab("ladder", "toy", "--rungs", "plain,lucky", "--games", 20000, "--precision", 0.02,
                  "--set", "lucky_bonus=2", "--out", tmp_path / "l")
    assert res.returncode == 0, res.stderr
    import json

    stopping = json.loads((tmp_path / "l" / "lucky-vs-plain" / "run.json").read_text())["stopping"]
    assert stopping["metric"] == "bot_win:lucky" and stopping["reason"] == "precision reached"
    assert stopping["half_width"] <= 0.02 and stopping["games"] < 20000


def test_plan_every_player_against_the_reference_and_the_top_against_the_bottom():
    from sim.run.ladder import Player as P, plan

    names = lambda players, ref: [p.name for p in plan(players, ref)]  # noqa: E731
    assert names([P("random"), P("cautious"), P("search", 64)], P("cautious")) == [
        "random-vs-cautious", "search@64-vs-cautious", "search@64-vs-random"]
    assert names([P("random"), P("cautious")], P("cautious")) == ["random-vs-cautious", "cautious-vs-random"]
    assert names([P("search", 16), P("cautious"), P("search", 64)], P("cautious")) == [
        "search@16-vs-cautious", "search@64-vs-cautious"]  # two search budgets never share a table


def _summary(index_ref, lo, hi, share_lo=None):
    """A 4-player ladder's skill summary whose top rung has index ``index_ref`` [lo, hi] against
    the reference; ``share_lo``: its win share's 95% lower bound there (from the index by default)."""
    to_share = lambda v: 0.25 + 0.75 * v  # noqa: E731
    return {"top": "search@8", "played": "search@8", "bottom": "random", "reference": "cautious", "index": 0.27,
            "index_lo": 0.22, "index_hi": 0.32, "share": 0.45, "equal": 0.25, "rating": 300.0,
            "index_ref": index_ref, "index_ref_lo": lo, "index_ref_hi": hi, "share_ref": to_share(index_ref),
            "share_ref_lo": to_share(lo) if share_lo is None else share_lo, "share_ref_hi": to_share(hi),
            "above_ref": (40.0, 10.0, 70.0)}


def test_a_top_player_weaker_than_the_reference_measures_no_skill():
    from analysis.skill import _skill_mark, _skill_sentence

    weaker = _summary(-0.12, -0.16, -0.08)
    assert _skill_mark(weaker) == "amber"
    assert "not measured" in _skill_sentence(weaker) and "mostly luck" not in _skill_sentence(weaker)
    assert "plays worse than the reference" in _skill_sentence(weaker)
    assert _skill_mark(_summary(0.16, 0.12, 0.20)) == "amber"
    assert _skill_mark(_summary(0.35, 0.31, 0.39)) == "green"


def test_mostly_luck_only_when_the_top_rung_is_well_above_the_reference():
    """The top rung barely above the reference (44 Elo, as daifugo's learned bot over greedy:
    share 0.325 [0.30, 0.35], index 0.0997) measures a lower bound, not luck; only a top rung whose
    share's lower bound is 10 points above the equal share, and still gains little, makes the game
    mostly luck."""
    from analysis.skill import _skill_mark, _skill_sentence

    barely = _summary(0.0997, 0.0667, 0.1333)  # share 0.325 [0.30, 0.35]: lower bound under 0.35
    assert _skill_mark(barely) == "amber"
    assert "mostly luck" not in _skill_sentence(barely) and "is not well above the reference" in _skill_sentence(barely)
    assert "search@8 (rated +40 [+10, +70] against cautious)" in _skill_sentence(barely)
    strong = _summary(0.08, 0.07, 0.09, share_lo=0.35)  # lower bound exactly 10 points above 0.25
    assert _skill_mark(strong) == "red" and "mostly luck" in _skill_sentence(strong)
    assert "a lower bound set by that player" in _skill_sentence(strong)


def test_rungs_in_rating_order_and_the_top_rung_is_the_highest_rated(tmp_path):
    """Rungs listed lucky,plain (the better player first): the rungs table puts plain first,
    the top rung is lucky, and the index against the bottom names the player that played it."""
    res = cardlab("ladder", "toy", "--rungs", "lucky,plain", "--reference", "plain", "--games", 1200, "--players", 3,
                  "--seed", 3, "--set", "lucky_bonus=13", "--out", tmp_path / "ladder")
    assert res.returncode == 0, res.stderr
    summary = ladder_summary(Ladder.open(tmp_path / "ladder"))
    assert list(summary["rungs"]["player"]) == ["plain", "lucky"]
    sk = summary["skill"]
    assert (sk["top"], sk["played"], sk["bottom"]) == ("lucky", "plain", "lucky")
    assert sk["share_ref"] == 1.0 and sk["index_ref"] == 1.0
