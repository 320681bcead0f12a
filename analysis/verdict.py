"""The verdict: one page per run that answers a designer's questions in plain sentences, each
with a green, amber or red mark (``Mark``), from the report's adjusted tests (``analysis.findings``).

Questions: does seat order matter; is a bot dominant (a fact about the bots, said as such);
do games stall (stalls, turn caps, play-guard hits); and, where the game has rule cards, which
are too strong or too weak as precepts and as laws, with the printable change that would even
them out. A mark is green when no effect reaches its practical threshold (or none is
significant), amber up to ``RED_FACTOR`` times the threshold, red beyond.
"""

from __future__ import annotations

import re
import numpy as np

from analysis import queries
from analysis.candidate import ALPHA, MARKS, RED_FACTOR, Candidate, Mark, level, percent, pp  # noqa: F401 (re-exported)
from analysis.games import hook
from analysis.sections import Section

def _largest(cands: list[Candidate], kind: str, min_effect: float) -> Candidate | None:
    mine = [c for c in cands if c.kind == kind and np.isfinite(c.effect)]
    return max(mine, key=lambda c: c.practical(min_effect)) if mine else None


def seat_mark(run, cands: list[Candidate], min_effect: float) -> Mark:
    t = queries.rates(run, "seats", "seat", "win")
    share = float(t["successes"].sum() / t["n"].sum())  # the even share: shared wins count for each sharer
    best, worst = t.loc[t["rate"].idxmax()], t.loc[t["rate"].idxmin()]
    c = _largest(cands, "seat", min_effect)
    lv = level(c, min_effect)
    head = {"green": "Seat order does not matter in practice", "amber": "Seat order matters a little",
            "red": "Seat order matters"}[lv]
    shared = " (shared wins count for every sharer)" if share * len(t) > 1 + 1e-9 else ""
    return Mark(lv, f"{head}: the best seat (seat {int(best['seat'])}) wins {pp(best['rate'])} of games "
                       f"(95% CI {pp(best['lo'])}-{pp(best['hi'])}), the worst (seat {int(worst['seat'])}) "
                       f"{pp(worst['rate'])}; an even share is {pp(share)}{shared}.")


BASELINE_BOTS = ("random",)  # bots that stand for no strategy: their weakness is no verdict on the others


def bot_mark(run, cands: list[Candidate], min_effect: float) -> Mark:
    """Whether one strategy dominates: the best bot against the other bots that play a strategy
    (a random bot's weakness is a bot diagnostic, not this line)."""
    from sim.stats import rate_difference

    t = queries.rates(run, "seats", "bot", "win")
    t = t[~t["bot"].isin(BASELINE_BOTS)] if (~t["bot"].isin(BASELINE_BOTS)).sum() >= 2 else t
    if len(t) < 2:
        return Mark("green", f"One bot ({t['bot'].iloc[0]}) plays every seat: no strategy is compared with another.")
    t = t.sort_values("rate", ascending=False)
    best, second = t.iloc[0], t.iloc[1]  # dominance: the best strategy against the next best
    d = rate_difference(int(best["successes"]), int(best["n"]), int(second["successes"]), int(second["n"]))
    size = abs(d["diff"]) / min_effect if d["lo"] > 0 or d["hi"] < 0 else 0.0
    lv = "green" if size < 1 else "red" if size >= RED_FACTOR else "amber"
    head = {"green": "No strategy dominates", "amber": "One strategy is stronger", "red": "One strategy dominates"}[lv]
    rest = "; ".join(f"{r.bot} {pp(r.rate)}" for r in t.iloc[2:].itertuples())
    return Mark(lv, f"{head}: the {best['bot']} bot wins {pp(best['rate'])} of the games it plays, the next best "
                    f"({second['bot']}) {pp(second['rate'])}: {100 * d['diff']:+.1f} percentage points (95% CI "
                    f"{100 * d['lo']:+.1f} to {100 * d['hi']:+.1f})" + (f"; then {rest}" if rest else "") +
                    ". This measures how the bots play, not the rules alone.")


def stall_marks(cands: list[Candidate], min_effect: float) -> list[Mark]:
    out = []
    for c in cands:
        if c.kind not in ("stall", "guard"):
            continue
        lv = "green" if not c.qualifies(min_effect) or c.q >= ALPHA else (
            "red" if c.kind == "guard" or c.rate >= RED_FACTOR * max(c.baseline, 1e-9) else "amber")
        out.append(Mark(lv, c.sentence().split(": ", 1)[1]))
    if not out:
        out.append(Mark("green", "Games always end: this game has no turn cap, stalemate or play guard to hit."))
    return out


def plain(text: str) -> str:
    """A sentence without statistics vocabulary: "95% CI a to b" reads "likely between a and b"."""
    text = re.sub(r"95% CI ([^()]+?) to ([^()]+?)\)", r"likely between \1 and \2)", text)
    text = re.sub(r"95% CI ([^()]+?) to ([^(),]+)", r"likely between \1 and \2", text)
    return re.sub(r"95% CI ([^()\s]+)-([^()\s]+?)\)", r"likely \1 to \2)", text)


def section(label: str, run, cands: list[Candidate], min_effect: float) -> Section:
    """One run's verdict page (``cands``: the run's adjusted candidates)."""
    marks = [seat_mark(run, cands, min_effect), bot_mark(run, cands, min_effect), *stall_marks(cands, min_effect)]
    own = hook(run.config.game, "verdict_marks")
    if own:
        marks += own(run, cands, min_effect)
    worst = max((m.level for m in marks), key=list(MARKS).index)  # noqa: the order of MARKS is green < amber < red
    marks = [Mark(m.level, plain(m.text[:1].upper() + m.text[1:])) for m in marks]
    return Section(label, text=f"Overall: {MARKS[worst]}.",
                   marks=[(m.level, m.text) for m in marks])


LEGEND = (f"Each line is marked green ({MARKS['green']}), amber ({MARKS['amber']}) or red ({MARKS['red']}). "
          "'Likely between' gives the range the true value lies in, from the number of games played. The numbers "
          "behind each line are in the findings and in the run's sections; the tests in the appendix.")


def sections(labelled: list[tuple[str, object]], cands: list[Candidate], min_effect: float) -> list[Section]:
    """A verdict page per run, from the report's adjusted candidates (the legend on the first)."""
    out = [section(label, run, [c for c in cands if c.run == label], min_effect) for label, run in labelled]
    if out:
        out[0].text = f"{LEGEND} {out[0].text}"
    return out
