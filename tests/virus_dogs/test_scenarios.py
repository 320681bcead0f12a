"""Spec test scenarios TS-1..TS-50 (rules/virus-dogs.md), driven through GAME.scenario."""

from collections import Counter

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs.reference import Engine
from sim.games.virus_dogs.rules import CODES, Rules
from sim.kit.rng import Rng

DRAW = {"type": "mode", "mode": "draw"}
MASK = {"type": "mode", "mode": "mask"}
MARKET = {"type": "mode", "mode": "market"}
SKIP = {"type": "mode", "mode": "skip"}
MORE = {"type": "draw_another", "value": True}
STOP = {"type": "draw_another", "value": False}
HIDE = {"type": "virus", "response": "hide"}
DECLARE_DRAWN = {"type": "virus", "response": "declare"}
ANTISEPTIC = {"type": "virus", "response": "antiseptic"}
DECLARE = {"type": "declare"}
END = {"type": "end"}


def play(card, target=None):
    d = {"type": "play", "card": card}
    if target is not None:
        d["target"] = target
    return d


def P(hand=(), open=0, treatment=0, live=True):
    return {"hand": list(hand), "open": open, "treatment": treatment, "live": live}


def run(n=2, decisions=(), params=None, turns=None, **state):
    spec = {"game": "virus-dogs", "players": n, "params": params or {}, "seed": 0,
            "state": state, "decisions": list(decisions)}
    if turns is not None:
        spec["turns"] = turns
    return GAME.scenario(spec)


def hand(out, seat):
    return Counter(out["state"]["players"][seat]["hand"])


def pl(out, seat):
    return out["state"]["players"][seat]


def said(out, text):
    return any(text in e for e in out["events"])


def ok(out):
    assert out["illegal"] is None, out["illegal"]
    return out


def test_ts01_setup():
    """TS-1 (VD-3): 48-card deck, reserve 6, empty hands, P0 to act with only a normal draw."""
    eng = Engine(Rules(GAME.make_config(players=3).params), 3, Rng(0, 0), None)
    eng.setup()
    assert len(eng.deck) == 48
    assert Counter(CODES[c] for c in eng.deck) == Counter(
        {"V": 1, "BAT": 3, "TP": 6, "CTL": 4, "QRN": 2, "DOC": 6, "ANT": 4, "AMB": 1, "MSK": 5, "BM": 4,
         "SHF": 4, "CGH": 4, "EXC": 4})
    assert eng.reserve == 6 and sum(eng.discard) == 0 and eng.current == 0
    assert all(p.hand_size() == 0 and p.open == 0 and p.treatment == 0 for p in eng.players)
    assert eng.action_options(eng.players[0], "A") == [{"type": "mode", "mode": "draw"}]


def test_ts02_draw_one_and_stop():
    """TS-2 (VD-5.2): draw DOC, stop; DOC is not playable with O=0."""
    out = ok(run(decisions=[STOP], turns=1, deck=["DOC", "V", "SHF"]))
    assert hand(out, 0) == Counter(["DOC"])
    assert out["state"]["deck"] == ["V", "SHF"]
    assert said(out, "P0 drew 1")
    c = run(deck=["V"], phase="C", players=[P(["DOC", "SHF"]), P()])
    assert c["waiting"]["legal"] == [{"type": "play", "card": "SHF"}, {"type": "end"}]


def test_ts03_hide_second_virus():
    """TS-3 (VD-6.1, VD-6.4): P1 with O=1 draws V and hides it; only the draw count is public."""
    out = ok(run(decisions=[DRAW, HIDE, STOP, END], turns=1, current=1, deck=["V", "DOC", "SHF"],
                 players=[P(), P(["MSK"], open=1)]))
    assert hand(out, 1) == Counter(["V", "MSK"])
    assert pl(out, 1)["open"] == 1 and pl(out, 1)["live"]
    assert said(out, "P1 drew 1") and not said(out, "declares")


