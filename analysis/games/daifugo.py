"""Daifugō report sections (spec §7): points by seat and bot, king retention, rule cards as
precepts and as laws, revolution and forbidden-finish frequencies, card-effect counts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import changes as rule_changes, charts, queries
from analysis.games import daifugo_power as precept_power, daifugo_rule_cards as rule_cards
from analysis.candidate import Candidate, Mark, level, pp
from analysis.games import daifugo_feel, daifugo_scorecard
from analysis.games import daifugo_vp
from analysis.games.daifugo_vp import vp_check
from analysis.games.daifugo_control import BASE_GAME, base_game, control_command, control_config  # noqa: F401 (hooks)
from analysis.games.daifugo_skill import skill_sections  # noqa: F401 (the skill ladder's hook)
from analysis.sections import Section
from sim.run.stats import mean_test, wilson



def _bars(table: pd.DataFrame, label: str, title: str):
    """rate_bars with intervals clipped around the rate (guards against rounding at 0 and 1)."""
    t = table.copy()
    t["lo"] = np.minimum(t["lo"], t["rate"])
    t["hi"] = np.maximum(t["hi"], t["rate"])
    return charts.rate_bars(t, label, title)


def points_section(run) -> Section:
    tables = []
    for by in ("seat", "bot"):
        pts = queries.mean_table(run, "seats", by, "points")
        wr = queries.rates(run, "seats", by, "win")[[by, "rate", "lo", "hi"]].rename(
            columns={"rate": "win_rate", "lo": "win_lo", "hi": "win_hi"})
        share = queries.means(run, "seats", ["win_share"], by=by)
        tables.append((f"Final points and wins by {by} (95% t / Wilson intervals; win_share splits ties)",
                       pts.merge(wr, on=by).merge(share, on=by)))
    src = queries.means(run, "seats", ["rank_points", "bonus_points", "precept_points"]).iloc[0]
    src = src.to_frame("mean per seat").reset_index()
    tables.append(("Points by source (mean per seat and game)", src.rename(columns={"index": "source"})))
    return Section("Points by seat and by bot", text=(
        "Final victory points per seat and per bot with 95% intervals; a win is a sole or shared top "
        "score (DEC-21). Rank points 3/2/1 (DEC-19), capital-fall bonus +1 per fall to every other player."),
        tables=tables)


def king_section(run) -> Section:
    overall = queries.rate(run, "rounds", "king_kept", "king >= 0")
    if not overall["n"].iloc[0]:
        return Section("King retention", text="No round with a reigning king (one-round games).")
    overall.insert(0, "all", "all rounds >= 2")
    by_round = queries.rates(run, "rounds", "round", "king_kept", "king >= 0")
    falls = queries.rates(run, "rounds", "round", "capital_falls > 0", "king >= 0")
    return Section("King retention", text=(
        "Probability that the reigning king (1st of the previous round) is 1st again, and the rate of "
        "rounds with at least one capital fall, with 95% Wilson intervals."),
        tables=[("King stays king", overall), ("King stays king by round", by_round),
                ("Rounds with a capital fall, by round", falls)],
        figures=[("King retention by round", _bars(by_round, "round", "King stays king (95% Wilson)"))],
        html_only=("King retention by round",))  # the PDF: the table by round carries it


def _cached(run, name: str, fn):
    """Per-card tables are used by the sections and by the findings: computed once per run."""
    cache = run.__dict__.setdefault("_rule_card_tables", {})
    if name not in cache:
        cache[name] = fn(run)
    return cache[name]


def precepts(run) -> pd.DataFrame:
    return _cached(run, "precepts", rule_cards.precept_effects)


def power(run) -> pd.DataFrame:
    """The precepts' draft-order-free edges and worth (``analysis.games.daifugo_power.card_power``)."""
    return _cached(run, "power", precept_power.card_power)


def laws(run) -> pd.DataFrame:
    return _cached(run, "laws", lambda r: rule_cards.law_effects(r, getattr(r, "control", None)))


# the codes that tables show, in words
CODE_NAMES = {"rank_points": "rank points (3/2/1)", "bonus_points": "capital-fall bonus",
              "precept_points": "precept VP"}
# the terms of tables and charts, for the report's glossary (docs/rules/daifugo.md)
GLOSSARY = {"law": "a rule card revealed for the round; in force for the rest of the game",
            "precept": "a rule card a player drafts and holds (madness mode), with its VP",
            "VP": "victory points", "king": "the previous round's 1st place",
            "capital fall": "another player finishes 1st and the king drops to last (§3.8; the others gain capital_fall_bonus)",
            "pp": "percentage points", "base game": BASE_GAME}
PRECEPT_TITLE = "Rule cards as precepts"
LAW_TITLE = "Rule cards as laws"
PAIR_TITLE = "Pairs of laws"
PP = 100.0  # rates are drawn in percentage points


