"""Virus Dogs report sections (Metrics M-4): density curve, eliminations, card usage, HQ, outcomes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import charts
from analysis.stats import mean_ci, rate_table, wilson
from analysis.sections import Section
from sim.games.virus_dogs.rules import CAUSES, OUTCOMES

CARDS = ("tp", "ctl", "qrn", "doc", "ant", "amb", "msk", "bm", "shf", "cgh", "exc")


def sections(run) -> list[Section]:
    games = run.table("games")
    seats = run.table("seats")
    density = run.table("density")
    return [
        outcome_section(games),
        density_section(density, len(games)),
        elimination_section(games, seats),
        card_section(seats),
        hq_section(games),
    ]


def _share_table(counts: pd.Series, n: int, label: str) -> pd.DataFrame:
    lo, hi = wilson(counts.to_numpy(), np.full(len(counts), n))
    return pd.DataFrame({label: counts.index, "count": counts.to_numpy(), "share": counts.to_numpy() / max(n, 1),
                         "lo": lo, "hi": hi})


def outcome_section(games: pd.DataFrame) -> Section:
    """Outcome types (M-1), with 95% Wilson intervals; cures and game length facts."""
    n = len(games)
    counts = games["outcome"].value_counts().reindex(range(len(OUTCOMES)), fill_value=0)
    counts.index = list(OUTCOMES)
    table = _share_table(counts, n, "outcome")
    cures = mean_ci(games["cures"])
    first = games.loc[games["first_elim_turn"] >= 0, "first_elim_turn"]
    facts = pd.DataFrame({
        "measure": ["cures per game", "bats per game", "draw events per game", "first elimination turn (mean)",
                    "games with an elimination", "shared wins"],
        "value": [f"{cures[0]:.3f} [{cures[1]:.3f}, {cures[2]:.3f}]", f"{games['bats'].mean():.3f}",
                  f"{games['draw_events'].mean():.2f}", f"{first.mean():.2f}" if len(first) else "none",
                  f"{len(first) / max(n, 1):.3f}", f"{(games['n_winners'] > 1).mean():.3f}"],
    })
    return Section(
        "Outcome types",
        "How games end: last player standing in normal play or in hard quarantine, a quarantine "
        "stalemate, the first-elimination end of hard quarantine, no winner (everyone out at once) "
        "or the turn cap. Intervals are 95% Wilson intervals.",
        tables=[("Outcome types", table), ("Game facts (mean, 95% t interval for cures)", facts)],
        figures=[("Outcome types", charts.shares(counts[counts > 0], "Outcome types"))],
    )


def density_section(density: pd.DataFrame, n_games: int) -> Section:
    """M-2/M-4: mean virus density in the deck by turn, with a +-1 s.d. band; hidden vs open."""
    d = density[density["games"] >= max(20, n_games // 100)].copy()
    if d.empty:
        return Section("Virus density over turns", "Too few games to draw the curve.")
    g = d["density_games"].clip(lower=1)
    mean = d["density_bp"] / g / 1e4
    sd = np.sqrt(np.maximum(d["density_bp_sq"] / g / 1e8 - mean**2, 0))
    fig = charts.band(d["turn"], mean, (mean - sd).clip(lower=0), (mean + sd).clip(upper=1),
                      "Virus density in the deck (mean, band = 1 s.d.)", "turn", "viruses in deck / deck size")
    series = []
    for col, label in (("viruses_hidden", "hidden (sum HV)"), ("viruses_open", "open (sum O)"),
                       ("viruses_in_deck", "in deck")):
        m = d[col] / d["games"]
        s = np.sqrt(np.maximum(d[col + "_sq"] / d["games"] - m**2, 0))
        series.append((label, m, s))
    fig2 = None
    for label, m, s in series:
        fig2 = charts.band(d["turn"], m, (m - s).clip(lower=0), m + s, "Viruses by zone (mean, band = 1 s.d.)",
                           "turn", "viruses", label=label, fig=fig2)
    table = pd.DataFrame({"turn": d["turn"], "games running": d["games"], "mean density": mean.round(4),
                          "sd": sd.round(4), "mean deck size": (d["deck_size"] / d["games"]).round(2),
                          "mean hidden": series[0][1].round(3), "mean open": series[1][1].round(3)})
    peak = int(mean.to_numpy().argmax())
    text = (f"Recorded at every turn end; turns shown while at least 1% of games are still running. "
            f"The mean density peaks at {mean.iloc[peak]:.3f} at turn {int(d['turn'].iloc[peak])}.")
    return Section("Virus density over turns", text, tables=[("Density by turn (every 5th turn)", table.iloc[::5])],
                   figures=[("Virus density", fig), ("Hidden vs open viruses", fig2)])


def elimination_section(games: pd.DataFrame, seats: pd.DataFrame) -> Section:
    """VD-19.2 causes: share of all eliminations, and rate per seat-game by bot."""
    counts = pd.Series({c: int(games[f"elim_{c}"].sum()) for c in CAUSES})
    total = int(counts.sum())
    table = _share_table(counts, total, "cause")
    out = seats[seats["eliminated"]]
    by_bot = (out.groupby(["bot", "elim_cause"]).size().unstack(fill_value=0)
              .rename(columns=dict(enumerate(CAUSES))) / seats.groupby("bot").size().to_numpy()[:, None])
    by_bot = by_bot.reset_index()
    figs = [("Elimination causes", charts.shares(counts[counts > 0], "Elimination causes"))] if total else []
    return Section("Elimination causes",
                   f"{total:,} eliminations in {len(games):,} games ({total / max(len(games), 1):.2f} per game).",
                   tables=[("Share of eliminations by cause", table),
                           ("Eliminations per seat-game, by bot and cause", by_bot)],
                   figures=figs)


def card_section(seats: pd.DataFrame) -> Section:
    """M-3: cards played per seat-game by bot, TP uses by kind, win rate by card use."""
    cols = [f"played_{c}" for c in CARDS]
    usage = seats.groupby("bot")[cols + ["tp_skip", "tp_cough", "tp_exchange", "viruses_hidden",
                                          "viruses_declared", "voluntary_declares", "viruses_planted",
                                          "mask_take_none"]].mean().round(3)
    usage = usage.T.reset_index(names="per seat-game")  # one column per bot keeps the table narrow
    rows = []
    for c in CARDS:
        used = seats[f"played_{c}"] > 0
        for flag, part in ((True, seats[used]), (False, seats[~used])):
            rows.append((c.upper(), "used" if flag else "not used", len(part), int(part["win"].sum())))
    cond = pd.DataFrame(rows, columns=["card", "group", "n", "wins"])
    cond["win rate"] = cond["wins"] / cond["n"].where(cond["n"] > 0)
    cond["lo"], cond["hi"] = wilson(cond["wins"], cond["n"])
    totals = seats[cols].mean()
    totals.index = [c.upper() for c in CARDS]
    fig = charts.shares(totals, "Cards played per seat-game (share of all plays)")
    return Section("Action-card usage",
                   "Mean plays per seat per game, by bot (TP split by use), and the win rate of seats that "
                   "did or did not play each card type (associational, not causal).",
                   tables=[("Plays per seat-game by bot", usage), ("Win rate by card use (95% Wilson)", cond)],
                   figures=[("Card plays", fig)])


def hq_section(games: pd.DataFrame) -> Section:
    """VD-20: how often hard quarantine is reached and decides the game."""
    n = len(games)
    hq = games[games["hq"]]
    decided = hq["outcome"].isin([1, 3]).sum()
    stale = int(hq["hq_stalemate"].sum())
    rows = [("games reaching hard quarantine", len(hq), n), ("HQ decided by eliminations", int(decided), len(hq)),
            ("HQ ended in stalemate", stale, len(hq)), ("games hitting the turn cap", int(games["turn_cap"].sum()), n)]
    table = pd.DataFrame(rows, columns=["measure", "count", "of"])
    table["rate"] = table["count"] / table["of"].where(table["of"] > 0)
    table["lo"], table["hi"] = wilson(table["count"], table["of"])
    facts = pd.DataFrame({
        "measure": ["live players at HQ start", "hidden viruses at HQ start", "HQ steps", "HQ eliminations"],
        "mean": [hq[c].mean() if len(hq) else np.nan
                 for c in ("hq_live_start", "hq_hidden_start", "hq_steps", "hq_eliminations")],
    }).round(3)
    rate = rate_table(games.assign(one=1), "one", "hq")
    figs = [("HQ steps", charts.histogram(hq["hq_steps"], "Hard-quarantine steps", "steps"))] if len(hq) else []
    return Section("Hard quarantine",
                   f"Hard quarantine (ЖОРСТКИЙ КАРАНТИН) is reached in {rate['rate'].iloc[0]:.3f} of games "
                   f"(95% CI {rate['lo'].iloc[0]:.3f}-{rate['hi'].iloc[0]:.3f}).",
                   tables=[("Hard-quarantine frequency (95% Wilson)", table), ("When reached (means)", facts)],
                   figures=figs)
