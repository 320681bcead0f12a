"""The words of a prescription (``analysis.prescriptions``) and the verdict line that carries it
(``analysis.verdict.prescribed``), on hand-made advice with known numbers."""

from types import SimpleNamespace

from analysis.candidate import Mark
from analysis.prescriptions import sentence, setting, summary
from analysis.verdict import prescribed


def _est(v, lo, hi):
    return {"value": v, "lo": lo, "hi": hi}


def _pop(before, after, lo, hi, better=True, worse=False, in_band=True):
    return {"before": _est(before, 0, 0), "after": _est(after, 0, 0), "change": _est(after - before, lo, hi),
            "in_band": in_band, "better": better, "worse": worse}


SEAT = {"game": "g", "line": "seat_spread", "words": "seat order", "status": "prescribed", "band": [float("-inf"), 0.01],
        "set": {"first_player": "random", "coin": True}, "before": _est(0.013, 0.009, 0.017),
        "after": _est(-0.0004, -0.005, 0.001), "games": 100000,
        "populations": {"scripted": _pop(0.016, -0.0005, -0.023, -0.012),
                        "learned": _pop(0.042, 0.002, -0.047, -0.035)},
        "holds_for": "all",
        "side_effects": [{"line": "mean_turns", "words": "game length (turns)", "before": _est(42.9, 42.8, 43.0),
                          "after": _est(43.1, 43.0, 43.2), "in_band": True}]}


def test_a_prescription_names_its_setting_its_effect_its_band_its_populations_and_its_side_effects():
    assert setting(SEAT) == "--set first_player=random --set coin=true"
    assert sentence(SEAT) == (
        "Prescription: --set first_player=random --set coin=true takes it from 1.3 pp (95% CI 0.9 pp to 1.7 pp) to "
        "-0.04 pp (95% CI -0.5 pp to 0.1 pp) on 100,000 fresh games (band: at most 1.0 pp); holds for every "
        "population played (scripted: 1.6 pp -> -0.05 pp (change -1.7 pp, 95% CI -2.3 to -1.2); learned: 4.2 pp -> "
        "0.2 pp (change -4 pp, 95% CI -4.7 to -3.5)). Other lines: game length (turns) 42.9 -> 43.1.")
    law = {**SEAT, "line": "law:04:plays", "measured": "against the rounds without it", "before": _est(0.2, 0.1, 0.3),
           "after": _est(0.03, 0.0, 0.06), "populations": {}, "side_effects": [], "band": [-0.05, 0.05]}
    assert sentence(law) == ("Prescription: --set first_player=random --set coin=true takes it (measured against the "
                             "rounds without it) from 20.0% (95% CI 10.0% to 30.0%) to 3.0% (95% CI 0.0% to 6.0%) on "
                             "100,000 fresh games (band: -5.0% to 5.0%).")


def test_populations_that_disagree_make_no_recommendation_and_closest_is_said_as_such():
    split = {**SEAT, "holds_for": "disagree", "populations": {
        "scripted": SEAT["populations"]["scripted"], "learned": _pop(0.04, 0.05, 0.002, 0.02, False, True, False)}}
    assert sentence(split).startswith("Not advised (the populations disagree): --set first_player=random")
    assert "the populations disagree: not a recommendation (scripted: 1.6 pp -> -0.05 pp" in sentence(split)
    closest = {**SEAT, "status": "closest"}
    assert sentence(closest).startswith("No lever in range brings it into its band; closest: --set first_player")
    short = {**SEAT, "populations": {**SEAT["populations"], "learned": _pop(0.076, 0.049, -0.034, -0.021, in_band=False)}}
    assert ("holds for every population played; it stays outside its band for learned (scripted: 1.6 pp -> "
            "-0.05 pp") in sentence(short)
    assert "stays outside" not in sentence(SEAT)
    quiet = {**SEAT, "status": "not advised", "holds_for": "none", "reason": "no population gained beyond noise"}
    assert sentence(quiet).startswith("Not advised (no population gained beyond noise): --set first_player=random")
    near = {**SEAT, "status": "closest", "reason": "it leaves seat order just out of its band (within noise)"}
    assert sentence(near).startswith("No lever in range brings it into its band; closest (it leaves seat order just "
                                     "out of its band (within noise)): --set first_player=random")
    none = {**SEAT, "status": "none", "set": {}, "reason": "the game declares no lever for it"}
    assert sentence(none) == "No lever in range moves this line: the game declares no lever for it."


def test_the_verdict_line_carries_its_prescription_or_says_why_there_is_none():
    run = SimpleNamespace(path="runs/x", advice={"lines": [{"line": "rate:turn_cap", "words": "the cap", "status": "in"}],
                                                 "prescriptions": [SEAT]})
    red = Mark("red", "Seat order matters.", line="seat_spread")
    assert prescribed(run, red) == " " + sentence(SEAT)
    assert prescribed(run, Mark("green", "Fine.", line="seat_spread")) == ""
    assert prescribed(run, Mark("amber", "Caps.", line="rate:turn_cap")) == (
        " Prescription: none searched: on its own measure (the cap) this line is in its band.")
    assert prescribed(run, Mark("amber", "Law.", line="law:04:king")).startswith(" No lever in range moves this line")
    run.advice["lines"].append({"line": "law:24:king", "words": "law 24", "status": "out"})
    assert prescribed(run, Mark("red", "Law.", line="law:24:king")) == (
        " Prescription: not searched (the advice was asked for other lines or levers only).")
    assert prescribed(SimpleNamespace(path="runs/x", advice=None), red) == (
        " Prescription: not searched yet (cardlab suggest runs/x --out DIR, then give DIR to the report).")


def test_the_summary_lists_every_line_then_every_prescription():
    advice = {"lines": [{"line": "seat_spread", "words": "seat order", "value": 0.013, "lo": 0.009, "hi": 0.017,
                         "status": "out"}], "prescriptions": [SEAT]}
    advice["lines"].append({"line": "rate:turn_cap", "words": "the cap", "value": 0, "lo": 0, "hi": 0, "status": "in"})
    assert summary(advice) == ["seat order: 1.3 pp (95% CI 0.9 pp to 1.7 pp) - out of its band",
                               "1 of 2 rule lines are in their band.", "seat order: " + sentence(SEAT)]
    assert summary({"lines": [], "prescriptions": []})[-1] == "Every rule line is in its band: nothing to prescribe."


def test_what_to_change_names_the_checked_lever_and_only_when_it_may_be_advised():
    from analysis.changes import checked

    run = SimpleNamespace(path="runs/x", advice={"lines": [], "prescriptions": [SEAT]})
    assert checked(run, "seat_spread") == "set first_player=random coin=true (checked by playing it: 1.3 pp -> -0.04 pp)"
    run.advice["prescriptions"] = [{**SEAT, "status": "closest"}]
    assert checked(run, "seat_spread").startswith("the closest lever in range is first_player=random")
    for status, holds in (("none", "all"), ("not advised", "none"), ("prescribed", "disagree")):
        run.advice["prescriptions"] = [{**SEAT, "status": status, "holds_for": holds}]
        assert checked(run, "seat_spread") == ""
    assert checked(SimpleNamespace(advice=None), "seat_spread") == ""