def test_ts04_declare_second_virus_eliminates():
    """TS-4 (VD-6.4, VD-19): declaring at O=1 eliminates; viruses to the bottom, MSK discarded."""
    out = ok(run(n=3, decisions=[DRAW, DECLARE_DRAWN], turns=1, current=1, deck=["V", "DOC", "SHF"],
                 players=[P(), P(["MSK"], open=1), P()]))
    assert not pl(out, 1)["live"]
    assert said(out, "P1 is eliminated (declare_on_draw")
    assert out["state"]["deck"] == ["DOC", "SHF", "V", "V"]
    assert out["state"]["discard"] == ["MSK"]
    assert out["state"]["current"] == 2


def test_ts05_antiseptic_then_draw_again():
    """TS-5 (VD-7.3): ANT, draw again; the pending V goes back on top; 2 cards drawn."""
    out = ok(run(decisions=[ANTISEPTIC, MORE], turns=1, deck=["V", "DOC", "SHF", "CTL"], players=[P(["ANT"]), P()]))
    assert hand(out, 0) == Counter(["DOC"])
    assert out["state"]["deck"] == ["V", "SHF", "CTL"]
    assert out["state"]["discard"] == ["ANT"]
    assert said(out, "P0 drew 2") and out["state"]["known_top"] == 1


def test_ts06_antiseptic_then_stop():
    """TS-6 (VD-7.3, VD-5.1): ANT and stop: the obligation is met, the turn proceeds."""
    out = ok(run(decisions=[ANTISEPTIC, STOP], turns=1, deck=["V", "SHF", "CTL"], players=[P(["ANT"]), P()]))
    assert out["state"]["deck"] == ["V", "SHF", "CTL"]
    assert hand(out, 0) == Counter()
    assert out["state"]["current"] == 1


def test_ts07_bat_while_virus_pending():
    """TS-7 (VD-7.6, VD-8): the pending V is not shuffled; it lands on top afterwards."""
    out = ok(run(decisions=[ANTISEPTIC, MORE], turns=1, deck=["V", "BAT", "DOC"], reserve=6,
                 players=[P(["ANT"]), P()]))
    deck = out["state"]["deck"]
    assert out["state"]["reserve"] == 4
    assert deck[0] == "V" and sorted(deck[1:]) == sorted(["DOC", "V", "V"])
    assert hand(out, 0) == Counter()


def test_ts08_bat_counts_as_draw():
    """TS-8 (VD-8.2, VD-8.4): BAT adds 2 V and shuffles; P0 may draw one more or stop."""
    out = run(decisions=[DRAW], deck=["BAT", "SHF", "DOC"], reserve=6)
    assert out["state"]["reserve"] == 4
    assert sorted(out["state"]["deck"]) == sorted(["SHF", "DOC", "V", "V"])
    assert "BAT" in out["state"]["discard"]
    assert out["waiting"]["decision"] == "draw_another"
    assert out["waiting"]["legal"] == [MORE, STOP]


def test_ts09_short_reserve():
    """TS-9 (VD-8.3): a reserve of 1 adds 1."""
    out = run(decisions=[DRAW], deck=["BAT", "SHF"], reserve=1)
    assert out["state"]["reserve"] == 0
    assert sorted(out["state"]["deck"]) == ["SHF", "V"]


def test_ts10_empty_reserve():
    """TS-10 (VD-8.3): empty reserve: nothing added, the bat is discarded."""
    out = run(decisions=[DRAW], deck=["BAT", "DOC"], reserve=0)
    assert out["state"]["reserve"] == 0 and out["state"]["deck"] == ["DOC"]
    assert out["state"]["discard"] == ["BAT"]


