"""Daifugō game feel (docs/rules/daifugo.md, "Game feel measures"): how often the lead changes,
from which round the winner leads for good, comebacks and shared wins; overall (against the
base game when the run has its control run) and per law, every figure with its 95% interval.

``feel_section(run)`` is the report section; the tables it shows are also available alone
(``overall_table``, ``decided_table``, ``behind_table``, ``law_table``) for notebooks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import charts
from analysis.games.daifugo_control import base_game
from analysis.sections import Section
from sim.games.daifugo.rules import CARD_NAMES, N_RULE_CARDS
from sim.games.daifugo.tables import FEEL_COLS
from sim.run.stats import fdr_bh, mean_ci_from, mean_difference, rate_difference, wilson, with_rates

FEEL_TITLE = "Game feel: lead changes, comebacks and ties"
PP = 100.0  # rates are drawn in percentage points
MAX_BEHIND = 6  # "at least k points behind" rows, k = 1 .. MAX_BEHIND

# (name, SQL count over the games, meaning): the shares of the overall table
SHARES = (
    ("lead changed at least once", "lead_changes >= 1", "games with at least one change of the sole leader"),
    ("led wire to wire", "leader_from_round = 1", "the winner was sole leader after every round"),
    ("decided only in the last round", "leader_from_round = rounds",
     "the winner became sole leader for good only with the last round"),
    ("winner was last after some round", "winner_worst_place = players",
     "the winner was alone in last place after some round (a comeback from last)"),
    ("winner was behind after some round", "winner_max_behind >= 1", "the winner trailed the top score after some round"),
    ("shared win", "n_winners > 1", "two or more seats share the top final score"),
    ("no sole points winner", "leader_from_round = -1",
     "the winner is not the sole points leader at the end (shared win, or a tiebreak win)"),
)
# (name, column): the means of the overall table
MEANS = (("lead changes per game", "lead_changes", "changes of the sole leader from round to round"),
         ("winner's largest deficit (points)", "winner_max_behind",
          "the most points the winner trailed the top score by after any round"))


def has_feel(run) -> bool:
    """Whether the run's games table has the game-feel columns (runs played before they existed do not)."""
    return set(FEEL_COLS) <= set(run.columns("games"))


def _aggregates(run, where: str = "") -> dict:
    """Counts, sums and sums of squares over the games (one scan)."""
    parts = ["count(*) AS n"]
    parts += [f"sum(({expr})::BIGINT) AS s{i}" for i, (_, expr, _) in enumerate(SHARES)]
    for col in (c for _, c, _ in MEANS):
        parts += [f"sum({col}::DOUBLE) AS sum_{col}", f"sum(({col}::DOUBLE) * ({col}::DOUBLE)) AS sq_{col}"]
    cond = f" WHERE {where}" if where else ""
    df = run.sql(f"SELECT {', '.join(parts)} FROM (SELECT *, {int(run.config.players)} AS players FROM games){cond}")
    return {k: (0 if pd.isna(v) else v) for k, v in df.iloc[0].items()}


def _mean_sd(a: dict, col: str) -> tuple[float, float, int]:
    n = int(a["n"])
    if n == 0:
        return np.nan, np.nan, 0
    m = a[f"sum_{col}"] / n
    var = (a[f"sq_{col}"] - n * m * m) / (n - 1) if n > 1 else np.nan
    return float(m), float(np.sqrt(max(var, 0.0))) if n > 1 else np.nan, n


