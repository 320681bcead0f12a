"""The spec's test scenarios T-01 .. T-22 (rules/virus-faking-sick.md), by ID."""

from __future__ import annotations

from collections import Counter

import pytest

from sim.games.faking_sick import GAME
from sim.games.faking_sick.reference import BotAgent, FakingSick, seat_agent
from sim.kit.rng import Rng

from .helpers import fill_draw, hand, legal, ms, run, state_cards

POOL = Counter({"FEV": 2, "SNZ": 2, "INJ": 1, "HDA": 1, "MSK": 1, "ICE": 1})
NAMES = ("VIR", "FEV", "SNZ", "INJ", "HDA", "MSK", "ICE")


def setup_game(players: int, index: int) -> FakingSick:
    cfg = GAME.make_config(players=players)
    _, agent = seat_agent(cfg, index)
    g = FakingSick(cfg.params, players, Rng(cfg.seed, index), agent)
    g.setup()
    return g


def named(counts) -> Counter:
    return Counter({NAMES[t]: c for t, c in enumerate(counts) if c})


@pytest.mark.parametrize("index", range(5))
def test_T01_setup_4_players(index):
    """T-01 (FS-2.1-2.5): sizes, banned pool, marker, per-type counts, 96 cards."""
    g = setup_game(4, index)
    assert [sum(h) for h in g.hands] == [10] * 4
    assert [len(s) for s in g.slots] == [2] * 4
    banned = Counter(NAMES[t] for s in g.slots for t in s)
    assert banned == POOL and "VIR" not in banned
    assert len(g.draw_pile) == 46 and len(g.discard) == 1 and g.unused == []
    visible = Counter()
    for h in g.hands:
        visible.update(named(h))
    visible.update(NAMES[t] for t in g.draw_pile + g.discard)
    assert visible == Counter({"VIR": 31, "FEV": 14, "SNZ": 14, "INJ": 7, "HDA": 7, "MSK": 7, "ICE": 7})
    assert sum(g.zone_counts()) == 96 and g.zone_counts()[0] == 32  # marker counted once
    g.check_invariants()


@pytest.mark.parametrize("index", range(5))
def test_T02_setup_3_players_unused_pool(index):
    """T-02 (FS-2.1): 3 x 2 banned cards, the other 2 pool cards unused, draw pile 56."""
    g = setup_game(3, index)
    assert [len(s) for s in g.slots] == [2] * 3
    assert len(g.unused) == 2
    assert Counter(NAMES[t] for s in g.slots for t in s) + Counter(NAMES[t] for t in g.unused) == POOL
    assert len(g.draw_pile) == 56 and len(g.discard) == 1


def test_T02_reshuffle_never_uses_unused_pool():
    """T-02 (FS-10.1): the reshuffle takes the discard below its top, never the unused pool."""
    state = {"hands": [["SNZ"], ["VIR", "VIR"], ["VIR", "VIR"]], "banned": [["HDA", "ICE"]] * 3,
             "draw": [], "discard": ["VIR", "FEV", "SNZ"], "unused": ["MSK", "FEV"], "to_move": 0}
    out = run(state, [{"action": "draw"}], players=3)
    st = out["state"]
    assert st["discard"] == ["SNZ"]
    assert st["unused"] == ["MSK", "FEV"]
    assert len(st["draw"]) == 1
    drawn = hand(out, 0) - ms(["SNZ"])
    assert sum(drawn.values()) == 1
    assert drawn + ms(st["draw"]) == ms(["VIR", "FEV"])
    assert out["stats"]["reshuffles"] == 1


def test_T03_legal_plays():
    """T-03 (FS-4.1-4.3): honest/bluff marking, no same-type play, HEADACHE ban."""
    state = {"hands": [["FEV", "VIR", "SNZ"], ["VIR"] * 3, ["VIR"] * 3, ["VIR"] * 3],
             "banned": [["SNZ", "MSK"], [], [], []], "draw": ["VIR"], "discard": ["FEV"], "to_move": 0}
    out = run(state)
    assert out["waiting"]["player"] == 0 and out["waiting"]["decision"] == "turn"
    assert legal(out) == [("play", "VIR", False), ("play", "SNZ", True), ("draw", None, None)]
    out = run({**state, "ban": {"owner": 2}})
    assert legal(out) == [("play", "SNZ", True), ("draw", None, None)]


