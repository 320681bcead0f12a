"""Virus Dogs report sections (Metrics M-4): density curve, eliminations, card usage, HQ, outcomes,
game feel."""

from __future__ import annotations

import numpy as np
import pandas as pd


from analysis import card_power, changes, charts, queries
from analysis.candidate import Candidate, Mark
from analysis.feel import feel_mean, feel_rate, lead_chart, length_tail
from analysis.sections import Section
from sim.run.stats import wilson, with_rates
from sim.games.virus_dogs.rules import CAUSES, CODE_OF, OUTCOMES

CARDS = ("tp", "ctl", "qrn", "doc", "ant", "amb", "msk", "bm", "shf", "cgh", "exc")
# the codes of tables and charts (docs/rules/virus-dogs.md, "Card codes"), for the report's glossary
GLOSSARY = {"V": "virus", "BAT": "bat", "TP": "toilet paper", "CTL": "control", "QRN": "quarantine", "DOC": "doctor",
            "ANT": "antiseptic", "AMB": "ambulance", "MSK": "mask", "BM": "black market", "SHF": "shuffle",
            "CGH": "cough", "EXC": "exchange", "O": "a player's open viruses", "HV": "a player's hidden viruses",
            "T": "a player's treatment progress", "HQ": "hard quarantine (VD-20)"}
# what the length column counts (docs/rules/virus-dogs.md, "Length"): said beside every length figure
LENGTH_NOTE = "turns started; hard-quarantine steps not counted (see Hard quarantine)"
DRAWS = {"normal": "a normal draw", "mask": "a mask draw", "market": "a black-market draw", "cough": "a cough draw"}
# the codes that tables and charts show (outcomes, elimination causes, per-seat counters), in words
CODE_NAMES = {
    "last_standing_normal": "last player standing (normal play)",
    "last_standing_hq": "last player standing (hard quarantine)", "hq_stalemate": "hard-quarantine stalemate",
    "hq_first_elimination": "first elimination in hard quarantine", "no_winner": "no winner",
    **{c.upper(): f"{GLOSSARY[c.upper()]} ({c.upper()})" for c in CARDS},
    "turn_cap": "turn cap", "declare_on_draw": "declared on drawing", "voluntary_declare": "declared later",
    "control": "control card", "quarantine": "quarantine card", "cough": "cough card",
    "hard_quarantine": "hard quarantine",
    **{f"played_{c}": f"{GLOSSARY[c.upper()]} ({c.upper()}) played" for c in CARDS},
    "tp_skip": "toilet paper: draw skipped", "tp_cough": "toilet paper: cough draw refused",
    "tp_exchange": "toilet paper: exchange card refused", "viruses_hidden": "drawn viruses hidden",
    "viruses_declared": "drawn viruses declared", "voluntary_declares": "hidden viruses declared later",
    "viruses_planted": "viruses given in an exchange", "mask_take_none": "masks taking no card",
    "mask_peek_virus": "masks whose peek held a virus", "mask_virus_avoided": "viruses seen in a mask and left",
    "market_viruses_seen": "viruses seen at the black market",
    "market_forced_virus": "black markets of viruses only (one taken)",
    **{f"ant_{k}": f"antiseptics on a virus from {v}" for k, v in DRAWS.items()},
    **{f"bat_{k}": f"bats drawn in {v}" for k, v in DRAWS.items()},
    "doctors_wasted": "treatment lost without a cure", "amb_cured_own": "own viruses cured by ambulance",
    "amb_cured_others": "others' viruses cured by ambulance"}


def sections(run) -> list[Section]:
    per_bot, elims = bot_counts(run), elimination_counts(run)
    return [scorecard_section(run), outcome_section(run), density_section(run), deck_density_section(run),
            elimination_section(run, per_bot, elims), elimination_state_section(elims), card_section(per_bot),
            card_context_section(per_bot), hq_section(run), feel_section(run)]


def _share_table(counts: pd.Series, n: int, label: str) -> pd.DataFrame:
    lo, hi = wilson(counts.to_numpy(), np.full(len(counts), n))
    return pd.DataFrame({label: counts.index, "count": counts.to_numpy(), "share": counts.to_numpy() / max(n, 1),
                         "lo": lo, "hi": hi})


