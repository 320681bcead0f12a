"""A parameter sweep as a report: each headline metric against the swept value with 95%
bands, and tests of whether a metric changes across the sweep (findings candidates).

A sweep directory (``cardlab sweep --out DIR``) holds one run directory per value, named
``<param>=<value>``, and ``sweep.json`` (parameter and values in sweep order). Every number
is one aggregating DuckDB query per run; intervals come from statsmodels/scipy on the
counts (Wilson for rates, t for means), tests across the values are a chi-square test of
homogeneity for rates (scipy) and Welch's one-way ANOVA from the means, variances and counts
for the mean game length (statsmodels ``anova_generic``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import charts, queries
from analysis.compare import flag_columns, games_aggregates
from analysis.findings import Candidate
from analysis.load import Run
from analysis.sections import Section
from analysis.skill import share_counts, skill_index, win_share
from sim.run.stats import mean_change_p, mean_ci_from, rate_change_p, wilson
from sim.kit.config import ConfigError

SWEEP_FILE = "sweep.json"
TESTS_TEXT = ("Across a sweep, each rate is tested for any change over the swept values (chi-square test of "
              "homogeneity) and the mean game length by Welch's one-way ANOVA; the effect is the range over "
              "the values (for the mean game length relative to its overall mean).")


def write_manifest(out: str | Path, game: str, param: str, values: list[str], pairing: str | None = None) -> None:
    """Record a sweep's parameter and values (in sweep order) next to its run directories, and
    the ladder pairing it plays (``--pairing``), if any."""
    doc = {"game": game, "param": param, "values": values, "runs": [f"{param}={v}" for v in values]}
    if pairing is not None:
        doc["pairing"] = pairing
    (Path(out) / SWEEP_FILE).write_text(json.dumps(doc, indent=1) + "\n")


def run_digest(run: Run) -> tuple:
    """The rows and an order-free hash of every row of the games and seats tables: equal for two
    runs that played the same games, move for move."""
    parts = []
    for table in ("games", "seats"):
        d = queries.one(run, f"SELECT count(*) AS n, sum(hash(t)) AS h FROM {table} AS t")
        parts += [int(d["n"]), int(d["h"] or 0)]
    return tuple(parts)


def identical_values(values: list[str], runs: list[Run]) -> list[list[str]]:
    """Groups (two or more, in sweep order) of the swept values whose runs played identical games."""
    groups: dict[tuple, list[str]] = {}
    for v, r in zip(values, runs):
        groups.setdefault(run_digest(r), []).append(v)
    return [g for g in groups.values() if len(g) > 1]


def identical_sentence(param: str, group: list[str]) -> str:
    """What a group of ``identical_values`` means, in one sentence."""
    named = f"{', '.join(group[:-1])} and {group[-1]}"
    return (f"{param} {named} play identical games: the parameter has no effect in this range (the same seeds "
            f"give the same games, move for move, at each of these values, so what {param} changes never comes "
            "into play there).")


def _member_dirs(path: Path) -> list[Path]:
    return sorted(d for d in path.iterdir() if d.is_dir() and "=" in d.name and (d / "run.json").exists())


def is_sweep(path: str | Path) -> bool:
    """A sweep directory: ``sweep.json``, or no ``run.json`` but ``<param>=<value>`` run directories."""
    path = Path(path)
    if not path.is_dir() or (path / "run.json").exists():
        return False
    return (path / SWEEP_FILE).exists() or bool(_member_dirs(path))


def _sort_values(values: list[str]) -> list[str]:
    try:
        return sorted(values, key=float)
    except ValueError:
        return values


@dataclass
class Sweep:
    """A sweep directory: the swept parameter, its values (sweep order) and one run each."""

    path: Path
    param: str
    values: list[str]
    runs: list[Run]
    pairing: str | None = None  # CHALLENGER,OPPONENT of a ``--pairing`` sweep

    @classmethod
    def open(cls, path: str | Path) -> "Sweep":
        path = Path(path)
        manifest = path / SWEEP_FILE
        if manifest.exists():
            try:
                doc = json.loads(manifest.read_text())
                param, values, dirs = doc["param"], [str(v) for v in doc["values"]], [path / d for d in doc["runs"]]
                pairing = doc.get("pairing")
            except (OSError, ValueError, KeyError, TypeError):
                raise ConfigError(f"{manifest} is damaged: not a cardlab sweep manifest") from None
        else:
            pairing = None
            members = _member_dirs(path)
            params = {d.name.split("=", 1)[0] for d in members}
            if len(params) != 1:
                raise ConfigError(f"{path} mixes run directories of several parameters: {', '.join(sorted(params))}")
            param = params.pop()
            values = _sort_values([d.name.split("=", 1)[1] for d in members])
            dirs = [path / f"{param}={v}" for v in values]
        runs = [Run(d) for d in dirs]
        if len({r.config.game for r in runs}) > 1:
            raise ConfigError(f"{path} holds runs of several games")
        return cls(path, param, values, runs, pairing)

    @property
    def title(self) -> str:
        return f"Sweep of {self.param} ({self.runs[0].game.title}: {self.path.name})"

    def positions(self) -> tuple[np.ndarray, list[str] | None]:
        """x positions of the values: the numbers themselves, or 0..k-1 with tick labels."""
        try:
            return np.array([float(v) for v in self.values]), None
        except ValueError:
            return np.arange(len(self.values), dtype=float), self.values


# ---- metrics per value ---------------------------------------------------------------------

def _rate_rows(metric: str, group: str, value: str, n: int, k: int) -> dict:
    lo, hi = wilson(k, n)
    return {"group": group, "metric": metric, "value": value, "n": n, "successes": k,
            "estimate": k / n if n else np.nan, "lo": float(lo), "hi": float(hi), "var": np.nan, "seats": ""}


def _spread_row(run: Run, value: str, seats: pd.DataFrame) -> dict:
    """Seat spread (highest minus lowest seat win rate) with a 95% t interval of the paired
    per-game difference between those two seats."""
    top = int(seats.loc[seats["rate"].idxmax(), "seat"])
    bottom = int(seats.loc[seats["rate"].idxmin(), "seat"])
    d = queries.one(run, "SELECT count(*) AS n, avg(d) AS m, stddev_samp(d) AS sd FROM (SELECT game, "
                    f"sum(CASE WHEN seat = {top} THEN win::INT WHEN seat = {bottom} THEN -win::INT ELSE 0 END)::DOUBLE"
                    " AS d FROM seats GROUP BY game)")
    m, lo, hi = mean_ci_from(float(d["m"]), float(d["sd"]), int(d["n"])) if top != bottom else (0.0, 0.0, 0.0)
    return {"group": "Seat spread", "metric": "seat spread", "value": value, "n": int(d["n"]), "successes": np.nan,
            "estimate": m, "lo": lo, "hi": hi, "var": np.nan, "seats": f"seat {top} - seat {bottom}"}


def run_metrics(run: Run, value: str, pairing: bool = False) -> list[dict]:
    """The headline metrics of one run of the sweep, each with its 95% interval (with
    ``pairing``, also the challenger's skill index)."""
    rows = []
    seats = queries.rates(run, "seats", "seat", "win")
    for by, group in (("seat", "Win rate by seat"), ("bot", "Win rate by bot")):
        t = seats if by == "seat" else queries.rates(run, "seats", "bot", "win")
        rows += [_rate_rows(f"win rate, {by} {r[by]}", group, value, int(r["n"]), int(r["successes"]))
                 for r in t.to_dict("records")]
    rows.append(_spread_row(run, value, seats))
    flags = flag_columns(run)
    g = games_aggregates(run, flags)
    n = int(g["n"])
    col = run.game.length_column
    sd = float(np.sqrt(g["var_length"])) if pd.notna(g["var_length"]) else np.nan
    m, lo, hi = mean_ci_from(float(g["mean_length"]), sd, n)
    rows.append({"group": "Game length", "metric": f"mean {col}", "value": value, "n": n, "successes": np.nan,
                 "estimate": m, "lo": lo, "hi": hi, "var": float(g["var_length"]), "seats": ""})
    rows.append(_rate_rows("share of games: no winner", "Per-game flags", value, n, int(g["no_winner_games"])))
    rows += _skill_rows(run, value) if pairing else []
    rows += [_rate_rows(f"share of games: {c}", "Per-game flags", value, n, int(g[c])) for c in flags]
    return rows


def _skill_rows(run: Run, value: str) -> list[dict]:
    """A pairing run (one seat of ``bots[0]``, every other seat another bot, as ``cardlab sweep
    --pairing`` plays): the first bot's skill index (``analysis.skill``), the Wilson interval of
    its win share mapped to the index."""
    bots = run.config.bots
    share, lo, hi, n = win_share(share_counts(run, bots[0]))
    index, ilo, ihi = skill_index(share, lo, hi, run.config.players)
    return [{"group": "Skill index", "metric": f"skill index, {bots[0]} vs {bots[1]}", "value": value, "n": n,
             "successes": share * n, "estimate": index, "lo": ilo, "hi": ihi, "var": np.nan, "seats": ""}]


def metrics(sweep: Sweep) -> pd.DataFrame:
    """Long table: group, metric, value, n, successes, estimate, lo, hi, var (of the mean),
    seats (the seat spread's two seats)."""
    return pd.DataFrame([row for v, r in zip(sweep.values, sweep.runs) for row in run_metrics(r, v, sweep.pairing is not None)])


# ---- tests across the sweep ------------------------------------------------------------------

@dataclass
class SweepCandidate(Candidate):
    """A change across the sweep: ``rate`` is the highest value's estimate (with its interval),
    ``baseline`` the lowest's, ``effect`` the range between them."""

    param: str = ""
    x_high: str = ""
    x_low: str = ""
    low_lo: float = np.nan
    low_hi: float = np.nan
    relative_to: float = np.nan  # means: the overall mean (the threshold is relative to it)

    def size(self) -> float:
        return self.effect if np.isnan(self.relative_to) else self.effect / max(abs(self.relative_to), 1e-12)

    def qualifies(self, min_effect: float) -> bool:
        return self.size() >= min_effect

    def sentence(self) -> str:
        rate = np.isnan(self.relative_to)
        v = (lambda x: f"{100 * x:.1f}%") if rate else (lambda x: f"{x:.2f}")  # noqa: E731
        rng = f"{100 * self.effect:.1f} percentage points" if rate else \
            f"{self.effect:.2f} ({100 * self.size():.1f}% of the mean)"
        test = "chi-square test" if rate else "Welch ANOVA"
        return (f"{self.run}: {self.subject} goes from {v(self.baseline)} (95% CI {v(self.low_lo)}-{v(self.low_hi)}) "
                f"at {self.param}={self.x_low} to {v(self.rate)} (95% CI {v(self.lo)}-{v(self.hi)}) at "
                f"{self.param}={self.x_high}, a range of {rng} ({test} across the values).")


def candidates(sweep: Sweep, table: pd.DataFrame) -> list[SweepCandidate]:
    """One test per metric measured at every value of the sweep (seat spread excluded: it is
    derived from the seat win rates, which are tested)."""
    if len(sweep.values) < 2:
        return []
    out = []
    for metric, t in table[table["group"] != "Seat spread"].groupby("metric", sort=False):
        if len(t) != len(sweep.values):
            continue  # e.g. a bot that does not play at every value
        mean = t["group"].iloc[0] == "Game length"
        p = (mean_change_p(t["estimate"], t["var"], t["n"]) if mean else rate_change_p(t["successes"], t["n"]))
        if np.isnan(p):
            continue
        hi, lo = t.loc[t["estimate"].idxmax()], t.loc[t["estimate"].idxmin()]
        overall = float((t["estimate"] * t["n"]).sum() / t["n"].sum()) if mean else np.nan
        out.append(SweepCandidate(sweep.title, _section_title(t["group"].iloc[0], sweep.param), metric, "sweep",
                                  float(hi["estimate"]), float(hi["lo"]), float(hi["hi"]), float(lo["estimate"]),
                                  float(hi["estimate"] - lo["estimate"]), p, param=sweep.param, x_high=hi["value"],
                                  x_low=lo["value"], low_lo=float(lo["lo"]), low_hi=float(lo["hi"]),
                                  relative_to=overall))
    return out


# ---- sections ----------------------------------------------------------------------------------

Y_LABELS = {
    "Win rate by seat": "win rate (share of games)",
    "Win rate by bot": "win rate (share of seat-games)",
    "Seat spread": "seat spread (share of games)",
    "Per-game flags": "share of games",
    "Skill index": "skill index (0: chance, 1: the better player always wins)",
}


def _section_title(group: str, param: str) -> str:
    return f"{group} across {param}"


def _chart(sweep: Sweep, t: pd.DataFrame, group: str, ylabel: str):
    x, ticks = sweep.positions()
    pos = dict(zip(sweep.values, x))
    fig = None
    for metric, m in t.groupby("metric", sort=False):
        xs = np.array([pos[v] for v in m["value"]])
        label = metric.split(", ")[-1].removeprefix("share of games: ")
        fig = charts.band(xs, (m["estimate"], m["lo"], m["hi"]), f"{group} across {sweep.param} (95% bands)",
                          sweep.param, ylabel, label=label, fig=fig, marker="o")
    if ticks is not None or len(x) <= 12:
        fig.axes[0].set_xticks(x, ticks if ticks is not None else sweep.values)
    return fig


def sections(sweep: Sweep, table: pd.DataFrame, cands: list[SweepCandidate], n_tests: int) -> list[Section]:
    """The sweep part of a report: one section per metric group (chart with 95% bands and its
    table), then the tests across the sweep with q-values of the whole report."""
    length = sweep.runs[0].game.length_column
    facts = pd.DataFrame({sweep.param: sweep.values, "games": [r.games_done for r in sweep.runs],
                          "run directory": [r.path.name for r in sweep.runs]})
    out = [Section(f"Sweep of {sweep.param}", text=(
        f"{len(sweep.values)} runs of {sweep.runs[0].game.title}, identical except for {sweep.param}. Each metric is "
        "drawn against the swept value with its 95% band (Wilson for rates, t for means; the seat spread's "
        "band is the t interval of the paired per-game difference between the seats with the highest and lowest "
        "rate, chosen from the same data, so it leans high when seats are even)."
        + "".join(f" {identical_sentence(sweep.param, g)}" for g in identical_values(sweep.values, sweep.runs))),
        tables=[("Sweep runs", facts)])]
    for group, t in table.groupby("group", sort=False):
        ylabel = Y_LABELS.get(group, f"mean {length} per game ({length})")
        cols = ["metric", "value", "n", "estimate", "lo", "hi"] + (["seats"] if group == "Seat spread" else [])
        shown = t[cols].rename(columns={"value": sweep.param})
        out.append(Section(_section_title(group, sweep.param), tables=[(f"{group} by {sweep.param} (95% intervals)", shown)],
                           figures=[(f"{group} across {sweep.param}", _chart(sweep, t, group, ylabel))]))
    if cands:
        tests = pd.DataFrame([{"metric": c.subject, "lowest": c.baseline, "lowest at": f"{sweep.param}={c.x_low}",
                               "highest": c.rate, "highest at": f"{sweep.param}={c.x_high}", "range": c.effect,
                               "p": c.p, "q (BH)": c.q} for c in cands])
        out.append(Section("Changes across the sweep", text=(
            f"{TESTS_TEXT} q-values are adjusted by Benjamini-Hochberg over all {n_tests} tests of this report."),
            tables=[("Tests across the sweep", tests)]))
    return out
