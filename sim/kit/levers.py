"""What a designer may change (``Lever``) and the rule lines of the verdict it may move (``Line``).

A game plug-in declares its levers (``Game.levers``): a rule or scoring parameter, the values a
designer would accept for it (nearest the default first: the smallest change is tried first),
and the lines it may move. A rule line is a metric of ``sim.run.metrics`` with the band it should
lie in (``Game.rule_lines``): seat order (``seat_spread``), each stall flag (``rate:<flag>``),
and the game's own. ``cardlab suggest`` searches the levers of every line outside its band
(``sim.run.tuner.prescribe``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sim.kit.config import ConfigError

SEAT_BAND = 0.01  # seat spread beyond chance of at most 1 percentage point: no seat wins 1 pp more or less
STALL_BAND = 0.01  # tolerated share of games that end at a cap or in a stalemate
SHARED_BAND = 0.05  # tolerated share of games with two or more winners
LENGTH_BAND = 0.25  # a lever may change the mean game length by at most a quarter either way


@dataclass(frozen=True)
class Line:
    """A rule line as a metric and its band (``lo``..``hi``): in band is green. ``relative``:
    the band is a share of the source run's value either way (game length has no right value,
    only a change a designer would notice)."""

    metric: str
    words: str  # "seat order", "games that end in a hard-quarantine stalemate"
    hi: float = math.inf
    lo: float = -math.inf
    relative: bool = False
    ideal: float | None = None  # the value of a perfect game (a spread's 0); None: the band's edge

    def status(self, e) -> str:
        """``out``: the estimate ``e`` outside the band and its interval clear of the ideal value
        (or of the band's edge), as the verdict marks a line amber or red; ``in``: the estimate in
        the band; ``unclear``: outside it within noise."""
        lo, hi = self.band(e.value)
        if lo <= e.value <= hi:
            return "in"
        edge_hi = hi if self.ideal is None else self.ideal
        edge_lo = lo if self.ideal is None else self.ideal
        return "out" if (e.value > hi and e.lo > edge_hi) or (e.value < lo and e.hi < edge_lo) else "unclear"

    def band(self, source_value: float) -> tuple[float, float]:
        """The band, for a relative line around ``source_value``."""
        if self.relative:
            return source_value * (1 - self.hi), source_value * (1 + self.hi)
        return self.lo, self.hi

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.metric, "words": self.words, "lo": self.lo, "hi": self.hi, "relative": self.relative}


@dataclass(frozen=True)
class Lever:
    """A parameter a designer may change to move ``lines`` (metric names), with the ``values``
    a designer would accept, nearest the default first."""

    param: str
    values: tuple
    lines: tuple[str, ...]
    doc: str = ""

    def moves(self, line: str) -> bool:
        return line in self.lines


def check_levers(game) -> None:
    """Every lever names a parameter of ``game``, values that parameter takes and lines that exist."""
    names = {ln.metric for ln in game.rule_lines(game.make_config())}
    for lv in game.levers:
        p = game.param(lv.param)
        for v in lv.values:
            p.coerce(v)
        unknown = [m for m in lv.lines if m not in names and not m.startswith(game.own_line_prefixes)]
        if unknown:
            raise ConfigError(f"{game.name}: lever {lv.param} names unknown lines {', '.join(unknown)}")


def lever_of(game, param: str) -> Lever:
    """The lever of ``param``, or a one-line ConfigError naming the levers."""
    for lv in game.levers:
        if lv.param == param:
            return lv
    raise ConfigError(f"{param} is no lever of {game.name}; levers: {', '.join(lv.param for lv in game.levers)}")


def check_setting(game, param: str, value: Any) -> Any:
    """``value`` coerced for the lever ``param``; a value outside the lever's range is a
    one-line ConfigError (the range a designer would accept: ``cardlab rules``)."""
    lv = lever_of(game, param)
    v = game.param(param).coerce(value)
    if v not in {game.param(param).coerce(x) for x in lv.values} and v != game.param(param).default:
        raise ConfigError(f"{param}={value} is outside the lever's range ({', '.join(map(str, lv.values))}, or the "
                          f"default {game.param(param).default})")
    return v
