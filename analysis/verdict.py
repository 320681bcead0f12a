"""The verdict: one page per run that answers a designer's questions in plain sentences, each
with a green, amber or red mark (``Mark``), from the report's adjusted tests (``analysis.findings``).

Rule lines (``Mark.group`` "design"): does seat order matter; do games stall (turn caps,
stalemates); and, where the game has rule cards, which are too strong or too weak as precepts
and as laws (its ``verdict_marks``). The overall verdict is the worst rule line, and the rule
lines end with one sentence of what to change (the game's ``what_to_change(run, cands,
min_effect)``, else ``what_to_change`` here), or "No rule issue found.". Bot lines (does a
strategy dominate: a fact about the bots) and engine lines (play-guard hits) follow in their
own short list and do not count towards the overall verdict. A mark is green when no effect reaches its practical
threshold (or none is significant), amber up to ``RED_FACTOR`` times the threshold, red beyond.
"""

from __future__ import annotations

import re

from analysis import queries
from analysis.candidate import ALPHA, MARKS, RED_FACTOR, RULE, SHARED_WIN, Candidate, Mark, label, level, percent, percents, pp  # noqa: F401 (re-exported)
from analysis.changes import change_sentence, largest, shared_changes, stall_level
from analysis.findings import MAX_SHARED_RATE, MIN_EFFECT
from analysis.games import hook
from analysis.sections import Section


def seat_mark(run, cands: list[Candidate], min_effect: float) -> Mark:
    t = queries.rates(run, "seats", "seat", "win")
    share = float(t["successes"].sum() / t["n"].sum())  # the even share: shared wins count for each sharer
    best, worst = t.loc[t["rate"].idxmax()], t.loc[t["rate"].idxmin()]
    c = largest(cands, "seat", min_effect)
    lv = level(c, min_effect)
    head = {"green": "Seat order does not matter in practice", "amber": "Seat order matters a little",
            "red": "Seat order matters"}[lv]
    shared = " (shared wins count for every sharer)" if share * len(t) > 1 + 1e-9 else ""
    return Mark(lv, f"{head}: the best seat (seat {int(best['seat'])}) wins {pp(best['rate'])} of games "
                       f"(95% CI {'-'.join(percents(best['lo'], best['hi']))}), the worst (seat {int(worst['seat'])}) "
                       f"{pp(worst['rate'])}; an even share is {pp(share)}{shared}.", line="seat_spread")


BASELINE_BOTS = ("random",)  # bots that stand for no strategy: their weakness is no verdict on the others


def bot_mark(run, cands: list[Candidate], min_effect: float) -> Mark:
    """Whether one strategy dominates: the best bot against the other bots that play a strategy
    (a random bot's weakness is a bot diagnostic, not this line)."""
    from sim.run.stats import rate_difference

    t = queries.rates(run, "seats", "bot", "win")
    t = t[~t["bot"].isin(BASELINE_BOTS)] if (~t["bot"].isin(BASELINE_BOTS)).sum() >= 2 else t
    if len(t) < 2:
        return Mark("green", f"One bot ({t['bot'].iloc[0]}) plays every seat: no strategy is compared with another.",
                    "bot")
    t = t.sort_values("rate", ascending=False)
    best, second = t.iloc[0], t.iloc[1]  # dominance: the best strategy against the next best
    d = rate_difference(int(best["successes"]), int(best["n"]), int(second["successes"]), int(second["n"]))
    lv = label(d["p"], abs(d["diff"]) / min_effect)  # one comparison: its p is its q
    head = {"green": "No strategy dominates", "amber": "One strategy is stronger", "red": "One strategy dominates"}[lv]
    rest = "; ".join(f"{r.bot} {pp(r.rate)}" for r in t.iloc[2:].itertuples())
    return Mark(lv, f"{head}: the {best['bot']} bot wins {pp(best['rate'])} of the games it plays, the next best "
                    f"({second['bot']}) {pp(second['rate'])}: {100 * d['diff']:+.1f} percentage points (95% CI "
                    f"{100 * d['lo']:+.1f} to {100 * d['hi']:+.1f})" + (f"; then {rest}" if rest else "") +
                    ". This measures how the bots play, not the rules alone.", "bot")



