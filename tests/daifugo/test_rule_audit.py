"""Rule audit: spec rulings beyond the §8 scenarios, through ``GAME.scenario`` (reference engine).

Each test cites the spec section / DEC id it checks (spec: daifugo-rule-cards.md).
"""

import pytest

from sim.kit.config import ConfigError
from sim.games.daifugo import GAME

from .test_scenarios import F0, F1, F2, F3, PASS, P, illegal, legal, run


def Q(p, *cards, **kw):
    """A play tagged with the deciding seat."""
    return {"player": p, "play": list(cards), **kw}


def X(p):
    return {"player": p, "pass": True}


# ---------------------------------------------------------------- §3 combinations and strength
def test_joker_single_only_on_singles():
    """§3.3 rule 1 / §3.4: a Joker single cannot be played onto a pair; a wild joker can join a pair."""
    hands = [F0, ["Jk", "S9", *F1], F2, F3]
    top = {"cards": ["S5", "H5"], "owner": 0}
    assert "type and count" in illegal(run(hands, [Q(1, "Jk")], top=top, turn=1))
    out = legal(run(hands, [Q(1, "S9", "Jk")], top=top, turn=1))
    assert out["state"]["top"] == {"cards": ["S9", "Jk"], "as": ["H9"], "owner": 1}


def test_lone_joker_wild_single():
    """§3.1 / DEC-23: a lone joker may be a wild single of its represented rank (any suit);
    it is beaten by a stronger single; with ``lone_joker_wild`` off only the Joker single exists."""
    hands = [["S10", *F0], ["Jk", *F1], ["HK", *F2], F3]
    assert "does not beat" in illegal(run(hands, [Q(0, "S10"), Q(1, "Jk", **{"as": ["D9"]})], turn=0))
    out = run(hands, [Q(0, "S10"), Q(1, "Jk", **{"as": ["DJ"]}), Q(2, "HK")], turn=0)
    legal(out)
    assert out["state"]["top"] == {"cards": ["HK"], "owner": 2}
    out = run(hands, [Q(0, "S10"), Q(1, "Jk", **{"as": ["DJ"]})], turn=0, params={"lone_joker_wild": False})
    assert "lone joker" in illegal(out)
    legal(run(hands, [Q(0, "S10"), Q(1, "Jk")], turn=0, params={"lone_joker_wild": False}))


def test_wild_joker_any_suit_and_canonical_without_as():
    """§3.1 / DEC-24: a wild joker may represent any missing suit (not only the canonical one);
    without ``as`` the canonical reading is used."""
    hands = [F0, ["Jk", "S9", *F1], F2, F3]
    top = {"cards": ["H6"], "owner": 0}
    out = legal(run(hands, [Q(1, "Jk", **{"as": ["H9"]})], top=top, turn=1, laws=[14]))
    assert out["state"]["suit_lock"] == ["H"]  # ♥6 then Jk=♥9: the designated suit forms the lock
    out = legal(run(hands, [Q(1, "Jk", **{"as": ["C9"]})], top=top, turn=1, laws=[14]))
    assert out["state"]["suit_lock"] == []
    out = legal(run(hands, [Q(1, "S9", "Jk")], top={"cards": ["S5", "H5"], "owner": 0}, turn=1))
    assert out["state"]["top"]["as"] == ["H9"]


def test_stairs_with_joker_while_holding_the_card():
    """§3.1: a joker may stand in stairs for a card the player still holds."""
    hands = [["S3", "S4", "S5", "Jk", *F0], F1, F2, F3]
    out = legal(run(hands, [Q(0, "S3", "Jk", "S5", **{"as": ["S4"]})], laws=[21], turn=0))
    assert "S4" in out["state"]["hands"][0] and "Jk" in out["state"]["field"] + out["state"]["discard"]


def test_not_a_combination_is_illegal():
    """§3.1: cards that form no single, set or stairs are an illegal play, not malformed input."""
    hands = [["S3", "H4", *F0], F1, F2, F3]
    assert "do not form" in illegal(run(hands, [Q(0, "S3", "H4")], turn=0))
    assert "do not form" in illegal(run(hands, [Q(0, "S3", "H4")], turn=0, laws=[21]))


def test_stairs_reversed_compare_and_no_wrap():
    """§3.3 rule 2 / QA-21.1 under revolution: stairs must be lower by at least one step;
    §3.1 CONV-A: no wrap-around (A-2-3 is not stairs)."""
    hands = [["HK", "DK"], ["C3", "C4", "C5", "D4", "D5", "D6", "HQ"], ["CQ", "DQ"], ["SA", "S2", "S3", "CK"]]
    top = {"cards": ["S4", "S5", "S6"], "owner": 0}
    legal(run(hands, [Q(1, "C3", "C4", "C5")], laws=[21], top=top, turn=1, rev=True))
    assert "does not beat" in illegal(run(hands, [Q(1, "D4", "D5", "D6")], laws=[21], top=top, turn=1, rev=True))
    assert "do not form" in illegal(run(hands, [Q(3, "SA", "S2", "S3")], laws=[21], turn=3))