def precept_section(run) -> Section:
    eff = precepts(run)
    if eff.empty:
        return Section(PRECEPT_TITLE, text="No precepts in this run (normal mode: laws only).")
    pw = power(run).set_index("id").loc[eff["id"]]
    fig = charts.forest(eff["card"], [
        (PP * pw["edge"].to_numpy(), PP * pw["edge_lo"].to_numpy(), PP * pw["edge_hi"].to_numpy(),
         "draft-order-free edge: against players who drafted\nanother card at the same pick (percentage points)", 0.0),
        (PP * eff["win_diff"], PP * eff["win_diff_lo"], PP * eff["win_diff_hi"],
         "raw edge: holder minus the other players\nof the same games, win rate (percentage points)", 0.0)],
        "Precept holder's edge, free of draft order and raw (95% intervals)")
    picks = _cached(run, "picks", rule_cards.pick_stats)
    win = eff[["card", "holders", "holder_win", "holder_lo", "holder_hi", "others_win", "win_diff", "win_diff_lo",
               "win_diff_hi", "win_p"]]
    pts = eff[["card", "holders", "holder_points", "others_points", "points_diff", "points_diff_lo", "points_diff_hi",
               "points_p"]]
    tables = [("Win rate of the precept holder (95% Wilson) vs the other players of the same games; difference: mean "
               "of per-game differences with 95% t interval, paired t-test p", win),
              ("Mean final points (VP) of the precept holder vs the other players of the same games; difference as "
               "above", pts),
              ("Precept draft: games in which the card was drafted (95% Wilson)" + (
                  "; share of its drafts in which it was taken first in its draft round (the first pick of a round; a game has one per draft round, not one per player) and its mean pick position (1 = first)"
                  if "mean_pick" in picks else ""), picks.drop(columns="id"))]
    figures = [("Precepts: holder vs others", fig)]
    if "mean_pick" in picks:
        figures.append(("Precept draft picks", charts.forest(picks["card"], [
            (PP * picks["first_pick_rate"], PP * picks["first_lo"], PP * picks["first_hi"],
             "share of its drafts in which it was taken first in its draft round (%)", None),
            (picks["mean_pick"], picks["pick_lo"], picks["pick_hi"], "mean pick position (1 = first pick)", None)],
            "Precept draft: taken first in its draft round, and mean pick position (95% intervals)")))
    text = ("How each precept's holder fares against players who drafted another card at the same pick of the "
            "same draft round with the same bot (the draft-order-free edge: who drafts first does not leak in) and "
            "against the other players of the same games (the raw edge), and how often the card is drafted")
    return Section(PRECEPT_TITLE, text=text + ". The PDF prints the edges, the share taken first and the VPs to "
                   "print in the scorecard per rule card; the HTML report also has the charts and every table.",
                   tables=tables, figures=figures, html_only=tuple(c for c, _ in tables + figures))


def law_section(run) -> Section:
    eff = laws(run)
    if eff.empty:
        return Section(LAW_TITLE, text="No rule card was revealed as a law in this run.")
    ref = _ref_short(eff)
    rounds_fig = charts.forest(eff["card"], [
        (PP * eff["spread_diff"], PP * eff["spread_lo"], PP * eff["spread_hi"],
         "seat spread of round wins beyond chance (percentage points)", 0.0),
        (PP * eff["king_diff"], PP * eff["king_lo"], PP * eff["king_hi"], "king retention (percentage points)", 0.0)],
        f"Law effect against {ref}: seat spread and king retention (95% intervals)")
    length_fig = charts.forest(eff["card"], [
        (eff["plays_diff"], eff["plays_lo"], eff["plays_hi"], "round length (plays)", 0.0),
        (eff["score_sd_diff"], eff["score_sd_lo"], eff["score_sd_hi"], "SD of final scores (VP)", 0.0)],
        f"Law effect against {ref}: round length and spread of final scores (95% intervals)")
    figures = [(f"Laws against {ref}: seat spread and king retention", rounds_fig),
               (f"Laws against {ref}: round length and spread of final scores", length_fig)]
    joint = eff["reference"].iloc[0] == rule_cards.REF_BASE
    if joint:
        how = (f"Reference: the base game. Each figure comes from one linear model of all laws at once, fitted on "
               f"this run's rounds and on its control run {run.control.path.name} ({base_game(run.control.config)}), "
               f"with a term per round number: a law's effect is what having it in "
               f"force adds to a round of the base game, the other laws in force held as they are. 'With' is the "
               f"rounds with the law in force; 'without' is the same rounds less the law's effect. Measures: the "
               f"seat spread of round wins (largest minus smallest seat share of 1st places, less the spread chance "
               f"alone gives with as many rounds; one model per seat's share; basic interval from parametric draws "
               f"and the p-value that inverts it), king retention and round length in plays (t intervals "
               f"and tests), and the spread of final scores across the seats of a game (a model of games on "
               f"their laws, fitted to the per-game variance). The effects add up; where two laws interact, the "
               f"pairs section shows it.")
    else:
        how = (f"Reference: the other laws' average. Without a control run of the base game every round has laws in "
               f"force, so each card is compared with rounds without it at the same round number, which hold other "
               f"laws instead: a figure is the card's effect against the average of the other laws, and a strong law "
               f"pushes the other cards' figures the other way. For effects against the base game, play its "
               f"control run and give both to the report: {control_command(run)}. Measures: the seat spread of "
               f"round wins beyond chance (basic parametric-bootstrap interval and the p-value that inverts it), "
               f"king retention and round length in plays (z-tests), and the spread of final scores across the "
               f"seats of a game (games with the law against games without, Welch t-test on the per-game "
               f"variance).")
    how += (" The spread of final scores is shown as a standard deviation in VP (the square root of the mean "
            "per-game variance); its interval is the variance difference's, carried over to standard deviations.")
    return Section(LAW_TITLE, text=(
        "What each rule card changes as a law (in force: revealed in that or an earlier round of the game). " + how
        + " The PDF prints these effects, with their intervals, in the scorecard per rule card; the HTML report "
          "also has the charts and the tables."),
        tables=_law_tables(eff), figures=figures,
        html_only=tuple(c for c, _ in _law_tables(eff)) + tuple(c for c, _ in figures))  # the PDF: the scorecard


