"""Spec §8 scenarios (T-nn) through ``GAME.scenario`` (the JSON scenario format)."""

import pytest

from sim.games.daifugo import GAME

N = 4


def run(hands, decisions=(), players=N, params=None, bots=None, **state):
    """Scenario with hands and extra state fields; one round unless ``params`` say otherwise."""
    params = {"rounds": state.get("round", 1), **(params or {})}
    spec = {"game": "daifugo", "players": players, "params": params,
            "state": {"hands": hands, **state}, "decisions": list(decisions)}
    if bots:
        spec["bots"] = bots
    return GAME.scenario(spec)


def legal(out):
    assert out["illegal"] is None, out["illegal"]
    return out


def illegal(out):
    assert out["illegal"] is not None, "expected an illegal decision"
    return out["illegal"]["reason"]


def P(*cards):
    return {"play": list(cards)}


PASS = {"pass": True}
# filler hands so nobody runs out by accident
F0, F1, F2, F3 = ["SA", "HA"], ["S2", "H2"], ["D2", "C2"], ["DA", "CA"]


# ---------------------------------------------------------------- 8.1 core rules
def test_T01_strength():
    hands = [F0, ["S10", "C8", "Jk", *F1], F2, F3]
    top = {"cards": ["H9"], "owner": 0}
    legal(run(hands, [P("S10")], top=top, turn=1))
    assert "does not beat" in illegal(run(hands, [P("C8")], top=top, turn=1))
    out = legal(run(hands, [P("Jk")], top=top, turn=1))
    # nobody can beat the Joker single: the others pass without being asked, P1 leads again
    assert "P1 plays [Jk]" in out["events"] and "Jk" in out["state"]["discard"] and out["state"]["turn"] == 1


def test_T02_multi_play():
    hands = [["S3", "D3", *F0], ["H4", "C4", "D4", *F1], F2, F3]
    legal(run(hands, [P("S3", "D3"), P("H4", "C4")], turn=0))
    assert illegal(run(hands, [P("S3", "D3"), P("H4")], turn=0))
    assert illegal(run(hands, [P("S3", "D3"), P("H4", "C4", "D4")], turn=0))


def test_T03_revolution():
    hands = [["S9", "H9", "D9", "C9", *F0], ["S5", "H5", "D5", "C5", "SK", "HK", "DK", "CK", *F1], F2, F3]
    out = legal(run(hands, [P("S9", "H9", "D9", "C9")], turn=0))
    assert out["state"]["rev"] is True and out["state"]["top"]["cards"] == ["S9", "H9", "D9", "C9"]
    out = legal(run(hands, [P("S9", "H9", "D9", "C9"), P("S5", "H5", "D5", "C5")], turn=0))
    assert out["state"]["rev"] is False
    assert illegal(run(hands, [P("S9", "H9", "D9", "C9"), P("SK", "HK", "DK", "CK")], turn=0))


def test_T04_pass_lockout():
    hands = [["S5", "SA", *F0], ["S9", *F1], ["S7", *F2], F3]
    d = [P("S5"), PASS, P("S7"), PASS, PASS]
    out = legal(run(hands, d, turn=0))
    assert out["state"]["top"] is None and out["state"]["turn"] == 2
    out = legal(run(hands, d + [P("S9")], turn=0, params={"pass_locks_out": False}))
    assert out["state"]["top"] == {"cards": ["S9"], "owner": 1}


def test_T05_forbidden_finish_strongest():
    hands = [["C4", "D4"], ["C6", "D6"], ["S2"], ["Jk", "C7"]]
    out = legal(run(hands, [P("S2")], top={"cards": ["HA"], "owner": 1}, turn=2))
    st = out["state"]
    assert st["bottom_list"] == [2] and st["top"]["cards"] == ["S2"]
    assert out["waiting"]["player"] == 3  # the field did not flow; P3 is next


def test_T06_forbidden_under_revolution():
    out = legal(run([F0, F1, ["D3"], F3], [P("D3")], top={"cards": ["S5"], "owner": 1}, turn=2, rev=True))
    assert out["state"]["bottom_list"] == [2]
    # a lone card as the only legal lead is played without asking
    out = legal(run([F0, ["S3", "H3"], ["C2"], F3], [], turn=2, rev=True))
    assert out["state"]["top_list"] == [2] and "P2 plays [♣2]" in out["events"]


def _t07(decisions):
    hands = [["S5", "S6", "S7", "S8", "S9"], ["HJ"], ["D4"], ["C5", "C6", "C7"]]
    return run(hands, decisions, round=2, prev_ranking=[0, 1, 2, 3], top={"cards": ["H3"], "owner": 1}, turn=2)


def test_T07_capital_fall():
    out = legal(_t07([P("D4")]))
    st = out["state"]
    assert st["top_list"] == [2] and st["bottom_list"] == [0] and st["hands"][0] == []
    assert {"S5", "S6", "S7", "S8", "S9"} <= set(st["discard"])
    assert st["bonus_points"] == [0, 1, 1, 1]


def test_T08_round_end_and_points():
    # P2 out first (king P0 falls); P3 passes; P1 plays HJ and goes out 2nd; P3 is 3rd.
    out = legal(_t07([P("D4"), PASS, P("HJ")]))
    assert out["finished"]
    assert out["rounds"][0]["ranking"] == [2, 1, 3, 0]
    r = out["result"]
    assert [r["rank_points"][q] + r["bonus_points"][q] for q in range(4)] == [0, 3, 4, 2]


