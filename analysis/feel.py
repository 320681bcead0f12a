"""Game feel shared by the games' report sections (each game's rules page defines its measures):
table rows of means and shares with their 95% intervals, the length tail, and the chart of when
the winner takes the lead for good."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis import charts, queries
from sim.run.stats import mean_ci_from, quantile_interval, wilson


def feel_mean(run, label: str, expr: str, source: str = "games", where: str = "") -> dict:
    """One table row: the mean of the SQL expression ``expr`` with its 95% t interval."""
    r = queries.one(run, f"SELECT count(*) AS n, avg(({expr})::DOUBLE) AS m, stddev_samp(({expr})::DOUBLE) AS sd "
                         f"FROM {source}" + (f" WHERE {where}" if where else ""))
    n = int(r["n"])
    m, lo, hi = mean_ci_from(float(r["m"]) if n else np.nan, float(r["sd"]) if n > 1 else np.nan, n)
    return {"measure": label, "value": m, "lo": lo, "hi": hi, "out of": n}


def feel_rate(label: str, k: int, n: int) -> dict:
    """One table row: the share ``k / n`` with its 95% Wilson interval."""
    lo, hi = wilson(k, n)
    return {"measure": label, "value": k / n if n else np.nan, "lo": float(lo), "hi": float(hi), "out of": n}


def length_tail(run, unit: str) -> tuple[list[dict], str]:
    """Game length in ``turns``: table rows (mean, median, 90th and 99th percentiles, the share
    beyond the cut of the Game length chart, the longest) and a sentence on the tail."""
    c = queries.counts(run, "games", "turns")
    values, counts = c.index.to_numpy(), c.to_numpy()
    n = int(counts.sum())
    rows = [feel_mean(run, f"mean length ({unit})", "turns")]
    for q, name in ((0.5, "median"), (0.9, "90th percentile"), (0.99, "99th percentile")):
        est, lo, hi = quantile_interval(values, counts, q)
        rows.append({"measure": f"{name} length ({unit})", "value": est, "lo": lo, "hi": hi, "out of": n})
    cut = int(charts.tail_cut(c, 0.99))
    over = int(counts[values > cut].sum())
    rows.append(feel_rate(f"games longer than {cut} {unit}", over, n))
    rows.append({"measure": f"longest game ({unit})", "value": float(values.max()), "lo": np.nan, "hi": np.nan,
                 "out of": n})
    text = (f"Half of the games last {rows[1]['value']:g} {unit} or fewer and nine in ten at most "
            f"{rows[2]['value']:g}; the longest lasted {int(values.max())}. The Game length chart stops at {cut} "
            f"{unit}: {over:,} games ({over / n:.2%}) were longer.")
    return rows, text


def lead_chart(run, played: str, where: str) -> Figure:
    """Games by the tenth of the game in which the winner took the lead for good (``played``: SQL
    of the turns played by then, 1..turns; integer arithmetic, so no rounding)."""
    counts = queries.counts(run, "games", f"(10 * ({played}) + turns - 1) // turns", where)
    return charts.histogram(counts, "When the winner takes the lead for good",
                            "tenth of the game's turns (1 = first, 10 = last)", "share of games won by one player",
                            cut=1.0)
