"""What hidden information is worth: a skill ladder's all-seeing search against its honest search.

The all-seeing search (``seeing@B``, ``sim.kit.search_params.SEEING``) is the search bot dealt the
true hidden cards: its worlds are the game as it is (the opponents' hands, banned cards, hidden
viruses), only the chance still to come drawn again. A ladder (``sim.run.ladder``) that seats it,
the honest search at the same budget and the random bot, each with one seat against seats of the
same reference on the same deals, measures:

- **Gain**: G_u - G_m, the all-seeing seat's win share minus the honest search seat's (Newcombe
  95% interval): what seeing the hidden cards is worth to this player at this budget.
- **Skill ratio** (Dreef et al.): (G_m - G_0) / (G_u - G_0), G_0 the random bot's win share:
  how much of the way from random play to all-seeing play the honest search goes. 1: hidden
  information is worth nothing to it; 0: without seeing the cards it plays no better than
  random. Computed on win shares and on the ladder's ratings; 95% basic bootstrap intervals
  over games (``sim.run.stats.share_draws``, ``ratio_interval``).
- **Per rule card**: the gain in the games where the card figures (the game's report module's
  ``hidden_cards(run)``: a SQL condition per card on the challenger's seat row ``s`` and its
  game's row ``g``), Newcombe intervals, Benjamini-Hochberg over the cards. The condition is
  met in different games by the two players where it depends on their play (a card played), so
  a card's gain describes the games where it figured, not what the card causes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.games import hook
from analysis.sections import Section
from sim.kit.search_params import SEARCH, SEEING
from sim.run.stats import fdr_bh, rate_difference, ratio_interval, share_draws, skill_ratio, wilson

TITLE = "Hidden information"
BOOTSTRAP = 2000
DEFINITIONS = (
    "The all-seeing player is the search bot dealt the true hidden cards: in its look-ahead the "
    "opponents' hands, banned cards and hidden viruses are what they are, and only what nobody knows yet (the "
    "order of the rest of the deck, later shuffles) is drawn again. It is a yardstick, never a player of the game: "
    "its runs are kept out of every design finding. Win share: games won by the one seat of the player against "
    "seats of the reference (a shared win counted as a fraction). Gain: the all-seeing player's win share minus "
    "the honest search's at the same budget (Newcombe 95% interval): what seeing the cards is worth. Skill ratio "
    "(Dreef et al.): (G_m - G_0) / (G_u - G_0) with G_0 the random bot, G_m the honest search and G_u the "
    "all-seeing search: the share of the way from random play to all-seeing play that honest play covers. Near 1 "
    "the hidden cards hardly matter to a good player; near 0 a player who cannot see them plays little better "
    "than chance. Its 95% interval is a basic bootstrap over games. On the ratings (Elo, a log-odds scale) the same "
    "ratio is often larger than on win shares: near the random bot's win share of almost nothing, a small gain in "
    "win share is many rating points. The skill index (section Skill index) asks "
    "another question: how far the best honest player beats a weaker one.")


def has_seeing(ladder) -> bool:
    return any(p.startswith(SEEING + "@") for p in ladder.players)


def _against(ladder) -> dict:
    return {p.challenger: p for p in ladder.pairings if p.opponent == ladder.reference}


def measured_budgets(ladder) -> list[int]:
    """Budgets B at which both search@B and seeing@B play against the reference."""
    against = _against(ladder)
    return sorted(int(name.partition("@")[2]) for name in against
                  if name.startswith(SEEING + "@") and f"{SEARCH}@{name.partition('@')[2]}" in against)


def share(pairing) -> tuple[float, float, float, float, int]:
    """The challenger's win share (a shared win as a fraction), its Wilson interval, wins and games."""
    n = int(pairing.counts["n"].sum())
    wins = float((pairing.counts["n"] * pairing.counts["c"]).sum())
    lo, hi = wilson(wins, n)
    return wins / max(n, 1), float(lo), float(hi), wins, n


def _draws(pairing, seed: int) -> np.ndarray:
    return share_draws(pairing.counts["c"], pairing.counts["n"], BOOTSTRAP, seed)


def random_share(ladder):
    """G_0 and its bootstrap draws: the random rung against the reference, the equal share when
    the reference is the random bot itself, else None."""
    against = _against(ladder)
    if "random" in against:
        return share(against["random"])[0], _draws(against["random"], 0)
    if ladder.reference == "random":
        e = 1 / ladder.seats
        return e, np.full(BOOTSTRAP, e)
    return None


def strongest_honest(ladder):
    """The strongest honest player against the reference: the rung (not all-seeing, not random) with
    the highest win share, or the reference itself (the equal share 1/players against its own
    seats) when none wins more; its name, share and bootstrap draws."""
    e = 1 / ladder.seats
    best = (ladder.reference, e, np.full(BOOTSTRAP, e))
    for k, (name, pairing) in enumerate(_against(ladder).items()):
        if not name.startswith(SEEING + "@") and name != "random" and share(pairing)[0] > best[1]:
            best = (name, share(pairing)[0], _draws(pairing, 30 + k))
    return best