def test_T04_drawing_ends_the_turn():
    """T-04 (FS-3.4): a draw ends the turn, no call window, the drawn MSK is not played."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "FEV"], ["VIR", "FEV"]], "banned": [[], [], []],
             "draw": ["MSK", "VIR"], "discard": ["VIR"], "to_move": 0}
    out = run(state, players=3)
    assert legal(out) == [("draw", None, None)]
    out = run(state, [{"action": "draw"}], players=3)
    assert hand(out, 0) == ms(["VIR", "VIR", "MSK"])
    assert out["waiting"] == {"player": 1, "decision": "turn", "legal": out["waiting"]["legal"]}
    assert out["state"]["discard"] == ["VIR"]
    assert not any("calls" in e for e in out["events"])


T05 = {"hands": [["VIR", "ICE"], ["FEV", "VIR", "VIR"], ["VIR", "HDA", "SNZ", "ICE"], ["VIR", "SNZ"]],
       "banned": [["HDA", "ICE"], ["SNZ", "MSK"], ["FEV", "INJ"], ["FEV", "SNZ"]],
       "draw": ["MSK", "INJ", "VIR"], "discard": ["VIR"], "to_move": 1}


def test_T05_call_priority():
    """T-05 (FS-6.3): nearest clockwise caller is judged; only they draw."""
    out = run(T05, [{"action": "play", "card": "FEV"}, {"calls": [0, 2, 3]}])
    assert hand(out, 2) == ms(["VIR", "HDA", "SNZ", "ICE", "MSK", "INJ"])
    assert hand(out, 0) == ms(T05["hands"][0]) and hand(out, 3) == ms(T05["hands"][3])
    assert out["state"]["discard"][-1] == "FEV"
    assert hand(out, 1) == ms(["VIR", "VIR"])
    assert out["state"]["attack"] == {"kind": "FEV", "target": 2}
    assert out["state"]["to_move"] == 2 and out["waiting"]["player"] == 2
    s = out["stats"]
    assert (s["call_requests"], s["calls_made"], s["calls_failed"]) == (3, 1, 1)


def test_T05_calls_decided_one_by_one():
    """T-05 with per-player call decisions (asked clockwise from the challenged player)."""
    out = run(T05, [{"action": "play", "card": "FEV"}, {"player": 2, "call": True},
                    {"player": 3, "call": True}, {"player": 0, "call": True}])
    assert hand(out, 2) == ms(["VIR", "HDA", "SNZ", "ICE", "MSK", "INJ"])


T06 = {"hands": [["VIR", "VIR"], ["SNZ", "VIR", "FEV"], ["VIR", "VIR"], ["VIR", "VIR", "HDA", "ICE"]],
       "banned": [["HDA", "INJ"], ["SNZ", "MSK"], ["FEV", "INJ"], ["FEV", "SNZ"]],
       "draw": ["ICE", "FEV", "VIR"], "discard": ["HDA", "VIR"], "to_move": 1}
T06_DECISIONS = [{"action": "play", "card": "SNZ"}, {"calls": [3]}, {"push": ["VIR", "VIR"]}]


def test_T06_successful_call():
    """T-06 (FS-7.1-7.3, FS-8.1): reveal, push, card returns, revealed card to the bottom, replacement."""
    out = run(T06, T06_DECISIONS)
    st = out["state"]
    assert hand(out, 3) == ms(["HDA", "ICE"])
    assert hand(out, 1) == ms(["SNZ", "VIR", "FEV", "VIR", "VIR"])
    assert st["discard"] == ["SNZ", "HDA", "VIR"]
    assert ms(st["banned"][1]) == ms(["ICE", "MSK"])
    assert st["draw"] == ["FEV", "VIR"]
    assert st["attack"] is None and st["to_move"] == 2


def test_T07_failed_call_by_next_player_against_attack():
    """T-07 (FS-7.4, FS-5.2): the failed caller draws, then the SNEEZE hits them."""
    state = {"hands": [["SNZ", "VIR"], ["VIR"], ["VIR", "VIR"]],
             "banned": [["FEV", "FEV"], ["HDA", "ICE"], ["HDA", "ICE"]],
             "draw": ["VIR", "MSK", "INJ", "VIR"], "discard": ["HDA"], "to_move": 0}
    dec = [{"action": "play", "card": "SNZ"}, {"calls": [1]}]
    out = run(state, dec, players=3)
    assert hand(out, 1) == ms(["VIR", "VIR", "MSK"])
    assert out["state"]["discard"][-1] == "SNZ" and hand(out, 0) == ms(["VIR"])
    assert out["state"]["attack"] == {"kind": "SNZ", "target": 1}
    assert legal(out) == [("counter", "MSK", False), ("accept", None, None)]
    out = run(state, dec + [{"action": "accept"}], players=3)
    assert hand(out, 1) == ms(["VIR", "VIR", "MSK", "INJ"])
    assert out["state"]["to_move"] == 2 and out["state"]["attack"] is None


def test_T08_duplicate_banned_cards():
    """T-08 (FS-7.1, FS-8.3): one of two identical banned cards is revealed; the other still bans."""
    state = {"hands": [["HDA", "VIR", "ICE"], ["VIR", "VIR"], ["FEV", "VIR", "VIR"], ["VIR", "VIR"]],
             "banned": [["MSK", "ICE"], ["SNZ", "MSK"], ["FEV", "FEV"], ["SNZ", "INJ"]],
             "draw": ["HDA", "VIR", "VIR"], "discard": ["SNZ"], "to_move": 2}
    out = run(state, [{"action": "play", "card": "FEV"}, {"calls": [0]}, {"push": ["HDA", "VIR"]}])
    st = out["state"]
    assert ms(st["banned"][2]) == ms(["FEV", "HDA"])
    assert hand(out, 2) == ms(["FEV", "VIR", "VIR", "HDA", "VIR"])
    assert hand(out, 0) == ms(["ICE"])
    assert st["discard"][0] == "FEV"
    assert out["stats"]["duplicate_reveals"] == 1
    again = {k: st[k] for k in st if k != "limbo"}
    again["to_move"] = 2
    out2 = run(again, [{"action": "play", "card": "FEV"}, {"calls": [3]}, {"push": ["VIR", "VIR"]}])
    assert out2["stats"]["calls_succeeded"] == 1 and out2["stats"]["reveals"] == 1


def test_T09_replacement_skips_viruses():
    """T-09 (FS-8.2): skipped viruses go below the discard bottom, the top never changes."""
    state = {**T06, "draw": ["VIR", "VIR", "MSK", "FEV"], "discard": ["ICE", "VIR"]}
    out = run(state, T06_DECISIONS)
    st = out["state"]
    assert st["discard"] == ["VIR", "VIR", "SNZ", "ICE", "VIR"]
    assert ms(st["banned"][1]) == ms(["MSK", "MSK"])
    assert st["draw"] == ["FEV"]
    assert out["stats"]["viruses_skipped"] == 2


def test_T10_going_out_on_mask():
    """T-10 (FS-9.1-9.3): MASK may be the last card; the game ends at once."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "VIR"], ["MSK"], ["VIR", "VIR"]],
             "banned": [["SNZ", "ICE"], ["SNZ", "INJ"], ["FEV", "HDA"], ["FEV", "MSK"]],
             "draw": ["VIR"], "discard": ["VIR"], "to_move": 2}
    out = run(state, [{"action": "play", "card": "MSK"}, {"calls": []}])
    assert out["finished"] and out["result"]["winner"] == 2
    assert out["result"]["win_method"] == "play_out" and out["result"]["end_reason"] == "winner"
    assert ms(out["result"]["winner_banned"]) == ms(["FEV", "HDA"])
    assert out["state"]["to_move"] == 2 and out["result"]["turns"] == 1


