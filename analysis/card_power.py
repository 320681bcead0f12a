"""Card power: what being dealt a card is worth to its holder's chance to win, free of who gets it.

A game names, for every seat of every game, the cards the deal gave it at a fixed early point
(virus-dogs: the first card the seat draws, no hands being dealt; faking-sick: its banned cards at
setup). The deal is a shuffle, so which card a seat gets does not depend on how the seat plays;
what a card a seat *played* is worth does (a seat that lives longer plays more cards), which is
why the win rates by card use elsewhere in the report are associations only.

**Estimator.** A linear model of a seat's win (0 or 1) on the copies of each card kind it was
dealt, with a term per stratum (turn-order position x bot), so that seat order and bot strength do
not leak in; fitted on the seat-games grouped by game block, stratum and dealt cards, with a
cluster-robust covariance over blocks of games (game id modulo ``BLOCKS``: the seats of one game
share its outcome and its deal), ``sim.run.stats.cluster_contrasts``. A card's **power** is its
coefficient less the average coefficient of the dealt cards (weighted by how often each is dealt):
how much more often a seat wins with one copy of it than with an average dealt card instead, in the
same seat with the same bot, in percentage points, with its 95% interval and p;
Benjamini-Hochberg over the kinds gives q. The model rather than a mean per stratum: a faking-sick
seat holds two banned cards drawn from one small pool, so a card's holders hold the other cards
less often, and a mean over its holders would take in part of their power.

**Why not paired play.** Playing the same deals with one copy fewer (``cardlab`` seeds game i from
the run seed and i) changes the whole deck for every seat, so it measures what the card does to
the table (length, stalls, seat order), not what it gives its holder.

**Verdict.** Too strong or too weak: a power of at least ``MIN_EFFECT`` with q < 0.05; else even.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.candidate import Candidate, Mark, level, pp
from analysis.sections import Section
from sim.run.stats import cluster_contrasts, fdr_bh, wilson

BLOCKS = 200  # game blocks: the clusters of the intervals
MIN_EFFECT = 0.01  # a power of at least 1 percentage point, significant after BH, is uneven
KIND = "card"  # the findings' kind of a card's power
MAX_NAMED = 4  # uneven cards named in the sentence of what to change
COLUMNS = ["id", "card", "holders", "win", "win_lo", "win_hi", "power", "lo", "hi", "p", "q", "verdict"]


def card_power(run, dealt_sql: str, kinds: dict[str, str]) -> pd.DataFrame:
    """One row per card kind dealt in the run: ``id``, ``card`` (its name), seat-games dealt it
    (``holders``), their win rate with a 95% Wilson interval (``win``, ``win_lo``, ``win_hi``), the
    power with its 95% interval and p (``power``, ``lo``, ``hi``, ``p``), BH ``q`` over the kinds
    and the ``verdict``. ``dealt_sql``: one row per seat-game with ``game``, ``pos`` (turn order),
    ``bot``, ``win`` and ``k_<id>``, the copies of each kind of ``kinds`` (id -> name) dealt."""
    ks = [f"k_{k}" for k in kinds]
    g = run.sql(f"""SELECT game % {BLOCKS} AS block, pos, bot, {', '.join(ks)}, count(*) AS n,
        avg(win::DOUBLE) AS w FROM ({dealt_sql}) GROUP BY ALL""")
    return power_table(g, kinds)


def power_table(g: pd.DataFrame, kinds: dict[str, str]) -> pd.DataFrame:
    """``card_power`` from the grouped seat-games ``g`` (``block``, ``pos``, ``bot``, the ``k_<id>``
    columns, ``n`` seat-games and their mean win ``w``)."""
    ks = [f"k_{k}" for k in kinds]
    if g.empty:
        return pd.DataFrame(columns=COLUMNS)
    n = g["n"].to_numpy(float)
    copies = (g[ks].to_numpy(float) * n[:, None]).sum(0)
    dealt = [j for j in range(len(ks)) if copies[j] > 0]
    if len(dealt) < 2 or g["block"].nunique() < 2:
        return pd.DataFrame(columns=COLUMNS)
    strata = pd.get_dummies(g["pos"].astype(str) + "|" + g["bot"].astype(str), dtype=float).to_numpy()
    x = np.column_stack([g[[ks[j] for j in dealt]].to_numpy(float), strata])
    share = copies[dealt] / copies[dealt].sum()
    contrasts = np.zeros((len(dealt), x.shape[1]))
    contrasts[:, :len(dealt)] = np.eye(len(dealt)) - share[None, :]
    fit = cluster_contrasts(x, g["w"].to_numpy(float), n, g["block"].to_numpy(), contrasts)
    rows = []
    for i, j in enumerate(dealt):
        held = g[ks[j]].to_numpy() > 0
        holders, wins = n[held].sum(), (n * g["w"].to_numpy(float))[held].sum()
        lo, hi = wilson(round(wins), int(holders))
        kid = list(kinds)[j]
        rows.append({"id": kid, "card": kinds[kid], "holders": int(holders), "win": wins / holders,
                     "win_lo": float(lo), "win_hi": float(hi), "power": fit["est"][i], "lo": fit["lo"][i],
                     "hi": fit["hi"][i], "p": fit["p"][i]})
    out = pd.DataFrame(rows)
    out["q"] = fdr_bh(out["p"].fillna(1.0).to_numpy())
    out["verdict"] = [verdict(r.power, r.q) for r in out.itertuples()]
    return out[COLUMNS]


def verdict(power: float, q: float) -> str:
    """Too strong / too weak: a power of at least ``MIN_EFFECT`` with BH q < 0.05; else even."""
    if q < 0.05 and abs(power) >= MIN_EFFECT:
        return "too strong" if power > 0 else "too weak"
    return "even"


def _pp(v: float, lo: float, hi: float) -> str:
    return f"{100 * v:+.2f} ({100 * lo:+.2f} to {100 * hi:+.2f})" if np.isfinite(v) else ""


def _q(q: float) -> str:
    return "<0.001" if q < 0.001 else f"{q:.3f}"


def section(power: pd.DataFrame, title: str, meaning: str, caption: str) -> Section:
    """The scorecard: one row per card kind with its power, q and verdict (``meaning``: what the
    power is, in a sentence; ``caption``: the table's)."""
    if power.empty:
        return Section(title, "Too few games to measure the cards' power, or a run recorded before the column "
                              "the power is measured on.")
    table = pd.DataFrame({"card": power["card"], "seat-games dealt it": power["holders"],
                          "their win rate (%)": [f"{100 * w:.1f}" for w in power["win"]],
                          "power (pp, 95% CI)": [_pp(r.power, r.lo, r.hi) for r in power.itertuples()],
                          "q": power["q"].map(_q), "verdict": power["verdict"]})
    text = (f"{meaning} What the shuffle deals a seat does not depend on how the seat plays, so the power is "
            "the card's and not its player's (the win rates by card use elsewhere in the report are associations: "
            "a seat that lives longer plays more cards). Measured by a linear model of each seat's win on the "
            "copies of every card it was dealt and on its seat and bot, with 95% intervals clustered over "
            f"{BLOCKS} blocks of games; q: Benjamini-Hochberg over the cards. Too strong or too weak: at least "
            f"{100 * MIN_EFFECT:.0f} percentage point and q < 0.05; else even. Their win rate: the raw win rate of "
            "the seats dealt the card, whatever their seat and bot.")
    return Section(title, text, tables=[(caption, table)])


def candidates(power: pd.DataFrame, run_label: str, title: str, head: str, base: str) -> list[Candidate]:
    """Findings tests of kind ``KIND``, one per card: the holders' win rate against that rate less
    the power (``head``: the sentence up to the rate with ``{card}`` for the card's name;
    ``base``: what the power is measured against)."""
    return [Candidate(run_label, title, f"card {r.card}", KIND, r.win, r.win_lo, r.win_hi, r.win - r.power,
                      r.power, r.p, head=head.format(card=r.card), tail="of games", base=base,
                      diff_lo=r.lo, diff_hi=r.hi) for r in power.itertuples() if np.isfinite(r.p)]


def _short(c: Candidate) -> str:
    """The candidate's sentence head with the card named once already: "a seat that draws it first wins"."""
    return c.head.replace(c.subject.removeprefix("card "), "it")


def verdict_marks(cands: list[Candidate], min_effect: float, noun: str,
                  words: tuple[str, str] = ("strongest", "weakest")) -> list[Mark]:
    """The strongest and the weakest card (``noun``: "action card"; ``words``: the two ends) as
    verdict lines, with no prescription to look for."""
    mine = [c for c in cands if c.kind == KIND and np.isfinite(c.effect)]
    if not mine:
        return []
    out = []
    for c in (max(mine, key=lambda c: c.effect), min(mine, key=lambda c: c.effect)):
        word = words[0] if c.effect > 0 else words[1]
        out.append(Mark(level(c, min_effect), f"The {word} {noun} is {c.subject.removeprefix('card ')}: "
                                              f"{_short(c)} {pp(c.rate)} {c.tail} against {pp(c.baseline)} {c.base}: "
                                              f"{c.difference()}."))
    return out


def changes(cands: list[Candidate], min_effect: float, noun: str, holder: str,
            words: tuple[str, str] = ("weaker", "stronger")) -> list[str]:
    """The clauses of what to change: the cards too strong or too weak, largest first (``holder``:
    who gains the power, "a seat that draws it first"; ``words``: the change for a positive and
    for a negative power)."""
    uneven = sorted((c for c in cands if c.kind == KIND and level(c, min_effect) != "green"),
                    key=lambda c: -abs(c.effect))
    out = [f"make {noun} {c.subject.removeprefix('card ')} {words[0] if c.effect > 0 else words[1]} "
           f"({100 * c.effect:+.1f} pp to {holder})" for c in uneven[:MAX_NAMED]]
    more = len(uneven) - MAX_NAMED
    return out + ([f"{more} more uneven card{'s' if more > 1 else ''} (the scorecard lists every card)"]
                  if more > 0 else [])