def _ref_short(eff: pd.DataFrame) -> str:
    """The reference of the law figures in a few words (chart titles, captions, findings)."""
    return "the base game" if eff["reference"].iloc[0] == rule_cards.REF_BASE else "the other laws' average"


LAW_TABLES = (("spread", "Seat spread of round wins (largest minus smallest seat share of 1st places), law in force "
                         "against {ref} (basic bootstrap interval and the p-value that inverts it)"),
              ("king", "King retention, law in force against {ref} (z interval and test)"),
              ("plays", "Mean round length (plays), law in force against {ref} (z interval and test)"),
              ("score_sd", "Spread of final scores across seats (standard deviation, VP), games with the law "
                           "against {ref} (test on the variances)"))


def _law_tables(eff: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """One narrow table per measure: rounds (games), with, without, difference, interval, p."""
    out = []
    for col, caption in LAW_TABLES:
        cols = ["card", "games_with" if col == "score_sd" else "rounds_with", f"{col}_with", f"{col}_without",
                f"{col}_diff", f"{col}_lo", f"{col}_hi", f"{col}_p"]
        out.append((caption.format(ref=_ref_short(eff)), eff[cols]))
    return out


NAMED_PAIRS = 6  # flagged pairs named in the text (the smallest q first); the table has them all


def pair_marks(flagged: pd.DataFrame, measure: str) -> list[tuple[int, int]]:
    """The heat-map cells (both halves) of the pairs flagged for ``measure`` (the words that
    open its part of the flag: "seat spread", "round length"), and for no other measure."""
    marks = [(a - 1, b - 1) for a, b, f in zip(flagged["a"], flagged["b"], flagged["flag"])
             if any(part.startswith(measure) for part in f.split("; "))]
    return marks + [(j, i) for i, j in marks]


def pair_section(run) -> Section:
    pairs = _cached(run, "pairs", rule_cards.pair_effects)
    if pairs.empty:
        return Section(PAIR_TITLE, text="No two laws were in force in the same round.")
    ids = list(rule_cards.CARDS)
    flagged = pairs[pairs["flag"] != ""]
    figs = [("Pairs of laws: seat spread", charts.heatmap(
                PP * rule_cards.pair_matrix(pairs, "excess_spread"), [rule_cards.label(c) for c in ids],
                "Seat spread of round wins with both laws in force, beyond chance",
                "seat spread beyond chance\n(percentage points)", marks=pair_marks(flagged, "seat spread"),
                centre=0.0)),
            ("Pairs of laws: round length", charts.heatmap(
                rule_cards.pair_matrix(pairs, "plays"), [rule_cards.label(c) for c in ids],
                "Mean round length with both laws in force", "round length (plays)",
                marks=pair_marks(flagged, "round length")))]
    top = flagged.assign(q=flagged[["spread_q", "plays_q"]].min(axis=1)).nsmallest(NAMED_PAIRS, "q")
    named = "; ".join(f"{r.pair} ({r.flag})" for r in top.itertuples())
    if len(flagged) > NAMED_PAIRS:
        named += f"; and {len(flagged) - NAMED_PAIRS} more (the HTML report's table lists every flagged pair)"
    text = (f"Seat spread of round wins (largest minus smallest seat share of 1st places, drawn minus the spread "
            f"chance alone gives with as many rounds) and mean round length in the rounds where two laws are in force "
            f"together, for every pair that co-occurs. Pairs of at least {rule_cards.MIN_PAIR_ROUNDS} rounds are "
            f"tested: seat shares of round wins against all rounds' (chi-square), round length against the sum of "
            f"the two cards' own effects (t-test), Benjamini-Hochberg over all pair tests. Flagged (outlined in red on the chart of the measure flagged): "
            f"q < 0.05, and for round length at least {100 * rule_cards.MIN_RELATIVE_CHANGE:g}% off. "
            + (f"Flagged pairs: {named}." if named else "No pair is flagged."))
    cols = ["pair", "rounds", "spread", "excess_spread", "spread_q", "plays", "plays_expected", "plays_q", "flag"]
    caption = ("Flagged pairs of laws: seat spread against all rounds' seat shares, round length against the two "
               "laws' own effects added (q: Benjamini-Hochberg over the pair tests)")
    tables = [(caption, flagged[cols])] if not flagged.empty else []
    return Section(PAIR_TITLE, text=text, tables=tables, figures=figs, html_only=(caption,) if tables else ())


EVENTS = (("revolutions", "revolution"), ("forbidden", "forbidden finish"), ("jbacks", "J-back"),
          ("eight_cuts", "eight cut"), ("suit_locks", "suit lock"), ("number_locks", "number lock"),
          ("geki", "both locks (geki-shibari)"), ("capital_falls", "capital fall"), ("guard_hit", "play-count guard"))


ROUND_MEASURES = {"plays": "plays", "passes": "passes", "tricks": "tricks",
                  "trimmed": "cards discarded in the trim before play"}


def frequency_section(run) -> Section:
    f = queries.one(run, "SELECT count(*) AS n, " + ", ".join(
        f"count(*) FILTER (WHERE {col}::BIGINT > 0) AS k_{col}, avg({col}::DOUBLE) AS m_{col}" for col, _ in EVENTS)
        + " FROM rounds")
    n = int(f["n"])
    rows = []
    for col, label in EVENTS:
        k = int(f[f"k_{col}"])
        lo, hi = wilson(k, n)
        rows.append({"event": label, "rounds_with_event": k, "rate": k / n, "lo": float(lo), "hi": float(hi),
                     "mean_per_round": float(f[f"m_{col}"])})
    table = pd.DataFrame(rows)
    per = queries.means(run, "seats", ["forbidden", "revolutions"], by="bot")
    length = queries.means(run, "rounds", list(ROUND_MEASURES)).iloc[0].rename(ROUND_MEASURES)
    length = length.to_frame("mean per round").reset_index()
    return Section("Revolutions, forbidden finishes and card effects", text=(
        "Share of rounds with at least one event (95% Wilson) and mean events per round; per-bot means are per "
        "game. The play-count guard (the engine's play limit of a round) should stay at zero."),
        tables=[("Events per round", table), ("Forbidden finishes and revolutions per game, by bot", per),
                ("Round length", length.rename(columns={"index": "measure"}))],
        figures=[("Rounds with the event", _bars(table, "event", "Share of rounds with the event (95% Wilson)"))],
        html_only=("Rounds with the event",))  # the PDF: the events table carries it


# law measures that become findings: column prefix, sentence head, unit ("share" = a rate)
LAW_MEASURES = (("spread", "the seat spread of round wins beyond chance is", "share"),
                ("king", "the king stays king in", "share"),
                ("plays", "rounds last", "plays"),
                ("score_sd", "the standard deviation of a game's final scores is", "VP"))
# a law finding's measure in words (its test's name: "law 07 Name (king retention)")
MEASURE_WORDS = {"spread": "seat spread", "king": "king retention", "plays": "round length",
                 "score_sd": "spread of final scores"}
# the direction a law's effect on a measure should take (-1: lower is better); measures without
# one (round length, score spread) are a matter of taste: aim nearer the reference unless intended
LAW_TARGET = rule_cards.LAW_TARGET  # each law measure's aim (-1: lower is better, 0: neither way)


def candidates(run, run_label: str) -> list[Candidate]:
    """Findings tests per rule card: each precept holder's draft-order-free edge
    (``analysis.games.daifugo_power``); each law's change in seat spread, king retention, round length and
    spread of final scores (rates by their difference, the others relative to the value without);
    and the play-count guard as a sanity check."""
    out = guard_candidate(run, run_label)
    for r in power(run).to_dict("records"):
        if np.isfinite(r["p"]):
            card = rule_cards.label(r["id"])
            out.append(Candidate(run_label, PRECEPT_TITLE, f"precept {card}", "precept", r["win"], r["win_lo"],
                                 r["win_hi"], r["win"] - r["edge"], r["edge"], r["p"],
                                 head=f"the holder of precept {card} wins", tail="of games",
                                 base="for players who drafted another card at the same pick (draft-order-free)",
                                 diff_lo=r["edge_lo"], diff_hi=r["edge_hi"]))
    eff = laws(run)
    base = not eff.empty and eff["reference"].iloc[0] == rule_cards.REF_BASE
    for r in eff.to_dict("records"):
        for col, head, unit in LAW_MEASURES:
            with_, without, p = r[f"{col}_with"], r[f"{col}_without"], r[f"{col}_p"]
            if not (np.isfinite(p) and np.isfinite(with_) and np.isfinite(without)):
                continue
            if unit == "share":
                effect = with_ - without
            elif without:
                effect = with_ / without - 1
            else:
                continue
            tail = "of rounds" if col == "king" else ""
            ref = ("without it (reference: the base game)" if base else
                   f"in {'games' if col == 'score_sd' else 'rounds'} without it (reference: the other laws' average)")
            out.append(Candidate(run_label, LAW_TITLE, f"law {r['card']} ({MEASURE_WORDS[col]})", "law", with_,
                                 r[f"{col}_with_lo"], r[f"{col}_with_hi"], without, effect, p,
                                 head=f"with law {r['card']} in force {head}", tail=tail, base=ref, unit=unit,
                                 diff_lo=r[f"{col}_lo"], diff_hi=r[f"{col}_hi"], aim=LAW_TARGET.get(col, 0)))
    return out


def guard_candidate(run, run_label: str) -> list[Candidate]:
    """A sanity check: rounds that hit the play-count guard (``max_plays_per_round``, DEC-18), which should never happen,
    with the laws in force in every such round (the rule combination that allows an endless round)."""
    p = run.config.players
    if "guard_hit" not in run.columns("rounds"):
        return []
    g = queries.one(run, f"""WITH r AS ({rule_cards._in_force_rounds(p)}), h AS (SELECT r.in_force FROM r
        JOIN rounds USING (game, round) WHERE rounds.guard_hit)
        SELECT (SELECT count(*) FROM rounds) AS n, (SELECT count(*) FROM h) AS k, (SELECT bit_and(in_force) FROM h) AS every""")
    n, k = int(g["n"]), int(g["k"])
    if not n:
        return []
    lo, hi = wilson(k, n)
    every = int(g["every"]) if k else 0
    laws = [rule_cards.label(c) for c in rule_cards.CARDS if every >> (c - 1) & 1]
    tail = "of rounds" + (f", every one with law {' and '.join(laws)} in force" if laws else "")
    return [Candidate(run_label, "Revolutions, forbidden finishes and card effects", "play-count guard", "guard",
                      k / n, float(lo), float(hi), 0.0, k / n, 0.0 if k else 1.0,
                      head=f"The engine's play limit (a round stopped after {run.config.params.get('max_plays_per_round', 0):,} "
                           "plays, a safety stop the printed rules do not have) ends", tail=tail, base="tolerated",
                      diff_lo=float(lo), diff_hi=float(hi))]


def verdict_marks(run, cands: list[Candidate], min_effect: float) -> list[Mark]:
    """The strongest and weakest precept (draft-order-free) with the checked VP advice, and the
    laws with the largest effects. A law's effect in its measure's target direction
    (``LAW_TARGET``) is marked green: nothing to change."""
    out = []
    prec = [c for c in cands if c.kind == "precept"]
    if prec:
        for c in (max(prec, key=lambda c: c.effect), min(prec, key=lambda c: c.effect)):
            word = "strongest" if c.effect > 0 else "weakest"
            out.append(Mark(level(c, min_effect), f"The {word} precept is {c.subject.removeprefix('precept ')}: its "
                                                  f"holder wins {pp(c.rate)} of games against {pp(c.baseline)} for "
                                                  f"players who drafted another card at the same pick: {c.difference()}"
                                                  + (" (what to change: the precept VP line below)." if
                                                     level(c, min_effect) != "green" else ".")))
        vp_level = "green" if all(level(c, min_effect) == "green" for c in prec) else "amber"
        out.append(Mark(vp_level, vp_advice(run) if vp_level == "green" or vp_check(run) is None else
                        "The precepts are uneven (their holder's edges above).", line=daifugo_vp.LINE))
    for c in _laws_to_show(cands, min_effect)[:3]:
        out.append(Mark(law_level(c, min_effect), _law_line(c), line=f"law:{c.subject[4:6]}:{_measure(c)}"))
    return out


def vp_advice(run) -> str:
    """The checked VP advice of ``cardlab suggest`` in one sentence, or how to get it."""
    advice = vp_check(run)
    if advice is None:
        return f"Precept VPs to print: not yet checked by playing them ({suggest_command(run)})."
    return advice["answer"]["sentence"]


# what a rise of the measure means and where to aim, for the sentence of what to change
LAW_AIM = {"king": "king retention up means a lead snowballs; aim lower",
           "spread": "a wider seat spread means seat order matters more; aim for none beyond chance"}


def _measure(c: Candidate) -> str:
    """The law measure of a law candidate ("king", "spread", "plays", "score_sd"), from the words
    its subject names it by (``MEASURE_WORDS``)."""
    words = c.subject.rsplit(" (", 1)[1].rstrip(")")
    return next((k for k, v in MEASURE_WORDS.items() if v == words), words)


def law_level(c: Candidate, min_effect: float) -> str:
    """A law line's mark: by the size of its effect, but green when the effect goes the way its
    measure should (``Candidate.aim``, from ``LAW_TARGET``)."""
    return "green" if c.welcome else level(c, min_effect)


def _laws_to_show(cands: list[Candidate], min_effect: float) -> list[Candidate]:
    """Law candidates, the ones to act on first (red, then amber), each level by size."""
    laws = [c for c in cands if c.kind == "law" and np.isfinite(c.effect)]
    rank = {"red": 0, "amber": 1, "green": 2}
    return sorted(laws, key=lambda c: (rank[law_level(c, min_effect)], -c.practical(min_effect)))


MAX_LAW_CHANGES = 3  # law effects named in the sentence of what to change; the scorecard has every law


def what_to_change(run, cands: list[Candidate], min_effect: float) -> str:
    """One sentence: the shared changes (seat order, stalls), the precepts too strong or too weak
    (``precept_changes``: the checked VP advice), and the law effects to act on with the direction to aim."""
    changes = rule_changes.shared_changes(cands, min_effect, run) + precept_changes(run, cands, min_effect)
    laws = [c for c in _laws_to_show(cands, min_effect) if law_level(c, min_effect) != "green"]
    for c in laws[:MAX_LAW_CHANGES]:
        lever = rule_changes.checked(run, f"law:{c.subject[4:6]}:{_measure(c)}")
        changes.append(law_change(c) + (f"; {lever}" if lever else ""))
    if len(laws) > MAX_LAW_CHANGES:
        changes.append(f"{len(laws) - MAX_LAW_CHANGES} more law effects (the scorecard lists every card)")
    return rule_changes.change_sentence(changes)


MAX_PRECEPTS_NAMED = 4  # precepts named in the sentence; the scorecard has every card


def precept_changes(run, cands: list[Candidate], min_effect: float) -> list[str]:
    """The precepts to change: with the checked advice of ``cardlab suggest``, the VPs to print and
    the cards whose text should change; without it, the uneven precepts by the holder's edge and
    the command that checks their VPs."""
    advice = vp_check(run)
    if advice is not None:
        ans, scale = advice["answer"], advice.get("scale", 1)
        changes = sorted((int(c), v) for c, v in ans["changes"].items())
        prints = [f"{precept_power.label(c)} at {v} VP" for c, v in changes]
        if scale > 1 and prints:
            out = [f"on {precept_power.scale_words(scale, advice['points'], run.config.players)}, print precepts "
                   f"{', '.join(prints)} (checked by playing it)"]
        else:
            out = [f"print precept {p} (checked by playing it)" for p in prints]
        if ans["text_changes"]:
            out.append("change the text of precepts " + ", ".join(precept_power.label(c) for c in ans["text_changes"])
                       + " (VP cannot even them out)")
        return out
    uneven = sorted((c for c in cands if c.kind == "precept" and level(c, min_effect) != "green"),
                    key=lambda c: -abs(c.effect))
    if not uneven:
        return []
    names = [f"{c.subject.removeprefix('precept ')} ({100 * c.effect:+.1f} pp)" for c in uneven[:MAX_PRECEPTS_NAMED]]
    more = f" and {len(uneven) - MAX_PRECEPTS_NAMED} more" if len(uneven) > MAX_PRECEPTS_NAMED else ""
    return [f"even out the precepts {', '.join(names)}{more} by the holder's edge (their VPs, checked by playing "
            f"them: {suggest_command(run)})"]


def law_change(c: Candidate) -> str:
    """A law effect to act on, with the direction to aim."""
    card, measure = c.subject.removeprefix("law ").rsplit(" (", 1)[0], _measure(c)
    reference = c.base.split("reference: ", 1)[-1].rstrip(")")
    if measure == "king":
        return f"law {card} raises king retention by {100 * c.effect:.1f} pp ({LAW_AIM['king']})"
    if measure == "spread":
        return f"law {card} widens the seat spread of round wins by {100 * c.effect:.1f} pp ({LAW_AIM['spread']})"
    aim = f"aim nearer {reference} unless that is the law's purpose"
    if measure == "plays":
        return f"law {card} makes rounds {100 * abs(c.effect):.0f}% {'longer' if c.effect > 0 else 'shorter'} ({aim})"
    return (f"law {card} puts final scores {'further apart' if c.effect > 0 else 'closer together'} (a standard "
            f"deviation of {c.rate:.2f} VP against {c.baseline:.2f}; {aim})")


# what a law's effect on each measure means at the table: (when up, when down)
LAW_MEANING = {"king": ("the round's winner keeps the crown more often, so a lead snowballs",
                        "the crown changes hands more often, so a lead is easier to catch"),
               "spread": ("seat order matters more", "seat order matters less"),
               "plays": ("rounds take longer", "rounds are shorter"),
               "score_sd": ("final scores lie further apart", "final scores lie closer together")}


def _law_line(c: Candidate) -> str:
    """A verdict line for a law effect: the figure and what it means."""
    measure = _measure(c)
    meaning = LAW_MEANING.get(measure, ("", ""))[0 if c.effect > 0 else 1]
    text = c.sentence().split(": ", 1)[1].rstrip(".")
    return f"{text}: {meaning}." if meaning else f"{text}."


def scorecard_section(run) -> Section:
    eff = laws(run)
    reference = _ref_short(eff) if not eff.empty else "the base game"
    tables = {"power": power(run), "laws": eff, "picks": _cached(run, "picks", rule_cards.pick_stats)}
    return daifugo_scorecard.section(run, tables, reference, suggest_command(run))


def suggest_command(run) -> str:
    """The command that proposes ``run``'s precept VPs and checks them by playing them."""
    return f"cardlab suggest {run.path} --out {run.path}-suggested"


def sections(run) -> list[Section]:
    feel = [daifugo_feel.feel_section(run)] if daifugo_feel.has_feel(run) else []
    return [scorecard_section(run), points_section(run), king_section(run), *feel, precept_section(run),
            law_section(run), pair_section(run), frequency_section(run)]


FIRST_DRAFT = 1  # the round whose draft order is random (DEC-6): nobody's standing chooses who picks first


def draft_picks(run, draft_round: int = FIRST_DRAFT) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The precept draft of round ``draft_round`` (round 1 by default: its first picker is
    random, DEC-6, while from round 2 the last placed picks first, DEC-5, so a pick there would
    also say who is behind). Every card of the round's draft is offered to its first picker.
    Returns ``choices``: per (``bot``, ``card``) how often a seat of that bot picked first while
    the card was offered (``offered``) and took it (``chosen``); and ``holders``: per card its
    round's drafts (``drafts``, the holder ``owner_NN``) with the sum and sum of squares of the
    per-game differences holder's win minus the other seats' mean (``sum_d``, ``ss_d``). Empty
    frames without the draft record (``pick_NN``, ``pick_round_NN``) or without drafts."""
    cols = run.columns("games")
    need = [f"{k}_{c:02d}" for c in rule_cards.CARDS for k in ("pick", "pick_round", "owner")]
    empty = (pd.DataFrame(columns=["bot", "card", "offered", "chosen"]),
             pd.DataFrame(columns=["card", "drafts", "sum_d", "ss_d"]))
    if not all(c in cols for c in need):
        return empty
    each = " UNION ALL ".join(f"SELECT game, {c} AS card, owner_{c:02d}::BIGINT AS seat, pick_{c:02d} AS pick "
                              f"FROM games WHERE pick_round_{c:02d} = {int(draft_round)} AND owner_{c:02d} >= 0"
                              for c in rule_cards.CARDS)
    choices = run.sql(f"""WITH p AS ({each}),
        f AS (SELECT p.game, p.card AS took, s.bot FROM p JOIN seats s ON s.game = p.game AND s.seat = p.seat
              WHERE p.pick = 1)
        SELECT f.bot, p.card, count(*) AS offered, count(*) FILTER (WHERE p.card = f.took) AS chosen
        FROM p JOIN f ON f.game = p.game GROUP BY f.bot, p.card ORDER BY f.bot, p.card""")
    holders = run.sql(f"""WITH p AS ({each}),
        t AS (SELECT game, sum(win::DOUBLE) AS tw, count(*) AS k FROM seats GROUP BY game HAVING count(*) > 1),
        h AS (SELECT p.card, s.win::DOUBLE - (t.tw - s.win::DOUBLE) / (t.k - 1) AS d
              FROM p JOIN seats s ON s.game = p.game AND s.seat = p.seat JOIN t ON t.game = p.game)
        SELECT card, count(*) AS drafts, sum(d) AS sum_d, sum(d * d) AS ss_d FROM h GROUP BY card ORDER BY card""")
    if choices.empty or holders.empty:
        return empty
    for df in (choices, holders):
        df["card"] = [rule_cards.label(int(c)) for c in df["card"]]
    return choices, holders


def draft_power(holders: pd.DataFrame) -> pd.DataFrame:
    """Per card of ``holders`` (``draft_picks``): the holders' win-rate change (mean of the
    per-game differences holder minus the other seats) with its 95% t interval (``mean_test``)."""
    g = holders.set_index("card")
    rows = []
    for card, r in g.iterrows():
        n = int(r["drafts"])
        m = r["sum_d"] / n
        var = (r["ss_d"] - n * m * m) / (n - 1) if n > 1 else np.nan
        t = mean_test(m, float(np.sqrt(max(var, 0.0))) if np.isfinite(var) else np.nan, n)
        rows.append({"card": card, "holders": n, "win_diff": m, "win_diff_lo": t["lo"], "win_diff_hi": t["hi"]})
    return pd.DataFrame(rows)


DRAFT_FOLLOWS = ("So its first cards go to whoever drafts first, and from round 2 the last placed drafts first "
                 "(DEC-5): a card's power measured from its games mixes in who drafts first. Read the scorecard's "
                 "draft-order-free estimate of the cards' power, not the holders' raw win rates.")


def draft_offers(run) -> pd.DataFrame:
    """Every precept draft decision of every round rebuilt from the draft record: in round r the
    picker at position p (the holder ``owner_NN`` of the card with ``pick_NN`` = p) chose among
    the round's cards with pick >= p. One row per (``bot``, ``decision``, ``card`` on offer) with
    ``chosen``; empty without the draft record."""
    cols = run.columns("games")
    if not all(f"{k}_{c:02d}" in cols for c in rule_cards.CARDS for k in ("pick", "pick_round", "owner")):
        return pd.DataFrame(columns=["bot", "decision", "card", "chosen"])
    each = " UNION ALL ".join(f"SELECT game, pick_round_{c:02d} AS round, {c} AS card, pick_{c:02d} AS pick, "
                              f"owner_{c:02d}::BIGINT AS seat FROM games WHERE pick_{c:02d} > 0 AND owner_{c:02d} >= 0"
                              for c in rule_cards.CARDS)
    offers = run.sql(f"""WITH p AS ({each}),
        d AS (SELECT p.game, p.round, p.pick, p.card AS took, s.bot,
                     dense_rank() OVER (ORDER BY p.game, p.round, p.pick) AS decision
              FROM p JOIN seats s ON s.game = p.game AND s.seat = p.seat)
        SELECT d.bot, d.decision, o.card, o.card = d.took AS chosen
        FROM d JOIN p o ON o.game = d.game AND o.round = d.round AND o.pick >= d.pick
        ORDER BY d.decision, o.card""")
    offers["card"] = offers["card"].map({c: rule_cards.label(c) for c in rule_cards.CARDS})
    return offers


def bot_diagnostics(run, label: str) -> list:
    """A bot whose round-1 precept draft order runs against the holders' measured win-rate
    change (``analysis.bot_diagnostics.order_against_power``), and a bot that drafts by one fixed
    order over all rounds (``fixed_draft``); madness runs with a draft record only."""
    from analysis.bot_diagnostics import fixed_draft, order_against_power

    choices, holders = draft_picks(run)
    if choices.empty:
        return []
    return [*order_against_power(choices, draft_power(holders), label),
            *fixed_draft(draft_offers(run), label, DRAFT_FOLLOWS)]


ROBUST_LAWS = {"spread": ("seat spread of round wins", "the change in the seat spread of round wins", "share",
                          "effect on the seat spread of round wins"),
               "king": ("king retention", "the change in the share of rounds the king stays king", "share",
                        "effect on king retention"),
               "plays": ("round length", "the change in mean round length", "plays", "effect on round length"),
               "score_sd": ("spread of final scores", "the change in the standard deviation of final scores across seats",
                            "VP", "effect on the spread of final scores")}


def robustness_kinds(run, use_control: bool = False) -> list:
    """The findings ``analysis.robustness`` compares between a search run and a scripted run:
    each precept's win-rate change (holder minus the other players of the same games), and per
    law measure each law's change (with minus without; against the base game when
    ``use_control``, else against the other laws' average)."""
    from analysis.kinds import Kind, frame

    out = []
    pre = power(run)
    if not pre.empty:
        out.append(Kind("precept", "Precepts", "the holder's draft-order-free edge (win rate against players who "
                        "drafted another card at the same pick)", "share",
                        frame([{"item": f"precept {rule_cards.label(r['id'])}", "est": r["edge"], "lo": r["edge_lo"],
                                "hi": r["edge_hi"], "p": r["p"]} for r in pre.to_dict("records")]),
                        noun="precept", short="holder's edge"))
    if use_control and getattr(run, "control", None) is not None:
        eff = laws(run)
    else:
        eff = _cached(run, "laws-stratified", rule_cards.stratified_law_effects)
    if eff.empty:
        return out
    ref = _ref_short(eff)
    for col, (title, measure, unit, short) in ROBUST_LAWS.items():
        rows = [{"item": f"law {r['card']}", "est": r[f"{col}_diff"], "lo": r[f"{col}_lo"], "hi": r[f"{col}_hi"],
                 "p": r[f"{col}_p"], "ref": r[f"{col}_without"]} for r in eff.to_dict("records")]
        out.append(Kind(f"law_{col}", f"Laws against {ref}: {title}", f"{measure}, against {ref}", unit, frame(rows),
                        noun="law", short=f"{short} against {ref}"))
    return out


