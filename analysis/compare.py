"""Compare runs: two configurations with significance tests, or a parameter sweep's metrics.

Every number comes from one aggregating DuckDB query per run (counts, sums, moments); the
tests run on those aggregates (``sim.run.stats``: Newcombe's interval for rates with the p-value that
inverts it, Welch's interval and t test for means) and
their p-values are adjusted by Benjamini-Hochberg. ``candidates`` and ``section`` turn a
comparison into findings and the A-vs-B section of a report.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dataclasses import dataclass

from analysis import charts, queries
from analysis.findings import Candidate, bh
from analysis.load import Run
from analysis.sections import Section
from sim.run.stats import mean_difference, rate_difference
from sim.kit.config import ConfigError

SECTION = "Differences A - B"


def flag_columns(run: Run) -> list[str]:
    """The boolean per-game columns of a run's ``games`` table, in table order."""
    return [c for c, t in run.columns("games").items() if t == "BOOLEAN"]


def games_aggregates(run: Run, flags: list[str]) -> dict:
    """Game count, flag counts and the length column's mean and variance, in one query."""
    col = run.game.length_column
    parts = [f'sum("{c}"::BIGINT) AS "{c}"' for c in flags]
    return queries.one(run, ", ".join([
        "SELECT count(*) AS n", f'avg("{col}"::DOUBLE) AS mean_length', f'var_samp("{col}"::DOUBLE) AS var_length',
        "avg((winner < 0)::DOUBLE) AS no_winner", "sum((winner < 0)::BIGINT) AS no_winner_games", *parts])
        + " FROM games")


def compare(a: Run, b: Run) -> pd.DataFrame:
    """Metric-by-metric comparison of run A and run B of the same game.

    Rates (win rate by seat and by bot, every boolean per-game flag): Newcombe's interval of
    the difference and the p-value that inverts it; the mean game length: Welch's interval and t test. ``q``: the p-values adjusted together
    by Benjamini-Hochberg.
    """
    if a.config.game != b.config.game:
        raise ConfigError(f"cannot compare {a.config.game} with {b.config.game}")
    rows = []
    for by in ("seat", "bot"):
        ta = queries.rates(a, "seats", by, "win").set_index(by)
        tb = queries.rates(b, "seats", by, "win").set_index(by)
        for key in ta.index.intersection(tb.index):
            r = rate_difference(ta.at[key, "successes"], ta.at[key, "n"], tb.at[key, "successes"], tb.at[key, "n"])
            rows.append((f"win rate, {by} {key}", ta.at[key, "rate"], tb.at[key, "rate"], r["diff"], r["lo"], r["hi"], r["p"]))
    fb = set(flag_columns(b))
    flags = [c for c in flag_columns(a) if c in fb]
    ga, gb = games_aggregates(a, flags), games_aggregates(b, flags)
    na, nb = int(ga["n"]), int(gb["n"])
    for col in flags:
        sa, sb = int(ga[col]), int(gb[col])
        r = rate_difference(sa, na, sb, nb)
        rows.append((f"share of games: {col}", sa / na, sb / nb, r["diff"], r["lo"], r["hi"], r["p"]))
    rows.append(_mean_length_row(a.game.length_column, ga, gb))
    table = pd.DataFrame(rows, columns=["metric", "A", "B", "A-B", "lo", "hi", "p"])
    table["q"] = bh(table["p"])
    return table


def _mean_length_row(col: str, ga: dict, gb: dict) -> tuple:
    """Welch's interval and test on the mean game length, from each run's mean, variance and count."""
    r = mean_difference(ga["mean_length"], ga["var_length"], ga["n"], gb["mean_length"], gb["var_length"], gb["n"])
    return (f"mean {col}", ga["mean_length"], gb["mean_length"], r["diff"], r["lo"], r["hi"], r["p"])


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


@dataclass
class CompareCandidate(Candidate):
    """One A-vs-B test: ``rate`` is the difference A - B with its interval, ``baseline`` 0."""

    a: float = np.nan
    b: float = np.nan
    is_rate: bool = True

    def size(self) -> float:
        """Rates: the difference as a share of games; means: relative to B."""
        return abs(self.effect) if self.is_rate else abs(self.effect) / max(abs(self.b), 1e-12)

    def qualifies(self, min_effect: float) -> bool:
        return self.size() >= min_effect

    def sentence(self) -> str:
        if self.is_rate:
            v = lambda x: f"{100 * x:.1f}%"  # noqa: E731
            d = f"{100 * self.effect:+.1f} percentage points, 95% CI {100 * self.lo:+.1f} to {100 * self.hi:+.1f}"
        else:
            v = lambda x: f"{x:.2f}"  # noqa: E731
            d = f"{self.effect:+.2f} ({100 * self.size():.1f}% of B), 95% CI {self.lo:+.2f} to {self.hi:+.2f}"
        return f"{self.run}: {self.subject} is {v(self.a)} in A against {v(self.b)} in B: A - B = {d}."


TESTS_TEXT = ("A-vs-B differences: Newcombe's interval for rates with the p-value that inverts it, Welch's "
              "interval and t test for the mean game length (threshold relative to B).")


def candidates(table: pd.DataFrame, label: str) -> list[CompareCandidate]:
    """The rows of a ``compare`` table as findings candidates of the part ``label``."""
    out = []
    for r in table.to_dict("records"):
        if np.isnan(r["p"]):
            continue
        d = float(r["A-B"])
        out.append(CompareCandidate(label, SECTION, r["metric"], "compare", d, float(r["lo"]), float(r["hi"]), 0.0, d,
                                    float(r["p"]), a=float(r["A"]), b=float(r["B"]),
                                    is_rate=not r["metric"].startswith("mean ")))
    return out


def section(table: pd.DataFrame, cands: list[CompareCandidate], n_tests: int, names: str = "") -> Section:
    """The A-vs-B section: metrics side by side, differences with intervals, q-values of the
    whole report (``cands`` adjusted already), a forest chart of the rate differences."""
    q = {c.subject: c.q for c in cands}
    shown = table.drop(columns="q").assign(**{"q (BH)": [q.get(m, np.nan) for m in table["metric"]]})
    rates = table[~table["metric"].str.startswith("mean ")]
    fig = charts.forest(rates["metric"], [(100 * rates["A-B"], 100 * rates["lo"], 100 * rates["hi"],
                                           "difference A - B (percentage points)", 0.0)],
                        "Run A - run B (95% intervals)", ylabel="metric")
    text = ((f"{names}. " if names else "") + "Headline metrics of run A and run B side by side, the difference A - B with its 95% interval "
            "(Newcombe's for rates, Welch's for the mean game length), the p-value of the same method (it is "
            f"below 0.05 exactly when the interval excludes zero) and the q-value adjusted by Benjamini-Hochberg over all {n_tests} tests "
            "of this report.")
    return Section(SECTION, text=text, tables=[("Run A vs run B", shown)],
                   figures=[("Differences in rates, A - B", fig)])