def test_ts11_bat_as_second_card():
    """TS-11 (VD-8.4): SHF then BAT: 2 drawn, no further draw."""
    out = run(decisions=[MORE], deck=["SHF", "BAT", "DOC", "MSK"], reserve=6)
    assert hand(out, 0) == Counter(["SHF"])
    assert out["state"]["reserve"] == 4
    assert sorted(out["state"]["deck"]) == sorted(["DOC", "MSK", "V", "V"])
    assert out["waiting"]["decision"] == "action"  # phase C, no draw offered


def test_ts12_mask_any_subset():
    """TS-12 (VD-9.3 any_subset): take the 2nd peeked card, leave the V on top."""
    out = ok(run(decisions=[MASK, {"type": "mask_take", "take": [1]}], turns=1,
                 deck=["V", "DOC", "SHF", "CTL"], players=[P(["MSK"]), P()]))
    assert hand(out, 0) == Counter(["DOC"])
    assert out["state"]["deck"] == ["V", "SHF", "CTL"]
    assert said(out, "P0 masks, takes 1")


def test_ts13_mask_prefix():
    """TS-13 (VD-9.3 prefix): {2nd} is illegal; legal sets are {}, {1st}, {1st, 2nd}."""
    kw = dict(params={"mask_take_mode": "prefix"}, deck=["V", "DOC", "SHF", "CTL"], players=[P(["MSK"]), P()])
    bad = run(decisions=[MASK, {"type": "mask_take", "take": [1]}], **kw)
    assert bad["illegal"]["index"] == 1
    wait = run(decisions=[MASK], **kw)
    assert [o["take"] for o in wait["waiting"]["legal"]] == [[], [0], [0, 1]]
    none = ok(run(decisions=[MASK, {"type": "mask_take", "take": []}], turns=1, **kw))
    assert none["state"]["deck"] == ["V", "DOC", "SHF", "CTL"]


def test_ts14_mask_take_none_then_control():
    """TS-14 (VD-9.5, AD-11): take nothing; phase C CTL is legal; no card drawn."""
    out = ok(run(decisions=[MASK, {"type": "mask_take", "take": []}, play("CTL", 1)], turns=1,
                 deck=["SHF", "DOC", "MSK"], players=[P(["MSK", "CTL"]), P()]))
    assert out["state"]["deck"] == ["SHF", "DOC", "MSK"]
    assert Counter(out["state"]["discard"]) == Counter(["MSK", "CTL"])
    assert said(out, "P0 plays CTL on P1")


def test_ts15_black_market():
    """TS-15 (VD-10): take TP from [V, V, TP]; the rest stay in order; no further draw."""
    out = ok(run(decisions=[MARKET, {"type": "market_take", "index": 2}], turns=1,
                 deck=["V", "V", "TP", "SHF"], players=[P(["BM"]), P()]))
    assert hand(out, 0) == Counter(["TP"])
    assert out["state"]["deck"] == ["V", "V", "SHF"]


def test_ts16_black_market_forced_virus():
    """TS-16 (VD-10.2): all seen are viruses: take one and hide it; with ANT it goes back."""
    out = ok(run(decisions=[MARKET, {"type": "market_take", "index": 0}, HIDE, END], turns=1,
                 deck=["V", "V", "V", "DOC"], players=[P(["BM"], open=1), P()]))
    assert pl(out, 0)["open"] == 1 and pl(out, 0)["live"] and hand(out, 0) == Counter(["V"])
    assert out["state"]["deck"] == ["V", "V", "DOC"]
    out = ok(run(decisions=[MARKET, {"type": "market_take", "index": 0}, ANTISEPTIC], turns=1,
                 deck=["V", "V", "V", "DOC"], players=[P(["BM", "ANT"], open=1), P()]))
    assert out["state"]["deck"] == ["V", "V", "V", "DOC"] and hand(out, 0) == Counter()


