"""Faking-sick report sections: calls, bluffs, turn cap (the shared sections cover win rates
by seat and bot and the game-length distribution)."""

from __future__ import annotations

import pandas as pd

from analysis import charts, queries
from analysis.stats import rate_table, wilson
from analysis.sections import Section
from sim.games.faking_sick.rules import TYPES

WIN_METHODS = {0: "turn cap (draw)", 1: "play_out", 2: "push_out"}


def _cards(df: pd.DataFrame) -> pd.DataFrame:
    df = df.copy()
    df["card"] = [TYPES[int(c)] for c in df["card"]]
    return df


def calls_section(run) -> Section:
    calls = run.sql("SELECT * FROM calls")
    by_card = _cards(rate_table(calls, "card", "successes", weight="calls"))
    by_seat = rate_table(calls, "caller_seat", "successes", weight="calls")
    by_dist = rate_table(calls, "distance", "successes", weight="calls")
    total, ok = int(calls["calls"].sum()), int(calls["successes"].sum())
    text = (
        f"{total:,} judged \"faking sick!\" calls, {ok:,} successful ({ok / max(total, 1):.3f}). Success rate "
        "(the played card was one of the player's banned types) by the played card type, by the caller's seat "
        "and by the clockwise distance from the challenged player to the judged caller (1 = the next player, "
        "who has priority, FS-6.3), with 95% Wilson intervals."
    )
    return Section(
        "Faking-sick call success",
        text=text,
        tables=[("Call success by played card", by_card), ("Call success by caller seat", by_seat),
                ("Call success by caller distance", by_dist)],
        figures=[("Call success by played card", charts.rate_bars(by_card, "card", "Call success by played card (95% Wilson)")),
                 ("Call success by caller seat", charts.rate_bars(by_seat, "caller_seat", "Call success by caller seat (95% Wilson)"))],
    )


def bluff_section(run) -> Section:
    by_card = run.sql("SELECT card, sum(plays)::BIGINT AS plays, sum(bluffs)::BIGINT AS bluffs, "
                      "sum(called)::BIGINT AS called, sum(bluffs_caught)::BIGINT AS bluffs_caught "
                      "FROM plays GROUP BY card ORDER BY card")
    by_card["uncaught"] = by_card["bluffs"] - by_card["bluffs_caught"]
    rate = _cards(rate_table(by_card, "card", "bluffs", weight="plays"))  # n = plays, successes = bluffs
    success = _cards(rate_table(by_card, "card", "uncaught", weight="bluffs"))  # n = bluffs, successes = uncaught
    by_bot = run.sql("SELECT bot, " + ", ".join(f"sum({c})::BIGINT AS {c}" for c in (
        "plays", "bluffs", "bluffs_caught", "calls_made", "calls_correct")) + " FROM seats GROUP BY bot ORDER BY bot")
    by_bot["bluff_rate"] = by_bot["bluffs"] / by_bot["plays"].where(by_bot["plays"] > 0)
    by_bot["bluff_success"] = 1 - by_bot["bluffs_caught"] / by_bot["bluffs"].where(by_bot["bluffs"] > 0)
    by_bot["call_precision"] = by_bot["calls_correct"] / by_bot["calls_made"].where(by_bot["calls_made"] > 0)
    lo, hi = wilson(by_bot["calls_correct"], by_bot["calls_made"])
    by_bot["precision_lo"], by_bot["precision_hi"] = lo, hi
    text = (
        "Bluff rate = plays of one's own banned types per play (FS-4.3); bluff success = share of bluffs that "
        "were not caught (no successful call and, with banned_last_card = void, no voided going out). "
        "Per bot: bluffs, bluff success and call precision (successful / judged calls). 95% Wilson intervals."
    )
    return Section(
        "Bluffs",
        text=text,
        tables=[("Bluff rate by card (n = plays, successes = bluffs)", rate),
                ("Bluff success by card (n = bluffs, successes = uncaught bluffs)", success), ("Bluffs and calls by bot", by_bot)],
        figures=[("Bluff success by card", charts.rate_bars(success, "card", "Bluff success by card (95% Wilson)"))],
    )


def ending_section(run) -> Section:
    g = queries.one(run, "SELECT count(*) AS n, count(*) FILTER (WHERE turn_cap) AS cap, "
                         "avg(turns::DOUBLE) AS mean_turns FROM games")
    n, cap = int(g["n"]), int(g["cap"])
    lo, hi = wilson(cap, n)
    table = ", ".join(run.config.bots)
    methods = queries.counts(run, "games", "win_method").rename(WIN_METHODS).sort_values(ascending=False, kind="stable")
    ends = pd.DataFrame({"end": methods.index, "games": methods.to_numpy(), "share": methods.to_numpy() / n})
    facts = pd.DataFrame([{
        "table": table, "games": n, "turn_cap_games": cap, "turn_cap_rate": cap / max(n, 1),
        "lo": float(lo), "hi": float(hi), "max_turns": run.config.params["max_turns"],
        "mean_turns": float(g["mean_turns"]),
    }])
    text = (
        f"Turn-cap rate for the table [{table}]: {cap:,} of {n:,} games hit max_turns = "
        f"{run.config.params['max_turns']} and ended as draws (FS-9.6). Tables where nobody bluffs stall: a "
        "player holding cards of their own banned types can shed them only by bluffing or by pushing."
    )
    return Section("Game end and turn cap", text=text,
                   tables=[("Turn-cap rate (95% Wilson)", facts), ("How games ended", ends)])


def sections(run) -> list[Section]:
    return [calls_section(run), bluff_section(run), ending_section(run)]