def summary(ladder) -> pd.DataFrame:
    """One row per measured budget: G_0, G_m, G_u, the gain and the skill ratio (win shares and
    ratings), each with its 95% interval."""
    against, rows = _against(ladder), []
    g0 = random_share(ladder)
    r = ladder.summary["ratings"]
    for k, b in enumerate(measured_budgets(ladder)):
        m, u = against[f"{SEARCH}@{b}"], against[f"{SEEING}@{b}"]
        gm, gu = share(m), share(u)
        gain = rate_difference(gu[3], gu[4], gm[3], gm[4])
        row = {"budget": b, "G_m (search)": gm[0], "G_m lo": gm[1], "G_m hi": gm[2],
               "G_u (all-seeing)": gu[0], "G_u lo": gu[1], "G_u hi": gu[2],
               "gain": gain["diff"], "gain lo": gain["lo"], "gain hi": gain["hi"], "p": gain["p"]}
        if g0 is not None:
            est = skill_ratio(g0[0], gm[0], gu[0])
            ratio = ratio_interval(float(est), skill_ratio(g0[1], _draws(m, 10 + k), _draws(u, 20 + k)))
            row.update({"G_0 (random)": g0[0], "skill ratio": ratio["ratio"], "ratio lo": ratio["lo"],
                        "ratio hi": ratio["hi"]})
            name, gb, draws = strongest_honest(ladder)
            if name != m.challenger:
                est = skill_ratio(g0[0], gb, gu[0])
                ratio = ratio_interval(float(est), skill_ratio(g0[1], draws, _draws(u, 20 + k)))
                row.update({"strongest honest": name, "G_m best": gb, "best ratio": ratio["ratio"],
                            "best lo": ratio["lo"], "best hi": ratio["hi"]})
        if "random" in r.players:
            i0, im, iu = (r.players.index(p) for p in ("random", m.challenger, u.challenger))
            est = skill_ratio(r.theta[i0], r.theta[im], r.theta[iu])
            ratio = ratio_interval(float(est), skill_ratio(r.draws[:, i0], r.draws[:, im], r.draws[:, iu]))
            row.update({"skill ratio (ratings)": ratio["ratio"], "ratings lo": ratio["lo"], "ratings hi": ratio["hi"]})
        rows.append(row)
    return pd.DataFrame(rows)


def card_wins(pairing, conditions: dict[str, str]) -> pd.DataFrame:
    """Per card: the challenger's games where the card's condition holds and its wins there."""
    parts = [f"SELECT {i} AS k, count(*) AS n, coalesce(sum(s.win::INT), 0) AS w FROM seats s JOIN games g "
             f"USING (game) WHERE s.bot = $bot AND ({cond})" for i, cond in enumerate(conditions.values())]
    got = pairing.run.sql(" UNION ALL ".join(parts), {"bot": pairing.run.config.bots[0]}).sort_values("k")
    return pd.DataFrame({"card": list(conditions), "n": got["n"].to_numpy(int), "w": got["w"].to_numpy(int)})


def card_gains(ladder, budget: int) -> pd.DataFrame | None:
    """Per rule card: the gain of seeing@budget over search@budget in the games where the card
    figures (``hidden_cards``), Newcombe intervals and Benjamini-Hochberg q over the cards."""
    make = hook(ladder.game, "hidden_cards")
    against = _against(ladder)
    m, u = against[f"{SEARCH}@{budget}"], against[f"{SEEING}@{budget}"]
    conditions = make(m.run) if make else None
    if not conditions:
        return None
    a, b = card_wins(m, conditions), card_wins(u, conditions)
    rows = []
    for card, (nm, wm), (nu, wu) in zip(a["card"], a[["n", "w"]].to_numpy(), b[["n", "w"]].to_numpy()):
        d = rate_difference(int(wu), int(nu), int(wm), int(nm))
        rows.append({"card": card, "search games": nm, "seeing games": nu, "search win rate": wm / nm if nm else np.nan,
                     "seeing win rate": wu / nu if nu else np.nan, "gain": d["diff"], "lo": d["lo"], "hi": d["hi"],
                     "p": d["p"]})
    out = pd.DataFrame(rows)
    out = out[(out["search games"] > 0) | (out["seeing games"] > 0)].reset_index(drop=True)  # cards not in play
    ok = out["p"].notna()
    out["q"] = np.nan
    out.loc[ok, "q"] = fdr_bh(out.loc[ok, "p"].to_numpy())
    return out if len(out) else None


def measures(table: pd.DataFrame) -> pd.DataFrame:
    """``summary`` as one row per budget and measure: value and 95% interval."""
    names = (("random bot's win share (G_0)", "G_0 (random)", None, None),
             ("honest search's win share (G_m)", "G_m (search)", "G_m lo", "G_m hi"),
             ("all-seeing search's win share (G_u)", "G_u (all-seeing)", "G_u lo", "G_u hi"),
             ("gain: all-seeing minus honest search", "gain", "gain lo", "gain hi"),
             ("skill ratio (win shares)", "skill ratio", "ratio lo", "ratio hi"),
             ("skill ratio (ratings)", "skill ratio (ratings)", "ratings lo", "ratings hi"),
             ("skill ratio, strongest honest player ({})", "best ratio", "best lo", "best hi"))
    rows = [{"measure": label.format(row.get("strongest honest")), "budget": row["budget"], "value": row[v],
             "95% low": row[lo] if lo else np.nan, "95% high": row[hi] if hi else np.nan}
            for row in table.to_dict("records") for label, v, lo, hi in names if pd.notna(row.get(v, np.nan))]
    return pd.DataFrame(rows)


