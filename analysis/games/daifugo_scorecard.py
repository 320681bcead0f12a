"""Daifugō per-card scorecard: one row per rule card with what a designer prints.

For every card of the run: as a precept, its holder's win-rate change against the other
players of the same games, its worth in VP against an average precept, the VP printed now and
the whole number to print instead (``rule_cards.suggested_vp``), and, when a check run played
with those VPs is given to the report (``cardlab suggest RUN --out CHECK``), the win-rate change
the new VP actually brings; as a law, its effect on king retention, round length and the spread
of final scores (a standard deviation in VP) against the reference of the law figures; in the
draft, how often it is drafted and taken first in its draft round.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from analysis import rule_cards
from analysis.sections import Section
from sim.stats import fdr_bh

TITLE = "Scorecard per rule card"
VP_PREFIX = "precept_vp_"


def suggestion_key(cfg):
    """The config with its precept VPs left out: runs with the same key differ only in the VPs
    the report suggests, so one is the check run of the other (None: no precepts to suggest for)."""
    if cfg.params.get("mode") != "madness" or not cfg.params.get("rule_deck"):
        return None
    return dataclasses.replace(cfg, params={k: v for k, v in cfg.params.items() if not k.startswith(VP_PREFIX)})


def suggestions(run) -> dict[str, int] | None:
    """The precept VPs to print, as parameters (``precept_vp_NN``: whole number), for every drafted
    card whose VP to print (``vp_to_print``) differs from the VP it was played with; None for a
    run without precepts (nothing to suggest on)."""
    printed = vp_to_print(rule_cards.precept_effects(run), rule_cards.suggested_vp(run))
    if not printed:
        return None
    return {f"{VP_PREFIX}{card:02d}": new for card, (now, new) in printed.items() if new != now}


def vp_to_print(eff: pd.DataFrame, vp: pd.DataFrame) -> dict[int, tuple[int, int]]:
    """Per drafted card id: (VP now, whole VP to print). The suggested VP rounded; a card that is
    too strong or too weak (``verdicts``) while the rounding keeps its VP moves one VP the way
    that evens it, the smallest printable change (a check run says whether it overshoots)."""
    if vp.empty or eff.empty:
        return {}
    verdict = verdicts(eff)
    out = {}
    for r in vp.itertuples():
        now, new = int(r.precept_vp), int(round(r.suggested_vp))
        if new == now:
            v = verdict.get(int(r.id), "even")
            new = now - 1 if v == "too strong" else now + 1 if v == "too weak" else now
        out[int(r.id)] = (now, new)
    return out


def _signed(x: float, digits: int) -> str:
    """``+8.1``; a value that rounds to zero prints as ``0.0``, never ``-0.0``."""
    r = round(x, digits)
    return f"{0.0:.{digits}f}" if r == 0 else f"{r:+.{digits}f}"


def _ci(v: float, lo: float, hi: float, scale: float = 1.0, digits: int = 1) -> str:
    """``+8.1 (+7.5 to +8.7)``: a figure with its 95% interval, signed; blank when undefined."""
    if not np.isfinite(v):
        return ""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return _signed(scale * v, digits)
    return f"{_signed(scale * v, digits)} ({_signed(scale * lo, digits)} to {_signed(scale * hi, digits)})"


MIN_EFFECT = 0.01  # a precept whose holder's edge is significant and at least 1 percentage point is uneven


def verdicts(eff: pd.DataFrame) -> dict[int, str]:
    """Per card id: too strong, too weak or even. Uneven: the holder's edge is at least
    ``MIN_EFFECT`` and significant after Benjamini-Hochberg over the run's cards (q < 0.05)."""
    q = fdr_bh(eff["win_p"].fillna(1.0).to_numpy()) if len(eff) else []
    return {int(r.id): ("too strong" if qv < 0.05 and r.win_diff >= MIN_EFFECT else
                        "too weak" if qv < 0.05 and r.win_diff <= -MIN_EFFECT else "even")
            for r, qv in zip(eff.itertuples(), q)}


def _precept_columns(eff: pd.DataFrame, vp: pd.DataFrame, check) -> pd.DataFrame:
    if eff.empty:
        return pd.DataFrame(columns=["id"])
    out = pd.DataFrame({"id": eff["id"], "holder's edge (pp)": [
        _ci(r.win_diff, r.win_diff_lo, r.win_diff_hi, 100) for r in eff.itertuples()],
        "verdict": [verdicts(eff)[int(i)] for i in eff["id"]]})
    if not vp.empty:
        v = pd.DataFrame({"id": vp["id"], "worth vs an average precept (VP)": [  # its interval: the precept section
                              _signed(-r.offset, 2) for r in vp.itertuples()],
                          "VP now": vp["precept_vp"].astype(int)})
        printed = vp_to_print(eff, vp)
        v["VP to print"] = [printed[int(i)][1] for i in v["id"]]
        out = out.merge(v, on="id", how="left")
    if check is not None:
        c = rule_cards.precept_effects(check)
        if not c.empty:
            vps = check.config.params
            out = out.merge(pd.DataFrame({"id": c["id"], "checked: VP played": [
                int(vps.get(f"{VP_PREFIX}{int(i):02d}", 1)) for i in c["id"]],
                "checked: edge (pp)": [
                _ci(r.win_diff, r.win_diff_lo, r.win_diff_hi, 100) for r in c.itertuples()]}), on="id", how="left")
            if "VP to print" in out and (out["checked: VP played"] == out["VP to print"]).all():
                out = out.drop(columns="checked: VP played")  # the check played exactly the VPs to print
    return out


