"""One test of a report (``Candidate``: the measured value with its interval, the comparison
value, effect, p and q) and its verdict mark (``Mark``, ``level``): shared by the findings, the
verdict pages and the games' report modules (``analysis.games``).

**The rule behind every word label** (``RULE``, ``label``): an effect is *significant* when its
Benjamini-Hochberg q is below ``ALPHA`` (and so its 95% interval excludes 0); it is *large enough
to act on* when it is significant and its estimate is at least its practical threshold. Green
("fine", "no effect to act on", "keep", "even") unless it is large enough to act on; amber up to
``RED_FACTOR`` times the threshold; red beyond. An interval that excludes 0 while q is not below
``ALPHA`` is "not significant after adjusting for the report's tests", never "no effect". Numbers
print alike at both ends of an interval (``percents``) and q as "q < 0.001" or two significant
digits (``q_text``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ALPHA = 0.05
MIN_RELATIVE_EFFECT = 0.05  # practical threshold for measures that are not rates: 5% of the baseline
LIST_OF_KIND = {"bot": "bot", "stall": "sanity", "guard": "sanity"}  # every other kind is a design issue
SHARED_WIN = "a shared win"  # the subject of the shared-win test (``analysis.findings``)
DESIGNED_ENDS = ("a hard-quarantine stalemate", SHARED_WIN)  # ends the rules provide for: a design issue when frequent


@dataclass
class Candidate:
    """One test: the measured rate with its interval, the comparison value, effect and p."""

    run: str
    section: str  # title of the report section that shows the numbers
    subject: str  # e.g. "seat 0", "bot greedy", "turn cap"
    kind: str  # "seat", "bot" or "stall"
    rate: float
    lo: float
    hi: float
    baseline: float
    effect: float  # rate - baseline (for ``unit`` other than a share: rate / baseline - 1)
    p: float
    q: float = np.nan
    # for game-specific kinds: the sentence's head up to the number ("the holder of precept 07
    # ... wins"), what follows it ("of games") and the comparison ("for the other players ...")
    head: str = ""
    tail: str = ""
    base: str = ""
    unit: str = "share"  # "share" (drawn as %; effect in percentage points) or a unit such as "plays"
    # 95% interval of the difference rate - baseline (in the measure's unit), from the test's method
    diff_lo: float = np.nan
    diff_hi: float = np.nan
    # the direction the measure should take (-1: lower is better, +1: higher; 0: none): an effect that
    # way is welcome, a finding with nothing to change (daifugo's laws on king retention, seat spread)
    aim: int = 0

    @property
    def welcome(self) -> bool:
        """Does the effect go the way its measure should (``aim``)?"""
        return self.aim != 0 and np.sign(self.effect) == self.aim

    def sentence(self) -> str:
        val = percent if self.unit == "share" else (lambda v: f"{v:.3g} {self.unit}")  # noqa: E731
        if self.head:
            head, base = f"{self.head} {val(self.rate)}{' ' + self.tail if self.tail else ''}", self.base
        else:
            base = {"seat": "the other seats", "bot": "the other bots", "stall": "the tolerated rate"}[self.kind]
            head = f"{self.subject} wins {val(self.rate)} of games" if self.kind != "stall" else \
                f"{self.subject[0].upper()}{self.subject[1:]} ends {val(self.rate)} of games"
            base = f"for {base}"
        if self.kind in ("stall", "guard"):  # a rate against what is tolerated: the rate and its interval say it
            tolerated = "it should never happen" if self.baseline == 0 else f"tolerated: {val(self.baseline)}"
            if self.unit == "share":
                rate, lo, hi = percents(self.rate, self.lo, self.hi)
                head = head.replace(val(self.rate), rate, 1)
            else:
                lo, hi = val(self.lo), val(self.hi)
            return f"{self.run_name}: {head} (95% CI {lo}-{hi}); {tolerated}."
        welcome = f"; {'lower' if self.aim < 0 else 'higher'} is the aim: nothing to change" if self.welcome else ""
        return f"{self.run_name}: {head} against {val(self.baseline)} {base}: {self.difference()}{welcome}."

    def difference(self) -> str:
        """The difference with its own 95% interval (and, for other measures, as a relative change)."""
        has_ci = np.isfinite(self.diff_lo) and np.isfinite(self.diff_hi)
        if self.unit == "share":
            ci = f" (95% CI {100 * self.diff_lo:+.1f} to {100 * self.diff_hi:+.1f})" if has_ci else ""
            return f"{100 * self.effect:+.1f} percentage points{ci}"
        d = self.rate - self.baseline
        ci = f", 95% CI {self.diff_lo:+.3g} to {self.diff_hi:+.3g}" if has_ci else ""
        return f"{d:+.3g} {self.unit}{ci} ({100 * self.effect:+.1f}%)"

    def effect_text(self) -> str:
        """The effect as its sentence gives it: pp for a share, the rate for a stall, the
        difference in the unit with its relative change for other measures."""
        if self.kind in ("stall", "guard"):
            return f"{percents(self.rate)[0]} (tolerated {percents(self.baseline)[0]})"
        if self.unit == "share":
            return f"{100 * self.effect:+.1f} pp"
        return f"{self.rate - self.baseline:+.3g} {self.unit} ({100 * self.effect:+.1f}%)"

    def interval_text(self) -> str:
        """The 95% interval of the difference, in ``effect_text``'s unit (a stall's: of its rate)."""
        if not (np.isfinite(self.diff_lo) and np.isfinite(self.diff_hi)):
            return ""
        if self.kind in ("stall", "guard"):
            return " to ".join(percents(self.lo, self.hi))
        if self.unit == "share":
            return f"{100 * self.diff_lo:+.1f} to {100 * self.diff_hi:+.1f} pp"
        return f"{self.diff_lo:+.3g} to {self.diff_hi:+.3g} {self.unit}"

    def reference_words(self) -> str:
        """What the test measures against, in words (the same in every place that shows it)."""
        if self.kind in ("stall", "guard"):
            return "never" if self.baseline == 0 else "the tolerated rate"
        if self.base:
            return self.base.split("reference: ", 1)[-1].rstrip(")") if "reference: " in self.base else \
                self.base.removeprefix("for ")
        return {"seat": "the other seats", "bot": "the other bots"}.get(self.kind, "")

    def size(self) -> float:
        """The effect on the scale of its practical threshold (a share, or relative to the baseline)."""
        return abs(self.effect)

    @property
    def list(self) -> str:
        """Which findings list the test belongs to (a key of ``LISTS``)."""
        if self.kind == "stall" and self.subject in DESIGNED_ENDS:
            return "design"
        return LIST_OF_KIND.get(self.kind, "design")

    @property
    def run_name(self) -> str:
        """The run's short name (its directory), for sentences grouped under a game."""
        return self.run.rsplit(": ", 1)[-1]

    def practical(self, min_effect: float) -> float:
        """The effect as a multiple of its practical threshold: the ranking of the lists."""
        if self.kind in ("stall", "guard"):  # the rate over the tolerated rate
            return self.rate / max(self.baseline, 1e-3)
        return self.size() / (min_effect if self.unit == "share" else MIN_RELATIVE_EFFECT)

    def qualifies(self, min_effect: float) -> bool:
        """Practically large: stall rates above the tolerated rate (their threshold), rate
        effects at least ``min_effect`` in either direction, other measures at least
        ``MIN_RELATIVE_EFFECT`` of the baseline."""
        if self.kind in ("stall", "guard"):
            return self.effect > 0
        return self.size() >= (min_effect if self.unit == "share" else MIN_RELATIVE_EFFECT)


