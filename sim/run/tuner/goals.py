"""The goals and constraints of ``cardlab tune``: ``--minimize M``, ``--maximize M``, ``--target
M=V`` or ``--target M=LO..HI`` (distance to the band), each repeatable; constraints ``"M in
lo..hi"``, ``"M <= x"``, ``"M >= x"``, with metric names from ``sim.run.metrics``."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from sim.run import stats
from sim.kit.config import ConfigError
from sim.run.metrics import Counts, Estimate, Metric


@dataclass(frozen=True)
class Objective:
    """``minimize`` or ``maximize`` a metric, or ``target``: minimize |metric - target|, or the
    distance from the metric to a ``band`` (0 inside it)."""

    mode: str
    metric: str
    target: float | None = None
    band: tuple[float, float] | None = None

    def direction(self) -> str:
        return "maximize" if self.mode == "maximize" else "minimize"

    def score(self, e: Estimate) -> float:
        if self.mode != "target":
            return e.value
        if self.band is not None:
            return max(self.band[0] - e.value, e.value - self.band[1], 0.0)
        return abs(e.value - self.target)

    def describe(self) -> str:
        if self.band is not None:
            return f"target {self.metric} in {self.band[0]:g}..{self.band[1]:g}"
        return f"target {self.metric} = {self.target}" if self.mode == "target" else f"{self.mode} {self.metric}"

    def identity(self) -> list:
        return [self.mode, self.metric, list(self.band) if self.band else self.target]

    def score_difference(self, metric: Metric, a: Counts, b: Counts) -> Estimate:
        """How much worse ``a`` is than ``b`` on this goal, as a minimized score (negative: ``a``
        is better), with its 95% interval and p-value. A distance to a target or band gets the
        standard error of the metric's difference (the distance has slope 1 in the metric)."""
        d = next(iter(metric.difference(a, b).values()))
        if self.mode == "minimize":
            return d
        if self.mode == "maximize":
            return Estimate(-d.value, -d.hi, -d.lo, d.p)
        gap = self.score(metric.value(a)) - self.score(metric.value(b))
        t = stats.estimate_test(gap, d.half_width / 1.959964 if math.isfinite(d.half_width) else math.nan)
        return Estimate(t["diff"], t["lo"], t["hi"], t["p"])


def parse_objective(minimize: str | None, maximize: str | None, target: str | None) -> Objective:
    """Exactly one goal (the single-objective form)."""
    goals = parse_objectives(minimize, maximize, target)
    if len(goals) != 1:
        raise ConfigError("give exactly one of --minimize METRIC, --maximize METRIC, --target METRIC=VALUE")
    return goals[0]


def parse_objectives(minimize, maximize, target) -> list[Objective]:
    """The goals of a study: each option a string or a list of strings (repeated options);
    more than one goal makes a multi-objective study. ``--target M=V`` or ``M=LO..HI``."""
    goals = []
    for mode, texts in (("minimize", minimize), ("maximize", maximize), ("target", target)):
        for text in [texts] if isinstance(texts, str) else texts or []:
            goals.append(Objective(mode, text.strip()) if mode != "target" else _target(text))
    if not goals:
        raise ConfigError("give --minimize METRIC, --maximize METRIC or --target METRIC=VALUE (repeatable)")
    if len({g.metric for g in goals}) < len(goals):
        raise ConfigError("each metric may be the goal of one --minimize, --maximize or --target only")
    return goals


def _target(text: str) -> Objective:
    name, sep, value = text.partition("=")
    where = f"--target {text!r}"
    if not sep:
        _number("", where)
    if ".." in value:
        lo, hi = (_number(v, where) for v in value.split("..", 1))
        if lo > hi:
            raise ConfigError(f"{where}: empty band {lo:g}..{hi:g}")
        return Objective("target", name.strip(), (lo + hi) / 2, (lo, hi))
    return Objective("target", name.strip(), _number(value, where))


@dataclass(frozen=True)
class Constraint:
    """``metric`` within ``lo..hi`` (either end may be open); feasible when violation <= 0."""

    metric: str
    lo: float = -math.inf
    hi: float = math.inf
    text: str = ""

    def violation(self, e: Estimate) -> float:
        return max(self.lo - e.value, e.value - self.hi)


def parse_constraint(text: str) -> Constraint:
    m = re.fullmatch(r"\s*(\S+)\s+in\s+(\S+?)\s*\.\.\s*(\S+)\s*", text)
    if m:
        lo, hi = _number(m[2], text), _number(m[3], text)
        if lo > hi:
            raise ConfigError(f"constraint {text!r}: empty range {lo}..{hi}")
        return Constraint(m[1], lo, hi, text.strip())
    m = re.fullmatch(r"\s*(\S+?)\s*(<=|>=)\s*(\S+)\s*", text)
    if m:
        x = _number(m[3], text)
        return Constraint(m[1], hi=x, text=text.strip()) if m[2] == "<=" else Constraint(m[1], lo=x, text=text.strip())
    raise ConfigError(f"bad --constraint {text!r}: expected 'METRIC in LO..HI', 'METRIC <= X' or 'METRIC >= X'")


def _number(text: str, where: str) -> float:
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not math.isfinite(x):
        raise ConfigError(f"{where}: expected a number, got {text.strip()!r}")
    return x