HIDDEN_CARDS_TEXT = ("the games in which the card was revealed as a law, and those in which the player's seat held "
                     "it as a precept")


def hidden_cards(run) -> dict[str, str]:
    """The rule cards for ``analysis.hidden_info``: each card as a law (revealed in the game,
    ``laws_mask``) and as a precept the seat held (``owner_NN``); conditions on the seat row ``s``
    and the game row ``g``."""
    laws = {f"{rule_cards.label(c)} (law)": f"(g.laws_mask >> {c - 1}) & 1 = 1" for c in rule_cards.CARDS}
    precepts = {f"{rule_cards.label(c)} (precept)": f"g.owner_{c:02d} = s.seat" for c in rule_cards.CARDS}
    return laws | precepts


def measured(run, line: str) -> str | None:
    """What the report measures a law line of ``run`` against (``daifugo_laws.reference``)."""
    from analysis.games import daifugo_laws

    return daifugo_laws.reference(run) if line.startswith("law:") else None


def line_states(source) -> list[dict]:
    """Daifugō's own rule lines on a run for ``cardlab suggest``: the precepts' balance (madness
    mode, ``daifugo_vp.line_state``) and every law line (``daifugo_laws.law_lines``)."""
    from analysis.games import daifugo_laws, daifugo_vp

    own = [daifugo_vp.line_state(source)] if source.config.params.get("mode") == "madness" else []
    return own + daifugo_laws.law_lines(source)


def prescriptions(source, out, size, workers: int, todo: list[dict], levers, notify, scope) -> list[dict]:
    """Prescriptions for daifugo's own lines ``todo`` (out of their band): the precept VPs
    (``daifugo_vp.prescription``, when ``levers`` hold a precept VP, with ``scope``'s point
    ``scale`` and check ``rounds``) and the laws (``daifugo_laws.prescriptions``, with ``levers``)."""
    from analysis.games import daifugo_laws, daifugo_vp

    found = []
    vp_levers = any(lv.param.startswith("precept_vp_") for lv in levers)
    if any(st["line"] == daifugo_vp.LINE for st in todo) and vp_levers:
        found.append(daifugo_vp.prescription(source, out, size.confirm, workers, notify, scope.scale,
                                              scope.rounds))
    laws = [st for st in todo if st["line"].startswith("law:")]
    return found + daifugo_laws.prescriptions(source, out / "laws", size.confirm, workers, laws, levers, notify)