def test_T11_no_going_out_on_banned_card():
    """T-11 (FS-4.4, FS-9.4): never offered as a last card; a bluff otherwise; `void` variant."""
    base = {"hands": [["VIR", "VIR"], ["VIR", "VIR"], ["MSK"], ["VIR", "VIR"]],
            "banned": [["SNZ", "ICE"], ["SNZ", "INJ"], ["MSK", "FEV"], ["FEV", "HDA"]],
            "draw": ["SNZ", "VIR", "ICE"], "discard": ["VIR"], "to_move": 2}
    assert legal(run(base)) == [("draw", None, None)]
    two = {**base, "hands": [["VIR", "VIR"], ["VIR", "VIR"], ["MSK", "VIR"], ["VIR", "VIR"]], "discard": ["HDA"]}
    assert ("play", "MSK", True) in legal(run(two))
    out = run(base, [{"action": "play", "card": "MSK"}, {"calls": []}], params={"banned_last_card": "void"})
    st = out["state"]
    assert not out["finished"]
    assert hand(out, 2) == ms(["MSK", "SNZ", "VIR"])
    assert st["discard"][0] == "MSK"
    assert ms(st["banned"][2]) == ms(["ICE", "FEV"])
    assert st["to_move"] == 3


def test_T12_caller_goes_out_by_pushing():
    """T-12 (FS-7.3 step 2, FS-9.1): push-out ends the game before the card returns or bans."""
    state = {"hands": [["HDA", "VIR", "VIR"], ["VIR", "VIR"], ["VIR", "VIR"], ["VIR", "SNZ"]],
             "banned": [["HDA", "ICE"], ["SNZ", "INJ"], ["FEV", "MSK"], ["FEV", "SNZ"]],
             "draw": ["FEV", "VIR"], "discard": ["MSK"], "to_move": 0}
    out = run(state, [{"action": "play", "card": "HDA"}, {"calls": [3]}, {"push": ["VIR", "SNZ"]}])
    assert out["finished"] and out["result"]["winner"] == 3 and out["result"]["win_method"] == "push_out"
    st = out["state"]
    assert st["ban"] is None and st["draw"] == ["FEV", "VIR"]
    assert ms(st["banned"][0]) == ms(["HDA", "ICE"])  # no replacement drawn
    assert st["limbo"] == "HDA"


