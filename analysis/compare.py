"""Compare runs: two configurations with significance tests, or a parameter sweep's metrics.

Every number comes from one aggregating DuckDB query per run (counts, sums, moments); the
tests run on those aggregates (statsmodels two-proportion z-test, scipy Welch t-test).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from analysis import queries
from analysis.load import Run
from analysis.stats import compare_rates
from sim.config import ConfigError


def flag_columns(run: Run) -> list[str]:
    """The boolean per-game columns of a run's ``games`` table, in table order."""
    return [c for c, t in run.columns("games").items() if t == "BOOLEAN"]


def games_aggregates(run: Run, flags: list[str]) -> dict:
    """Game count, flag counts and the length column's mean and variance, in one query."""
    col = run.game.length_column
    parts = [f'sum("{c}"::BIGINT) AS "{c}"' for c in flags]
    return queries.one(run, ", ".join([
        "SELECT count(*) AS n", f'avg("{col}"::DOUBLE) AS mean_length', f'var_samp("{col}"::DOUBLE) AS var_length',
        "avg((winner < 0)::DOUBLE) AS no_winner", *parts]) + " FROM games")


def compare(a: Run, b: Run) -> pd.DataFrame:
    """Metric-by-metric comparison of run A and run B of the same game.

    Rates (win rate by seat and by bot, every boolean per-game flag) use a two-proportion
    z-test; the mean game length uses Welch's t-test.
    """
    if a.config.game != b.config.game:
        raise ConfigError(f"cannot compare {a.config.game} with {b.config.game}")
    rows = []
    for by in ("seat", "bot"):
        ta = queries.rates(a, "seats", by, "win").set_index(by)
        tb = queries.rates(b, "seats", by, "win").set_index(by)
        for key in ta.index.intersection(tb.index):
            r = compare_rates(ta.at[key, "successes"], ta.at[key, "n"], tb.at[key, "successes"], tb.at[key, "n"])
            rows.append((f"win rate, {by} {key}", ta.at[key, "rate"], tb.at[key, "rate"], r["diff"], r["lo"], r["hi"], r["p"]))
    fb = set(flag_columns(b))
    flags = [c for c in flag_columns(a) if c in fb]
    ga, gb = games_aggregates(a, flags), games_aggregates(b, flags)
    na, nb = int(ga["n"]), int(gb["n"])
    for col in flags:
        sa, sb = int(ga[col]), int(gb[col])
        r = compare_rates(sa, na, sb, nb)
        rows.append((f"share of games: {col}", sa / na, sb / nb, r["diff"], r["lo"], r["hi"], r["p"]))
    rows.append(_mean_length_row(a.game.length_column, ga, gb))
    return pd.DataFrame(rows, columns=["metric", "A", "B", "A-B", "lo", "hi", "p"])


def _mean_length_row(col: str, ga: dict, gb: dict) -> tuple:
    """Welch's t-test on the mean game length, from each run's mean, variance and count."""
    ma, mb, va, vb, na, nb = ga["mean_length"], gb["mean_length"], ga["var_length"], gb["var_length"], ga["n"], gb["n"]
    t = sps.ttest_ind_from_stats(ma, np.sqrt(va), na, mb, np.sqrt(vb), nb, equal_var=False)
    d = ma - mb
    se = np.sqrt(va / na + vb / nb) if min(na, nb) > 1 else np.nan
    return (f"mean {col}", ma, mb, d, d - 1.96 * se, d + 1.96 * se, float(t.pvalue))


def summary(run: Run) -> dict:
    """One row of headline metrics for a sweep table."""
    seats = queries.rates(run, "seats", "seat", "win")
    flags = flag_columns(run)
    g = games_aggregates(run, flags)
    n = int(g["n"])
    row = {
        "games": n,
        f"mean_{run.game.length_column}": g["mean_length"],
        "seat0_win": seats.loc[seats["seat"] == 0, "rate"].iloc[0],
        "seat_spread": float(np.nanmax(seats["rate"]) - np.nanmin(seats["rate"])),
        "no_winner": float(g["no_winner"]),
    }
    for c in flags:
        row[c] = int(g[c]) / n
    return row