# ---------------------------------------------------------------- §3.5 revolution, card 07
def test_three_card_counter_revolution():
    """§4.7 / §3.5: under law 07 a 3-card set on a 3-card revolution is a counter-revolution."""
    hands = [["S6", "H6", "D6", *F0], ["S5", "H5", "D5", *F1], F2, F3]
    out = legal(run(hands, [Q(0, "S6", "H6", "D6"), Q(1, "S5", "H5", "D5")], laws=[7], turn=0))
    assert out["state"]["rev"] is False and out["rounds"] == [] and "counter-revolution" in out["events"]


def test_07_precept_with_stairs_law():
    """§4.7 precept + §4.21 law: only the holder's 3-card stairs revolt (QA-07.1)."""
    hands = [["S3", "S4", "S5", *F0], ["C4", "C5", "C6", *F1], F2, F3]
    out = legal(run(hands, [Q(0, "S3", "S4", "S5")], laws=[21], precepts={"07": 1}, turn=0))
    assert out["state"]["rev"] is False
    out = legal(run(hands, [Q(0, "S3", "S4", "S5"), Q(1, "C4", "C5", "C6")], laws=[21], precepts={"07": 1},
                    turn=0))
    assert "revolution" in out["events"]


def test_07_optional_revolution_decision():
    """DEC-35 variant ``three_card_revolution_optional``: the holder is asked; declining keeps the order."""
    hands = [["S6", "H6", "D6", *F0], F1, F2, F3]
    params = {"three_card_revolution_optional": True}
    out = run(hands, [Q(0, "S6", "H6", "D6")], laws=[7], turn=0, params=params)
    assert out["waiting"] == {"player": 0, "decision": "revolt", "legal": [{"revolt": False}, {"revolt": True}]}
    out = legal(run(hands, [Q(0, "S6", "H6", "D6"), {"revolt": False}], laws=[7], turn=0, params=params))
    assert out["state"]["rev"] is False
    out = legal(run(hands, [Q(0, "S6", "H6", "D6"), {"revolt": True}], laws=[7], turn=0, params=params))
    assert out["state"]["rev"] is True
    # a 4-card set still revolts without asking
    hands4 = [["S6", "H6", "D6", "C6", *F0], F1, F2, F3]
    out = legal(run(hands4, [Q(0, "S6", "H6", "D6", "C6")], laws=[7], turn=0, params=params))
    assert out["state"]["rev"] is True


def test_revolution_finish_not_forbidden():
    """DEC-26: finishing with a revolution is not forbidden; the variant makes it forbidden."""
    hands = [["S6", "H6", "D6", "C6"], F1, F2, F3]
    four = [Q(0, "S6", "H6", "D6", "C6")]
    out = legal(run(hands, four, turn=0))
    assert out["state"]["top_list"] == [0] and out["state"]["rev"] is True
    out = legal(run(hands, four, turn=0, params={"revolution_finish_forbidden": True}))
    assert out["state"]["bottom_list"] == [0]


# ---------------------------------------------------------------- card 09
def test_eight_cut_variants():
    """§4.9: four 8s revolt and cut (rev persists); stairs with an 8 cut; a joker as 8 cuts (DEC-24),
    not with ``wild_triggers_rank_effects`` off; the cut player leads again."""
    out = legal(run([["S8", "H8", "D8", "C8", *F0], F1, F2, F3], [Q(0, "S8", "H8", "D8", "C8")], laws=[9], turn=0))
    st = out["state"]
    assert st["rev"] is True and st["top"] is None and st["turn"] == 0 and out["waiting"]["player"] == 0
    out = legal(run([["H6", "H7", "H8", *F0], F1, F2, F3], [Q(0, "H6", "H7", "H8")], laws=[9, 21], turn=0))
    assert out["state"]["top"] is None and out["state"]["turn"] == 0
    top = {"cards": ["H6"], "owner": 0}
    hands = [F0, ["Jk", *F1], F2, F3]
    out = legal(run(hands, [Q(1, "Jk", **{"as": ["C8"]})], laws=[9], top=top, turn=1))
    assert out["state"]["top"] is None and out["state"]["turn"] == 1
    out = legal(run(hands, [Q(1, "Jk", **{"as": ["C8"]})], laws=[9], top=top, turn=1,
                    params={"wild_triggers_rank_effects": False}))
    assert out["state"]["top"] == {"cards": ["Jk"], "as": ["C8"], "owner": 1}


def test_eight_cut_clears_locks_and_passes():
    """§2.11.5: the eight cut flows the field: locks and pass flags cleared, revolution kept."""
    hands = [["S5", *F0], ["S7", *F1], ["S8", "H3", *F2], ["C9", *F3]]
    d = [Q(0, "S5"), Q(1, "S7"), Q(2, "S8")]
    out = legal(run(hands, d, laws=[9, 14], turn=0, rev=False))
    st = out["state"]
    assert st["suit_lock"] == [] and st["passed"] == [] and st["turn"] == 2 and st["top"] is None