def test_ts17_black_market_bat():
    """TS-17 (VD-10.4): taking the BAT shuffles the returned cards with 2 new viruses."""
    out = ok(run(decisions=[MARKET, {"type": "market_take", "index": 0}], turns=1,
                 deck=["BAT", "V", "SHF"], reserve=6, players=[P(["BM"]), P()]))
    assert out["state"]["reserve"] == 4
    assert sorted(out["state"]["deck"]) == sorted(["V", "SHF", "V", "V"])
    assert hand(out, 0) == Counter()


def test_ts18_shuffle():
    """TS-18 (VD-11): the multiset is unchanged and order knowledge is cleared."""
    out = run(decisions=[play("SHF")], deck=["V", "DOC", "CTL"], known_top=1, players=[P(["SHF", "EXC"]), P()])
    assert sorted(out["state"]["deck"]) == sorted(["V", "DOC", "CTL"])
    assert out["state"]["known_top"] == 0


def test_ts19_skip():
    """TS-19 (VD-12.2): TP skip ends the turn without a draw; CTL then skip only under after_declaration."""
    out = ok(run(decisions=[SKIP], turns=1, deck=["V", "DOC"], players=[P(["TP", "CTL"]), P()]))
    assert hand(out, 0) == Counter(["CTL"]) and out["state"]["deck"] == ["V", "DOC"]
    assert out["state"]["current"] == 1
    bad = run(decisions=[play("CTL", 1), SKIP], deck=["V", "DOC"], players=[P(["TP", "CTL"]), P()])
    assert bad["illegal"]["index"] == 1
    good = ok(run(decisions=[play("CTL", 1), SKIP], turns=1, params={"skip_scope": "after_declaration"},
                  deck=["V", "DOC"], players=[P(["TP", "CTL"]), P()]))
    assert good["state"]["deck"] == ["V", "DOC"] and hand(good, 0) == Counter()


def test_ts20_control_exposes():
    """TS-20 (VD-13): CTL makes P1's hidden virus open; the rest of the hand is public."""
    out = ok(run(decisions=[play("CTL", 1)], deck=["DOC"], players=[P(["CTL", "SHF"]), P(["V", "MSK"])]))
    assert pl(out, 1)["open"] == 1 and hand(out, 1) == Counter(["MSK"]) and pl(out, 1)["live"]
    assert pl(out, 1)["suspicion"] == 0


def test_ts21_control_during_treatment():
    """TS-21 (VD-13, VD-17.5, VD-19): exposure during treatment eliminates; instigator P0."""
    out = ok(run(n=3, decisions=[play("CTL", 1)], deck=["DOC"],
                 players=[P(["CTL", "SHF"]), P(["V", "DOC"], open=1, treatment=1), P()]))
    assert not pl(out, 1)["live"]
    assert said(out, "P1 is eliminated (control")
    assert out["state"]["deck"] == ["DOC", "V", "V"]
    assert Counter(out["state"]["discard"]) == Counter(["CTL", "DOC"])


def test_ts22_cough_with_antiseptic():
    """TS-22 (VD-7.5, VD-15): P1 antisepticks the V back on top; P2 then draws it."""
    out = ok(run(n=3, decisions=[play("CGH"), {"type": "cough_virus", "response": "antiseptic"}],
                 deck=["V", "DOC", "SHF"],
                 players=[P(["CGH", "SHF"], open=1), P(["ANT"], open=1), P()]))
    assert pl(out, 1)["open"] == 1 and pl(out, 1)["live"]
    assert pl(out, 2)["open"] == 1
    assert out["state"]["deck"] == ["DOC", "SHF"]
    assert Counter(out["state"]["discard"]) == Counter(["CGH", "ANT"])


def test_ts23_cough_refusal():
    """TS-23 (VD-15): P1 gets the V, P2 refuses with TP, P3 draws SHF face up."""
    out = ok(run(n=4, decisions=[play("CGH"), {"type": "cough", "response": "refuse", "by": 2}],
                 deck=["V", "SHF", "DOC", "CTL"],
                 players=[P(["CGH", "SHF"], open=1), P(), P(["TP"]), P()]))
    assert pl(out, 1)["open"] == 1
    assert hand(out, 2) == Counter()
    assert hand(out, 3) == Counter(["SHF"])
    assert out["state"]["deck"] == ["DOC", "CTL"]


