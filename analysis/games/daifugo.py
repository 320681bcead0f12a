"""Daifugō report sections (spec §7): points by seat and bot, king retention, rule cards as
precepts and as laws, revolution and forbidden-finish frequencies, card-effect counts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import charts
from analysis.stats import compare_rates, mean_ci, rate_table, wilson
from analysis.sections import Section

from sim.games.daifugo.rules import CARD_NAMES, IMPLEMENTED_CARDS, N_RULE_CARDS


def _bars(table: pd.DataFrame, label: str, title: str):
    """rate_bars with intervals clipped around the rate (guards against rounding at 0 and 1)."""
    t = table.copy()
    t["lo"] = np.minimum(t["lo"], t["rate"])
    t["hi"] = np.maximum(t["hi"], t["rate"])
    return charts.rate_bars(t, label, title)


def _mean_table(df: pd.DataFrame, by: str, col: str) -> pd.DataFrame:
    rows = []
    for key, g in df.groupby(by, observed=True):
        m, lo, hi = mean_ci(g[col].to_numpy())
        rows.append({by: key, "n": len(g), f"mean_{col}": m, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def points_section(run) -> Section:
    seats = run.table("seats", ["game", "seat", "bot", "points", "win", "win_share", "rank_points",
                                "bonus_points", "precept_points"])
    tables = []
    for by in ("seat", "bot"):
        pts = _mean_table(seats, by, "points")
        wr = rate_table(seats, by, "win")[[by, "rate", "lo", "hi"]].rename(
            columns={"rate": "win_rate", "lo": "win_lo", "hi": "win_hi"})
        share = seats.groupby(by, observed=True)["win_share"].mean().rename("win_share").reset_index()
        tables.append((f"Final points and wins by {by} (95% t / Wilson intervals; win_share splits ties)",
                       pts.merge(wr, on=by).merge(share, on=by)))
    src = seats[["rank_points", "bonus_points", "precept_points"]].mean().to_frame("mean per seat").reset_index()
    tables.append(("Points by source (mean per seat and game)", src.rename(columns={"index": "source"})))
    return Section("Points by seat and by bot", text=(
        "Final victory points per seat and per bot with 95% intervals; a win is a sole or shared top "
        "score (DEC-21). Rank points 3/2/1 (DEC-19), capital-fall bonus +1 per fall to every other player."),
        tables=tables)


def king_section(run) -> Section:
    rounds = run.table("rounds", ["game", "round", "king", "king_kept", "capital_falls"])
    r2 = rounds[rounds["king"] >= 0].copy()
    if r2.empty:
        return Section("King retention", text="No round with a reigning king (one-round games).")
    overall = rate_table(r2.assign(all="all rounds >= 2"), "all", "king_kept")
    by_round = rate_table(r2, "round", "king_kept")
    r2["fall"] = r2["capital_falls"] > 0
    falls = rate_table(r2, "round", "fall")
    return Section("King retention", text=(
        "Probability that the reigning king (1st of the previous round) is 1st again, and the rate of "
        "rounds with at least one capital fall, with 95% Wilson intervals."),
        tables=[("King stays king", overall), ("King stays king by round", by_round),
                ("Rounds with a capital fall, by round", falls)],
        figures=[("King retention by round", _bars(by_round, "round", "King stays king (95% Wilson)"))])


def _cards_in_force(rounds: pd.DataFrame) -> pd.DataFrame:
    """Per round: bit c-1 set when card c was revealed as a law in this or an earlier round."""
    rounds = rounds.sort_values(["game", "round"], kind="stable").reset_index(drop=True)
    law = rounds["law"].to_numpy()
    bits = np.where(law > 0, np.left_shift(1, np.maximum(law - 1, 0)), 0).astype(np.int64)
    per_game = int(rounds["round"].max())  # every game plays the same number of rounds
    rounds["in_force"] = np.bitwise_or.accumulate(bits.reshape(-1, per_game), axis=1).reshape(-1)
    return rounds


def cards_section(run) -> Section:
    seats = run.table("seats", ["game", "seat", "win", "precepts_mask"])
    rounds = _cards_in_force(run.table("rounds"))
    rounds["any_revolution"] = rounds["revolutions"] > 0
    rounds["any_forbidden"] = rounds["forbidden"] > 0
    prec_rows, law_rows = [], []
    for c in IMPLEMENTED_CARDS:
        bit = 1 << (c - 1)
        held = (seats["precepts_mask"].to_numpy() & bit) > 0
        games_with = seats.loc[held, "game"].unique()
        if len(games_with):
            sub = seats[seats["game"].isin(games_with)]
            h = (sub["precepts_mask"].to_numpy() & bit) > 0
            s1, n1 = int(sub["win"].to_numpy()[h].sum()), int(h.sum())
            s2, n2 = int(sub["win"].to_numpy()[~h].sum()), int((~h).sum())
            d = compare_rates(s1, n1, s2, n2)
            lo1, hi1 = wilson(s1, n1)
            lo2, hi2 = wilson(s2, n2)
            prec_rows.append({"card": f"{c:02d} {CARD_NAMES[c]}", "holders": n1, "holder_win": s1 / n1,
                              "holder_lo": float(lo1), "holder_hi": float(hi1), "others_win": s2 / n2 if n2 else np.nan,
                              "others_lo": float(lo2), "others_hi": float(hi2), "diff": d["diff"],
                              "diff_lo": d["lo"], "diff_hi": d["hi"], "p": d["p"]})
        force = (rounds["in_force"].to_numpy() & bit) > 0
        for label, part in (("law in force", rounds[force]), ("not a law", rounds[~force])):
            if part.empty:
                continue
            m, lo, hi = mean_ci(part["plays"].to_numpy())
            kings = part[part["king"] >= 0]
            kk, kn = int(kings["king_kept"].sum()), len(kings)
            klo, khi = wilson(kk, kn)
            rv = int(part["any_revolution"].sum())
            rlo, rhi = wilson(rv, len(part))
            law_rows.append({"card": f"{c:02d} {CARD_NAMES[c]}", "rounds": label, "n": len(part),
                             "mean_plays": m, "plays_lo": lo, "plays_hi": hi,
                             "king_kept": kk / kn if kn else np.nan, "kept_lo": float(klo), "kept_hi": float(khi),
                             "revolution_rate": rv / len(part), "rev_lo": float(rlo), "rev_hi": float(rhi),
                             "forbidden_per_round": part["forbidden"].mean()})
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


def frequency_section(run) -> Section:
    rounds = run.table("rounds")
    n = len(rounds)
    rows = []
    for col, label in (("revolutions", "revolution"), ("forbidden", "forbidden finish"), ("jbacks", "J-back"),
                       ("eight_cuts", "eight cut"), ("suit_locks", "suit lock"), ("number_locks", "number lock"),
                       ("geki", "both locks (geki-shibari)"), ("capital_falls", "capital fall"),
                       ("guard_hit", "play-count guard")):
        k = int((rounds[col] > 0).sum())
        lo, hi = wilson(k, n)
        rows.append({"event": label, "rounds_with": k, "rate": k / n, "lo": float(lo), "hi": float(hi),
                     "mean_per_round": rounds[col].astype(float).mean()})
    table = pd.DataFrame(rows)
    seats = run.table("seats", ["bot", "forbidden", "revolutions"])
    per = seats.groupby("bot")[["forbidden", "revolutions"]].mean().reset_index()
    length = rounds[["plays", "passes", "tricks", "trimmed"]].mean().to_frame("mean per round").reset_index()
    return Section("Revolutions, forbidden finishes and card effects", text=(
        "Share of rounds with at least one event (95% Wilson) and mean events per round; per-bot means are per "
        "game. The play-count guard (DEC-18) should stay at zero."),
        tables=[("Events per round", table), ("Forbidden finishes and revolutions per game, by bot", per),
                ("Round length", length.rename(columns={"index": "measure"}))],
        figures=[("Rounds with the event", _bars(table, "event", "Share of rounds with the event (95% Wilson)"))])


def sections(run) -> list[Section]:
    return [points_section(run), king_section(run), cards_section(run), frequency_section(run)]
