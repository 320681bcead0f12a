"""Rule audit: every VD-P.2 switch alternative and the edge cases of rules/virus-dogs.md not
covered by the TS-… scenarios, driven through GAME.scenario with exact outcomes."""

from collections import Counter

import pytest

from sim.kit.config import ConfigError
from sim.games.virus_dogs import GAME
from sim.games.virus_dogs.reference import Engine
from sim.games.virus_dogs.rules import Rules
from sim.kit.rng import Rng
from tests.virus_dogs.test_scenarios import (
    ANTISEPTIC, DECLARE, DECLARE_DRAWN, DRAW, END, HIDE, MARKET, MASK, MORE, SKIP, STOP, P, hand, ok, pl, play,
    run, said,
)

CGH = play("CGH")


def take(*positions):
    return {"type": "mask_take", "take": list(positions)}


def give(card, by):
    return {"type": "give", "card": card, "by": by}


def refuse(value, by):
    return {"type": "refuse_exchange", "value": value, "by": by}


def hq(n, players, params=None, decisions=()):
    return GAME.scenario({"game": "virus-dogs", "players": n, "params": params or {},
                          "state": {"phase": "hq", "deck": [], "players": players}, "decisions": list(decisions)})


# ---- VD-3.5 first_player ----------------------------------------------------------------------
def test_first_player_random():
    """VD-3.5 (first_player = random): one randbelow(n) after the setup shuffle picks the seat."""
    firsts = set()
    for seed in range(12):
        eng = Engine(Rules(GAME.make_config(players=4, overrides={"first_player": "random"}).params), 4,
                     Rng(seed, 0), None)
        eng.setup()
        rng = Rng(seed, 0)
        deck = list(range(48))
        rng.shuffle(deck)
        assert eng.first == eng.current == rng.randbelow(4)
        firsts.add(eng.first)
    assert len(firsts) > 1


# ---- VD-5 normal draw -------------------------------------------------------------------------
def test_upfront_declared_count():
    """VD-5.2 (draw_count_declared_upfront = true): 1 or 2 declared first; no draw-another question."""
    kw = dict(params={"draw_count_declared_upfront": True}, deck=["CTL", "DOC", "SHF"], players=[P(["SHF"]), P()])
    wait = run(**kw)
    assert wait["waiting"]["legal"][-2:] == [{"type": "mode", "mode": "draw", "count": 1},
                                             {"type": "mode", "mode": "draw", "count": 2}]
    one = ok(run(decisions=[{"type": "mode", "mode": "draw", "count": 1}], **kw))
    assert hand(one, 0) == Counter(["SHF", "CTL"]) and one["state"]["deck"] == ["DOC", "SHF"]
    assert one["waiting"]["decision"] == "action" and one["state"]["phase"] == "C"
    two = ok(run(decisions=[{"type": "mode", "mode": "draw", "count": 2}], **kw))
    assert hand(two, 0) == Counter(["SHF", "CTL", "DOC"]) and two["state"]["deck"] == ["SHF"]
    assert run(decisions=[DRAW], **kw)["illegal"]["index"] == 0  # the count is required


def test_upfront_antiseptic_counts():
    """VD-5.2 + VD-7.3: a declared 2 includes the antisepticked virus; it returns on top."""
    out = ok(run(decisions=[{"type": "mode", "mode": "draw", "count": 2}, ANTISEPTIC], turns=1,
                 params={"draw_count_declared_upfront": True}, deck=["V", "DOC", "SHF"], players=[P(["ANT"]), P()]))
    assert hand(out, 0) == Counter(["DOC"]) and out["state"]["deck"] == ["V", "SHF"]


def test_empty_deck_draw_waived():
    """VD-5.4: a normal draw from an empty deck draws nothing; MSK and BM are not offered (VD-20.3)."""
    out = run(deck=[], players=[P(["MSK", "BM", "SHF"]), P(["V"])])
    assert {"type": "mode", "mode": "mask"} not in out["waiting"]["legal"]
    assert {"type": "mode", "mode": "market"} not in out["waiting"]["legal"]
    out = ok(run(decisions=[DRAW, END], deck=[], players=[P(["MSK", "SHF"]), P(["V"])]))
    assert said(out, "P0 drew 0") and said(out, "hard quarantine: 2 live, first drawer P1")


def test_two_pending_viruses():
    """AD-36, VD-7.3: two antiseptics in one 2-card draw; both viruses go back on top."""
    out = ok(run(decisions=[ANTISEPTIC, MORE, ANTISEPTIC], turns=1, deck=["V", "V", "DOC"],
                 players=[P(["ANT", "ANT"]), P()]))
    assert out["state"]["deck"] == ["V", "V", "DOC"] and out["state"]["known_top"] == 2
    assert hand(out, 0) == Counter() and out["state"]["discard"] == ["ANT", "ANT"]
    assert said(out, "P0 drew 2")


