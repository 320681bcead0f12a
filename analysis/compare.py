"""Compare runs: two configurations with significance tests, or a parameter sweep's metrics."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from analysis.load import Run
from analysis.stats import compare_rates, rate_table
from sim.config import ConfigError


def _flag_columns(games: pd.DataFrame) -> list[str]:
    return [c for c in games.columns if pd.api.types.is_bool_dtype(games[c])]


def compare(a: Run, b: Run) -> pd.DataFrame:
    """Metric-by-metric comparison of run A and run B of the same game.

    Rates (win rate by seat and by bot, every boolean per-game flag) use a two-proportion
    z-test; the mean game length uses Welch's t-test.
    """
    if a.config.game != b.config.game:
        raise ConfigError(f"cannot compare {a.config.game} with {b.config.game}")
    rows = []
    for by in ("seat", "bot"):
        ta = rate_table(a.table("seats", [by, "win"]), by, "win").set_index(by)
        tb = rate_table(b.table("seats", [by, "win"]), by, "win").set_index(by)
        for key in ta.index.intersection(tb.index):
            r = compare_rates(ta.at[key, "successes"], ta.at[key, "n"], tb.at[key, "successes"], tb.at[key, "n"])
            rows.append((f"win rate, {by} {key}", ta.at[key, "rate"], tb.at[key, "rate"], r["diff"], r["lo"], r["hi"], r["p"]))
    ga, gb = a.games, b.games
    for col in _flag_columns(ga):
        if col in gb.columns:
            r = compare_rates(int(ga[col].sum()), len(ga), int(gb[col].sum()), len(gb))
            rows.append((f"share of games: {col}", ga[col].mean(), gb[col].mean(), r["diff"], r["lo"], r["hi"], r["p"]))
    col = a.game.length_column
    x, y = ga[col].to_numpy(float), gb[col].to_numpy(float)
    t = sps.ttest_ind(x, y, equal_var=False)
    d = x.mean() - y.mean()
    se = np.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y)) if min(len(x), len(y)) > 1 else np.nan
    rows.append((f"mean {col}", x.mean(), y.mean(), d, d - 1.96 * se, d + 1.96 * se, float(t.pvalue)))
    return pd.DataFrame(rows, columns=["metric", "A", "B", "A-B", "lo", "hi", "p"])


def summary(run: Run) -> dict:
    """One row of headline metrics for a sweep table."""
    seats = rate_table(run.table("seats", ["seat", "win"]), "seat", "win")
    games = run.games
    col = run.game.length_column
    row = {
        "games": len(games),
        f"mean_{col}": games[col].mean(),
        "seat0_win": seats.loc[seats["seat"] == 0, "rate"].iloc[0],
        "seat_spread": float(np.nanmax(seats["rate"]) - np.nanmin(seats["rate"])),
        "no_winner": float((games["winner"] < 0).mean()),
    }
    for c in _flag_columns(games):
        row[c] = float(games[c].mean())
    return row