def test_eight_legal_finish_without_09_forbidden_scope():
    """DEC-27 ``forbidden_effect_cards`` without 09: finishing with an 8 under 09 is a normal
    finish; the field still flows and the next active player leads."""
    out = legal(run([F0, ["S8"], F2, F3], [Q(1, "S8")], laws=[9], top={"cards": ["H6"], "owner": 0}, turn=1,
                    params={"forbidden_effect_cards": "19"}))
    st = out["state"]
    assert st["top_list"] == [1] and st["top"] is None and st["turn"] == 2


# ---------------------------------------------------------------- card 14
def test_suit_lock_two_suits_and_joker_supply():
    """§4.14 / QA-14.1: the lock is the intersection (here ♠♦); a wild joker may supply a locked suit."""
    hands = [["S3", "D3", *F0], ["S4", "D4", *F1], ["S5", "H5", "D5", "Jk", *F2], F3]
    d = [Q(0, "S3", "D3"), Q(1, "S4", "D4")]
    out = run(hands, d, laws=[14], turn=0)
    assert out["state"]["suit_lock"] == ["S", "D"]
    assert "suit lock" in illegal(run(hands, d + [Q(2, "S5", "H5")], laws=[14], turn=0))
    legal(run(hands, d + [Q(2, "S5", "D5")], laws=[14], turn=0))
    out = legal(run(hands, d + [Q(2, "S5", "Jk")], laws=[14], turn=0))
    assert "P2 plays [♠5 Jk=♦5]" in out["events"]
    assert "suit lock" in illegal(run(hands, d + [Q(2, "S5", "Jk", **{"as": ["H5"]})], laws=[14], turn=0))


def test_suit_lock_passes_between_and_no_tightening():
    """DEC-41: passes between two plays do not break 'consecutive'; the lock does not tighten
    (variant ``suit_lock_tightens`` adds later shared suits)."""
    hands = [["S3", "D3", *F0], ["S4", "H4", *F1], ["S6", "D6", "H6", *F2], ["S8", "D8", *F3]]
    d = [Q(0, "S3", "D3"), X(1), Q(2, "S6", "D6")]
    out = run(hands, d, laws=[14], turn=0)
    assert out["state"]["suit_lock"] == ["S", "D"]
    d = [Q(0, "S3", "D3"), Q(1, "S4", "H4"), Q(2, "S6", "H6")]
    out = run(hands, d, laws=[14], turn=0)
    assert out["state"]["suit_lock"] == ["S"]
    out = run(hands, d, laws=[14], turn=0, params={"suit_lock_tightens": True})
    assert out["state"]["suit_lock"] == ["S", "H"]


def test_joker_single_forms_no_lock():
    """DEC-41 / DEC-43: a Joker single has no suit and never forms a lock."""
    hands = [["S5", *F0], ["Jk", *F1], F2, F3]
    out = run(hands, [Q(0, "S5"), Q(1, "Jk")], laws=[14, 15], turn=0)
    assert out["state"]["suit_lock"] == [] and out["state"]["num_lock"] is False


def test_suit_lock_cleared_after_flow():
    """§2.11.5: the suit lock lasts until the field flows."""
    hands = [["S5", "H9", *F0], ["S7", *F1], ["H3", *F2], ["H4", *F3]]
    d = [Q(0, "S5"), Q(1, "S7"), X(2), X(3), X(0)]
    out = legal(run(hands, d, laws=[14], turn=0))
    assert out["state"]["suit_lock"] == [] and out["state"]["turn"] == 1


def test_suit_lock_precept_holder_lock_binds_holder_not():
    """QA-14.3: a lock made by the holder binds the others; the holder ignores it."""
    hands = [["S5", "S9", *F0], ["S7", "HQ", *F1], ["HK", "S10", *F2], F3]
    d = [Q(0, "S5"), Q(1, "S7")]
    assert "suit lock" in illegal(run(hands, d + [Q(2, "HK")], precepts={"14": 1}, turn=0))
    out = legal(run(hands, d + [Q(2, "S10"), X(3), X(0), Q(1, "HQ")], precepts={"14": 1}, turn=0))
    assert "P1 plays [♥Q]" in out["events"] and "P2 passes" in out["events"]  # HK is not ♠: P2 still bound


# ---------------------------------------------------------------- card 15
def test_number_lock_pairs_and_no_next_rank():
    """§4.15 / DEC-42: pairs lock by one step; a top of the strongest rank leaves only the Joker
    single (DEC-43; variant ``joker_single_ignores_number_lock`` off: nothing)."""
    hands = [["S4", "H4", *F0], ["S5", "D5", *F1], ["C6", "D6", "C7", "D7", *F2], F3]
    d = [Q(0, "S4", "H4"), Q(1, "S5", "D5")]
    out = run(hands, d, laws=[15], turn=0)
    assert out["state"]["num_lock"] is True
    assert "number lock" in illegal(run(hands, d + [Q(2, "C7", "D7")], laws=[15], turn=0))
    legal(run(hands, d + [Q(2, "C6", "D6")], laws=[15], turn=0))
    hands = [["SA", *F0[1:]], ["S2", "D3"], ["Jk", "C5"], ["C4", "C6"]]
    out = legal(run(hands, [Q(0, "SA"), Q(1, "S2"), Q(2, "Jk")], laws=[15], turn=0))
    assert "P2 plays [Jk]" in out["events"]
    out = run(hands, [Q(0, "SA"), Q(1, "S2")], laws=[15], turn=0, params={"joker_single_ignores_number_lock": False})
    assert out["events"][out["events"].index("number lock") + 1] == "P2 passes"