def test_pending_virus_visible_while_deciding():
    """Output state: a drawn virus awaiting hide/declare is listed as unresolved (conservation)."""
    out = run(decisions=[ANTISEPTIC, MORE], deck=["V", "V", "DOC"], players=[P(["ANT"]), P()])
    assert out["waiting"]["decision"] == "virus"
    assert out["state"]["pending"] == 1 and out["state"]["unresolved"] == ["V"]
    assert out["state"]["deck"] == ["DOC"]


# ---- VD-8 bats --------------------------------------------------------------------------------
def test_bat_does_not_count():
    """VD-8.4 (bat_counts_as_draw = false): after a first-card BAT the draw goes on by itself."""
    out = run(params={"bat_counts_as_draw": False}, decisions=[DRAW], deck=["BAT", "SHF", "DOC"], reserve=6)
    assert out["state"]["reserve"] == 4 and out["state"]["discard"] == ["BAT"]
    assert sum(hand(out, 0).values()) == 1 and len(out["state"]["deck"]) == 3
    assert out["waiting"]["decision"] == "draw_another"


def test_bat_does_not_count_second_card():
    """VD-8.4 (false): SHF then BAT still leaves one more draw (1 non-bat card so far)."""
    out = run(params={"bat_counts_as_draw": False}, decisions=[MORE], deck=["SHF", "BAT", "DOC"], reserve=0)
    assert out["waiting"]["decision"] == "draw_another" and hand(out, 0) == Counter(["SHF"])
    out = ok(run(params={"bat_counts_as_draw": False}, decisions=[MORE, MORE], turns=1,
                 deck=["SHF", "BAT", "DOC"], reserve=0))
    assert hand(out, 0) == Counter(["SHF", "DOC"]) and out["state"]["deck"] == []


def test_mask_virus_then_bat_with_antiseptic():
    """VD-7.4, VD-7.6, VD-9.4: take [V, BAT]; ANT on the V; the bat shuffles the rest; V on top."""
    out = ok(run(decisions=[MASK, take(0, 1), ANTISEPTIC], turns=1, deck=["V", "BAT", "DOC", "SHF"], reserve=6,
                 players=[P(["MSK", "ANT"]), P()]))
    deck = out["state"]["deck"]
    assert deck[0] == "V" and sorted(deck[1:]) == ["DOC", "SHF", "V", "V"]
    assert out["state"]["reserve"] == 4 and Counter(out["state"]["discard"]) == Counter(["MSK", "ANT", "BAT"])


def test_black_market_bat_never_replaced():
    """VD-8.4, VD-10.5: a BAT taken by black market gives no further card, even with bats not counting."""
    out = ok(run(params={"bat_counts_as_draw": False}, decisions=[MARKET, {"type": "market_take", "index": 1}],
                 turns=1, deck=["DOC", "BAT", "SHF"], reserve=0, players=[P(["BM"]), P()]))
    assert hand(out, 0) == Counter() and sorted(out["state"]["deck"]) == ["DOC", "SHF"]


# ---- VD-9 mask, VD-10 black market --------------------------------------------------------------
def test_mask_any_subset_options_and_both():
    """VD-9.3 (any_subset): options {}, {1st}, {2nd}, {1st, 2nd}; taking both resolves in order."""
    kw = dict(deck=["DOC", "V", "SHF"], players=[P(["MSK"]), P()])
    assert [o["take"] for o in run(decisions=[MASK], **kw)["waiting"]["legal"]] == [[], [0], [1], [0, 1]]
    out = ok(run(decisions=[MASK, take(0, 1), HIDE], turns=1, **kw))
    assert hand(out, 0) == Counter(["DOC", "V"]) and out["state"]["deck"] == ["SHF"]
    assert said(out, "P0 masks, takes 2")


def test_mask_one_card_deck():
    """VD-9.2: with one card left the mask peeks at one."""
    out = run(decisions=[MASK], deck=["DOC"], players=[P(["MSK"]), P()])
    assert [o["take"] for o in out["waiting"]["legal"]] == [[], [0]]


def test_black_market_short_deck():
    """VD-10.2: m = min(3, deck size); with one card the take is forced."""
    out = run(decisions=[MARKET], deck=["V", "DOC"], players=[P(["BM"]), P()])
    assert out["waiting"]["legal"] == [{"type": "market_take", "index": 0}, {"type": "market_take", "index": 1}]
    out = ok(run(decisions=[MARKET, HIDE, END], deck=["V"], players=[P(["BM"]), P(["SHF"])]))
    assert said(out, "hard quarantine") and said(out, "P1 pulls V from P0") and pl(out, 0)["open"] == 1