def test_ts24_cough_bat():
    """TS-24 (VD-15.3, VD-8): P1 draws the BAT and gets nothing; P2 draws the new top card."""
    out = ok(run(n=3, decisions=[play("CGH")], deck=["BAT", "SHF", "DOC"], reserve=6,
                 players=[P(["CGH", "SHF"], open=1), P(), P()]))
    assert out["state"]["reserve"] == 4
    assert hand(out, 1) == Counter() and pl(out, 1)["open"] == 0
    assert sum(hand(out, 2).values()) + pl(out, 2)["open"] == 1
    assert len(out["state"]["deck"]) == 3


def test_ts25_cough_needs_open_virus():
    """TS-25 (VD-15.1): CGH is illegal at O=0; legal after declaring the hidden V."""
    kw = dict(deck=["DOC", "SHF", "MSK"], players=[P(["CGH", "V"]), P()])
    assert run(decisions=[play("CGH")], **kw)["illegal"]["index"] == 0
    out = ok(run(decisions=[DECLARE, play("CGH")], **kw))
    assert pl(out, 0)["open"] == 1 and hand(out, 1) == Counter(["DOC"])


def test_ts26_cough_eliminates_last_opponent():
    """TS-26 (VD-15.4, VD-21.1): P1 draws V at O=1 and is out; P0 wins at once."""
    out = ok(run(decisions=[play("CGH")], deck=["V", "DOC"], players=[P(["CGH"], open=1), P(open=1)]))
    assert out["finished"] and out["result"]["winners"] == [0]
    assert out["result"]["outcome"] == "last_standing_normal"
    assert out["result"]["eliminations"] == [{"player": 1, "cause": "cough", "instigator": 0, "open": 2, "hidden": 0, "treatment": 0}]


def _exchange(p1_hand, extra):
    return run(n=3, decisions=[play("EXC"), {"type": "give", "card": "V", "by": 0}] + extra,
               deck=["DOC", "SHF"], players=[P(["EXC", "V", "SHF"]), P(p1_hand), P(["MSK", "TP"])])


def test_ts27_exchange():
    """TS-27 (VD-16): everyone passes one card left; the V is planted on P1."""
    out = ok(_exchange(["DOC"], [{"type": "give", "card": "MSK", "by": 2},
                                 {"type": "refuse_exchange", "value": False, "by": 2}]))
    assert hand(out, 0) == Counter(["SHF", "MSK"])
    assert hand(out, 1) == Counter(["V"])
    assert hand(out, 2) == Counter(["TP", "DOC"])


def test_ts28_exchange_refused():
    """TS-28 (VD-16.3, VD-16.4): P1 refuses with TP: the V returns to P0; P1 still gives DOC."""
    out = ok(_exchange(["DOC", "TP"], [{"type": "give", "card": "DOC", "by": 1},
                                       {"type": "give", "card": "MSK", "by": 2},
                                       {"type": "refuse_exchange", "value": True, "by": 1},
                                       {"type": "refuse_exchange", "value": False, "by": 2}]))
    assert hand(out, 0) == Counter(["SHF", "V", "MSK"])
    assert hand(out, 1) == Counter()
    assert hand(out, 2) == Counter(["TP", "DOC"])
    assert said(out, "P1 refuses the exchange card with TP")


def test_ts29_exchange_empty_hand():
    """TS-29 (VD-16.2): P1 has no cards, so P2 receives nothing."""
    out = ok(run(n=3, decisions=[play("EXC")], deck=["DOC", "SHF"],
                 players=[P(["EXC", "SHF"]), P(), P(["CTL"])]))
    assert hand(out, 0) == Counter(["CTL"])
    assert hand(out, 1) == Counter(["SHF"])
    assert hand(out, 2) == Counter()