def overall_table(run, control=None) -> pd.DataFrame:
    """One row per measure: estimate with its 95% interval (t for means, Wilson for shares); with a
    control run (the base game), its estimate and interval and the run-minus-base difference
    (Welch / Newcombe) with its p-value."""
    a = _aggregates(run)
    b = _aggregates(control) if control is not None else None
    rows = []
    for name, col, meaning in MEANS:
        m, sd, n = _mean_sd(a, col)
        est, lo, hi = mean_ci_from(m, sd, n)
        row = {"measure": name, "kind": "mean (t)", "games": n, "estimate": est, "lo": lo, "hi": hi}
        if b is not None:
            m0, sd0, n0 = _mean_sd(b, col)
            e0, lo0, hi0 = mean_ci_from(m0, sd0, n0)
            d = mean_difference(m, sd * sd, n, m0, sd0 * sd0, n0)
            row.update({"base": e0, "base_lo": lo0, "base_hi": hi0, "diff": d["diff"], "diff_lo": d["lo"],
                        "diff_hi": d["hi"], "p": d["p"]})
        row["meaning"] = meaning
        rows.append(row)
    for i, (name, _, meaning) in enumerate(SHARES):
        k, n = int(a[f"s{i}"]), int(a["n"])
        lo, hi = wilson(k, n)
        row = {"measure": name, "kind": "share (Wilson)", "games": n, "estimate": k / n if n else np.nan,
               "lo": float(lo), "hi": float(hi)}
        if b is not None:
            k0, n0 = int(b[f"s{i}"]), int(b["n"])
            lo0, hi0 = wilson(k0, n0)
            d = rate_difference(k, n, k0, n0)
            row.update({"base": k0 / n0 if n0 else np.nan, "base_lo": float(lo0), "base_hi": float(hi0),
                        "diff": d["diff"], "diff_lo": d["lo"], "diff_hi": d["hi"], "p": d["p"]})
        row["meaning"] = meaning
        rows.append(row)
    return pd.DataFrame(rows)


def _with_ci(v: float, lo: float, hi: float) -> str:
    if not np.isfinite(v):
        return ""
    return f"{v:.3g} ({lo:.3g} to {hi:.3g})" if np.isfinite(lo) and np.isfinite(hi) else f"{v:.3g}"


def compact(overall: pd.DataFrame) -> pd.DataFrame:
    """``overall_table`` in a page's width: each figure with its interval in one cell."""
    out = pd.DataFrame({"measure": overall["measure"],
                        "this run": [_with_ci(r.estimate, r.lo, r.hi) for r in overall.itertuples()]})
    if "base" in overall:
        out["base game"] = [_with_ci(r.base, r.base_lo, r.base_hi) for r in overall.itertuples()]
        out["difference"] = [_with_ci(r.diff, r.diff_lo, r.diff_hi) for r in overall.itertuples()]
    return out


def decided_table(run) -> pd.DataFrame:
    """Share of games by ``leader_from_round`` (the round from which the winner is sole leader for
    good; -1: no sole points winner), with 95% Wilson intervals."""
    df = run.sql("SELECT leader_from_round, count(*) AS successes FROM games GROUP BY 1 ORDER BY 1")
    df["n"] = int(df["successes"].sum())
    df = with_rates(df)
    rounds = int(run.sql("SELECT max(rounds) AS r FROM games")["r"].iloc[0])
    df.insert(0, "winner sole leader from", [
        "no sole winner" if v < 0 else ("last round" if v == rounds else f"round {v}") for v in df["leader_from_round"]])
    return df


def behind_table(run) -> pd.DataFrame:
    """Share of games whose winner was at least k points behind the top score after some round,
    k = 1 .. MAX_BEHIND (95% Wilson)."""
    parts = ", ".join(f"sum((winner_max_behind >= {k})::BIGINT) AS b{k}" for k in range(1, MAX_BEHIND + 1))
    row = run.sql(f"SELECT count(*) AS n, {parts} FROM games").iloc[0]
    df = pd.DataFrame({"behind by at least": range(1, MAX_BEHIND + 1),
                       "n": int(row["n"]), "successes": [int(row[f"b{k}"]) for k in range(1, MAX_BEHIND + 1)]})
    return with_rates(df)


# per law: (short name, SQL success or column, kind)
LAW_MEASURES = (("lead_changes", "lead_changes", "mean"), ("last_round", "leader_from_round = rounds", "rate"),
                ("from_last", "winner_worst_place = players", "rate"), ("shared", "n_winners > 1", "rate"))


