"""Spec §8 scenarios of the revolution cards 02, 13, 17, 18 (reference engine, JSON scenarios)."""

from .test_scenarios import F0, F1, F2, F3, P, illegal, legal, run


# ---------------------------------------------------------------- 17 Magician Exile
def test_T51_magician_exile_law_and_precept():
    """T-51 [17, §4.17, DEC-44]: a joker four of a kind is legal but causes no revolution; as
    P0's precept only P0 may still revolt with a joker."""
    hands = [["S7", "H7", "D7", "Jk", *F0], ["SK", "HK", "DK", "CK", "S3", "H3", "D3", "C3"], F2, F3]
    out = legal(run(hands, [P("S7", "H7", "D7", "Jk")], laws=[17], turn=0))
    assert out["state"]["rev"] is False and out["state"]["top"]["cards"] == ["S7", "H7", "D7", "Jk"]
    assert "magician exile: no revolution with a joker" in out["events"]
    out = legal(run(hands, [P("S7", "H7", "D7", "Jk")], precepts={"17": 0}, turn=0))
    assert out["state"]["rev"] is True
    hands = [F0, ["S4", "H4", "D4", "Jk", *F1], F2, F3]
    out = legal(run(hands, [P("S4", "H4", "D4", "Jk")], precepts={"17": 0}, turn=1))
    assert out["state"]["rev"] is False


def test_magician_exile_natural_revolution_and_illegal_variant():
    """§4.17: four natural cards still revolt under 17; DEC-44 ``exile_mode = illegal`` makes the
    joker four of a kind illegal for a restricted player (not for the precept holder)."""
    hands = [["S7", "H7", "D7", "C7", "Jk", *F0], F1, F2, F3]
    assert legal(run(hands, [P("S7", "H7", "D7", "C7")], laws=[17], turn=0))["state"]["rev"] is True
    params = {"exile_mode": "illegal"}
    assert "card 17" in illegal(run(hands, [P("S7", "H7", "D7", "Jk")], laws=[17], turn=0, params=params))
    out = legal(run(hands, [P("S7", "H7", "D7", "Jk")], precepts={"17": 0}, turn=0, params=params))
    assert out["state"]["rev"] is True


# ---------------------------------------------------------------- 13 Armed Force
def Q(p, *cards):
    return {"player": p, "play": list(cards)}


def X(p):
    return {"player": p, "pass": True}


def test_T41_armed_force_after_first_is_decided():
    """T-41 [13, QA-13.1, QA-13.2, QA-13.3, QA-13.4]: B (P1) goes out first and A (P0, king)
    falls; C's (P2) unanswered revolution makes C 1st at the trick end and B, the new king of
    this round, falls; D is 2nd, A 3rd, B 4th; a bonus for each capital fall."""
    hands = [["S3", "H3", "D3", "C4", "H4"], ["S9"], ["S6", "H6", "D6", "C6", "SK", "D5"], ["SA", "HA", "D7"]]
    d = [Q(1, "S9"), X(2), X(3), Q(2, "S6", "H6", "D6", "C6"), X(3)]
    out = legal(run(hands, d, laws=[13], round=2, prev_ranking=[0, 1, 2, 3], turn=1))
    res = out["result"]
    assert res["ranking"] == [2, 3, 0, 1]
    assert res["round_rank_points"] == [1, 0, 3, 2] and res["round_bonus_points"] == [1, 1, 2, 2]
    assert [a + b for a, b in zip(res["round_rank_points"], res["round_bonus_points"])] == [2, 1, 5, 4]
    assert out["rounds"][-1]["capital_falls"] == 2
    assert "capital fall: 1st P1 to last place" in out["events"]


def test_T42_armed_force_fizzles_on_a_counter_revolution():
    """T-42 [13, DEC-39]: a counter-revolution in the same trick takes over the claim; at the trick
    end the returner (P2) is 1st, no capital fall in round 1; P1 stays. As P1's precept the
    counter leaves no claim and nobody is promoted."""
    hands = [["S3", "SJ"], ["S7", "H7", "D7", "C7", "SQ", "HQ"], ["S5", "H5", "D5", "C5", "DQ"],
             ["SK", "HK", "S4", "H4", "D4", "C4"]]
    d = [Q(1, "S7", "H7", "D7", "C7"), Q(2, "S5", "H5", "D5", "C5"), X(3), X(0), X(1)]
    out = legal(run(hands, d, laws=[13], turn=1))
    st = out["state"]
    assert st["top_list"] == [2] and st["af_claim"] is None and st["rev"] is False
    assert st["hands"][1] == ["SQ", "HQ"] and st["turn"] == 3 and "DQ" in st["discard"]
    out = legal(run(hands, d, precepts={"13": 1}, turn=1))
    assert not [e for e in out["events"] if e.startswith("armed force: ")]
    assert "field flows; P2 leads" in out["events"]  # P2 stayed in the round
    assert "armed force of P1 fizzles" in out["events"]


