"""Faking-sick report sections: calls, banned cards per seat and call success by banned type,
bluffs, turn cap, game feel (the shared sections cover win rates by seat and bot and the
game-length distribution)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import card_power, changes, charts, queries
from analysis.candidate import Candidate, Mark
from analysis.feel import feel_mean, feel_rate, lead_chart, length_tail
from analysis.sections import Section
from sim.run.stats import mean_ci_from, rate_table, wilson
from sim.games.faking_sick.rules import LONG, TYPES
from sim.games.faking_sick.tables import BANNABLE

BANNED_TYPES = [TYPES[t] for t in BANNABLE]
WHEN = {"initial": "at setup", "final": "at game end"}
CALL_SUCCESS = "call success (share of judged calls)"

WIN_METHODS = {0: "turn cap (draw)", 1: "play_out", 2: "push_out"}
# the card-type codes of tables and charts, for the report's glossary
GLOSSARY = {code: name.lower() for code, name in zip(TYPES, LONG)}  # the PDF font has no Japanese
# the codes that tables show, in words
CODE_NAMES = {"play_out": "last card played out", "push_out": "last cards pushed out",
              **{code: f"{meaning} ({code})" for code, meaning in GLOSSARY.items()}}


def _cards(df: pd.DataFrame) -> pd.DataFrame:
    return _named(df, "card")


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
        "who has priority, FS-6.3), with 95% Wilson intervals. Calls per caller: each bot's and each seat's share "
        "of its own judged calls made on a type in no banned pool (never right)."
    )
    return Section(
        "Faking-sick call success",
        text=text,
        tables=[("Call success by played card", by_card), ("Call success by caller seat", by_seat),
                ("Call success by caller distance", by_dist)]
        + [(caller_caption(c), calls_by_caller(run, c)) for c in sorted(never_right(run))
           if c in set(by_card["card"])],
        figures=[("Call success by played card, chart", charts.rate_bars(by_card, "card", "Call success by played card (95% Wilson)",
                                                                           ylabel=CALL_SUCCESS, xlabel="played card type")),
                 ("Call success by caller seat", charts.rate_bars(by_seat, "caller_seat", "Call success by caller seat (95% Wilson)",
                                                                           ylabel=CALL_SUCCESS, xlabel="caller seat"))],
        html_only=("Call success by played card, chart",),  # the PDF prints the table
    )


def _banned_means(run, by: str | None) -> pd.DataFrame:
    """Mean banned cards of each type per seat-game at setup and at the end, with their standard
    deviations: one row per ``by`` group (or one row)."""
    cols = [f"{w}_banned_{t.lower()}" for w in WHEN for t in BANNED_TYPES]
    stats = ", ".join(f'avg("{c}"::DOUBLE) AS "m_{c}", stddev_samp("{c}"::DOUBLE) AS "sd_{c}"' for c in cols)
    group = f" GROUP BY {by} ORDER BY {by}" if by else ""
    return run.sql(f"SELECT {by + ', ' if by else ''}count(*) AS n, {stats} FROM seats{group}")


def banned_section(run) -> Section:
    """Banned cards per seat (initial and final, FS-2.1) and call success by banned type."""
    by_seat = _banned_means(run, "seat")
    rows = []
    for r in by_seat.to_dict("records"):
        for w, label in WHEN.items():
            means = [r[f"m_{w}_banned_{t.lower()}"] for t in BANNED_TYPES]
            rows.append({"seat": r["seat"], "when": label, **dict(zip(BANNED_TYPES, means)), "all types": sum(means)})
    per_seat = pd.DataFrame(rows)
    pooled = _banned_means(run, None).iloc[0]
    n = int(pooled["n"])
    series = []
    for w, label in WHEN.items():
        ci = [mean_ci_from(pooled[f"m_{w}_banned_{t.lower()}"], pooled[f"sd_{w}_banned_{t.lower()}"], n) for t in BANNED_TYPES]
        series.append((label, *(np.array([c[i] for c in ci]) for i in range(3))))
    fig = charts.grouped_bars(BANNED_TYPES, series, "Banned cards per seat-game by type (mean, 95% t)",
                              "banned card type", "banned cards per seat-game (cards)")
    calls = run.sql("SELECT banned, card, calls, successes FROM banned_calls")
    by_banned = _named(rate_table(calls, "banned", "successes", weight="calls"), "banned")
    other = _named(rate_table(calls[calls["banned"] != calls["card"]], "banned", "successes", weight="calls"), "banned")
    played = calls.assign(rate=calls["successes"] / calls["calls"].where(calls["calls"] > 0))
    matrix = played.pivot(index="banned", columns="card", values="rate")
    matrix.index, matrix.columns = [TYPES[int(i)] for i in matrix.index], [TYPES[int(c)] for c in matrix.columns]
    heat = charts.value_heatmap(matrix, "Call success by banned type and played card", "played card type",
                          "banned type of the challenged player", CALL_SUCCESS)
    text = (
        "Banned cards (FS-2.1): the mean number of each type among a seat's face-down banned cards after the deal "
        "and at the game's end (a card revealed by the call that ends the game no longer counts), per seat and, "
        "in the chart, over all seats with 95% t intervals. Call success by banned type: every judged call counts "
        "once for each type among the challenged player's face-down banned cards at the call; a call on the "
        "banned type itself is always right, so the second table keeps the calls on another card, right only "
        "because of the player's other banned card. 95% Wilson intervals."
    )
    return Section(
        "Banned cards and call success by banned type",
        text=text,
        tables=[("Banned cards by seat (mean cards per seat-game)", per_seat),
                ("Call success by banned type of the challenged player", by_banned),
                ("Calls on another card than the banned type: share right", other)],
        figures=[("Banned cards per seat-game by type", fig),
                 ("Call success by banned type", charts.rate_bars(by_banned, "banned", "Call success by banned type (95% Wilson)",
                                                                  ylabel=CALL_SUCCESS,
                                                                  xlabel="banned type of the challenged player")),
                 ("Call success by banned type and played card", heat)],
        html_only=("Call success by banned type",),  # the PDF: the table of the banned types
    )


def _named(df: pd.DataFrame, col: str) -> pd.DataFrame:
    df = df.copy()
    df[col] = [TYPES[int(c)] for c in df[col]]
    return df


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
        html_only=("Bluff rate by card (n = plays, successes = bluffs)",
                   "Bluff success by card (n = bluffs, successes = uncaught bluffs)"),  # the PDF: the chart
        figures=[("Bluff success by card", charts.rate_bars(success, "card", "Bluff success by card (95% Wilson)",
                                                                     ylabel="bluff success (share of bluffs uncaught)",
                                                                     xlabel="played card type"))],
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
        "player holding cards of their own banned types can shed them only by bluffing or by pushing. "
        "How a game ends: play_out, a player's last card is played and not caught by a right call (FS-9.1); "
        "push_out, a caller makes a right call and empties its own hand by pushing its last cards to the "
        "player it caught (FS-7.3 step 2); the turn cap, a draw (FS-9.6)."
    )
    return Section("Game end and turn cap", text=text,
                   tables=[("Turn-cap rate (95% Wilson)", facts), ("How games ended", ends)])


def feel_section(run) -> Section:
    """Game feel: lead changes, comebacks, when the winner is decided, draws and the length with
    its tail (columns: docs/rules/faking-sick.md, "Game feel measures")."""
    f = queries.one(run, """SELECT count(*) AS n, count(*) FILTER (WHERE winner >= 0) AS won,
        count(*) FILTER (WHERE turn_cap) AS draws,
        count(*) FILTER (WHERE winner >= 0 AND winner_max_behind >= 3) AS back3,
        count(*) FILTER (WHERE winner >= 0 AND winner_max_behind >= 5) AS back5,
        count(*) FILTER (WHERE winner >= 0 AND leader_from_turn = turns) AS late FROM games""")
    n, won = int(f["n"]), int(f["won"])
    rows = [feel_mean(run, "lead changes per game", "lead_changes"),
            feel_rate("winner once held 3+ cards more than the fewest held", int(f["back3"]), won),
            feel_rate("winner once held 5+ cards more than the fewest held", int(f["back5"]), won),
            feel_mean(run, "share of the game played when the winner took the lead for good",
                      "leader_from_turn::DOUBLE / turns", where="winner >= 0"),
            feel_rate("winner took the lead for good only in the winning turn", int(f["late"]), won),
            feel_rate("draws (turn cap)", int(f["draws"]), n)]
    length, length_text = length_tail(run, "turns")
    r = {row["measure"]: row["value"] for row in rows}
    text = (
        "Who is ahead: the player holding the fewest cards; when several hold the fewest, nobody is. It is looked "
        "at after every turn and at the end (docs/rules/faking-sick.md, Game feel measures). "
        f"The lead changes hands {r['lead changes per game']:.2f} times in a game on average. In "
        f"{r['winner once held 3+ cards more than the fewest held']:.0%} of the games with a winner the winner "
        "held at least 3 cards more than the player with the fewest at some point, in "
        f"{r['winner once held 5+ cards more than the fewest held']:.0%} at least 5 more. The winner takes the "
        f"lead for good after {r['share of the game played when the winner took the lead for good']:.0%} of the "
        f"game's turns on average, and in {r['winner took the lead for good only in the winning turn']:.0%} of those "
        "games only in the turn it goes out. A win is never shared: the game ends when the first hand is empty; "
        f"the only games without a winner are draws at the turn cap ({r['draws (turn cap)']:.2%}). Nobody is "
        f"eliminated, so nobody waits for the end. {length_text} The chart shows in which tenth of the game the "
        "winner took the lead for good. Each figure in the table comes with the range "
        "(95% low to high) that holds its true value with 95% confidence.")
    return Section("Game feel", text, tables=[("Game feel", pd.DataFrame(rows + length))],
                   figures=[("When the winner takes the lead for good", lead_chart(run, "leader_from_turn", "winner >= 0"))])


def sections(run) -> list[Section]:
    return [scorecard_section(run), calls_section(run), banned_section(run), bluff_section(run), ending_section(run), feel_section(run)]


def never_right(run) -> set[str]:
    """The card types in no banned pool (FS-2.1, FS-8.2): a call on one is never right."""
    pool = run.config.params["banned_pool"]
    return {TYPES[t] for t in range(len(TYPES)) if t not in BANNABLE or not pool[t]}


def unmodelled_callers(run) -> list[str]:
    """The run's bots without the ban model (their calls may land on any type; a model caller's
    estimate for a type in no banned pool is 0, so it never calls one: bots.py, "Call model")."""
    from sim.games.faking_sick.reference.bots import BLUFFER, HONEST

    return [b for b in dict.fromkeys(run.config.bots) if run.game.bots[b].policy not in (HONEST, BLUFFER)]


def calls_by_caller(run, card: str) -> pd.DataFrame:
    """Per caller, the share of its judged calls made on ``card`` (95% Wilson): one row per caller
    seat (measured: the calls table counts by caller seat) and one per bot kind, where the seats
    table gives each bot's judged calls. A bot's calls on ``card`` are known when ``card`` is in no
    banned pool and at most one bot of the run lacks the ban model: the model callers make none
    of them, so every such call is that bot's; otherwise its row says "not recorded by bot"."""
    code = TYPES.index(card)
    seats = run.sql(f"SELECT caller_seat, sum(calls)::BIGINT AS calls, coalesce(sum(calls) FILTER (WHERE card = {code}), "
                    "0)::BIGINT AS on_card FROM calls GROUP BY 1 ORDER BY 1")
    rows = [{"caller": f"seat {int(r.caller_seat)}", "judged calls": int(r.calls), "on_card": int(r.on_card),
             "basis": "counted"} for r in seats.itertuples()]
    bots = run.sql("SELECT bot, sum(calls_made)::BIGINT AS calls FROM seats GROUP BY bot ORDER BY bot")
    total_on = sum(r["on_card"] for r in rows)
    free = unmodelled_callers(run)
    known = card in never_right(run) and len(free) <= 1
    for r in bots.itertuples():
        on = (total_on if r.bot in free else 0) if known else None
        basis = ("every call on it (only this bot lacks the ban model)" if r.bot in free else
                 "none: its ban model never calls a type in no banned pool") if known else "not recorded by bot"
        rows.append({"caller": f"bot {r.bot}", "judged calls": int(r.calls), "on_card": on, "basis": basis})
    out = pd.DataFrame(rows)
    known_rows = out["on_card"].notna() & (out["judged calls"] > 0)
    out["share"], out["lo"], out["hi"] = np.nan, np.nan, np.nan
    k, n = out.loc[known_rows, "on_card"].astype(int), out.loc[known_rows, "judged calls"]
    out.loc[known_rows, "share"] = k / n
    lo, hi = wilson(k.to_numpy(), n.to_numpy())
    out.loc[known_rows, "lo"], out.loc[known_rows, "hi"] = lo, hi
    by_model = out["basis"].str.startswith("none")  # none by the call model, not a count: no interval
    out.loc[by_model, ["lo", "hi"]] = np.nan
    return out.rename(columns={"on_card": f"calls on {card}", "share": f"share on {card}"})