def percent(v: float) -> str:
    """A share as a percentage, with two decimals below 1% (so that 0.06% does not print as 0.0%)."""
    return f"{100 * v:.2f}%" if abs(v) < 0.01 and v != 0 else f"{100 * v:.1f}%"


RED_FACTOR = 3.0  # an effect this many times its threshold is red
MARKS = {"green": "fine", "amber": "worth a look", "red": "act on it"}


GROUPS = ("design", "bot", "engine")  # a verdict line is about the rules, the bots or the engine


@dataclass(frozen=True)
class Mark:
    level: str  # green | amber | red
    text: str
    group: str = "design"  # one of GROUPS: only design lines count towards a run's overall verdict
    line: str = ""  # the rule line's metric (``sim.kit.levers.Line``) that ``cardlab suggest`` prescribes for


RULE = (f"One rule gives every colour and word: an effect is significant when its Benjamini-Hochberg q is below "
        f"{ALPHA} (so its 95% interval excludes 0), and large enough to act on when it is also at least its "
        f"practical threshold; then it is amber, and red from {RED_FACTOR:g} times the threshold; anything else is "
        "green. An interval that excludes 0 with q not below the limit is not significant after adjusting for the "
        "report's tests.")


def label(q: float, size: float) -> str:
    """``RULE``: the level of an effect with BH q-value ``q`` and size ``size`` (the estimate over
    its practical threshold): green unless significant and at least 1, red from ``RED_FACTOR``."""
    tol = 1e-9  # a size computed as 2.9999999999999996 is 3
    if not (q < ALPHA and size >= 1 - tol):
        return "green"
    return "red" if size >= RED_FACTOR - tol else "amber"


def level(c: Candidate | None, min_effect: float) -> str:
    if c is None or not c.qualifies(min_effect):
        return "green"
    return label(c.q, c.practical(min_effect))


def q_value(q: float) -> str:
    """A q- or p-value as a table prints it: "< 0.001", else two significant digits."""
    if not np.isfinite(q):
        return "n/a"
    return "< 0.001" if q < 0.001 else f"{q:.2g}"


def q_text(q: float) -> str:
    """A q-value in a sentence: "q < 0.001", else "q = " and two significant digits."""
    v = q_value(q)
    return f"q {v}" if v.startswith("<") else f"q = {v}"


def percents(*values: float) -> list[str]:
    """Shares as percentages with the same decimals: one, or where a value lies below 1% enough for
    the largest such value to show two significant digits (two to four decimals): "0.00% to 0.10%",
    "0.000% to 0.004%", never "0.0% to 0.00%"."""
    below = [abs(v) for v in values if np.isfinite(v) and 0 < abs(v) < 0.01]
    digits = min(4, max(2, -int(np.floor(np.log10(100 * max(below)))))) if below else 1
    return [f"{100 * v:.{digits}f}%" for v in values]


def pp(x: float) -> str:
    return percent(x)
