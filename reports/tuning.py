"""The tuning report (``cardlab tune``): objective over trials, parameter importances from
Optuna, and the best and the default configuration side by side with 95% intervals on every
metric. HTML and PDF come from ``reports.build``'s renderers."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports.build import render_html, render_pdf
from analysis.sections import Section
from sim.metrics import catalog, resolve
from sim.tuner import TuneResult, replacing


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
    return [study_section(result), trials_section(result), importance_section(result), comparison_section(result)]


def study_section(r: TuneResult) -> Section:
    spec, best = r.spec, r.best
    states = pd.Series([t.state.name for t in r.study.get_trials(deepcopy=False)]).value_counts()
    facts = [
        ("objective", spec.objective.describe()),
        ("constraints", "; ".join(c.text for c in spec.constraints) or "none"),
        ("search space", "; ".join(_dim_text(d) for d in spec.space)),
        ("trials", ", ".join(f"{n} {s.lower()}" for s, n in states.items())),
        ("games per trial", f"{spec.games:,}" + (f" at most; stop at 95% half-width <= {spec.precision} of "
                                                 f"{spec.rule.metric}" if spec.rule else "")),
        ("common random numbers", f"every trial plays the game seeds of seed {spec.base.seed}"),
        ("best trial", f"{best.number}: value {best.value:.6g}"),
        ("best configuration file", str(r.best_toml)),
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
    value = np.array([t.value for t in done], dtype=float)
    ok = np.array([t.user_attrs.get("feasible", True) for t in done], dtype=bool)
    fig = Figure(figsize=(6.4, 3.4), layout="constrained")
    ax = fig.add_subplot()
    ax.scatter(number[ok], value[ok], s=18, color="#4C78A8", label="meets the constraints")
    if (~ok).any():
        ax.scatter(number[~ok], value[~ok], s=18, color="#E45756", marker="x", label="violates a constraint")
    best = _running_best(value, ok, r.spec.objective.direction() == "maximize")
    ax.step(number, best, where="post", color="grey", lw=1.2, label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel(r.spec.objective.describe())
    ax.legend(loc="best", fontsize=8)
    ax.set_title("Objective over trials", fontsize=10)
    rows = pd.DataFrame([{"trial": t.number, **{k: v for k, v in t.params.items()}, "value": t.value,
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
            imp = optuna.importance.get_param_importances(r.study)
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


def comparison_section(r: TuneResult) -> Section:
    spec = r.spec
    params = sorted({*r.best.params, *(k for k, v in r.best_config.params.items() if r.default_config.params.get(k) != v)})
    prow = [{"parameter": k, "default": _param(spec.plugin, r.default_config, k), "best": _param(spec.plugin, r.best_config, k)}
            for k in params]
    best, default = r.counts("best"), r.counts("default")
    names = list(dict.fromkeys([*(m.name for m in spec.metrics()), *catalog(spec.plugin, spec.base, spec.catalog)]))
    rows = []
    for name in names:
        metric = resolve(name, spec.plugin, spec.base, spec.catalog)
        for label, d in metric.estimates(default).items():
            b = metric.estimates(best)[label]
            rows.append({"metric": label, "default": d.value, "default_lo": d.lo, "default_hi": d.hi,
                         "best": b.value, "best_lo": b.lo, "best_hi": b.hi})
    rows.insert(0, {"metric": "games", "default": float(default.get("games", 0)), "best": float(best.get("games", 0))})
    metrics = pd.DataFrame(rows, columns=["metric", "default", "default_lo", "default_hi", "best", "best_lo", "best_hi"])
    return Section("Best vs default configuration", text=(
        "The best trial's configuration next to the default one (the base config without the searched values), "
        "on the same game seeds, with 95% intervals (Wilson for rates, Newcombe for differences, t for means)."),
        tables=[("Parameters", pd.DataFrame(prow)), ("Metrics with 95% intervals", metrics)])


def _param(game, cfg, name: str) -> str:
    if name.startswith("bot."):
        _, bot, key = name.split(".")
        return str(cfg.bot_param(bot, key, game.bots[bot].params))
    return str(cfg.params.get(name))