# ---- VD-6, VD-12 ------------------------------------------------------------------------------
def test_declare_then_skip_whole_turn():
    """VD-6.3, VD-12.2 (whole_turn): a declaration is not a card play, so TP skip stays legal."""
    out = ok(run(decisions=[DECLARE, SKIP], turns=1, deck=["V", "DOC"], players=[P(["TP", "V"]), P()]))
    assert pl(out, 0)["open"] == 1 and hand(out, 0) == Counter() and out["state"]["deck"] == ["V", "DOC"]


def test_skip_has_no_phase_c():
    """VD-12.2: after a skip the turn ends at once (no phase C)."""
    out = ok(run(decisions=[SKIP], deck=["DOC"], players=[P(["TP", "SHF"]), P(["SHF"])]))
    assert out["state"]["current"] == 1 and out["waiting"]["player"] == 1 and hand(out, 0) == Counter(["SHF"])


# ---- VD-13, VD-14, VD-18 ----------------------------------------------------------------------
def test_control_empty_hand_and_ambulance_with_nothing_open():
    """VD-13.1: CTL on an empty hand is legal; VD-18.1: AMB with no open virus does nothing."""
    out = ok(run(n=3, decisions=[play("CTL", 2), play("AMB")], deck=["DOC"],
                 players=[P(["CTL", "AMB", "SHF"]), P(), P()]))
    assert out["state"]["deck"] == ["DOC"] and Counter(out["state"]["discard"]) == Counter(["CTL", "AMB"])
    assert all(p["open"] == 0 for p in out["state"]["players"])


def test_quarantine_eliminates_caster_turn_passes():
    """VD-14.2, VD-4.8: the caster exposed to O=2 is out; the turn passes to the next live seat."""
    out = ok(run(n=3, decisions=[play("QRN")], deck=["DOC", "SHF"],
                 players=[P(["QRN", "V"], open=1), P(["V"]), P(["SHF"])]))
    assert not pl(out, 0)["live"] and pl(out, 1)["open"] == 1
    assert out["state"]["current"] == 1 and out["state"]["deck"] == ["DOC", "SHF", "V", "V"]
    assert out["result"] is None and out["waiting"]["player"] == 1


def test_all_eliminated_shared_win():
    """VD-21.3 (all_eliminated_outcome = shared_win): the simultaneously eliminated players share."""
    out = ok(run(params={"all_eliminated_outcome": "shared_win"}, decisions=[play("QRN")], deck=["DOC"],
                 players=[P(["QRN", "V"], open=1), P(["V"], open=1)]))
    assert out["finished"] and out["result"]["winners"] == [0, 1]


def test_reactive_ambulance_control():
    """VD-18.4 (ambulance_reactive = true): the exposed player's AMB cures every open virus first."""
    out = ok(run(n=3, params={"ambulance_reactive": True}, decisions=[play("CTL", 1)], deck=["DOC"],
                 players=[P(["CTL", "SHF"], open=1, treatment=1), P(["V", "AMB"], open=1), P(open=1)]))
    assert all(p["live"] and p["open"] == 0 and p["treatment"] == 0 for p in out["state"]["players"])
    assert out["state"]["deck"] == ["DOC", "V", "V", "V", "V"]
    assert Counter(out["state"]["discard"]) == Counter(["CTL", "AMB"]) and said(out, "P1 reacts with AMB")
    off = ok(run(n=3, decisions=[play("CTL", 1)], deck=["DOC"],
                 players=[P(["CTL", "SHF"]), P(["V", "AMB"], open=1), P()]))
    assert not pl(off, 1)["live"]  # default: proactive only (AD-17)


def test_reactive_ambulance_own_declaration_and_quarantine():
    """VD-18.4: a declaration to O=2 or a quarantine is survived with AMB in hand."""
    out = ok(run(params={"ambulance_reactive": True}, decisions=[DRAW, DECLARE_DRAWN], turns=1,
                 deck=["V", "DOC"], players=[P(["AMB"], open=1), P()]))
    assert pl(out, 0)["live"] and pl(out, 0)["open"] == 0 and out["state"]["deck"] == ["DOC", "V", "V"]
    out = ok(run(params={"ambulance_reactive": True}, decisions=[play("QRN")], deck=["DOC"],
                 players=[P(["QRN", "V"], open=1), P(["V", "AMB"], open=1)]))
    assert not out["finished"] and all(p["open"] == 0 and p["live"] for p in out["state"]["players"])


def test_reactive_ambulance_in_hard_quarantine():
    """VD-20.7: in HQ only a reactive AMB can be used; the pulled-from player survives."""
    out = ok(hq(2, [P(["SHF", "V"]), P(["V", "AMB"], open=1)], {"ambulance_reactive": True, "hq_max_steps": 1}))
    # Step 1 pulls from P1: AMB (returned) or V (AMB saves P1); then the cap resolves a stalemate.
    assert out["result"]["outcome"] == "hq_stalemate" and pl(out, 1)["live"]


