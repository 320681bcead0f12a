"""A report a designer can trust line by line: every word label agrees with its numbers by the
one stated rule (``analysis.candidate.RULE``), the appendix lists exactly the listed findings,
no glossary code is shown raw in the verdict or the findings, and each measure has one
reference wherever it is shown."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from analysis import findings as F
from analysis.candidate import ALPHA, Candidate, label, level, percents, q_text
from tests.test_findings import table


def law(name: str, effect: float, aim: int = 0, run: str = "df") -> Candidate:
    """A law's effect on king retention, significant, with a tight interval around ``effect``."""
    return Candidate(run, "Rule cards as laws", f"law {name} (king retention)", "law", 0.5 + effect, 0.49 + effect,
                     0.51 + effect, 0.5, effect, 1e-12, head=f"with law {name} in force the king stays king in",
                     tail="of rounds", base="without it (reference: the base game)", diff_lo=effect - 0.005,
                     diff_hi=effect + 0.005, aim=aim)


# ---- every word label agrees with its numbers ------------------------------------------------

def test_the_one_rule_gives_exact_levels():
    assert [label(0.01, s) for s in (0.5, 1.0, 2.9, 3.0, 10)] == ["green", "amber", "amber", "red", "red"]
    assert label(ALPHA, 10) == "green" and label(np.nan, 10) == "green"  # not significant: never amber or red


def test_every_finding_and_only_the_findings_are_coloured():
    """Over constructed runs (a seat advantage, a turn cap, shared wins, fair tables) and laws:
    the candidates marked amber or red are exactly the findings, and each one's colour is the
    rule's on its q and size."""
    runs = [("biased", table(seat0_extra=0.2)), ("capped", table(turn_cap_rate=0.05)), ("fair", table()),
            ("slight", table(n_games=40_000, seat0_extra=0.004))]
    cands = F.candidates(runs) + [law("04 Up", 0.15), law("05 Small", 0.005), law("08 Down", -0.2, aim=-1)]
    found = F.findings(cands)
    assert {id(c) for c in found} == {id(c) for c in cands if level(c, F.MIN_EFFECT) != "green"}
    for c in cands:
        expected = label(c.q, c.practical(F.MIN_EFFECT)) if c.qualifies(F.MIN_EFFECT) else "green"
        assert level(c, F.MIN_EFFECT) == expected
        if level(c, F.MIN_EFFECT) != "green":  # significant: the printed interval of the difference excludes 0
            assert c.diff_lo > 0 or c.diff_hi < 0, c.subject
    assert {c.run for c in found} == {"biased", "capped", "df"}  # the fair and the slightly biased tables: none
    assert level(next(c for c in cands if c.subject == "law 05 Small (king retention)"), F.MIN_EFFECT) == "green"


def test_robustness_words_follow_the_intervals_and_the_practical_threshold():
    """A seat whose interval excludes 0 with q above the limit is 'significant in neither after
    adjustment'; a change of 0.3 pp, significant, is under the 1 pp threshold: green; one of 8 pp
    is red."""
    from analysis import robustness as R
    from analysis.kinds import Kind, frame

    def kind(rows):
        return Kind("seat", "Seat advantage", "advantage", "share", frame(rows), noun="seat", short="advantage")

    many = [{"item": f"seat {k}", "est": 0.0, "lo": -0.01, "hi": 0.01, "p": 0.9} for k in range(4, 30)]
    strong = kind([{"item": "seat 0", "est": 0.009, "lo": 0.002, "hi": 0.017, "p": 0.012},
                   {"item": "seat 1", "est": 0.004, "lo": 0.0035, "hi": 0.0045, "p": 1e-20},
                   {"item": "seat 2", "est": 0.08, "lo": 0.07, "hi": 0.09, "p": 1e-30}] + many)
    scripted = kind([{"item": "seat 0", "est": 0.009, "lo": -0.001, "hi": 0.019, "p": 0.07},
                     {"item": "seat 1", "est": 0.001, "lo": 0.0005, "hi": 0.0015, "p": 1e-9},
                     {"item": "seat 2", "est": 0.0, "lo": -0.01, "hi": 0.01, "p": 0.99}] + many)
    r = R.compare_kind(strong, scripted)
    t = R.kind_table(r).set_index("seat")
    assert t.loc["0", "verdict"] == "significant in neither after adjustment"
    assert t.loc["4", "verdict"] == "significant in neither"
    row = {x.item: x for x in r.table.itertuples()}
    assert R.change_level(row["seat 1"]) == "green" and row["seat 1"].diff_q < ALPHA and row["seat 1"].size < 1
    assert R.change_level(row["seat 2"]) == "red"
    lines = dict((text.split("'s")[0], lv) for lv, text in R.kind_marks(r)[1:])
    assert lines == {"Under strong play, seat 2": "red"}  # seat 1 holds (significant in both): no change line