def test_T13_caller_with_one_card():
    """T-13 (FS-7.2, push_short_hand): push all and win; with forbid_call P1 is not asked."""
    state = {"hands": [["SNZ", "VIR"], ["FEV"], ["VIR", "VIR", "VIR"]],
             "banned": [["SNZ", "SNZ"], ["HDA", "ICE"], ["FEV", "INJ"]],
             "draw": ["FEV", "VIR"], "discard": ["VIR"], "to_move": 0}
    out = run(state, [{"action": "play", "card": "SNZ"}, {"calls": [1]}, {"push": ["FEV"]}], players=3)
    assert out["result"]["winner"] == 1 and out["result"]["win_method"] == "push_out"
    assert out["stats"]["reveals"] == 1 and out["state"]["banned"][0].count("SNZ") == 2  # one revealed, not yet moved
    out = run(state, [{"action": "play", "card": "SNZ"}], players=3, params={"push_short_hand": "forbid_call"})
    assert out["waiting"]["player"] == 2 and out["waiting"]["decision"] == "call"
    out = run(state, [{"action": "play", "card": "SNZ"}, {"calls": [1]}], players=3,
              params={"push_short_hand": "forbid_call"})
    assert out["illegal"]["index"] == 1


T14 = {"hands": [["HDA", "VIR", "VIR"], ["VIR", "VIR", "FEV"], ["VIR", "ICE", "ICE"], ["VIR", "INJ", "INJ"]],
       "banned": [["FEV", "SNZ"], ["SNZ", "MSK"], ["FEV", "MSK"], ["FEV", "SNZ"]],
       "draw": ["SNZ", "SNZ", "SNZ", "SNZ", "SNZ"], "discard": ["ICE"], "to_move": 0}


def test_T14_headache_bans_virus_for_one_round():
    """T-14 (FS-5.4): every player is bound until the owner's next turn."""
    dec = [{"action": "play", "card": "HDA"}, {"calls": []}]
    out = run(T14, dec)
    assert out["state"]["ban"] == {"owner": 0}
    assert legal(out) == [("play", "FEV", False), ("draw", None, None)]
    out = run(T14, dec + [{"action": "draw"}])
    assert legal(out) == [("play", "ICE", False), ("draw", None, None)]
    out = run(T14, dec + [{"action": "draw"}] * 2)
    assert legal(out) == [("play", "INJ", False), ("draw", None, None)]
    out = run(T14, dec + [{"action": "draw"}] * 3)
    assert out["state"]["ban"] is None and out["waiting"]["player"] == 0
    assert ("play", "VIR", False) in legal(out)


def test_T14_next_player_scope():
    """T-14 with headache_ban_scope = next_player_turn: only P1 is bound."""
    params = {"headache_ban_scope": "next_player_turn"}
    dec = [{"action": "play", "card": "HDA"}, {"calls": []}]
    out = run(T14, dec, params=params)
    assert ("play", "VIR", False) not in legal(out)
    out = run(T14, dec + [{"action": "draw"}], params=params)
    assert out["state"]["ban"] is None and ("play", "VIR", False) in legal(out)