def law_table(run, control=None) -> pd.DataFrame:
    """Per rule card revealed as a law in some games of the run: the measures in the games where
    it was in force (revealed in some round, ``laws_mask``) with their 95% intervals, and the
    difference to the reference (Welch for the mean, Newcombe for shares) with p-values and
    Benjamini-Hochberg q-values over the whole table. The reference is the base game (every game
    of ``control``, the run's control run) when given, else the run's games without the law (the
    other laws' average): the law effects' one reference (``law_reference``)."""
    sel = []
    for name, expr, kind in LAW_MEASURES:
        if kind == "mean":
            sel += [f"sum({expr}::DOUBLE) AS {name}_sum", f"sum(({expr}::DOUBLE) * ({expr}::DOUBLE)) AS {name}_sq"]
        else:
            sel.append(f"sum(({expr})::BIGINT) AS {name}_k")
    df = run.sql(
        f"SELECT c, ((laws_mask >> (c - 1)) & 1) = 1 AS inforce, count(*) AS n, {', '.join(sel)} "
        f"FROM (SELECT *, {int(run.config.players)} AS players FROM games), range(1, {N_RULE_CARDS + 1}) t(c) "
        f"GROUP BY 1, 2 ORDER BY 1, 2")
    base = None if control is None else control.sql(
        f"SELECT count(*) AS n, {', '.join(sel)} FROM (SELECT *, {int(control.config.players)} AS players FROM games)")
    rows = []
    for c, grp in df.groupby("c"):
        w = grp[grp["inforce"]]
        o = grp[~grp["inforce"]] if base is None else base
        if w.empty or o.empty:
            continue
        w, o = w.iloc[0], o.iloc[0]
        n1, n0 = int(w["n"]), int(o["n"])
        row = {"card": f"{int(c):02d} {CARD_NAMES[int(c)]}", "id": int(c), "games_with": n1, "games_without": n0}
        for name, _, kind in LAW_MEASURES:
            if kind == "mean":
                stats = []
                for g, n in ((w, n1), (o, n0)):
                    m = g[f"{name}_sum"] / n
                    var = (g[f"{name}_sq"] - n * m * m) / (n - 1) if n > 1 else np.nan
                    stats.append((float(m), float(max(var, 0.0)) if n > 1 else np.nan))
                (m1, v1), (m0, v0) = stats
                est, lo, hi = mean_ci_from(m1, np.sqrt(v1), n1)
                d = mean_difference(m1, v1, n1, m0, v0, n0)
            else:
                k1, k0 = int(w[f"{name}_k"]), int(o[f"{name}_k"])
                lo, hi = (float(x) for x in wilson(k1, n1))
                est = k1 / n1
                d = rate_difference(k1, n1, k0, n0)
            row.update({name: est, f"{name}_lo": lo, f"{name}_hi": hi, f"{name}_diff": d["diff"],
                        f"{name}_diff_lo": d["lo"], f"{name}_diff_hi": d["hi"], f"{name}_p": d["p"]})
        rows.append(row)
    out = pd.DataFrame(rows)
    if not out.empty:
        cols = [f"{name}_p" for name, _, _ in LAW_MEASURES]
        q = fdr_bh(out[cols].to_numpy(float).ravel())
        for j, col in enumerate(cols):
            out[col.replace("_p", "_q")] = q.reshape(len(out), len(cols))[:, j]
    return out


def law_reference(control) -> str:
    """The reference of the per-law game feel in words: the law effects' one reference."""
    return (f"the base game (control run {control.path.name})" if control is not None else
            "the other laws' average (the run's games without it)")
FEEL_PANELS = (("last_round", "decided only in the last round"), ("from_last", "winner was last after some round"),
               ("shared", "shared win"))


def law_compact(laws: pd.DataFrame) -> pd.DataFrame:
    """The per-law differences in a page's width: each with its 95% interval in one cell
    (lead changes per game; shares in percentage points)."""
    def cell(r, name: str, scale: float) -> str:
        d, lo, hi = (scale * getattr(r, f"{name}_diff{x}") for x in ("", "_lo", "_hi"))
        return f"{d:+.2f} ({lo:+.2f} to {hi:+.2f})" if scale == 1 else f"{d:+.1f} ({lo:+.1f} to {hi:+.1f})"
    out = pd.DataFrame({"card": laws["card"],
                        "lead changes per game": [cell(r, "lead_changes", 1) for r in laws.itertuples()]})
    for name, words in FEEL_PANELS:
        out[f"{words} (pp)"] = [cell(r, name, PP) for r in laws.itertuples()]
    return out


def _law_figures(laws: pd.DataFrame, ref: str) -> list[tuple[str, object]]:
    """The per-law game feel as two charts of two panels each (every label at least
    ``charts.MIN_FONT`` points at the printed size), each difference against ``ref``."""
    panels = [(laws["lead_changes_diff"], laws["lead_changes_diff_lo"], laws["lead_changes_diff_hi"],
               "lead changes per game: with minus without", 0.0)]
    for name, xlabel in FEEL_PANELS:
        panels.append((PP * laws[f"{name}_diff"], PP * laws[f"{name}_diff_lo"], PP * laws[f"{name}_diff_hi"],
                       f"{xlabel} (pp): with minus without", 0.0))
    short = ref.split(" (", 1)[0]
    title = "Game feel, law in force minus {ref}:\n{what} (95% intervals)"
    return [(f"Game feel per law against {short}: lead changes and last-round decisions",
             charts.forest(laws["card"], panels[:2], title.format(ref=short, what="lead changes, last round"))),
            (f"Game feel per law against {short}: comebacks from last and shared wins",
             charts.forest(laws["card"], panels[2:], title.format(ref=short, what="comebacks, shared wins")))]