def _law_columns(laws: pd.DataFrame) -> pd.DataFrame:
    if laws.empty:
        return pd.DataFrame(columns=["id"])
    sd_with, sd_without = np.sqrt(laws["var_with"].clip(lower=0)), np.sqrt(laws["var_without"].clip(lower=0))
    return pd.DataFrame({
        "id": laws["id"],
        "king kept (pp)": [_ci(r.king_diff, r.king_lo, r.king_hi, 100) for r in laws.itertuples()],
        "round length (plays)": [_ci(r.plays_diff, r.plays_lo, r.plays_hi) for r in laws.itertuples()],
        "score SD (VP)": [_signed(d, 2) if np.isfinite(d) else "" for d in sd_with - sd_without]})


def _draft_columns(picks: pd.DataFrame) -> pd.DataFrame:
    if picks.empty or not picks["drafted"].sum():  # normal mode: no draft
        return pd.DataFrame(columns=["id"])
    out = pd.DataFrame({"id": picks["id"],
                        "drafted (%)": (100 * picks["draft_rate"]).round(1)})
    if "first_pick_rate" in picks:
        out["first pick (%)"] = (100 * picks["first_pick_rate"]).round(1)
    return out


def scorecard(run, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per card of the run's rule deck (see the module docstring); ``tables``: the run's
    ``precepts`` (``rule_cards.precept_effects``), ``vp`` (``suggested_vp``), ``laws``
    (``law_effects``) and ``picks`` (``pick_stats``)."""
    cards = pd.DataFrame({"id": [int(c) for c in run.config.params.get("rule_deck", ())]})
    cards["card"] = [rule_cards.label(c) for c in cards["id"]]
    parts = (_precept_columns(tables["precepts"], tables["vp"], getattr(run, "check", None)),
             _law_columns(tables["laws"]), _draft_columns(tables["picks"]))
    for part in parts:
        cards = cards.merge(part, on="id", how="left")
    return cards.drop(columns="id").fillna("")


def section(run, tables: dict[str, pd.DataFrame], reference: str, command: str) -> Section:
    """The scorecard section: the table, what each column means, and how to check the VPs."""
    table = scorecard(run, tables)
    check = getattr(run, "check", None)
    text = ("One row per rule card. Figures are differences with their 95% intervals in brackets. Precept: the "
            "holder's win rate minus the other players' of the same games (percentage points); its worth in VP "
            "against an average precept (positive: worth more than the others, so print fewer VP); the VP it is "
            "played with now and the whole number to print instead: the suggested VP rounded, or, for a card that "
            "is too strong or too weak (the holder's edge at least 1 percentage point and significant after "
            "Benjamini-Hochberg over the run's cards, q < 0.05) whose rounded VP would not change, one VP less or more, the smallest printable change. "
            if "VP now" in table else "")
    if "VP now" in table:
        text += (f"Checked by simulation: the run {check.path.name} was played with the VPs to print, and its column "
                 "gives the holder's win-rate change they bring. " if check is not None else
                 f"Not yet checked by simulation; to play the same games with the VPs to print: {command}. ")
    text += (f"Law: the change the card brings when in force, against {reference}: king retention (percentage "
             "points; up: the round's winner keeps the crown more often, so a lead snowballs), round length (plays), "
             "and the spread of final scores across the seats of a game as a standard deviation in VP (up: scores "
             "further apart)." + (" Draft: the share of games in which it is drafted, and of its drafts in which it "
                                  "is the first pick of its draft round." if "drafted (%)" in table else ""))
    precept = [c for c in table.columns if c == "card" or c.startswith(("holder", "verdict", "worth", "VP", "checked"))]
    rest = [c for c in table.columns if c == "card" or c not in precept]
    tables = [("As a precept: one row per card, figures with their 95% intervals in brackets", table[precept])] \
        if len(precept) > 1 else []
    tables.append(("As a law (king kept, round length, score SD: the change when in force)"
                   + (" and in the draft" if "drafted (%)" in table else ""), table[rest]))
    return Section(TITLE, text=text, tables=tables)
