"""Spec §8 scenarios of the post-exchange cards (§2.8): 05 Trickster (T-26, T-27) and
12 Collusion (T-39, T-40), through ``GAME.scenario`` (reference engine)."""

from sim.games.daifugo import GAME
from tests.daifugo.test_scenarios import illegal, legal, run

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]


def deal(players=4, size=10):
    """Hands of ``size`` cards: seat q holds the q-th block of the 52 natural cards in id order."""
    cards = [s + r for r in RANKS for s in "SHDC"]
    return [cards[q * size:(q + 1) * size] for q in range(players)]


def moved(before, after):
    """Per seat: (cards gone, cards come)."""
    return [(sorted(set(b) - set(a)), sorted(set(a) - set(b))) for b, a in zip(before, after)]


# ---------------------------------------------------------------- 05 Trickster
def test_T26_trickster_law_round1_start_player():
    """T-26 [05, QA-05.1, QA-05.3]: law 05 in round 1, start player P2: after the (skipped)
    exchange P2 receives the second joker -> 11 cards, may trim 4 (to 7)."""
    hands = deal()
    out = run(hands, [{"player": 0, "trim": []}, {"player": 1, "trim": []}], phase="post_exchange",
              laws=[5], start_player=2)
    st = out["state"]
    assert "Jk2" in st["hands"][2] and len(st["hands"][2]) == 11
    assert st["jokers"] == 2 and st["trickster_done"] is True
    assert out["waiting"] == {"player": 2, "decision": "trim", "legal": [{"trim": "0..4 cards"}]}


def test_T26_round2_deals_54_cards_no_second_gift():
    """T-26 continued: round 2 (king P0) is dealt from 54 cards; no joker is added after round
    2's exchange (card 05 acts once, QA-05.1)."""
    out = legal(run([[], [], [], []], [], phase="deal", round=2, prev_ranking=[0, 1, 2, 3], laws=[5],
                    jokers=2, params={"rounds": 2}, bots=["greedy"] * 4))
    st = out["state"]
    zones = [c for h in st["hands"] for c in h] + st["field"] + st["discard"] + st["undealt"] + st["removed"]
    assert len(zones) == len(set(zones)) == 54 and "Jk2" in zones
    assert not any("second joker" in e for e in out["events"])


def test_trickster_law_goes_to_the_king():
    """§4.5: revealed in round 2, the joker goes to the king after the exchange (not given away in it)."""
    hands = deal()
    out = run(hands, [], phase="post_exchange", round=2, prev_ranking=[3, 0, 1, 2], laws=[5])
    assert "Jk2" in out["state"]["hands"][3] and len(out["state"]["hands"][3]) == 11
    out = run(hands, [], phase="post_exchange", round=2, prev_ranking=[3, 0, 1, 2], laws=[5], jokers=2)
    assert all(len(h) == 10 for h in out["state"]["hands"])  # resolved before: nothing added


def test_T27_trickster_precept_after_exchange():
    """T-27 [QA-05.2, DEC-33]: madness, P3 drafts 05 in round 2 -> after round 2's exchange
    P3 receives the joker; the game has 54 cards from then on."""
    hands = deal()
    state = dict(phase="draft", round=2, prev_ranking=[0, 1, 2, 3], revealed=[5, 9, 14, 15])
    params = {"mode": "madness", "madness_rounds": 2}
    out = legal(run(hands, [{"draft": 5}], params=params, bots=["greedy"] * 4, **state))
    assert out["state"]["precepts"]["05"] == 3 and out["state"]["precept_rounds"]["05"] == 2
    ev = out["events"]
    gift = ev.index("trickster: P3 receives the second joker")
    assert gift > max(i for i, e in enumerate(ev) if e.startswith("king P0 gives"))
    assert out["state"]["jokers"] == 2
    # DEC-33 variant: the joker arrives on drafting, so P3 may have to give it to the king
    out = legal(run(hands, [{"draft": 5}], params={**params, "trickster_precept_timing": "on_draft"},
                    bots=["greedy"] * 4, **state))
    ev = out["events"]
    assert ev.index("trickster: P3 receives the second joker") < ev.index("P3 gives Jk to king P0")


