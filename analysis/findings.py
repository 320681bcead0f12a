"""Findings first: the effects a report's tests find, adjusted for all of them together.

Every candidate is one test on aggregated counts (from DuckDB): each seat's and each bot's
win rate against the other seats' or bots' (Newcombe's interval of the difference and the p-value
that inverts it), and each turn-cap or stalemate flag's rate against a tolerated rate (Wilson's
interval and the one-sided score test it inverts; ``sim.run.stats``); sweep and
comparison reports add their own candidates (``analysis.sweep``, ``analysis.compare``). The p-values
of all tests of a report are adjusted together with Benjamini-Hochberg (``sim.run.stats.fdr_bh``,
as statsmodels ``multipletests``, ``fdr_bh``). A finding is listed when q < ``ALPHA`` and the effect is at
least the practical threshold, in one of three lists (``LISTS``): design issues (rules and
parameters), bot strength (which bot wins more or less) and sanity checks (events that should be rare or
zero), each ranked by practical size (the effect over its threshold); the p- and q-values go to
an appendix table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import queries
from analysis.candidate import ALPHA, MIN_RELATIVE_EFFECT, SHARED_WIN, Candidate, percent, q_value  # noqa: F401 (re-exported)
from analysis.games import candidates_for
from analysis.sections import Section
from sim.kit.levers import SHARED_BAND, STALL_BAND
from sim.run.stats import fdr_bh, rate_difference, rate_test_greater, wilson

METHOD = "Benjamini-Hochberg (false discovery rate, as statsmodels multipletests fdr_bh)"
MIN_EFFECT = 0.01  # practical threshold: 1 percentage point
MAX_STALL_RATE = STALL_BAND  # tolerated share of games ending at the cap or in a stalemate (the rule lines' band)
MAX_SHARED_RATE = SHARED_BAND  # tolerated share of games with more than one winner (the rule line's band)
LISTS = {"design": ("Design issues", "rules and parameters whose effect is large enough to act on"),
         "bot": ("Bot strength", "which bot wins more or less: a strong or weak bot is a fact about the bot, not the rules"),
         "sanity": ("Sanity checks", "events that should be rare or zero")}
MAX_LISTED = 15  # findings shown per list (the rest: in the appendix table)


def _group_candidates(run, label: str, by: str) -> list[Candidate]:
    """Each group of ``by`` (seat or bot) against all the other groups of the same run."""
    t = queries.rates(run, "seats", by, "win")
    if len(t) < 2:
        return []
    n_all, s_all = int(t["n"].sum()), int(t["successes"].sum())
    out = []
    for row in t.itertuples():
        n, s = int(row.n), int(row.successes)
        r = rate_difference(s, n, s_all - s, n_all - n)
        if np.isnan(r["p"]):
            continue
        out.append(Candidate(label, "Win rate by seat and by bot", f"{by} {getattr(row, by)}", by,
                             s / n, float(row.lo), float(row.hi), (s_all - s) / (n_all - n), r["diff"], r["p"],
                             diff_lo=r["lo"], diff_hi=r["hi"]))
    return out


def _stall_candidates(run, label: str, max_rate: float) -> list[Candidate]:
    words = run.game.stall_flags  # flags to keep rare
    flags = [f for f in words if run.columns("games").get(f) == "BOOLEAN"]
    if not flags:
        return []
    c = queries.one(run, "SELECT count(*) AS n, " + ", ".join(f"sum({f}::BIGINT) AS {f}" for f in flags) + " FROM games")
    n, out = int(c["n"]), []
    for f in flags:
        k = int(c[f])
        lo, hi = wilson(k, n)
        p = rate_test_greater(k, n, max_rate)  # the score test Wilson's interval inverts
        out.append(Candidate(label, "", words[f], "stall", k / n, float(lo), float(hi), max_rate,
                             k / n - max_rate, float(p), diff_lo=float(lo) - max_rate, diff_hi=float(hi) - max_rate))
    return out


def _shared_candidate(run, label: str) -> list[Candidate]:
    """The share of games with more than one winner (from the seats table) against
    ``MAX_SHARED_RATE`` (Wilson's interval and its one-sided score test); none in a run without
    a shared win."""
    c = queries.one(run, "SELECT count(*) AS n, count(*) FILTER (WHERE w > 1) AS k FROM "
                         "(SELECT game, sum(win::INT) AS w FROM seats GROUP BY game)")
    n, k = int(c["n"]), int(c["k"])
    if not (n and k):
        return []
    lo, hi = wilson(k, n)
    return [Candidate(label, "Win rate by seat and by bot", SHARED_WIN, "stall", k / n, float(lo), float(hi),
                      MAX_SHARED_RATE, k / n - MAX_SHARED_RATE, float(rate_test_greater(k, n, MAX_SHARED_RATE)),
                      head="A shared win (more than one winner) ends", tail="of games",
                      diff_lo=float(lo) - MAX_SHARED_RATE, diff_hi=float(hi) - MAX_SHARED_RATE)]


def candidates(runs: list[tuple[str, object]], max_stall_rate: float = MAX_STALL_RATE) -> list[Candidate]:
    """Every test of the report, for runs given as (label, ``analysis.load.Run``), with the
    game's own tests (``candidates(run, label)`` of its report module) after the shared ones."""
    out = []
    for label, run in runs:
        out += _group_candidates(run, label, "seat") + _group_candidates(run, label, "bot")
        out += _stall_candidates(run, label, max_stall_rate) + _shared_candidate(run, label)
        game = getattr(getattr(run, "config", None), "game", None)
        own = candidates_for(game) if game else None
        if own:
            out += own(run, label)
    return out


def bh(p_values) -> np.ndarray:
    """Benjamini-Hochberg q-values (statsmodels ``multipletests``); NaN p-values (nothing to
    test) stay NaN and do not count as tests."""
    p = np.asarray(p_values, dtype=float)
    q = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        q[ok] = fdr_bh(p[ok])
    return q


def adjust(cands: list[Candidate]) -> list[Candidate]:
    """Fill in each candidate's Benjamini-Hochberg q-value over all of them."""
    for c, v in zip(cands, bh([c.p for c in cands])):
        c.q = float(v)
    return cands


def findings(cands: list[Candidate], min_effect: float = MIN_EFFECT) -> list[Candidate]:
    """The adjusted candidates that are significant and practically large, largest first.

    Stall rates count when above the tolerated rate (that rate is their threshold); rate
    effects (seats, bots, rule cards) count in either direction when at least ``min_effect``,
    effects on other measures (round length, score variance) when at least
    ``MIN_RELATIVE_EFFECT`` of the baseline.
    """
    keep = [c for c in adjust(cands) if c.q < ALPHA and c.qualifies(min_effect)]
    return sorted(keep, key=lambda c: -c.size())


def sections(runs: list[tuple[str, object]], min_effect: float = MIN_EFFECT,
             max_stall_rate: float = MAX_STALL_RATE, extra: list[Candidate] = (), extra_text: str = "") -> list[Section]:
    """The findings sections of the runs' tests and ``extra`` ones (sweep and comparison tests),
    adjusted together; their q-values are filled in place. ``extra_text`` describes their tests."""
    return sections_from(candidates(runs, max_stall_rate) + list(extra), min_effect, max_stall_rate, extra_text)


def method_text(n_tests: int, min_effect: float, max_stall_rate: float, extra_text: str = "") -> str:
    return (f"A finding is an effect at least as large as its practical threshold that stays significant "
            f"after adjusting all {n_tests} tests of this report together with {METHOD} at q < {ALPHA}. "
            f"Thresholds: {100 * min_effect:g} percentage points for rates, {100 * MIN_RELATIVE_EFFECT:g}% of "
            f"the reference for other measures (round length, score variance), the tolerated rate for stalls "
            f"({100 * max_stall_rate:g}% of games), {100 * MAX_SHARED_RATE:g}% of games for shared wins and zero for "
            f"play-guard hits. Each list is ranked by the size "
            f"of the effect over its threshold. Seats and bots are compared with the others of their run "
            "(Newcombe's interval of the difference, with the p-value that inverts it), stall rates with the "
            "tolerated rate (Wilson's interval and the one-sided score test it inverts); a game's own "
            "tests are described in its sections. The p- and q-values of every test are in the appendix."
            + (" " + extra_text if extra_text else ""))


MAX_WELCOME = 5  # effects that go the way their measure should, shown per list after the ones to act on


def listed(cands: list[Candidate], min_effect: float = MIN_EFFECT) -> dict[str, tuple[list[Candidate], int, int]]:
    """Per list (a key of ``LISTS``): the findings it shows, in its order (the effects to act on,
    largest first, at most ``MAX_LISTED``; then those that go the way their measure should, largest
    first, at most ``MAX_WELCOME``), and how many of each kind were found. The appendix's table of
    the listed findings' tests is this, row for row."""
    found = findings(cands, min_effect)
    out = {}
    for key in LISTS:
        mine = sorted((c for c in found if c.list == key), key=lambda c: -c.practical(min_effect))
        act, welcome = [c for c in mine if not c.welcome], [c for c in mine if c.welcome]
        out[key] = (act[:MAX_LISTED] + welcome[:MAX_WELCOME], len(act), len(welcome))
    return out


def _list_text(key: str, act: int, welcome: int) -> str:
    """What a list holds, true to what it shows: largest first, and how many more are left out."""
    what = LISTS[key][1]
    text = f"{what[0].upper()}{what[1:]}, largest first (by the effect over its practical threshold)"
    if welcome:
        text += (f"; then the effects that go the way their measure should (nothing to change), largest first"
                 + (f", the {MAX_WELCOME} largest of {welcome}" if welcome > MAX_WELCOME else ""))
    text += "."
    if act > MAX_LISTED:
        text += (f" The {MAX_LISTED} largest of the {act} to act on are listed; the other {act - MAX_LISTED} are in "
                 "the HTML report's appendix table (its 'finding' column) and in their sections.")
    return text


def sections_from(cands: list[Candidate], min_effect: float = MIN_EFFECT, max_stall_rate: float = MAX_STALL_RATE,
                  extra_text: str = "") -> list[Section]:
    """The three findings lists from every candidate test of the report (q-values filled in place)."""
    out = []
    for key, (mine, act, welcome) in listed(cands, min_effect).items():
        text = _list_text(key, act, welcome)
        if key == "design":
            text += f" How a finding is chosen and tested: {APPENDIX_TITLE.lower()} (appendix)."
        out.append(Section(LISTS[key][0], text=text + ("" if mine else " None qualifies."),
                           items=[(c.sentence(), (c.run, c.section)) for c in mine]))
    return out


APPENDIX_TITLE = "Every test of the findings"


def listed_table(cands: list[Candidate], min_effect: float = MIN_EFFECT) -> pd.DataFrame:
    """The tests of the listed findings, in the lists' order and in their sentences' units: list,
    number in the list, run, test, effect with the 95% interval of the difference, the reference it
    is measured against, effect over its threshold, p and q."""
    rows = [{"list": LISTS[key][0], "#": k + 1, "run": c.run_name, "test": c.subject, "effect": c.effect_text(),
             "95% interval of the difference": c.interval_text(), "against": c.reference_words(),
             "times its threshold": f"{c.practical(min_effect):.1f}", "p": q_value(c.p), "q (BH)": q_value(c.q)}
            for key, (mine, _, _) in listed(cands, min_effect).items() for k, c in enumerate(mine)]
    return pd.DataFrame(rows, columns=["list", "#", "run", "test", "effect", "95% interval of the difference",
                                       "against", "times its threshold", "p", "q (BH)"])


def appendix(cands: list[Candidate], min_effect: float = MIN_EFFECT, max_stall_rate: float = MAX_STALL_RATE,
             extra_text: str = "") -> Section:
    """The tests of the listed findings (``listed_table``), then every test of the report with its
    value, interval, reference, effect, p and q (after ``adjust``), by list and practical size."""
    rows = sorted(cands, key=lambda c: (list(LISTS).index(c.list), -c.practical(min_effect)))
    table = pd.DataFrame([{"list": LISTS[c.list][0], "run": c.run_name, "test": c.subject, "value": c.rate,
                           "95% low": c.lo, "95% high": c.hi, "reference": c.baseline, "against": c.reference_words(),
                           "effect": c.effect, "difference, 95% low": c.diff_lo, "difference, 95% high": c.diff_hi,
                           "over threshold": c.practical(min_effect), "p": c.p, "q (BH)": c.q,
                           "finding": "yes" if c.q < ALPHA and c.qualifies(min_effect) else ""} for c in rows])
    found = listed_table(cands, min_effect)
    every = f"Every test ({len(table)}): value with its 95% interval, reference, effect, p and Benjamini-Hochberg q"
    return Section(APPENDIX_TITLE, text=method_text(len(cands), min_effect, max_stall_rate, extra_text) + " " + (
        f"All {len(cands)} tests behind the findings, adjusted together with {METHOD}. The first table holds the "
        "tests of exactly the findings the lists show, in their order and units: the effect in percentage points "
        "(pp) for rates, in the measure's unit with its relative change for other measures, the rate itself for "
        "stalls; 'times its threshold' ranks the lists. The HTML report also has every test, with 'effect' as a "
        "fraction (0.01 is one percentage point, or a 1% change)."),
        tables=[(f"The listed findings' tests ({len(found)}), in the lists' order", found), (every, table)],
        html_only=(every,))
