"""Daifugō per rule card (spec §7 "Per rule card"), for all 25 cards whatever their effect.

Every figure is a DuckDB aggregate over the run's views returning one small row per card
(or per card pair, or per distinct set of held precepts); intervals and tests then come from
statsmodels/scipy on those counts:

- ``precept_effects``: the precept holder's win rate and mean final points against the other
  players of the games where the card was drafted.
- ``pick_stats``: how often the card is drafted (``owner_NN``), and, when the run stores the
  draft picks (``pick_NN``, 1 = first pick, 0 = not drafted), its first-pick rate and mean
  pick position.
- ``law_effects``: what each card changes as a law (in force: revealed in this or an earlier
  round of the game): seat spread of round wins, king retention, round length, and (per game)
  the spread of final scores across seats, as a variance (VP², ``var_*``, what the tests work
  on) and as a standard deviation in VP (``score_sd_*``, what the report shows). With a control
  run of the base game (the same config with no law in force: ``laws = off`` in madness mode, so
  its precepts are drafted as in the run; an empty rule deck in normal mode;
  ``analysis.games.daifugo_control``), one linear model of all laws at once, with a term per
  round number, measures each law against the base game (``joint_law_effects``); without one,
  rounds with the card are compared with rounds without it at the same round number, that is
  with the other laws' average (``stratified_law_effects``). The ``reference`` column says which.
- ``pair_effects``: seat spread and round length of the rounds where two laws are in force.

The precepts' power free of draft order and the VP advice: ``analysis.games.daifugo_power``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from sim.run.stats import (basic_interval, basic_p, chi_square_p, estimate_test, fdr_bh, grouped_ols, mean_ci_from, mean_difference,
                       mean_test, wilson)
from sim.games.daifugo.rules import CARD_NAMES, N_RULE_CARDS

CARDS = tuple(range(1, N_RULE_CARDS + 1))
CARD_LIST = "(SELECT unnest(range(1, %d)) AS card)" % (N_RULE_CARDS + 1)
BOOTSTRAP_DRAWS = 1000
MIN_PAIR_ROUNDS = 30  # pairs with fewer rounds are drawn but never flagged


def label(card: int) -> str:
    return f"{card:02d} {CARD_NAMES[card]}"


def _bit(card: str) -> str:
    return f"(1::BIGINT << ({card} - 1))"


def _clean(sd: float, mean: float) -> float:
    """A standard deviation that is rounding noise (of a constant) is zero."""
    return 0.0 if np.isfinite(sd) and sd <= 1e-9 * max(1.0, abs(mean)) else sd


def _welch(m1, sd1, n1, m2, sd2, n2) -> dict:
    """Difference of two means with Welch's interval and test (``sim.run.stats.mean_difference``),
    rounding noise of a constant treated as no spread."""
    sd1, sd2 = _clean(sd1, m1), _clean(sd2, m2)
    return mean_difference(m1, sd1 ** 2, n1, m2, sd2 ** 2, n2)


# ---- precepts ---------------------------------------------------------------------------

def _held_cards(mask: str) -> str:
    """SQL: the list of card ids whose bit is set in ``mask``."""
    return f"list_filter(range(1, {N_RULE_CARDS + 1}), lambda x: ({mask} >> (x - 1)) & 1 = 1)"


def precept_counts(run) -> pd.DataFrame:
    """Per card, over the games where a seat holds it (a precept has one holder): games, the
    holder's wins, and the moments of the per-game differences holder minus the mean of the
    other seats, for wins and for final points (each game is one matched comparison)."""
    return run.sql(f"""
        WITH t AS (SELECT game, sum(win::DOUBLE) AS tw, sum(points::DOUBLE) AS tp, count(*) AS k
                   FROM seats GROUP BY game HAVING count(*) > 1),
             h AS (SELECT game, unnest({_held_cards('precepts_mask')}) AS card, win::DOUBLE AS hw,
                          points::DOUBLE AS hp FROM seats WHERE precepts_mask != 0),
             g AS (SELECT card, hw, (tw - hw) / (k - 1) AS ow, hp, (tp - hp) / (k - 1) AS op FROM h JOIN t USING (game))
        SELECT card, count(*) AS n, sum(hw)::BIGINT AS wins, avg(ow) AS others_win, avg(hw - ow) AS win_diff,
               stddev_samp(hw - ow) AS win_sd, avg(hp) AS holder_points, avg(op) AS others_points,
               avg(hp - op) AS points_diff, stddev_samp(hp - op) AS points_sd
        FROM g GROUP BY card ORDER BY card""")


def _paired(mean: float, sd: float, n: int) -> dict:
    """Mean of matched differences with its 95% t interval and the one-sample t test."""
    return mean_test(mean, _clean(sd, mean), n)


def precept_effects(run) -> pd.DataFrame:
    """One row per drafted card: the holder against the other players of the same games, as
    win rate (holder's with a Wilson interval) and mean final points; the differences are means
    of per-game matched differences with 95% t intervals and paired t-test p-values."""
    rows = []
    for r in precept_counts(run).itertuples():
        n, s1 = int(r.n), int(r.wins)
        win, pts = _paired(r.win_diff, r.win_sd, n), _paired(r.points_diff, r.points_sd, n)
        lo1, hi1 = wilson(s1, n)
        rows.append({"card": label(r.card), "id": r.card, "holders": n, "holder_win": s1 / n,
                     "holder_lo": float(lo1), "holder_hi": float(hi1), "others_win": r.others_win,
                     "win_diff": win["diff"], "win_diff_lo": win["lo"], "win_diff_hi": win["hi"], "win_p": win["p"],
                     "holder_points": r.holder_points, "others_points": r.others_points,
                     "points_diff": pts["diff"], "points_diff_lo": pts["lo"], "points_diff_hi": pts["hi"],
                     "points_p": pts["p"]})
    return pd.DataFrame(rows)


def pick_stats(run) -> pd.DataFrame:
    """Per card: games in which it was drafted (``owner_NN >= 0``) and their share; with
    ``pick_NN`` columns also the first-pick rate among those drafts and the mean pick position
    with its 95% t interval."""
    cols = run.columns("games")
    picks = all(f"pick_{c:02d}" in cols for c in CARDS)
    parts = []
    for c in CARDS:
        sel = f"count(*) FILTER (WHERE owner_{c:02d} >= 0) AS d_{c}"
        if picks:
            p = f"pick_{c:02d}"
            sel += (f", count(*) FILTER (WHERE {p} = 1) AS f_{c}, avg({p}::DOUBLE) FILTER (WHERE {p} > 0) AS m_{c}"
                    f", stddev_samp({p}::DOUBLE) FILTER (WHERE {p} > 0) AS s_{c}, count(*) FILTER (WHERE {p} > 0) AS k_{c}")
        parts.append(sel)
    r = run.sql("SELECT count(*) AS games, " + ", ".join(parts) + " FROM games").iloc[0]
    n, rows = int(r["games"]), []
    for c in CARDS:
        d = int(r[f"d_{c}"])
        lo, hi = wilson(d, n)
        row = {"card": label(c), "id": c, "games": n, "drafted": d, "draft_rate": d / n if n else np.nan,
               "draft_lo": float(lo), "draft_hi": float(hi)}
        if picks:
            k, f = int(r[f"k_{c}"]), int(r[f"f_{c}"])
            flo, fhi = wilson(f, k)
            m, mlo, mhi = mean_ci_from(r[f"m_{c}"], r[f"s_{c}"], k) if k else (np.nan,) * 3
            row.update({"first_pick_rate": f / k if k else np.nan, "first_lo": float(flo), "first_hi": float(fhi),
                        "mean_pick": m, "pick_lo": mlo, "pick_hi": mhi})
        rows.append(row)
    return pd.DataFrame(rows)


# ---- laws -------------------------------------------------------------------------------

def _in_force_rounds(players: int) -> str:
    firsts = ", ".join(f"pos_s{q}" for q in range(players))
    return f"""SELECT game, round, plays, king, king_kept, {firsts},
                      bit_or(CASE WHEN law > 0 THEN {_bit('law')} ELSE 0 END) OVER (
                          PARTITION BY game ORDER BY round ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
                      ) AS in_force FROM rounds"""


def _round_aggregates(players: int) -> str:
    firsts = ", ".join(f"count(*) FILTER (WHERE pos_s{q} = 1) AS first_{q}" for q in range(players))
    return (f"count(*) AS n, avg(plays::DOUBLE) AS mean_plays, stddev_samp(plays::DOUBLE) AS sd_plays, "
            f"count(*) FILTER (WHERE king >= 0) AS kn, count(*) FILTER (WHERE king >= 0 AND king_kept) AS kk, {firsts}")


def law_rounds(run) -> pd.DataFrame:
    """Per card, flag ``force`` (in force as a law in the round, or not) and round number:
    rounds, round length moments, king retention counts and each seat's round wins."""
    p = run.config.players
    return run.sql(f"""WITH r AS ({_in_force_rounds(p)})
        SELECT card, (in_force & {_bit('card')}) != 0 AS force, round, {_round_aggregates(p)}
        FROM r CROSS JOIN {CARD_LIST} GROUP BY ALL ORDER BY card, force DESC, round""")


def law_games(run) -> pd.DataFrame:
    """Per card and flag ``law`` (revealed as a law in the game or not): games and the mean and
    standard deviation of the per-game sample variance of final points across seats."""
    pts = ", ".join(f"points_s{q}" for q in range(run.config.players))
    return run.sql(f"""WITH g AS (SELECT laws_mask, list_aggregate([{pts}]::DOUBLE[], 'var_samp') AS var FROM games)
        SELECT card, (laws_mask & {_bit('card')}) != 0 AS law, count(*) AS n, avg(var) AS mean_var,
               stddev_samp(var) AS sd_var FROM g CROSS JOIN {CARD_LIST} GROUP BY ALL ORDER BY card, law DESC""")


def _firsts(row, players: int) -> np.ndarray:
    return np.array([int(row[f"first_{q}"]) for q in range(players)])


def _spread_draws(firsts: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """Parametric bootstrap of the seat spread from the counts (binomial per seat)."""
    rates = rng.binomial(n, firsts / n, size=(BOOTSTRAP_DRAWS, len(firsts))) / n
    return rates.max(axis=1) - rates.min(axis=1)


@lru_cache(maxsize=4096)
def null_spread(n: int, k: int) -> float:
    """Expected seat spread of ``n`` rounds among ``k`` equal seats (chance alone)."""
    rng = np.random.default_rng(n * 64 + k)
    return float(_spread_draws(np.full(k, n / k), n, rng).mean()) if n else np.nan


class Strata:
    """Rounds with a card in force (``w``) and without (``o``), matched by round number: each
    round number weighs as much as it has rounds with the card, so the baseline is what rounds
    without the card give at the same stage of the game (later rounds differ: kings, exchanges,
    more laws)."""

    def __init__(self, rows: pd.DataFrame, players: int):
        both = set(rows.loc[rows["force"], "round"]) & set(rows.loc[~rows["force"], "round"])
        rows = rows[rows["round"].isin(both)]
        self.w = rows[rows["force"]].set_index("round").sort_index()
        self.o = rows[~rows["force"]].set_index("round").sort_index()
        self.k = players
        self.ok = len(both) > 0

    def _weights(self, col: str) -> np.ndarray:
        n = self.w[col].to_numpy(float)
        return n / n.sum() if n.sum() else n

    def mean(self, side: pd.DataFrame, col="mean_plays", sd="sd_plays", n="n") -> tuple[float, float]:
        """Standardised mean and its variance."""
        w = self._weights(n)
        sdv = np.nan_to_num(side[sd].to_numpy(float))
        return float(w @ side[col].to_numpy(float)), float((w ** 2) @ (sdv ** 2 / side[n].to_numpy(float)))

    def rate(self, side: pd.DataFrame, succ: str, n: str) -> tuple[float, float]:
        w = self._weights(n)
        nn = side[n].to_numpy(float)
        r = np.divide(side[succ].to_numpy(float), nn, out=np.zeros_like(nn), where=nn > 0)
        return float(w @ r), float((w ** 2) @ np.divide(r * (1 - r), nn, out=np.zeros_like(nn), where=nn > 0))

    def seat_rates(self, side: pd.DataFrame) -> np.ndarray:
        """Standardised share of round wins per seat."""
        f = side[[f"first_{q}" for q in range(self.k)]].to_numpy(float)
        return self._weights("n") @ (f / side["n"].to_numpy(float)[:, None])

    def seat_draws(self, side: pd.DataFrame, rng, equal: bool = False) -> np.ndarray:
        """Bootstrap draws of the standardised seat spread (``equal``: with equal seats)."""
        w = self._weights("n")
        rates = np.zeros((BOOTSTRAP_DRAWS, self.k))
        for wr, (_, r) in zip(w, side.iterrows()):
            n = int(r["n"])
            p = np.full(self.k, 1 / self.k) if equal else _firsts(r, self.k) / n
            rates += wr * rng.binomial(n, p, size=(BOOTSTRAP_DRAWS, self.k)) / n
        return rates.max(axis=1) - rates.min(axis=1)


def _z(d: float, var: float) -> dict:
    """A difference with its variance: normal interval and test (``sim.run.stats.estimate_test``)."""
    return estimate_test(d, np.sqrt(var) if np.isfinite(var) and var > 0 else np.nan)


def spread_change(st: Strata, seed: int = 0) -> dict:
    """Seat spread with vs without (standardised by round): both spreads beyond their chance
    level, the difference with a 95% basic parametric-bootstrap interval, and the p-value of
    the p-value that inverts that interval (``basic_p``), so the two always agree."""
    rng = np.random.default_rng(seed)
    raw1, raw0 = np.ptp(st.seat_rates(st.w)), np.ptp(st.seat_rates(st.o))
    null1, null0 = st.seat_draws(st.w, rng, equal=True).mean(), st.seat_draws(st.o, rng, equal=True).mean()
    s1, s0 = raw1 - null1, raw0 - null0
    d1, d0 = st.seat_draws(st.w, rng) - null1, st.seat_draws(st.o, rng) - null0
    lo, hi = basic_interval(s1 - s0, d1 - d0)
    wlo, whi = basic_interval(s1, d1)
    return {"with": s1, "without": s0, "diff": s1 - s0, "lo": lo, "hi": hi, "with_lo": wlo, "with_hi": whi,
            "raw_with": raw1, "raw_without": raw0, "p": basic_p(s1 - s0, d1 - d0)}


REF_BASE = "the base game (control run, no law in force), one model of all laws"
REF_OTHERS = "rounds without it at the same round number (the other laws' average)"


def law_effects(run, control=None) -> pd.DataFrame:
    """Each law's effects (see the module docstring), against the base game when ``control``
    (a run of the same config with no law in force, ``daifugo_control``) is given, else against the
    other laws."""
    return joint_law_effects(run, control) if control is not None else stratified_law_effects(run)


def stratified_law_effects(run) -> pd.DataFrame:
    """One row per card seen as a law: with vs without, the seat spread of round wins, king
    retention and mean round length (plays), each standardised by round number (``Strata``),
    and the variance of final scores (games with it as a law vs without), each as the
    with-minus-without difference with a 95% interval and a p-value."""
    p = run.config.players
    rounds, games = law_rounds(run), law_games(run)
    rows = []
    for card in CARDS:
        st = Strata(rounds[rounds["card"] == card], p)
        if not st.ok:
            continue
        spread = spread_change(st, seed=card)
        (k1, kv1), (k0, kv0) = st.rate(st.w, "kk", "kn"), st.rate(st.o, "kk", "kn")
        king = _z(k1 - k0, kv1 + kv0) if st.w["kn"].sum() and st.o["kn"].sum() else _z(np.nan, np.nan)
        (m1, mv1), (m0, mv0) = st.mean(st.w), st.mean(st.o)
        length = _z(m1 - m0, mv1 + mv0)
        row = {"card": label(card), "id": card, "rounds_with": int(st.w["n"].sum()),
               "rounds_without": int(st.o["n"].sum()),
               "spread_with": spread["with"], "spread_with_lo": spread["with_lo"], "spread_with_hi": spread["with_hi"],
               "spread_without": spread["without"], "spread_diff": spread["diff"], "spread_lo": spread["lo"],
               "spread_hi": spread["hi"], "spread_p": spread["p"],
               "king_with": k1 if st.w["kn"].sum() else np.nan, "king_with_lo": k1 - 1.96 * np.sqrt(kv1),
               "king_with_hi": k1 + 1.96 * np.sqrt(kv1), "king_without": k0 if st.o["kn"].sum() else np.nan,
               "king_diff": king["diff"], "king_lo": king["lo"], "king_hi": king["hi"], "king_p": king["p"],
               "plays_with": m1, "plays_with_lo": m1 - 1.96 * np.sqrt(mv1), "plays_with_hi": m1 + 1.96 * np.sqrt(mv1),
               "plays_without": m0, "plays_diff": length["diff"], "plays_lo": length["lo"], "plays_hi": length["hi"],
               "plays_p": length["p"]}
        row.update(_variance_row(games[games["card"] == card]))
        row["reference"] = REF_OTHERS
        rows.append(row)
    return with_score_sd(pd.DataFrame(rows))


def with_score_sd(eff: pd.DataFrame) -> pd.DataFrame:
    """``eff`` with the spread of final scores as a standard deviation in VP, from its variance
    columns: ``score_sd_with`` (and its interval) and ``score_sd_without``, the square roots of
    the mean per-game variances with and without the law; ``score_sd_diff`` their difference.
    Its interval is the variance difference's carried over with the with-law variance W as
    measured, d -> sqrt(W) - sqrt(W - d): increasing in d, so it holds zero exactly when the
    variance interval does, and ``score_sd_p`` is the variance test's p."""
    if eff.empty:
        return eff
    eff = eff.copy()
    w = eff["var_with"].clip(lower=0)
    root = lambda v: np.sqrt(np.clip(np.asarray(v, float), 0, None))  # noqa: E731
    eff["score_sd_with"], eff["score_sd_without"] = root(w), root(eff["var_without"])
    eff["score_sd_with_lo"], eff["score_sd_with_hi"] = root(eff["var_with_lo"]), root(eff["var_with_hi"])
    eff["score_sd_diff"] = eff["score_sd_with"] - eff["score_sd_without"]
    eff["score_sd_lo"] = root(w) - root(w - eff["var_lo"])
    eff["score_sd_hi"] = root(w) - root(w - eff["var_hi"])
    eff["score_sd_p"] = eff["var_p"]
    return eff


# ---- laws against the base game: one model of all laws -----------------------------------

def law_groups(run) -> pd.DataFrame:
    """Rounds grouped by round number and set of laws in force (``in_force`` bit mask): rounds,
    round length mean and population variance, king rounds and kept crowns, each seat's firsts."""
    p = run.config.players
    return run.sql(f"""WITH r AS ({_in_force_rounds(p)})
        SELECT round, in_force, {_round_aggregates(p)}, coalesce(var_pop(plays::DOUBLE), 0) AS var_plays
        FROM r GROUP BY ALL ORDER BY round, in_force""")


def variance_groups(run) -> pd.DataFrame:
    """Games grouped by their set of laws: games, and the mean and population variance of the
    per-game sample variance of final points across seats."""
    pts = ", ".join(f"points_s{q}" for q in range(run.config.players))
    return run.sql(f"""WITH g AS (SELECT laws_mask, list_aggregate([{pts}]::DOUBLE[], 'var_samp') AS var FROM games)
        SELECT laws_mask AS in_force, count(*) AS n, avg(var) AS mean_var, coalesce(var_pop(var), 0) AS var_var
        FROM g GROUP BY 1 ORDER BY 1""")


def _law_design(masks: np.ndarray, strata: np.ndarray | None, cards: list[int]) -> np.ndarray:
    """Regressors: one indicator per stratum (round number), or an intercept, then one per card."""
    held = ((masks[:, None] >> (np.array(cards) - 1)) & 1).astype(float)
    if strata is None:
        return np.hstack([np.ones((len(masks), 1)), held])
    levels = np.unique(strata)
    return np.hstack([(strata[:, None] == levels).astype(float), held])


def _law_fit(groups: pd.DataFrame, cards: list[int], means: np.ndarray, n: np.ndarray, within: np.ndarray,
             by_round: bool = True):
    keep = n > 0
    x = _law_design(groups["in_force"].to_numpy(np.int64)[keep],
                    groups["round"].to_numpy()[keep] if by_round else None, cards)
    return grouped_ols(x, means[keep], n[keep], within), x.shape[1] - len(cards)


def _coef_row(fit, offset: int, j: int, dof: float, with_: float, prefix: str) -> dict:
    """A law's coefficient on one outcome as with / without (= with minus the effect) / diff / interval / p."""
    if fit is None:
        return {f"{prefix}_{k}": np.nan for k in ("without", "diff", "lo", "hi", "p")}
    b = float(fit.coef[offset + j, 0])
    e = estimate_test(b, float(np.sqrt(fit.xtx_inv[offset + j, offset + j] * fit.sigma[0, 0])), dof)
    return {f"{prefix}_without": with_ - b, f"{prefix}_diff": b, f"{prefix}_lo": e["lo"], f"{prefix}_hi": e["hi"],
            f"{prefix}_p": e["p"]}


def _seat_within(groups: pd.DataFrame, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Seat shares of round wins per group (G x k) and the summed within-group cross-products
    of the seat indicators (multinomial: n (diag(p) - p p'))."""
    f = groups[[f"first_{q}" for q in range(k)]].to_numpy(float)
    n = groups["n"].to_numpy(float)
    shares = f / n[:, None]
    within = np.diag(f.sum(axis=0)) - (shares * n[:, None]).T @ shares
    return shares, within


def joint_law_effects(run, control) -> pd.DataFrame:
    """Each law against the base game: one linear model of all laws at once, fitted on the
    rounds of ``run`` and of its ``control`` run (the base game: no law in force; in madness mode
    its precepts are drafted as in the run, so they belong to the base and to every law's rounds
    alike and no precept effect enters a law's coefficient), with a term per round number; a
    law's coefficient is what having it in force adds to a round of the base game, the other
    laws in force held as they are (additive effects; the pairs section
    shows where two laws interact). Round length and king retention are modelled directly;
    the seat spread from one model per seat's share of round wins (without the law: the seat
    spread of the base game; with it: of the base game plus the law's seat effects; not net of
    chance, so with and without compare like with like);
    the variance of final scores from a model of games on the laws of the game."""
    k = run.config.players
    g = pd.concat([law_groups(run), law_groups(control)], ignore_index=True)
    g = g.groupby(["round", "in_force"], as_index=False).sum() if g.duplicated(["round", "in_force"]).any() else g
    masks = g["in_force"].to_numpy(np.int64)
    cards = [c for c in CARDS if ((masks >> (c - 1)) & 1).any()]
    if not cards:
        return pd.DataFrame()
    n = g["n"].to_numpy(float)
    plays_fit, off = _law_fit(g, cards, g["mean_plays"].to_numpy(float), n,
                              np.array([[(n * g["var_plays"].to_numpy(float)).sum()]]))
    kn, kk = g["kn"].to_numpy(float), g["kk"].to_numpy(float)
    kr = np.divide(kk, kn, out=np.zeros_like(kn), where=kn > 0)
    king_fit, koff = _law_fit(g, cards, kr, kn, np.array([[(kn * kr * (1 - kr)).sum()]]))
    shares, within = _seat_within(g, k)
    seat_fit, _ = _law_fit(g, cards, shares, n, within)
    v = pd.concat([variance_groups(run), variance_groups(control)], ignore_index=True)
    v = v.groupby("in_force", as_index=False).sum() if v["in_force"].duplicated().any() else v
    vn = v["n"].to_numpy(float)
    var_fit, voff = _law_fit(v, cards, v["mean_var"].to_numpy(float), vn,
                             np.array([[(vn * v["var_var"].to_numpy(float)).sum()]]), by_round=False)
    base_rounds = masks == 0  # the rounds with no law in force (the control run's): the base game, precepts and all
    n_base = n[base_rounds].sum()
    base_shares = n[base_rounds] @ shares[base_rounds] / n_base
    rows = []
    for j, card in enumerate(cards):
        on = ((masks >> (card - 1)) & 1).astype(bool)
        w = n * on
        with_plays = float(w @ g["mean_plays"].to_numpy(float) / w.sum())
        with_king = float(kk[on].sum() / kn[on].sum()) if kn[on].sum() else np.nan
        vo = ((v["in_force"].to_numpy(np.int64) >> (card - 1)) & 1).astype(bool)
        with_var = float(vn[vo] @ v["mean_var"].to_numpy(float)[vo] / vn[vo].sum())
        row = {"card": label(card), "id": card, "rounds_with": int(w.sum()), "rounds_without": int(n[~on].sum()),
               "games_with": int(vn[vo].sum()), "reference": REF_BASE}
        row.update(_joint_spread(seat_fit, off + j, base_shares, n_base, seed=card))
        row["king_with"] = with_king
        row["king_with_lo"], row["king_with_hi"] = (float(x) for x in wilson(kk[on].sum(), kn[on].sum()))
        row.update(_coef_row(king_fit, koff, j, king_fit.dof if king_fit else 1, with_king, "king"))
        row["plays_with"] = with_plays
        row.update(_with_interval(g["mean_plays"].to_numpy(float)[on], g["var_plays"].to_numpy(float)[on], n[on],
                                  "plays"))
        row.update(_coef_row(plays_fit, off, j, plays_fit.dof if plays_fit else 1, with_plays, "plays"))
        row["var_with"] = with_var
        row.update(_with_interval(v["mean_var"].to_numpy(float)[vo], v["var_var"].to_numpy(float)[vo], vn[vo], "var"))
        row.update(_coef_row(var_fit, voff, j, var_fit.dof if var_fit else 1, with_var, "var"))
        rows.append(row)
    return with_score_sd(pd.DataFrame(rows))


def _with_interval(means: np.ndarray, var_pop: np.ndarray, n: np.ndarray, prefix: str) -> dict:
    """95% t interval of the mean over the units of the given groups (pooled moments)."""
    total = n.sum()
    m = float(n @ means / total)
    ss = float(n @ var_pop + n @ (means - m) ** 2)
    sd = np.sqrt(ss / (total - 1)) if total > 1 else np.nan
    _, lo, hi = mean_ci_from(m, sd, int(total))
    return {f"{prefix}_with_lo": lo, f"{prefix}_with_hi": hi}


def _joint_spread(fit, j: int, base: np.ndarray, n_base: float, seed: int) -> dict:
    """Seat spread of round wins in the base game (``base``: its seat shares over ``n_base``
    rounds) and in the base game with the law's seat effects (row ``j`` of the per-seat model)
    added: the law's change of the spread, with a basic interval and the p-value that inverts it,
    from parametric draws of the base shares and of the law's seat effects (the draws carry the
    upward bias a largest-minus-smallest spread of noisy shares has, and the interval removes it)."""
    b = fit.coef[j]
    rng = np.random.default_rng(seed)
    cov_base = (np.diag(base) - np.outer(base, base)) / n_base
    d_base = rng.multivariate_normal(base, cov_base, size=BOOTSTRAP_DRAWS, method="eigh")
    d_b = rng.multivariate_normal(b, fit.cov(np.eye(len(fit.coef))[j]), size=BOOTSTRAP_DRAWS, method="eigh")
    s_with, s_without = np.ptp(base + b), np.ptp(base)
    draws = np.ptp(d_base + d_b, axis=1) - np.ptp(d_base, axis=1)
    lo, hi = basic_interval(s_with - s_without, draws)
    wlo, whi = basic_interval(s_with, np.ptp(d_base + d_b, axis=1))
    return {"spread_with": s_with, "spread_with_lo": wlo, "spread_with_hi": whi, "spread_without": s_without,
            "spread_diff": s_with - s_without, "spread_lo": lo, "spread_hi": hi,
            "spread_p": basic_p(s_with - s_without, draws)}


def _variance_row(g: pd.DataFrame) -> dict:
    w, o = g[g["law"]], g[~g["law"]]
    if w.empty or o.empty:
        return {k: np.nan for k in ("games_with", "var_with", "var_with_lo", "var_with_hi", "var_without",
                                    "var_diff", "var_lo", "var_hi", "var_p")}
    w, o = w.iloc[0], o.iloc[0]
    d = _welch(w.mean_var, w.sd_var, int(w.n), o.mean_var, o.sd_var, int(o.n))
    _, lo, hi = mean_ci_from(w.mean_var, w.sd_var, int(w.n))
    return {"games_with": int(w.n), "var_with": w.mean_var, "var_with_lo": lo, "var_with_hi": hi, "var_without": o.mean_var,
            "var_diff": d["diff"], "var_lo": d["lo"], "var_hi": d["hi"], "var_p": d["p"]}


# ---- pairs of laws ----------------------------------------------------------------------

def pair_rounds(run) -> pd.DataFrame:
    """Per pair of cards a < b both in force as laws in a round, and round number: rounds,
    round length moments and each seat's round wins."""
    p = run.config.players
    firsts = ", ".join(f"pos_s{q}" for q in range(p))
    return run.sql(f"""WITH r AS ({_in_force_rounds(p)}),
             c AS (SELECT game, round, plays, king, king_kept, {firsts},
                          unnest({_held_cards('in_force')}) AS card
                   FROM r WHERE bit_count(in_force) >= 2)
        SELECT x.card AS a, y.card AS b, x.round AS round, {_round_aggregates(p)}
        FROM c x JOIN (SELECT game, round, card FROM c) y ON x.game = y.game AND x.round = y.round AND x.card < y.card
        GROUP BY ALL ORDER BY a, b, round""")


def _pooled(g: pd.DataFrame, players: int, by: list[str]) -> pd.DataFrame:
    """Strata (round numbers) pooled per group ``by``: rounds ``n``, seat round wins, mean and
    standard deviation of round length."""
    firsts = [f"first_{q}" for q in range(players)]
    d = g[by + ["n"] + firsts].copy()
    d["sum"] = g["n"] * g["mean_plays"]
    d["sq"] = (g["n"] - 1) * g["sd_plays"].fillna(0) ** 2 + g["n"] * g["mean_plays"] ** 2
    t = d.groupby(by, sort=True).sum().reset_index() if by else d.sum().to_frame().T
    t["mean"] = t["sum"] / t["n"]
    t["sd"] = np.sqrt(np.maximum(0, (t["sq"] - t["n"] * t["mean"] ** 2) / (t["n"] - 1).where(t["n"] > 1)))
    return t


def pair_effects(run) -> pd.DataFrame:
    """One row per co-occurring pair: seat spread of round wins (raw, and in excess of what
    chance gives with that many rounds) and mean round length with 95% t interval.

    Pairs of at least ``MIN_PAIR_ROUNDS`` rounds are tested: their seat shares of round wins
    against all rounds' (chi-square goodness of fit), and their round length against the
    additive expectation from the two cards alone (per round number: mean with a + mean with
    b - mean of all rounds, weighted by the pair's rounds; t-test on the pair's standard
    error). Benjamini-Hochberg over all pair tests; ``flag`` names the pairs with q < 0.05
    (round length: also at least ``MIN_RELATIVE_CHANGE`` off the expectation)."""
    k = run.config.players
    pr = pair_rounds(run)
    if pr.empty:
        return pd.DataFrame()
    by_round = run.sql(f"SELECT round, {_round_aggregates(k)} FROM rounds GROUP BY round ORDER BY round")
    singles = law_rounds(run)
    singles = singles.loc[singles["force"], ["card", "round", "mean_plays"]]
    e = pr[["a", "b", "round", "n"]].merge(by_round[["round", "mean_plays"]], on="round")
    for side in ("a", "b"):
        e = e.merge(singles.rename(columns={"card": side, "mean_plays": f"m_{side}"}), on=[side, "round"])
    e["expected"] = e["n"] * (e["m_a"] + e["m_b"] - e["mean_plays"])
    expected = e.groupby(["a", "b"])[["expected", "n"]].sum()
    t = _pooled(pr, k, ["a", "b"])
    f = t[[f"first_{q}" for q in range(k)]].to_numpy(float)
    n = t["n"].to_numpy(float)
    tot = _pooled(by_round, k, []).iloc[0]
    f_all = np.array([tot[f"first_{q}"] for q in range(k)], float)
    df = pd.DataFrame({"a": t["a"].astype(int), "b": t["b"].astype(int),
                       "pair": [f"{a:02d} x {b:02d}" for a, b in zip(t["a"], t["b"])], "rounds": n.astype(int)})
    df["spread"] = (f.max(axis=1) - f.min(axis=1)) / n
    df["excess_spread"] = df["spread"] - [null_spread(int(v), k) for v in n]
    df["plays"] = t["mean"].to_numpy()
    se = t["sd"].to_numpy() / np.sqrt(n)
    dof = np.maximum(n - 1, 1)
    ci = estimate_test(df["plays"].to_numpy(), se, dof)
    df["plays_lo"], df["plays_hi"] = ci["lo"], ci["hi"]
    df["plays_expected"] = (expected["expected"] / expected["n"]).reindex(pd.MultiIndex.from_frame(t[["a", "b"]])).to_numpy()
    tested = (n >= MIN_PAIR_ROUNDS) & (f.sum(axis=1) > 0)
    exp_f = f_all / f_all.sum() * f.sum(axis=1)[:, None]
    chi2 = ((f - exp_f) ** 2 / np.where(exp_f > 0, exp_f, 1)).sum(axis=1)
    df["spread_p"] = np.where(tested, chi_square_p(chi2, k - 1), np.nan)
    df["plays_p"] = np.where(tested, estimate_test((df["plays"] - df["plays_expected"]).to_numpy(), se, dof)["p"], np.nan)
    return _flag_pairs(df, float((f_all.max() - f_all.min()) / f_all.sum()))


# each law measure's aim, used by every colour of it (verdict, findings, cardlab suggest's bands): -1 lower is
# better (a king who keeps the crown snowballs a lead; spreads: closer seats and final scores keep every seat
# in the game), 0 neither way (round length)
LAW_TARGET = {"king": -1, "spread": -1, "score_sd": -1, "plays": 0}
MIN_RELATIVE_CHANGE = 0.05  # round length of a flagged pair differs from its expectation by at least 5%


def _flag_pairs(df: pd.DataFrame, overall_spread: float) -> pd.DataFrame:
    ps = np.concatenate([df["spread_p"].to_numpy(float), df["plays_p"].to_numpy(float)])
    ok = np.isfinite(ps)
    q = np.full(len(ps), np.nan)
    if ok.any():
        q[ok] = fdr_bh(ps[ok])
    df["spread_q"], df["plays_q"] = q[:len(df)], q[len(df):]
    flags = []
    for r in df.itertuples():
        f = []
        if r.spread_q < 0.05:
            f.append(f"seat spread {100 * r.spread:.1f} pp vs {100 * overall_spread:.1f} pp in all rounds, q = {r.spread_q:.2g}")
        if r.plays_q < 0.05 and abs(r.plays / r.plays_expected - 1) >= MIN_RELATIVE_CHANGE:
            f.append(f"round length {r.plays:.1f} plays vs {r.plays_expected:.1f} expected from the two cards "
                     f"alone, q = {r.plays_q:.2g}")
        flags.append("; ".join(f))
    df["flag"] = flags
    return df


def pair_matrix(pairs: pd.DataFrame, col: str) -> np.ndarray:
    """The symmetric 25 x 25 matrix of a pair measure (NaN where the pair never co-occurs)."""
    m = np.full((N_RULE_CARDS, N_RULE_CARDS), np.nan)
    for a, b, v in zip(pairs["a"], pairs["b"], pairs[col]):
        m[a - 1, b - 1] = m[b - 1, a - 1] = v
    return m