def test_number_lock_set_by_jack_under_19():
    """DEC-42 with §4.19: 10 then J is one step in the order at the time of the play (lock);
    J-back then reverses the order, so the next play must be a 10."""
    hands = [["S10", *F0], ["SJ", *F1], ["H10", "HQ", *F2], F3]
    out = run(hands, [Q(0, "S10"), Q(1, "SJ")], laws=[15, 19], turn=0)
    assert out["state"]["num_lock"] is True and out["state"]["jback"] is True
    assert out["waiting"]["legal"] == [{"pass": True}, {"play": ["H10"]}]


def test_number_lock_precept_nonholder_second_play():
    """QA-15.2: with 15 as P2's precept, a one-step play by someone else forms no lock."""
    hands = [["H4", *F0], ["C5", *F1], ["D7", *F2], F3]
    out = legal(run(hands, [Q(0, "H4"), Q(1, "C5"), Q(2, "D7")], precepts={"15": 2}, turn=0))
    assert out["state"]["num_lock"] is False


# ---------------------------------------------------------------- card 19
def test_jback_four_jacks():
    """§4.19: four Js revolt and set J-back: R is false for the trick, true after the flow."""
    hands = [["SJ", "HJ", "DJ", "CJ", "S5", *F0], ["S10", "H10", "D10", "C10", "SQ", "HQ", "DQ", "CQ", *F1], F2, F3]
    d = [Q(0, "SJ", "HJ", "DJ", "CJ")]
    out = run(hands, d, laws=[19], turn=0)
    assert out["state"]["rev"] is True and out["state"]["jback"] is True
    assert "does not beat" in illegal(run(hands, d + [Q(1, "S10", "H10", "D10", "C10")], laws=[19], turn=0))
    out = legal(run(hands, d + [X(1), X(2), X(3)], laws=[19], turn=0))
    assert out["state"]["top"] is None and out["state"]["rev"] is True and out["state"]["jback"] is False


def test_jback_second_jack_and_toggle_variant():
    """DEC-46: a second J in the trick keeps J-back on; with ``jback_toggles`` it turns it off.
    (Laws 19 and 21: ♠J♠Q♠K sets J-back; ♥10♥J♥Q is stronger under R and holds another J.)"""
    hands = [["SJ", "SQ", "SK", *F0], ["H10", "HJ", "HQ", *F1], ["C4", "C5", "C6", *F2], F3]
    d = [Q(0, "SJ", "SQ", "SK"), Q(1, "H10", "HJ", "HQ")]
    out = run(hands, d, laws=[19, 21], turn=0)
    assert out["state"]["jback"] is True and out["waiting"]["player"] == 2
    out = run(hands, d, laws=[19, 21], turn=0, params={"jback_toggles": True})
    assert out["state"]["jback"] is False


def test_jback_lead_and_reset():
    """§4.19: a J lead reverses the order for the trick (only weaker ranks follow); after the
    flow the order is normal."""
    hands = [["SJ", "S3", *F0], ["HQ", "H10", *F1], F2, F3]
    out = run(hands, [Q(0, "SJ")], laws=[19], turn=0)
    assert out["waiting"]["legal"] == [{"pass": True}, {"play": ["H10"]}]


def test_jback_precept_only_holder():
    """§4.19 precept: only the holder's J sets J-back."""
    hands = [F0, ["SJ", *F1], F2, F3]
    top = {"cards": ["H9"], "owner": 0}
    assert "J-back" in run(hands, [Q(1, "SJ")], precepts={"19": 1}, top=top, turn=1)["events"]
    assert "J-back" not in run(hands, [Q(1, "SJ")], precepts={"19": 2}, top=top, turn=1)["events"]


# ---------------------------------------------------------------- card 21
def test_stairs_precept_lead_follow_and_revolution():
    """§4.21 precept / DEC-47: only the holder leads stairs; others may follow; a follower's
    4-card stairs is a revolution; with the variant off nobody else may follow."""
    hands = [["S3", "S4", "S5", "S6", *F0], ["C4", "C5", "C6", "C7", *F1], F2, F3]
    assert "card 21" in illegal(run(hands, [Q(0, "S3", "S4", "S5")], precepts={"21": 1}, turn=0))
    out = run(hands, [Q(0, "S3", "S4", "S5", "S6")], precepts={"21": 0}, turn=0)
    assert out["state"]["rev"] is True
    hands_rev = [["SJ", "SQ", "SK", "SA", *F0], ["C4", "C5", "C6", "C7", *F1], F2, F3]
    out = legal(run(hands_rev, [Q(0, "SJ", "SQ", "SK", "SA"), Q(1, "C4", "C5", "C6", "C7")], precepts={"21": 0},
                    turn=0))
    ev = out["events"]
    assert out["state"]["rev"] is False and ev[ev.index("P1 plays [♣4 ♣5 ♣6 ♣7]") + 1] == "counter-revolution"
    out = run(hands_rev, [Q(0, "SJ", "SQ", "SK", "SA")], precepts={"21": 0}, turn=0,
              params={"precept21_followers_may_play_stairs": False})
    assert out["events"][out["events"].index("revolution") + 1] == "P1 passes"