# ---- VD-15 cough --------------------------------------------------------------------------------
def test_cough_without_antiseptic_option():
    """VD-7.1 (antiseptic_on_cough = false): the face-up virus becomes open; no ANT question."""
    out = ok(run(params={"antiseptic_on_cough": False}, decisions=[CGH], deck=["V", "CTL"],
                 players=[P(["CGH", "SHF"], open=1), P(["ANT"])]))
    assert pl(out, 1)["open"] == 1 and hand(out, 1) == Counter(["ANT"])
    assert out["waiting"]["player"] == 0


def test_cough_antiseptic_last_in_sequence():
    """VD-7.5: the returned virus stays on top when nobody is left to draw it."""
    out = ok(run(decisions=[CGH, {"type": "cough_virus", "response": "antiseptic"}], deck=["V", "CTL"],
                 players=[P(["CGH", "SHF"], open=1), P(["ANT"])]))
    assert out["state"]["deck"] == ["V", "CTL"] and out["state"]["known_top"] == 1 and pl(out, 1)["open"] == 0


def test_cough_refusal_asked_before_empty_deck():
    """VD-15.2: TP is offered before the draw, even when the deck is already empty."""
    out = run(n=3, decisions=[CGH], deck=["CTL"], players=[P(["CGH"], open=1), P(), P(["TP"])])
    assert out["waiting"]["player"] == 2 and out["waiting"]["decision"] == "cough"
    out = ok(run(n=3, decisions=[CGH, {"type": "cough", "response": "accept"}], deck=["CTL"],
                 players=[P(["CGH"], open=1), P(), P(["TP"])]))
    assert hand(out, 2) == Counter(["TP"])


def test_cough_skips_a_player_eliminated_earlier():
    """VD-15.2, VD-19: a player eliminated mid-cough is out; the cough goes on to the next."""
    out = ok(run(n=4, decisions=[CGH], deck=["V", "DOC", "SHF"],
                 players=[P(["CGH", "SHF"], open=1), P(open=1), P(), P()]))
    assert not pl(out, 1)["live"] and hand(out, 2) == Counter(["DOC"]) and hand(out, 3) == Counter(["SHF"])
    assert out["state"]["deck"] == ["V", "V"] and not out["finished"]


# ---- VD-16 exchange ---------------------------------------------------------------------------
def test_exchange_refused_card_discarded():
    """VD-16.4 (exchange_refused_card = discard): refused cards go to the discard, even a virus."""
    out = ok(run(n=3, params={"exchange_refused_card": "discard"}, deck=["DOC"],
                 players=[P(["EXC", "V", "SHF"]), P(["DOC", "TP"]), P(["MSK", "TP"])],
                 decisions=[play("EXC"), give("V", 0), give("DOC", 1), give("MSK", 2), refuse(True, 1),
                            refuse(False, 2)]))
    assert hand(out, 0) == Counter(["SHF", "MSK"]) and hand(out, 1) == Counter() and hand(out, 2) == Counter(["TP", "DOC"])
    assert Counter(out["state"]["discard"]) == Counter(["EXC", "TP", "V"])
    back = dict(out["state"], phase="A")
    again = GAME.scenario({"game": "virus-dogs", "players": 3, "params": {"exchange_refused_card": "discard"},
                           "state": back})
    assert again["illegal"] is None  # an output state with a discarded virus is accepted back


def test_exchange_two_players_swap_and_selected_tp():
    """VD-16.6: with 2 players a swap; VD-16.3: the selected TP cannot refuse (not held)."""
    out = ok(run(decisions=[play("EXC"), give("V", 0), give("TP", 1)], deck=["DOC"],
                 players=[P(["EXC", "V", "SHF"]), P(["TP", "DOC"])]))
    assert hand(out, 0) == Counter(["SHF", "TP"]) and hand(out, 1) == Counter(["DOC", "V"])
    out = ok(run(decisions=[play("EXC"), give("V", 0), give("DOC", 1), refuse(True, 1)], deck=["DOC"],
                 players=[P(["EXC", "V", "SHF"]), P(["TP", "DOC"])]))
    assert hand(out, 0) == Counter(["V", "SHF", "DOC"]) and hand(out, 1) == Counter()


def test_exchange_caster_may_refuse():
    """VD-16.3: refusals in turn order from the caster; the caster may refuse too."""
    wait = run(decisions=[play("EXC"), give("SHF", 0), give("V", 1)], deck=["DOC"],
               players=[P(["EXC", "TP", "SHF"]), P(["V", "TP"])])
    assert wait["waiting"]["player"] == 0 and wait["waiting"]["decision"] == "refuse_exchange"
    out = ok(run(decisions=[play("EXC"), give("SHF", 0), give("V", 1), refuse(True, 0), refuse(False, 1)],
                 deck=["DOC", "CTL"], players=[P(["EXC", "TP", "SHF"]), P(["V", "TP"])]))
    # P0 kept nothing (TP used, SHF given): the run stops before its forced draw.
    assert hand(out, 0) == Counter() and hand(out, 1) == Counter(["V", "TP", "SHF"])
    assert out["waiting"] == {"player": 0, "decision": "action", "legal": [DRAW]}
    assert Counter(out["state"]["discard"]) == Counter(["EXC", "TP"])