def test_ts30_one_doctor_per_turn():
    """TS-30 (VD-17): the first DOC gives T=1; a second in the same turn is illegal."""
    out = run(decisions=[play("DOC"), play("DOC")], deck=["SHF", "CTL"], players=[P(["DOC", "DOC"], open=1), P()])
    assert out["illegal"]["index"] == 1
    assert pl(out, 0)["treatment"] == 1


def test_ts31_cure_on_a_later_turn():
    """TS-31 (VD-17.2, VD-17.3): skip a turn of treatment, then the second DOC cures."""
    out = ok(run(decisions=[DRAW, STOP, END,  # P0, turn k+1: no DOC
                            STOP, END,  # P1's turn
                            play("DOC")],  # P0, turn k+2
                 deck=["SHF", "CTL", "MSK", "QRN"], discard=["DOC"],
                 players=[P(["DOC"], open=1, treatment=1), P()]))
    assert pl(out, 0)["open"] == 0 and pl(out, 0)["treatment"] == 0
    assert out["state"]["deck"][-1] == "V"
    assert Counter(out["state"]["discard"])["DOC"] == 2


def test_ts32_doctor_needs_open_virus():
    """TS-32 (VD-17.1): DOC is illegal at O=0; after declaring, it is legal (T=1)."""
    kw = dict(deck=["SHF"], players=[P(["DOC", "V", "SHF"]), P()])
    assert run(decisions=[play("DOC")], **kw)["illegal"]["index"] == 0
    out = ok(run(decisions=[DECLARE, play("DOC")], **kw))
    assert pl(out, 0)["treatment"] == 1 and pl(out, 0)["open"] == 1


def test_ts33_ambulance():
    """TS-33 (VD-18): every open virus to the bottom, T reset; hidden viruses untouched."""
    out = ok(run(n=3, decisions=[play("AMB")], deck=["DOC"],
                 players=[P(["AMB", "SHF"], open=1, treatment=1), P(open=1), P(["V"])]))
    assert pl(out, 0)["open"] == pl(out, 1)["open"] == 0 and pl(out, 0)["treatment"] == 0
    assert out["state"]["deck"] == ["DOC", "V", "V"]
    assert hand(out, 2) == Counter(["V"])


def test_ts34_declare_then_ambulance():
    """TS-34 (VD-18.3): declare the hidden V, then AMB cures it."""
    out = ok(run(decisions=[DECLARE, play("AMB")], deck=["DOC"], players=[P(["V", "AMB", "SHF"]), P()]))
    assert pl(out, 0)["open"] == 0 and hand(out, 0) == Counter(["SHF"])
    assert out["state"]["deck"] == ["DOC", "V"]


def test_ts35_quarantine():
    """TS-35 (VD-14): every hand revealed; P1 (two viruses) is out; the caster is exposed too."""
    out = ok(run(n=3, decisions=[play("QRN")], deck=["DOC"],
                 players=[P(["QRN", "V", "SHF"]), P(["V", "V"]), P(["SHF"], open=1)]))
    assert pl(out, 0)["open"] == 1 and hand(out, 0) == Counter(["SHF"])
    assert not pl(out, 1)["live"] and said(out, "P1 is eliminated (quarantine")
    assert out["state"]["deck"] == ["DOC", "V", "V"]
    assert pl(out, 2)["open"] == 1 and hand(out, 2) == Counter(["SHF"])
    assert not out["finished"]


def test_ts36_quarantine_eliminates_everyone():
    """TS-36 (VD-14.2, VD-21.3): both reach O=2 together: no winner."""
    out = ok(run(decisions=[play("QRN")], deck=["DOC"], players=[P(["QRN", "V"], open=1), P(["V"], open=1)]))
    assert out["finished"] and out["result"]["winners"] == [] and out["result"]["outcome"] == "no_winner"


