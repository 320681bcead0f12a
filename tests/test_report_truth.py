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
    from sim.run import runner
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


def test_suggest_measures_a_law_against_the_report_reference(madness):
    """The law lines that cardlab suggest checks carry the verdict's figure and reference: with the
    control run the base game (the joint model of the report's law section), without it the other
    laws' average; the verdict warns when an advice measured a line against another reference."""
    from analysis.games import daifugo as D
    from analysis.games import daifugo_laws as L
    from analysis.load import Run
    from analysis.verdict import other_reference

    run, base = Run(madness / "madness"), Run(madness / "madness-base")
    for control, words in ((base, L.BASE_REFERENCE), (None, L.OTHERS_REFERENCE)):
        run.__dict__.pop("_rule_card_tables", None)
        run.control = control
        eff = D.laws(run).set_index("id")
        lines = {ln["line"]: ln for ln in L.law_lines(run)}
        for card, row in eff.iterrows():
            king = lines[L.line_name(card, "king")]
            assert king["value"] == pytest.approx(row["king_diff"]) and king["measured"] == words
            assert lines[L.line_name(card, "plays")]["value"] == pytest.approx(row["plays_diff"] / row["plays_without"])
        found = {"line": "law:04:king", "measured": words}
        assert other_reference(run, "law:04:king", found) == ""
        other = L.OTHERS_REFERENCE if control is not None else L.BASE_REFERENCE
        warning = other_reference(run, "law:04:king", {**found, "measured": other})
        assert warning.startswith(f"Not the same reference: the figure above is measured {words}, the check below {other}")
        assert other_reference(run, "seat_spread", {"measured": other}) == ""  # not a law line: no reference of its own


def test_each_heat_map_outlines_only_the_pairs_flagged_for_its_measure():
    from analysis.games.daifugo import pair_marks

    flagged = pd.DataFrame({"a": [2, 6, 7], "b": [13, 17, 13], "flag": [
        "round length 18.1 plays vs 19.2 expected from the two cards alone, q = 9.2e-06",
        "seat spread 11.6 pp vs 0.4 pp in all rounds, q = 0.0038",
        "seat spread 9.0 pp vs 0.4 pp in all rounds, q = 0.01; round length 17.4 plays vs 19.0 expected, q = 3e-10"]})
    assert pair_marks(flagged, "seat spread") == [(5, 16), (6, 12), (16, 5), (12, 6)]
    assert pair_marks(flagged, "round length") == [(1, 12), (6, 12), (12, 1), (12, 6)]


# ---- faking-sick: calls per caller ------------------------------------------------------------

def calls_run(bots=("bluffer", "random", "honest", "caller"), pool=(0, 2, 2, 1, 1, 1, 1)):
    """A stand-in run of known counts: seat 0 made 50 judged calls, 20 on VIR (code 0); seat 1 made
    350, 10 on VIR; the random bot made 100 judged calls, the others 300 between them."""
    import duckdb

    from sim.games.faking_sick import GAME

    calls = pd.DataFrame({"card": [0, 1, 0, 2], "distance": 1, "caller_seat": [0, 0, 1, 1],
                          "calls": [20, 30, 10, 340], "successes": [0, 9, 0, 100]})
    seats = pd.DataFrame({"bot": ["random", "bluffer", "honest", "caller"], "calls_made": [100, 100, 100, 100]})
    con = duckdb.connect()
    con.register("calls", calls)
    con.register("seats", seats)
    config = SimpleNamespace(bots=list(bots), params={"banned_pool": list(pool)})
    return SimpleNamespace(sql=lambda q: con.execute(q).df(), config=config, game=GAME)


def test_calls_on_a_never_right_type_are_shared_out_per_caller():
    """Each caller's share is of its own judged calls: the random bot (the only one without the ban
    model) made all 30 calls on VIR, 30 of its 100 (Wilson); the model bots none, with no interval
    (by their model, not counted); each seat its own count: 20 of 50 and 10 of 350."""
    from analysis.games.faking_sick import calls_by_caller
    from sim.run.stats import wilson

    t = calls_by_caller(calls_run(), "VIR").set_index("caller")
    assert t.loc["seat 0", "share on VIR"] == pytest.approx(0.4) and t.loc["seat 1", "share on VIR"] == pytest.approx(10 / 350)
    assert (t.loc["seat 0", "lo"], t.loc["seat 0", "hi"]) == pytest.approx(tuple(float(v) for v in wilson(20, 50)))
    assert t.loc["bot random", "calls on VIR"] == 30 and t.loc["bot random", "share on VIR"] == pytest.approx(0.3)
    assert (t.loc["bot random", "lo"], t.loc["bot random", "hi"]) == pytest.approx(tuple(float(v) for v in wilson(30, 100)))
    for bot in ("bluffer", "honest", "caller"):
        assert t.loc[f"bot {bot}", "calls on VIR"] == 0 and np.isnan(t.loc[f"bot {bot}", "lo"])
    # two bots without the ban model: whose calls they are is not recorded, so no bot's share is given
    two = calls_by_caller(calls_run(bots=("random", "random", "honest", "caller")), "VIR")
    assert two["basis"].str.startswith("counted").sum() == 2
    # a type in a banned pool (FEV): a model bot may call it too, so no bot's share is known
    pooled = calls_by_caller(calls_run(), "FEV").set_index("caller")
    assert pooled.loc["bot random", "basis"] == "not recorded by bot" and np.isnan(pooled.loc["bot random", "share on FEV"])
    assert pooled.loc["seat 0", "share on FEV"] == pytest.approx(30 / 50)


