"""Daifugō's law lines for ``cardlab suggest``: each law's effect on a measure of the round, and
the lever that weakens it.

A law line is ``law:<card>:<measure>``: the change the card brings when in force as a law, on
king retention or the seat spread of round wins (percentage points) or on round length and the
spread of final scores (relative): in band up to the practical threshold (``MIN_SHARE``,
``MIN_RELATIVE``) either way, or any fall where lower is the aim (king retention, spreads). The
reference is the report's: the base game (``daifugo_rule_cards.joint_law_effects`` against the
run's control run, the same config with no law in force) whenever the run has one, and every run
the check plays is played with its control on the same seed; a source run without a control run is
screened against the other laws' average (``stratified_law_effects``), and each line says which.
A line is out of its band when its estimate is and its 95% interval excludes 0. For each
such line the levers that name it (``Game.levers``) are played on fresh seeds against the run's
config, the smallest change whose effect lands in band is prescribed (else the closest), with
the game's other rule lines before -> after and the same check by the strong population; a line
no lever names gets "no lever", so the card's text is the change to make.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable

import numpy as np

from analysis.games import daifugo_rule_cards as rule_cards
from sim.run.metrics import Estimate
from sim.run.tuner.prescribe import holds_for, side_effect, toward

LAW_SEED_OFFSET = 6_000_029  # the law checks play the source seed + this (+ 1 for the strong population)
MIN_SHARE = 0.01  # a law effect of at least 1 percentage point on a share is out of band
MIN_RELATIVE = 0.05  # on round length or score spread: at least 5% either way
# measure: (words, is a share, lower is the aim); the aims are the verdict's (``daifugo_rule_cards.LAW_TARGET``)
MEASURES = {m: (words, share, rule_cards.LAW_TARGET[m] == -1) for m, words, share in (
    ("king", "king retention", True), ("spread", "seat spread of round wins", True),
    ("plays", "round length", False), ("score_sd", "spread of final scores", False))}


def line_name(card: int, measure: str) -> str:
    return f"law:{card:02d}:{measure}"


def law_value(row: dict, measure: str) -> dict:
    """A law's effect on ``measure`` with its interval: the difference for shares, relative to the
    value without it for the others."""
    d, lo, hi = (float(row[f"{measure}_{k}"]) for k in ("diff", "lo", "hi"))
    if not MEASURES[measure][1]:
        base = float(row[f"{measure}_without"])
        d, lo, hi = (x / base if base else np.nan for x in (d, lo, hi))
    return {"value": d, "lo": lo, "hi": hi}


def band(measure: str) -> list[float]:
    """A rise of at most the practical threshold; a fall too, unless lower is the aim."""
    _, share, lower = MEASURES[measure]
    limit = MIN_SHARE if share else MIN_RELATIVE
    return [-np.inf if lower else -limit, limit]


def status(e: dict, measure: str) -> str:
    lo, hi = band(measure)
    if not np.isfinite(e["value"]) or lo <= e["value"] <= hi:
        return "in"
    return "out" if e["lo"] > 0 or e["hi"] < 0 else "unclear"


def law_lines(run) -> list[dict]:
    """Every law line of the run with its value, band, status and reference."""
    out = []
    for row in effects(run).to_dict("records"):
        for measure, (words, _, _) in MEASURES.items():
            e = law_value(row, measure)
            out.append({"line": line_name(int(row["id"]), measure), "words": f"law {row['card']}: {words}",
                        "band": band(measure), **e, "status": status(e, measure), "measured": reference(run)})
    return out


_EFFECTS: dict[tuple[str, str], object] = {}  # (run, control) paths -> law effects (a check reads a run's several times)


def effects(run):
    """The run's law effects, computed once: against the base game when the run has a control run
    (``run.control``), else against the other laws' average."""
    control = getattr(run, "control", None)
    key = (str(run.path), str(control.path) if control is not None else "")
    if key not in _EFFECTS:
        _EFFECTS[key] = (rule_cards.joint_law_effects(run, control) if control is not None
                         else rule_cards.stratified_law_effects(run))
    return _EFFECTS[key]


BASE_REFERENCE = "against the base game (its control run: the same config and seed with no law in force)"
OTHERS_REFERENCE = "against the other laws' average (no control run: the rounds without the law at the same round number)"


def reference(run) -> str:
    """What the run's law effects are measured against, in words."""
    return BASE_REFERENCE if getattr(run, "control", None) is not None else OTHERS_REFERENCE


def _row(run, card: int) -> dict | None:
    eff = effects(run)
    rows = eff[eff["id"] == card].to_dict("records")
    return rows[0] if rows else None


def prescriptions(source, out: Path, games: int, workers: int, todo: list[dict], levers,
                  notify: Callable[[str], None]) -> list[dict]:
    """One prescription per law line of ``todo`` (out of its band; see the module docstring),
    searched with ``levers``; the runs are shared by the lines (named by config and games)."""
    found = []
    for ln in todo:
        named = [lv for lv in levers if lv.moves(ln["line"])]
        base = {"game": source.config.game, "line": ln["line"], "words": ln["words"], "band": ln["band"],
                "measured": BASE_REFERENCE,
                "before": {k: ln[k] for k in ("value", "lo", "hi")}, "after": None, "set": {}, "side_effects": [],
                "populations": {}, "holds_for": "none"}
        if not named:
            found.append({**base, "status": "none", "reason": "the game declares no lever for this law's strength, so "
                                                              "the card's text is the change to make"})
            continue
        notify(f"{ln['line']} ({ln['words']}) is out of its band: playing its levers")
        found.append({**base, **_search(source, ln, named, out, games, workers)})
    return found