def test_ts37_voluntary_declaration_eliminates():
    """TS-37 (VD-4.8, VD-6.3): declaring at O=1 eliminates; the turn passes to P1."""
    out = ok(run(n=3, decisions=[DECLARE], turns=1, deck=["DOC"], players=[P(["V"], open=1), P(), P()]))
    assert not pl(out, 0)["live"] and said(out, "P0 is eliminated (voluntary_declare")
    assert out["state"]["current"] == 1


def test_ts38_antiseptic_not_playable_in_phase_a():
    """TS-38 (VD-7.1): ANT cannot be played without a just-drawn virus."""
    out = run(decisions=[play("ANT")], deck=["DOC"], players=[P(["V", "ANT"]), P()])
    assert out["illegal"]["index"] == 0


def test_ts39_hard_quarantine_starts():
    """TS-39 (VD-20.1, VD-20.5): the deck empties; P1 is the first drawer and pulls from P2."""
    out = ok(run(n=3, decisions=[END], deck=["SHF"], players=[P(), P(), P(["V"])]))
    assert said(out, "hard quarantine: 3 live, first drawer P1")
    assert said(out, "P1 pulls V from P2")


def test_ts40_cure_refills_deck():
    """TS-40 (VD-20.2): the cured V refills the deck, so no hard quarantine; P1 plays normally."""
    out = ok(run(decisions=[play("DOC")], turns=1, deck=["DOC"], players=[P(open=1, treatment=1), P()]))
    assert out["state"]["deck"] == ["V"] and out["state"]["current"] == 1
    assert not said(out, "hard quarantine")


def test_ts41_draw_waived_after_cough():
    """TS-41 (VD-20.3): the cough empties the deck; P2 and P0 draw nothing; HQ at turn end."""
    out = ok(run(n=3, decisions=[play("CGH")], deck=["CTL"], players=[P(["CGH"], open=1), P(), P()]))
    assert hand(out, 1) == Counter(["CTL"]) and hand(out, 2) == Counter() and hand(out, 0) == Counter()
    assert said(out, "P0 drew 0") and said(out, "hard quarantine")


def test_ts42_hq_pull_eliminates():
    """TS-42 (VD-20.6, VD-21.1): P0 pulls the V from P1: P1 out, P0 wins in HQ."""
    out = ok(run(phase="hq", players=[P(["V", "SHF"], open=1), P(["V"], open=1)]))
    assert out["result"]["winners"] == [0] and out["result"]["outcome"] == "last_standing_hq"
    assert out["result"]["eliminations"] == [{"player": 1, "cause": "hard_quarantine", "instigator": 0, "open": 2, "hidden": 0, "treatment": 0}]


def test_ts43_hq_last_standing_and_first_elimination():
    """TS-43 (VD-20.9): P1 then P0 fall, P2 wins; with first_elimination P0 and P2 share."""
    hands = [P(["V"], open=1), P(["V"], open=1), P(["V", "SHF"])]
    out = ok(GAME.scenario({"game": "virus-dogs", "players": 3, "state": {"phase": "hq", "players": hands}}))
    assert out["result"]["winners"] == [2]
    assert [e["player"] for e in out["result"]["eliminations"]] == [0, 1]
    assert said(out, "P0 pulls V from P1") and said(out, "P2 pulls V from P0")
    out = ok(GAME.scenario({"game": "virus-dogs", "players": 3, "params": {"hq_end": "first_elimination"},
                            "state": {"phase": "hq", "players": hands}}))
    assert out["result"]["winners"] == [0, 2] and out["result"]["outcome"] == "hq_first_elimination"


