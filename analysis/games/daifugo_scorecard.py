"""Daifugō per-card scorecard: one row per rule card with what a designer prints.

For every card of the run: as a precept, its holder's edge free of draft order, its raw edge
against the other players of the same games and how often it is taken first (so the two can be
told apart), its worth in VP (``analysis.games.daifugo_power``), and, when the advice of
``cardlab suggest RUN --out ADVICE`` is given to the report, the VP to print, checked: the edge
with the VPs now and with the VPs to print on the same fresh games, and what to do; as a law, its effect on the seat spread of round wins, king retention, round length and the spread
of final scores (a standard deviation in VP) against the reference of the law figures; in the
draft, how often it is drafted and taken first in its draft round.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.games import daifugo_rule_cards as rule_cards
from analysis.games.daifugo_vp import vp_check
from analysis.sections import Section

TITLE = "Scorecard per rule card"


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


def _precept_columns(power: pd.DataFrame, advice: dict | None) -> pd.DataFrame:
    if power.empty:
        return pd.DataFrame(columns=["id"])
    out = pd.DataFrame({"id": power["id"], "holder's edge, draft-order-free (pp)": [
        _ci(r.edge, r.edge_lo, r.edge_hi, 100) for r in power.itertuples()],
        "raw edge (pp)": [_signed(100 * r.raw_edge, 1) for r in power.itertuples()],
        "taken first (%)": (100 * power["first_pick"]).round(1),
        "worth (VP)": [_ci(r.worth_vp, r.worth_vp_lo, r.worth_vp_hi, 1, 2) for r in power.itertuples()],
        "verdict": power["verdict"]})
    if advice is not None:
        rows = pd.DataFrame(advice["answer"]["rows"])
        rows["id"] = [int(c[:2]) for c in rows["card"]]
        scale = f" (x{advice['scale']} scale)" if advice.get("scale", 1) > 1 else ""
        keep = {"VP now": f"VP now{scale}", "VP to print": f"VP to print{scale}",
                "holder's edge now (pp)": "checked: edge now (pp)",
                "with the VPs to print (pp)": "checked: edge with the VPs to print (pp)", "what to do": "what to do"}
        out = out.merge(rows[["id", *keep]].rename(columns=keep), on="id", how="left")
        out = out.merge(_strong_columns(advice.get("strong")), on="id", how="left")
    return out


def _strong_columns(strong: dict | None) -> pd.DataFrame:
    """The edges the strong population's check measured: with the VPs now and with the VPs to print."""
    if not strong:
        return pd.DataFrame(columns=["id"])
    cols = []
    for key, name in (("before", "edge now"), ("after", "edge with the VPs to print")):
        t = pd.DataFrame(strong[key])
        cols.append(pd.DataFrame({"id": t["id"], f"{strong['bots']} bots: {name} (pp)": [
            _ci(r.edge, r.edge_lo, r.edge_hi, 100) for r in t.itertuples()]}))
    return cols[0].merge(cols[1], on="id", how="outer")


def _law_columns(laws: pd.DataFrame) -> pd.DataFrame:
    if laws.empty:
        return pd.DataFrame(columns=["id"])
    sd_with, sd_without = np.sqrt(laws["var_with"].clip(lower=0)), np.sqrt(laws["var_without"].clip(lower=0))
    return pd.DataFrame({
        "id": laws["id"],
        "seat spread (pp)": [_ci(r.spread_diff, r.spread_lo, r.spread_hi, 100) for r in laws.itertuples()],
        "king kept (pp)": [_ci(r.king_diff, r.king_lo, r.king_hi, 100) for r in laws.itertuples()],
        "round length (plays)": [_ci(r.plays_diff, r.plays_lo, r.plays_hi) for r in laws.itertuples()],
        "score SD (VP)": [_signed(d, 2) if np.isfinite(d) else "" for d in sd_with - sd_without]})


def _draft_columns(picks: pd.DataFrame) -> pd.DataFrame:
    if picks.empty or not picks["drafted"].sum():  # normal mode: no draft
        return pd.DataFrame(columns=["id"])
    return pd.DataFrame({"id": picks["id"], "drafted (%)": (100 * picks["draft_rate"]).round(1)})


