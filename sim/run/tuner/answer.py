"""The answer of a study in one sentence, and why no trial is feasible, in words."""

from __future__ import annotations

import math

from sim.run.metrics import Estimate
from sim.run.tuner.goals import Constraint, Objective
from sim.run.tuner.race import Confirmation
from sim.run.tuner.spec import Candidate, TuneSpec

WORDS = {"seat_spread": "the seat spread (beyond chance)", "bot_spread": "the bot spread (beyond chance)",
         "seat_spread_raw": "the raw seat spread", "bot_spread_raw": "the raw bot spread"}


def _words(metric: str) -> str:
    return WORDS.get(metric, metric)


def _n(x: float) -> str:
    return f"{x:.4g}"


def _diff_text(d: Estimate) -> str:
    return f"difference {d.value:+.4g}, 95% interval {d.lo:+.4g} to {d.hi:+.4g}"


def goal_phrase(o: Objective, values: tuple[Estimate, Estimate], diff: Estimate, goal: Estimate) -> str:
    """``lowers the seat spread from X to Y (difference D, 95% interval ...)`` and the like."""
    a, b = values
    if o.mode == "target":
        aim = f"the {o.metric} band {o.band[0]:g}..{o.band[1]:g}" if o.band else f"{o.metric} = {o.target:g}"
        verb = "brings" if goal.value < 0 else "takes"
        return (f"{verb} {o.metric} from {_n(b.value)} to {_n(a.value)}, {'closer to' if goal.value < 0 else 'away from'} "
                f"{aim} (distance to it changes by {goal.value:+.4g}, 95% interval {goal.lo:+.4g} to {goal.hi:+.4g})")
    verb = "lowers" if diff.value < 0 else "raises"
    return f"{verb} {_words(o.metric)} from {_n(b.value)} to {_n(a.value)} ({_diff_text(diff)})"


def answer(spec: TuneSpec, conf: Confirmation | None, default: Candidate) -> str:
    """The study's answer in one sentence (single objective)."""
    if conf is None:
        return ("no configuration tried beats the default by more than the noise (the default configuration "
                f"{default.describe()} was the search's best)")
    o = spec.objective
    phrase = goal_phrase(o, conf.values[0], conf.diffs[0], conf.goals[0])
    fresh = f"{conf.games:,} fresh games each"
    if conf.improves:
        return f"{conf.chosen.describe()} {phrase} against the default {default.describe()}, on {fresh}"
    why = f"; it breaks {', '.join(repr(c) for c in conf.broken)}" if conf.broken else ""
    return (f"no configuration tried beats the default {default.describe()} by more than the noise (the race's choice "
            f"{conf.chosen.describe()} {phrase}, on {fresh}{why})")


def multi_answer(spec: TuneSpec, confs: list[Confirmation], default: Candidate) -> str:
    """The answer of a multi-objective study in one sentence."""
    good = [c for c in confs if c.improves]
    fresh = f"{confs[0].games:,} fresh games each" if confs else "no fresh games"
    if not good:
        return (f"no configuration on the Pareto front ({len(confs)} confirmed against the default "
                f"{default.describe()} on {fresh}) beats the default by more than the noise on a goal "
                "without losing on another")
    parts = [f"{c.chosen.describe()} " + " and ".join(goal_phrase(o, v, d, g) for o, v, d, g in
                                                       zip(spec.objectives, c.values, c.diffs, c.goals)) for c in good]
    return (f"{len(good)} of {len(confs)} configurations on the Pareto front beat the default {default.describe()} "
            f"beyond the noise (on {fresh}): " + "; ".join(parts))


def unmet_constraints(spec: TuneSpec, trials) -> str:
    """Why no trial is feasible, in words: the constraints that no trial met, each with the value
    that came closest, or that each was met but never all at once."""
    def closest(c: Constraint):
        t = min(trials, key=lambda t: t.constraints[c.text])
        return f"'{c.text}' (closest: {c.metric} = {t.user_attrs.get(c.metric, math.nan):.4g} in trial {t.number})"

    never = [c for c in spec.constraints if all(t.constraints[c.text] > 0 for t in trials)]
    if never:
        return f"no trial of {len(trials)} met " + " nor ".join(closest(c) for c in never)
    return f"no trial of {len(trials)} met every constraint at once ({', '.join(repr(c.text) for c in spec.constraints)})"