# ---- VD-17 doctor -----------------------------------------------------------------------------
def test_doctor_limit_is_per_turn_across_phases():
    """VD-4.6: one DOC in phase A blocks a second in phase C of the same turn."""
    out = run(decisions=[play("DOC"), DRAW, STOP], deck=["SHF", "CTL"],
              players=[P(["DOC", "DOC", "SHF"], open=1), P()])
    assert {"type": "play", "card": "DOC"} not in out["waiting"]["legal"] and pl(out, 0)["treatment"] == 1


def test_ambulance_wastes_treatment():
    """VD-17.4: AMB sends the treated virus to the bottom and T resets; a later DOC needs O >= 1."""
    out = ok(run(decisions=[play("AMB")], deck=["SHF"], players=[P(["AMB", "DOC"], open=1, treatment=1), P()]))
    assert pl(out, 0)["treatment"] == 0 and pl(out, 0)["open"] == 0
    assert {"type": "play", "card": "DOC"} not in out["waiting"]["legal"]


# ---- VD-19 elimination destinations -------------------------------------------------------------
def test_eliminated_hand_to_deck_bottom():
    """VD-19.3 (eliminated_hand_destination = deck_bottom): viruses, then the other cards, under the deck."""
    out = ok(run(n=3, params={"eliminated_hand_destination": "deck_bottom"}, decisions=[play("CTL", 2)],
                 deck=["DOC"], players=[P(["CTL", "SHF"]), P(), P(["V", "DOC", "TP"], open=1)]))
    deck = out["state"]["deck"]
    assert deck[:3] == ["DOC", "V", "V"] and sorted(deck[3:]) == ["DOC", "TP"]
    assert out["state"]["discard"] == ["CTL"]


def test_eliminated_hand_shuffled_into_deck():
    """VD-19.3 (shuffle_into_deck): every card of the eliminated player ends in the shuffled deck."""
    out = ok(run(n=3, params={"eliminated_hand_destination": "shuffle_into_deck"}, decisions=[play("CTL", 2)],
                 deck=["DOC"], players=[P(["CTL", "SHF"]), P(), P(["V", "DOC", "TP"], open=1)]))
    assert sorted(out["state"]["deck"]) == sorted(["DOC", "V", "V", "DOC", "TP"])
    assert out["state"]["discard"] == ["CTL"] and out["state"]["known_top"] == 0


# ---- VD-20 deck exhaustion and hard quarantine --------------------------------------------------
def test_immediate_exhaustion_after_draw():
    """VD-20.1 (immediate): the last card drawn starts HQ at once, without phase C."""
    out = ok(run(n=3, params={"deck_exhaustion_check": "immediate"}, decisions=[DRAW],
                 deck=["SHF"], players=[P(["CTL"]), P(["V"], open=1), P(["V"])]))
    # P1 opens P2's V, P2 pulls a non-virus from P0, P0 opens P1's second V: P1 out; no hidden
    # virus is left, so the stalemate goes to P0 (fewest open).
    assert out["result"]["winners"] == [0] and out["result"]["outcome"] == "hq_stalemate"
    assert hand(out, 0) == Counter(["CTL", "SHF"]) and out["result"]["elimination_order"] == [1]
    assert said(out, "hard quarantine: 3 live, first drawer P1") and not said(out, "plays CTL")
    end_of_turn = run(n=3, decisions=[DRAW], deck=["SHF"], players=[P(["CTL"]), P(["V"], open=1), P(["V"])])
    assert end_of_turn["waiting"]["decision"] == "action" and end_of_turn["state"]["phase"] == "C"


def test_immediate_exhaustion_after_cough():
    """VD-20.1 (immediate), VD-20.3: a cough that empties the deck starts HQ before the caster's draw."""
    out = ok(run(n=3, params={"deck_exhaustion_check": "immediate"}, decisions=[CGH],
                 deck=["SHF"], players=[P(["CGH", "CTL"], open=1), P(["V"]), P(["V"])]))
    assert said(out, "hard quarantine: 3 live, first drawer P1") and not said(out, "P0 drew")


