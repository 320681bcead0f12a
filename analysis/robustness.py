"""Do the findings hold under strong play? One run played by a strong player (search seats, or
the learned bot) next to one played by scripted bots, the same game, players, seed and rule parameters.

Per finding kind (seat advantage; each game's per-card measures: daifugo's precept win-rate
changes and each law's four effects, faking-sick's call success by played card, virus-dogs'
win rate by card use) both runs' estimates of every item side by side with their 95% intervals;
within each run and kind the p-values are adjusted by Benjamini-Hochberg (``sim.run.stats.fdr_bh``)
and an item is significant at q < ``ALPHA``. An item's verdict changes when its sign flips or
when it is significant in one run and not in the other; the difference of the two estimates
gets its own normal test (standard errors combined, the two runs independent), adjusted within
the kind. Agreement over the items of a kind: Spearman's rank correlation with a 95%
parametric-bootstrap interval (``sim.run.stats.rank_agreement``: each estimate redrawn from a normal
with its standard error, the standard error taken from its 95% interval).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis import charts, queries
from analysis.candidate import ALPHA, MIN_RELATIVE_EFFECT, RULE, label, q_text, q_value
from analysis.eligibility import MIN_DESIGN_GAMES
from analysis.findings import MIN_EFFECT, bh
from analysis.glossary import weight_words
from analysis.games import hook
from analysis.kinds import Kind, frame
from analysis.sections import Section
from sim.kit.config import ConfigError
from sim.run.stats import estimate_test, rank_agreement, rate_difference

PART = "Robustness under strong play"
SMOKE_PART = "Robustness smoke test"
Z95 = 1.959963984540054


def seat_kind(run) -> Kind:
    """Each seat's win rate minus the other seats' (Newcombe's interval and its p), as the findings."""
    t = queries.rates(run, "seats", "seat", "win")
    n_all, s_all = int(t["n"].sum()), int(t["successes"].sum())
    rows = []
    for r in t.itertuples():
        d = rate_difference(int(r.successes), int(r.n), s_all - int(r.successes), n_all - int(r.n))
        rows.append({"item": f"seat {r.seat}", "est": d["diff"], "lo": d["lo"], "hi": d["hi"], "p": d["p"]})
    return Kind("seat", "Seat advantage", "the seat's win rate minus the other seats' win rate", "share", frame(rows),
                noun="seat", short="advantage")


def kinds(run, use_control: bool = False) -> list[Kind]:
    """The finding kinds of a run: seat advantage, then the game's own (``robustness_kinds(run,
    use_control)`` of its report module; ``use_control``: measure against its control run)."""
    own = hook(run.config.game, "robustness_kinds")
    return [seat_kind(run)] + (own(run, use_control) if own else [])


def check_pair(strong, scripted) -> None:
    """A one-line ConfigError unless the two runs differ only in bots and bot parameters."""
    a, b = strong.config, scripted.config
    where = f"{strong.path} and {scripted.path}"
    if a.game != b.game:
        raise ConfigError(f"--robustness needs two runs of the same game: {where} are {a.game} and {b.game}")
    if a.players != b.players:
        raise ConfigError(f"--robustness needs the same number of players: {where} have {a.players} and {b.players}")
    if a.seed != b.seed:
        raise ConfigError(f"--robustness needs the same seed: {where} have seeds {a.seed} and {b.seed}")
    if a.params != b.params:
        keys = sorted(k for k in set(a.params) | set(b.params) if a.params.get(k) != b.params.get(k))
        raise ConfigError(f"--robustness needs the same rule parameters: {where} differ in {', '.join(keys)}")
    if tuple(a.bots) == tuple(b.bots) and a.bot_params == b.bot_params:
        raise ConfigError(f"--robustness needs runs that differ in their bots or bot parameters: {where} have the same")


def players_text(run) -> str:
    """The bots of a run in words: "search x4 (budget 64)", "search, strategist x3"."""
    bots, out = list(run.config.bots), []
    for name in dict.fromkeys(bots):
        k = bots.count(name)
        params = run.config.bot_params.get(name, {})
        weights = [p for p in params if p.startswith("w_")]
        shown = {p: v for p, v in params.items() if p not in weights}
        extra = ", ".join([f"{weight_words(p)} {v:g}" for p, v in sorted(shown.items())]
                          + ([f"{len(weights)} fitted weights (in the run facts)"] if weights else []))
        extra = f" ({extra})" if extra else ""
        out.append(f"{name}{f' x{k}' if k > 1 else ''}{extra}")
    return ", ".join(out)


@dataclass
class KindResult:
    kind: Kind
    table: pd.DataFrame  # one row per item seen in both runs (see ``compare_kind``)
    only: list[str]  # items estimated in one run only
    rho: float
    rho_lo: float
    rho_hi: float


def se_of(lo, hi) -> np.ndarray:
    """A standard error from a 95% interval (its width over 2 x 1.96)."""
    return (np.asarray(hi, float) - np.asarray(lo, float)) / (2 * Z95)


VERDICTS = ("holds", "significant in neither", "reverses", "flips sign", "loses significance", "becomes significant")
CHANGED = ("reverses", "flips sign", "loses significance", "becomes significant")


def verdict(est_s: float, sig_s: bool, est_b: float, sig_b: bool) -> str:
    """How an item's verdict changes from the scripted run (b) to the strong run (s): a sign
    flip counts when the item is significant in at least one run (two estimates significant in
    neither run, after Benjamini-Hochberg, have no verdict to change; ``sign_differs`` names those)."""
    if not (sig_s or sig_b):
        return "significant in neither"
    if np.sign(est_s) * np.sign(est_b) < 0:
        return "reverses" if sig_s and sig_b else "flips sign"
    if sig_s and sig_b:
        return "holds"
    return "loses significance" if sig_b else "becomes significant"


def sign_differs(t: pd.DataFrame) -> pd.Series:
    return (np.sign(t["est_s"]) * np.sign(t["est_b"])) < 0


def threshold(kind: Kind, items: pd.DataFrame) -> np.ndarray:
    """Each item's practical threshold, the verdict's: ``MIN_EFFECT`` for a share, else
    ``MIN_RELATIVE_EFFECT`` of the item's reference value (``ref``; none known: 0, every
    estimate reaches it)."""
    if kind.unit == "share":
        return np.full(len(items), MIN_EFFECT)
    ref = items["ref"].to_numpy(float) if "ref" in items else np.zeros(len(items))
    return MIN_RELATIVE_EFFECT * np.abs(np.nan_to_num(ref))


def compare_kind(strong: Kind, scripted: Kind, seed: int = 0) -> KindResult:
    """Both runs' estimates of one kind's items: q-values within the kind and run, the difference
    strong - scripted with its own normal test (q within the kind), each item's verdict, and
    the rank agreement over the items with finite estimates in both runs."""
    s = strong.items.dropna(subset=["est", "p"])
    b = scripted.items.dropna(subset=["est", "p"])
    t = s.merge(b, on="item", suffixes=("_s", "_b"))
    only = sorted(set(s["item"]) ^ set(b["item"]))
    t["q_s"], t["q_b"] = bh(t["p_s"]), bh(t["p_b"])
    t["se_s"], t["se_b"] = se_of(t["lo_s"], t["hi_s"]), se_of(t["lo_b"], t["hi_b"])
    d = estimate_test((t["est_s"] - t["est_b"]).to_numpy(float), np.sqrt(t["se_s"] ** 2 + t["se_b"] ** 2).to_numpy(float))
    if len(t):
        t["diff"], t["diff_lo"], t["diff_hi"], t["diff_p"] = d["diff"], d["lo"], d["hi"], d["p"]
    else:
        t = t.assign(diff=[], diff_lo=[], diff_hi=[], diff_p=[])
    t["diff_q"] = bh(t["diff_p"])
    if len(t):
        ts, tb = threshold(strong, t.rename(columns={"ref_s": "ref"})), threshold(scripted, t.rename(columns={"ref_b": "ref"}))
        t["threshold"] = np.maximum(ts, tb)
    else:
        t["threshold"] = []
    with np.errstate(divide="ignore", invalid="ignore"):
        t["size"] = np.where(t["threshold"] > 0, np.abs(t["diff"]) / t["threshold"], np.inf) if len(t) else []
    t["verdict"] = [verdict(r.est_s, r.q_s < ALPHA, r.est_b, r.q_b < ALPHA) for r in t.itertuples()]
    t["sign_differs"] = sign_differs(t) if len(t) else []
    agree = rank_agreement(t["est_s"], t["se_s"], t["est_b"], t["se_b"], seed=seed)
    return KindResult(strong, t.reset_index(drop=True), only, agree["rho"], agree["lo"], agree["hi"])


def robustness(strong, scripted) -> list[KindResult]:
    """Every kind both runs have, compared (``check_pair`` first), each against the reference the
    rest of the report uses for it: daifugo's law effects against the base game when both runs have
    a control run, against the other laws' average when neither has; when only one has, the law
    kinds are left out (``mixed_reference``), since a law's effect in that run has another reference."""
    check_pair(strong, scripted)
    controls = [getattr(run, "control", None) is not None for run in (strong, scripted)]
    use_control = all(controls)
    ks, kb = kinds(strong, use_control), {k.key: k for k in kinds(scripted, use_control)}
    return [compare_kind(k, kb[k.key], seed=i) for i, k in enumerate(ks)
            if k.key in kb and not (any(controls) and not use_control and k.key.startswith("law"))]


def mixed_reference(strong, scripted) -> str:
    """Why the law kinds are left out when one run of the pair has a control run and the other has
    not, and the command that plays the missing one; "" otherwise."""
    from analysis.games import hook

    have = [run for run in (strong, scripted) if getattr(run, "control", None) is not None]
    if len(have) != 1:
        return ""
    missing = scripted if have[0] is strong else strong
    command = hook(missing.config.game, "control_command")
    how = f": {command(missing)}" if command else ""
    return (f" Law effects are left out of this comparison: {have[0].path.name}'s are measured against the base game "
            f"(its control run {have[0].control.path.name}), as everywhere else in this report, and "
            f"{missing.path.name} has no control run in the report, so its laws could only be measured against the "
            f"other laws' average. Play its control run and give it to the report to compare them{how}.")


# ---- words and tables --------------------------------------------------------------------

def value_text(v: float, unit: str) -> str:
    if not np.isfinite(v):
        return "n/a"
    return f"{100 * v:+.1f} pp" if unit == "share" else f"{v:+.3g} {unit}"


def interval_text(est: float, lo: float, hi: float, unit: str) -> str:
    if unit == "share":
        return f"{100 * est:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    return f"{est:+.3g} [{lo:+.3g}, {hi:+.3g}]"


def change_level(r) -> str:
    """``RULE`` on a changed item: its difference between the runs, with its q, over the practical
    threshold."""
    return label(r.diff_q, r.size)


def item_sentence(r, kind: Kind) -> tuple[str, str]:
    """A verdict line (level, sentence) for a changed item, in words; its level by ``RULE`` on the
    difference of the two estimates."""
    u = kind.unit
    lv = change_level(r)
    s = f"{value_text(r.est_s, u)} ({q_text(r.q_s)}) under strong play"
    b = f"{value_text(r.est_b, u)} ({q_text(r.q_b)}) under scripted play"
    small = (f", less than the practical threshold {value_text(r.threshold, u).lstrip('+')}" if r.size < 1 else "")
    differ = (f"the two estimates differ (difference {value_text(r.diff, u)}, {q_text(r.diff_q)}{small})"
              if r.diff_q < ALPHA else f"the two estimates do not differ significantly ({q_text(r.diff_q)})")
    head = f"Under strong play, {r.item}'s {kind.short}"
    if r.verdict == "reverses":
        return lv, f"{head} reverses: {s} against {b}, each significant; {differ}."
    if r.verdict == "flips sign":
        sig = "significant under strong play only" if r.q_s < ALPHA else "significant under scripted play only"
        return lv, f"{head} flips sign: {s} against {b} ({sig}); {differ}."
    if r.verdict == "loses significance":
        tail = "; more strong-play games could still show it" if r.diff_q >= ALPHA else ""
        return lv, f"{head} keeps its sign but loses significance: {s} against {b}; {differ}{tail}."
    return lv, f"{head} becomes significant: {s} against {b}; {differ}."


def agreement_text(r: KindResult) -> str:
    if not np.isfinite(r.rho):
        return "too few items (or no spread) for a rank correlation"
    ci = f" (95% interval {r.rho_lo:.2f} to {r.rho_hi:.2f})" if np.isfinite(r.rho_lo) else ""
    return f"rank correlation {r.rho:.2f}{ci}"


def counts(r: KindResult) -> dict[str, int]:
    return {v: int((r.table["verdict"] == v).sum()) for v in VERDICTS}


def kind_marks(r: KindResult) -> list[tuple[str, str]]:
    """A designer's lines: the kind's agreement and what keeps its verdict, then each change."""
    k, c, n = r.kind, counts(r), len(r.table)
    kept = c["holds"] + c["significant in neither"]
    held = r.table[r.table["verdict"] == "holds"]["item"].tolist()
    first = (f"{k.title}: {kept} of {n} {k.noun}s keep their verdict under strong play "
             f"({c['holds']} significant in both runs with the same sign"
             + (f": {', '.join(held)}" if held and len(held) <= 8 else "")
             + f", {c['significant in neither']} significant in neither); {agreement_text(r)}.")
    lines = [item_sentence(row, k) for row in r.table.itertuples() if row.verdict in CHANGED]
    order = ("red", "amber", "green")
    level = min((m[0] for m in lines), key=order.index, default="green")  # the worst change's, by ``RULE``
    out = [(level, first)]
    out += sorted(lines, key=lambda m: order.index(m[0]))  # backed by a difference first
    noise = r.table[(r.table["verdict"] == "significant in neither") & r.table["sign_differs"]]["item"].tolist()
    if noise:
        out.append(("green", f"Signs differ, but neither run's estimate is significant (no verdict to change): {', '.join(noise)}."))
    return out


def kind_table(r: KindResult) -> pd.DataFrame:
    """One row per item: both estimates with their 95% intervals (in the caption's unit), q-values,
    the q-value of their difference (the difference itself is in the verdict lines), the verdict."""
    u, t = r.kind.unit, r.table
    return pd.DataFrame({
        r.kind.noun: [i.removeprefix(f"{r.kind.noun} ") for i in t["item"]],
        "strong play [95% CI]": [interval_text(*v, u) for v in zip(t["est_s"], t["lo_s"], t["hi_s"])],
        "strong play q": [q_value(q) for q in t["q_s"]],
        "scripted [95% CI]": [interval_text(*v, u) for v in zip(t["est_b"], t["lo_b"], t["hi_b"])],
        "scripted q": [q_value(q) for q in t["q_b"]],
        "difference q": [q_value(q) for q in t["diff_q"]],
        "verdict": [_verdict_words(row) for row in t.itertuples()]})


def _verdict_words(row) -> str:
    """The table's verdict, true to the intervals beside it (``RULE``)."""
    v = row.verdict
    if v == "significant in neither" and (row.lo_s > 0 or row.hi_s < 0 or row.lo_b > 0 or row.hi_b < 0):
        v += " after adjustment"  # an interval excludes 0 but its q is not below the limit
    return v + (", sign differs" if row.verdict == "significant in neither" and row.sign_differs else "")


SUMMARY_HEADERS = {"holds": "holds", "significant in neither": "significant in neither", "reverses": "reverses",
                   "flips sign": "flips sign", "loses significance": "loses signif.",
                   "becomes significant": "becomes signif."}


def summary_table(results: list[KindResult]) -> pd.DataFrame:
    rows = []
    for r in results:
        c = counts(r)
        rows.append({"finding kind": r.kind.title, "items": len(r.table), "rank correlation": r.rho,
                     "95% low": r.rho_lo, "95% high": r.rho_hi, **{SUMMARY_HEADERS[v]: c[v] for v in VERDICTS}})
    return pd.DataFrame(rows)


def units_text(unit: str) -> str:
    return "percentage points" if unit == "share" else unit


def kind_figure(r: KindResult):
    u, t = r.kind.unit, r.table
    scale = 100.0 if u == "share" else 1.0
    pair = [tuple(scale * t[f"{c}_{s}"].to_numpy(float) for c in ("est", "lo", "hi")) for s in ("s", "b")]
    return charts.paired_forest([i.removeprefix(f"{r.kind.noun} ") for i in t["item"]], pair[0], pair[1], ("strong run", "scripted run"),
                                f"{r.kind.title}: strong run and scripted run (95% intervals)",
                                f"{r.kind.measure} ({units_text(u)})", ylabel=r.kind.noun)


METHOD = ("Within each run and finding kind the p-values are adjusted by Benjamini-Hochberg; an item is "
          f"significant at q < {ALPHA}. An item's verdict changes when the sign of its estimate flips, or when it is "
          "significant in one run and not in the other. The difference of the two estimates (strong minus scripted) "
          "has its own normal test, standard errors combined as for independent runs (each taken from the "
          "estimate's 95% interval: its width over 2 x 1.96), adjusted within the kind. Agreement is Spearman's rank "
          "correlation of the two runs' estimates over the items of the kind (scipy); its 95% interval is a "
          "parametric bootstrap: 2,000 draws, each estimate of both runs redrawn independently from a normal with "
          "its standard error, the basic (reflected) interval, which removes the pull toward zero that noise "
          "gives the correlation, clipped to [-1, 1]. The interval is approximate: the estimates of a kind are "
          "not quite independent (seat advantages sum to about zero), and in simulations with 25 items whose "
          "true rank correlation was known it covered that correlation in 70-96% of samples (less when the "
          "estimates are noisy against their spread), not 95%.")


def part_title(standing) -> str:
    """The part's title: under strong play, or a smoke test, with the search run's player,
    budget, games and rated strength (``standing``: its ``analysis.eligibility.Standing``)."""
    return f"{PART if standing.shown_strong else SMOKE_PART}: {standing.headline()}"


def smoke_text(standing) -> str:
    """Why a search run too small or not shown stronger than the reference is no evidence."""
    return (f"A smoke test of the robustness machinery, not evidence: {standing.reasons(any_player=True)}. The lines "
            "below show that the two runs can be compared; whether the findings hold under strong play needs a "
            f"strong run of at least {MIN_DESIGN_GAMES:,} games whose player a skill ladder of the game rates above "
            "the scripted reference. No line of this part is marked red.")


def _at_most_amber(marks: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [("amber" if lv == "red" else lv, text) for lv, text in marks]


MAX_PDF_CHART_ITEMS = 8  # a kind with more items prints its table alone: its chart would fill a page with the same figures


def sections(strong, scripted, results: list[KindResult], standing=None) -> list[Section]:
    """The robustness part: what it compares and how, the agreement by kind, then each kind.
    ``standing`` (the search run's ``analysis.eligibility.Standing``): when it is not shown
    strong, the part opens with a smoke-test line and marks nothing red."""
    evidence = standing is None or standing.shown_strong
    out = _sections(strong, scripted, results, "strong play" if evidence else "this run's play")
    if evidence:
        return out
    for s in out:
        s.marks = _at_most_amber(s.marks)
    out[0].marks.insert(0, ("amber", smoke_text(standing)))
    return out


def _sections(strong, scripted, results: list[KindResult], play: str) -> list[Section]:
    laws = next((r for r in results if r.kind.key.startswith("law")), None)
    law_ref = mixed_reference(strong, scripted)
    if laws is not None:
        law_ref = (" Law effects are measured against the base game in both runs (both have a control run), as "
                   "everywhere else in this report."
                   if getattr(strong, "control", None) is not None and getattr(scripted, "control", None) is not None
                   else " Law effects are measured against rounds without the law at the same round number (the other "
                        "laws' average) in both runs, as everywhere else in this report (neither has a control run).")
    intro = (f"Strong run: {strong.path} ({strong.games_done:,} games; {players_text(strong)}). Scripted run: "
             f"{scripted.path} ({scripted.games_done:,} games; {players_text(scripted)}). The same game, players, seed "
             f"and rule parameters. Per finding kind, each item's estimate in both runs with its 95% interval, "
             f"whether its verdict holds, and how well the two runs agree on the order of the items. "
             + METHOD + " " + RULE + " Practical thresholds as in the verdict: 1 percentage point for rates, 5% of "
             "the reference value for other measures, applied to the difference of the two estimates."
             + law_ref + " A run with fewer games has wider intervals: an item that loses significance but "
             "whose two estimates do not differ may need more strong-play games, not a different rule.")
    n_changed = sum(sum(counts(r)[v] for v in CHANGED) for r in results)
    n_items = sum(len(r.table) for r in results)
    marks = [("green" if not n_changed else "amber",
              f"{n_items - n_changed} of {n_items} items keep their verdict under strong play; {n_changed} change "
              "(named by kind below).")]
    real = [(change_level(row), f"{row.item} ({r.kind.short}: {row.verdict})") for r in results
            for row in r.table.itertuples() if row.verdict in CHANGED and change_level(row) != "green"]
    if real:
        worst = "red" if any(lv == "red" for lv, _ in real) else "amber"
        marks.append((worst, f"{len(real)} of the changes are backed by a significant difference between the two "
                             f"estimates at least the practical threshold, so {play} changes them: "
                             f"{'; '.join(t for _, t in real)}."))
    if n_changed - len(real):
        marks.append(("green", f"The other {n_changed - len(real)} changes come with two estimates that do not differ "
                               "significantly, or by less than the practical threshold: nothing to act on (more "
                               "strong-play games could still tell them apart)."))
    out = [Section("Strong play against scripted play", text=intro, marks=marks,
                   tables=[("Agreement by finding kind", summary_table(results))])]
    for r in results:
        only = (f" Estimated in one run only (left out): {', '.join(r.only)}." if r.only else "")
        if r.kind.key == "seat":
            mixed = [f"the {name} run's seats have different bots ({', '.join(run.config.bots)})"
                     for name, run in (("strong", strong), ("scripted", scripted)) if len(set(run.config.bots)) > 1]
            if mixed:
                only += (f" {'; '.join(mixed)[0].upper()}{'; '.join(mixed)[1:]}, so its seat advantage mixes the seat "
                         "with the bot in it.")
        long = len(r.table) > MAX_PDF_CHART_ITEMS
        text = (f"Estimate: {r.kind.measure}" + (" (percentage points)" if r.kind.unit == "share" else f" ({r.kind.unit})")
                + f", 95% interval in brackets, Benjamini-Hochberg q within this kind and run.{only}"
                + (" The PDF prints the table; the HTML report also has the chart." if long else ""))
        figs = [(f"{r.kind.title}: both runs", kind_figure(r))] if len(r.table) else []
        out.append(Section(f"Robustness: {r.kind.title.lower()}", text=text, marks=kind_marks(r),
                           tables=[(f"{r.kind.title}: strong run and scripted run ({units_text(r.kind.unit)}; q: "
                                    "Benjamini-Hochberg within the kind)", kind_table(r))], figures=figs,
                           html_only=tuple(c for c, _ in figs) if long else ()))
    return out
