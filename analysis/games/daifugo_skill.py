"""Daifugō: how much each rule card changes the part skill plays (the skill ladder's pairing of
the search player against the strategist, in madness mode).

In a pairing run the challenger (``bots[0]``) sits in one seat, rotated game by game, against
the opponent's other seats. Its skill index is (s - e) / (1 - e), s its share, e = 1/players:

- per law: s is the share of the rounds the challenger wins (places first) among the rounds the
  law is in force, against the rounds it is not;
- per precept: s is the challenger's win share (shared wins as fractions) over the games in
  which some seat holds the precept, against the games in which none does.

The change in the index is the difference of the two shares over (1 - e), with Newcombe's 95%
interval and its p-value; Benjamini-Hochberg over every card and both kinds. Rounds of one game
are counted as independent comparisons (they share the players, not the deal).
"""

from __future__ import annotations

import pandas as pd

from analysis.games.daifugo_rule_cards import CARD_LIST, _bit, _held_cards, _in_force_rounds, label
from analysis.sections import Section
from sim.run.stats import fdr_bh, rate_difference

METHOD = (
    "Skill index of the challenger (s - e) / (1 - e), with s its share and e = 1/players. For a law, s is the "
    "share of rounds it wins among the rounds the law is in force, next to the rounds it is not; for a precept, s "
    "is its game win share in games where a seat holds the precept, next to games where none does. The change is "
    "the difference of the shares over (1 - e), with Newcombe's 95% interval; q-values by Benjamini-Hochberg over "
    "all the tests of this table (every card, laws and precepts). Rounds of one game count as separate comparisons.")


def _challenger_seat(players: int) -> str:
    """SQL: the seat of the challenger (the first bot of the table) in a game (seat_bot's rotation)."""
    return f"(({players} - game % {players}) % {players})"


def law_counts(run) -> pd.DataFrame:
    """Per card and flag ``force``: rounds and rounds the challenger won."""
    p = run.config.players
    pos = f"[{', '.join(f'pos_s{q}' for q in range(p))}][{_challenger_seat(p)} + 1]"
    return run.sql(f"""WITH r AS ({_in_force_rounds(p)}), c AS (SELECT in_force, {pos} = 1 AS won FROM r)
        SELECT card, (in_force & {_bit('card')}) != 0 AS force, count(*) AS n, sum(won::INT)::DOUBLE AS wins
        FROM c CROSS JOIN {CARD_LIST} GROUP BY ALL ORDER BY card, force DESC""")


def precept_counts(run) -> pd.DataFrame:
    """Per card and flag ``held`` (some seat holds it): games and the challenger's win shares."""
    p = run.config.players
    return run.sql(f"""WITH g AS (SELECT game, bit_or(precepts_mask) AS held,
                                  sum(CASE WHEN seat = {_challenger_seat(p)} THEN win_share ELSE 0 END) AS share
                           FROM seats GROUP BY game),
             h AS (SELECT game, unnest({_held_cards('held')}) AS card FROM g)
        SELECT c.card AS card, h.card IS NOT NULL AS held, count(*) AS n, sum(share) AS wins
        FROM g CROSS JOIN {CARD_LIST} c LEFT JOIN h ON h.game = g.game AND h.card = c.card
        GROUP BY ALL ORDER BY 1, 2 DESC""")


def _rows(counts: pd.DataFrame, flag: str, kind: str, e: float) -> list[dict]:
    rows = []
    for card, g in counts.groupby("card"):
        on, off = g[g[flag]], g[~g[flag]]
        if on.empty or off.empty:
            continue
        s1, n1, s0, n0 = float(on["wins"].iloc[0]), int(on["n"].iloc[0]), float(off["wins"].iloc[0]), int(off["n"].iloc[0])
        d = rate_difference(s1, n1, s0, n0)
        rows.append({"card": label(int(card)), "kind": kind, "with": n1, "index with": (s1 / n1 - e) / (1 - e),
                     "without": n0, "index without": (s0 / n0 - e) / (1 - e), "change": d["diff"] / (1 - e),
                     "lo": d["lo"] / (1 - e), "hi": d["hi"] / (1 - e), "p": d["p"]})
    return rows


def skill_by_card(run) -> pd.DataFrame:
    """Per card and kind (law, precept): the challenger's skill index with and without the card,
    the change with its 95% interval, p and BH q over the whole table."""
    e = 1 / run.config.players
    rows = _rows(law_counts(run), "force", "law", e) + _rows(precept_counts(run), "held", "precept", e)
    table = pd.DataFrame(rows)
    if not table.empty:
        table["q (BH)"] = fdr_bh(table["p"].fillna(1.0).to_numpy())
    return table


def skill_sections(run, challenger: str, opponent: str) -> list[Section]:
    """The skill-per-rule section of a ladder's pairing run (daifugo with a rule deck)."""
    if not run.config.params.get("rule_deck"):
        return []
    table = skill_by_card(run)
    if table.empty:
        return []
    marks = []
    significant = table[table["q (BH)"] < 0.05].sort_values("change")
    for _, r in pd.concat([significant.head(3), significant.tail(3)]).drop_duplicates("card").iterrows():
        more = r["change"] > 0
        marks.append(("amber", f"{r['card']} as a {r['kind']}: for {challenger}, the game is {'more' if more else 'less'} "
                      f"a game of skill "
                      f"(index {r['index with']:.2f} with it, {r['index without']:.2f} without; change "
                      f"{r['change']:+.2f} [{r['lo']:+.2f}, {r['hi']:+.2f}])."))
    if not marks:
        marks.append(("green", "No rule card changes the skill index significantly (q < 0.05)."))
    return [Section("Skill per rule card", text=(
        f"{challenger} (the ladder's highest-rated player) against {opponent} ({run.games_done:,} games, "
        f"{run.path.name}): what the card changes in how much this player gains over {opponent}, a lower bound "
        "on what better play could gain. " + METHOD),
        tables=[("Skill index with and without each card (95% intervals; q: BH over the table); reference of a law: "
                 "the other laws' average (the run's rounds it is not in force; a ladder pairing has no control run); "
                 "of a precept: the games where no seat holds it", table)], marks=marks)]