@pytest.mark.parametrize("worth, lo, hi, action", [
    (-0.28, -0.45, -0.10, "keep: too weak by 0.28 VP, but its interval reaches within a quarter VP of even"),
    (-0.20, -0.35, -0.05, "keep: too weak by under a quarter VP"),
    (-0.40, -0.45, -0.30, "change the text: too weak, worth -0.40 VP, which no whole-VP change evens out"),
    (0.05, -0.1, 0.2, "keep")])
def test_a_precept_action_agrees_with_its_worth(worth, lo, hi, action):
    from analysis.games.daifugo_power import _action

    verdict = "even" if action == "keep" else "too weak"
    start = {"worth_vp": worth, "worth_vp_lo": lo, "worth_vp_hi": hi, "verdict": verdict}
    assert _action(3, start, {}, set(), 1) == action


def test_numbers_print_alike_at_both_ends():
    assert percents(0.0, 0.00004) == ["0.000%", "0.004%"] and percents(0.295, 0.31) == ["29.5%", "31.0%"]
    assert percents(0.0006, 0.012) == ["0.06%", "1.20%"] and percents(0.0, 1e-17, 0.00096) == ["0.00%", "0.00%", "0.10%"]
    assert [q_text(q) for q in (0.0, 0.0004, 0.0123, 0.5)] == ["q < 0.001", "q < 0.001", "q = 0.012", "q = 0.5"]
    c = F.candidates([("capped", table(turn_cap_rate=0.0))])[-1]
    assert c.sentence() == "capped: The turn cap ends 0.00% of games (95% CI 0.00%-0.10%); tolerated: 1.0%."


# ---- the appendix is the findings ------------------------------------------------------------

def test_the_appendix_rows_are_the_listed_findings_in_order_and_units():
    """20 laws to act on and 7 welcome ones: the list shows the 15 largest to act on, then the
    5 largest welcome ones, each group largest first; the appendix's first table is that list
    row for row, its effects in the sentences' units."""
    cands = [law(f"{k:02d} Up", 0.02 + 0.01 * k) for k in range(20)]
    cands += [law(f"{30 + k} Down", -0.03 - 0.02 * k, aim=-1) for k in range(7)]
    cands += F.candidates([("biased", table(seat0_extra=0.2))])
    design = F.sections_from(cands)[0]
    rows = F.listed_table(cands)
    listed = rows[rows["list"] == "Design issues"]
    assert len(design.items) == len(listed) == F.MAX_LISTED + F.MAX_WELCOME
    for (sentence, _), r in zip(design.items, listed.itertuples()):
        assert sentence.startswith(f"{r.run}: ") and r.test.split(" (")[0] in sentence
        assert f"{r.effect.replace(' pp', '')} percentage points" in sentence or "ends" in sentence
    times = listed["times its threshold"].astype(float).to_numpy()
    act, welcome = times[:F.MAX_LISTED], times[F.MAX_LISTED:]
    assert (np.diff(act) <= 0).all() and (np.diff(welcome) <= 0).all()
    assert list(listed["test"])[F.MAX_LISTED] == "law 36 Down (king retention)"  # the largest welcome one is shown
    assert "The 15 largest of the 25 to act on are listed; the other 10 are in" in design.text  # 20 laws, 4 seats, shared wins
    appendix = F.appendix(cands)
    assert appendix.tables[0][1].equals(rows)
    assert rows.iloc[0]["effect"] == "+21.0 pp" and rows.iloc[0]["95% interval of the difference"] == "+20.5 to +21.5 pp"
    assert rows.iloc[0]["times its threshold"] == "21.0" and rows.iloc[0]["q (BH)"] == "< 0.001"