def test_T09_exchange():
    hands = [
        ["S3", "H3", "D3", "C3", "S4", "H4", "D4", "C4", "S5", "H5"],
        ["Jk", "S2", "S6", "H6", "D6", "C6", "S7", "H7", "D7", "C7"],
        ["H2", "C2", "S8", "H8", "D8", "C8", "S9", "H9", "D9", "C9"],
        ["DA", "S10", "H10", "D10", "C10", "SJ", "HJ", "DJ", "CJ", "SQ"],
    ]
    out = run(hands, [], round=2, prev_ranking=[0, 1, 2, 3], phase="exchange")
    # P1's only option (the joker) is applied without asking; P2 chooses between its 2s
    assert out["waiting"]["player"] == 2 and out["waiting"]["legal"] == [{"give": "H2"}, {"give": "C2"}]
    assert "Jk" in out["state"]["hands"][0]
    d = [{"give": "C2"}, {"king_give": "S3"}, {"king_give": "H3"}, {"king_give": "D3"}]
    out = legal(run(hands, d, round=2, prev_ranking=[0, 1, 2, 3], phase="exchange"))
    h = out["state"]["hands"]
    assert {"Jk", "C2", "DA"} <= set(h[0]) and "S3" in h[1] and "H3" in h[2] and "D3" in h[3]
    assert "H2" in h[2]
    assert [len(x) for x in h] == [10, 10, 10, 10]
    assert illegal(run(hands, [{"give": "S8"}], round=2, prev_ranking=[0, 1, 2, 3], phase="exchange"))


def test_T10_trim():
    hands = [["S3", "H3", "D3", "C3", "S4", "H4", "D4"],
             ["S5", "H5", "D5", "C5", "S6", "H6", "D6", "C6", "S7", "H7"], F2, F3]
    out = run(hands, [], phase="trim")
    assert out["waiting"]["player"] == 1 and out["waiting"]["decision"] == "trim"  # P0 (7 cards) not asked
    assert out["waiting"]["legal"] == [{"trim": "0..3 cards"}]
    out = run(hands, [{"trim": ["S5", "H5", "D5"]}], phase="trim")
    assert len(out["state"]["hands"][1]) == 7 and {"S5", "H5", "D5"} <= set(out["state"]["discard"])
    assert illegal(run(hands, [{"trim": ["S5", "H5", "D5", "C5"]}], phase="trim"))


def test_T11_rank_points_madness():
    out = legal(run([["S5"], [], ["S9", *F2], []], [P("S5")], params={"mode": "madness", "madness_rounds": 1},
                    top_list=[3, 1], turn=0))
    assert out["result"]["rank_points"] == [1, 2, 0, 3]


def test_T12_leader_after_finisher():
    out = legal(run([F0, F1, F2, ["SQ"]], [PASS, PASS, PASS], turn=3))  # P3's only lead is automatic
    assert out["state"]["top_list"] == [3] and out["state"]["top"] is None and out["state"]["turn"] == 0


def test_T13_three_players():
    out = legal(run([["S5"], [], ["S9"]], [P("S9"), PASS], players=3, top_list=[1], turn=2))
    assert out["rounds"][0]["ranking"] == [1, 2, 0]
    assert out["result"]["rank_points"] == [1, 3, 2]


def test_T14_draft_order():
    hands = [F0, F1, F2, F3]
    out = run(hands, [{"draft": 7}, {"draft": 9}, {"draft": 14}], round=2, prev_ranking=[2, 0, 3, 1],
              phase="draft", revealed=[7, 9, 14, 15], params={"mode": "madness", "madness_rounds": 2})
    assert out["state"]["precepts"] == {"07": 1, "09": 3, "14": 0, "15": 2}
    out = run(hands, [], round=2, prev_ranking=[2, 0, 3, 1], phase="draft", revealed=[7, 9, 14, 15],
              params={"mode": "madness", "madness_rounds": 2})
    assert out["waiting"]["player"] == 1


# ---------------------------------------------------------------- 8.2 the six play-shaping cards
def test_T31_three_card_stairs_revolution():
    out = legal(run([["H7", "H8", "H9", *F0], F1, F2, F3], [P("H7", "H8", "H9")], laws=[7, 21], turn=0))
    assert out["state"]["rev"] is True


def test_T32_three_card_revolution_law_and_precept():
    hands = [["S6", "H6", "D6", *F0], F1, ["S9", "H9", "D9", *F2], F3]
    assert legal(run(hands, [P("S6", "H6", "D6")], laws=[7], turn=0))["state"]["rev"] is True
    out = legal(run(hands, [P("S6", "H6", "D6")], precepts={"07": 2}, turn=0))
    assert out["state"]["rev"] is False
    out = legal(run(hands, [P("S9", "H9", "D9")], precepts={"07": 2}, turn=2))
    assert out["state"]["rev"] is True


def test_T34_eight_cut():
    top = {"cards": ["H6"], "owner": 0}
    out = legal(run([F0, ["S8", *F1], F2, F3], [P("S8")], laws=[9], top=top, turn=1))
    assert out["state"]["top"] is None and out["state"]["turn"] == 1
    out = legal(run([F0, ["S8"], F2, F3], [P("S8")], laws=[9], top=top, turn=1))
    assert out["state"]["bottom_list"] == [1] and out["state"]["top"] is None and out["state"]["turn"] == 2
    out = legal(run([F0, ["S8", *F1], F2, F3], [P("S8")], precepts={"09": 3}, top=top, turn=1))
    assert out["state"]["top"]["cards"] == ["S8"] and out["state"]["turn"] == 2


def test_T43_suit_lock():
    hands = [["S3", "D3", *F0], ["S4", "C4", *F1], ["H5", "D5", "S5", *F2], F3]
    d = [P("S3", "D3"), P("S4", "C4")]
    out = legal(run(hands, d, laws=[14], turn=0))
    assert out["state"]["suit_lock"] == ["S"]
    assert "suit lock" in illegal(run(hands, d + [P("H5", "D5")], laws=[14], turn=0))
    legal(run(hands, d + [P("S5", "H5")], laws=[14], turn=0))


