"""Daifugō's verdict lines and its sentence of what to change, on constructed tests with known
effects: the checked VP advice (or the uneven precepts and how to check them), the law effects against
their measure's target direction, and nothing for an effect that goes the way it should."""

from pathlib import Path
from types import SimpleNamespace

import pytest

from analysis.candidate import Candidate
from analysis.games import daifugo as D

REF = "without it (reference: the base game)"


def precept(card: str, holder: float, others: float) -> Candidate:
    return Candidate("df", D.PRECEPT_TITLE, f"precept {card}", "precept", holder, holder - 0.01, holder + 0.01, others,
                     holder - others, 1e-9, q=1e-8, head=f"the holder of precept {card} wins", tail="of games",
                     base="for the other players of the same games")


def law(card: str, measure: str, with_: float, without: float, unit: str = "share") -> Candidate:
    effect = with_ - without if unit == "share" else with_ / without - 1
    return Candidate("df", D.LAW_TITLE, f"law {card} ({measure})", "law", with_, with_ - 0.01, with_ + 0.01, without,
                     effect, 1e-9, q=1e-8, head=f"with law {card} in force {HEADS[measure]}",
                     tail="of rounds" if measure == "king" else "", base=REF, unit=unit, aim=D.LAW_TARGET.get(measure, 0))


HEADS = {head[0]: head[1] for head in D.LAW_MEASURES}


CANDS = [precept("07 Slip-Through", 0.34, 0.25), precept("03 Tax", 0.21, 0.25), precept("05 Even", 0.255, 0.25),
         law("02 Crown", "king", 0.45, 0.40), law("04 Thaw", "king", 0.30, 0.40),
         law("08 Long", "plays", 11.2, 10.0, unit="plays")]


VP = {"answer": {"changes": {"6": 0}, "text_changes": [3, 10], "sentence": "Print 06 Slip-Through at 0 VP (now 1)."}}


def advice_file(precepts: dict) -> dict:
    """``cardlab suggest``'s advice holding the precept VP check ``precepts`` (its line's prescription)."""
    from analysis.games.daifugo_vp import LINE

    return {"prescriptions": [{"line": LINE, "precepts": precepts}]}


@pytest.fixture
def run():
    return SimpleNamespace(path=Path("df"), advice=advice_file(VP))


def test_what_to_change_gives_the_checked_vp_advice_and_the_laws_against_their_target(run):
    assert D.what_to_change(run, CANDS, 0.01) == (
        "What to change: print precept 06 Slip-Through at 0 VP (checked by playing it); change the text of precepts "
        "03 Ten Discard, 10 Pull-Back (VP cannot even them out); law 02 Crown raises king retention by 5.0 pp (king "
        "retention up means a lead snowballs; aim lower); law 08 Long makes rounds 12% longer (aim nearer the base "
        "game unless that is the law's purpose).")
    from analysis.games.daifugo_vp import LINE

    vp = [m for m in D.verdict_marks(run, CANDS, 0.01) if m.line == LINE]  # its prescription: the checked advice
    assert [(m.level, m.text) for m in vp] == [("amber", "The precepts are uneven (their holder's edges above).")]


def test_without_checked_advice_the_uneven_precepts_are_named_with_the_command_that_checks_them():
    run = SimpleNamespace(path=Path("df"), advice=None)
    assert D.what_to_change(run, CANDS[:3], 0.01) == (
        "What to change: even out the precepts 07 Slip-Through (+9.0 pp), 03 Tax (-4.0 pp) by the holder's edge "
        "(their VPs, checked by playing them: cardlab suggest df --out df-suggested).")


def test_a_law_effect_in_its_target_direction_is_no_issue(run):
    marks = {m.text.split(" in force")[0]: m.level for m in D.verdict_marks(run, CANDS, 0.01) if "law" in m.text}
    assert marks == {"with law 02 Crown": "red", "with law 08 Long": "amber", "with law 04 Thaw": "green"}
    assert "04 Thaw" not in D.what_to_change(run, CANDS, 0.01)


def test_no_rule_issue_when_every_card_is_even():
    run = SimpleNamespace(path=Path("df"), advice=None)
    assert D.what_to_change(run, [precept("05 Even", 0.255, 0.25), law("04 Thaw", "king", 0.30, 0.40)], 0.01) == \
        "No rule issue found."


def test_the_sentence_names_the_four_largest_edges_and_counts_the_rest():
    run = SimpleNamespace(path=Path("df"), advice=None)
    cards = [precept(f"{i:02d} Card", 0.25 + i / 100, 0.25) for i in range(1, 7)]  # edges +1 .. +6 pp
    assert D.what_to_change(run, cards, 0.01) == (
        "What to change: even out the precepts 06 Card (+6.0 pp), 05 Card (+5.0 pp), 04 Card (+4.0 pp), 03 Card "
        "(+3.0 pp) and 2 more by the holder's edge (their VPs, checked by playing them: cardlab suggest df --out "
        "df-suggested).")


def test_advice_on_a_finer_point_scale_says_so_where_it_names_the_vp():
    points = {"rank_points_1": 6, "rank_points_2": 4, "rank_points_3": 2, "rank_points_4": 0, "capital_fall_bonus": 2}
    answer = {**VP["answer"], "changes": {"6": 0, "12": 3}}
    run = SimpleNamespace(path=Path("df"), advice=advice_file({**VP, "answer": answer, "scale": 2, "points": points}),
                          config=SimpleNamespace(players=4))
    assert D.what_to_change(run, CANDS[:3], 0.01).startswith(
        "What to change: on a point scale 2 times finer (rank points 6/4/2/0, capital-fall bonus 2, every precept VP "
        "times 2), print precepts 06 Slip-Through at 0 VP, 12 Collusion at 3 VP (checked by playing it); change the text")
