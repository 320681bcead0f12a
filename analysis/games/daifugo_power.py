"""Daifugō precept power free of draft order, and what a VP change would do to it.

From round 2 the last-placed player drafts first (DEC-5), and the bots prefer some cards, so a
card's raw holder edge (the holder against the other players of the same games,
``rule_cards.precept_effects``) mixes the card's power with who tends to draft it: a card taken
first by trailing players looks weak. Here every drafted precept is one *holding* (game, card,
holder) compared only with the holdings of other cards drafted at the same pick of the same
draft round by the same bot (a stratum): the card's **edge** is the mean over its holdings of

    holder's win share - the stratum's mean win share,

the holder's win rate minus that of the players who drafted another card in the same spot
(0: as good as an average precept drafted there). Its worth in points is the same with final
points. Standing at pick time is what sets the pick (last place
picks first), so within a stratum the holders stand alike; adding the standing itself to the
strata changes no edge by more than 0.1 percentage point on the demo run.

**What one VP is worth.** Precept VP are added to the final score (DEC-20), so the run's own
final scores tell what a holder's edge would be with ``d`` more VP on the card, the play
unchanged: ``shift_d`` (the holder's win share recomputed with ``d`` more points, against the
same other scores). A card's worth in VP is the VP change whose shift cancels its edge
(``worth_vp``); bots that weigh VP when they draft may then draft
differently, which only a played check run shows (``cardlab suggest``).

**Set imbalance.** The mean absolute edge over the drafted cards, with a basic bootstrap
interval over blocks of games (``BLOCKS`` blocks, game id modulo ``BLOCKS``); two runs played on
the same seeds are compared block by block (paired), so the difference's interval is narrow.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.games.daifugo.rules import N_RULE_CARDS
from sim.run.stats import basic_interval, fdr_bh, mean_test, rank_correlation

CARDS = tuple(range(1, N_RULE_CARDS + 1))
SHIFTS = (-3, -2, -1, 1, 2, 3)  # VP changes whose effect on the edge is read from the final scores
BLOCKS = 200  # game blocks of the bootstrap
DRAWS = 2000  # bootstrap draws
MIN_EFFECT = 0.01  # an edge of at least 1 percentage point, significant after BH, is uneven
MIN_WORTH_VP = 0.5  # a card worth less than half a VP is not evened by a whole-VP change


def _holdings_sql(run, scale: int = 1) -> str:
    """SQL: one row per drafted precept: game, card, stratum (draft round, pick, bot), the
    holder's win share ``w`` and final points ``p`` (times ``scale``: on a point scale ``scale``
    times finer), its raw edge ``y`` (against the other seats), and the change of its win share
    with ``d`` more VP on that scale for every ``d`` in ``SHIFTS`` (``s_<d>``)."""
    record = {"pick_01", "pick_round_01"} <= run.columns("games").keys()  # without the draft record: a stratum per bot
    picks = " UNION ALL ".join(
        f"SELECT game, {c} AS card, owner_{c:02d} AS seat, "
        + (f"pick_{c:02d} AS pick, pick_round_{c:02d} AS rnd " if record else "0 AS pick, 0 AS rnd ")
        + f"FROM games WHERE owner_{c:02d} >= 0" for c in CARDS)
    shifted = ", ".join(
        f"CASE WHEN p + ({d}) > om THEN 1.0 WHEN p + ({d}) = om THEN 1.0 / (nat + 1) ELSE 0.0 END - w"
        f" AS s_{'m' if d < 0 else 'p'}{abs(d)}" for d in SHIFTS)
    return f"""
        WITH h AS ({picks}),
        g AS (SELECT game, count(*) AS k, sum(win_share) AS tw,
                     list(points * {int(scale)} ORDER BY seat) AS pts FROM seats GROUP BY game HAVING count(*) > 1),
        s AS (SELECT s.game, s.seat, s.bot, s.win_share AS w, s.points * {int(scale)} AS p, g.k, g.tw,
                     list_concat(g.pts[1:s.seat], g.pts[s.seat + 2:]) AS others
              FROM seats s JOIN g USING (game)),
        o AS (SELECT *, list_max(others) AS om FROM s),
        x AS (SELECT *, len(list_filter(others, lambda v: v = om)) AS nat FROM o)
        SELECT h.game, h.card, h.rnd, h.pick, x.bot, x.w, x.p, (x.w - (x.tw - x.w) / (x.k - 1)) AS y, {shifted}
        FROM h JOIN x USING (game, seat)"""


def _adjusted_sql(run, scale: int = 1) -> str:
    """SQL: the holdings with ``ya`` / ``ypa``: the holder's win share and final points less their
    stratum's mean."""
    return f"""WITH hh AS ({_holdings_sql(run, scale)})
        SELECT *, w - avg(w) OVER st AS ya, p - avg(p) OVER st AS ypa FROM hh
        WINDOW st AS (PARTITION BY rnd, pick, bot)"""