def test_T44_joker_under_suit_lock():
    hands = [["S5", *F0], ["S7", *F1], ["Jk", *F2], F3]
    d = [P("S5"), P("S7")]
    out = legal(run(hands, d + [P("Jk")], laws=[14], turn=0))
    assert "P2 plays [Jk]" in out["events"]
    out = legal(run(hands, d + [{"play": ["Jk"], "as": ["S9"]}], laws=[14], turn=0))
    assert out["state"]["top"] == {"cards": ["Jk"], "as": ["S9"], "owner": 2}


def test_T45_suit_lock_precept():
    hands = [["S5", *F0], ["S7", "H9", *F1], ["S8", "H8", *F2], ["S10", *F3]]
    d = [P("S5"), P("S7")]
    # law: P1 obeys like everyone
    out = legal(run(hands, d + [P("S8"), P("S10"), PASS], laws=[14], turn=0))
    assert illegal(run(hands, d + [P("S8"), P("S10"), PASS, P("H9")], laws=[14], turn=0))
    # P1's precept: lock made by P1 binds P2; later P1 may ignore it
    out = run(hands, d, precepts={"14": 1}, turn=0)
    assert out["state"]["suit_lock"] == ["S"]
    assert illegal(run(hands, d + [P("H8")], precepts={"14": 1}, turn=0))
    legal(run(hands, d + [P("S8"), PASS, PASS, P("H9")], precepts={"14": 1}, turn=0))
    # P3's precept: P1's play makes no lock
    assert run(hands, d, precepts={"14": 3}, turn=0)["state"]["suit_lock"] == []


def test_T46_geki_shibari():
    hands = [["S4", *F0], ["S5", *F1], ["S6", "H6", "S7", "Jk", *F2], F3]
    d = [P("S4"), P("S5")]
    out = run(hands, d, laws=[14, 15], turn=0)
    assert out["state"]["suit_lock"] == ["S"] and out["state"]["num_lock"] is True
    legal(run(hands, d + [P("S6")], laws=[14, 15], turn=0))
    legal(run(hands, d + [{"play": ["Jk"], "as": ["S6"]}], laws=[14, 15], turn=0))
    legal(run(hands, d + [P("Jk")], laws=[14, 15], turn=0))
    assert illegal(run(hands, d + [P("H6")], laws=[14, 15], turn=0))
    assert illegal(run(hands, d + [P("S7")], laws=[14, 15], turn=0))


def test_T47_number_lock_precept():
    hands = [["H4", "S7", *F0], ["C9", *F1], ["C5", "D9", *F2], ["D6", "D10", "DJ", *F3]]
    d = [P("H4"), PASS, P("C5")]
    out = run(hands, d, precepts={"15": 2}, turn=0)
    assert out["state"]["num_lock"] is True
    assert illegal(run(hands, d + [P("DJ")], precepts={"15": 2}, turn=0))
    d2 = d + [P("D6")]
    assert illegal(run(hands, d2 + [P("F0" if False else "C4")], precepts={"15": 2}, turn=0))
    legal(run(hands, d2 + [P("S7")], precepts={"15": 2}, turn=0))
    # P0 passes, P1 is locked out, P2 ignores the lock: D9 on D6; the lock stays -> a 10 is needed
    d3 = d2 + [PASS, P("D9")]
    out = legal(run(hands, d3, precepts={"15": 2}, turn=0))
    assert out["state"]["num_lock"] is True
    assert illegal(run(hands, d3 + [P("DJ")], precepts={"15": 2}, turn=0))
    legal(run(hands, d3 + [P("D10")], precepts={"15": 2}, turn=0))
    # as a law the lock made by P1 binds everyone
    law_hands = [["H4", *F0], ["C5", *F1], ["D7", "D6", *F2], F3]
    out = run(law_hands, [P("H4"), P("C5")], laws=[15], turn=0)
    assert out["state"]["num_lock"] is True and out["waiting"]["player"] == 2
    assert illegal(run(law_hands, [P("H4"), P("C5"), P("D7")], laws=[15], turn=0))


def test_suit_lock_refuses_the_number_lock_precept_holder():
    """[§4.14, §4.15, DEC-41, QA-15.2]: with 14 as a law and the 15 precept held by P1, both
    locks are on; P1 ignores the number lock, so the suit lock is what refuses its HA on SQ,
    and the reason says so. Anyone else is refused by the number lock first."""
    hands = [["H2", "SK", "C3"], ["HA", "SA", "C5", "C6"], ["DK", "D3"], ["CK", "D4"]]
    state = {"top": {"cards": ["SQ"], "owner": 3}, "suit_lock": ["S"], "num_lock": True}
    reason = illegal(run(hands, [P("HA")], laws=[14], precepts={"15": 1}, turn=1, **state))
    assert reason.startswith("suit lock: must contain \u2660") and "number lock" not in reason
    legal(run(hands, [P("SA")], laws=[14], precepts={"15": 1}, turn=1, **state))
    assert "number lock" in illegal(run(hands, [P("H2")], laws=[14], precepts={"15": 1}, turn=0, **state))


def test_T48_number_lock_reversed():
    hands = [["S9", *F0], ["H8", *F1], ["S7", "S6", *F2], F3]
    out = run(hands, [P("S9"), P("H8")], laws=[15], rev=True, turn=0)
    assert out["state"]["num_lock"] is True
    legal(run(hands, [P("S9"), P("H8"), P("S7")], laws=[15], rev=True, turn=0))
    assert illegal(run(hands, [P("S9"), P("H8"), P("S6")], laws=[15], rev=True, turn=0))


