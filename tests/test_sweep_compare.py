"""Sweep and comparison reports: bands from the known counts equal statsmodels' intervals, the
tests across a sweep equal scipy/statsmodels on the whole tables, q-values equal
``multipletests`` on the same p-values, and the report parts and their findings."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.oneway import anova_oneway
from statsmodels.stats.proportion import proportion_confint

from analysis import compare as C
from analysis import findings as F
from analysis import sweep as S
from analysis.load import Run
from sim.run import runner
from sim.kit.config import ConfigError
from tests.test_cli import cardlab, one_line_error


def _sweep(toy, base, param, values, games, **kw):
    for v in values:
        cfg = toy.make_config(players=2, bots=["plain", "lucky"], seed=3, overrides={param: v}, **kw)
        runner.run(cfg, games, base / f"{param}={v}", runner.RunOptions(batch_size=games // 2, progress=False))
    S.write_manifest(base, "toy", param, [str(v) for v in values])
    return base


@pytest.fixture(scope="module")
def bonus_sweep(tmp_path_factory):
    from sim.games import get_game

    return _sweep(get_game("toy"), tmp_path_factory.mktemp("sweep") / "bonus", "lucky_bonus", [3, 0, 1], 1200)


def test_sweep_directory_is_recognised_in_sweep_order(bonus_sweep, tmp_path):
    sw = S.Sweep.open(bonus_sweep)
    assert sw.param == "lucky_bonus" and sw.values == ["3", "0", "1"]  # the order of sweep.json
    assert S.is_sweep(bonus_sweep) and not S.is_sweep(bonus_sweep / "lucky_bonus=0")
    # without sweep.json: the run directories' names, numeric values sorted as numbers
    bare = tmp_path / "bare"
    bare.mkdir()
    for v in ("10", "3"):
        (bare / f"lucky_bonus={v}").symlink_to(bonus_sweep / "lucky_bonus=0")
    assert S.is_sweep(bare) and S.Sweep.open(bare).values == ["3", "10"]
    (bare / S.SWEEP_FILE).write_text("{not json")
    with pytest.raises(ConfigError, match="damaged"):
        S.Sweep.open(bare)


def test_sweep_bands_equal_statsmodels_and_scipy_on_the_whole_tables(bonus_sweep):
    sw = S.Sweep.open(bonus_sweep)
    table = S.metrics(sw).set_index(["metric", "value"])
    for value, run in zip(sw.values, sw.runs):
        seats, games = run.table("seats"), run.table("games")
        for bot, wins in seats.groupby("bot")["win"]:
            lo, hi = proportion_confint(wins.sum(), len(wins), alpha=0.05, method="wilson")
            row = table.loc[(f"win rate, bot {bot}", value)]
            assert (row["successes"], row["n"]) == (wins.sum(), len(wins))
            assert (row["estimate"], row["lo"], row["hi"]) == pytest.approx((wins.mean(), lo, hi), rel=1e-12)
        turns = games["turns"].to_numpy(float)
        lo, hi = sps.t.interval(0.95, len(turns) - 1, loc=turns.mean(), scale=sps.sem(turns))
        row = table.loc[("mean turns", value)]
        assert (row["estimate"], row["lo"], row["hi"]) == pytest.approx((turns.mean(), lo, hi), rel=1e-12)
        rates = seats.groupby("seat")["win"].mean()
        d = (seats.pivot(index="game", columns="seat", values="win").astype(int)
             .pipe(lambda w: w[rates.idxmax()] - w[rates.idxmin()]))
        lo, hi = sps.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=sps.sem(d))
        row = table.loc[("seat spread", value)]
        assert row["estimate"] == pytest.approx(rates.max() - rates.min(), rel=1e-12)
        assert (row["lo"], row["hi"]) == pytest.approx((lo, hi), rel=1e-9)


def test_tests_across_the_sweep_equal_scipy_and_statsmodels(bonus_sweep):
    sw = S.Sweep.open(bonus_sweep)
    cands = {c.subject: c for c in S.candidates(sw, S.metrics(sw))}
    # seats, bots, mean length; the toy always has a winner, so the no-winner share has nothing to test
    assert set(cands) == {"win rate, seat 0", "win rate, seat 1", "win rate, bot lucky", "win rate, bot plain", "mean turns"}
    seats = [r.table("seats") for r in sw.runs]
    lucky = [s.loc[s["bot"] == "lucky", "win"] for s in seats]
    counts = np.array([[w.sum(), len(w) - w.sum()] for w in lucky]).T
    assert cands["win rate, bot lucky"].p == pytest.approx(sps.chi2_contingency(counts, correction=False).pvalue,
                                                           rel=1e-9)
    turns = [r.table("games")["turns"].to_numpy(float) for r in sw.runs]
    ref = anova_oneway(np.concatenate(turns), np.repeat(np.arange(3), [len(t) for t in turns]), use_var="unequal")
    assert cands["mean turns"].p == pytest.approx(ref.pvalue, rel=1e-9)
    c = cands["win rate, bot lucky"]  # the bonus helps the lucky bot: lowest at 0, highest at 3
    assert (c.x_low, c.x_high) == ("0", "3") and c.effect == pytest.approx(lucky[0].mean() - lucky[1].mean())
    assert c.sentence().startswith("Sweep of lucky_bonus") and "at lucky_bonus=0 to" in c.sentence()


def test_an_unused_parameter_sweep_finds_no_change(toy, tmp_path):
    base = _sweep(toy, tmp_path / "mode", "mode", ["plain", "fancy"], 400)
    sw = S.Sweep.open(base)
    assert "mode" not in sw.runs[0].columns("cards")  # the directory name "mode=plain" is no column
    assert sw.positions()[1] == ["plain", "fancy"]  # categorical values: ticks by name
    cands = F.adjust(S.candidates(sw, S.metrics(sw)))
    assert cands and all(c.effect == 0 and c.p == pytest.approx(1.0) for c in cands)
    assert F.findings(cands) == []


def test_compare_q_values_are_multipletests_on_the_same_p_values(bonus_sweep):
    a, b = Run(bonus_sweep / "lucky_bonus=0"), Run(bonus_sweep / "lucky_bonus=3")
    table = C.compare(a, b)
    ok = table["p"].notna()
    assert list(table.loc[ok, "q"]) == list(multipletests(table.loc[ok, "p"], alpha=0.05, method="fdr_bh")[1])
    cands = C.candidates(table, "A vs B")
    assert [c.subject for c in cands] == list(table.loc[ok, "metric"])
    everything = F.candidates([("a", a), ("b", b)]) + cands
    F.adjust(everything)
    assert [c.q for c in everything] == list(multipletests([c.p for c in everything], method="fdr_bh")[1])
    lucky = next(c for c in cands if c.subject == "win rate, bot lucky")
    assert lucky.effect == table.set_index("metric").at["win rate, bot lucky", "A-B"] and lucky.effect < -0.1
    assert lucky.qualifies(0.01) and "is " in lucky.sentence() and "in A against" in lucky.sentence()


def _targets(parts):
    return {(part, s.title) for part, sections in parts for s in sections} | {(part, "") for part, _ in parts}


def test_sweep_report_parts_and_linked_findings(bonus_sweep):
    from reports.build import report_parts

    parts = report_parts([bonus_sweep])
    titles = [t for t, _ in parts]
    sweep_part = "Sweep of lucky_bonus (High card (test game): bonus)"
    assert titles[:4] == ["Verdict", "Findings", "Bot diagnostics", sweep_part] and len(titles) == 4 + 3 + 1  # a part per run, the appendix
    sections = [s.title for s in parts[3][1]]
    assert sections == ["Sweep of lucky_bonus", "Win rate by seat across lucky_bonus", "Win rate by bot across lucky_bonus",
                        "Seat spread across lucky_bonus", "Game length across lucky_bonus",
                        "Per-game flags across lucky_bonus", "Changes across the sweep"]
    items = [i for s in parts[1][1] for i in s.items]
    assert set(target for _, target in items) <= _targets(parts)
    sweep_items = [text for text, (part, _) in items if part == sweep_part]
    assert any("win rate, bot lucky goes from" in t for t in sweep_items)


def test_compare_report_parts(bonus_sweep):
    from reports.build import COMPARE_PART, report_parts

    a, b = bonus_sweep / "lucky_bonus=0", bonus_sweep / "lucky_bonus=3"
    parts = report_parts([a, b], compare=True)
    assert [t for t, _ in parts][:4] == ["Verdict", "Findings", "Bot diagnostics", COMPARE_PART]
    (section,) = parts[3][1]
    shown = section.tables[0][1].set_index("metric")
    table = C.compare(Run(a), Run(b)).set_index("metric")
    assert list(shown.columns) == ["A", "B", "A-B", "lo", "hi", "p", "q (BH)"] and shown["p"].equals(table["p"])
    items = [i for s in parts[1][1] for i in s.items]
    assert set(target for _, target in items) <= _targets(parts)
    assert any(t.startswith(f"{COMPARE_PART}: win rate, bot lucky is") for t, _ in items)
    with pytest.raises(ConfigError, match="--compare needs exactly two run directories"):
        report_parts([a], compare=True)


def test_cli_reports_a_sweep_directory(bonus_sweep, tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    for v in ("0", "3"):
        (small / f"lucky_bonus={v}").symlink_to(bonus_sweep / f"lucky_bonus={v}")
    res = cardlab("report", small, "--out", tmp_path / "rep")
    assert res.returncode == 0, res.stderr
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "Win rate by bot across lucky_bonus" in html and "Changes across the sweep" in html
    err = one_line_error(cardlab("report", small, "--compare", "--out", tmp_path / "x"))
    assert "--compare needs exactly two run directories" in err and not (tmp_path / "x").exists()


def test_a_sweep_names_the_values_that_play_identical_games(bonus_sweep, tmp_path):
    """The toy's unused ``mode`` plays the same games at both values: the command, sweep.csv and
    the report's sweep part say so; a parameter that changes the games is not named."""
    out = tmp_path / "mode"
    res = cardlab("sweep", "toy", "--param", "mode", "--values", "plain,fancy", "--games", 60, "--players", 2,
                  "--out", out)
    assert res.returncode == 0, res.stderr
    assert "note: mode plain and fancy play identical games: the parameter has no effect in this range" in res.stdout
    assert pd.read_csv(out / "sweep.csv", keep_default_na=False)["same games as"].tolist() == ["", "plain"]
    sw = S.Sweep.open(out)
    assert S.identical_values(sw.values, sw.runs) == [["plain", "fancy"]]
    text = S.sections(sw, S.metrics(sw), [], 1)[0].text
    assert "mode plain and fancy play identical games" in text
    bonus = S.Sweep.open(bonus_sweep)
    assert S.identical_values(bonus.values, bonus.runs) == []
    assert "identical games" not in S.sections(bonus, S.metrics(bonus), [], 1)[0].text
