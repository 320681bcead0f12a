"""Metric counts and intervals on hand-made batches (exact counts; statsmodels intervals)."""

import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from sim.kit.config import ConfigError
from sim.run.metrics import add, count_tables, resolve, sample_columns


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
    spread = resolve("seat_spread_raw", toy, cfg, cols).value(c)
    assert spread.value == pytest.approx(5 / 8) and spread.lo < 5 / 8 < spread.hi
    # games 0-1-2 and five of game 0: both seats won only game 1, so the win product sums to 1
    assert c["seat_cross/0/1"] == 1 and c["seat_cross/0/0"] == 7 and c["bot_cross/lucky/plain"] == 1
    beyond = resolve("seat_spread", toy, cfg, cols).value(c)
    assert beyond.value < spread.value and beyond.lo < beyond.value < beyond.hi
    turns = [1, 2, 3, 1, 2, 3, 1, 2]
    mean = resolve("mean_turns", toy, cfg, cols).value(c)
    assert mean.value == pytest.approx(sum(turns) / 8) and mean.lo < mean.value < mean.hi
    assert resolve("bot_win:lucky", toy, cfg, cols).value(c).value == 2 / 8
    assert set(resolve("seat_win", toy, cfg, cols).estimates(c)) == {"seat_win:0", "seat_win:1"}
    shared = resolve("shared_wins", toy, cfg, cols).value(c)  # only game 1 of the eight has two winners
    assert c["shared_games"] == 1 and shared.value == 1 / 8 and shared.lo < 1 / 8 < shared.hi


@pytest.mark.parametrize("name, msg", [("rate:nope", "no column 'nope'"), ("seat_win:7", "integer in"),
                                       ("bot_win:ghost", "not at the table"), ("precept_advantage", "unknown metric")])
def test_bad_metric_names(toy, name, msg):
    cfg = toy.make_config(players=2)
    with pytest.raises(ConfigError, match=msg):
        resolve(name, toy, cfg, sample_columns(toy, cfg))


def equal_seat_counts(rng, n, k=4):
    """Counts of ``n`` games of ``k`` equal seats with one winner each (multinomial)."""
    win = rng.multinomial(n, [1 / k] * k)
    c = {"games": n, **{f"seat_win/{s}": int(win[s]) for s in range(k)}}
    c.update({f"seat_cross/{i}/{j}": float(win[i] if i == j else 0) for i in range(k) for j in range(i, k)})
    return c


def test_seat_spread_beyond_chance_is_unbiased_for_equal_seats_while_the_raw_one_shrinks(toy):
    import numpy as np

    cfg = toy.make_config(players=4, bots=["plain"] * 4)
    cols = sample_columns(toy, cfg)
    beyond, raw = resolve("seat_spread", toy, cfg, cols), resolve("seat_spread_raw", toy, cfg, cols)
    rng = np.random.default_rng(1)
    raw_means = []
    for n in (200, 2000, 20000):
        reps = [equal_seat_counts(rng, n) for _ in range(200)]
        b = np.array([beyond.value(c).value for c in reps])
        r = np.array([raw.value(c).value for c in reps])
        raw_means.append(r.mean())
        # chance alone gives a raw spread of about 2.06 sd of one seat's rate (4 seats, one winner)
        assert abs(b.mean()) < 4 * b.std() / np.sqrt(len(b)) + 0.02 * r.mean(), n
        assert r.mean() > 10 * abs(b.mean())
    assert raw_means[0] > 2.5 * raw_means[1] > 6 * raw_means[2]
    c = reps[0]
    assert beyond.value(c) == beyond.value(c)  # seeded: the same counts give the same interval


def test_spread_difference_and_bot_spread(toy):
    cfg = toy.make_config(players=2, bots=["plain", "lucky"])
    cols = sample_columns(toy, cfg)
    fair = count_tables(toy, frames([(True, False), (False, True)] * 200))
    unfair = count_tables(toy, frames([(True, False)] * 300 + [(False, True)] * 100))
    for name in ("seat_spread", "bot_spread"):
        m = resolve(name, toy, cfg, cols)
        assert abs(m.value(fair).value) < 0.1 and m.value(unfair).value > 0.4
        d = m.difference(unfair, fair)[name]
        assert d.lo > 0.3 and d.p < 0.001
    d = resolve("mean_turns", toy, cfg, cols).difference(fair, fair)["mean_turns"]
    assert d.value == 0 and d.p == 1
    w = resolve("seat_win:0", toy, cfg, cols).difference(unfair, fair)["seat_win:0"]
    assert w.value == pytest.approx(0.25) and w.lo < 0.25 < w.hi and w.p < 0.001
    with pytest.raises(ConfigError, match="two or more different bots"):
        resolve("bot_spread", toy, toy.make_config(players=2, bots=["plain", "plain"]), cols)
