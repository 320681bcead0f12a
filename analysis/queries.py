"""Aggregating queries the report sections share: each runs in DuckDB over a run's views and
returns a small frame; intervals are then computed on the counts (``sim.run.stats``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.run.stats import histogram_summary, mean_ci_from, with_rates


def _where(where: str) -> str:
    return f" WHERE {where}" if where else ""


def rates(run, table: str, by: str, success: str, where: str = "") -> pd.DataFrame:
    """Rate of the boolean SQL expression ``success`` per group ``by`` with 95% Wilson
    intervals; columns ``by``, ``n``, ``successes``, ``rate``, ``lo``, ``hi`` (as ``rate_table``)."""
    df = run.sql(
        f"SELECT {by}, count(*) AS n, sum(({success})::BIGINT) AS successes "
        f"FROM {table}{_where(where)} GROUP BY {by} ORDER BY {by}"
    )
    return with_rates(df)


def rate(run, table: str, success: str, where: str = "") -> pd.DataFrame:
    """One overall rate (a one-row ``rates`` frame without a group column)."""
    df = run.sql(f"SELECT count(*) AS n, sum(({success})::BIGINT) AS successes FROM {table}{_where(where)}")
    return with_rates(df.fillna({"successes": 0}).astype({"successes": "int64"}))


def counts(run, table: str, expr: str, where: str = "") -> pd.Series:
    """Number of rows per distinct value of ``expr`` (index sorted by value)."""
    df = run.sql(f"SELECT {expr} AS value, count(*) AS n FROM {table}{_where(where)} GROUP BY 1 ORDER BY 1")
    return pd.Series(df["n"].to_numpy(), index=df["value"].to_numpy(), name="n")


def distribution(run, table: str, col: str, where: str = "") -> tuple[pd.Series, dict]:
    """Value counts of an integer column and their summary (mean, std, quantiles, max)."""
    c = counts(run, table, col, where)
    return c, histogram_summary(c.index.to_numpy(), c.to_numpy())


def means(run, table: str, cols: list[str], by: str | None = None, where: str = "") -> pd.DataFrame:
    """Mean of each column (per group ``by`` when given, sorted by it)."""
    avg = ", ".join(f'avg("{c}"::DOUBLE) AS "{c}"' for c in cols)
    if by is None:
        return run.sql(f"SELECT {avg} FROM {table}{_where(where)}")
    return run.sql(f"SELECT {by}, {avg} FROM {table}{_where(where)} GROUP BY {by} ORDER BY {by}")


def mean_table(run, table: str, by: str, col: str) -> pd.DataFrame:
    """Mean of ``col`` per group ``by`` with a 95% t interval: ``by``, ``n``, ``mean_<col>``, ``lo``, ``hi``."""
    df = run.sql(f'SELECT {by}, count(*) AS n, avg("{col}"::DOUBLE) AS m, stddev_samp("{col}"::DOUBLE) AS sd '
                 f"FROM {table} GROUP BY {by} ORDER BY {by}")
    ci = [mean_ci_from(m, sd, n) for m, sd, n in zip(df["m"], df["sd"], df["n"])]
    return pd.DataFrame({by: df[by], "n": df["n"], f"mean_{col}": [c[0] for c in ci],
                         "lo": [c[1] for c in ci], "hi": [c[2] for c in ci]})


def mean_ci(run, table: str, col: str, where: str = "") -> tuple[float, float, float]:
    """Mean of a column with a 95% t interval."""
    r = one(run, f'SELECT count(*) AS n, avg("{col}"::DOUBLE) AS m, stddev_samp("{col}"::DOUBLE) AS sd '
                 f"FROM {table}{_where(where)}")
    return mean_ci_from(float(r["m"]), float(r["sd"]), int(r["n"]))


def one(run, query: str) -> dict:
    """The single row of an aggregate query as a dict."""
    df = run.sql(query)
    return {c: df[c].iloc[0] for c in df.columns}