def scorecard(run, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per card of the run's rule deck (see the module docstring); ``tables``: the run's
    ``power`` (``precept_power.card_power``), ``laws``
    (``law_effects``) and ``picks`` (``pick_stats``)."""
    cards = pd.DataFrame({"id": [int(c) for c in run.config.params.get("rule_deck", ())]})
    cards["card"] = [rule_cards.label(c) for c in cards["id"]]
    parts = (_precept_columns(tables["power"], vp_check(run)),
             _law_columns(tables["laws"]), _draft_columns(tables["picks"]))
    for part in parts:
        cards = cards.merge(part, on="id", how="left")
    return cards.drop(columns="id").fillna("")


def _precept_text(power: pd.DataFrame, advice: dict | None, command: str) -> str:
    """What the precept table shows, the first-pick correlations that show why the raw edge is not
    the card's power, and the checked VP advice (or how to get it)."""
    from analysis.games.daifugo_power import TEXT_WORTH_VP, first_pick_correlation

    corr = first_pick_correlation(power)

    def rho(key: str) -> str:
        c = corr[key]
        return f"{c['rho']:+.2f} (95% CI {c['lo']:+.2f} to {c['hi']:+.2f})"

    text = ("Precept: the holder's edge is the holder's win rate minus that of the players who drafted another card "
            "at the same pick of the same draft round with the same bot, so who drafts first (from round 2 the last "
            "placed, DEC-5) does not leak in (percentage points, "
            "95% intervals; too strong or too weak: at least 1 point and significant after Benjamini-Hochberg over "
            "the cards, q < 0.05). The raw edge is the holder's win rate minus the other players' of the same games: "
            "the share of drafts in which a card is taken first "
            f"correlates with its raw edge at {rho('raw_edge')} and with the draft-order-free edge at {rho('edge')} "
            "(Spearman). Worth: the edge in VP, one VP being what the holder's win rate gains from one more point "
            f"on the final score. ")
    if advice is None:
        return text + (f"VP to print: not yet checked by playing them; {command} proposes a change for every uneven "
                       "card worth half a VP or more, plays it against the VPs now on fresh games and keeps only what "
                       "the games confirm. ")
    imb = advice["answer"]["imbalance"]
    checked = (f"The checked columns come from {advice['answer']['games']:,} fresh games played with the VPs now and "
               "with the VPs to print (the same deals). " if imb else "")
    return text + (f"Advice, checked by playing it: {advice['answer']['sentence']} {checked}'Change the text': VP "
                   f"cannot even the card out (worth under half a VP, its 95% interval at least {TEXT_WORTH_VP} VP from "
                   "even; or a VP change left it further from even when played). ")


def section(run, tables: dict[str, pd.DataFrame], reference: str, command: str) -> Section:
    """The scorecard section: the table, what each column means, and the checked VP advice."""
    table = scorecard(run, tables)
    advice = vp_check(run)
    text = "One row per rule card. " + (_precept_text(tables["power"], advice, command)
                                        if not tables["power"].empty else "")
    text += (f"Law: the change the card brings when in force, against {reference}: the seat spread of round wins "
             "beyond chance (percentage points; up: one seat wins more rounds than the others), king retention (percentage "
             "points; up: the round's winner keeps the crown more often, so a lead snowballs), round length (plays), "
             "and the spread of final scores across the seats of a game as a standard deviation in VP (up: scores "
             "further apart)." + (" Draft: the share of games in which it is drafted." if "drafted (%)" in table else ""))
    precept = [c for c in table.columns if c == "card" or c.startswith(
        ("holder", "raw", "taken", "verdict", "worth", "VP", "checked", "what", "learned"))]
    rest = [c for c in table.columns if c == "card" or c not in precept]
    tables = [("As a precept (draft-order-free edge and worth, 95% intervals in brackets)"
               + ("; the VP advice, checked by playing it" if advice else ""), table[precept])] \
        if len(precept) > 1 else []
    tables.append((f"As a law (seat spread, king kept, round length, score SD: the change when in force, against "
                   f"{reference})"
                   + (" and in the draft" if "drafted (%)" in table else ""), table[rest]))
    return Section(TITLE, text=text, tables=tables)