def test_T53_jback():
    hands = [F0, ["SJ", *F1], ["S10", "SQ", *F2], F3]
    top = {"cards": ["H9"], "owner": 0}
    out = legal(run(hands, [P("SJ")], laws=[19], top=top, turn=1))
    assert out["state"]["jback"] is True
    legal(run(hands, [P("SJ"), P("S10")], laws=[19], top=top, turn=1))
    assert illegal(run(hands, [P("SJ"), P("SQ")], laws=[19], top=top, turn=1))
    # nobody can beat the 10 under J-back: the others pass unasked, the field flows, the order is normal
    out = legal(run(hands, [P("SJ"), P("S10")], laws=[19], top=top, turn=1))
    assert out["state"]["jback"] is False and out["state"]["top"] is None and out["state"]["turn"] == 2
    # with a revolution: J is stronger than Q, then the order is normal again for the trick
    top = {"cards": ["HQ"], "owner": 0}
    out = legal(run(hands, [P("SJ")], laws=[19], top=top, turn=1, rev=True))
    assert out["state"]["jback"] is True and out["state"]["rev"] is True
    assert illegal(run(hands, [P("SJ"), P("S10")], laws=[19], top=top, turn=1, rev=True))
    legal(run(hands, [P("SJ"), P("SQ")], laws=[19], top=top, turn=1, rev=True))


def test_T57_stairs_follow():
    hands = [["S3", "S4", "S5", *F0], ["C3", "C4", "C5", "C6", *F1], F2, F3]
    legal(run(hands, [P("S3", "S4", "S5"), P("C4", "C5", "C6")], laws=[21], turn=0))
    assert illegal(run(hands, [P("S3", "S4", "S5"), P("C3", "C4", "C5")], laws=[21], turn=0))


def test_T58_stairs_locks():
    hands = [["S3", "S4", "S5", *F0], ["S6", "S7", "S8", *F1],
             ["S9", "S10", "SJ", "SQ", "H9", "H10", "HJ", *F2], F3]
    d = [P("S3", "S4", "S5")]
    out = run(hands, d, laws=[14, 15, 21], turn=0)
    assert out["state"]["suit_lock"] == [] and out["state"]["num_lock"] is False
    d += [P("S6", "S7", "S8")]
    out = run(hands, d, laws=[14, 15, 21], turn=0)
    assert out["state"]["suit_lock"] == ["S"] and out["state"]["num_lock"] is True
    legal(run(hands, d + [P("S9", "S10", "SJ")], laws=[14, 15, 21], turn=0))
    assert illegal(run(hands, d + [P("H9", "H10", "HJ")], laws=[14, 15, 21], turn=0))
    assert illegal(run(hands, d + [P("S10", "SJ", "SQ")], laws=[14, 15, 21], turn=0))


def test_T65_forbidden_finish_effect_cards():
    out = legal(run([F0, ["CJ"], F2, F3], [P("CJ")], laws=[19], top={"cards": ["H9"], "owner": 0}, turn=1))
    assert out["state"]["bottom_list"] == [1]
    top = {"cards": ["S6"], "owner": 0}
    out = legal(run([F0, ["D3"], F2, F3], [P("D3")], laws=[19], top=top, jback=True, turn=1))
    assert out["state"]["bottom_list"] == [1]
    out = legal(run([F0, ["D5"], F2, F3], [P("D5")], laws=[19], top=top, jback=True, turn=1))
    assert out["state"]["top_list"] == [1]


def test_T28_stairs_not_bypassed_without_06():
    """T-28 first half holds without card 06: no single or pair onto stairs."""
    hands = [F0, ["SK", "HK", *F1], F2, F3]
    top = {"cards": ["S3", "S4", "S5"], "owner": 0}
    assert illegal(run(hands, [P("SK")], laws=[6, 21], top=top, turn=1))
    assert illegal(run(hands, [P("SK", "HK")], laws=[6, 21], top=top, turn=1))


def test_T49_sameness():
    """T-49 [§4.16, §4.0]: equal strength may follow; never under a number lock (§4.15);
    as a precept only the holder may."""
    hands = [["D5", "D6"], ["S2", "S5", "S6"], ["H2", "H5", "H6"], ["C5", "C6"]]
    top = {"cards": ["D2"], "owner": 0}
    out = legal(run(hands, [P("S2")], laws=[16], top=top, turn=1))
    assert out["state"]["top"] == {"cards": ["S2"], "owner": 1}
    with_joker = [hands[0], ["Jk", *hands[1]], hands[2], hands[3]]  # so that P1 has a choice
    assert "does not beat" in illegal(run(with_joker, [P("S2")], top=top, turn=1))
    hands = [["SA", "D5"], ["D2", "S5"], ["S2", "Jk", "H5"], ["C5", "C6"]]
    out = legal(run(hands, [P("SA"), P("D2")], laws=[15, 16], turn=0))
    assert out["state"]["num_lock"] is True
    assert "number lock" in illegal(run(hands, [P("SA"), P("D2"), P("S2")], laws=[15, 16], turn=0))
    hands = [["D5", "D6"], ["S2", "S5", "S6"], ["H2", "H5", "H6"], ["C5", "C6"]]
    legal(run(hands, [P("S2")], precepts={"16": 1}, top=top, turn=1))
    assert illegal(run(hands, [P("S2"), P("H2")], precepts={"16": 1}, top=top, turn=1))