def _play(source, cfg, games: int, out: Path, workers: int):
    """The run of ``cfg`` with its control run (the base game, same seed and games) attached, so
    its law effects are measured against the base game as the report's are."""
    from analysis.games.daifugo_control import control_config
    from analysis.load import Run
    from sim.run import runner
    from sim.run.runner import RunOptions

    runs = []
    for c in (cfg, control_config(cfg)):
        path = out / f"{c.digest()}-{games}"
        runner.run(c, games, path, RunOptions(workers=workers, progress=False))
        runs.append(Run(path))
    runs[0].control = runs[1]
    return runs[0]


def _measure(run, ln: dict) -> dict:
    card, measure = int(ln["line"].split(":")[1]), ln["line"].split(":")[2]
    row = _row(run, card)
    return law_value(row, measure) if row else {"value": np.nan, "lo": np.nan, "hi": np.nan}


def _gap(e: dict, band: list[float]) -> float:
    lo, hi = band
    return max(lo - e["value"], e["value"] - hi, 0.0) if np.isfinite(e["value"]) else np.inf


def _with(cfg, setting: dict):
    return dataclasses.replace(cfg, params={**cfg.params, **setting})


def _search(source, ln: dict, levers: list, out: Path, games: int, workers: int) -> dict:
    """Every lever value against the run's config on one fresh seed (the screen); the one nearest
    the band, smallest change first, confirmed against the run's config on another fresh seed
    (the run's bots) and played by the strong population on a third; its side effects from the
    confirmation."""
    seed = source.config.seed + LAW_SEED_OFFSET
    screen = dataclasses.replace(source.config, seed=seed)
    tried = []
    for rank in range(max(len(lv.values) for lv in levers)):
        for lv in levers:
            if rank < len(lv.values):
                setting = {lv.param: source.game.param(lv.param).coerce(lv.values[rank])}
                tried.append((setting, _measure(_play(source, _with(screen, setting), games, out, workers), ln)))
    setting, _ = min(tried, key=lambda t: (_gap(t[1], ln["band"]), tried.index(t)))
    confirm = dataclasses.replace(source.config, seed=seed + 1)
    before_run, after_run = (_play(source, c, games, out, workers) for c in (confirm, _with(confirm, setting)))
    pops = {f"the run's bots ({', '.join(source.config.bots)})": _population(_measure(before_run, ln),
                                                                             _measure(after_run, ln), ln["band"])}
    strong = source.game.strong_bot
    if strong and set(source.config.bots) != {strong}:
        scfg = dataclasses.replace(source.config, seed=seed + 2, bots=(strong,) * source.config.players, bot_params={})
        s_before, s_after = (_measure(_play(source, c, games, out, workers), ln) for c in (scfg, _with(scfg, setting)))
        pops[f"{strong} bots in every seat"] = _population(s_before, s_after, ln["band"])
    mine = next(iter(pops.values()))
    side = side_effects(source, before_run, after_run)
    harmful = [s["line"] for s in side if s["harmful"]]
    in_band = _gap(mine["after"], ln["band"]) == 0 and not any(s["left"] for s in side)
    status = "none" if not mine["better"] or harmful else "prescribed" if in_band else "closest"
    held = holds_for(pops)
    if status != "none" and held in ("disagree", "none"):
        status = "not advised"
    reason = ("it moves " + ", ".join(harmful) + " out of its band" if harmful else
              "no lever value moved the law's effect beyond noise on the confirmation games" if not mine["better"] else
              "the populations disagree" if status == "not advised" else "")
    return {"status": status, "set": setting, "before": mine["before"], "after": mine["after"],
            "change": mine["change"], "games": games, "seed": confirm.seed, "harmful": harmful,
            "tried": [{"set": s, "screen": e} for s, e in tried], "side_effects": side, "populations": pops,
            "holds_for": held, **({"reason": reason} if reason else {})}


def _difference(a: dict, b: dict) -> dict:
    """a - b, the two estimates' intervals taken as independent (conservative: the runs share seeds)."""
    se = np.hypot(a["hi"] - a["lo"], b["hi"] - b["lo"]) / 2
    d = a["value"] - b["value"]
    return {"value": d, "lo": d - se, "hi": d + se}


def _population(before: dict, after: dict, band: list[float]) -> dict:
    """One population's check: the law's effect before and after, and which way it moved
    (``sim.run.tuner.prescribe.toward``)."""
    d = _difference(after, before)
    way = toward(Estimate(d["value"], d["lo"], d["hi"]), before["value"], tuple(band))
    return {"before": before, "after": after, "change": d, "in_band": bool(_gap(after, band) == 0),
            "better": way == "better", "worse": way == "worse"}


def side_effects(source, before, after) -> list[dict]:
    """The game's metric lines on the run's config and on the change (same seed), each marked
    harmful when the change takes it out of its band beyond noise (``side_effect``)."""
    from sim.run.metrics import read_counts, sample_columns

    game = source.game
    catalog = sample_columns(game, before.config)
    counts = [read_counts(game, r.dir, [b["id"] for b in r.meta["batches"]]) for r in (after, before)]
    return [side_effect(game, before.config, catalog, ln, *counts) for ln in game.rule_lines(before.config)]
