"""What to change in the rules: the clauses of the sentence a verdict page ends with
(``analysis.verdict``), from the run's adjusted tests. A game's ``what_to_change`` builds on
``shared_changes`` (seat order, stalls) and joins its own clauses with ``change_sentence``."""

from __future__ import annotations

import numpy as np

from analysis.candidate import ALPHA, SHARED_WIN, Candidate, level, pp


def largest(cands: list[Candidate], kind: str, min_effect: float) -> Candidate | None:
    """The candidate of ``kind`` with the largest effect over its threshold, or None."""
    mine = [c for c in cands if c.kind == kind and np.isfinite(c.effect)]
    return max(mine, key=lambda c: c.practical(min_effect)) if mine else None


def stall_level(c: Candidate, min_effect: float) -> str:
    """A stall's or play-guard hit's mark by ``analysis.candidate.RULE``: green unless above its
    tolerated rate (its threshold), red from ``RED_FACTOR`` times that rate (a play-guard hit always)."""
    if not c.qualifies(min_effect) or c.q >= ALPHA:
        return "green"
    return "red" if c.kind == "guard" else level(c, min_effect)


def shared_changes(cands: list[Candidate], min_effect: float, run=None) -> list[str]:
    """The changes the shared rule lines call for: the most uneven seat (which seat, by how
    much) and each stall above its tolerated rate, each with the lever ``cardlab suggest``
    checked for it when ``run`` carries its advice (``checked``)."""
    out = []
    c = largest(cands, "seat", min_effect)
    if level(c, min_effect) != "green":
        more = c.effect > 0
        out.append(f"even out seat order: {c.subject} wins {100 * abs(c.effect):.1f} percentage points "
                   f"{'more' if more else 'less'} often than the other seats ({pp(c.rate)} of games against "
                   f"{pp(c.baseline)}), so " + (checked(run, "seat_spread") or
                                                ('compensate the other seats' if more else 'compensate ' + c.subject)))
    flags = {w: f for f, w in getattr(getattr(run, "game", None), "stall_flags", {}).items()}
    for c in cands:
        if c.kind == "stall" and c.subject == SHARED_WIN and stall_level(c, min_effect) != "green":
            out.append(f"if one winner is meant, {checked(run, 'shared_wins') or 'add a tie-break'} ({pp(c.rate)} of "
                       f"games have more than one winner; tolerated: {pp(c.baseline)})")
        elif c.kind == "stall" and stall_level(c, min_effect) != "green":
            where = "at" if "cap" in c.subject else "in"
            lever = checked(run, f"rate:{flags.get(c.subject, '')}")
            out.append(f"make fewer games end {where} {c.subject} ({pp(c.rate)} of games; tolerated: {pp(c.baseline)})"
                       + (f": {lever}" if lever else ""))
    return out


def checked(run, line: str) -> str:
    """The lever ``cardlab suggest`` checked for ``line`` in a few words ("set first_player=random
    (checked: 1.1 pp -> 0.3 pp)"), or "" when there is none to give."""
    from analysis.advice import for_line
    from analysis.prescriptions import setting, value

    p = for_line(getattr(run, "advice", None), line)
    if not p or p["status"] not in ("prescribed", "closest") or p.get("holds_for") == "disagree":
        return ""
    how = f"{value(line, p['before']['value'])} -> {value(line, p['after']['value'])}"
    head = "set" if p["status"] == "prescribed" else "the closest lever in range is"
    return f"{head} {setting(p).replace('--set ', '')} (checked by playing it: {how})"


def change_sentence(changes: list[str]) -> str:
    """"What to change: a; b." or "No rule issue found."."""
    return f"What to change: {'; '.join(changes)}." if changes else "No rule issue found."