def test_T15_called_headache_bluff_bans_nothing():
    """T-15 (FS-6.4, FS-7.3): a successfully called HEADACHE has no effect."""
    state = {"hands": [["HDA", "VIR", "VIR"], ["VIR", "VIR", "VIR", "FEV"], ["VIR", "VIR"], ["VIR", "VIR"]],
             "banned": [["HDA", "MSK"], ["SNZ", "INJ"], ["FEV", "ICE"], ["FEV", "SNZ"]],
             "draw": ["ICE", "FEV", "VIR"], "discard": ["SNZ"], "to_move": 0}
    out = run(state, [{"action": "play", "card": "HDA"}, {"calls": [1]}, {"push": ["VIR", "VIR"]}])
    assert out["state"]["ban"] is None and out["state"]["discard"][-1] == "SNZ"
    assert out["waiting"]["player"] == 1 and ("play", "VIR", False) in legal(out)


def test_T16_successful_call_on_a_counter():
    """T-16 (FS-3.3, FS-7.3 steps 5-6): replacement first, then the FEVER penalty."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "VIR"], ["ICE", "VIR"], ["VIR", "VIR", "HDA"]],
             "banned": [["HDA", "MSK"], ["SNZ", "INJ"], ["ICE", "SNZ"], ["FEV", "MSK"]],
             "draw": ["FEV", "VIR", "INJ"], "discard": ["FEV"], "to_move": 2,
             "attack": {"kind": "FEV", "target": 2}}
    out = run(state, [{"action": "counter", "card": "ICE"}, {"calls": [3]}, {"push": ["VIR", "VIR"]}])
    st = out["state"]
    assert ms(st["banned"][2]) == ms(["FEV", "SNZ"])
    assert hand(out, 2) == ms(["ICE", "VIR", "VIR", "VIR", "VIR"])
    assert hand(out, 3) == ms(["HDA"])
    assert st["discard"][-1] == "FEV" and st["attack"] is None and st["to_move"] == 3


def test_T17_accepting_an_attack():
    """T-17 (FS-3.3, FS-5.2): no counter -> ACCEPT only; vanilla has no attacks."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "FEV"], ["VIR", "VIR"]],
             "banned": [["HDA", "MSK"], ["HDA", "ICE"], ["FEV", "ICE"]],
             "draw": ["HDA", "VIR"], "discard": ["SNZ"], "to_move": 1,
             "attack": {"kind": "SNZ", "target": 1}}
    out = run(state, players=3)
    assert legal(out) == [("accept", None, None)]
    out = run(state, [{"action": "accept"}], players=3)
    assert hand(out, 1) == ms(["VIR", "FEV", "HDA"])
    assert out["state"]["to_move"] == 2 and out["state"]["attack"] is None
    assert out["state"]["discard"] == ["SNZ"]
    vanilla = {**state, "attack": None, "to_move": 0, "hands": [["SNZ", "VIR"], ["VIR", "FEV"], ["VIR", "VIR"]],
               "discard": ["HDA"]}
    out = run(vanilla, [{"action": "play", "card": "SNZ"}, {"calls": []}], players=3,
              params={"effects_profile": "vanilla"})
    assert out["state"]["attack"] is None
    assert legal(out) == [("play", "VIR", False), ("play", "FEV", False), ("draw", None, None)]


def test_T18_failed_call_on_the_last_card():
    """T-18 (FS-7.4, FS-9.1): the caller draws, then the play goes out."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "VIR"], ["VIR"], ["VIR", "VIR"]],
             "banned": [["HDA", "MSK"], ["SNZ", "INJ"], ["FEV", "SNZ"], ["FEV", "ICE"]],
             "draw": ["ICE", "INJ", "VIR"], "discard": ["MSK"], "to_move": 2}
    out = run(state, [{"action": "play", "card": "VIR"}, {"calls": [0]}])
    assert hand(out, 0) == ms(["VIR", "VIR", "ICE", "INJ"])
    assert out["result"]["winner"] == 2 and out["result"]["win_method"] == "play_out"


def test_T19_empty_piles():
    """T-19 (FS-10.3): no card to draw; a failed caller draws nothing and the play stands."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "FEV"], ["VIR", "VIR"], ["VIR", "VIR"]],
             "banned": [["HDA", "MSK"], ["SNZ", "INJ"], ["FEV", "SNZ"], ["FEV", "ICE"]],
             "draw": [], "discard": ["SNZ"], "to_move": 1}
    out = run(state, [{"action": "draw"}])
    assert hand(out, 1) == ms(["VIR", "FEV"]) and out["stats"]["reshuffles"] == 0
    assert out["state"]["to_move"] == 2
    out = run(state, [{"action": "play", "card": "VIR"}, {"calls": [2]}])
    assert hand(out, 2) == ms(["VIR", "VIR"]) and out["state"]["discard"] == ["SNZ", "VIR"]
    assert out["stats"]["calls_failed"] == 1


