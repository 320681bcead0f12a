"""Spec §8 scenarios of cards 01 Recycle, 04 Taboo Breaking, 24 Loophole and 25 Dobon."""

from .test_scenarios import F3, P, illegal, legal, run


# ---------------------------------------------------------------- 04 Taboo Breaking
def test_T25_taboo_breaking_law_and_precept():
    """T-25 / §4.4 / §3.7: law 04 lifts the forbidden finish for everyone (P1's last ♠2 on ♥A
    makes P1 1st); as P2's precept only P2's finish is lifted."""
    top = {"cards": ["HA"], "owner": 0}
    hands = [["S4", "H4"], ["S2"], ["D2", "C4"], F3]
    out = legal(run(hands, [P("S2")], laws=[4], top=top, turn=1))
    assert out["state"]["top_list"] == [1] and out["state"]["bottom_list"] == []
    out = legal(run(hands, [P("S2")], precepts={"4": 2}, top=top, turn=1))
    assert out["state"]["bottom_list"] == [1] and out["state"]["top_list"] == []
    hands = [["S4", "H4"], ["S3", "S5"], ["D2"], F3]
    out = legal(run(hands, [P("D2")], precepts={"4": 2}, top=top, turn=2))
    assert out["state"]["top_list"] == [2] and out["state"]["bottom_list"] == []


def test_DEC54_taboo_law_for_commoners_keeps_the_king_bound():
    """DEC-54 / §4.4 / §3.7: under ``taboo_law_scope = commoners`` law 04 lifts the forbidden
    finish for every player but the reigning king (P1, 1st last round): the king's last ♠2 on ♥A
    is a forbidden finish (bottom), a commoner's (P2) is not; with the printed rule (everyone) the
    king finishes 1st. As the king's own precept 04 still applies."""
    top = {"cards": ["HA"], "owner": 0}
    king = dict(round=2, prev_ranking=[1, 0, 2, 3], top=top)
    hands = [["S4", "H4"], ["S2"], ["D2", "C4"], F3]
    variant = {"taboo_law_scope": "commoners", "rounds": 2}
    out = legal(run(hands, [P("S2")], params=variant, laws=[4], turn=1, **king))
    assert out["state"]["bottom_list"] == [1] and out["state"]["top_list"] == []
    out = legal(run(hands, [P("S2")], params={"rounds": 2}, laws=[4], turn=1, **king))
    assert out["state"]["top_list"] == [1] and out["state"]["bottom_list"] == []
    out = legal(run(hands, [P("S2")], params=variant, precepts={"4": 1}, turn=1, **king))
    assert out["state"]["top_list"] == [1]
    hands = [["S4", "H4"], ["S3", "S5"], ["D2"], F3]
    out = legal(run(hands, [P("D2")], params=variant, laws=[4], turn=2, **king))
    assert out["state"]["top_list"] == [2] and out["state"]["bottom_list"] == [1]  # 1st: the king falls (§3.8)


# ---------------------------------------------------------------- 01 Recycle
def R(p, card):
    """A recycle decision of seat p (card 01, D14); None declines."""
    return {"player": p, "recycle": card}


def test_T15_recycle_only_from_the_discard_pile():
    """T-15 / §4.1 / QA-01.1 / DEC-29: a joker on the field cannot be recycled; once the field
    flowed it can, in the after-flow window offered clockwise from the next leader (P1)."""
    hands = [["S4", "H4"], ["Jk", "S5", "H5"], ["S6", "H6"], ["S7", "H7"]]
    state = {"laws": [1], "turn": 1, "discard": ["C3"]}
    start = [R(1, None), {"player": 1, "play": ["Jk"]}]
    reason = illegal(run(hands, start + [R(2, "Jk")], **state))
    assert "not in the discard pile" in reason
    d = start + [R(2, None), R(3, None), R(0, None), R(1, None), R(2, "Jk")]
    out = legal(run(hands, d, **state))
    st = out["state"]
    assert st["top"] is None and "Jk" in st["hands"][2] and st["discard"] == ["C3"]
    assert st["recycle_used"] == [2]
    assert out["waiting"] == {"player": 3, "decision": "recycle", "legal": [{"recycle": None}, {"recycle": "C3"}]}


def test_T16_recycle_first_in_window_order_wins():
    """T-16 / QA-01.2: after the flow P3 leads; window order P3, P0, P1, P2: P1 takes ♠2, P2 is
    not offered anything and keeps its recycle."""
    hands = [["S4", "H4"], ["S5", "H5"], ["S6", "H6"], ["S7", "H7"]]
    d = [R(3, None), R(0, None), R(1, "S2")]
    out = legal(run(hands, d, laws=[1], top={"cards": ["S2"], "owner": 3}, turn=0))
    st = out["state"]
    assert "S2" in st["hands"][1] and st["discard"] == [] and st["recycle_used"] == [1]
    assert out["waiting"]["player"] == 3 and out["waiting"]["decision"] == "play"


# ---------------------------------------------------------------- 24 Loophole
PILE = ["S3", "H3", "D3", "C3", "S4", "H4", "D4", "C4", "S5", "D5", "C5", "S6"]