def test_stairs_same_length_only():
    """§4.21: until the flow only stairs of the same length may follow."""
    hands = [["S3", "S4", "S5", *F0], ["C6", "C7", "C8", "C9", "H9", *F1], F2, F3]
    d = [Q(0, "S3", "S4", "S5")]
    assert "type and count" in illegal(run(hands, d + [Q(1, "C6", "C7", "C8", "C9")], laws=[21], turn=0))
    assert "type and count" in illegal(run(hands, d + [Q(1, "H9")], laws=[21], turn=0))


# ---------------------------------------------------------------- placements, capital fall, scoring
def test_forbidden_finish_flows_variant():
    """DEC-15 variant ``forbidden_finish_flows``: the field flows; the next active player leads."""
    hands = [["C4", "D4"], ["C6", "D6"], ["S2"], ["C7", "Jk"]]
    out = legal(run(hands, [Q(2, "S2")], top={"cards": ["HA"], "owner": 1}, turn=2,
                    params={"forbidden_finish_flows": True}))
    assert out["state"]["bottom_list"] == [2] and out["state"]["top"] is None and out["state"]["turn"] == 3


def test_two_forbidden_finishers_order():
    """DEC-14: two forbidden finishers, latest lowest by default, earliest lowest in the variant."""
    hands = [["S2"], ["C4", "D4"], ["Jk"], ["C6", "D6"]]
    top = {"cards": ["HK"], "owner": 3}
    d = [Q(0, "S2"), X(1), Q(2, "Jk"), X(3), Q(3, "C6", "D6")]
    out = legal(run(hands, d, turn=0, top=top))
    assert out["finished"] and out["result"]["ranking"] == [3, 1, 0, 2]
    out = legal(run(hands, d, turn=0, top=top, params={"bottom_order": "earliest_lowest"}))
    assert out["result"]["ranking"] == [3, 1, 2, 0]


def test_capital_fall_king_already_at_bottom():
    """DEC-28: the king placed at the bottom by a forbidden finish still falls (very bottom, bonus)
    when another player becomes 1st; the variant pays nothing."""
    hands = [[], ["C5"], ["S2", "H2"], ["C7", "D7"]]
    st = dict(round=2, prev_ranking=[0, 1, 2, 3], bottom_list=[0], top={"cards": ["H4"], "owner": 3}, turn=1)
    out = legal(run(hands, [Q(1, "C5")], **st))
    assert out["state"]["top_list"] == [1] and out["state"]["bottom_list"] == [0]
    assert out["state"]["bonus_points"] == [0, 1, 1, 1]
    hands = [[], ["C5"], ["S2"], ["C7", "D7"]]
    st["bottom_list"] = [0]
    out = legal(run(hands, [Q(1, "C5")], params={"capital_fall_if_king_already_placed": False}, **st))
    assert out["state"]["bonus_points"] == [0, 0, 0, 0]


def test_capital_fall_king_moved_below_later_forbidden():
    """DEC-28 / §3.8: the fallen king goes to the very bottom, below a later forbidden finisher."""
    hands = [[], ["C5", "S6"], ["S2"], ["C7", "D7"]]
    st = dict(round=2, prev_ranking=[0, 1, 2, 3], bottom_list=[0], top={"cards": ["HA"], "owner": 3}, turn=2)
    out = legal(run(hands, [Q(2, "S2"), X(3)], **st))
    assert out["state"]["bottom_list"] == [0, 2] and out["state"]["bonus_points"] == [0, 0, 0, 0]
    out = legal(run(hands, [Q(2, "S2"), X(3), Q(3, "C7"), Q(3, "D7")], **st))
    assert out["result"]["ranking"] == [3, 1, 2, 0] and out["result"]["bonus_points"] == [0, 1, 1, 1]


def test_last_player_takes_first_capital_fall():
    """§3.8 / §2.13: when every other player was placed at the bottom, the last player takes 1st;
    if that is not the king, the king falls (DEC-28)."""
    hands = [[], [], [], ["S7"]]
    out = legal(run(hands, [], round=2, prev_ranking=[1, 0, 2, 3], bottom_list=[1, 2, 0], turn=3))
    assert out["result"]["ranking"] == [3, 2, 0, 1] and out["result"]["round_bonus_points"] == [1, 0, 1, 1]
    # the forced lead of a lone card finishes 1st: the king (already at the bottom) falls below P2
    hands = [["C5"], [], [], ["S7", "H7"]]
    out = legal(run(hands, [Q(0, "C5")], round=2, prev_ranking=[1, 0, 2, 3], bottom_list=[1, 2], turn=0))
    assert out["result"]["ranking"] == [0, 3, 2, 1]