def test_current_player_eliminated_on_last_card():
    """VD-4.8, VD-19.3, VD-20.2: the current player declares the last card and falls; their viruses
    refill the deck, so there is no hard quarantine and the next live seat plays."""
    out = ok(run(n=3, decisions=[DRAW, DECLARE_DRAWN], deck=["V"],
                 players=[P(["SHF"], open=1), P(["V"]), P(["SHF"])]))
    # P0's two viruses went under the (now non-empty) deck: no HQ, P1 takes the next turn.
    assert not pl(out, 0)["live"] and out["state"]["deck"] == ["V", "V"] and out["state"]["current"] == 1
    assert not said(out, "hard quarantine") and hand(out, 0) == Counter()


def test_hq_target_choice():
    """VD-20.6 (hq_target = choice): only other live players with cards are offered (DP-19)."""
    players = [P(), P(["V"], open=1), P(["V", "SHF"], open=1), P()]
    wait = hq(4, players, {"hq_target": "choice"})
    assert wait["waiting"] == {"player": 0, "decision": "hq_target",
                               "legal": [{"type": "hq_target", "player": 1}, {"type": "hq_target", "player": 2}]}
    out = ok(hq(4, players, {"hq_target": "choice"}, [{"type": "hq_target", "player": 1}]))
    assert said(out, "P0 pulls V from P1") and not pl(out, 1)["live"]
    assert out["result"]["elimination_order"][0] == 1


def test_hq_target_choice_drawer_with_no_target():
    """VD-20.6 (choice): a drawer with no other player holding cards pulls nothing."""
    out = ok(hq(2, [P(["V"]), P()], {"hq_target": "choice"}))
    events = [e.strip() for e in out["events"]]
    assert "P0 pulls nothing (target none)" in events and "P1 pulls V from P0" in events


def test_hq_max_steps_cap():
    """VD-20.11: after hq_max_steps steps the HQ resolves as a stalemate (fewest open win)."""
    players = [P(["V"]), P(["SHF"], open=1)]
    capped = ok(hq(2, players, {"hq_max_steps": 1}))
    assert capped["result"]["outcome"] == "hq_stalemate" and capped["result"]["winners"] == [0]
    assert said(capped, "P0 pulls SHF from P1")
    full = ok(hq(2, players))
    assert said(full, "P1 pulls V from P0") and full["result"]["winners"] == [0, 1]


def test_hq_first_elimination_two_players_is_last_standing():
    """VD-20.9: with two players the first HQ elimination leaves a sole winner (last_standing_hq)."""
    out = ok(hq(2, [P(["V", "SHF"], open=1), P(["V"], open=1)], {"hq_end": "first_elimination"}))
    assert out["result"]["winners"] == [0] and out["result"]["outcome"] == "last_standing_hq"


def test_hq_eliminated_viruses_into_deck():
    """VD-19.3, VD-20.4: in HQ the eliminated player's viruses still go under the (unused) deck."""
    out = ok(hq(2, [P(["V", "SHF"], open=1), P(["V"], open=1)]))
    assert out["state"]["deck"] == ["V", "V"] and pl(out, 0)["hand"] == ["V", "SHF"]


def test_hq_elimination_order():
    """TS-43 (VD-20.9): P1 falls first, then P0."""
    hands = [P(["V"], open=1), P(["V"], open=1), P(["V", "SHF"])]
    out = ok(hq(3, hands))
    assert out["result"]["elimination_order"] == [1, 0]


# ---- scenario runner (docs/scenarios/virus-dogs.md) -------------------------------------------
def test_run_stops_before_next_turn():
    """TS-2 without a turn limit: the run stops before P1's turn, even though P1's draw is forced."""
    out = ok(run(decisions=[DRAW, STOP], deck=["DOC", "V", "SHF"], players=[P(), P()]))
    assert out["state"]["deck"] == ["V", "SHF"] and hand(out, 0) == Counter(["DOC"])
    assert out["state"]["current"] == 1 and out["state"]["phase"] == "A"
    assert out["waiting"] == {"player": 1, "decision": "action", "legal": [DRAW]}
    # With "turns" the forced turns go on as before.
    out = ok(run(decisions=[DRAW, STOP], turns=2, deck=["DOC", "SHF", "CTL"], players=[P(), P()]))
    assert hand(out, 1) == Counter(["SHF"]) and out["waiting"]["decision"] == "draw_another"