def sections(ladder) -> list[Section]:
    """The "Hidden information" section of a ladder part (none when it seats no all-seeing rung
    with an honest search at the same budget)."""
    from analysis.charts import forest

    if not has_seeing(ladder) or not measured_budgets(ladder):
        return []
    table = summary(ladder)
    sentences = [_budget_sentence(ladder, row) for row in table.to_dict("records")]
    tables = [("What seeing the hidden cards is worth (95% intervals)", measures(table))]
    figures = []
    for b in measured_budgets(ladder):
        cards = card_gains(ladder, b)
        if cards is None:
            continue
        tables.append((f"Gain per rule card at budget {b}: the all-seeing (seeing) minus the honest (search) win rate in "
                       "the games where the card figures (Newcombe 95% intervals, Benjamini-Hochberg q over the "
                       "cards)", cards.drop(columns="p")))
        figures.append((f"Gain per rule card at budget {b} (95% intervals)",
                        forest(cards["card"], [(cards["gain"], cards["lo"], cards["hi"], "win-rate gain (all-seeing "
                                                "minus honest search)", 0.0)], "Gain per rule card")))
        sentences.append(_card_sentence(cards, hook(ladder.game, "HIDDEN_CARDS_TEXT") or ""))
    return [Section(TITLE, text=" ".join(sentences), tables=tables, figures=figures),
            Section(f"{TITLE}: definitions", text=DEFINITIONS)]


def _budget_sentence(ladder, row: dict) -> str:
    b = row["budget"]
    out = (f"At budget {b}, against {ladder.seats - 1} seats of {ladder.reference}, the honest search wins "
           f"{row['G_m (search)']:.3f} [{row['G_m lo']:.3f}, {row['G_m hi']:.3f}] and the all-seeing search "
           f"{row['G_u (all-seeing)']:.3f} [{row['G_u lo']:.3f}, {row['G_u hi']:.3f}]: seeing the hidden cards is "
           f"worth {row['gain']:+.3f} [{row['gain lo']:+.3f}, {row['gain hi']:+.3f}] in win share "
           f"(interval width {row['gain hi'] - row['gain lo']:.3f}).")
    best = pd.notna(row.get("best ratio", np.nan))
    if "skill ratio" in row:
        out += (f" With the random bot at {row['G_0 (random)']:.3f}, the search's skill ratio is {row['skill ratio']:.2f} "
                f"[{row['ratio lo']:.2f}, {row['ratio hi']:.2f}]")
        if "skill ratio (ratings)" in row:
            out += (f" ({row['skill ratio (ratings)']:.2f} [{row['ratings lo']:.2f}, {row['ratings hi']:.2f}] on the "
                    "ratings)")
        out += "." if best else ": " + _ratio_words(row["skill ratio"]) + "."
    if best:
        out += (f" The strongest honest player here is {row['strongest honest']} (win share {row['G_m best']:.3f}), not "
                f"the search at this budget; the reading is from it, the best honest play the ladder had: with it in "
                f"the honest search's place the skill ratio is {row['best ratio']:.2f} [{row['best lo']:.2f}, {row['best hi']:.2f}]: "
                + _ratio_words(row["best ratio"]) + (
                    f", at least against the all-seeing search at budget {b}, which is no stronger than it"
                    if row["best ratio"] >= 0.8 else "") + ".")
    return out


def _ratio_words(v: float) -> str:
    if not np.isfinite(v):
        return "not defined (the all-seeing player does no better than random)"
    if v >= 0.8:
        return "honest play gets most of what seeing the cards would give; the hidden cards matter little"
    if v >= 0.4:
        return "honest play gets part of the way; what the opponents hide matters"
    return "honest play gets little of the way; the hidden cards decide much of the game"


def _card_sentence(cards: pd.DataFrame, what: str) -> str:
    found = cards[cards["q"] < 0.05]
    head = f"Per rule card, in {what}: " if what else "Per rule card: "
    widest = float((cards["hi"] - cards["lo"]).max())
    if found.empty:
        return head + f"no card's gain differs from zero after Benjamini-Hochberg (intervals up to {widest:.2f} wide)."
    top, low = cards.loc[cards["gain"].idxmax()], cards.loc[cards["gain"].idxmin()]
    return (head + f"the gain is above zero for {len(found)} of {len(cards)} cards (q < 0.05); it ranges from "
            f"{low['gain']:+.3f} ({low['card']}) to {top['gain']:+.3f} ({top['card']}), with intervals up to "
            f"{widest:.2f} wide, so cards whose intervals overlap are not told apart.")