def test_T59_three_return():
    """T-59 [§4.22, DEC-48, §3.7]: a 3 on a Joker single flows, the player leads; not on a joker
    played alone as another card; a finish by it is forbidden; as a precept only the holder's 3."""
    hands = [["Jk", "D5", "D6"], ["D3", "S5", "S6"], ["H5", "H6"], ["C5", "C6"]]
    out = legal(run(hands, [P("Jk"), P("D3")], laws=[22], turn=0))
    assert "three return" in out["events"] and out["state"]["top"] is None and out["state"]["turn"] == 1
    assert "Jk" in out["state"]["discard"] and "D3" in out["state"]["discard"]
    assert illegal(run(hands, [{"play": ["Jk"], "as": ["SA"]}, P("D3")], laws=[22], turn=0))
    assert illegal(run(hands, [P("Jk"), P("D3")], precepts={"22": 2}, turn=0))
    legal(run(hands, [P("Jk"), P("D3")], precepts={"22": 1}, turn=0))
    # locks do not bind it: a suit lock of hearts stays from earlier plays
    hands = [["D5", "D6"], ["D3", "S5", "S6"], ["H5", "H6"], ["C5", "C6"]]
    out = legal(run(hands, [P("D3")], laws=[14, 22], top={"cards": ["Jk"], "owner": 0}, suit_lock=["H"],
                    turn=1))
    assert out["state"]["turn"] == 1
    # the 3 as the last card: a forbidden finish (DEC-27), the next player leads
    out = legal(run([["Jk", "D5"], ["D3"], ["H5", "H6"], ["C5", "C6"]], [P("Jk"), P("D3")], laws=[22], turn=0))
    assert out["state"]["bottom_list"] == [1] and out["state"]["turn"] == 2 and out["state"]["top"] is None


def test_T60_wisdom_of_three():
    """T-60 [§4.23, QA-23.1, DEC-49]: three 3s on four 10s flow the field, the player leads, the
    revolution stays; an eight cut flows first, leaving no chance for three 3s."""
    hands = [["S10", "H10", "D10", "C10", "D5"], ["S3", "H3", "D3", "S6", "D7"], ["H5", "H6"], ["C5", "C6"]]
    d = [P("S10", "H10", "D10", "C10"), P("S3", "H3", "D3")]
    out = legal(run(hands, d, laws=[23], turn=0))
    assert "three 3s" in out["events"] and out["state"]["top"] is None
    assert out["state"]["turn"] == 1 and out["state"]["rev"] is True
    assert illegal(run(hands, d, turn=0))
    assert illegal(run(hands, d, precepts={"23": 2}, turn=0))
    hands = [["S8", "D5", "D6"], ["S3", "H3", "D3", "S6", "D7"], ["H5", "H6"], ["C5", "C6"]]
    out = legal(run(hands, [P("S8")], laws=[9, 23], turn=0))
    assert out["state"]["top"] is None and out["state"]["turn"] == 0 and "S3" in out["state"]["hands"][1]
    # leading three 3s flows at once, the same player leads again; a finish by them is forbidden
    out = legal(run(hands, [PASS, P("S3", "H3", "D3")], laws=[23], turn=0, top={"cards": ["C4"], "owner": 3}))
    assert out["state"]["turn"] == 1 and out["state"]["top"] is None
    out = legal(run([["S8", "D5", "D6"], ["S3", "H3", "D3"], ["H5", "H6"], ["C5", "C6"]], [P("S3", "H3", "D3")],
                    laws=[23], turn=1, top={"cards": ["D2"], "owner": 0}))
    assert out["state"]["bottom_list"] == [1] and out["state"]["turn"] == 2


def test_T61_wisdom_with_a_joker():
    """T-61 [QA-23.2, QA-23.1]: 3 + 3 + joker count as three 3s and beat a Joker single."""
    hands = [["D5", "D6"], ["S3", "H3", "Jk2", "S6", "D7"], ["H5", "H6"], ["C5", "C6"]]
    out = legal(run(hands, [P("S3", "H3", "Jk2")], laws=[23], jokers=2, top={"cards": ["Jk"], "owner": 0},
                    turn=1))
    assert "three 3s" in out["events"] and out["state"]["turn"] == 1 and out["state"]["top"] is None
    assert "Jk2" in out["state"]["discard"] and out["state"]["jokers"] == 2


def test_T28_slip_through():
    """T-28 [§4.6, DEC-34]: with 06 alone a single goes on a pair when stronger, rank against
    rank, and the trick goes on as singles."""
    hands = [["S4", "D5"], ["D10", "D8", "S6"], ["H5", "HJ", "H6"], ["C5", "C6"]]
    top = {"cards": ["S9", "H9"], "owner": 0}
    out = legal(run(hands, [P("D10")], laws=[6], top=top, turn=1))
    assert out["state"]["top"] == {"cards": ["D10"], "owner": 1}
    legal(run(hands, [P("D10"), P("HJ")], laws=[6], top=top, turn=1))
    assert "does not beat" in illegal(run(hands, [P("D8")], laws=[6], top=top, turn=1))
    assert illegal(run(hands, [P("D10")], top=top, turn=1))
    assert illegal(run(hands, [P("D10")], precepts={"06": 2}, top=top, turn=1))


def test_T29_slip_through_keeps_locks():
    """T-29 [QA-06.2]: a slip-through play obeys the suit lock."""
    hands = [["S5", "D5"], ["S7", "D7"], ["H9", "D9", "S9", "H6"], ["C5", "C6"]]
    d = [P("S5"), P("S7")]
    out = legal(run(hands, d, laws=[6, 14], turn=0))
    assert out["state"]["suit_lock"] == ["S"]
    assert "suit lock" in illegal(run(hands, d + [P("H9", "D9")], laws=[6, 14], turn=0))
    out = legal(run(hands, d + [P("S9", "H9")], laws=[6, 14], turn=0))
    assert "P2 plays [♠9 ♥9]" in out["events"] and out["state"]["turn"] == 2  # nobody beats it