def caller_caption(card: str) -> str:
    return f"Judged calls per caller: the share on {card} (in no banned pool, never right), 95% Wilson"


def bot_diagnostics(run, label: str) -> list:
    """Calls on a card type that are (almost) never right (``analysis.bot_diagnostics.futile_choices``),
    stated per caller: each bot's and each seat's share of its own judged calls on it
    (``calls_by_caller``), not a share of every bot's calls together."""
    from analysis.bot_diagnostics import futile_choices
    from analysis.candidate import percent, percents

    calls = run.sql("SELECT card, sum(calls)::BIGINT AS tries, sum(successes)::BIGINT AS successes "
                    "FROM calls GROUP BY card ORDER BY card")
    calls["choice"] = [TYPES[int(c)] for c in calls["card"]]
    never, free = never_right(run), unmodelled_callers(run)
    out = futile_choices(calls, label, {c: "the callers" for c in calls["choice"]}, "call \"faking sick!\" on {}",
                         "right", of="judged calls")
    for d in out:
        card = d.does.rsplit(" ", 1)[-1]
        per = calls_by_caller(run, card)
        def share(r) -> str:
            v, lo, hi = percents(r[f"share on {card}"], r["lo"], r["hi"])
            return f"{r['caller'].split(' ', 1)[1]} {v} ({lo}-{hi}) of its {r['judged calls']:,} judged calls"
        per_bot = per[per["caller"].str.startswith("bot ") & per[f"share on {card}"].notna()]
        bots = per_bot[per_bot["lo"].notna()]
        model = [c[4:] for c in per_bot[per_bot["lo"].isna()]["caller"]]
        seats = per[per["caller"].str.startswith("seat ") & per[f"share on {card}"].notna()]
        callers = per_bot[per_bot[f"calls on {card}"] > 0]
        if len(callers) == 1:  # one bot makes every such call: the diagnostic is that bot's, as a share of its calls
            r = callers.iloc[0]
            d.bot, d.count, d.n = r["caller"][4:], int(r[f"calls on {card}"]), int(r["judged calls"])
            d.rate, d.lo, d.hi = r[f"share on {card}"], r["lo"], r["hi"]
        whose = (f"{d.bot} calls" if len(callers) == 1 else "the callers call")
        by_bot = "; ".join([share(r) for _, r in bots.iterrows()] + (
            [f"{', '.join(model)} none (the ban model never calls it)"] if model else [])) or "not recorded by bot"
        d.sentence = (
            f"{label.rsplit(': ', 1)[-1]}: {whose} \"faking sick!\" on {card} {d.count:,} times and "
            f"{int(round(d.value * d.count)):,} of them are right ({percents(d.value, d.value_lo, d.value_hi)[0]}, "
            f"95% CI {'-'.join(percents(d.value_lo, d.value_hi))}), against {percent(d.ref_value)} for judged calls on the "
            f"other types. Share of each caller's own judged calls made on {card} (95% CI), by bot: {by_bot}; by "
            f"seat: {'; '.join('seat ' + share(r) for _, r in seats.iterrows())}."
            + (f" {card} is in no banned pool (FS-2.1, FS-8.2), so such a call is never right"
               + (f"; the bots with the ban model never make one, so every such call is "
                  f"{free[0]}'s." if len(free) == 1 else ".") if card in never else ""))
    return out