def outcome_section(run) -> Section:
    """Outcome types (M-1), with 95% Wilson intervals; cures and game length facts."""
    f = queries.one(run, """SELECT count(*) AS n, avg(bats::DOUBLE) AS bats, avg(draw_events::DOUBLE) AS draws,
        count(*) FILTER (WHERE first_elim_turn >= 0) AS n_first,
        avg(first_elim_turn::DOUBLE) FILTER (WHERE first_elim_turn >= 0) AS first,
        avg((n_winners > 1)::DOUBLE) AS shared FROM games""")
    n = int(f["n"])
    counts = queries.counts(run, "games", "outcome").reindex(range(len(OUTCOMES)), fill_value=0)
    counts.index = list(OUTCOMES)
    table = _share_table(counts, n, "outcome")
    cures = queries.mean_ci(run, "games", "cures")
    facts = pd.DataFrame({
        "measure": ["cures per game", "bats per game", "draw events per game", "first elimination turn (mean)",
                    "games with an elimination", "shared wins"],
        "value": [f"{cures[0]:.3f} [{cures[1]:.3f}, {cures[2]:.3f}]", f"{f['bats']:.3f}",
                  f"{f['draws']:.2f}", f"{f['first']:.2f}" if f["n_first"] else "none",
                  f"{f['n_first'] / max(n, 1):.3f}", f"{f['shared']:.3f}"],
    })
    return Section(
        "Outcome types",
        "How games end: last player standing in normal play or in hard quarantine, a quarantine "
        "stalemate, the first-elimination end of hard quarantine, no winner (everyone out at once) "
        "or the turn cap. Intervals are 95% Wilson intervals. How each comes about: the last player "
        "standing wins once every other player has been eliminated (VD-21.1), in normal turns or in hard "
        "quarantine, which starts when the deck is empty at the end of a turn with two or more players in "
        "and makes each player pull a random card from the next; a pulled virus is opened (VD-20.6). Hard "
        "quarantine ends in a stalemate when no player still in holds a hidden virus, so nobody can be "
        "eliminated any more: the players with the fewest open viruses win, shared when several have that "
        "many (VD-20.8, VD-20.10). The first-elimination end (hq_end = first_elimination) gives the win to "
        "every player still in after the first elimination in hard quarantine (VD-20.9). No winner: a "
        "quarantine eliminated all the players still in at once (VD-21.3). The turn cap ends a game after "
        "max_turns turns without a winner (VD-24).",
        tables=[("Outcome types", table), ("Game facts (mean, 95% t interval for cures)", facts)],
        figures=[("Outcome types, chart", charts.shares(counts[counts > 0], "Outcome types", "outcome", "share of games"))],
        html_only=("Outcome types, chart",),  # the PDF prints the table
    )