def test_the_futile_call_diagnostic_is_the_callers_not_a_pooled_share():
    from analysis.games.faking_sick import bot_diagnostics

    calls = calls_run()
    rows = pd.DataFrame({"card": [0, 1, 1], "distance": 1, "caller_seat": [0, 0, 1],
                         "calls": [500, 300, 200], "successes": [0, 90, 60]})
    import duckdb

    con = duckdb.connect()
    con.register("calls", rows)
    con.register("seats", pd.DataFrame({"bot": ["random", "honest"], "calls_made": [800, 200]}))
    run = SimpleNamespace(sql=lambda q: con.execute(q).df(), config=SimpleNamespace(
        bots=["random", "honest", "random", "honest"], params={"banned_pool": [0, 2, 2, 1, 1, 1, 1]}), game=calls.game)
    (d,) = bot_diagnostics(run, "Virus — faking-sick mode")
    assert (d.bot, d.count, d.n, d.rate) == ("random", 500, 800, pytest.approx(0.625))
    assert "by bot: random 62.5% (" in d.sentence and "of its 800 judged calls; honest none" in d.sentence
    assert "every bot's together" not in d.sentence and "by seat: seat 0 62.5% (" in d.sentence
    assert "seat 1 0.0% (0.0%-1.9%) of its 200 judged calls" in d.sentence


# ---- the HTML opens on the verdict ----------------------------------------------------------

def test_the_html_opens_on_one_verdict_card_per_run_beside_a_sticky_contents(madness):
    """The first thing after the title is the verdict: one card per run with every coloured line,
    its prescription under it and what to change; the contents are a side bar that stays in view
    (sticky), and the verdict's run sections are not printed a second time."""
    import re

    from reports.build import render_html, report_parts, split_line

    parts = report_parts([madness / "madness", madness / "madness-base"])
    html = render_html(parts)
    verdict = dict(parts)["Verdict"]
    page = next(s for s in verdict if s.title == "Daifugō, madness")
    assert re.search(r"nav\.toc \{ position: sticky; top: 0; height: 100vh; overflow-y: auto;", html)
    body = html[html.index("<main>"):]
    assert body.index('<h1 id="verdict"') < body.index('<div class="cards">') < body.index("<h2") \
        and body.count('<section class="card"') == 1
    card = body[body.index('<section class="card"'):body.index("</section>")]
    assert 'id="verdict-dai-fug-madness"' in card or 'id="verdict-daifug-madness"' in card
    for level, text in page.marks:
        head, todo = split_line(text)
        assert f'<span class="mark {level}" title="{level}"></span>{escape(head)}' in card
        assert not todo or f'<span class="do">{escape(todo)}</span>' in card
    assert escape(page.text) in card and body.count(escape(page.marks[1][1][:60])) == 1  # not repeated below


def escape(text: str) -> str:
    import markupsafe

    return str(markupsafe.escape(text))


def test_a_verdict_line_splits_at_its_prescription():
    from reports.build import split_line

    assert split_line("Seat order matters: +2 pp. Prescription: not searched yet (cardlab suggest X).") == (
        "Seat order matters: +2 pp.", "Prescription: not searched yet (cardlab suggest X).")
    assert split_line("Games always end.") == ("Games always end.", "")
    assert split_line("A law raises it. Not the same reference: a. No lever in range moves this line.") == (
        "A law raises it.", "Not the same reference: a. No lever in range moves this line.")


def test_each_law_measure_has_one_stated_aim_for_every_colour():
    """King retention and both spreads: lower is better (a fall of any size stays in suggest's band, a
    welcome finding in the verdict); round length: neither way (its band is symmetric)."""
    import math

    from analysis.games import daifugo as D
    from analysis.games import daifugo_laws as L
    from analysis.games import daifugo_rule_cards as RC

    assert D.LAW_TARGET is RC.LAW_TARGET and set(RC.LAW_TARGET) == set(L.MEASURES)
    for measure, aim in RC.LAW_TARGET.items():
        lo, hi = L.band(measure)
        assert (lo == -math.inf) == (aim == -1) and hi > 0
        assert aim == -1 or lo == -hi
    welcome = law("04 Down", -0.05, aim=RC.LAW_TARGET["king"])
    assert welcome.welcome and D.law_level(welcome, F.MIN_EFFECT) == "green"