def robustness_kinds(run, use_control: bool = False) -> list:
    """For ``analysis.robustness``: each played card type's call success (share of judged calls
    on it that were right) minus the call success of the calls on the other types (Newcombe)."""
    from analysis.kinds import Kind, frame
    from sim.run.stats import rate_difference

    t = run.sql("SELECT card, sum(calls)::BIGINT AS n, sum(successes)::BIGINT AS s FROM calls GROUP BY card ORDER BY card")
    n_all, s_all = int(t["n"].sum()), int(t["s"].sum())
    rows = []
    for r in t.itertuples():
        d = rate_difference(int(r.s), int(r.n), s_all - int(r.s), n_all - int(r.n))
        rows.append({"item": f"card {TYPES[int(r.card)]}", "est": d["diff"], "lo": d["lo"], "hi": d["hi"], "p": d["p"]})
    return [Kind("card", "Call success by played card", "call success on the card minus on the other cards", "share",
                 frame(rows), noun="card", short="call-success difference")]


# ---- card power (analysis.card_power): the banned cards dealt at setup ---------------------------
SCORECARD_TITLE = "Scorecard per banned card"
HOLDER = "a player dealt it"
ENDS = ("mildest", "harshest")  # the strongest and weakest banned card to hold


def _dealt_sql(run) -> str:
    """One row per seat-game: turn order, bot, win and the copies of each bannable type among the
    seat's banned cards at setup (FS-2.1: dealt from the shuffled banned pool)."""
    n, first = run.config.players, int(run.config.params["first_player"])
    ks = ", ".join(f"initial_banned_{t.lower()} AS k_{t.lower()}" for t in BANNED_TYPES)
    return f"SELECT game, (seat - {first} + {n}) % {n} AS pos, bot, win, {ks} FROM seats"


