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