def test_T20_call_conservation_and_limbo():
    """T-20 (FS-1.3, FS-4.6): during the window the card is in limbo; 96 cards throughout."""
    state = fill_draw(T06)
    out = run(state, T06_DECISIONS[:1])
    st = out["state"]
    assert out["waiting"]["decision"] == "call" and st["limbo"] == "SNZ"
    assert hand(out, 1) == ms(["VIR", "FEV"]) and st["discard"][-1] == "VIR"
    assert sum(state_cards(st).values()) == 96
    out = run(state, T06_DECISIONS)
    assert out["state"]["limbo"] is None and sum(state_cards(out["state"]).values()) == 96


class Recorder(BotAgent):
    """Bots that log every question asked (T-21)."""

    def __init__(self, base: BotAgent):
        super().__init__(base.specs, base.params)
        self.trace: list[tuple] = []

    def decide(self, g, s, kind, legal):
        d = super().decide(g, s, kind, legal)
        self.trace.append(("call", g.ctx["target"], s) if kind == "call" else (kind, s, d.get("action")))
        return d


@pytest.mark.parametrize("index", range(20))
def test_T21_only_other_players_call_and_only_plays(index):
    """T-21 (FS-6.1): a window (one call question to each other player) follows every play and
    nothing else; never to the player who played."""
    cfg = GAME.make_config(players=4, bots=["random", "bluffer", "caller", "honest"])
    _, base = seat_agent(cfg, index)
    agent = Recorder(base)
    g = FakingSick(cfg.params, 4, Rng(cfg.seed, index), agent)
    g.setup()
    g.play_game()
    trace = agent.trace
    for i, item in enumerate(trace):
        if item[0] == "call":
            prev = next(x for x in reversed(trace[:i]) if x[0] != "call")
            assert prev[2] in ("play", "counter") and prev[1] == item[1]
            assert item[2] != item[1]
        elif item[2] in ("play", "counter"):
            asked = [x[2] for x in trace[i + 1:i + 4] if x[0] == "call"]
            assert sorted(asked) == sorted({0, 1, 2, 3} - {item[1]}) and trace[i + 1][1] == item[1]


def test_T22_turn_cap():
    """T-22 (FS-3.2, FS-9.6): the game ends as a draw when the fourth turn would start."""
    state = {"hands": [["VIR"], ["VIR"], ["VIR"]], "banned": [[], [], []], "draw": [], "discard": ["VIR"],
             "to_move": 0, "turns": 0}
    out = run(state, [{"action": "draw"}] * 3, players=3, params={"max_turns": 3})
    assert out["finished"]
    assert out["result"] == {"winner": -1, "winner_seat": -1, "win_method": "none", "end_reason": "turn_cap",
                             "turns": 3, "winner_banned": []}


def test_fields_left_out_keep_setup_values():
    """Scenario envelope: an empty state is the seeded setup (FS-2), then play starts at seat 0."""
    out = run({}, players=3)
    st = out["state"]
    assert [len(h) for h in st["hands"]] == [10, 10, 10]
    assert len(st["draw"]) == 56 and len(st["discard"]) == 1 and len(st["unused"]) == 2
    assert sum(state_cards(st).values()) == 96
    assert out["waiting"]["player"] == 0 and out["waiting"]["decision"] == "turn"


def test_bots_finish_a_scenario():
    """With `bots`, the run continues after the decision list until the game ends."""
    out = run({}, [{"action": "draw"}], bots=["bluffer", "caller", "honest", "random"])
    assert out["finished"] and out["waiting"] is None and out["illegal"] is None
    assert sum(state_cards(out["state"]).values()) == 96


def test_illegal_decision_stops_with_state_before_it():
    """An illegal decision is reported with its index; the state is the one before it."""
    out = run(T06, [{"action": "play", "card": "SNZ"}, {"calls": [1]}])
    assert out["illegal"]["index"] == 1 and "may not call" in out["illegal"]["reason"]
    assert out["state"]["limbo"] == "SNZ"
    out = run(T06, [{"action": "play", "card": "VIR"}])
    assert out["illegal"]["index"] == 0 and out["state"]["hands"][1] == ["VIR", "FEV", "SNZ"]