def stall_marks(cands: list[Candidate], min_effect: float, flags: dict[str, str] = {},
                assumed: dict[str, tuple[str, str]] = {}) -> list[Mark]:
    """Rule lines: how often games end at a turn cap or in a stalemate (``flags``: the game's
    stall flags, column -> words), and in a shared win. A frequent stall whose ending the printed
    rules do not decide (``assumed``: column -> rule ID, rule) is named as a rule gap to close."""
    flag = {w: f for f, w in flags.items()}
    out = []
    for c in (c for c in cands if c.kind == "stall" and c.subject != SHARED_WIN):
        lv, f = stall_level(c, min_effect), flag.get(c.subject, "")
        text = c.sentence().split(": ", 1)[1]
        if f in assumed and lv != "green":
            rule, words = assumed[f]
            text += (f" The printed rules do not say how this ends; the simulation assumes {rule} ({words}): a rule "
                     "gap to close, since it decides these games.")
        out.append(Mark(lv, text, line=f"rate:{f}"))
    out = out or [Mark("green", "Games always end: this game has no turn cap or stalemate to hit.")]
    for c in (c for c in cands if c.kind == "stall" and c.subject == SHARED_WIN):
        lv = stall_level(c, min_effect)
        out.append(Mark(lv, c.sentence().split(": ", 1)[1], line="shared_wins"))
    if not any(c.kind == "stall" and c.subject == SHARED_WIN for c in cands):
        out.append(Mark("green", f"No game has more than one winner (tolerated: {pp(MAX_SHARED_RATE)} of games)."))
    return out


def engine_marks(cands: list[Candidate], min_effect: float) -> list[Mark]:
    """Engine lines: play-guard hits (the engine stopping a game or round that should have ended)."""
    return [Mark(stall_level(c, min_effect), c.sentence().split(": ", 1)[1], "engine") for c in cands if c.kind == "guard"]


def plain(text: str) -> str:
    """A sentence without statistics vocabulary: "95% CI a to b" reads "likely between a and b"."""
    text = re.sub(r"95% CI ([^()]+?) to ([^()]+?)\)", r"likely between \1 and \2)", text)
    text = re.sub(r"95% CI ([^()]+?) to ([^(),]+)", r"likely between \1 and \2", text)
    return re.sub(r"95% CI ([^()\s]+)-([^()\s]+?)\)", r"likely \1 to \2)", text)


def prescribed(run, mark: Mark) -> str:
    """What ``cardlab suggest`` prescribes for an amber or red rule line (``analysis.prescriptions``),
    or why there is nothing: no lever, the line within noise of its band, or no search yet."""
    from analysis.advice import for_line
    from analysis.prescriptions import sentence

    if mark.group != "design" or mark.level == "green" or not mark.line:
        return ""
    advice = getattr(run, "advice", None)
    if advice is None:
        return (f" Prescription: not searched yet (cardlab suggest {run.path} --out DIR, then give DIR to the "
                "report).")
    found = for_line(advice, mark.line)
    borrowed = getattr(run, "advice_from", None) is not None
    if found is not None:
        return " " + (f"Checked for these players in the advice for {advice['source']} (the same rules): "
                      if borrowed else "") + other_reference(run, mark.line, found) + sentence(found)
    if borrowed:
        return f" Prescription: none in the advice for {advice['source']} (the same rules, played by these bots too)."
    state = next((s for s in advice.get("lines", []) if s["line"] == mark.line), None)
    if state is None:
        return " No lever in range moves this line: the game declares none for it, so the rule's text is the change to make."
    if state["status"] == "out":
        return " Prescription: not searched (the advice was asked for other lines or levers only)."
    return (f" Prescription: none searched: on its own measure ({state['words']}) this line is "
            f"{'in' if state['status'] == 'in' else 'within noise of'} its band.")


