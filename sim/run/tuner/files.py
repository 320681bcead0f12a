"""The files a study writes beside its storage: ``answer.json``, ``confirmation.parquet``,
``pareto.toml``, ``best.toml`` and ``trials.parquet``, each written whole (``replacing``)."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from sim.kit.config import RunConfig
from sim.run.tuner.race import Confirmation, Race
from sim.run.tuner.spec import FINISHED, STUDY_KEY, TuneSpec


def write_answer(out: Path, text: str, race: Race | None, confs: list[Confirmation]) -> None:
    """``OUT/answer.json``: the answer, the race's outcome, each confirmation's goals, and
    ``confirmation.parquet``: each confirmation's metric table."""
    doc = {"answer": text,
           "race": None if race is None else {"winner": race.winner.label, "reason": race.reason, "games": race.games},
           "confirmations": [{"candidate": c.chosen.label, "params": c.chosen.params, "games": c.games, "seed": c.seed,
                              "improves": c.improves, "broken": c.broken,
                              "goals": [{"value": g.value, "lo": g.lo, "hi": g.hi, "p": g.p} for g in c.goals]}
                             for c in confs]}
    with replacing(out / "answer.json") as tmp:
        tmp.write_text(json.dumps(doc, indent=2, default=_json_default) + "\n")
    if confs:
        frame = pd.concat([c.table.assign(candidate=c.chosen.label) for c in confs], ignore_index=True)
        with replacing(out / "confirmation.parquet") as tmp:
            frame.to_parquet(tmp, index=False)


def _json_default(x):
    return x.item() if hasattr(x, "item") else str(x)


def write_pareto_toml(spec: TuneSpec, confs: list[Confirmation], path: Path, note: str) -> None:
    """``pareto.toml``: every confirmed Pareto configuration, its parameters and goals; pick one
    and pass its parameters as ``--set`` or a ``[params]`` table."""
    import tomli_w

    entries = []
    for c in confs:
        goals = {o.metric: {"chosen": v[0].value, "default": v[1].value, "diff": d.value, "diff_lo": d.lo,
                            "diff_hi": d.hi} for o, v, d in zip(spec.objectives, c.values, c.diffs)}
        entries.append({"label": c.chosen.label, "params": c.chosen.params, "improves": c.improves,
                        "broken": c.broken, "games": c.games, "goals": goals})
    with replacing(path) as tmp:
        tmp.write_text(f"# cardlab tune {spec.game}: {note}\n" + tomli_w.dumps({"pareto": entries}))


def write_config_toml(spec: TuneSpec, cfg: RunConfig, path: Path, note: str) -> None:
    """``cfg`` as a TOML file ``cardlab simulate --config`` accepts: players, bots, seed, the
    parameters that differ from the defaults or were searched, bot parameters."""
    import tomli_w

    searched = {d.name for d in spec.space}
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in cfg.params.items()
              if k in searched or spec.plugin.param(k).default != v}
    doc = {"players": cfg.players, "bots": list(cfg.bots), "seed": cfg.seed, "params": params}
    if cfg.bot_params:
        doc["bot_params"] = cfg.bot_params
    with replacing(path) as tmp:
        tmp.write_text(f"# cardlab tune {spec.game}: {note}\n" + tomli_w.dumps(doc))


@contextmanager
def replacing(path: Path):
    """Yield a temporary path next to ``path``; rename it over ``path`` when the block succeeds."""
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def trials_frame(study, multi: bool = False) -> pd.DataFrame:
    """One row per trial: number, state, value(s), times, parameters and measured metrics."""
    df = study.trials_dataframe(attrs=("number", "values" if multi else "value", "datetime_start", "datetime_complete",
                                       "duration", "params", "user_attrs", "state"))
    df["state"] = df["state"].astype(str)
    df = df[df["state"].isin(FINISHED)].reset_index(drop=True)  # not the running, failed or waiting ones
    by_trial = {t.number: t.constraints for t in study.get_trials(deepcopy=False)}
    for c in study.user_attrs.get(STUDY_KEY, {}).get("constraints", []):
        df[f"constraint {c}"] = df["number"].map(lambda n: by_trial.get(n, {}).get(c))
    return df