def test_T30_slip_through_on_a_revolution():
    """T-30 [QA-06.3, §3.5]: a single on a four-card revolution keeps the reversal; singles follow."""
    hands = [["S9", "H9", "D9", "C9", "D5"], ["S5", "S6"], ["D4", "H6", "H7"], ["C5", "C6"]]
    d = [P("S9", "H9", "D9", "C9"), P("S5")]
    out = legal(run(hands, d, laws=[6], turn=0))
    assert out["state"]["rev"] is True and out["state"]["top"] == {"cards": ["S5"], "owner": 1}
    assert "does not beat" in illegal(run(hands, d + [P("H6")], laws=[6], turn=0))
    legal(run(hands, d + [P("D4")], laws=[6], turn=0))


def test_T38_magician_hunt():
    """T-38 [§4.11, QA-11.1, DEC-37]: after a single Q a joker holder must play one Joker single
    (not both; applied without asking, D10); a player without a joker may pass; a precept hunt
    needs the holder's Q."""
    hands = [["SQ", "D5"], ["Jk", "Jk2", "S5"], ["H5", "H6"], ["C5", "C6"]]
    out = run(hands, [P("SQ")], laws=[11], jokers=2, turn=0)
    ev = out["events"]
    assert ev[:3] == ["P0 plays [♠Q]", "magician hunt", "P1 plays [Jk]"]
    # nobody beats the Joker: the field flows, P1 leads still holding Jk2, the hunt is over
    assert out["waiting"]["player"] == 1 and out["state"]["hunt"] is False and "Jk2" in out["state"]["hands"][1]
    out = run(hands, [P("SQ")], precepts={"11": 3}, jokers=2, turn=0)
    assert out["waiting"]["player"] == 1 and out["state"]["hunt"] is False  # P1 may pass
    out = run(hands, [P("SQ")], precepts={"11": 0}, jokers=2, turn=0)
    assert "P1 plays [Jk]" in out["events"]
    hands = [["SQ", "D5"], ["SK", "S5"], ["Jk", "H5"], ["C5", "C6"]]
    out = legal(run(hands, [P("SQ"), PASS], laws=[11], turn=0))
    assert out["events"][2:4] == ["P1 passes", "P2 plays [Jk]"]
    # a scenario may start inside a hunt: P2 already played a joker in it, so is not forced
    out = run(hands, [], laws=[11], hunt=True, hunt_done=[2], top={"cards": ["HK"], "owner": 1}, turn=2)
    assert out["waiting"]["player"] == 2 and out["state"]["hunt_done"] == [2]


def TD(*cards):
    return {"ten_discard": list(cards)}


def PB(*cards):
    return {"pull_back": list(cards)}


def test_T23_ten_discard():
    """T-23 [§4.3, QA-03.1, DEC-32]: a pair of 10s lets the player discard up to 2 cards face up."""
    hands = [["D5", "D6"], ["S10", "H10", "C3", "D4", "S5", "S6", "S7"], ["H5", "H6"], ["C5", "C6"]]
    top = {"cards": ["S9", "H9"], "owner": 0}
    out = legal(run(hands, [P("S10", "H10"), TD("C3", "D4")], laws=[3], top=top, turn=1))
    assert out["state"]["hands"][1] == ["S5", "S6", "S7"] and {"C3", "D4"} <= set(out["state"]["discard"])
    assert "P1 discards ♣3 ♦4" in out["events"]
    assert "at most 2" in illegal(run(hands, [P("S10", "H10"), TD("C3", "D4", "S5")], laws=[3], top=top, turn=1))
    out = legal(run(hands, [P("S10", "H10"), TD()], laws=[3], top=top, turn=1))
    assert len(out["state"]["hands"][1]) == 5
    out = run(hands, [P("S10", "H10")], precepts={"03": 2}, top=top, turn=1)  # not the holder's 10s
    assert len(out["state"]["hands"][1]) == 5


def test_T24_ten_discard_finishes_are_forbidden():
    """T-24 [QA-03.2, §3.7]: a last-card 10 is a forbidden finish; so is a hand emptied by the discard."""
    top = {"cards": ["S9"], "owner": 0}
    out = legal(run([["D5", "D6"], ["D10"], ["H5", "H6"], ["C5", "C6"]], [P("D10")], laws=[3], top=top, turn=1))
    assert out["state"]["bottom_list"] == [1]
    out = legal(run([["D5", "D6"], ["D10", "C5"], ["H5", "H6"], ["C6", "C7"]], [P("D10"), TD("C5")], laws=[3],
                    top=top, turn=1))
    assert out["state"]["bottom_list"] == [1] and "C5" in out["state"]["discard"]
    out = legal(run([["D5", "D6"], ["D10", "C5"], ["H5", "H6"], ["C6", "C7"]], [P("D10"), TD()], laws=[3],
                    top=top, turn=1))
    assert out["state"]["bottom_list"] == [] and not any("discards" in e for e in out["events"])


def test_T35_pull_back_chooses_among_the_top_cards():
    """T-35 [QA-10.1, §4.6]: a single K slipped onto a pair of Qs takes one card of the taker's choice."""
    hands = [["D5", "D6"], ["SK", "S5", "S6"], ["H5", "H6"], ["C5", "C6"]]
    top = {"cards": ["SQ", "HQ"], "owner": 0}
    out = legal(run(hands, [P("SK"), PB("HQ")], laws=[6, 10], top=top, turn=1))
    assert "HQ" in out["state"]["hands"][1] and "HQ" not in out["state"]["field"]
    assert "at most 1" in illegal(run(hands, [P("SK"), PB("SQ", "HQ")], laws=[6, 10], top=top, turn=1))