def test_king_keeps_crown_no_bonus():
    """§3.8: the king finishing first is no capital fall."""
    hands = [["C5"], ["S6", "H6"], ["S7", "H7"], ["S8", "H8"]]
    out = legal(run(hands, [Q(0, "C5")], round=2, prev_ranking=[0, 1, 2, 3], turn=0))
    assert out["state"]["top_list"] == [0] and out["state"]["bonus_points"] == [0, 0, 0, 0]


def test_exited_hand_removed_variant():
    """DEC-16 variant: a fallen king's hand leaves the round instead of going to the discard pile."""
    hands = [["S5", "S6"], ["HJ"], ["D4"], ["C5", "C6", "C7"]]
    st = dict(round=2, prev_ranking=[0, 1, 2, 3], top={"cards": ["H3"], "owner": 1}, turn=2)
    out = legal(run(hands, [Q(2, "D4")], params={"exited_hand_to_discard": False}, **st))
    assert out["state"]["removed"] == ["S5", "S6"] and "S5" not in out["state"]["discard"]


def test_scoring_precept_vp_and_ties():
    """§2.14 / §1.5 / DEC-20 / DEC-21: madness precept VP at game end (or every round);
    tied scores share the win unless ``tiebreak`` = last_round_rank."""
    hands = [["S5"], [], ["S9", *F2], []]
    base = dict(top_list=[3, 1], turn=0, precepts={"09": 2, "14": 0})
    params = {"mode": "madness", "madness_rounds": 1, "precept_vp_09": 4}
    out = legal(run(hands, [Q(0, "S5")], params=params, **base))
    r = out["result"]
    assert r["rank_points"] == [1, 2, 0, 3] and r["precept_points"] == [1, 0, 4, 0]
    assert r["scores"] == [2, 2, 4, 3] and r["winners"] == [2]
    params = {"mode": "madness", "madness_rounds": 1}
    out = legal(run(hands, [Q(0, "S5")], params=params, **base))
    assert out["result"]["scores"] == [2, 2, 1, 3] and out["result"]["winners"] == [3]
    hands = [["S5"], [], ["S9", *F2], []]
    out = legal(run(hands, [Q(0, "S5")], params={"rounds": 1}, top_list=[3, 1], turn=0,
                    rank_points=[2, 1, 0, 0]))
    assert out["result"]["scores"] == [3, 3, 0, 3] and out["result"]["winners"] == [0, 1, 3]
    assert out["result"]["n_winners"] == 3
    out = legal(run(hands, [Q(0, "S5")], params={"rounds": 1, "tiebreak": "last_round_rank"}, top_list=[3, 1],
                    turn=0, rank_points=[2, 1, 0, 0]))
    assert out["result"]["winners"] == [3]
    out = legal(run(hands, [Q(0, "S5")], params={"mode": "madness", "madness_rounds": 2,
                                                  "precept_vp_timing": "every_round"},
                    top_list=[3, 1], turn=0, round=2, prev_ranking=[0, 1, 2, 3], precepts={"09": 2}))
    assert out["result"]["precept_points"] == [0, 0, 1, 0]


def test_loop_guard():
    """DEC-18: a round reaching ``max_plays_per_round`` ranks the remaining players randomly."""
    hands = [["S3", "S4", "S5"], ["H3", "H4", "H5"], ["D3", "D4", "D5"], ["C3", "C4", "C6"]]
    out = legal(run(hands, [], turn=0, params={"max_plays_per_round": 2},
                    bots=["greedy", "greedy", "greedy", "greedy"]))
    assert out["finished"] and sorted(out["result"]["ranking"]) == [0, 1, 2, 3]
    assert any("play-count guard" in e for e in out["events"])


# ---------------------------------------------------------------- round setup
@pytest.mark.parametrize("players,hand,undealt", [(3, 10, 23), (4, 10, 13), (5, 10, 3), (6, 8, 5)])
def test_deal_sizes(players, hand, undealt):
    """§2.4 / §1.3: 10 cards each (8 with six players); the rest set aside."""
    out = run([[]] * players, [], players=players, phase="deal", rule_deck=[9])
    st = out["state"]
    assert [len(h) for h in st["hands"]] == [hand] * players and len(st["undealt"]) == undealt
    assert st["laws"] == [9] and out["waiting"]["decision"] in ("trim", "play")


def test_round1_skips_exchange_and_round2_start_player():
    """§2.7: no exchange in round 1; §2.10: from round 2 the last-placed player names the start player."""
    hands = [["S3", "H3", "D3", "C3", "S4", "H4", "D4", "C4", "S5", "H5"],
             ["Jk", "S2", "S6", "H6", "D6", "C6", "S7", "H7", "D7", "C7"],
             ["H2", "C2", "S8", "H8", "D8", "C8", "S9", "H9", "D9", "C9"],
             ["DA", "S10", "H10", "D10", "C10", "SJ", "HJ", "DJ", "CJ", "SQ"]]
    out = run(hands, [], phase="exchange")
    assert out["waiting"]["decision"] == "trim" and "Jk" in out["state"]["hands"][1]
    trims = [{"player": q, "trim": []} for q in range(4)]
    out = run(hands, trims, phase="trim", round=2, prev_ranking=[1, 2, 0, 3])
    assert out["waiting"] == {"player": 3, "decision": "start", "legal": [{"start": q} for q in range(4)]}
    out = run(hands, trims + [{"start": 2}], phase="trim", round=2, prev_ranking=[1, 2, 0, 3])
    assert out["waiting"]["player"] == 2 and out["state"]["start_player"] == 2


