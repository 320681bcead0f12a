"""Daifugō report sections (spec §7): points by seat and bot, king retention, rule cards as
precepts and as laws, revolution and forbidden-finish frequencies, card-effect counts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import charts, queries
from analysis.stats import compare_rates, mean_ci_from, wilson
from analysis.sections import Section

from sim.games.daifugo.rules import CARD_NAMES, IMPLEMENTED_CARDS, N_RULE_CARDS


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
        figures=[("King retention by round", _bars(by_round, "round", "King stays king (95% Wilson)"))])


def _card_list() -> str:
    return "(SELECT unnest([" + ", ".join(map(str, IMPLEMENTED_CARDS)) + "]) AS card)"


def _bit(card: str) -> str:
    return f"(1::BIGINT << ({card} - 1))"


def precept_counts(run) -> pd.DataFrame:
    """Per implemented card: seats holding its precept and their wins (n1, s1), and the other
    seats of the games where it was drafted and their wins (n2, s2)."""
    held, drafted = f"(precepts_mask & {_bit('card')}) != 0", f"(drafted & {_bit('card')}) != 0"
    return run.sql(f"""
        WITH g AS (SELECT game, bit_or(precepts_mask) AS drafted FROM seats GROUP BY game)
        SELECT card, count(*) FILTER (WHERE {held}) AS n1, count(*) FILTER (WHERE {held} AND win) AS s1,
               count(*) FILTER (WHERE {drafted} AND NOT {held}) AS n2,
               count(*) FILTER (WHERE {drafted} AND NOT {held} AND win) AS s2
        FROM seats JOIN g USING (game) CROSS JOIN {_card_list()} GROUP BY card ORDER BY card""")


def law_rounds(run) -> pd.DataFrame:
    """Per implemented card, rounds with it in force as a law (revealed in this or an earlier
    round of the game) and rounds without it: counts, plays moments, king and event counts."""
    return run.sql(f"""
        WITH r AS (SELECT plays, king, king_kept, revolutions, forbidden,
                          bit_or(CASE WHEN law > 0 THEN {_bit('law')} ELSE 0 END) OVER (
                              PARTITION BY game ORDER BY round ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
                          ) AS in_force FROM rounds)
        SELECT card, (in_force & {_bit('card')}) != 0 AS force, count(*) AS n,
               avg(plays::DOUBLE) AS mean_plays, stddev_samp(plays::DOUBLE) AS sd_plays,
               count(*) FILTER (WHERE king >= 0) AS kn, count(*) FILTER (WHERE king >= 0 AND king_kept) AS kk,
               count(*) FILTER (WHERE revolutions > 0) AS rv, avg(forbidden::DOUBLE) AS forbidden
        FROM r CROSS JOIN {_card_list()} GROUP BY ALL ORDER BY card, force DESC""")


def _precept_row(r) -> dict:
    s1, n1, s2, n2 = int(r.s1), int(r.n1), int(r.s2), int(r.n2)
    d = compare_rates(s1, n1, s2, n2)
    lo1, hi1 = wilson(s1, n1)
    lo2, hi2 = wilson(s2, n2)
    return {"card": f"{r.card:02d} {CARD_NAMES[r.card]}", "holders": n1, "holder_win": s1 / n1,
            "holder_lo": float(lo1), "holder_hi": float(hi1), "others_win": s2 / n2 if n2 else np.nan,
            "others_lo": float(lo2), "others_hi": float(hi2), "diff": d["diff"],
            "diff_lo": d["lo"], "diff_hi": d["hi"], "p": d["p"]}


def _law_row(r) -> dict:
    m, lo, hi = mean_ci_from(r.mean_plays, r.sd_plays, int(r.n))
    kk, kn, rv = int(r.kk), int(r.kn), int(r.rv)
    klo, khi = wilson(kk, kn)
    rlo, rhi = wilson(rv, int(r.n))
    return {"card": f"{r.card:02d} {CARD_NAMES[r.card]}", "rounds": "law in force" if r.force else "not a law",
            "n": int(r.n), "mean_plays": m, "plays_lo": lo, "plays_hi": hi,
            "king_kept": kk / kn if kn else np.nan, "kept_lo": float(klo), "kept_hi": float(khi),
            "revolution_rate": rv / r.n, "rev_lo": float(rlo), "rev_hi": float(rhi),
            "forbidden_per_round": r.forbidden}


def cards_section(run) -> Section:
    prec_rows = [_precept_row(r) for r in precept_counts(run).itertuples() if r.n1]
    law_rows = [_law_row(r) for r in law_rounds(run).itertuples()]
    tables = []
    if prec_rows:
        tables.append(("Win rate of the precept holder vs the other players in games where the card was "
                       "drafted (95% Wilson; difference with normal-approximation interval)", pd.DataFrame(prec_rows)))
    if law_rows:
        tables.append(("Rounds with the card in force as a law vs rounds without it", pd.DataFrame(law_rows)))
    inert = [f"{c:02d}" for c in range(1, N_RULE_CARDS + 1) if c not in IMPLEMENTED_CARDS]
    return Section("Rule cards (implemented: 07, 09, 14, 15, 19, 21)", text=(
        "For each implemented rule card: how its precept holder fares against the other players of the same "
        "games, and how rounds with the card in force as a law differ from rounds without it. Cards "
        + ", ".join(inert) + " can be drawn, held and scored but have no effect yet; precept VP default to 1 "
        "per card (assumed, §1.5)."), tables=tables)


EVENTS = (("revolutions", "revolution"), ("forbidden", "forbidden finish"), ("jbacks", "J-back"),
          ("eight_cuts", "eight cut"), ("suit_locks", "suit lock"), ("number_locks", "number lock"),
          ("geki", "both locks (geki-shibari)"), ("capital_falls", "capital fall"), ("guard_hit", "play-count guard"))


def frequency_section(run) -> Section:
    f = queries.one(run, "SELECT count(*) AS n, " + ", ".join(
        f"count(*) FILTER (WHERE {col}::BIGINT > 0) AS k_{col}, avg({col}::DOUBLE) AS m_{col}" for col, _ in EVENTS)
        + " FROM rounds")
    n = int(f["n"])
    rows = []
    for col, label in EVENTS:
        k = int(f[f"k_{col}"])
        lo, hi = wilson(k, n)
        rows.append({"event": label, "rounds_with": k, "rate": k / n, "lo": float(lo), "hi": float(hi),
                     "mean_per_round": float(f[f"m_{col}"])})
    table = pd.DataFrame(rows)
    per = queries.means(run, "seats", ["forbidden", "revolutions"], by="bot")
    length = queries.means(run, "rounds", ["plays", "passes", "tricks", "trimmed"]).iloc[0]
    length = length.to_frame("mean per round").reset_index()
    return Section("Revolutions, forbidden finishes and card effects", text=(
        "Share of rounds with at least one event (95% Wilson) and mean events per round; per-bot means are per "
        "game. The play-count guard (DEC-18) should stay at zero."),
        tables=[("Events per round", table), ("Forbidden finishes and revolutions per game, by bot", per),
                ("Round length", length.rename(columns={"index": "measure"}))],
        figures=[("Rounds with the event", _bars(table, "event", "Share of rounds with the event (95% Wilson)"))])


def sections(run) -> list[Section]:
    return [points_section(run), king_section(run), cards_section(run), frequency_section(run)]