def test_ts44_hq_stalemate():
    """TS-44 (VD-20.8, VD-20.10): no hidden viruses: stalemate; fewest open wins, or all share."""
    hands = [P(["SHF"], open=1), P(["DOC"])]
    out = ok(GAME.scenario({"game": "virus-dogs", "players": 2, "state": {"phase": "hq", "players": hands}}))
    assert out["result"]["winners"] == [1] and out["result"]["outcome"] == "hq_stalemate"
    out = ok(GAME.scenario({"game": "virus-dogs", "players": 2, "params": {"hq_stalemate": "all_remaining_shared"},
                            "state": {"phase": "hq", "players": hands}}))
    assert out["result"]["winners"] == [0, 1]


def test_ts45_hq_empty_target():
    """TS-45 (VD-20.6): pulling from an empty hand does nothing; P1 then pulls from P2."""
    out = ok(GAME.scenario({"game": "virus-dogs", "players": 3,
                            "state": {"phase": "hq", "players": [P(), P(), P(["V"])]}}))
    events = [e.strip() for e in out["events"]]
    i = events.index("P0 pulls nothing (target P1 has no cards)")
    assert events[i + 1] == "P1 pulls V from P2"


def test_ts46_draw_two_from_one_card_deck():
    """TS-46 (VD-5.4): declaring 2 with one card left draws 1; HQ at the end of the turn."""
    out = ok(run(decisions=[{"type": "mode", "mode": "draw", "count": 2}, END],
                 params={"draw_count_declared_upfront": True}, deck=["SHF"], players=[P(["TP"]), P()]))
    assert hand(out, 0) == Counter(["SHF", "TP"])
    assert said(out, "P0 drew 1") and said(out, "hard quarantine")


def test_ts47_control_wins_before_draw():
    """TS-47 (VD-21.1): eliminating the last opponent in phase A ends the game at once."""
    out = ok(run(decisions=[play("CTL", 1)], deck=["DOC", "SHF"], players=[P(["CTL"]), P(["V"], open=1)]))
    assert out["finished"] and out["result"]["winners"] == [0]
    assert out["state"]["deck"] == ["DOC", "SHF", "V", "V"]  # no draw; P1's viruses at the bottom


def test_ts48_toilet_paper_single_use():
    """TS-48 (VD-12.1): the TP used against a cough is gone; P1 cannot skip later."""
    out = ok(run(decisions=[play("CGH"), {"type": "cough", "response": "refuse", "by": 1},
                            DRAW, STOP, END],
                 deck=["DOC", "CTL", "MSK"], players=[P(["CGH", "SHF"], open=1), P(["TP", "SHF"])]))
    assert out["waiting"]["player"] == 1
    assert {"type": "mode", "mode": "skip"} not in out["waiting"]["legal"]
    assert hand(out, 1) == Counter(["SHF"])


def test_ts49_no_reaction_to_control():
    """TS-49 (VD-12.3): TP cannot answer CTL; the V becomes open."""
    out = ok(run(decisions=[play("CTL", 1)], deck=["DOC"], players=[P(["CTL", "SHF"]), P(["TP", "V"])]))
    assert out["waiting"]["player"] == 0
    assert pl(out, 1)["open"] == 1 and hand(out, 1) == Counter(["TP"])


def test_ts50_elimination_procedure():
    """TS-50 (VD-19.3): both viruses to the deck bottom, the other cards to the discard."""
    out = ok(run(n=3, decisions=[play("CTL", 2)], deck=["DOC"],
                 players=[P(["CTL", "SHF"]), P(), P(["V", "DOC", "TP"], open=1)]))
    assert not pl(out, 2)["live"]
    assert out["state"]["deck"] == ["DOC", "V", "V"]
    assert Counter(out["state"]["discard"]) == Counter(["CTL", "DOC", "TP"])
    viruses = out["state"]["reserve"] + out["state"]["deck"].count("V") + sum(
        p["hand"].count("V") + p["open"] for p in out["state"]["players"])
    assert viruses == 7