def test_trim_all_or_nothing():
    """DEC-9 variant ``trim_mode = all_or_nothing``: exactly down to 7 or nothing."""
    hands = [["S3", "H3", "D3", "C3", "S4", "H4", "D4"],
             ["S5", "H5", "D5", "C5", "S6", "H6", "D6", "C6", "S7", "H7"], F2, F3]
    p = {"trim_mode": "all_or_nothing"}
    assert "0 or 3" in illegal(run(hands, [{"trim": ["S5"]}], phase="trim", params=p))
    out = legal(run(hands, [{"trim": ["S5", "H5", "D5"]}], phase="trim", params=p))
    assert len(out["state"]["hands"][1]) == 7


def test_madness_six_players_rule_cards():
    """§2.2: madness with six players uses 3 x (1 + 6) = 21 rule cards; normal mode 5 laws."""
    out = run([[]] * 6, [], players=6, phase="deal", params={"mode": "madness", "madness_rounds": 3},
              rule_deck=list(range(1, 26)), bots=["greedy"] * 6)
    assert len(out["state"]["rule_deck"]) == 25 - 7 and len(out["state"]["precepts"]) == 6
    cfg = GAME.make_config(players=6, overrides={"mode": "madness"})
    games = GAME.run_batch(cfg, 0, 2, "reference")["games"]
    assert (games["rounds"] == 3).all()
    cfg = GAME.make_config(players=4)
    assert (GAME.run_batch(cfg, 0, 2, "reference")["games"]["rounds"] == 5).all()


def test_round1_draft_order_is_clockwise_from_random_first():
    """§2.6 / DEC-6: round 1 drafts clockwise from a random first picker."""
    out = run([[]] * 4, [], phase="deal", rule_deck=[7, 9, 14, 15, 19], params={"mode": "madness"})
    assert out["waiting"]["decision"] == "draft"
    first = out["waiting"]["player"]
    assert out["state"]["draft_left"] == [(first + i) % 4 for i in range(4)]


# ---------------------------------------------------------------- scenario format robustness
def test_forced_decisions_named_for_the_player_are_consumed():
    """Format: a decision with a single option is applied without asking; a scripted decision
    naming that player and that choice is taken for it (so full turn lists work)."""
    hands = [["C4", "D4"], ["C6", "D6"], ["S2"], ["C7", "Jk"]]
    d = [Q(2, "S2"), X(3), X(0), X(1), Q(3, "C7")]
    out = legal(run(hands, d, top={"cards": ["HA"], "owner": 1}, turn=2))
    assert "P3 plays [♣7]" in out["events"] and out["waiting"]["player"] == 3
    # without the player tag the old behaviour holds: the forced passes take no entry
    out = run(hands, [P("S2"), PASS, P("C7")], top={"cards": ["HA"], "owner": 1}, turn=2)
    assert "P3 plays [♣7]" in legal(out)["events"]
    # a tagged decision that does not match the forced choice is left for the next decision
    out = run(hands, [Q(2, "S2"), X(3), Q(0, "C4")], top={"cards": ["HA"], "owner": 1}, turn=2)
    assert out["illegal"]["index"] == 2 and "P3 decides now" in out["illegal"]["reason"]


def test_suit_lock_symbols_accepted():
    out = run([["S5", *F0], ["H9", "S9", *F1], F2, F3], [], top={"cards": ["S7"], "owner": 0}, suit_lock=["♠"],
              turn=1)
    assert out["state"]["suit_lock"] == ["S"] and {"play": ["H9"]} not in out["waiting"]["legal"]
    assert {"play": ["S9"]} in out["waiting"]["legal"]


def test_forced_gifts_written_out():
    """Format / T-09: a scenario may list every gift, also the forced ones (untagged: they name
    cards only the forced player holds)."""
    hands = [
        ["S3", "H3", "D3", "C3", "S4", "H4", "D4", "C4", "S5", "H5"],
        ["Jk", "S2", "S6", "H6", "D6", "C6", "S7", "H7", "D7", "C7"],
        ["H2", "C2", "S8", "H8", "D8", "C8", "S9", "H9", "D9", "C9"],
        ["DA", "S10", "H10", "D10", "C10", "SJ", "HJ", "DJ", "CJ", "SQ"],
    ]
    d = [{"give": "Jk"}, {"give": "C2"}, {"give": "DA"}, {"king_give": "S3"}, {"king_give": "H3"},
         {"king_give": "D3"}]
    out = legal(run(hands, d, round=2, prev_ranking=[0, 1, 2, 3], phase="exchange"))
    h = out["state"]["hands"]
    assert {"Jk", "C2", "DA"} <= set(h[0]) and "S3" in h[1] and "H3" in h[2] and "D3" in h[3]
    assert out["waiting"]["decision"] == "trim"