def test_armed_force_promotes_from_the_bottom_and_variants():
    """DEC-40: a forbidden finisher whose last play was the unanswered revolution is promoted
    from the bottom. DEC-39 ``immediate``: the claimant is 1st as soon as the play resolves and
    leaves the round, the hand face up to the discard pile (DEC-16)."""
    hands = [["S3", "SK"], ["S2", "H2", "D2", "C2"], ["S5", "SQ"], ["S4", "HK"]]
    d = [Q(1, "S2", "H2", "D2", "C2"), X(2), X(3), X(0)]
    out = legal(run(hands, d, laws=[13], turn=1))
    assert "P1 forbidden finish -> bottom" in out["events"]
    assert out["state"]["top_list"] == [1] and out["state"]["bottom_list"] == []
    hands = [["S3", "SK"], ["S7", "H7", "D7", "C7", "S9"], ["S5", "SQ"], ["S4", "HK"]]
    out = legal(run(hands, [Q(1, "S7", "H7", "D7", "C7")], laws=[13], turn=1,
                    params={"armed_force_resolution": "immediate"}))
    assert out["state"]["top_list"] == [1] and "S9" in out["state"]["discard"]
    assert out["waiting"]["player"] == 2


# ---------------------------------------------------------------- 18 Flux
P1_HAND = ["S6", "H6", "D6", "C6", "S3", "H3", "D4", "H5"]
P2_HAND = ["SK", "HK", "DK", "CK", "S8", "H8", "D9"]


def test_T52_flux_then_armed_force():
    """T-52 [18, QA-18.1, 13]: the revolution maker swaps hands first, then wins by armed force at
    the trick end; the 7 cards received go face up to the discard pile; P2 leads."""
    hands = [["SA", "HA", "DA"], P1_HAND, P2_HAND, ["S9", "H9", "C9", "S10"]]
    out = legal(run(hands, [Q(1, "S6", "H6", "D6", "C6")], laws=[13, 18], turn=1))
    ev, st = out["events"], out["state"]
    assert ev.index("flux: hands move P1->P2 P2->P1") < ev.index("armed force: P1 is 1st")
    assert "P2 passes" in ev and "P3 passes" in ev and "P0 passes" in ev
    assert st["top_list"] == [1] and st["hands"][1] == [] and set(P2_HAND) <= set(st["discard"])
    assert sorted(st["hands"][2]) == ["D4", "H3", "H5", "S3"]
    assert st["turn"] == 2 and out["waiting"]["player"] == 2


def test_T66_flux_rotate_all():
    """T-66 [DEC-45] ``flux_mode = rotate_all``: P2 revolts, every active hand moves one seat
    clockwise (P0's to P1, P1's to P2, P2's to P3, P3's to P0)."""
    h0, h1, h3 = ["SA", "HA", "DA"], ["S3", "H3", "D3"], ["S9", "H9", "C9", "S10"]
    hands = [h0, h1, ["S5", "H5", "D5", "C5", "SQ", "HQ"], h3]
    out = legal(run(hands, [Q(2, "S5", "H5", "D5", "C5")], laws=[18], turn=2, params={"flux_mode": "rotate_all"}))
    st = out["state"]
    assert sorted(st["hands"][1]) == sorted(h0) and sorted(st["hands"][2]) == sorted(h1)
    assert sorted(st["hands"][3]) == ["HQ", "SQ"] and sorted(st["hands"][0]) == sorted(h3)


def test_flux_precept_is_the_holders_option():
    """§4.18 precept: only the holder's revolution can exchange, and the holder may decline (D13)."""
    hands = [["SA", "HA", "DA"], P1_HAND, P2_HAND, ["S9", "H9", "C9", "S10"]]
    d = [Q(1, "S6", "H6", "D6", "C6")]
    out = legal(run(hands, d + [{"flux": False}], precepts={"18": 1}, turn=1))
    assert sorted(out["state"]["hands"][1]) == sorted(["S3", "H3", "D4", "H5"])
    out = legal(run(hands, d + [{"flux": True}], precepts={"18": 1}, turn=1))
    assert len(out["state"]["hands"][1]) == 7 and len(out["state"]["hands"][2]) == 4
    assert run(hands, d, precepts={"18": 1}, turn=1)["waiting"]["decision"] == "flux"
    out = legal(run(hands, d, precepts={"18": 2}, turn=1))
    assert len(out["state"]["hands"][1]) == 4


# ---------------------------------------------------------------- 02 Fusion Revolution
def F(p, *cards, **kw):
    return {"player": p, "fuse": list(cards), **kw}


NINES = {"cards": ["S9", "H9", "D9"], "owner": 0}