def power(run) -> pd.DataFrame:
    """Each banned type's power as a banned card dealt at setup (``analysis.card_power``), once per run."""
    if "_card_power" not in run.__dict__:
        kinds = {t.lower(): f"{t} ({GLOSSARY[t]})" for t in BANNED_TYPES}
        run.__dict__["_card_power"] = card_power.card_power(run, _dealt_sql(run), kinds)
    return run.__dict__["_card_power"]


def scorecard_section(run) -> Section:
    return card_power.section(
        power(run), SCORECARD_TITLE,
        "Power: how much more often a player wins, in percentage points, with one banned card of this type at setup "
        "rather than an average banned card in its place, in the same seat with the same bot (FS-2.1: each player is "
        "dealt banned_per_player cards from the shuffled banned pool; two of a type count two). A banned card is a "
        "handicap, its type a bluff for its holder (FS-4.3): too strong means a mild ban, good to be dealt; too weak "
        "a harsh one.",
        "Power of each banned card dealt at setup (percentage points against an average banned card)")


def candidates(run, run_label: str) -> list[Candidate]:
    """Findings tests: each banned type's power as a banned card at setup (``analysis.card_power``)."""
    return card_power.candidates(power(run), run_label, SCORECARD_TITLE, "a player dealt {card} as a banned card wins",
                                 "for a player dealt another banned card in its place (same seat and bot)")


def verdict_marks(run, cands: list[Candidate], min_effect: float) -> list[Mark]:
    """The mildest and the harshest banned card (the strongest and weakest to be dealt)."""
    return card_power.verdict_marks(cands, min_effect, "banned card", ENDS)


def what_to_change(run, cands: list[Candidate], min_effect: float) -> str:
    """Seat order and stalls (``analysis.changes``), then the banned cards too mild or too harsh."""
    return changes.change_sentence(changes.shared_changes(cands, min_effect, run)
                                   + card_power.changes(cands, min_effect, "the ban on", HOLDER,
                                                        ("harsher", "milder")))


HIDDEN_CARDS_TEXT = "the games in which the player's own face-down banned cards at setup include the type (FS-2.1)"


def hidden_cards(run) -> dict[str, str]:
    """The bannable types for ``analysis.hidden_info``: each type's condition on the seat row ``s``
    (the seat was dealt a banned card of that type: fixed by the deal, the same games for both players)."""
    return {GLOSSARY[t]: f"s.initial_banned_{t.lower()} > 0" for t in BANNED_TYPES}