# ---- a small daifugo report: words and references -----------------------------------------

@pytest.fixture(scope="module")
def madness(tmp_path_factory):
    """2,000 madness games (enough for design findings), its control run (laws off) and a run of the
    same rules by greedy bots without a control run."""
    from sim import runner
    from sim.games.daifugo import GAME

    d = tmp_path_factory.mktemp("truth")
    options = runner.RunOptions(batch_size=1000, progress=False)
    over = {"mode": "madness"}
    runner.run(GAME.make_config(seed=3, overrides=over), 2000, d / "madness", options)
    runner.run(GAME.make_config(seed=3, overrides={**over, "laws": "off"}), 2000, d / "madness-base", options)
    runner.run(GAME.make_config(seed=3, bots=["greedy"] * 4, overrides=over), 300, d / "greedy", options)
    return d


def test_no_glossary_code_is_raw_in_the_verdict_or_the_findings(madness):
    from analysis.glossary import TERMS
    from reports.build import report_parts

    parts = dict(report_parts([madness / "madness", madness / "madness-base"]))
    assert "Daifugō, madness" in parts and not any("Cthulhu variant" in t for t in parts)  # a short run title
    text = " ".join(s.text + " ".join(t for _, t in s.marks) + " ".join(t for t, _ in s.items)
                    for title in ("Verdict", "Findings") for s in parts[title])
    assert "play limit" in text  # the play-guard line is there, in words
    assert [code for code in TERMS if code in text] == []


def test_each_law_measure_has_one_reference(madness):
    """With the control run in the report every place that shows a law's effect measures it
    against the base game; without it, against the other laws' average; a robustness pair whose
    runs differ in that leaves the law effects out."""
    from analysis import robustness as R
    from analysis.games import attach_controls
    from analysis.games import daifugo as D
    from analysis.games.daifugo_feel import law_reference
    from analysis.load import Run

    run, base, greedy = Run(madness / "madness"), Run(madness / "madness-base"), Run(madness / "greedy")
    for control, ref in ((base, "the base game"), (None, "the other laws' average")):
        run.__dict__.pop("_rule_card_tables", None)
        run.control = control
        cands = F.candidates([("df", run)])
        F.adjust(cands)
        laws = [c for c in cands if c.kind == "law"]
        assert laws and {c.reference_words() for c in laws} == {ref}
        rows = F.listed_table(cands)
        assert set(rows[rows["test"].str.startswith("law ")]["against"]) <= {ref}
        sections = {s.title: s for s in D.sections(run)}
        assert all(f"against {ref}" in c for c, _ in sections[D.LAW_TITLE].tables)
        assert law_reference(control).startswith(ref)
        marks = [t for t in (m.text for m in D.verdict_marks(run, cands, F.MIN_EFFECT)) if t.startswith("With law")]
        assert all(f"(reference: {ref})" in t for t in marks)
        kinds = [k for k in R.kinds(run, control is not None) if k.key.startswith("law")]
        assert kinds and all(k.title.startswith(f"Laws against {ref}") for k in kinds)
    attach_controls([run, base, greedy])
    assert run.control is base and greedy.control is None
    results = R.robustness(greedy, run)
    assert [r.kind.key for r in results if r.kind.key.startswith("law")] == []
    assert "Law effects are left out of this comparison" in R.mixed_reference(greedy, run)
