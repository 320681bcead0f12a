"""After the search: the best trials raced and confirmed (one goal) or the Pareto front confirmed
(several), the answer and the files; ``TuneResult`` holds it all."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.kit.config import ConfigError, RunConfig
from sim.run.metrics import Counts, read_counts
from sim.run.store import RunDir
from sim.run.tuner.answer import answer, multi_answer, unmet_constraints
from sim.run.tuner.files import replacing, trials_frame, write_answer, write_config_toml, write_pareto_toml
from sim.run.tuner.race import Confirmation, Race, confirm, run_race
from sim.run.tuner.space import param_value
from sim.run.tuner.spec import Candidate, Checks, TuneSpec


@dataclass
class TuneResult:
    """A finished ``tune`` call: the study, its best trial, the race, the confirmation(s)."""

    spec: TuneSpec
    study: Any  # optuna.Study
    out: Path
    storage: str
    best: Any  # optuna.FrozenTrial: the search's best trial (single objective; first Pareto one)
    best_config: RunConfig
    default_config: RunConfig
    best_run: Path  # confirmation run of the chosen configuration (fresh seed)
    default_run: Path  # confirmation run of the default
    trials_table: Path
    best_toml: Path | None  # written for a confirmed improvement (or with --write-best)
    new_trials: int = 0
    race: Race | None = None
    confirmations: list[Confirmation] = field(default_factory=list)
    answer: str = ""
    pareto_toml: Path | None = None
    report: tuple[Path, Path] | None = None  # report.html and report.pdf, once written (reports.tuning)

    @property
    def confirmed(self) -> bool:
        return any(c.improves for c in self.confirmations)

    def counts(self, which: str) -> Counts:
        path = self.best_run if which == "best" else self.default_run
        rd = RunDir(path)
        return read_counts(self.spec.plugin, rd, [b["id"] for b in rd.manifest()["batches"]])


def conclude(spec: TuneSpec, study, out: Path, url: str, new: int, checks: Checks) -> TuneResult:
    """After the search: the trials table, then the race and the confirmation (one goal) or the
    confirmed Pareto front (several goals), the answer and its files."""
    done = [t for t in study.get_trials(deepcopy=False) if t.state.name == "COMPLETE"]
    if not done:
        raise ConfigError(f"the study in {url} has no completed trial (every configuration was invalid?)")
    table = out / "trials.parquet"
    with replacing(table) as tmp:
        trials_frame(study, spec.multi).to_parquet(tmp, index=False)
    feasible = [t for t in done if t.user_attrs.get("feasible", True)]
    if not feasible:
        raise ConfigError(f"{unmet_constraints(spec, done)}; no best.toml written; trials in {table}")
    default = Candidate("default", {d.name: param_value(spec.plugin, spec.base, d.name) for d in spec.space}, spec.base)
    if spec.multi:
        return _multi_results(spec, study, out, url, new, default, checks)
    return _single_results(spec, study, feasible, out, url, new, default, checks)


def _single_results(spec, study, feasible, out, url, new, default, checks) -> TuneResult:
    """One goal: the best feasible trials raced with the default, the winner confirmed on fresh
    games, best.toml written for a confirmed improvement (or with ``--write-best``)."""
    ranked = _ranked(spec, feasible)
    race = None
    cands = _candidates(spec, ranked, max(1, checks.race), default)
    chosen = cands[1] if len(cands) > 1 else None
    if checks.race and len(cands) > 1:
        race = run_race(spec, cands, out, checks.race_games or 8 * spec.games)
        if race.winner.label != "default":
            chosen = race.winner
        with replacing(out / "race.parquet") as tmp:
            race.rows.to_parquet(tmp, index=False)
    confs = [confirm(spec, chosen, default, out, checks.confirm_games or 4 * spec.games)] if chosen else []
    text = answer(spec, confs[0] if confs else None, default)
    toml = out / "best.toml"
    toml.unlink(missing_ok=True)  # a best.toml of an earlier call must not outlive its answer
    if confs and (confs[0].improves or checks.write_best):
        note = ("confirmed: " if confs[0].improves else "NOT a confirmed improvement (written with --write-best): ")
        write_config_toml(spec, chosen.config, toml, note + text)
    runs = confs[0].runs if confs else (None, None)
    write_answer(out, text, race, confs)
    return TuneResult(spec, study, out, url, ranked[0], chosen.config if chosen else spec.base, spec.base, runs[0],
                      runs[1], out / "trials.parquet", toml if toml.exists() else None, new, race, confs, text)


def _ranked(spec: TuneSpec, trials) -> list:
    """Trials best first on the (single) objective."""
    return sorted(trials, key=lambda t: t.value, reverse=spec.objective.direction() == "maximize")


def _candidates(spec: TuneSpec, ranked, k: int, default: Candidate) -> list[Candidate]:
    """The default, then the ``k`` best trials of distinct configurations (a trial that plays
    the default configuration is the default)."""
    out = [default]
    seen = {spec.base.digest()}
    for t in ranked:
        if len(out) > k:
            break
        cfg = spec.config(dict(t.params))
        if cfg.digest() not in seen:
            seen.add(cfg.digest())
            out.append(Candidate(f"trial {t.number}", dict(t.params), cfg, t.number))
    return out


PARETO_MAX = 8  # Pareto configurations confirmed at most (the first ones by the first goal)


def pareto_candidates(spec: TuneSpec, study) -> list[Candidate]:
    """The feasible Pareto-front trials of distinct, non-default configurations."""
    front = sorted((t for t in study.best_trials if t.user_attrs.get("feasible", True)),
                   key=lambda t: (t.values[0] * (-1 if spec.objectives[0].direction() == "maximize" else 1)))
    seen, out = {spec.base.digest()}, []
    for t in front:
        cfg = spec.config(dict(t.params))
        if cfg.digest() not in seen and len(out) < PARETO_MAX:
            seen.add(cfg.digest())
            out.append(Candidate(f"trial {t.number}", dict(t.params), cfg, t.number))
    return out


def _multi_results(spec, study, out, url, new, default, checks) -> TuneResult:
    """Several goals: every Pareto configuration confirmed against the default, pareto.toml."""
    cands = pareto_candidates(spec, study)
    confs = [confirm(spec, c, default, out, checks.confirm_games or 4 * spec.games) for c in cands]
    text = multi_answer(spec, confs, default)
    toml = out / "pareto.toml"
    write_pareto_toml(spec, confs, toml, text)
    (out / "best.toml").unlink(missing_ok=True)
    write_answer(out, text, None, confs)
    best = study.best_trials[0] if not cands else next(t for t in study.trials if t.number == cands[0].trial)
    runs = confs[0].runs if confs else (None, None)
    return TuneResult(spec, study, out, url, best, cands[0].config if cands else spec.base, spec.base, runs[0], runs[1],
                      out / "trials.parquet", None, new, None, confs, text, toml)