def _t62(p1, laws, decisions=()):
    hands = [["SA", "HA"], p1, ["D2", "C2"], ["DA", "CA"]]
    return legal(run(hands, decisions, laws=laws, turn=1, discard=PILE))


def test_T62_loophole_conditions():
    """T-62 / §4.24 / QA-24.1 / DEC-50: a hand of forbidden-finish cards only (♠2, joker) may be
    revealed at the start of the turn for one random discard card; ♠2 ♥5 may not; with 09 an
    8 is such a card; with 04 no card is (§4.27 04 × 24)."""
    out = _t62(["S2", "Jk"], [24])
    assert out["waiting"] == {"player": 1, "decision": "loophole",
                              "legal": [{"loophole": False}, {"loophole": True}]}
    out = _t62(["S2", "Jk"], [24], [{"player": 1, "loophole": True}])
    st = out["state"]
    taken = set(st["hands"][1]) - {"S2", "Jk"}
    assert len(taken) == 1 and taken <= set(PILE) and len(st["discard"]) == 11
    assert not taken & set(st["discard"]) and out["waiting"]["decision"] == "play"
    assert _t62(["S2", "H5"], [24])["waiting"]["decision"] == "play"
    assert _t62(["S8", "H2"], [9, 24])["waiting"]["decision"] == "loophole"
    assert _t62(["S2", "Jk"], [4, 24])["waiting"]["decision"] == "play"


# ---------------------------------------------------------------- 25 Dobon
def test_T63_dobon_out_of_turn():
    """T-63 / §4.25 / QA-25.1 / DEC-13 / DEC-51: on P0's ♥5, P1 (♠4, joker) cannot dobon; P2
    (♠2 ♣3: 2 + 3 = 5) calls out of turn and goes out 1st; the field flows and P3 leads."""
    hands = [["H5", "S9", "H9"], ["S4", "Jk"], ["S2", "C3"], ["S7", "H8"]]
    out = legal(run(hands, [{"player": 0, "play": ["H5"]}, {"player": 2, "dobon": True}], laws=[25], turn=0))
    st = out["state"]
    assert st["top_list"] == [2] and st["hands"][2] == [] and st["top"] is None
    assert {"H5", "S2", "C3"} <= set(st["discard"])
    assert out["waiting"]["player"] == 3 and st["turn"] == 3


def test_T64_dobon_finish_is_never_forbidden():
    """T-64 / QA-25.2: ♠2 + ♦2 = 4 on ♥4: P1 goes out by dobon with two 2s, not forbidden."""
    hands = [["H4", "S9", "H9"], ["S2", "D2"], ["S6", "S7"], ["S8", "C8"]]
    out = legal(run(hands, [{"player": 0, "play": ["H4"]}, {"player": 1, "dobon": True}], laws=[25], turn=0))
    assert out["state"]["top_list"] == [1] and out["state"]["bottom_list"] == []


# ---------------------------------------------------------------- with the second joker (05)
def test_recycle_loophole_and_dobon_with_the_second_joker():
    """§4.1, §4.24, §4.25 / QA-25.1 with card 05's Jk2 in the game: a recycle may take Jk2 from
    the discard pile; a hand of the two jokers is a loophole hand, and the loophole may draw Jk2;
    ♠4 Jk2 is no dobon on ♥5 (Jk2 has no value, as 4 + 1 would be)."""
    hands = [["S9", "H9"], ["S5", "H5"], ["S6", "H6"], ["S7", "H7"]]
    out = legal(run(hands, [], laws=[1], turn=1, discard=["C3", "Jk2"], jokers=2))
    assert out["waiting"]["legal"] == [{"recycle": None}, {"recycle": "C3"}, {"recycle": "Jk2"}]
    out = legal(run(hands, [R(1, "Jk2")], laws=[1], turn=1, discard=["C3", "Jk2"], jokers=2))
    assert "Jk2" in out["state"]["hands"][1] and out["state"]["discard"] == ["C3"]
    two_jokers = [["SA", "HA"], ["Jk", "Jk2"], ["D2", "C2"], ["DA", "CA"]]
    out = legal(run(two_jokers, [{"player": 1, "loophole": True}], laws=[24], turn=1, discard=["S3"], jokers=2))
    assert sorted(out["state"]["hands"][1]) == ["Jk", "Jk2", "S3"] and out["state"]["discard"] == []
    two_jokers[1] = ["Jk", "S2"]
    out = legal(run(two_jokers, [{"player": 1, "loophole": True}], laws=[24], turn=1, discard=["Jk2"], jokers=2))
    assert sorted(out["state"]["hands"][1]) == ["Jk", "Jk2", "S2"] and out["state"]["discard"] == []
    hands = [["H5", "S9", "H9"], ["S4", "Jk2"], ["S8", "H8"], ["S7", "H7"]]
    out = legal(run(hands, [{"player": 0, "play": ["H5"]}], laws=[25], turn=0, jokers=2))
    assert out["waiting"]["player"] == 1 and out["waiting"]["decision"] == "play"