def test_T36_pull_back_two_kings():
    """T-36 [§4.10, QA-10.2]: a pair of Ks takes both Qs; the top stays the pair of Ks."""
    hands = [["D5", "D6"], ["SK", "HK", "S5"], ["HA", "DA", "H6"], ["C5", "C6"]]
    top = {"cards": ["SQ", "HQ"], "owner": 0}
    out = run(hands, [P("SK", "HK"), PB("SQ", "HQ")], laws=[10], top=top, turn=1)
    assert out["state"]["top"] == {"cards": ["SK", "HK"], "owner": 1}
    assert out["state"]["hands"][1] == ["S5", "SQ", "HQ"] and out["state"]["field"] == ["SK", "HK"]


def test_T37_pull_back_of_the_last_card():
    """T-37 [§4.10, §3.7, QA-16.1]: the last card K takes a card, so the player has not finished;
    declining leaves the hand empty: a forbidden finish."""
    hands = [["D5", "D6"], ["CK"], ["H5", "H6"], ["C5", "C6"]]
    top = {"cards": ["SQ"], "owner": 0}
    out = legal(run(hands, [P("CK"), PB("SQ")], laws=[10], top=top, turn=1))
    # not finished: nobody beats the K, P1 leads the Q later and goes out normally
    assert out["events"][:2] == ["P1 plays [♣K]", "P1 pulls back ♠Q"] and out["state"]["top_list"] == [1]
    out = legal(run(hands, [P("CK"), PB()], laws=[10], top=top, turn=1))
    assert out["state"]["bottom_list"] == [1]


def test_T50_pull_back_loop_ends_by_the_guard():
    """T-50 [QA-16.1, DEC-18]: K-on-K pull-backs under 10 and 16 loop; the play-count guard ranks
    the two remaining players in a random order."""
    hands = [[], ["SK", "DK", "S5"], ["HK", "CK", "H5"], []]
    d = [P("SK"), P("HK"), PB("SK"), P("DK"), PB("HK"), P("CK"), PB("DK"), P("HK"), PB("CK"),
         P("SK"), PB("HK"), P("CK"), PB("SK"), P("DK"), PB("CK")]
    out = legal(run(hands, d, laws=[10, 16], top_list=[0], bottom_list=[3], turn=1,
                    params={"max_plays_per_round": 8}))
    assert out["finished"] and any(e.startswith("play-count guard") for e in out["events"])
    assert sorted(out["result"]["ranking"][1:3]) == [1, 2]


def test_T54_descent_one_way_only():
    """T-54 [§4.20, QA-20.1]: an A may be played as a J; a J never as an A."""
    hands = [["D5", "D6"], ["HA", "SJ", "S5"], ["H5", "H6"], ["C5", "C6"]]
    top = {"cards": ["D10"], "owner": 0}
    out = legal(run(hands, [{"play": ["HA"], "as": ["HJ"]}], laws=[20], top=top, turn=1))
    assert "P1 plays [♥A=J]" in out["events"]
    assert "cannot stand for" in illegal(run(hands, [{"play": ["SJ"], "as": ["SA"]}], laws=[20], top=top, turn=1))
    assert "card 20" in illegal(run(hands, [{"play": ["HA"], "as": ["HJ"]}], top=top, turn=1))
    assert illegal(run(hands, [{"play": ["HA"], "as": ["HJ"]}], precepts={"20": 2}, top=top, turn=1))
    # the canonical list offers the A as J (no natural ♥J in hand) beside the A itself
    out = run(hands, [], laws=[20], top=top, turn=1)
    assert {"play": ["HA"], "as": ["HJ"]} in out["waiting"]["legal"] and {"play": ["HA"]} in out["waiting"]["legal"]


def test_T55_descent_in_stairs_and_sets():
    """T-55 [QA-20.2]: substitutes in stairs (♥10 ♥A=J ♥2=Q) and in sets (♠K ♣3=K)."""
    hands = [["D5", "D6"], ["H10", "HA", "H2", "SK", "C3", "S5"], ["H5", "H6"], ["C5", "C6"]]
    out = legal(run(hands, [{"play": ["H10", "HA", "H2"], "as": ["H10", "HJ", "HQ"]}], laws=[20, 21], turn=1))
    assert out["events"][0] == "P1 plays [♥10 ♥A=J ♥2=Q]"
    out = legal(run(hands, [{"play": ["SK", "C3"], "as": ["SK", "CK"]}], laws=[20], turn=1))
    assert out["events"][0] == "P1 plays [♣3=K ♠K]"


def test_T56_descent_triggers_the_represented_rank():
    """T-56 [QA-20.3, DEC-24]: an A as J sets J-back (19); a single 2 as Q starts the hunt (11)."""
    hands = [["D5", "D6"], ["DA", "C2", "S5"], ["H5", "H6"], ["C5", "C6"]]
    out = legal(run(hands, [{"play": ["DA"], "as": ["DJ"]}], laws=[19, 20], top={"cards": ["S9"], "owner": 0},
                    turn=1))
    assert "J-back" in out["events"]
    out = run(hands, [{"play": ["C2"], "as": ["CQ"]}], laws=[11, 20], top={"cards": ["S9"], "owner": 0}, turn=1)
    assert "magician hunt" in out["events"]


T09_HANDS = [
    ["S3", "H3", "D3", "C3", "S4", "H4", "D4", "C4", "S5", "H5"],
    ["Jk", "S2", "S6", "H6", "D6", "C6", "S7", "H7", "D7", "C7"],
    ["H2", "C2", "S8", "H8", "D8", "C8", "S9", "H9", "D9", "C9"],
    ["DA", "S10", "H10", "D10", "C10", "SJ", "HJ", "DJ", "CJ", "SQ"],
]


