"""Bot diagnostics: where a scripted bot's habit and the measured power of what it chooses
disagree, so that a designer does not read a bot's habit as a fact about the cards.

They are not findings (``analysis.findings``: the rules' and parameters' effects): each one is a
fixed test on aggregated counts with a stated threshold, made on one run and shown in the
report's "Bot diagnostics" part. The three tests (the games' report modules feed them the counts,
``bot_diagnostics(run, label)`` in ``analysis.games.<game>``):

- ``futile_choices``: a choice made at least ``MIN_TRIES`` times whose success rate has a 95%
  Wilson upper bound below ``MAX_SUCCESS`` (faking-sick: "faking sick!" calls on a card type);
- ``unused_winners``: a card a bot plays in at most ``MAX_USE`` of its seat-games (Wilson upper
  bound), while the seats of another bot that play it win more than that bot's seats that do
  not (Newcombe's interval of the difference excluding 0, Benjamini-Hochberg q < ``ALPHA`` over
  every (bot, card, other bot) tested, the difference at least ``MIN_WIN_GAIN``) (virus-dogs);
- ``order_against_power``: a bot's draft preference (how often it takes a card with the first
  pick when the card is offered) whose rank correlation with the holders' win-rate change per
  card is negative with a 95% interval below 0: it drafts first what wins least (daifugo precepts,
  round 1, whose first picker is random);
- ``fixed_draft``: a bot that drafts by one fixed preference list: one Plackett-Luce order per
  bot fitted to its draft decisions (``choix``), and the share of its decisions with two or more
  cards on offer in which it took the card that order ranks highest has a 95% Wilson lower bound
  of at least ``MIN_FIXED`` over at least ``MIN_DECISIONS`` decisions. Its first cards then go to
  whoever picks first, so a card's measured power mixes in the draft order (daifugo madness).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.candidate import ALPHA, percent, percents, q_text
from analysis.sections import Section
from sim.run.stats import fdr_bh, rank_correlation, rate_difference, wilson

MIN_TRIES = 100  # futile choices: made at least this often
MAX_SUCCESS = 0.01  # ... and their success rate's 95% upper bound below this
MIN_SEATS = 200  # unused winners: seat-games of the bot
MAX_USE = 0.10  # ... it plays the card in at most this share of them (95% upper bound)
MIN_USE = 0.10  # the other bot plays it in at least this share (so both groups are sizeable)
MIN_WIN_GAIN = 0.01  # ... and its seats that play it win at least this much more
MIN_OFFERED = 30  # order against power: a card counts for a bot offered to it at its first pick this often
MIN_CARDS = 6  # ... over at least this many cards
MIN_FIXED = 0.95  # fixed draft: it takes the first card of its fitted order with this share (95% lower bound)
MIN_DECISIONS = 100  # ... over at least this many decisions with two or more cards on offer
FIT_DECISIONS = 5000  # the order is fitted on at most this many of them, evenly spread (choix loops in Python)
FIT_ALPHA = 0.001  # choix's regularization: a card never given up still gets a finite strength
FIRST_CARDS = 3  # the cards of the fitted order named in the diagnostic

PART = "Bot diagnostics"
TEXT = (
    "Every number of this report comes from scripted bots, and a bot can misplay. A diagnostic "
    "says where a bot's habit and the measured worth of what it chooses disagree: it is a fact about "
    "the bot, not about the cards, and none of these is a design finding. Each rests on one test with "
    f"a fixed threshold: a choice made at least {MIN_TRIES} times whose success rate has a 95% Wilson "
    f"upper bound below {percent(MAX_SUCCESS)}, against the same choice on the other options; a card a "
    f"bot plays in at most {percent(MAX_USE)} of its seat-games (95% Wilson upper bound; at least "
    f"{MIN_SEATS} seat-games) while another bot's seats that play it (at least {percent(MIN_USE)} of its "
    "seat-games) win more than that bot's seats that do not, by at least "
    f"{100 * MIN_WIN_GAIN:g} percentage points with Newcombe's 95% interval of the difference above 0 and "
    f"a Benjamini-Hochberg q below {ALPHA} over every (bot, card, other bot) of the run tested; a draft "
    "preference whose Spearman rank correlation between the bot's first-pick rate of a card (how often "
    "it takes the card when it picks first and the card is offered) and the card holders' win-rate "
    "change (holder minus the other players of the same games) is below 0 with its 95% interval "
    "(Fisher z, Bonett-Wright standard error) below 0, over the cards offered to it at least "
    f"{MIN_OFFERED} times (at least {MIN_CARDS} cards). Daifugo's draft is read in round 1 only, whose first "
    "picker is random (DEC-6): from round 2 the last placed picks first, so a pick there would also say "
    "who is behind, and the holders' win-rate change is measured on the same round-1 drafts. A card played by seats that win more is "
    "associated with winning, not proven to cause it (a seat that stays in the game longer plays more "
    "cards); the comparison within one other bot keeps the two bots' styles apart. A bot drafts by a fixed order "
    "when one preference order over the cards, fitted to its draft decisions of every round (a Plackett-Luce "
    f"model, choix's I-LSR, on at most {FIT_DECISIONS:,} of them evenly spread), predicts its pick: in its "
    "decisions with two or more cards on offer it takes the card that order ranks highest with a share whose 95% "
    f"Wilson lower bound is at least {percent(MIN_FIXED)} (at least {MIN_DECISIONS} decisions); a drafter at "
    "random takes it about once in as many cards as are on offer."
)


@dataclass
class Diagnostic:
    """One disagreement between what a bot does and what that choice measurably yields."""

    run: str  # the run's part title
    bot: str
    does: str  # what it does, in words
    count: int  # times it did it
    n: int  # out of (opportunities)
    rate: float  # what it does as a number (a rate, or a rank correlation)
    lo: float
    hi: float
    yields: str  # what that choice yields, in words
    value: float
    value_lo: float
    value_hi: float
    reference: str  # the named reference the yield is compared with
    ref_value: float
    ref_lo: float
    ref_hi: float
    test: str  # the test and its threshold
    sentence: str

    @property
    def run_name(self) -> str:
        return self.run.rsplit(": ", 1)[-1]


def _value_ci(v: float, lo: float, hi: float) -> str:
    v, lo, hi = percents(v, lo, hi)
    return f"{v}, 95% CI {lo}-{hi}"


def _ci(lo: float, hi: float) -> str:
    return f"95% CI {'-'.join(percents(lo, hi))}"


def futile_choices(rows: pd.DataFrame, run: str, bot: str | dict, does: str, succeeds: str, of: str = "such choices",
                   min_tries: int = MIN_TRIES, max_success: float = MAX_SUCCESS) -> list[Diagnostic]:
    """Choices (``choice``, ``tries``, ``successes``; one row each) tried at least ``min_tries``
    times whose success rate's 95% Wilson upper bound is below ``max_success``, against the
    success of the same choice on every other option. ``bot`` names who chooses (or maps each
    choice to it), ``does`` is the choice in words with ``{}`` for the option ("calls on {}"),
    ``succeeds`` what a success is ("right"), ``of`` what the choices are shares of."""
    rows = rows[rows["tries"] > 0]
    total, total_ok = int(rows["tries"].sum()), int(rows["successes"].sum())
    out = []
    for r in rows.itertuples():
        k, s = int(r.tries), int(r.successes)
        lo, hi = (float(v) for v in wilson(s, k))
        if k < min_tries or not hi < max_success:
            continue
        share_lo, share_hi = (float(v) for v in wilson(k, total))
        ref_n, ref_s = total - k, total_ok - s
        ref_lo, ref_hi = (float(v) for v in wilson(ref_s, ref_n)) if ref_n else (np.nan, np.nan)
        ref = ref_s / ref_n if ref_n else np.nan
        what = does.format(r.choice)
        who = bot[r.choice] if isinstance(bot, dict) else bot
        sentence = (f"{run.rsplit(': ', 1)[-1]}: {who} {what} {k:,} times ({percent(k / total)} of all {of}, every "
                    f"bot's together) "
                    f"and {s:,} of them are {succeeds} ({_value_ci(s / k, lo, hi)}), against "
                    f"{percent(ref)} ({_ci(ref_lo, ref_hi)}) for {of} on the other options.")
        out.append(Diagnostic(run, who, what, k, total, k / total, share_lo, share_hi, f"share {succeeds}",
                              s / k, lo, hi, f"{of} on the other options", ref, ref_lo, ref_hi,
                              f">= {min_tries} tries, 95% upper bound of the share {succeeds} < {percent(max_success)}",
                              sentence))
    return out


def unused_winners(rows: pd.DataFrame, run: str, what: str = "plays {}", max_use: float = MAX_USE,
                   min_use: float = MIN_USE, min_seats: int = MIN_SEATS, min_gain: float = MIN_WIN_GAIN) -> list[Diagnostic]:
    """Per (``bot``, ``card``): ``seats`` (the bot's seat-games), ``used`` (those that played the
    card), ``used_wins`` and ``unused_wins``. A bot that plays a card in at most ``max_use`` of its
    seat-games (95% Wilson upper bound, at least ``min_seats`` seat-games), while another bot's
    seats that play it (that bot using it in at least ``min_use``) win more than its seats that do
    not: Newcombe's interval of the difference above 0, a difference of at least ``min_gain`` and
    Benjamini-Hochberg q < ``ALPHA`` over every (bot, card, other bot) tested. One diagnostic per
    (bot, card): the other bot with the largest such difference."""
    rows = rows.copy()
    rows["use"] = rows["used"] / rows["seats"].where(rows["seats"] > 0)
    rare, tests = [], []
    for r in rows.itertuples():
        lo, hi = (float(v) for v in wilson(int(r.used), int(r.seats)))
        if int(r.seats) >= min_seats and hi <= max_use:
            rare.append((r, lo, hi))
    for r, lo, hi in rare:
        for o in rows[(rows["card"] == r.card) & (rows["bot"] != r.bot)].itertuples():
            if not o.use >= min_use or int(o.used) == int(o.seats):
                continue
            d = rate_difference(int(o.used_wins), int(o.used), int(o.unused_wins), int(o.seats - o.used))
            if np.isfinite(d["p"]):
                tests.append((r, lo, hi, o, d))
    q = fdr_bh([t[4]["p"] for t in tests]) if tests else []
    best: dict[tuple[str, str], tuple] = {}
    for (r, lo, hi, o, d), qv in zip(tests, q):
        if qv < ALPHA and d["lo"] > 0 and d["diff"] >= min_gain:
            key = (r.bot, r.card)
            if key not in best or d["diff"] > best[key][4]["diff"]:
                best[key] = (r, lo, hi, o, d, float(qv))
    out = []
    for r, lo, hi, o, d, qv in best.values():
        n_un = int(o.seats - o.used)
        win_lo, win_hi = (float(v) for v in wilson(int(o.used_wins), int(o.used)))
        ref_lo, ref_hi = (float(v) for v in wilson(int(o.unused_wins), n_un))
        does = what.format(r.card)
        sentence = (f"{run.rsplit(': ', 1)[-1]}: {r.bot} {does} in {percent(r.use)} of its seat-games "
                    f"({int(r.used):,} of {int(r.seats):,}, {_ci(lo, hi)}), yet {o.bot}'s seats that play it win "
                    f"{percent(o.used_wins / o.used)} against {percent(o.unused_wins / n_un)} for {o.bot}'s seats "
                    f"that do not: {100 * d['diff']:+.1f} percentage points (95% CI {100 * d['lo']:+.1f} to "
                    f"{100 * d['hi']:+.1f}, BH {q_text(qv)}).")
        out.append(Diagnostic(run, r.bot, does, int(r.used), int(r.seats), float(r.use), lo, hi,
                              f"win rate of {o.bot}'s seats that play it", o.used_wins / o.used, win_lo, win_hi,
                              f"{o.bot}'s seats that do not play it", o.unused_wins / n_un, ref_lo, ref_hi,
                              f"use <= {percent(max_use)} (95% upper bound); other bot's gain >= "
                              f"{100 * min_gain:g} pp, interval above 0, BH q < {ALPHA} over {len(tests)} tests", sentence))
    return sorted(out, key=lambda x: x.rate)


def order_against_power(choices: pd.DataFrame, power: pd.DataFrame, run: str, what: str = "takes",
                        min_offered: int = MIN_OFFERED, min_cards: int = MIN_CARDS) -> list[Diagnostic]:
    """``choices``: per (``bot``, ``card``) how often the bot had the first pick with the card
    offered (``offered``) and took it (``chosen``). ``power``: per ``card`` the holders' win-rate
    change ``win_diff`` with its interval ``win_diff_lo``/``win_diff_hi``. A bot whose first-pick
    rate per card falls as the card's power rises (Spearman rho with its 95% interval below 0,
    over the cards offered to it at least ``min_offered`` times, at least ``min_cards`` cards)
    takes first what wins least."""
    power = power.set_index("card")
    out = []
    for bot, g in choices[choices["offered"] >= min_offered].groupby("bot", sort=True):
        g = g[g["card"].isin(power.index)].copy()
        if len(g) < min_cards:
            continue
        g["rate"] = g["chosen"] / g["offered"]
        g = g.sort_values(["rate", "card"], ascending=[False, True])
        pw = power.loc[g["card"]]
        rc = rank_correlation(g["rate"].to_numpy(), pw["win_diff"].to_numpy())
        if not rc["hi"] < 0:
            continue
        first, last = g.iloc[0], g.iloc[-1]
        pf, pl = power.loc[first["card"]], power.loc[last["card"]]
        flo, fhi = (float(v) for v in wilson(int(first["chosen"]), int(first["offered"])))
        sentence = (f"{run.rsplit(': ', 1)[-1]}: {bot} {what} first the cards whose holders win least: the rank "
                    f"correlation of its first-pick rate of a card with the holders' win-rate change is {rc['rho']:+.2f} "
                    f"(95% CI {rc['lo']:+.2f} to {rc['hi']:+.2f}, {rc['n']} cards). Its favourite, "
                    f"{first['card']} (taken in {percent(first['rate'])} of {int(first['offered']):,} first picks that "
                    f"offered it, {_ci(flo, fhi)}), changes its holder's win rate by {100 * pf['win_diff']:+.1f} "
                    f"percentage points (95% CI {100 * pf['win_diff_lo']:+.1f} to {100 * pf['win_diff_hi']:+.1f}); "
                    f"the card it takes least, {last['card']} ({percent(last['rate'])}), by {100 * pl['win_diff']:+.1f} "
                    f"({100 * pl['win_diff_lo']:+.1f} to {100 * pl['win_diff_hi']:+.1f}).")
        out.append(Diagnostic(run, bot, f"{what} {first['card']} first most often (first-pick rate when offered)",
                              int(first["chosen"]), int(first["offered"]), float(first["rate"]), flo, fhi,
                              f"holders' win-rate change of {first['card']}", float(pf["win_diff"]),
                              float(pf["win_diff_lo"]), float(pf["win_diff_hi"]),
                              f"holders' win-rate change of {last['card']}, the card it takes least",
                              float(pl["win_diff"]), float(pl["win_diff_lo"]), float(pl["win_diff_hi"]),
                              f"Spearman rho of first-pick rate with holder power {rc['rho']:+.2f} "
                              f"(95% CI {rc['lo']:+.2f} to {rc['hi']:+.2f}) < 0 over {rc['n']} cards "
                              f"(>= {min_cards}, each offered >= {min_offered} times)", sentence))
    return out


def _choices(offers: pd.DataFrame) -> pd.DataFrame:
    """The decisions of ``offers`` (one row per card on offer: ``decision``, ``card``, ``chosen``)
    with two or more cards on offer and one of them chosen."""
    size = offers.groupby("decision")["card"].transform("size")
    taken = offers.groupby("decision")["chosen"].transform("sum")
    return offers[(size >= 2) & (taken == 1)]


def preference_order(offers: pd.DataFrame, fit_max: int = FIT_DECISIONS, alpha: float = FIT_ALPHA) -> pd.Series:
    """One chooser's preference order over the cards of ``offers`` (``decision``, ``card``,
    ``chosen``): the log-strengths of a Plackett-Luce model of which card on offer is chosen
    (choix's I-LSR with regularization ``alpha``, fitted on at most ``fit_max`` decisions evenly
    spread over them), strongest first."""
    import choix

    offers = _choices(offers)
    cards = sorted(offers["card"].unique())
    index = {c: i for i, c in enumerate(cards)}
    fit = offers[offers["decision"].isin(_evenly(offers["decision"].unique(), fit_max))]
    card = fit["card"].map(index).set_axis(fit["decision"])
    winner = card[fit["chosen"].to_numpy()]
    losers = card[~fit["chosen"].to_numpy()].groupby(level=0).agg(list)
    data = list(zip(winner.loc[losers.index].tolist(), losers.tolist()))
    strength = choix.ilsr_top1(len(cards), data, alpha=alpha, max_iter=1000) if data else np.zeros(len(cards))
    return pd.Series(strength, index=cards).sort_values(ascending=False, kind="stable")


def _evenly(ids: np.ndarray, most: int) -> np.ndarray:
    """At most ``most`` of ``ids``, evenly spread over them (all of them when they are fewer)."""
    return ids[np.unique(np.linspace(0, len(ids) - 1, min(most, len(ids))).round().astype(int))] if len(ids) else ids


def first_choices(offers: pd.DataFrame, strength: pd.Series) -> pd.DataFrame:
    """Per decision with two or more cards on offer: how many were on offer (``k``), the card
    ``strength`` ranks highest among them (``first``) and whether it was chosen (``took_first``)."""
    offers = _choices(offers).assign(s=lambda f: f["card"].map(strength).fillna(-np.inf))
    best = offers.loc[offers.groupby("decision", sort=False)["s"].idxmax(), ["decision", "card", "chosen"]]
    k = offers.groupby("decision", sort=False).size()
    return pd.DataFrame({"k": k.loc[best["decision"]].to_numpy(), "first": best["card"].to_numpy(),
                         "took_first": best["chosen"].to_numpy(dtype=bool)}, index=best["decision"].to_numpy())


def fixed_draft(offers: pd.DataFrame, run: str, follows: str, what: str = "drafts", min_share: float = MIN_FIXED,
                min_decisions: int = MIN_DECISIONS) -> list[Diagnostic]:
    """Bots that draft by one fixed order, or at least take one card first whenever it is offered.
    ``offers``: one row per (``bot``, ``decision``, ``card`` on offer) with ``chosen`` (bool). Per
    bot a preference order is fitted (``preference_order``); the bot is flagged when the share of
    its decisions with two or more cards on offer in which it took its order's highest card on
    offer, or the share of the decisions offering its order's first card in which it took that
    card, has a 95% Wilson lower bound of at least ``min_share``, over at least ``min_decisions``
    decisions. ``follows`` says what that means for
    the cards' measured power. The yield is how often it takes its first card when offered,
    against a drafter at random on the same decisions (the mean of 1 / cards on offer)."""
    out = []
    for bot, g in offers.groupby("bot", sort=True):
        if _choices(g)["decision"].nunique() < min_decisions:
            continue
        strength = preference_order(g)
        firsts = first_choices(g, strength)
        n, k = len(firsts), int(firsts["took_first"].sum())
        lo, hi = (float(v) for v in wilson(k, n))
        top = firsts[firsts["first"] == strength.index[0]]
        top_lo = float(wilson(int(top["took_first"].sum()), len(top))[0]) if len(top) >= min_decisions else 0.0
        if not (lo >= min_share or top_lo >= min_share):
            continue
        threshold = (f"share taking its fitted order's first card on offer (or its first card whenever offered), 95% "
                     f"lower bound >= {percent(min_share)} over >= {min_decisions} decisions with two or more cards "
                     "on offer")
        out.append(_fixed_draft_diagnostic(run, str(bot), what, follows, strength, firsts, threshold))
    return out


def _fixed_draft_diagnostic(run, bot, what, follows, strength, firsts, threshold):
    """The diagnostic of ``bot``, which drafts by its fitted order ``strength`` (``threshold``: the test)."""
    n, k = len(firsts), int(firsts["took_first"].sum())
    lo, hi = (float(v) for v in wilson(k, n))
    top = list(strength.index[:FIRST_CARDS])
    offered = firsts[firsts["first"] == top[0]]  # its strongest card is the first of every decision offering it
    took = int(offered["took_first"].sum())
    t_lo, t_hi = (float(v) for v in wilson(took, len(offered)))
    chance = float((1.0 / offered["k"]).mean())
    sentence = (f"{run.rsplit(': ', 1)[-1]}: {bot} {what} by one fixed order: in {k:,} of its {n:,} draft decisions "
                f"with two or more cards on offer ({percent(k / n)}, {_ci(lo, hi)}) it takes the card ranked highest "
                f"by one preference order fitted to its picks (Plackett-Luce), first {', then '.join(top)}. "
                f"It takes {top[0]} in {percent(took / len(offered))} of the {len(offered):,} decisions that offer it "
                f"({_ci(t_lo, t_hi)}; a drafter at random {percent(chance)}). {follows}")
    return Diagnostic(run, bot, f"{what} by one fixed order ({', '.join(top)} first)", k, n, k / n, lo, hi,
                      f"takes {top[0]} when offered", took / len(offered), t_lo, t_hi,
                      "a drafter at random on the same decisions", chance, chance, chance, threshold, sentence)


COLUMNS = ("bot", "what it does", "times", "rate (95% CI)", "what it yields", "yield (95% CI)",
           "reference", "reference (95% CI)", "test and threshold")


def _share_ci(v: float, lo: float, hi: float) -> str:
    v, lo, hi = percents(v, lo, hi)
    return f"{v} ({lo} to {hi})"


def table(diags: list[Diagnostic]) -> pd.DataFrame:
    """One row per diagnostic, each figure with its 95% interval in one cell (so that the table
    fits a page)."""
    rows = [(d.bot, d.does, f"{d.count:,} of {d.n:,}", _share_ci(d.rate, d.lo, d.hi), d.yields,
             _share_ci(d.value, d.value_lo, d.value_hi), d.reference, _share_ci(d.ref_value, d.ref_lo, d.ref_hi),
             d.test) for d in diags]
    return pd.DataFrame(rows, columns=list(COLUMNS))


def sections(labelled: list[tuple[str, object]], diags: list[Diagnostic]) -> list[Section]:
    """The "Bot diagnostics" part for the runs given as (part title, ``analysis.load.Run``) and
    their diagnostics (each game's ``bot_diagnostics(run, label)``, ``analysis.games.hook``):
    how they are computed, then one section per run with its diagnostics as sentences (linked to
    the run's part) and as a table."""
    out = [Section("How bot diagnostics are computed", text=TEXT)]
    for label, _ in labelled:
        mine = [d for d in diags if d.run == label]
        text = (f"{len(mine)} diagnostic{'s' if len(mine) != 1 else ''}." if mine else
                "None fires: no bot's habit measurably disagrees with what its choices yield in the tests above.")
        out.append(Section(label, text=text, items=[(d.sentence, (label, "")) for d in mine],
                           tables=[(f"Bot diagnostics of {label}", table(mine))] if mine else []))
    return out