# ---------------------------------------------------------------- 12 Collusion
def collude(cards):
    return [{"player": q, "collude": c} for q, c in cards]


def test_T39_collusion_ring_of_three():
    """T-39 [12, QA-12.1]: round 2, 4p, king P0: commoners P1, P2, P3 (odd) give P1->P2, P2->P3, P3->P1."""
    hands = deal()
    d = collude([(1, "D5"), (2, "S8"), (3, "CJ")])
    out = run(hands, d, phase="collusion", round=2, prev_ranking=[0, 1, 2, 3], laws=[12])
    assert moved(hands, out["state"]["hands"]) == [([], []), (["D5"], ["CJ"]), (["S8"], ["D5"]), (["CJ"], ["S8"])]
    assert out["waiting"]["decision"] == "trim"


def test_T39_collusion_pairs_of_four_five_players():
    """T-39: 5p, king P0: P1<->P2, P3<->P4."""
    hands = deal(5)
    d = collude([(1, "D5"), (2, "S8"), (3, "CJ"), (4, "SA")])
    out = run(hands, d, players=5, phase="collusion", round=2, prev_ranking=[0, 1, 2, 3, 4], laws=[12])
    assert moved(hands, out["state"]["hands"]) == [
        ([], []), (["D5"], ["S8"]), (["S8"], ["D5"]), (["CJ"], ["SA"]), (["SA"], ["CJ"])]


def test_T39_collusion_round1_everyone_from_start_player():
    """T-39 / DEC-8: round 1, 4p, start player P2: order P2, P3, P0, P1 (even) -> P2<->P3, P0<->P1;
    with collusion_round1 off nobody swaps."""
    hands = deal()
    d = collude([(2, "S8"), (3, "CJ"), (0, "S3"), (1, "D5")])
    out = run(hands, d, phase="collusion", laws=[12], start_player=2)
    assert moved(hands, out["state"]["hands"]) == [(["S3"], ["D5"]), (["D5"], ["S3"]), (["S8"], ["CJ"]),
                                                   (["CJ"], ["S8"])]
    out = run(hands, [], phase="collusion", laws=[12], start_player=2, params={"collusion_round1": False})
    assert out["state"]["hands"] == hands


def test_collusion_gift_must_be_in_hand():
    hands = deal()
    assert "is not allowed" in illegal(run(hands, collude([(1, "S3")]), phase="collusion", round=2,
                                           prev_ranking=[0, 1, 2, 3], laws=[12]))


def test_T40_collusion_precept_take_and_give():
    """T-40 [12 precept, DEC-38]: round 2, king P0, 12 is P2's precept: P2 chooses P3, takes P3's
    strongest card (♥2), then gives P3 ♣4 (chosen after receiving)."""
    hands = [["S3", "H3", "D3"], ["S5", "H5", "D5"], ["C4", "H6", "D6"], ["H2", "S7", "H7"]]
    state = dict(phase="collusion_precept", round=2, prev_ranking=[0, 1, 2, 3], precepts={"12": 2})
    out = run(hands, [{"collusion": 3}, {"collusion_return": "C4"}], **state)
    assert moved(hands, out["state"]["hands"]) == [([], []), ([], []), (["C4"], ["H2"]), (["H2"], ["C4"])]
    assert "collusion precept: P2 takes ♥2 from P3 and gives ♣4" in out["events"]
    # the king is no target; declining leaves the hands alone
    assert "is not allowed" in illegal(run(hands, [{"collusion": 0}], **state))
    out = run(hands, [{"collusion": None}], **state)
    assert moved(hands, out["state"]["hands"]) == [([], [])] * 4
    # options of the holder: decline, then the non-king seats clockwise
    out = run(hands, [], **state)
    assert out["waiting"] == {"player": 2, "decision": "collusion",
                              "legal": [{"collusion": None}, {"collusion": 3}, {"collusion": 1}]}