def test_T33_metamorphosis_any_gift():
    """T-33 [08, §4.8, §2.7]: law 08, round 2, king P0: P1 holding a joker gives ♣6 instead (any
    card); the others may give any card too. Without 08 P1 must give the joker."""
    hands = [list(h) for h in T09_HANDS]
    hands[1][hands[1].index("C6")] = "C3"
    hands[0][hands[0].index("C3")] = "C6"
    base = dict(round=2, prev_ranking=[0, 1, 2, 3], phase="exchange")
    out = legal(run(hands, [{"give": "C3"}], laws=[8], **base))
    assert "C3" in out["state"]["hands"][0] and "Jk" in out["state"]["hands"][1]
    assert out["waiting"]["player"] == 2 and len(out["waiting"]["legal"]) == 10  # P2: any of 10 cards
    out = legal(run(hands, [{"give": "C3"}, {"give": "S8"}, {"give": "S10"}], laws=[8], bots=["greedy"] * 4, **base))
    assert out["rounds"][0]["ranking"] and sorted(out["rounds"][0]["ranking"]) == [0, 1, 2, 3]
    assert "is not allowed" in illegal(run(hands, [{"give": "C3"}], **base))
    out = run(hands, [], **base)  # without 08: the joker is P1's only option, given without asking
    assert "Jk" in out["state"]["hands"][0]
    # 08 as P2's precept: only P2 may give any card; P1 still gives the joker
    out = legal(run(hands, [{"give": "S8"}], precepts={"8": 2}, **base))
    assert "Jk" in out["state"]["hands"][0] and "S8" in out["state"]["hands"][0]


def test_doc_example_and_bots_continue():
    """docs/scenarios/daifugo.md example (T-46); bots finish the round; the game goes on."""
    hands = [["S4", "SA", "HA"], ["S5", "S2", "H2"], ["S6", "H6", "S7", "Jk"], ["DA", "CA"]]
    out = run(hands, [P("S4"), P("S5"), P("H6")], laws=[14, 15], turn=0)
    assert out["illegal"]["index"] == 2 and "suit lock" in out["illegal"]["reason"]
    assert out["state"]["turn"] == 2 and out["state"]["suit_lock"] == ["S"]
    out = run(hands, [P("S4"), P("S5")], laws=[14, 15], turn=0, params={"rounds": 3},
              bots=["random", "greedy", "strategist", "random"])
    assert out["finished"] and not out["result"]["game_over"]
    assert sorted(out["result"]["ranking"]) == [0, 1, 2, 3]


def test_deal_phase_draft_round1():
    """§2.5/§2.6: a dealt round-1 madness scenario reveals the law, then drafts N precepts (DEC-6)."""
    out = run([[], [], [], []], [], phase="deal", rule_deck=[7, 9, 14, 15, 19, 21],
              params={"mode": "madness", "madness_rounds": 3}, bots=["random", "greedy", "strategist", "random"])
    assert out["finished"] and out["result"]["round"] == 1
    assert out["state"]["laws"] == [7] and sorted(out["state"]["precepts"]) == ["09", "14", "15", "19"]
    assert out["state"]["rule_deck"] == [21]


# ---------------------------------------------------------------- state input
def test_joker_top_without_as_respects_the_suit_lock():
    """§4.14 (card 14) with §3.6: a top play [♠5, Jk] given without ``as`` under the lock
    {♠, ♦} is read with the joker as ♦5 (the missing locked suit), not as ♥5 (the lowest
    missing suit when no lock is known); the lock then binds the next play."""
    hands = [["S3"], ["S6", "H6", "D6", "C6"], ["HA", "CA"]]
    state = {"laws": [14], "turn": 1, "suit_lock": ["S", "D"], "top": {"cards": ["S5", "Jk"], "owner": 0}}
    out = run(hands, players=3, **state)
    assert out["state"]["top"] == {"cards": ["S5", "Jk"], "as": ["D5"], "owner": 0}
    assert out["waiting"]["legal"] == [{"pass": True}, {"play": ["S6", "D6"]}]
    assert illegal(run(hands, [P("S6", "H6")], players=3, **state)) == "suit lock: must contain ♠♦"


@pytest.mark.parametrize("field, value, message", [
    ("round", "x", "'round' must be an integer 1..1, got 'x'"),
    ("start_player", 7, "'start_player' must be a seat 0..3, got 7"),
    ("laws", 14, "'laws' must be a list, got 14"),
    ("rule_deck", None, "'rule_deck' must be a list, got None"),
    ("revealed", "7", "'revealed' must be a list, got '7'"),
    ("passed", 1, "'passed' must be a list, got 1"),
    ("top_list", {}, "'top_list' must be a list, got {}"),
    ("bottom_list", 3, "'bottom_list' must be a list, got 3"),
    ("draft_left", 0, "'draft_left' must be a list, got 0"),
    ("trim_left", "0", "'trim_left' must be a list, got '0'"),
    ("prev_ranking", 1, "'prev_ranking' must order all seats"),
    ("rank_points", [1, 2], "'rank_points' must list 4 integers, got [1, 2]"),
    ("bonus_points", None, "'bonus_points' must be a list, got None"),
    ("precept_points", [0, 0, 0, "x"], "'precept_points' must list 4 integers, got [0, 0, 0, 'x']"),
])
def test_malformed_state_field(field, value, message):
    from sim.kit.config import ConfigError

    spec = {"game": "daifugo", "params": {"rounds": 1}, "state": {"hands": [F0, F1, F2, F3], field: value}}
    with pytest.raises(ConfigError) as e:
        GAME.scenario(spec)
    assert str(e.value) == message