def test_T17_fusion_stays_on_the_field():
    """T-17 [02, QA-02.4]: ♣9 added to three 9s makes four 9s, owner P1, a revolution; the field
    does not flow; a single cannot follow, four 5s can (a counter-revolution)."""
    hands = [F0, ["C9", *F1], ["H10", "S5", "H5", "D5", "C5", "SK"], F3]
    out = legal(run(hands, [F(1, "C9")], laws=[2], top=NINES, turn=1))
    st = out["state"]
    assert st["top"] == {"cards": ["S9", "H9", "D9", "C9"], "owner": 1} and st["rev"] is True
    assert out["waiting"]["player"] == 2 and {"play": ["S5", "H5", "D5", "C5"]} in out["waiting"]["legal"]
    assert "type and count" in illegal(run(hands, [F(1, "C9"), Q(2, "H10")], laws=[2], top=NINES, turn=1))
    out = legal(run(hands, [Q(1, "C9"), Q(2, "S5", "H5", "D5", "C5")], laws=[2], top=NINES, turn=1))
    assert out["state"]["rev"] is False and out["rounds"] == [] and "P1 fuses [♣9] into [♠9 ♥9 ♦9 ♣9]" in out["events"]


def test_T18_fusion_extends_stairs():
    """T-18 [QA-02.1]: with 21, ♠6 onto ♠3♠4♠5 fuses into the stairs ♠3–♠6, a revolution."""
    hands = [F0, ["S6", *F1], ["S7", "SK"], F3]
    out = legal(run(hands, [F(1, "S6")], laws=[2, 21], top={"cards": ["S3", "S4", "S5"], "owner": 0}, turn=1))
    assert out["state"]["top"] == {"cards": ["S3", "S4", "S5", "S6"], "owner": 1} and out["state"]["rev"] is True
    assert out["waiting"]["legal"] == [{"pass": True}, {"fuse": ["S7"]}]


def test_T19_fusion_to_three_with_card_07():
    """T-19 [QA-02.2, QA-07.2]: with 07, ♦4 onto [♣4 ♠4] fuses into three 4s, a revolution; without
    07 a pair cannot reach revolution size with one card."""
    hands = [F0, ["D4", *F1], ["H4", "SK"], F3]
    top = {"cards": ["C4", "S4"], "owner": 0}
    out = legal(run(hands, [F(1, "D4")], laws=[2, 7], top=top, turn=1))
    assert out["state"]["top"]["cards"] == ["S4", "D4", "C4"] and out["state"]["rev"] is True
    assert "revolution-size" in illegal(run(hands, [F(1, "D4")], laws=[2], top=top, turn=1))


def test_T20_joker_fusion_and_magician_exile():
    """T-20 [QA-02.3]: a joker (as the missing 9) fuses into four 9s; under 17 that fusion is illegal."""
    hands = [F0, ["Jk", *F1], ["H10", "SK", "S3", "H3", "D3", "C3"], F3]
    out = legal(run(hands, [F(1, "Jk")], laws=[2], top=NINES, turn=1))
    assert out["state"]["top"] == {"cards": ["S9", "H9", "D9", "Jk"], "as": ["C9"], "owner": 1}
    assert out["state"]["rev"] is True
    assert "card 17" in illegal(run(hands, [F(1, "Jk")], laws=[2, 17], top=NINES, turn=1))


def test_T21_T22_fusion_on_both_sides_and_counter_fusion():
    """T-21 [QA-02.5]: ♠3 ♠4 ♠6 around a single ♠5 fuse into ♠3–♠6. T-22 [QA-02.6]: as a law P2
    fuses ♠7 onto it, a counter-revolution; as P1's precept P2 cannot."""
    hands = [F0, ["S3", "S4", "S6", *F1], ["S7", "SK", "HK"], F3]
    top = {"cards": ["S5"], "owner": 0}
    out = legal(run(hands, [Q(1, "S3", "S4", "S6")], laws=[2, 21], top=top, turn=1))
    assert out["state"]["top"] == {"cards": ["S3", "S4", "S5", "S6"], "owner": 1} and out["state"]["rev"] is True
    out = legal(run(hands, [Q(1, "S3", "S4", "S6"), F(2, "S7")], laws=[2, 21], top=top, turn=1))
    st = out["state"]
    assert "P2 fuses [♠7] into [♠3 ♠4 ♠5 ♠6 ♠7]" in out["events"] and "counter-revolution" in out["events"]
    assert st["rev"] is False
    out = run(hands, [Q(1, "S3", "S4", "S6"), F(2, "S7")], laws=[21], precepts={"02": 1}, top=top, turn=1)
    assert out["events"][2] == "P2 passes"  # no fusion for P2: the only option, a pass, was applied
    assert out["illegal"]["index"] == 1
