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


def shared_changes(cands: list[Candidate], min_effect: float) -> list[str]:
    """The changes the shared rule lines call for: the most uneven seat (which seat, by how
    much) and each stall above its tolerated rate."""
    out = []
    c = largest(cands, "seat", min_effect)
    if level(c, min_effect) != "green":
        more = c.effect > 0
        out.append(f"even out seat order: {c.subject} wins {100 * abs(c.effect):.1f} percentage points "
                   f"{'more' if more else 'less'} often than the other seats ({pp(c.rate)} of games against "
                   f"{pp(c.baseline)}), so {'compensate the other seats' if more else 'compensate ' + c.subject}")
    for c in cands:
        if c.kind == "stall" and c.subject == SHARED_WIN and stall_level(c, min_effect) != "green":
            out.append(f"if one winner is meant, add a tie-break ({pp(c.rate)} of games have more than one winner; "
                       f"tolerated: {pp(c.baseline)})")
        elif c.kind == "stall" and stall_level(c, min_effect) != "green":
            where = "at" if "cap" in c.subject else "in"
            out.append(f"make fewer games end {where} {c.subject} ({pp(c.rate)} of games; tolerated: {pp(c.baseline)})")
    return out


def change_sentence(changes: list[str]) -> str:
    """"What to change: a; b." or "No rule issue found."."""
    return f"What to change: {'; '.join(changes)}." if changes else "No rule issue found."
