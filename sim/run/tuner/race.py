"""The race of the leading candidates on common fresh seeds and the confirmation of the chosen one
against the default on seeds no trial or race played."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sim.run import runner, stats
from sim.kit.config import RunConfig
from sim.run.metrics import Counts, Estimate, read_counts, resolve
from sim.run.store import RunDir
from sim.run.tuner.spec import Candidate, TuneSpec

RACE_SEED_OFFSET = 1_000_003  # race runs play the study seed + this
CONFIRM_SEED_OFFSET = 2_000_006  # confirmation runs play the study seed + this


@dataclass
class Race:
    """The race of the leading candidates: one row per rung and candidate (``race.parquet``)."""

    rows: pd.DataFrame
    winner: Candidate
    reason: str  # one left | indistinguishable at the precision | game cap reached
    games: int  # games per candidate in the last rung


@dataclass
class Confirmation:
    """A candidate against the default on fresh games (a seed no trial or race played)."""

    chosen: Candidate
    default: Candidate
    games: int
    seed: int
    runs: tuple[Path, Path]  # chosen, default
    values: list[tuple[Estimate, Estimate]]  # per goal: (chosen, default) metric estimates
    diffs: list[Estimate]  # per goal: metric difference chosen - default
    goals: list[Estimate]  # per goal: score difference chosen - default (negative: chosen is better)
    broken: list[str]  # constraints the chosen configuration breaks on these games
    table: pd.DataFrame  # every metric: both values, the difference, its interval, a flag

    @property
    def improves(self) -> bool:
        """Better beyond noise on some goal, worse beyond noise on none, constraints kept."""
        return (any(g.hi < 0 for g in self.goals) and not any(g.lo > 0 for g in self.goals)
                and not self.broken)


def play(spec: TuneSpec, cfg: RunConfig, offset: int, games: int, out: Path) -> tuple[Path, Counts]:
    """``games`` games of ``cfg`` at the study seed + ``offset``, in ``out/<hash>-<games>``
    (resumed if there), and their counts."""
    cfg = dataclasses.replace(cfg, seed=cfg.seed + offset)
    run = runner.run(cfg, games, out / f"{cfg.digest()}-{games}", spec.run_options())
    return run.path, read_counts(spec.plugin, RunDir(run.path), range(run.batches))


def run_race(spec: TuneSpec, cands: list[Candidate], out: Path, cap: int) -> Race:
    """Race ``cands`` on common seeds (the study seed + RACE_SEED_OFFSET), from ``--games``
    games each, doubling up to ``cap``. At each rung the leader is the best candidate that
    keeps the constraints; every other candidate is compared with it (score difference with
    its 95% interval, Holm-adjusted p over the rung's comparisons) and dropped when worse
    beyond noise (adjusted p < 0.05) or when it breaks a constraint beyond noise (the
    constraint metric's whole interval outside the allowed range). The race ends when one
    candidate is left, when every difference to the leader lies within +-``--precision``
    (indistinguishable at the requested precision), or at the cap; the leader wins."""
    alive, rows, games = list(cands), [], min(spec.games, cap)
    while True:
        counts = {c.label: play(spec, c.config, RACE_SEED_OFFSET, games, out / "race")[1] for c in alive}
        leader, kept, rung = _rung(spec, alive, counts)
        rows += [{"rung": len({r["rung"] for r in rows}), "games": games, **r} for r in rung]
        alive = [leader, *kept]
        within = spec.precision is not None and all(
            max(abs(r["diff_lo"]), abs(r["diff_hi"])) <= spec.precision for r in rung if r["status"] == "kept")
        reason = ("one left" if not kept else "indistinguishable at the precision" if within
                  else "game cap reached" if games >= cap else "")
        if reason:
            return Race(pd.DataFrame(rows), leader, reason, games)
        games = min(2 * games, cap)


def _rung(spec: TuneSpec, alive: list[Candidate], counts: dict[str, Counts]):
    """One rung: (leader, the candidates kept, one record per candidate)."""
    obj, metric = spec.objective, spec.objective_metric
    est = {c.label: metric.value(counts[c.label]) for c in alive}
    fit = {c.label: constraint_fit(spec, counts[c.label]) for c in alive}
    pool = [c for c in alive if fit[c.label] != "breaks"] or alive
    sign = -1 if obj.direction() == "maximize" else 1
    leader = min(pool, key=lambda c: (fit[c.label] != "keeps", sign * obj.score(est[c.label])))
    others = [c for c in pool if c is not leader]
    diffs = [obj.score_difference(metric, counts[c.label], counts[leader.label]) for c in others]
    adjusted = stats.holm([d.p if math.isfinite(d.p) else 1.0 for d in diffs])
    kept, records = [], []
    for c in alive:
        e = est[c.label]
        rec = {"candidate": c.label, "trial": c.trial, "params": c.describe(), "value": e.value, "lo": e.lo,
               "hi": e.hi, "constraints": fit[c.label], "diff": math.nan, "diff_lo": math.nan, "diff_hi": math.nan,
               "p": math.nan, "p_holm": math.nan}
        if c is leader:
            rec["status"] = "leader"
        elif c not in pool:
            rec["status"] = "dropped: breaks a constraint"
        else:
            i = others.index(c)
            d = diffs[i]
            rec.update(diff=d.value, diff_lo=d.lo, diff_hi=d.hi, p=d.p, p_holm=float(adjusted[i]))
            worse = d.value > 0 and adjusted[i] < 0.05
            rec["status"] = "dropped: worse beyond noise" if worse else "kept"
            if not worse:
                kept.append(c)
        records.append(rec)
    return leader, kept, records


def constraint_fit(spec: TuneSpec, counts: Counts) -> str:
    """``keeps`` (every constraint met by the estimate), ``breaks`` (some constraint's 95%
    interval lies wholly outside its range) or ``unclear``."""
    worst = "keeps"
    for c, m in zip(spec.constraints, spec.constraint_metrics):
        e = m.value(counts)
        if math.isnan(e.value) or e.lo > c.hi or e.hi < c.lo:
            return "breaks"
        if c.violation(e) > 0:
            worst = "unclear"
    return worst


def confirm(spec: TuneSpec, chosen: Candidate, default: Candidate, out: Path, games: int) -> Confirmation:
    """``chosen`` and the default on ``games`` fresh games each (the study seed +
    CONFIRM_SEED_OFFSET, which no trial and no race plays): every goal and metric compared."""
    path_a, a = play(spec, chosen.config, CONFIRM_SEED_OFFSET, games, out / "confirm")
    path_b, b = play(spec, default.config, CONFIRM_SEED_OFFSET, games, out / "confirm")
    values = [(m.value(a), m.value(b)) for m in spec.objective_metrics]
    diffs = [next(iter(m.difference(a, b).values())) for m in spec.objective_metrics]
    goals = [o.score_difference(m, a, b) for o, m in zip(spec.objectives, spec.objective_metrics)]
    broken = [c.text for c, m in zip(spec.constraints, spec.constraint_metrics) if c.violation(m.value(a)) > 0]
    return Confirmation(chosen, default, games, spec.base.seed + CONFIRM_SEED_OFFSET, (path_a, path_b), values, diffs,
                        goals, broken, metric_table(spec, a, b))


def metric_table(spec: TuneSpec, a: Counts, b: Counts) -> pd.DataFrame:
    """Every metric of the game (goals and constraints first) for ``a`` (chosen) against
    ``b`` (default): both values with 95% intervals, the difference a - b with its interval and
    p, the Benjamini-Hochberg q over the table, and a flag: ``worse beyond noise`` /
    ``better beyond noise`` for metrics with a known good direction (goals, spreads, stall,
    stalemate and turn-cap rates), ``changed beyond noise`` for the others (q < 0.05)."""
    from sim.run.metrics import better, catalog

    goal_dir = {o.metric: ("lower" if o.direction() == "minimize" else "higher")
                for o in spec.objectives if o.mode != "target"}
    names = list(dict.fromkeys([*(m.name for m in spec.metrics()), *catalog(spec.plugin, spec.base, spec.catalog)]))
    rows = []
    for name in names:
        m = resolve(name, spec.plugin, spec.base, spec.catalog)
        ea, eb, dd = m.estimates(a), m.estimates(b), m.difference(a, b)
        for label, d in dd.items():
            rows.append({"metric": label, "default": eb[label].value, "default_lo": eb[label].lo,
                         "default_hi": eb[label].hi, "chosen": ea[label].value, "chosen_lo": ea[label].lo,
                         "chosen_hi": ea[label].hi, "diff": d.value, "diff_lo": d.lo, "diff_hi": d.hi, "p": d.p,
                         "good": goal_dir.get(label) or better(label) or ""})
    df = pd.DataFrame(rows)
    df["q"] = stats.fdr_bh(df["p"].fillna(1.0).to_numpy())
    df["flag"] = [_flag(r.diff, r.q, r.good) for r in df.itertuples()]
    head = {"metric": "games", "default": float(b.get("games", 0)), "chosen": float(a.get("games", 0)), "good": "",
            "flag": ""}
    return pd.concat([pd.DataFrame([head]), df], ignore_index=True)


def _flag(diff: float, q: float, good: str) -> str:
    if not q < 0.05:
        return ""
    if not good:
        return "changed beyond noise"
    return "worse beyond noise" if (diff > 0) == (good == "lower") else "better beyond noise"
