"""The tuning report (``cardlab tune``). It opens with the answer in one sentence (the chosen
configuration against the default on fresh games, or that nothing tried beats the default by
more than the noise), then every metric of the game for the chosen configuration against the
default with the difference, its 95% interval and a flag for what moved beyond noise, the race
of the leading candidates (or, for several goals, the Pareto front with intervals on both
axes), the study, the objective over trials and Optuna's parameter importances. HTML and PDF
come from ``reports.build``'s renderers."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports.build import render_html, render_pdf
from analysis.sections import Section
from sim.run.tuner import Confirmation, TuneResult, replacing


def build(result: TuneResult) -> tuple[Path, Path]:
    """Write ``OUT/report.html`` and ``OUT/report.pdf`` for a tuning study."""
    parts = [(f"Tuning study: {result.spec.plugin.title} ({result.spec.game})", sections(result))]
    html, pdf = result.out / "report.html", result.out / "report.pdf"
    with replacing(html) as tmp:  # several tune processes on one study may finish at once
        tmp.write_text(render_html(parts))
    with replacing(pdf) as tmp:
        render_pdf(parts, tmp)
    return html, pdf


def sections(result: TuneResult) -> list[Section]:
    out = [answer_section(result)]
    out += [metrics_section(result, c) for c in result.confirmations[: 1 if not result.spec.multi else None]]
    out += [pareto_section(result)] if result.spec.multi else [race_section(result)]
    return out + [study_section(result), trials_section(result), importance_section(result)]


def answer_section(r: TuneResult) -> Section:
    """The answer in one sentence and how it was reached."""
    colour = "green" if r.confirmed else "amber"
    text = r.answer[0].upper() + r.answer[1:] + "."
    if r.confirmations:
        c = r.confirmations[0]
        how = (f"Confirmed on {c.games:,} fresh games per configuration (seed {c.seed}, which no trial and no race "
               "played). ")
    else:
        how = ""
    if r.spec.multi:
        how += "best.toml is not written for several goals: pareto.toml lists the Pareto configurations to pick from."
    elif r.best_toml is not None:
        how += f"The chosen configuration is in {r.best_toml}."
    else:
        how += "No best.toml is written without a confirmed improvement (--write-best writes it anyway)."
    return Section("Answer", text=how, marks=[(colour, text)])


def metrics_section(r: TuneResult, c: Confirmation) -> Section:
    """Every metric of the game, chosen configuration against the default, on fresh games."""
    t = c.table
    worse = t.loc[t["flag"] == "worse beyond noise", "metric"].tolist()
    marks = [("red", f"{m} is worse beyond noise") for m in worse]
    params = pd.DataFrame([{"parameter": k, "default": c.default.params.get(k), c.chosen.label: v}
                           for k, v in c.chosen.params.items()])
    return Section(f"Every metric: {c.chosen.label} against the default", text=(
        f"{c.chosen.label} ({c.chosen.describe()}) and the default ({c.default.describe()}) on {c.games:,} fresh games "
        "each. Differences are chosen minus default with 95% intervals (Newcombe for rates, Welch for means, the "
        "basic bootstrap for spreads beyond chance; the two runs are treated as independent samples); q is the "
        "Benjamini-Hochberg adjusted p over the table and a flag needs q < 0.05. Spreads, stall, stalemate and "
        "turn-cap rates are better lower, the goals as asked; other metrics are flagged 'changed beyond noise'. "
        + ("Worse beyond noise: " + ", ".join(worse) + "." if worse else "No metric is worse beyond noise.")),
        tables=[("Parameters", params), ("Every metric with 95% intervals", t.drop(columns=["good"]))], marks=marks)


def race_section(r: TuneResult) -> Section:
    if r.race is None:
        return Section("Race", text="No race (--race 0 or no candidate but the default): the search's best trial "
                       "was confirmed directly.")
    rows = r.race.rows
    fig = Figure(figsize=(6.4, 3.4), layout="constrained")
    ax = fig.add_subplot()
    for label, g in rows.groupby("candidate", sort=False):
        # a basic bootstrap interval need not hold its estimate (few games): no negative whisker
        yerr = [(g["value"] - g["lo"]).clip(lower=0), (g["hi"] - g["value"]).clip(lower=0)]
        ax.errorbar(g["games"], g["value"], yerr=yerr, marker="o", ms=4,
                    capsize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("games per candidate (race seed)")
    ax.set_ylabel(r.spec.objective.metric)
    ax.legend(loc="best", fontsize=7)
    ax.set_title("Race: objective with 95% intervals by rung", fontsize=10)
    return Section("Race", text=(
        f"The {rows['candidate'].nunique() - 1} best trials and the default replayed on common new seeds (study seed + "
        f"1000003), from {int(rows['games'].min()):,} games each, doubling: at each rung the leader is the best "
        "candidate that keeps the constraints, every other is compared with it (score difference, positive = worse, "
        "95% interval; Holm-adjusted p over the rung) and dropped when worse beyond noise (p_holm < 0.05) or when a "
        "constraint metric's whole interval is outside its range. The race stops when one is left, when every "
        "difference lies within the requested precision, or at --race-games. "
        f"Winner: {r.race.winner.label} ({r.race.winner.describe()}), {r.race.reason}, at {r.race.games:,} games."),
        tables=[("Race rungs", rows)], figures=[("Race", fig)])


def pareto_section(r: TuneResult) -> Section:
    """The Pareto front (first two goals) with 95% whiskers, on the confirmation games."""
    spec = r.spec
    rows = []
    for c in r.confirmations:
        row = {"configuration": f"{c.chosen.label}: {c.chosen.describe()}", "improves": c.improves,
               "breaks": "; ".join(c.broken)}
        for o, (a, _), d in zip(spec.objectives, c.values, c.diffs):
            row.update({o.metric: a.value, f"{o.metric} lo": a.lo, f"{o.metric} hi": a.hi,
                        f"{o.metric} diff": d.value, f"{o.metric} diff lo": d.lo, f"{o.metric} diff hi": d.hi})
        rows.append(row)
    table = pd.DataFrame(rows)
    figures = []
    if r.confirmations:
        (ox, oy), fig = spec.objectives[:2], Figure(figsize=(6.4, 4.4), layout="constrained")
        ax = fig.add_subplot()
        i, j = 0, 1
        first = r.confirmations[0]
        points = [(f"default: {first.default.describe()}", first.values[i][1], first.values[j][1], "#E45756")]
        points += [(f"{c.chosen.label}: {c.chosen.describe()}", c.values[i][0], c.values[j][0], "#4C78A8")
                   for c in r.confirmations]
        for name, x, y, colour in points:
            ax.errorbar(x.value, y.value, xerr=[[x.value - x.lo], [x.hi - x.value]],
                        yerr=[[y.value - y.lo], [y.hi - y.value]], fmt="o", color=colour, capsize=3, ms=4)
            ax.annotate(name, (x.value, y.value), fontsize=7, xytext=(4, 4), textcoords="offset points")
        ax.set_xlabel(f"{ox.describe()}")
        ax.set_ylabel(f"{oy.describe()}")
        ax.set_title("Pareto front on fresh games, 95% intervals (default in red)", fontsize=10)
        figures.append(("Pareto front", fig))
    return Section("Pareto front", text=(
        f"The configurations on the search's Pareto front (feasible trials no other trial beats on every goal; at "
        f"most 8), each replayed with the default on {r.confirmations[0].games if r.confirmations else 0:,} fresh "
        "games. A configuration improves when it is better beyond noise on some goal (95% interval of the goal's "
        "difference below zero), worse beyond noise on none, and keeps the constraints. The figure shows the first "
        "two goals. pareto.toml lists them all."), tables=[("Pareto configurations", table)], figures=figures)


def study_section(r: TuneResult) -> Section:
    spec, best = r.spec, r.best
    states = pd.Series([t.state.name for t in r.study.get_trials(deepcopy=False)]).value_counts()
    facts = [
        ("objective", spec.describe()),
        ("constraints", "; ".join(c.text for c in spec.constraints) or "none"),
        ("search space", "; ".join(_dim_text(d) for d in spec.space)),
        ("trials", ", ".join(f"{n} {s.lower()}" for s, n in states.items())),
        ("games per trial", f"{spec.games:,}" + (f" at most; stop at 95% half-width <= {spec.precision} of "
                                                 f"{spec.rule.metric}" if spec.rule else "")),
        ("common random numbers", f"every trial plays the game seeds of seed {spec.base.seed}"),
        ("best trial of the search", f"{best.number}: " + (f"value {best.value:.6g}" if not spec.multi else
                                                             f"values {', '.join(f'{v:.6g}' for v in best.values)}")),
        ("configuration file", str(r.best_toml or r.pareto_toml or "none (no confirmed improvement)")),
        ("study storage", r.storage),
    ]
    table = pd.DataFrame(facts, columns=["fact", "value"])
    return Section("Study", text=("Optuna TPE search (seeded); every trial is a simulation through the runner. "
                                  "Parameters, values and measured metrics of all trials are in trials.parquet."),
                   tables=[("Study facts", table)])


def _dim_text(d) -> str:
    return f"{d.name} in {d.lo}..{d.hi}" if d.kind != "categorical" else f"{d.name} in {{{', '.join(map(str, d.choices))}}}"


def trials_section(r: TuneResult) -> Section:
    done = [t for t in r.study.get_trials(deepcopy=False) if t.state.name == "COMPLETE"]
    number = np.array([t.number for t in done])
    value = np.array([t.values[0] for t in done], dtype=float)
    ok = np.array([t.user_attrs.get("feasible", True) for t in done], dtype=bool)
    fig = Figure(figsize=(6.4, 3.4), layout="constrained")
    ax = fig.add_subplot()
    ax.scatter(number[ok], value[ok], s=18, color="#4C78A8", label="meets the constraints")
    if (~ok).any():
        ax.scatter(number[~ok], value[~ok], s=18, color="#E45756", marker="x", label="violates a constraint")
    best = _running_best(value, ok, r.spec.objective.direction() == "maximize")
    ax.step(number, best, where="post", color="grey", lw=1.2, label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel(r.spec.objective.describe() + (" (first goal)" if r.spec.multi else ""))
    ax.legend(loc="best", fontsize=8)
    ax.set_title("Objective over trials", fontsize=10)
    rows = pd.DataFrame([{"trial": t.number, **{k: v for k, v in t.params.items()},
                          **{f"value {o.metric}": v for o, v in zip(r.spec.objectives, t.values)},
                          "games": t.user_attrs.get("games"), "feasible": t.user_attrs.get("feasible", True)}
                         for t in done])
    return Section("Objective over trials", text=(
        "Objective value of every completed trial (invalid configurations are pruned and not shown) and the best "
        "value so far among trials that meet the constraints."),
        tables=[("Completed trials", rows)], figures=[("Objective over trials", fig)])


def _running_best(value: np.ndarray, ok: np.ndarray, maximize: bool) -> np.ndarray:
    v = np.where(ok, value, -np.inf if maximize else np.inf)
    return np.maximum.accumulate(v) if maximize else np.minimum.accumulate(v)


def importance_section(r: TuneResult) -> Section:
    import optuna

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            imp = optuna.importance.get_param_importances(r.study, target=(lambda t: t.values[0]) if r.spec.multi else None)
    except (RuntimeError, ValueError) as e:
        return Section("Parameter importances", text=f"Not available for this study: {str(e).splitlines()[0]}")
    note = " ".join(f"Optuna notes: {w.message}" for w in caught)
    if not imp:
        return Section("Parameter importances", text="Not available: too few completed trials.")
    table = pd.DataFrame({"parameter": list(imp), "importance": list(imp.values())})
    fig = Figure(figsize=(6.4, 0.6 + 0.35 * len(table)), layout="constrained")
    ax = fig.add_subplot()
    ax.barh(table["parameter"], table["importance"], color="#72B7B2")
    ax.invert_yaxis()
    ax.set_xlabel("importance (share of the total, normalised)")
    ax.set_ylabel("parameter")
    ax.set_title("Parameter importances (Optuna PED-ANOVA)", fontsize=10)
    return Section("Parameter importances", text=(
        "How much of the objective's variation over the completed trials each parameter explains, from "
        "optuna.importance.get_param_importances. " + note).strip(), tables=[("Parameter importances", table)],
        figures=[("Parameter importances", fig)])