def test_top_with_joker_without_as():
    """Format: a ``top`` holding a joker in a set without ``as`` takes the canonical reading."""
    out = run([F0, ["S9", "H9", *F1], F2, F3], [Q(1, "S9", "H9")], top={"cards": ["S5", "Jk"], "owner": 0},
              turn=1)
    assert legal(out)["events"][0] == "P1 plays [♠9 ♥9]"
    out = run([F0, ["S9", "H9", *F1], F2, F3], [], top={"cards": ["S5", "Jk"], "owner": 0}, turn=1)
    assert out["state"]["top"] == {"cards": ["S5", "Jk"], "as": ["H5"], "owner": 0}
    with pytest.raises(ConfigError, match="do not form"):
        run([F0, ["S9", "H9", *F1], F2, F3], [], top={"cards": ["S5", "H7", "Jk"], "owner": 0}, turn=1)


def test_eight_cut_ends_jback_keeps_revolution():
    """§4.9 / §4.19 / §2.11.5: ♠8♠9♠10♠J (laws 09, 19, 21) revolts, sets J-back and cuts: after
    the flow J-back is off and the revolution stays; the player leads again."""
    hands = [["S8", "S9", "S10", "SJ", *F0], F1, F2, F3]
    out = legal(run(hands, [Q(0, "S8", "S9", "S10", "SJ")], laws=[9, 19, 21], turn=0))
    st = out["state"]
    assert st["rev"] is True and st["jback"] is False and st["top"] is None and st["turn"] == 0
    assert out["events"][1:4] == ["revolution", "J-back", "eight cut"]


def test_forbidden_strongest_rank_variants():
    """DEC-27: the 'strongest rank' follows R = rev XOR jback by default; with
    ``strongest_uses_effective_order`` off only the revolution counts (a 3 finish under a J-back
    alone is allowed; under revolution plus J-back a 2 finish is allowed, by default forbidden);
    a stairs ending in 2 contains the strongest rank."""
    top = {"cards": ["S6"], "owner": 0}
    out = legal(run([F0[:1], ["D3"], F2, F3], [Q(1, "D3")], laws=[19], top=top, jback=True, turn=1,
                    params={"strongest_uses_effective_order": False}))
    assert out["state"]["top_list"] == [1]
    st = dict(laws=[19], top={"cards": ["S4"], "owner": 0}, rev=True, jback=True, turn=1)
    out = legal(run([["SA"], ["C2"], F2[:1], F3], [Q(1, "C2")], **st))
    assert out["state"]["bottom_list"] == [1]
    out = legal(run([["SA"], ["C2"], F2[:1], F3], [Q(1, "C2")], params={"strongest_uses_effective_order": False},
                    **st))
    assert out["state"]["top_list"][0] == 1
    out = legal(run([["SA"], ["HK", "HA", "H2"], ["D4"], F3], [Q(1, "HK", "HA", "H2")], laws=[21],
                    top={"cards": ["S4", "S5", "S6"], "owner": 0}, turn=1))
    assert out["state"]["bottom_list"] == [1]


def test_forbidden_effect_cards_scope():
    """DEC-27 ``forbidden_effect_cards``: without 19 a J finish under law 19 is a normal finish."""
    top = {"cards": ["H9"], "owner": 0}
    out = legal(run([F0, ["CJ"], F2, F3], [Q(1, "CJ")], laws=[19], top=top, turn=1,
                    params={"forbidden_effect_cards": "09"}))
    assert out["state"]["top_list"] == [1]
    out = legal(run([F0, ["CJ"], F2, F3], [Q(1, "CJ")], precepts={"19": 2}, top=top, turn=1))
    assert out["state"]["top_list"] == [1]  # 19 does not apply to P1: no effect, no forbidden finish


def test_player_count_from_hands():
    """Format: without ``players`` the number of hands is the player count (T-13, 3 players)."""
    spec = {"game": "daifugo", "params": {"rounds": 1},
            "state": {"hands": [["S5"], [], ["S9"]], "top_list": [1], "turn": 2},
            "decisions": [{"player": 2, "play": ["S9"]}, {"player": 0, "pass": True}]}
    out = GAME.scenario(spec)
    assert out["result"]["ranking"] == [1, 2, 0] and out["result"]["rank_points"] == [1, 3, 2]
    with pytest.raises(ConfigError, match="^state must be an object"):
        GAME.scenario({"game": "daifugo", "state": [["S5"]]})


def test_card_code_forms():
    """Format: rank-first codes and a bare single card are read too."""
    hands = [F0, ["10S", "8♥", *F1], F2, F3]
    out = legal(run(hands, [{"player": 1, "play": "10S"}], top={"cards": ["H9"], "owner": 0}, turn=1))
    assert "P1 plays [♠10]" in out["events"]