def test_run_stops_before_a_forced_draw():
    """TS-22 as written in the spec (P0 holds only CGH): the run stops before P0's forced draw,
    so the deck shows the cough's result [DOC, SHF]; a forced draw from an empty deck (TS-41)
    and a forced end still apply."""
    out = ok(run(n=3, decisions=[CGH, {"type": "cough_virus", "response": "antiseptic"}], deck=["V", "DOC", "SHF"],
                 players=[P(["CGH"], open=1), P(["ANT"], open=1), P()]))
    assert out["state"]["deck"] == ["DOC", "SHF"] and pl(out, 2)["open"] == 1 and hand(out, 0) == Counter()
    assert out["waiting"] == {"player": 0, "decision": "action", "legal": [DRAW]} and out["state"]["phase"] == "A"
    out = ok(run(n=3, decisions=[CGH], deck=["CTL"], players=[P(["CGH"], open=1), P(), P(["V"])]))
    assert said(out, "P0 drew 0") and said(out, "hard quarantine") and out["finished"]
    # No decisions at all (TS-1): the state is shown as given, waiting for the forced draw.
    out = ok(run(deck=["DOC", "SHF"]))
    assert out["state"]["deck"] == ["DOC", "SHF"] and out["waiting"] == {"player": 0, "decision": "action",
                                                                         "legal": [DRAW]}
    assert run(decisions=[DRAW], deck=["DOC", "SHF"])["waiting"]["decision"] == "draw_another"


def test_ts01_setup_through_the_scenario_interface():
    """TS-1 (VD-3): an empty state is the setup: 48 cards, R=6, P0 to act with only a normal draw."""
    out = ok(GAME.scenario({"game": "virus-dogs", "players": 3, "state": {}}))
    st = out["state"]
    assert len(st["deck"]) == 48 and st["reserve"] == 6 and st["discard"] == [] and st["current"] == 0
    assert Counter(st["deck"]) == Counter({"V": 1, "BAT": 3, "TP": 6, "CTL": 4, "QRN": 2, "DOC": 6, "ANT": 4,
                                           "AMB": 1, "MSK": 5, "BM": 4, "SHF": 4, "CGH": 4, "EXC": 4})
    assert all(p["hand"] == [] and p["open"] == 0 and p["treatment"] == 0 for p in st["players"])
    assert out["waiting"] == {"player": 0, "decision": "action", "legal": [DRAW]}


def test_illegal_after_forced_steps_shows_the_state_before_them():
    """TS-19 / TS-30 as written (no spare cards): after CTL (or one DOC) the player's draw is
    forced; the next listed decision is illegal and the state shown is from before the draw."""
    out = run(decisions=[play("CTL", 1), SKIP], deck=["V", "DOC"], players=[P(["TP", "CTL"]), P()])
    assert out["illegal"]["index"] == 1 and "forced" in out["illegal"]["reason"]
    assert out["state"]["deck"] == ["V", "DOC"] and hand(out, 0) == Counter(["TP"])
    assert out["state"]["discard"] == ["CTL"] and out["state"]["phase"] == "A"
    out = run(decisions=[play("DOC"), play("DOC")], deck=["SHF", "CTL"], players=[P(["DOC", "DOC"], open=1), P()])
    assert out["illegal"]["index"] == 1
    assert pl(out, 0)["treatment"] == 1 and hand(out, 0) == Counter(["DOC"]) and out["state"]["deck"] == ["SHF", "CTL"]
    assert out["events"][-1].strip() == "P0 plays DOC"


def test_draw_another_listed_where_no_draw_is_possible():
    """TS-5 / TS-46 as written: a 'stop' after two cards, or 'draw another' on an empty deck, is a no-op."""
    out = ok(run(decisions=[ANTISEPTIC, MORE, STOP], deck=["V", "DOC", "SHF"], players=[P(["ANT"]), P()]))
    assert out["state"]["deck"] == ["V", "SHF"] and hand(out, 0) == Counter(["DOC"])
    assert out["decisions_used"] == 3 and out["state"]["current"] == 1
    out = ok(run(decisions=[DRAW, MORE, END], deck=["SHF"], players=[P(["TP"]), P(["V"])]))
    assert hand(out, 0) == Counter(["SHF", "TP"]) and said(out, "hard quarantine")
    bad = run(decisions=[DRAW, MORE, MORE], deck=["DOC", "SHF", "CTL"], players=[P(["TP"]), P()])
    assert bad["illegal"]["index"] == 2  # the 2-card limit is real: a third card is not drawn


def test_players_from_state_and_aliases():
    """Envelope: players left out = listed players; codes in any case; mode aliases."""
    out = GAME.scenario({"game": "virus-dogs", "state": {"deck": ["doc", "shf"], "players": [{}, {}, {"hand": ["tp"]}]},
                         "decisions": [{"type": "mode", "mode": "normal"}, {"type": "draw_another", "value": False}]})
    assert len(out["state"]["players"]) == 3 and out["state"]["players"][0]["hand"] == ["DOC"]
    assert out["state"]["players"][2]["hand"] == ["TP"]
    out = GAME.scenario({"game": "virus-dogs", "state": {"deck": ["DOC"], "players": [{"hand": ["BM"]}, {}]},
                         "decisions": [{"type": "mode", "mode": "black_market"}]})
    assert out["illegal"] is None and out["state"]["players"][0]["hand"] == ["DOC"]