def _shift_cols() -> list[str]:
    return [f"s_{'m' if d < 0 else 'p'}{abs(d)}" for d in SHIFTS]


def card_power(run, scale: int = 1) -> pd.DataFrame:
    """One row per drafted card: holdings, the holders' mean win share (95% interval), raw edge (holder against the other seats, win-rate
    points as a fraction) and the draft-order-free edge with its 95% interval and p (BH ``q``
    over the cards), worth in points and in VP (edge over the win value of one VP) with
    intervals (``worth_vp``), first-pick share, the predicted edge for every VP change in ``SHIFTS``
    (``edge_<d>``), and the verdict (too strong, too weak, even). With ``scale`` k, points, worth
    and VP changes are on a point scale k times finer (every point worth k; ``cardlab suggest --scale``)."""
    shifts = ", ".join(f"avg({c}) AS {c}" for c in _shift_cols())
    t = run.sql(f"""WITH a AS ({_adjusted_sql(run, scale)})
        SELECT card, count(*) AS n, avg(w) AS win, stddev_samp(w) AS sd_win, avg(y) AS raw, avg(ya) AS edge, stddev_samp(ya) AS sd,
               avg(ypa) AS points, stddev_samp(ypa) AS sd_points, avg((pick = 1)::DOUBLE) AS first_pick, {shifts}
        FROM a GROUP BY card ORDER BY card""")
    if t.empty:
        return t
    rows = []
    for r in t.itertuples():
        e, pt = mean_test(r.edge, r.sd, int(r.n)), mean_test(r.points, r.sd_points, int(r.n))
        w = mean_test(r.win, r.sd_win, int(r.n))
        shift = [getattr(r, c) for c in _shift_cols()]
        rows.append({"id": int(r.card), "holdings": int(r.n), "win": r.win, "win_lo": w["lo"], "win_hi": w["hi"],
                     "raw_edge": r.raw, "edge": r.edge, "edge_lo": e["lo"],
                     "edge_hi": e["hi"], "p": e["p"], "points": r.points, "points_lo": pt["lo"], "points_hi": pt["hi"],
                     "worth_vp": worth_vp(r.edge, shift), "worth_vp_lo": worth_vp(e["lo"], shift),
                     "worth_vp_hi": worth_vp(e["hi"], shift), "first_pick": r.first_pick,
                     **{f"edge_{d:+d}": r.edge + getattr(r, c) for d, c in zip(SHIFTS, _shift_cols())}})
    out = pd.DataFrame(rows)
    out["q"] = fdr_bh(out["p"].fillna(1.0).to_numpy())
    out["verdict"] = [verdict(r.edge, r.q) for r in out.itertuples()]
    return out


def worth_vp(edge: float, shift: list[float]) -> float:
    """The VP the holder would need to lose for ``edge`` to vanish: where the edge plus the shift
    of a VP change (``shift``, at the changes of ``SHIFTS``) crosses zero, linear between them
    and beyond them at the outermost slope; NaN when a VP changes nothing."""
    d = np.array([min(SHIFTS), *sorted(set(SHIFTS) | {0}), max(SHIFTS)], float)
    sh = dict(zip(SHIFTS, shift))
    s = np.array([sh[min(SHIFTS)], *(sh.get(int(x), 0.0) for x in d[1:-1]), sh[max(SHIFTS)]])
    lo_slope, hi_slope = (s[2] - s[1]) / (d[2] - d[1]), (s[-2] - s[-3]) / (d[-2] - d[-3])
    s[0], s[-1] = s[1] - 10 * lo_slope, s[-2] + 10 * hi_slope  # extended far out at the outer slopes
    d[0], d[-1] = d[1] - 10, d[-2] + 10
    if not np.isfinite(edge) or s[-1] <= s[0]:
        return np.nan
    return float(-np.interp(-edge, s, d))


def verdict(edge: float, q: float) -> str:
    """Too strong / too weak: an edge of at least ``MIN_EFFECT`` with BH q < 0.05; else even."""
    if q < 0.05 and abs(edge) >= MIN_EFFECT:
        return "too strong" if edge > 0 else "too weak"
    return "even"


def vp_changes(power: pd.DataFrame) -> dict[int, int]:
    """Per card id, the whole-VP change that brings its predicted edge nearest to even, for the
    uneven cards worth at least ``MIN_WORTH_VP`` (a smaller worth is overshot by one VP)."""
    out = {}
    for r in power.itertuples():
        if r.verdict == "even" or not abs(r.worth_vp) >= MIN_WORTH_VP:
            continue
        predicted = {0: abs(r.edge), **{d: abs(power.at[r.Index, f"edge_{d:+d}"]) for d in SHIFTS}}
        best = min(predicted, key=lambda d: (predicted[d], abs(d)))
        if best != 0:
            out[int(r.id)] = best
    return out