def other_reference(run, line: str, found: dict) -> str:
    """A warning when the advice measured ``line`` against another reference than the report's
    figure of it (the game's ``measured(run, line)``); empty when they agree or neither says."""
    game = getattr(getattr(run, "config", None), "game", None)  # a stand-in run without a config: none
    mine = (game and hook(game, "measured") or (lambda r, ln: None))(run, line)
    theirs = found.get("measured")
    if not mine or theirs == mine:
        return ""
    return (f"Not the same reference: the figure above is measured {mine}, the check below "
            f"{theirs or 'against another reference (an older advice)'}; give the report the advice and the control "
            "run of one reference. ")


def what_to_change(run, cands: list[Candidate], min_effect: float = MIN_EFFECT) -> str:
    """One sentence of what to change in the rules, from the rule lines every game has (seat
    order, stalls); a game's own ``what_to_change`` adds its rule cards (``analysis.changes``)."""
    return change_sentence(shared_changes(cands, min_effect, run))


def section(label: str, run, cands: list[Candidate], min_effect: float) -> list[Section]:
    """One run's verdict page (``cands``: the run's adjusted candidates): the overall verdict on
    the rule lines, the rule lines and what to change; then the bot and engine lines."""
    marks = [seat_mark(run, cands, min_effect), bot_mark(run, cands, min_effect),
             *stall_marks(cands, min_effect, run.game.stall_flags, getattr(run.game, "assumed_ends", {})),
             *engine_marks(cands, min_effect)]
    own = hook(run.config.game, "verdict_marks")
    if own:
        marks += own(run, cands, min_effect)
    marks = [Mark(m.level, plain(m.text[:1].upper() + m.text[1:]) + prescribed(run, m), m.group, m.line)
             for m in marks]
    rules = [m for m in marks if m.group == "design"]
    worst = max((m.level for m in rules), key=list(MARKS).index)  # the order of MARKS is green < amber < red
    change = hook(run.config.game, "what_to_change") or what_to_change
    page = Section(label, text=plain(change(run, cands, min_effect)),
                   marks=[(worst, f"Overall, on the rules: {MARKS[worst]}.")] + [(m.level, m.text) for m in rules])
    others = [(m.level, f"{GROUP_WORDS[m.group]}: {m.text}") for g in ("bot", "engine") for m in marks if m.group == g]
    return [page, Section(f"{label}{OTHERS_SUFFIX}", text=OTHERS_TEXT, marks=others)]


OTHERS_SUFFIX = ": bots and engine"  # the title of a run's bot and engine lines: the run's label and this
GROUP_WORDS = {"bot": "Bots", "engine": "Engine"}
OTHERS_TEXT = ("Not part of the overall verdict: how the bots play is a fact about the bots, not the rules, and the "
               "engine lines check the simulation itself.")
LEGEND = (f"Each line is marked green ({MARKS['green']}), amber ({MARKS['amber']}) or red ({MARKS['red']}). "
          "A run's overall verdict is its worst rule line (seat order, stalls, rule cards); its page ends with what "
          "to change in the rules. Its bot lines (does one strategy dominate) and engine lines (play-guard hits) "
          "follow apart and do not count towards it. 'Likely between' gives the range the true value lies in, "
          "from the number of games played. The numbers behind each line are in the findings and in the run's "
          "sections; the tests in the appendix. " + RULE + " Each measure has one reference, named where it is shown "
          "and the same in the verdict, the findings, the sections, the robustness part and the appendix.")
READING_TITLE = "How to read the verdict"


KEPT_NOTE = (" A run with too few games, or with a search bot not shown stronger than the game's scripted reference, "
             "has no page: the list of runs kept out of the design findings names it.")


def sections(labelled: list[tuple[str, object]], cands: list[Candidate], min_effect: float,
             kept_out: bool = False) -> list[Section]:
    """How to read the verdict (``kept_out``: some runs are kept out), then the verdict page of
    each run, from the report's adjusted candidates."""
    out = [Section(READING_TITLE, text=LEGEND + (KEPT_NOTE if kept_out else ""))]
    for label, run in labelled:
        out += section(label, run, [c for c in cands if c.run == label], min_effect)
    return out
