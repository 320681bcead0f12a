"""Metric counts and intervals on hand-made batches (exact counts; statsmodels intervals)."""

import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from sim.config import ConfigError
from sim.metrics import add, count_tables, resolve, sample_columns


def frames(wins):
    """Two-player toy frames: ``wins[g]`` = (seat 0 won, seat 1 won)."""
    n = len(wins)
    games = pd.DataFrame({"game": range(n), "winner": [0 if a else 1 for a, _ in wins],
                          "n_winners": [a + b for a, b in wins], "turns": [1 + g % 3 for g in range(n)]})
    seats = pd.DataFrame({"game": [g for g in range(n) for _ in (0, 1)], "seat": [0, 1] * n,
                          "bot": ["plain", "lucky"] * n, "win": [w for pair in wins for w in pair]})
    return {"games": games, "seats": seats}


def test_counts_add_up_and_metrics_match_the_rows(toy):
    cfg = toy.make_config(players=2, bots=["plain", "lucky"])
    cols = sample_columns(toy, cfg)
    a = count_tables(toy, frames([(True, False), (True, True), (False, True)]))
    b = count_tables(toy, frames([(True, False)] * 5))
    c = add(a, b)
    assert c["games"] == 8 and c["seat_win/0"] == 7 and c["seat_win/1"] == 2 and c["nonzero/n_winners"] == 8
    seat0 = resolve("seat_win:0", toy, cfg, cols).value(c)
    lo, hi = proportion_confint(7, 8, method="wilson")
    assert seat0.value == 7 / 8 and seat0.lo == pytest.approx(lo) and seat0.hi == pytest.approx(hi)
    spread = resolve("seat_spread", toy, cfg, cols).value(c)
    assert spread.value == pytest.approx(5 / 8) and spread.lo < 5 / 8 < spread.hi
    turns = [1, 2, 3, 1, 2, 3, 1, 2]
    mean = resolve("mean_turns", toy, cfg, cols).value(c)
    assert mean.value == pytest.approx(sum(turns) / 8) and mean.lo < mean.value < mean.hi
    assert resolve("bot_win:lucky", toy, cfg, cols).value(c).value == 2 / 8
    assert set(resolve("seat_win", toy, cfg, cols).estimates(c)) == {"seat_win:0", "seat_win:1"}


@pytest.mark.parametrize("name, msg", [("rate:nope", "no column 'nope'"), ("seat_win:7", "integer in"),
                                       ("bot_win:ghost", "not at the table"), ("precept_advantage", "unknown metric")])
def test_bad_metric_names(toy, name, msg):
    cfg = toy.make_config(players=2)
    with pytest.raises(ConfigError, match=msg):
        resolve(name, toy, cfg, sample_columns(toy, cfg))