def first_pick_correlation(power: pd.DataFrame) -> dict[str, dict]:
    """Spearman's correlation of the cards' first-pick share with their raw and with their
    draft-order-free edge (``sim.run.stats.rank_correlation``)."""
    return {k: rank_correlation(power["first_pick"], power[k]) for k in ("raw_edge", "edge")}


# ---- set imbalance ------------------------------------------------------------------------

def block_sums(run) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Per game block (game id modulo ``BLOCKS``) and card: the sum of the draft-order-free edge
    over the block's holdings and their count (arrays BLOCKS x cards), and the card ids."""
    t = run.sql(f"""WITH a AS ({_adjusted_sql(run)})
        SELECT game % {BLOCKS} AS block, card, sum(ya) AS s, count(*) AS n FROM a GROUP BY ALL""")
    cards = sorted(int(c) for c in t["card"].unique())
    col = {c: j for j, c in enumerate(cards)}
    sums, counts = np.zeros((BLOCKS, len(cards))), np.zeros((BLOCKS, len(cards)))
    b, j = t["block"].to_numpy(int), t["card"].map(col).to_numpy(int)
    sums[b, j], counts[b, j] = t["s"].to_numpy(float), t["n"].to_numpy(float)
    return sums, counts, cards


def _imbalance(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Mean absolute edge over the cards, for each row of block weights already applied."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.nanmean(np.abs(sums / counts), axis=-1)


def _weights(seed: int) -> np.ndarray:
    """Bootstrap weights of the blocks: DRAWS x BLOCKS multinomial counts."""
    return np.random.default_rng(seed).multinomial(BLOCKS, np.full(BLOCKS, 1 / BLOCKS), size=DRAWS).astype(float)


def imbalance(run, seed: int = 0) -> dict:
    """The run's set imbalance (mean absolute edge over the drafted cards) with its 95% basic
    bootstrap interval over game blocks."""
    sums, counts, _ = block_sums(run)
    est = float(_imbalance(sums.sum(0), counts.sum(0)))
    w = _weights(seed)
    lo, hi = basic_interval(est, _imbalance(w @ sums, w @ counts))
    return {"value": est, "lo": lo, "hi": hi}


def paired_change(before, after, seed: int = 0) -> dict:
    """Set imbalance of ``before`` and ``after`` (two runs of the same seed, so of the same deals)
    and the change after - before, each with its 95% basic bootstrap interval; the same game
    blocks are drawn for both runs. Cards drafted in only one run are left out."""
    sb, nb, cb = block_sums(before)
    sa, na, ca = block_sums(after)
    common = sorted(set(cb) & set(ca))
    sb, nb = sb[:, [cb.index(c) for c in common]], nb[:, [cb.index(c) for c in common]]
    sa, na = sa[:, [ca.index(c) for c in common]], na[:, [ca.index(c) for c in common]]
    w = _weights(seed)
    ib, ia = _imbalance(w @ sb, w @ nb), _imbalance(w @ sa, w @ na)
    eb, ea = float(_imbalance(sb.sum(0), nb.sum(0))), float(_imbalance(sa.sum(0), na.sum(0)))
    out = {}
    for key, est, draws in (("before", eb, ib), ("after", ea, ia), ("change", ea - eb, ia - ib)):
        lo, hi = basic_interval(est, draws)
        out[key] = {"value": est, "lo": lo, "hi": hi}
    return out


# ---- the answer of ``cardlab suggest`` -----------------------------------------------------

TEXT_WORTH_VP = 0.25  # an uneven card whose worth's interval lies a quarter VP or more from even, and that VP
                      # cannot fix: change its text


def label(card: int) -> str:
    from analysis.games.daifugo_rule_cards import label as card_label

    return card_label(card)


def accepted(rnd: dict) -> bool:
    """A checked round whose VPs may be advised: no changed card ended further from even and the
    set imbalance fell."""
    return bool(rnd["changes"]) and not rnd["worse"] and rnd["imbalance"]["change"]["value"] < 0


def scale_words(scale: int, points: dict, players: int) -> str:
    """The point scale of ``cardlab suggest --scale`` in words (``points``: its point parameters)."""
    ranks = "/".join(str(points[f"rank_points_{i}"]) for i in range(1, players + 1))
    return (f"a point scale {scale} times finer (rank points {ranks}, capital-fall bonus "
            f"{points['capital_fall_bonus']}, every precept VP times {scale})")


def _pp(x: float) -> str:
    return f"{100 * x:+.1f}"


def _pp_ci(row: dict | None) -> str:
    return "" if row is None else f"{_pp(row['edge'])} ({_pp(row['edge_lo'])} to {_pp(row['edge_hi'])})"


def _action(card: int, start: dict, changes: dict, dropped: set, vp_now: int) -> str:
    """What to do with a precept, in words that agree with its worth and interval: a quarter VP is
    the line (``TEXT_WORTH_VP``)."""
    if card in changes:
        return f"print {vp_now + changes[card]} VP"
    if card in dropped:
        return "change the text: a VP change left it further from even when played"
    w, lo, hi = start["worth_vp"], start["worth_vp_lo"], start["worth_vp_hi"]
    if start["verdict"] == "even":
        return "keep"
    if min(abs(lo), abs(hi)) >= TEXT_WORTH_VP and lo * hi > 0:
        return f"change the text: {start['verdict']}, worth {w:+.2f} VP, which no whole-VP change evens out"
    if abs(w) < TEXT_WORTH_VP:
        return f"keep: {start['verdict']} by under a quarter VP"
    return f"keep: {start['verdict']} by {abs(w):.2f} VP, but its interval reaches within a quarter VP of even"


def _names(cards: list[int]) -> str:
    names = [label(c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def answer(start: pd.DataFrame, rounds: list[dict], dropped: set[int], vps: dict[int, int], scale: str = "") -> dict:
    """The advice as one table (per card: VP now and to print, edge now and with the new VPs in
    the check games, worth in VP, what to do), the set imbalance before and after, the cards
    whose text should change, and one sentence that says it (after ``scale``, the point scale
    the VPs are on when it is not the run's own)."""
    chosen = next((r for r in reversed(rounds) if accepted(r)), None)
    changes = {int(c): int(d) for c, d in (chosen["changes"] if chosen else {}).items()}
    before = {int(r["id"]): r for r in (chosen["before"] if chosen else start.to_dict("records"))}
    after = {int(r["id"]): r for r in chosen["after"]} if chosen else {}
    rows = []
    for s in start.to_dict("records"):
        c = int(s["id"])
        rows.append({"card": label(c), "VP now": vps[c], "VP to print": vps[c] + changes.get(c, 0),
                     "worth (VP)": f"{s['worth_vp']:+.2f} ({s['worth_vp_lo']:+.2f} to {s['worth_vp_hi']:+.2f})",
                     "holder's edge now (pp)": _pp_ci(before.get(c)),
                     "with the VPs to print (pp)": _pp_ci(after.get(c)) if chosen else "",
                     "what to do": _action(c, s, changes, dropped, vps[c])})
    text = [int(r["id"]) for r in start.to_dict("records")
            if _action(int(r["id"]), r, changes, dropped, vps[int(r["id"])]).startswith("change")]
    return {"changes": {str(c): vps[c] + d for c, d in changes.items()}, "text_changes": text, "rows": rows,
            "imbalance": chosen["imbalance"] if chosen else None, "games": chosen["games"] if chosen else 0,
            "tried": [{str(c): d for c, d in r["changes"].items()} for r in rounds],
            "sentence": sentence(changes, vps, chosen, rounds, text, scale)}


def _imbalance_text(imb: dict, games: int) -> str:
    b, a, d = imb["before"], imb["after"], imb["change"]
    return (f"played on {games:,} fresh games with and without the change, the precepts' imbalance (mean absolute "
            f"holder's edge) goes from {100 * b['value']:.1f} to {100 * a['value']:.1f} percentage points "
            f"(change {100 * d['value']:+.1f}, 95% CI {100 * d['lo']:+.1f} to {100 * d['hi']:+.1f})")


def sentence(changes: dict[int, int], vps: dict[int, int], chosen: dict | None, rounds: list[dict],
             text: list[int], scale: str = "") -> str:
    """The advice in one sentence (two where text changes follow), after ``scale``."""
    said = _sentence(changes, vps, chosen, rounds, text)
    return scale + said[0].lower() + said[1:] if scale else said


def _sentence(changes: dict[int, int], vps: dict[int, int], chosen: dict | None, rounds: list[dict],
              text: list[int]) -> str:
    if chosen:
        prints = "; ".join(f"{label(c)} at {vps[c] + d} VP (now {vps[c]})" for c, d in sorted(changes.items()))
        head = f"Print {prints}: {_imbalance_text(chosen['imbalance'], chosen['games'])}."
    elif rounds:
        head = ("No VP change is advised: the changes tried left the precepts no more even when played "
                f"({len(rounds)} check round{'s' if len(rounds) > 1 else ''}).")
    else:
        head = "No whole-VP change would even out a precept: no uneven card is worth half a VP or more."
    if text:
        return head + f" VP cannot even out {_names(text)}: change {'its' if len(text) == 1 else 'their'} text."
    return head + (" No other precept is uneven by a quarter VP or more." if chosen else "")