def test_player_as_decider_synonym():
    """"player" asserts the decider like "by" (other games' spelling); in hq_target it is the target."""
    out = run(n=3, decisions=[play("EXC"), {"type": "give", "card": "V", "player": 0},
                              {"type": "give", "card": "MSK", "player": 1}],
              deck=["DOC"], players=[P(["EXC", "V", "SHF"]), P(["DOC"]), P(["MSK", "TP"])])
    assert out["illegal"]["index"] == 2 and "P2 decides now" in out["illegal"]["reason"]


def test_output_state_accepted_back():
    """An output state (with pending 0, unresolved [] and suspicion) is valid input."""
    first = ok(run(n=3, decisions=[DRAW, STOP, END], deck=["DOC", "V", "SHF"], players=[P(["CTL"]), P(), P()]))
    again = ok(GAME.scenario({"game": "virus-dogs", "players": 3, "state": first["state"], "decisions": [DRAW]}))
    assert again["state"]["deck"] == ["SHF"] and again["waiting"]["decision"] == "virus"


def test_illegal_reason_lists_legal_options():
    out = run(decisions=[play("TP")], deck=["DOC"], players=[P(["TP"]), P()])
    assert out["illegal"]["index"] == 0 and "mode=skip" in out["illegal"]["reason"]


@pytest.mark.parametrize("decision", [
    {"type": "mask_take", "take": 1},
    {"type": "play", "card": "CTL", "target": "P1"},
    {"type": "draw_another", "value": "yes"},
    {"type": "market_take", "index": 1.5},
])
def test_malformed_decision(decision):
    with pytest.raises(ConfigError):
        GAME.scenario({"game": "virus-dogs", "players": 2, "state": {"deck": ["DOC"]}, "decisions": [decision]})


# ---- numeric VD-P.2 parameters (seed values by default; what-if studies) --------------------------
def test_numeric_parameters():
    """VD-19.1 elimination_threshold, VD-17 doctors_per_cure / doctor_per_turn, VD-9.2 mask_peek,
    VD-10.2 black_market_look, VD-5.1 draw_max."""
    out = ok(run(params={"elimination_threshold": 3}, decisions=[DRAW, DECLARE_DRAWN], turns=1, deck=["V", "DOC"],
                 players=[P(["SHF"], open=1), P()]))
    assert pl(out, 0)["open"] == 2 and pl(out, 0)["live"]
    out = ok(run(params={"doctors_per_cure": 1}, decisions=[play("DOC")], deck=["SHF"],
                 players=[P(["DOC", "SHF"], open=1), P()]))
    assert pl(out, 0)["open"] == 0 and pl(out, 0)["treatment"] == 0 and out["state"]["deck"] == ["SHF", "V"]
    out = ok(run(params={"doctor_per_turn": 2}, decisions=[play("DOC"), play("DOC")], deck=["SHF"],
                 players=[P(["DOC", "DOC", "SHF"], open=1), P()]))
    assert pl(out, 0)["open"] == 0 and Counter(out["state"]["discard"])["DOC"] == 2
    out = run(params={"mask_peek": 3}, decisions=[MASK], deck=["DOC", "V", "SHF", "CTL"], players=[P(["MSK"]), P()])
    assert len(out["waiting"]["legal"]) == 8
    out = ok(run(params={"black_market_look": 1}, decisions=[MARKET, ANTISEPTIC], turns=1, deck=["V", "SHF"],
                 players=[P(["BM", "ANT"]), P()]))  # the one-card take is forced, the virus goes back
    assert out["state"]["deck"] == ["V", "SHF"] and hand(out, 0) == Counter() and out["decisions_used"] == 2
    out = run(params={"draw_max": 3}, decisions=[DRAW, MORE, MORE], deck=["DOC", "SHF", "CTL", "MSK"],
              players=[P(["TP"]), P()])
    assert hand(out, 0) == Counter(["TP", "DOC", "SHF", "CTL"]) and out["waiting"]["decision"] == "action"


def test_doc_examples_run_as_described():
    """docs/scenarios/virus-dogs.md: the JSON examples give the outcomes the text states."""
    import json
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "scenarios" / "virus-dogs.md").read_text()
    specs = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", doc, re.S)]
    ts4, ts22 = [GAME.scenario(s) for s in specs if not s.get("stop_at_forced")]
    (stop,) = [GAME.scenario(s) for s in specs if s.get("stop_at_forced")]
    assert stop["waiting"] == {"player": 0, "decision": "action", "legal": [END]}
    assert ts4["state"]["deck"] == ["DOC", "SHF", "V", "V"] and ts4["state"]["current"] == 2
    assert ts22["state"]["deck"] == ["DOC", "SHF"] and ts22["state"]["discard"] == ["ANT", "CGH"]
    assert ts22["waiting"] == {"player": 0, "decision": "action", "legal": [DRAW]}