def feel_section(run) -> Section:
    """The game-feel section of a daifugo run (see the module docstring)."""
    if not has_feel(run):
        return Section(FEEL_TITLE, text=(
            "This run's games table has no game-feel columns (played before lead_changes, leader_from_round, "
            "winner_max_behind and winner_worst_place were recorded); play it again to see them."))
    control = getattr(run, "control", None)
    if control is not None and not has_feel(control):
        control = None
    cfg = run.config
    vp_note = ""
    if cfg.params.get("mode") == "madness":
        vp_note = (" Precept VP are in the standings after every round (precept_vp_timing = every_round)."
                   if cfg.params.get("precept_vp_timing") == "every_round" else
                   " Precept VP are added at game end (DEC-20): the standings after rounds before the last hold "
                   "none, the final standings hold all of them, so a lead can change with the VP alone.")
    overall = overall_table(run, control)
    decided = decided_table(run)
    behind = behind_table(run)
    text = (
        "How a game feels from the scoreboard: the standings are the cumulative points after each round (the last "
        "ones the final points). A lead change is a change of the sole leader (ties left out); the winner's round "
        "is the first round from which the winner was sole leader after every round; a comeback is a winner who "
        "was behind, or alone in last place, after some round. Shares with 95% Wilson intervals, means with 95% t "
        "intervals." + vp_note)
    if control is not None:
        text += (f" The base game is the control run {control.path.name} ({base_game(control.config)}): its values "
                 "and the run-minus-base differences (Welch / Newcombe, p) are beside them.")
    full = "Game feel per game (95% intervals)" + (", against the base game" if control is not None else "")
    caption_decided = "From which round the winner stays sole leader (share of games, 95% Wilson)"
    caption_behind = "Winner at least k points behind the top score after some round (share of games, 95% Wilson)"
    tables = [("Game feel per game: estimate (95% interval)", compact(overall)), (full + ", every column", overall),
              (caption_decided, decided), (caption_behind, behind)]
    figures = [("Round from which the winner leads for good",
                charts.rate_bars(decided, "winner sole leader from",
                                 "Winner sole leader for good from (95% Wilson)", xlabel="round"))]
    html_only: tuple[str, ...] = (full + ", every column", caption_decided, caption_behind)
    laws = law_table(run, control)
    ref = law_reference(control)
    if not laws.empty:
        show = ["card", "games_with", "games_without"]
        for name, _, _ in LAW_MEASURES:
            show += [name, f"{name}_lo", f"{name}_hi"]
        diffs = ["card"]
        for name, _, _ in LAW_MEASURES:
            diffs += [f"{name}_diff", f"{name}_diff_lo", f"{name}_diff_hi", f"{name}_p", f"{name}_q"]
        caption_with = ("Per law: games where it was in force (revealed in some round): lead changes per game "
                        "(95% t), decided only in the last round, winner was last after some round, shared win "
                        "(95% Wilson)")
        caption_diff = (f"Per law: with it minus {ref}: Welch for lead changes, "
                        "Newcombe for shares; p and Benjamini-Hochberg q over the table")
        caption_compact = f"Per law: games with it in force minus {ref} (95% intervals)"
        tables += [(caption_compact, law_compact(laws)), (caption_with, laws[show]), (caption_diff, laws[diffs])]
        law_figures = _law_figures(laws, ref)
        html_only += (caption_with, caption_diff) + tuple(c for c, _ in law_figures)
        figures += law_figures
        text += (f" Per law (reference: {ref}, as every law effect of this run): the games where it was revealed "
                 + ("against every game of the base game, so a figure is what the law, with the other laws of those "
                    "games, adds to the base game."
                    if control is not None else
                    "against the run's other games; the rule deck is shuffled per game, so the two groups differ "
                    "only by chance and by that law (and the laws it displaces).")
                 + " The PDF prints the differences with their intervals; the HTML report also has the charts "
                   "and both full tables.")
    return Section(FEEL_TITLE, text=text, tables=tables, figures=figures, html_only=html_only)