def density_section(run) -> Section:
    """M-2/M-4: mean virus density in the deck by turn, with a +-1 s.d. band; hidden vs open."""
    n_games = int(queries.one(run, "SELECT count(*) AS n FROM games")["n"])
    density = run.sql("SELECT * FROM density ORDER BY turn")
    d = density[density["games"] >= max(20, n_games // 100)].copy()
    if d.empty:
        return Section("Virus density over turns", "Too few games to draw the curve.")
    g = d["density_games"].clip(lower=1)
    mean = d["density_bp"] / g / 1e4
    sd = np.sqrt(np.maximum(d["density_bp_sq"] / g / 1e8 - mean**2, 0))
    fig = charts.band(d["turn"], (mean, (mean - sd).clip(lower=0), (mean + sd).clip(upper=1)),
                      "Virus density in the deck (mean, band = 1 s.d.)", "turn", "viruses in deck / deck size")
    series = []
    for col, label in (("viruses_hidden", "hidden (sum HV)"), ("viruses_open", "open (sum O)"),
                       ("viruses_in_deck", "in deck")):
        m = d[col] / d["games"]
        s = np.sqrt(np.maximum(d[col + "_sq"] / d["games"] - m**2, 0))
        series.append((label, m, s))
    fig2 = None
    for label, m, s in series:
        fig2 = charts.band(d["turn"], (m, (m - s).clip(lower=0), m + s), "Viruses by zone (mean, band = 1 s.d.)",
                           "turn", "viruses", label=label, fig=fig2)
    table = pd.DataFrame({"turn": d["turn"], "games running": d["games"], "mean density": mean.round(4),
                          "sd": sd.round(4), "mean deck size": (d["deck_size"] / d["games"]).round(2),
                          "mean hidden": series[0][1].round(3), "mean open": series[1][1].round(3)})
    peak = int(mean.to_numpy().argmax())
    text = (f"Recorded at every turn end; turns shown while at least 1% of games are still running. "
            f"The mean density peaks at {mean.iloc[peak]:.3f} at turn {int(d['turn'].iloc[peak])}.")
    return Section("Virus density over turns", text, tables=[("Density by turn (every 5th turn)", table.iloc[::5])],
                   figures=[("Virus density", fig), ("Hidden vs open viruses", fig2)],
                   html_only=("Density by turn (every 5th turn)",))  # the PDF: the charts


def deck_density_section(run) -> Section:
    """M-2: virus density after every draw event against the share of the starting deck consumed."""
    d = run.sql("""SELECT deck_used_pct, draws, density_draws, deck_size / draws AS deck,
        density_bp / greatest(density_draws, 1) / 1e4 AS mean,
        sqrt(greatest(density_bp_sq / greatest(density_draws, 1) / 1e8
             - pow(density_bp / greatest(density_draws, 1) / 1e4, 2), 0)) AS sd
        FROM deck_density WHERE density_draws > 0 ORDER BY deck_used_pct""")
    if d.empty:
        return Section("Virus density over the deck", "No draw events recorded.")
    fig = charts.band(d["deck_used_pct"], (d["mean"], (d["mean"] - d["sd"]).clip(lower=0),
                      (d["mean"] + d["sd"]).clip(upper=1)), "Virus density after each draw (mean, band = 1 s.d.)",
                      "starting deck consumed (%, 5% buckets)", "viruses in deck / deck size")
    table = pd.DataFrame({"deck consumed (%)": d["deck_used_pct"], "draw events": d["draws"],
                          "mean density": d["mean"].round(4), "sd": d["sd"].round(4),
                          "mean deck size": d["deck"].round(2)})
    return Section("Virus density over the deck",
                   "Recorded after every draw event (the card has left the deck), by the share of the starting "
                   "deck consumed, so games of different length line up; the deck grows back with bats and cures, "
                   "which count as nothing consumed.",
                   tables=[("Density by deck consumed", table)], figures=[("Density over the deck", fig)],
                   html_only=("Density by deck consumed",))  # the chart carries it in the PDF


def elimination_counts(run) -> pd.DataFrame:
    """Eliminated seats per bot and cause: their number ``n`` and the sums of ``elim_open``,
    ``elim_hidden`` and ``elim_treatment`` (one pass over ``seats``)."""
    return run.sql("SELECT bot, elim_cause, count(*) AS n, sum(elim_open)::BIGINT AS elim_open, "
                   "sum(elim_hidden)::BIGINT AS elim_hidden, sum(elim_treatment)::BIGINT AS elim_treatment "
                   "FROM seats WHERE eliminated GROUP BY ALL ORDER BY bot, elim_cause")


def elimination_section(run, per_bot: pd.DataFrame, elims: pd.DataFrame) -> Section:
    """VD-19.2 causes: share of all eliminations, and rate per seat-game by bot (``per_bot``:
    ``bot_counts``, ``elims``: ``elimination_counts``)."""
    totals = queries.one(run, "SELECT count(*) AS games, "
                         + ", ".join(f"sum(elim_{c})::BIGINT AS {c}" for c in CAUSES) + " FROM games")
    n_games = int(totals.pop("games"))
    counts = pd.Series({c: int(totals[c]) for c in CAUSES})
    total = int(counts.sum())
    table = _share_table(counts, total, "cause")
    seat_games = per_bot["n"]
    by_bot = elims.pivot(index="bot", columns="elim_cause", values="n").reindex(seat_games.index).fillna(0)
    by_bot = (by_bot.rename(columns=dict(enumerate(CAUSES))) / seat_games.to_numpy()[:, None])
    by_bot.index.name = "bot"
    by_bot = by_bot.reset_index()
    figs = [("Elimination causes", charts.shares(counts[counts > 0], "Elimination causes", "cause (VD-19.2)",
                                                             "share of eliminations"))] if total else []
    declared = int(counts.get("declare_on_draw", 0) + counts.get("voluntary_declare", 0))
    why = "" if declared else (
        " No elimination comes from a declaration: declaring a virus at O = threshold - 1 eliminates the "
        "declarer (AD-16), and every bot refuses such a declaration (the random bot too, unless its "
        "allow_suicide parameter is set), so the bots declare only a first virus. The rule acts "
        "(scenarios TS-4 and TS-37); no bot chooses it.")
    return Section("Elimination causes",
                   f"{total:,} eliminations in {n_games:,} games ({total / max(n_games, 1):.2f} per game).{why}",
                   tables=[("Share of eliminations by cause", table),
                           ("Eliminations per seat-game, by bot and cause", by_bot)],
                   figures=figs, html_only=tuple(c for c, _ in figs))  # the PDF: the tables


def elimination_state_section(elims: pd.DataFrame) -> Section:
    """M-1: open and hidden viruses and treatment of each seat at its elimination, by bot
    (``elims``: ``elimination_counts``)."""
    s = elims.groupby("bot", sort=True)[["n", "elim_open", "elim_hidden", "elim_treatment"]].sum()
    t = pd.DataFrame({"bot": s.index, "eliminations": s["n"].to_numpy(), "mean O": s["elim_open"] / s["n"],
                      "mean HV": s["elim_hidden"] / s["n"],
                      "share under treatment (T=1)": s["elim_treatment"] / s["n"]}).reset_index(drop=True)
    return Section("State at elimination",
                   "Open viruses O, hidden viruses HV and treatment T of a seat at the moment it is eliminated, "
                   "before its cards leave (viruses exposed by control, quarantine or a cough are already open).",
                   tables=[("At elimination, by bot (mean over eliminated seats)", t.round(3))])


CONTEXT = ("mask_peek_virus", "mask_virus_avoided", "market_viruses_seen", "market_forced_virus",
           "ant_normal", "ant_mask", "ant_market", "ant_cough", "bat_normal", "bat_mask", "bat_market", "bat_cough",
           "doctors_wasted", "amb_cured_own", "amb_cured_others")


def card_context_section(per_bot: pd.DataFrame) -> Section:
    """M-3: the action cards' context counters per seat-game, by bot (``per_bot``: ``bot_counts``)."""
    means = pd.DataFrame({c: per_bot[f"s_{c}"] / per_bot["n"] for c in CONTEXT})
    table = means.T.round(3).reset_index(names="per seat-game")
    return Section("Card contexts",
                   "Per seat and game: masks whose peek held a virus and viruses seen but not taken; viruses seen "
                   "at the black market and forced virus takes; antiseptics and bats by the draw that met them "
                   "(normal, mask, black market, cough); treatment lost to an ambulance or elimination; viruses "
                   "cured by the seat's ambulance, its own and the others'.",
                   tables=[("Card contexts per seat-game, by bot", table)])


USAGE = tuple(f"played_{c}" for c in CARDS) + (
    "tp_skip", "tp_cough", "tp_exchange", "viruses_hidden", "viruses_declared", "voluntary_declares",
    "viruses_planted", "mask_take_none")


def bot_counts(run) -> pd.DataFrame:
    """Per bot (the index), in one pass over ``seats``: seat-games ``n``, wins, the sum
    ``s_<col>`` of every usage and context column, and per card the seat-games that played it
    (``n_<card>``) and their wins (``w_<card>``). Grouped by bot and win, so that the won
    seat-games give the wins without a second count per card."""
    by_win = run.sql("SELECT bot, win, count(*) AS n, " + ", ".join(
        [f"sum({col})::BIGINT AS s_{col}" for col in USAGE + CONTEXT]
        + [f"sum((played_{c} > 0)::BIGINT) AS n_{c}" for c in CARDS]) + " FROM seats GROUP BY bot, win")
    per_bot = by_win.drop(columns="win").groupby("bot", sort=True).sum()
    won = by_win[by_win["win"]].drop(columns="win").set_index("bot").reindex(per_bot.index, fill_value=0)
    per_bot.insert(1, "wins", won["n"])
    return per_bot.assign(**{f"w_{c}": won[f"n_{c}"] for c in CARDS})


def card_section(per_bot: pd.DataFrame) -> Section:
    """M-3: cards played per seat-game by bot, TP uses by kind, win rate by card use (``per_bot``:
    ``bot_counts``)."""
    usage = pd.DataFrame({col: per_bot[f"s_{col}"] / per_bot["n"] for col in USAGE}).round(3)
    usage = usage.T.reset_index(names="per seat-game")  # one column per bot keeps the table narrow
    use = per_bot.sum()
    rows = []
    for c in CARDS:
        n_used, w_used = int(use[f"n_{c}"]), int(use[f"w_{c}"])
        rows.append((c.upper(), "used", n_used, w_used))
        rows.append((c.upper(), "not used", int(use["n"]) - n_used, int(use["wins"]) - w_used))
    cond = pd.DataFrame(rows, columns=["card", "group", "n", "wins"])
    cond["win rate"] = cond["wins"] / cond["n"].where(cond["n"] > 0)
    cond["lo"], cond["hi"] = wilson(cond["wins"], cond["n"])
    totals = pd.Series([use[f"s_played_{c}"] / use["n"] for c in CARDS], index=[c.upper() for c in CARDS])
    fig = charts.shares(totals, "Cards played per seat-game (share of all plays)", "action card",
                        "share of all plays")
    return Section("Action-card usage",
                   "Mean plays per seat per game, by bot (TP split by use), and the win rate of seats that "
                   "did or did not play each card type (associational, not causal: a seat that lives longer "
                   f"plays more cards; the {SCORECARD_TITLE} gives each card's power). The PDF has the plays; "
                   "the HTML report also has the win rate by card use and a chart of the plays.",
                   tables=[("Plays per seat-game by bot", usage), ("Win rate by card use (95% Wilson)", cond)],
                   figures=[("Card plays", fig)], html_only=("Win rate by card use (95% Wilson)", "Card plays"))


def hq_section(run) -> Section:
    """VD-20: how often hard quarantine is reached and decides the game."""
    means = ("hq_live_start", "hq_hidden_start", "hq_steps", "hq_eliminations")
    f = queries.one(run, """SELECT count(*) AS n, count(*) FILTER (WHERE hq) AS n_hq,
        count(*) FILTER (WHERE hq AND outcome IN (1, 3)) AS decided,
        count(*) FILTER (WHERE hq AND hq_stalemate) AS stale, count(*) FILTER (WHERE turn_cap) AS cap, """
                        + ", ".join(f"avg({c}::DOUBLE) FILTER (WHERE hq) AS {c}" for c in means) + " FROM games")
    n, n_hq = int(f["n"]), int(f["n_hq"])
    rows = [("games reaching hard quarantine", n_hq, n), ("HQ decided by eliminations", int(f["decided"]), n_hq),
            ("HQ ended in stalemate", int(f["stale"]), n_hq), ("games hitting the turn cap", int(f["cap"]), n)]
    table = pd.DataFrame(rows, columns=["measure", "count", "of"])
    table["rate"] = table["count"] / table["of"].where(table["of"] > 0)
    table["lo"], table["hi"] = wilson(table["count"], table["of"])
    facts = pd.DataFrame({"measure": ["live players at HQ start", "hidden viruses at HQ start", "HQ steps",
                                      "HQ eliminations"],
                          "mean": [float(f[c]) if n_hq else np.nan for c in means]}).round(3)
    rate = with_rates(pd.DataFrame({"n": [n], "successes": [n_hq]}))
    steps = queries.counts(run, "games", "hq_steps", "hq")
    figs = [("HQ steps", charts.histogram(steps, "Hard-quarantine steps", "hard-quarantine steps per game (steps)",
                                                 "share of games reaching hard quarantine"))] if n_hq else []
    return Section("Hard quarantine",
                   f"Hard quarantine (ЖОРСТКИЙ КАРАНТИН) is reached in {rate['rate'].iloc[0]:.3f} of games "
                   f"(95% CI {rate['lo'].iloc[0]:.3f}-{rate['hi'].iloc[0]:.3f}).",
                   tables=[("Hard-quarantine frequency (95% Wilson)", table), ("When reached (means)", facts)],
                   figures=figs)


# ---- game feel (docs/rules/virus-dogs.md, "Game feel measures") ---------------------------------
SHARED_WAYS = (
    "A win is shared when hard quarantine ends in a stalemate (no player still in holds a hidden virus, "
    "so nobody can lose any more) and two or more players have the fewest open viruses; with other rule "
    "settings also when every player still in wins a stalemate, when hard quarantine stops at its first "
    "elimination with two or more left, or when a quarantine eliminates the last players together.")


def feel_section(run) -> Section:
    """Game feel: lead changes, comebacks, when the winner is decided, shared wins, the wait of
    eliminated players and the length with its tail (columns: docs/rules/virus-dogs.md)."""
    f = queries.one(run, """SELECT count(*) AS n, count(*) FILTER (WHERE n_winners = 1) AS single,
        count(*) FILTER (WHERE n_winners > 1) AS shared, count(*) FILTER (WHERE n_winners = 0) AS nobody,
        count(*) FILTER (WHERE n_winners = 1 AND winner_max_behind >= 1) AS back1,
        count(*) FILTER (WHERE n_winners = 1 AND winner_max_behind >= 2) AS back2,
        count(*) FILTER (WHERE n_winners = 1 AND leader_from_turn >= turns - 1) AS late FROM games""")
    n, single = int(f["n"]), int(f["single"])
    eliminated = "seats s JOIN games g ON s.game = g.game"
    rows = [feel_mean(run, "lead changes per game", "lead_changes"),
            feel_rate("winner was 1+ virus behind at some point", int(f["back1"]), single),
            feel_rate("winner was 2+ viruses behind at some point", int(f["back2"]), single),
            feel_mean(run, "share of the game played when the winner took the lead for good",
                      "least(leader_from_turn + 1, turns)::DOUBLE / turns", where="n_winners = 1"),
            feel_rate("winner took the lead for good only in the last turn or hard quarantine", int(f["late"]), single),
            feel_rate("shared wins", int(f["shared"]), n), feel_rate("games without a winner", int(f["nobody"]), n),
            feel_mean(run, "turns an eliminated player waits", "greatest(0, g.turns - 1 - s.elim_turn)",
                      eliminated, "s.eliminated"),
            feel_mean(run, "share of the game an eliminated player waits",
                      "greatest(0, g.turns - 1 - s.elim_turn)::DOUBLE / g.turns", eliminated, "s.eliminated")]
    length, length_text = length_tail(run, "turns")
    table = pd.DataFrame(rows + length)
    fig = lead_chart(run, "least(leader_from_turn + 1, turns)", "n_winners = 1")
    r = {row["measure"]: row["value"] for row in rows}
    text = (
        "Who is ahead: the player still in who carries the fewest viruses, hidden ones included; when several "
        "carry the fewest, nobody is. It is looked at after every turn and at the end (docs/rules/virus-dogs.md, "
        "Game feel measures). "
        f"The lead changes hands {r['lead changes per game']:.2f} times in a game on average. In "
        f"{r['winner was 1+ virus behind at some point']:.0%} of the games with one winner the winner carried at "
        f"least one virus more than the safest player at some point, in "
        f"{r['winner was 2+ viruses behind at some point']:.0%} at least two more. The winner takes the lead for "
        f"good after {r['share of the game played when the winner took the lead for good']:.0%} of the game's "
        "turns on average, and in "
        f"{r['winner took the lead for good only in the last turn or hard quarantine']:.0%} of those games only in "
        f"the last turn or in hard quarantine. {r['shared wins']:.2%} of the games end in a shared win and "
        f"{r['games without a winner']:.2%} without a winner. {SHARED_WAYS} A player who is eliminated waits "
        f"{r['turns an eliminated player waits']:.1f} turns on average for the game to end, "
        f"{r['share of the game an eliminated player waits']:.0%} of the game. {length_text} Length in "
        f"turns: {LENGTH_NOTE}. The chart shows in "
        "which tenth of the game the winner took the lead for good. "
        "Each figure in the table comes with the range (95% low to high) that holds its true value with 95% "
        "confidence.")
    return Section("Game feel", text, tables=[("Game feel", table)],
                   figures=[("When the winner takes the lead for good", fig)])


def bot_diagnostics(run, label: str) -> list:
    """Action cards a bot (almost) never plays while another bot's seats that play them win more
    (``analysis.bot_diagnostics.unused_winners``), from the per-bot counts of ``bot_counts``."""
    from analysis.bot_diagnostics import unused_winners

    per_bot = bot_counts(run)
    rows = pd.DataFrame([{"bot": bot, "card": c.upper(), "seats": int(r["n"]), "used": int(r[f"n_{c}"]),
                          "used_wins": int(r[f"w_{c}"]), "unused_wins": int(r["wins"] - r[f"w_{c}"])}
                         for bot, r in per_bot.iterrows() for c in CARDS])
    return unused_winners(rows, label, "plays {}")


def robustness_kinds(run, use_control: bool = False) -> list:
    """For ``analysis.robustness``: per action card, the win rate of seat-games that played it
    minus that of those that did not (associational; Newcombe), as in "Action-card usage"."""
    from analysis.kinds import Kind, frame
    from sim.run.stats import rate_difference

    use = bot_counts(run).sum()
    n, w = int(use["n"]), int(use["wins"])
    rows = []
    for c in CARDS:
        nu, wu = int(use[f"n_{c}"]), int(use[f"w_{c}"])
        d = rate_difference(wu, nu, w - wu, n - nu)
        rows.append({"item": f"card {c.upper()}", "est": d["diff"], "lo": d["lo"], "hi": d["hi"], "p": d["p"]})
    return [Kind("card", "Win rate by card use", "the win rate of seats that played the card minus of those that did not",
                 "share", frame(rows), noun="card", short="win-rate difference")]


HIDDEN_CARDS_TEXT = "the games in which the player's seat played at least one card of the kind"


def hidden_cards(run) -> dict[str, str]:
    """The action cards for ``analysis.hidden_info``: each kind's condition on the seat row ``s``
    (the seat played at least one)."""
    return {GLOSSARY[c.upper()]: f"s.played_{c} > 0" for c in CARDS}


# ---- card power (analysis.card_power): the starting card, dealt by the shuffle --------------------
SCORECARD_TITLE = "Scorecard per action card"
HOLDER = "a seat that draws it first"


def _dealt_sql(run) -> str:
    """One row per seat-game whose first card drawn is an action card: turn order, bot, win and a
    0/1 column per card (``first_card``: no hands are dealt, VD-3.3, so the shuffle deals it)."""
    n = run.config.players
    ks = ", ".join(f"(s.first_card = {CODE_OF[c.upper()]})::INT AS k_{c}" for c in CARDS)
    codes = ", ".join(str(CODE_OF[c.upper()]) for c in CARDS)
    return f"""SELECT s.game, (s.seat - g.first_player + {n}) % {n} AS pos, s.bot, s.win, {ks}
        FROM seats s JOIN games g USING (game) WHERE s.first_card IN ({codes})"""


def power(run) -> pd.DataFrame:
    """Each action card's power as the first card a seat draws (``analysis.card_power``), once per
    run; empty for a run recorded before the ``first_card`` column."""
    if "_card_power" not in run.__dict__:
        kinds = {c: f"{c.upper()} ({GLOSSARY[c.upper()]})" for c in CARDS}
        has = "first_card" in run.columns("seats")
        run.__dict__["_card_power"] = card_power.card_power(run, _dealt_sql(run), kinds) if has else \
            pd.DataFrame(columns=card_power.COLUMNS)
    return run.__dict__["_card_power"]


def scorecard_section(run) -> Section:
    return card_power.section(
        power(run), SCORECARD_TITLE,
        "Power: how much more often a seat wins, in percentage points, when the first card it draws is this card "
        "rather than another action card, in the same seat with the same bot (no hands are dealt, VD-3.3: the first "
        "card drawn is the seat's starting card).",
        "Power of each action card as a seat's first card (percentage points against another action card)")


def candidates(run, run_label: str) -> list[Candidate]:
    """Findings tests: each action card's power as a seat's first card (``analysis.card_power``)."""
    return card_power.candidates(power(run), run_label, SCORECARD_TITLE, "a seat that draws {card} first wins",
                                 "for seats that drew another action card first (same seat and bot)")


def verdict_marks(run, cands: list[Candidate], min_effect: float) -> list[Mark]:
    """The strongest and the weakest action card as a seat's first card."""
    return card_power.verdict_marks(cands, min_effect, "action card")


def what_to_change(run, cands: list[Candidate], min_effect: float) -> str:
    """Seat order and stalls (``analysis.changes``), then the action cards too strong or too weak."""
    return changes.change_sentence(changes.shared_changes(cands, min_effect, run)
                                   + card_power.changes(cands, min_effect, "action card", HOLDER))
