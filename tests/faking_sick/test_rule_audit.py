"""Rule-by-rule scenarios for every parameter alternative of spec §2 and the edge cases the
spec spells out beyond T-01..T-22 (rules/virus-faking-sick.md, IDs FS-...)."""

from __future__ import annotations

from collections import Counter

import pytest

from .helpers import hand, legal, ms, run, state_cards

DRAW = ("draw", None, None)
ACCEPT = ("accept", None, None)

# T-06 base: P1 bluffs SNZ (banned [SNZ, MSK]); P3 is the caller
T06 = {"hands": [["VIR", "VIR", "VIR"], ["SNZ", "VIR", "FEV"], ["VIR", "VIR"], ["VIR", "VIR", "HDA", "ICE"]],
       "banned": [["HDA", "INJ"], ["SNZ", "MSK"], ["FEV", "INJ"], ["FEV", "SNZ"]],
       "draw": ["ICE", "FEV", "VIR"], "discard": ["HDA", "VIR"], "to_move": 1}
T06_CALLED = [{"action": "play", "card": "SNZ"}, {"calls": [3]}, {"push": ["VIR", "VIR"]}]

# T-16 base: P2 counters a FEVER with a banned ICE; P3 calls
T16 = {"hands": [["VIR", "VIR"], ["VIR", "VIR"], ["ICE", "VIR"], ["VIR", "VIR", "HDA"]],
       "banned": [["HDA", "MSK"], ["SNZ", "INJ"], ["ICE", "SNZ"], ["FEV", "MSK"]],
       "draw": ["FEV", "VIR", "INJ"], "discard": ["FEV"], "to_move": 2, "attack": {"kind": "FEV", "target": 2}}
T16_CALLED = [{"action": "counter", "card": "ICE"}, {"calls": [3]}, {"push": ["VIR", "VIR"]}]

NO_BANS4 = [["HDA", "ICE"], ["HDA", "ICE"], ["HDA", "ICE"], ["HDA", "ICE"]]


# ---- setup parameters (FS-2) ------------------------------------------------------------
def test_FS_2_8_first_player():
    """FS-2.8 `first_player`: the seeded game starts with that seat's turn."""
    out = run({}, params={"first_player": 2})
    assert out["waiting"]["player"] == 2 and out["state"]["to_move"] == 2 and out["state"]["turns"] == 1


@pytest.mark.parametrize("players, k, unused", [(4, 1, 4), (3, 1, 5), (3, 2, 2)])
def test_FS_2_1_banned_per_player(players, k, unused):
    """FS-2.1 `banned_per_player`: k cards per slot list; the rest of the pool is unused."""
    st = run({}, players=players, params={"banned_per_player": k})["state"]
    assert [len(b) for b in st["banned"]] == [k] * players and len(st["unused"]) == unused
    pool = Counter(x for b in st["banned"] for x in b) + Counter(st["unused"])
    assert pool == Counter({"FEV": 2, "SNZ": 2, "INJ": 1, "HDA": 1, "MSK": 1, "ICE": 1})


def test_FS_2_1_custom_pool_and_deck_and_hand_size():
    """FS-1.1 `deck_counts`, FS-2.1 `banned_pool`, FS-2.4 `hand_size`, FS-2.5 sizes."""
    params = {"banned_pool": "FEV=4,SNZ=4", "hand_size": 5, "deck_counts": "VIR=20,FEV=10,SNZ=10,INJ=5,HDA=5,MSK=5,ICE=5"}
    st = run({}, params=params)["state"]
    assert Counter(x for b in st["banned"] for x in b) == Counter({"FEV": 4, "SNZ": 4})
    assert [len(h) for h in st["hands"]] == [5] * 4
    assert len(st["draw"]) == 60 - 8 - 1 - 20 - 1 and len(st["discard"]) == 1
    assert state_cards(st) == Counter({"VIR": 20, "FEV": 10, "SNZ": 10, "INJ": 5, "HDA": 5, "MSK": 5, "ICE": 5})


@pytest.mark.parametrize("top, first, expect", [
    ("FEV", 0, {"attack": {"kind": "FEV", "target": 0}, "ban": None}),
    ("SNZ", 2, {"attack": {"kind": "SNZ", "target": 2}, "ban": None}),
    ("HDA", 0, {"attack": None, "ban": {"owner": 3}}),
    ("HDA", 2, {"attack": None, "ban": {"owner": 1}}),
    ("ICE", 0, {"attack": None, "ban": None}),
])
def test_FS_2_6_initial_card_effect_apply(top, first, expect):
    """FS-2.6 `initial_card_effect = apply`: the first face-up card acts as played by the seat
    before the first player (no call window); `none` (default) ignores it."""
    state = {"hands": [["VIR", "ICE", "INJ"]] * 4, "banned": NO_BANS4, "draw": ["VIR"] * 5,
             "discard": [top], "to_move": first, "turns": 0}
    out = run(state, params={"initial_card_effect": "apply", "first_player": first})
    assert {k: out["state"][k] for k in ("attack", "ban")} == expect
    assert out["waiting"]["decision"] == ("attack" if expect["attack"] else "turn")
    if expect["ban"]:
        assert ("play", "VIR", False) not in legal(out)
    plain = run(state, params={"first_player": first})
    assert plain["state"]["attack"] is None and plain["state"]["ban"] is None
    given = run({**state, "ban": None}, params={"initial_card_effect": "apply", "first_player": first})
    assert given["state"]["attack"] is None and given["state"]["ban"] is None  # explicit state wins


def test_FS_2_6_initial_card_effect_apply_in_seeded_setup():
    """FS-2.6 `apply` from the seeded setup: the effect follows the face-up card's type."""
    seen = set()
    for seed in range(40):
        out = GAME_scenario({"seed": seed, "params": {"initial_card_effect": "apply", "first_player": 1}})
        st = out["state"]
        top = st["discard"][-1]
        seen.add(top)
        if top in ("FEV", "SNZ"):
            assert st["attack"] == {"kind": top, "target": 1} and out["waiting"]["decision"] == "attack"
        elif top == "HDA":
            assert st["ban"] == {"owner": 0}
        else:
            assert st["attack"] is None and st["ban"] is None
    assert {"FEV", "VIR"} <= seen


def GAME_scenario(extra: dict) -> dict:
    from sim.games.faking_sick import GAME

    return GAME.scenario({"game": "faking-sick", "players": 4, "state": {}, **extra})


# ---- turn structure (FS-3) -----------------------------------------------------------------
def test_FS_3_4_draw_count_reshuffles_mid_draw():
    """FS-3.4 `draw_count = 3`, FS-10.2: two from the pile, a reshuffle, then the third."""
    state = {"hands": [["VIR", "VIR"], ["VIR"], ["VIR"], ["VIR"]], "banned": NO_BANS4,
             "draw": ["MSK", "INJ"], "discard": ["ICE", "ICE", "VIR"], "to_move": 0}
    out = run(state, [{"action": "draw"}], params={"draw_count": 3})
    st = out["state"]
    assert hand(out, 0) == ms(["VIR", "VIR", "MSK", "INJ", "ICE"])
    assert st["discard"] == ["VIR"] and st["draw"] == ["ICE"] and out["stats"]["reshuffles"] == 1
    assert st["to_move"] == 1 and out["stats"]["cards_drawn"] == 3


def test_FS_3_4_voluntary_draw_false():
    """FS-3.4 `voluntary_draw = false`: DRAW only without an honest play (bluffs do not count)."""
    base = {"hands": [["VIR", "FEV"], ["VIR"], ["VIR"], ["VIR"]],
            "banned": [["FEV", "MSK"], ["HDA", "ICE"], ["HDA", "ICE"], ["HDA", "ICE"]],
            "draw": ["VIR"] * 3, "discard": ["SNZ"], "to_move": 0}
    params = {"voluntary_draw": False}
    assert legal(run(base, params=params)) == [("play", "VIR", False), ("play", "FEV", True)]
    assert run(base, [{"action": "draw"}], params=params)["illegal"]["index"] == 0
    only_bluff = {**base, "hands": [["FEV", "SNZ"], ["VIR"], ["VIR"], ["VIR"]]}
    assert legal(run(only_bluff, params=params)) == [("play", "FEV", True), DRAW]
    assert legal(run(base)) == [("play", "VIR", False), ("play", "FEV", True), DRAW]


def test_FS_3_4_play_after_draw():
    """FS-3.4 `play_after_draw = true`: after drawing, play a legal card (call window) or end."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "FEV"], ["VIR"], ["VIR"]], "banned": NO_BANS4,
             "draw": ["MSK", "FEV"], "discard": ["VIR"], "to_move": 0}
    params = {"play_after_draw": True}
    out = run(state, [{"action": "draw"}], params=params)
    assert out["waiting"]["decision"] == "after_draw" and out["waiting"]["player"] == 0
    assert legal(out) == [("play", "MSK", False), ("end", None, None)]
    out = run(state, [{"action": "draw"}, {"action": "play", "card": "MSK"}], params=params)
    assert out["waiting"]["decision"] == "call" and out["state"]["limbo"] == "MSK"
    out = run(state, [{"action": "draw"}, {"action": "play", "card": "MSK"}, {"calls": []}], params=params)
    assert out["state"]["discard"] == ["VIR", "MSK"] and hand(out, 0) == ms(["VIR", "VIR"])
    assert out["waiting"]["player"] == 1
    for end in ("end", "pass"):
        out = run(state, [{"action": "draw"}, {"action": end}], params=params)
        assert out["waiting"]["player"] == 1 and hand(out, 0) == ms(["VIR", "VIR", "MSK"])
    assert run(state, [{"action": "draw"}])["waiting"]["player"] == 1  # default: the turn ends


# ---- effects (FS-5) --------------------------------------------------------------------------
def test_FS_5_2_attack_targets_next_player_clockwise():
    """FS-5.2: a confirmed FEVER from the last seat attacks seat 0."""
    state = {"hands": [["VIR", "ICE"], ["VIR"], ["VIR"], ["FEV", "VIR"]], "banned": [["HDA", "INJ"]] * 4,
             "draw": ["VIR"] * 3, "discard": ["SNZ"], "to_move": 3}
    out = run(state, [{"action": "play", "card": "FEV"}, {"calls": []}])
    assert out["state"]["attack"] == {"kind": "FEV", "target": 0}
    assert out["waiting"] == {"player": 0, "decision": "attack", "legal": out["waiting"]["legal"]}
    assert legal(out) == [("counter", "ICE", False), ACCEPT]
    assert out["stats"]["attacks_played"] == 1


@pytest.mark.parametrize("attack, counter", [("FEV", "ICE"), ("FEV", "INJ"), ("SNZ", "MSK"), ("SNZ", "INJ")])
def test_FS_5_3_confirmed_counter_cancels_attack(attack, counter):
    """FS-5.3: a confirmed counter ends the attack and has no other effect; the turn ends."""
    state = {"hands": [["VIR"], ["VIR"], [counter, "VIR", "VIR"], ["VIR"]], "banned": NO_BANS4,
             "draw": ["FEV"] * 3, "discard": [attack], "to_move": 2, "attack": {"kind": attack, "target": 2}}
    out = run(state, [{"action": "counter", "card": counter}, {"calls": []}])
    st = out["state"]
    assert st["attack"] is None and st["ban"] is None and st["discard"] == [attack, counter]
    assert hand(out, 2) == ms(["VIR", "VIR"]) and st["to_move"] == 3
    assert out["stats"]["attacks_countered"] == 1 and out["stats"]["penalty_draws"] == 0


def test_FS_5_3_custom_counter_sets():
    """FS-5.3 `fever_counters` / `sneeze_counters`: only listed types counter; a counter with
    its own effect (HEADACHE) also starts a ban."""
    fev = {"hands": [["VIR"], ["ICE", "INJ", "VIR"], ["VIR"], ["VIR"]], "banned": NO_BANS4,
           "draw": ["VIR"] * 3, "discard": ["FEV"], "to_move": 1, "attack": {"kind": "FEV", "target": 1}}
    assert legal(run(fev, params={"fever_counters": "INJ"})) == [("counter", "INJ", False), ACCEPT]
    assert legal(run(fev)) == [("counter", "INJ", False), ("counter", "ICE", True), ACCEPT]
    snz = {**fev, "hands": [["VIR"], ["HDA", "VIR"], ["VIR"], ["VIR"]], "discard": ["SNZ"],
           "banned": [["FEV", "ICE"]] * 4, "attack": {"kind": "SNZ", "target": 1}}
    out = run(snz, [{"action": "counter", "card": "HDA"}, {"calls": []}], params={"sneeze_counters": "HDA,MSK"})
    assert out["state"]["attack"] is None and out["state"]["ban"] == {"owner": 1}
    assert out["stats"]["attacks_countered"] == 1 and out["stats"]["headache_bans"] == 1


@pytest.mark.parametrize("kind, param, n", [("FEV", "fever_penalty_draw", 2), ("SNZ", "sneeze_penalty_draw", 0),
                                            ("SNZ", "sneeze_penalty_draw", 3)])
def test_FS_5_2_penalty_draw(kind, param, n):
    """FS-5.2 `fever_penalty_draw` / `sneeze_penalty_draw`: ACCEPT draws that many; turn ends."""
    state = {"hands": [["VIR"], ["VIR", "VIR"], ["VIR"], ["VIR"]], "banned": NO_BANS4,
             "draw": ["MSK", "INJ", "FEV", "VIR"], "discard": [kind], "to_move": 1,
             "attack": {"kind": kind, "target": 1}}
    out = run(state, [{"action": "accept"}], params={param: n})
    assert hand(out, 1) == ms(["VIR", "VIR"] + ["MSK", "INJ", "FEV"][:n])
    assert out["state"]["to_move"] == 2 and out["state"]["attack"] is None


def test_FS_5_4_new_headache_replaces_the_ban():
    """FS-5.4: a new confirmed HEADACHE takes over the ban (new owner, new duration)."""
    state = {"hands": [["VIR", "SNZ"], ["VIR", "FEV"], ["HDA", "VIR", "VIR"], ["VIR", "FEV", "FEV"]],
             "banned": [["ICE", "INJ"], ["ICE", "INJ"], ["FEV", "SNZ"], ["ICE", "INJ"]],
             "draw": ["MSK"] * 6, "discard": ["ICE"], "to_move": 2, "ban": {"owner": 0}}
    dec = [{"action": "play", "card": "HDA"}, {"calls": []}]
    out = run(state, dec)
    assert out["state"]["ban"] == {"owner": 2} and legal(out) == [("play", "FEV", False), DRAW]
    out = run(state, dec + [{"action": "draw"}])  # P0's turn: the old owner's turn no longer ends it
    assert out["state"]["ban"] == {"owner": 2} and legal(out) == [("play", "SNZ", False), DRAW]
    out = run(state, dec + [{"action": "draw"}] * 3)  # P2's next turn: the ban ends
    assert out["waiting"]["player"] == 2 and out["state"]["ban"] is None
    assert ("play", "VIR", False) in legal(out)


def test_FS_5_4_virus_plays_blocked_metric():
    """Metrics `virus_plays_blocked`: a normal turn with a VIR made unplayable by the ban."""
    state = {"hands": [["VIR"], ["VIR", "FEV"], ["VIR"], ["VIR"]], "banned": NO_BANS4,
             "draw": ["MSK"] * 3, "discard": ["ICE"], "to_move": 1, "ban": {"owner": 3}}
    out = run(state)
    assert out["stats"]["virus_blocked"] == 1 and out["stats"]["virus_plays_blocked"] == 1
    out = run(state, [{"action": "draw"}])  # P2's turn begins: blocked too
    assert out["stats"]["virus_blocked"] == 2
    out = run({**state, "discard": ["VIR"]})  # VIR on top: unplayable anyway, not counted
    assert out["stats"]["virus_blocked"] == 0


# ---- calls (FS-6, FS-7) -----------------------------------------------------------------------
def test_FS_6_3_call_priority_random():
    """FS-6.3 `call_priority = random`: the judged caller is one of the callers, drawn by the
    scenario's seed; only that caller draws; a single caller is always judged."""
    state = {"hands": [["VIR", "ICE"], ["FEV", "VIR", "VIR"], ["VIR", "HDA", "SNZ", "ICE"], ["VIR", "SNZ"]],
             "banned": [["HDA", "ICE"], ["SNZ", "MSK"], ["FEV", "INJ"], ["FEV", "SNZ"]],
             "draw": ["MSK", "INJ", "VIR"], "discard": ["VIR"], "to_move": 1}
    judged = []
    for seed in range(30):
        out = GAME_scenario({"seed": seed, "params": {"call_priority": "random"}, "state": state,
                             "decisions": [{"action": "play", "card": "FEV"}, {"calls": [0, 2, 3]}]})
        grew = [q for q in (0, 2, 3) if len(out["state"]["hands"][q]) == len(state["hands"][q]) + 2]
        assert len(grew) == 1 and out["stats"]["call_requests"] == 3 and out["stats"]["calls_made"] == 1
        judged.append(grew[0])
    assert set(judged) == {0, 2, 3}
    out = GAME_scenario({"params": {"call_priority": "random"}, "state": state,
                         "decisions": [{"action": "play", "card": "FEV"}, {"calls": [3]}]})
    assert len(out["state"]["hands"][3]) == 4


def test_FS_6_1_forbid_call_boundary():
    """FS-6.1 `push_short_hand = forbid_call`: exactly `push_count` cards may still call."""
    state = {"hands": [["SNZ", "VIR"], ["FEV", "VIR"], ["VIR"]], "banned": [["SNZ", "SNZ"], ["HDA", "ICE"], ["FEV", "INJ"]],
             "draw": ["FEV", "VIR"], "discard": ["VIR"], "to_move": 0}
    out = run(state, [{"action": "play", "card": "SNZ"}], players=3, params={"push_short_hand": "forbid_call"})
    assert out["waiting"] == {"player": 1, "decision": "call", "legal": [{"call": False}, {"call": True}]}
    out = run(state, [{"action": "play", "card": "SNZ"}, {"player": 1, "call": False}], players=3,
              params={"push_short_hand": "forbid_call"})
    assert out["waiting"]["player"] == 1 and out["waiting"]["decision"] == "attack"  # P2 (one card) never asked
    assert out["stats"]["call_requests"] == 0 and out["state"]["discard"][-1] == "SNZ"


@pytest.mark.parametrize("push, pushed", [(1, ["HDA"]), (3, ["VIR", "VIR", "HDA"])])
def test_FS_7_2_push_count(push, pushed):
    """FS-7.2 `push_count`: the caller chooses exactly that many of its own cards."""
    out = run(T06, T06_CALLED[:2], params={"push_count": push})
    assert out["waiting"]["decision"] == "push" and out["waiting"]["player"] == 3
    assert all(len(o["push"]) == push for o in out["waiting"]["legal"])
    out = run(T06, T06_CALLED[:2] + [{"push": pushed}], params={"push_count": push})
    assert hand(out, 3) == ms(["VIR", "VIR", "HDA", "ICE"]) - ms(pushed)
    assert hand(out, 1) == ms(["SNZ", "VIR", "FEV"]) + ms(pushed)
    assert out["stats"]["cards_pushed"] == push and out["state"]["to_move"] == 2


def test_FS_7_2_push_count_zero():
    """FS-7.2 `push_count = 0`: no push decision; the rest of FS-7.3 still happens."""
    out = run(T06, T06_CALLED[:2], params={"push_count": 0})
    st = out["state"]
    assert out["waiting"]["player"] == 2 and out["waiting"]["decision"] == "turn"
    assert hand(out, 1) == ms(["SNZ", "VIR", "FEV"]) and hand(out, 3) == ms(T06["hands"][3])
    assert st["discard"] == ["SNZ", "HDA", "VIR"] and ms(st["banned"][1]) == ms(["ICE", "MSK"])


@pytest.mark.parametrize("n", [0, 3])
def test_FS_7_4_call_fail_draw(n):
    """FS-7.4 `call_fail_draw`: the failed caller draws that many; the play is confirmed."""
    state = {**T06, "hands": [["VIR", "VIR", "VIR"], ["FEV", "VIR", "SNZ"], ["VIR", "VIR"], ["VIR", "VIR"]]}
    out = run(state, [{"action": "play", "card": "FEV"}, {"calls": [3]}], params={"call_fail_draw": n})
    assert hand(out, 3) == ms(["VIR", "VIR"] + ["ICE", "FEV", "VIR"][:n])
    assert out["state"]["discard"][-1] == "FEV" and out["state"]["attack"] == {"kind": "FEV", "target": 2}


def test_FS_10_2_failed_call_draw_reshuffles():
    """FS-7.4, FS-10.2: the failed caller's second card comes from a reshuffle (top stays)."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "FEV"], ["VIR", "VIR"], ["VIR", "VIR"]], "banned": NO_BANS4,
             "draw": ["ICE"], "discard": ["FEV", "FEV", "SNZ"], "to_move": 1}
    out = run(state, [{"action": "play", "card": "VIR"}, {"calls": [2]}])
    assert hand(out, 2) == ms(["VIR", "VIR", "ICE", "FEV"])
    assert out["state"]["discard"] == ["SNZ", "VIR"] and out["state"]["draw"] == ["FEV"]
    assert out["stats"]["reshuffles"] == 1


def test_FS_7_3_play_again():
    """FS-7.3 step 7 `successful_call_turn = play_again`: the challenged player acts again
    (the revealed type is no longer banned); a second successful call ends the turn."""
    params = {"successful_call_turn": "play_again"}
    out = run(T06, T06_CALLED, params=params)
    st = out["state"]
    assert out["waiting"]["player"] == 1 and st["to_move"] == 1 and st["turns"] == 1
    assert legal(out) == [("play", "FEV", False), ("play", "SNZ", False), DRAW]
    twice = {**T06, "hands": [["VIR", "VIR", "VIR"], ["SNZ", "MSK", "VIR", "FEV"], ["VIR", "VIR"],
                              ["VIR", "VIR", "HDA", "ICE"]]}
    dec = T06_CALLED + [{"action": "play", "card": "MSK"}, {"calls": [0]}, {"push": ["VIR", "VIR"]}]
    out = run(twice, dec, params=params)
    st = out["state"]
    assert out["waiting"]["player"] == 2 and st["to_move"] == 2
    assert ms(st["banned"][1]) == ms(["ICE", "FEV"]) and st["discard"] == ["MSK", "SNZ", "HDA", "VIR"]
    assert hand(out, 1) == ms(["SNZ", "MSK", "FEV"] + ["VIR"] * 5) and hand(out, 0) == ms(["VIR"])
    assert out["stats"]["calls_succeeded"] == 2


def test_FS_7_3_play_again_under_attack():
    """FS-7.3 steps 6-7 with `play_again`: no penalty yet; P is still under attack and acts again."""
    params = {"successful_call_turn": "play_again"}
    out = run(T16, T16_CALLED, params=params)
    st = out["state"]
    assert st["attack"] == {"kind": "FEV", "target": 2} and out["waiting"]["decision"] == "attack"
    assert hand(out, 2) == ms(["ICE", "VIR", "VIR", "VIR"]) and ms(st["banned"][2]) == ms(["FEV", "SNZ"])
    assert legal(out) == [("counter", "ICE", False), ACCEPT]
    out = run(T16, T16_CALLED + [{"action": "accept"}], params=params)
    assert hand(out, 2) == ms(["ICE", "VIR", "VIR", "VIR", "VIR"]) and out["state"]["to_move"] == 3
    out = run(T16, T16_CALLED + [{"action": "counter", "card": "ICE"}, {"calls": []}], params=params)
    assert out["state"]["attack"] is None and out["state"]["discard"][-1] == "ICE"
    assert out["stats"]["penalty_draws"] == 0


def test_FS_7_3_failed_counter_penalty_false():
    """FS-7.3 step 6 `failed_counter_penalty = false`: the attack lapses without a draw."""
    out = run(T16, T16_CALLED, params={"failed_counter_penalty": False})
    st = out["state"]
    assert hand(out, 2) == ms(["ICE", "VIR", "VIR", "VIR"]) and st["draw"] == ["VIR", "INJ"]
    assert st["attack"] is None and st["to_move"] == 3 and out["stats"]["penalty_draws"] == 0


@pytest.mark.parametrize("dest", ["removed", "owner_hand"])
def test_FS_7_3_revealed_banned_destination(dest):
    """FS-7.3 step 4 `revealed_banned_destination`: removed from the game, or into P's hand."""
    out = run(T06, T06_CALLED, params={"revealed_banned_destination": dest})
    st = out["state"]
    assert st["discard"] == ["HDA", "VIR"] and ms(st["banned"][1]) == ms(["ICE", "MSK"])
    extra = ["SNZ"] if dest == "owner_hand" else []
    assert st["removed"] == (["SNZ"] if dest == "removed" else [])
    assert hand(out, 1) == ms(["SNZ", "VIR", "FEV", "VIR", "VIR"] + extra)


def test_FS_8_4_no_replacement_card():
    """FS-8.4: with the draw pile empty and only viruses below the top, the slot stays empty;
    with `reshuffle = none` no reshuffle happens at all."""
    out = run({**T06, "draw": [], "discard": ["VIR", "VIR"]}, T06_CALLED, params={"revealed_banned_destination": "removed"})
    st = out["state"]
    assert st["banned"][1] == [None, "MSK"] and out["stats"]["reshuffles"] == 0
    assert st["discard"] == ["VIR", "VIR"]
    out = run({**T06, "draw": []}, T06_CALLED, params={"reshuffle": "none"})
    assert out["state"]["banned"][1] == [None, "MSK"] and out["state"]["discard"] == ["SNZ", "HDA", "VIR"]
    # a later call on the empty-slot player: MSK is still banned, SNZ no longer is
    again = {k: v for k, v in out["state"].items() if k != "limbo"}
    assert legal(run({**again, "to_move": 1}))[:2] == [("play", "FEV", False), ("play", "SNZ", False)]


def test_FS_8_4_replacement_search_reshuffles():
    """FS-8.2, FS-8.4: the pile runs out of viruses-only; the discard below the top (with the
    revealed card) is reshuffled and the search goes on to a non-VIRUS card."""
    for seed in range(6):
        out = GAME_scenario({"seed": seed, "state": {**T06, "draw": ["VIR"], "discard": ["HDA", "VIR"]},
                             "decisions": T06_CALLED})
        st = out["state"]
        assert out["stats"]["reshuffles"] == 1 and out["stats"]["viruses_skipped"] >= 1
        assert st["banned"][1][1] == "MSK" and st["banned"][1][0] in ("SNZ", "HDA")
        assert st["discard"][-1] == "VIR" and st["limbo"] is None


def test_FS_10_3_reshuffle_none():
    """FS-10.3 `reshuffle = none`: drawing from an empty pile yields nothing (no reshuffle)."""
    state = {"hands": [["VIR", "VIR"], ["VIR"], ["VIR"], ["VIR"]], "banned": NO_BANS4,
             "draw": [], "discard": ["ICE", "FEV", "VIR"], "to_move": 0}
    out = run(state, [{"action": "draw"}], params={"reshuffle": "none"})
    assert hand(out, 0) == ms(["VIR", "VIR"]) and out["state"]["discard"] == ["ICE", "FEV", "VIR"]
    assert out["stats"]["reshuffles"] == 0 and out["state"]["to_move"] == 1
    out = run(state, [{"action": "draw"}])
    assert sum(hand(out, 0).values()) == 3 and out["stats"]["reshuffles"] == 1


# ---- going out (FS-4.4, FS-9) -------------------------------------------------------------------
def test_FS_4_4_last_card_forbidden_types():
    """FS-4.4 `last_card_forbidden_types`: such a type is never offered as the last card."""
    state = {"hands": [["FEV"], ["VIR"], ["VIR"], ["VIR"]], "banned": NO_BANS4, "draw": ["VIR"] * 3,
             "discard": ["VIR"], "to_move": 0}
    params = {"last_card_forbidden_types": "FEV"}
    assert legal(run(state, params=params)) == [DRAW]
    assert legal(run(state)) == [("play", "FEV", False), DRAW]
    two = {**state, "hands": [["FEV", "VIR"], ["VIR"], ["VIR"], ["VIR"]], "discard": ["SNZ"]}
    assert legal(run(two, params=params)) == [("play", "VIR", False), ("play", "FEV", False), DRAW]


def test_FS_9_1_going_out_with_a_counter():
    """FS-9.1: a confirmed going-out counter wins at once (its effect is not resolved)."""
    state = {"hands": [["VIR"], ["VIR"], ["ICE"], ["VIR"]], "banned": NO_BANS4, "draw": ["VIR"] * 3,
             "discard": ["FEV"], "to_move": 2, "attack": {"kind": "FEV", "target": 2}}
    state["banned"] = [["HDA", "INJ"]] * 4
    out = run(state, [{"action": "counter", "card": "ICE"}, {"calls": []}])
    assert out["finished"] and out["result"]["winner"] == 2 and out["result"]["win_method"] == "play_out"


def test_FS_9_4_void_called_going_out_bluff():
    """FS-9.4 `banned_last_card = void`: a called going-out bluff is a normal successful call."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "VIR"], ["MSK"], ["VIR", "VIR", "FEV"]],
             "banned": [["SNZ", "ICE"], ["SNZ", "INJ"], ["MSK", "FEV"], ["FEV", "HDA"]],
             "draw": ["SNZ", "VIR", "ICE"], "discard": ["VIR"], "to_move": 2}
    dec = [{"action": "play", "card": "MSK"}, {"calls": [3]}, {"push": ["VIR", "VIR"]}]
    out = run(state, dec, params={"banned_last_card": "void"})
    st = out["state"]
    assert not out["finished"] and hand(out, 2) == ms(["MSK", "VIR", "VIR"]) and hand(out, 3) == ms(["FEV"])
    assert st["discard"] == ["MSK", "VIR"] and ms(st["banned"][2]) == ms(["SNZ", "FEV"])
    assert st["to_move"] == 3 and out["stats"]["void_go_outs"] == 0 and out["stats"]["calls_succeeded"] == 1


def test_FS_9_4_void_going_out_counter_under_attack():
    """FS-9.4 `void` on a turn under attack: voided like a called counter, so FS-7.3 step 6
    (`failed_counter_penalty`) follows the replacement."""
    state = {"hands": [["VIR"], ["VIR"], ["ICE"], ["VIR"]],
             "banned": [["HDA", "INJ"], ["HDA", "INJ"], ["ICE", "HDA"], ["HDA", "INJ"]],
             "draw": ["VIR", "VIR", "MSK", "FEV", "SNZ"], "discard": ["FEV"], "to_move": 2,
             "attack": {"kind": "FEV", "target": 2}}
    params = {"banned_last_card": "void"}
    assert legal(run(state, params=params)) == [("counter", "ICE", True), ACCEPT]
    assert legal(run(state)) == [ACCEPT]
    out = run(state, [{"action": "counter", "card": "ICE"}, {"calls": []}], params=params)
    st = out["state"]
    assert hand(out, 2) == ms(["ICE", "VIR", "VIR", "FEV"]) and ms(st["banned"][2]) == ms(["MSK", "HDA"])
    assert st["discard"] == ["ICE", "FEV"] and st["attack"] is None and st["to_move"] == 3
    assert out["stats"]["void_go_outs"] == 1
    out = run(state, [{"action": "counter", "card": "ICE"}, {"calls": []}],
              params={**params, "failed_counter_penalty": False})
    assert hand(out, 2) == ms(["ICE", "VIR", "VIR"]) and out["state"]["attack"] is None


def test_FS_9_6_turn_cap_from_given_turns():
    """FS-9.6: with `turns` already at `max_turns`, the game ends before any decision."""
    state = {"hands": [["VIR", "FEV"]] * 3, "banned": [[], [], []], "draw": ["VIR"], "discard": ["ICE"],
             "to_move": 1, "turns": 7}
    out = run(state, players=3, params={"max_turns": 7})
    assert out["finished"] and out["result"]["end_reason"] == "turn_cap" and out["result"]["turns"] == 7
    assert out["waiting"] is None


# ---- the scenario format as an outside user writes it --------------------------------------------
def test_format_card_names_and_aliases():
    """Card codes on input: short codes, English and Japanese names, integer codes."""
    state = {**T16, "attack": {"kind": "FEVER", "target": 2},
             "hands": [["virus", "VIR"], [0, 0], ["ice pack", "ウイルス"], ["VIR", "Virus", "HEADACHE"]]}
    out = run(state, [{"action": "counter", "card": "ICE_PACK"}, {"calls": [3]}, {"push": ["VIRUS", "VIR"]}])
    assert out["illegal"] is None and hand(out, 3) == ms(["HDA"])


def test_format_call_answers_in_any_order():
    """Per-player call answers may come in seat order; unanswered players pass when the list
    goes on with an action, and are asked when the list has run out."""
    state = {"hands": [["VIR", "ICE"], ["FEV", "VIR", "VIR"], ["VIR", "HDA", "SNZ", "ICE"], ["VIR", "SNZ"]],
             "banned": [["HDA", "ICE"], ["SNZ", "MSK"], ["FEV", "INJ"], ["FEV", "SNZ"]],
             "draw": ["MSK", "INJ", "VIR"], "discard": ["VIR"], "to_move": 1}
    play = {"action": "play", "card": "FEV"}
    out = run(state, [play, {"player": 0, "call": True}, {"player": 2, "call": True}, {"player": 3, "call": True}])
    assert len(out["state"]["hands"][2]) == 6 and out["stats"]["call_requests"] == 3
    out = run(state, [play, {"player": 3, "call": True}, {"action": "accept"}])
    assert len(out["state"]["hands"][3]) == 4 and out["state"]["to_move"] == 3
    out = run(state, [play, {"player": 0, "call": False}])
    assert out["waiting"]["player"] == 2 and out["waiting"]["decision"] == "call"
    out = run(state, [play, {"action": "accept"}])  # nobody calls
    assert out["stats"]["call_requests"] == 0 and out["state"]["to_move"] == 3
    out = run(state, [play, {"player": 3, "call": True}, {"player": 3, "call": False}])
    assert out["illegal"]["index"] == 2
    out = run(state, [play, {"player": 1, "call": True}])
    assert out["illegal"]["index"] == 1 and "may not call" in out["illegal"]["reason"]
    out = run(state, [play, {"push": ["VIR", "VIR"]}])
    assert out["illegal"]["index"] == 1
    # T-06 written with one per-player answer followed by the push: the others pass
    out = run(T06, [T06_CALLED[0], {"player": 3, "call": True}, {"player": 3, "push": ["VIR", "VIR"]}])
    assert out["illegal"] is None and out["state"]["discard"] == ["SNZ", "HDA", "VIR"]
    assert out["stats"]["call_requests"] == 1 and out["waiting"]["player"] == 2


def test_format_attack_synonyms():
    """Under attack, `play` means COUNTER and `draw` means ACCEPT."""
    out = run(T16, [{"action": "play", "card": "ICE"}, {"calls": []}])
    assert out["state"]["attack"] is None and out["state"]["discard"][-1] == "ICE"
    out = run(T16, [{"action": "draw"}])
    assert hand(out, 2) == ms(["ICE", "VIR", "FEV"]) and out["state"]["to_move"] == 3
    out = run(T16, [{"action": "play", "card": "VIR"}])
    assert out["illegal"]["index"] == 0


def test_format_malformed_state():
    """Malformed input is a ConfigError with a one-line message (VIR banned, bad codes)."""
    from sim.kit.config import ConfigError

    with pytest.raises(ConfigError, match="VIR"):
        run({**T06, "banned": [["VIR", "INJ"], ["SNZ", "MSK"], ["FEV", "INJ"], ["FEV", "SNZ"]]})
    with pytest.raises(ConfigError, match="unknown card"):
        run({**T06, "draw": ["FOO"]})
    with pytest.raises(ConfigError, match="unknown card"):
        run({**T06, "draw": [7]})
    with pytest.raises(ConfigError, match="player must be a seat"):
        run(T06, [{"player": "1", "action": "draw"}])


def test_format_spec_metric_names_in_stats():
    """`stats` also carries the spec's Metrics names (T-05, T-08, T-09 cite them)."""
    out = run({**T06, "draw": ["VIR", "VIR", "MSK", "FEV"], "discard": ["ICE", "VIR"]}, T06_CALLED)
    s = out["stats"]
    assert s["replacement_viruses_skipped"] == 2 and s["banned_reveals"] == 1 and s["calls_succeeded"] == 1
    assert s["duplicate_banned_reveals"] == 0 and s["bluffs_attempted"] == 1 and s["bluffs_uncalled"] == 0
    assert s["seats"][3]["calls_succeeded"] == 1 and s["seats"][1]["cards_received_by_push"] == 2
    assert s["seats"][1]["final_hand"] == s["seats"][1]["final_hand_size"] == 5
    assert out["result"] is None


def test_format_output_zones_add_up_to_the_deck():
    """T-01 / FS-1.3 from the output alone: every card list of the state, marker included, is 96
    cards; the marker is one VIR; a state fed back (marker included) is accepted."""
    st = run({})["state"]
    zones = ("hands", "banned", "draw", "discard", "unused", "removed", "virus_marker")
    total = Counter()
    for z in zones:
        items = st[z] if z not in ("hands", "banned") else [x for sub in st[z] for x in sub]
        total.update(items)
    assert st["virus_marker"] == ["VIR"] and st["limbo"] is None
    assert total == Counter({"VIR": 32, "FEV": 16, "SNZ": 16, "INJ": 8, "HDA": 8, "MSK": 8, "ICE": 8})
    again = run({k: v for k, v in st.items() if k != "turns"})
    assert again["state"]["hands"] == st["hands"] and again["state"]["draw"] == st["draw"]
    from sim.kit.config import ConfigError

    with pytest.raises(ConfigError, match="virus_marker"):
        run({"virus_marker": ["VIR", "VIR"]})


def test_format_legal_options_are_valid_decisions():
    """Every option of `waiting.legal` can be sent back as the decision (input format);
    a `bluff` flag that does not match the player's banned cards is illegal."""
    out = run(T06)
    for option in out["waiting"]["legal"]:
        res = run(T06, [option])
        assert res["illegal"] is None, option
    res = run(T06, [{"action": "play", "card": "SNZ", "bluff": False}])
    assert res["illegal"]["index"] == 0 and "is a bluff" in res["illegal"]["reason"]
    res = run(T06, T06_CALLED[:2])
    for option in res["waiting"]["legal"]:
        assert run(T06, T06_CALLED[:2] + [option])["illegal"] is None


def test_format_players_from_hands():
    """Without `players`, the number of listed hands sets the player count."""
    from sim.games.faking_sick import GAME

    spec = {"game": "faking-sick", "state": {"hands": [["VIR", "VIR"], ["VIR"], ["VIR"]], "banned": [[], [], []],
                                             "draw": ["MSK"], "discard": ["VIR"], "to_move": 0},
            "decisions": [{"action": "draw"}]}
    out = GAME.scenario(spec)
    assert len(out["state"]["hands"]) == 3 and out["waiting"]["player"] == 1


def test_FS_5_1_vanilla_drops_a_given_attack():
    """T-17 / FS-5.1 `effects_profile = vanilla`: the same state has no pending attack, so P1
    may play VIR or FEV; confirmed FEV/SNZ attack nobody, HEADACHE still bans."""
    state = {"hands": [["VIR", "VIR"], ["VIR", "FEV"], ["VIR", "VIR"]],
             "banned": [["HDA", "MSK"], ["HDA", "ICE"], ["FEV", "ICE"]],
             "draw": ["HDA", "VIR"], "discard": ["SNZ"], "to_move": 1, "attack": {"kind": "SNZ", "target": 1}}
    out = run(state, players=3, params={"effects_profile": "vanilla"})
    assert out["state"]["attack"] is None
    assert legal(out) == [("play", "VIR", False), ("play", "FEV", False), DRAW]
    out = run(state, [{"action": "play", "card": "FEV"}, {"calls": []}], players=3,
              params={"effects_profile": "vanilla"})
    assert out["state"]["attack"] is None and out["waiting"]["decision"] == "turn"
    hda = {**state, "hands": [["VIR", "VIR"], ["VIR", "HDA"], ["VIR", "VIR"]]}
    out = run(hda, [{"action": "play", "card": "HDA"}, {"calls": []}], players=3,
              params={"effects_profile": "vanilla"})
    assert out["state"]["ban"] == {"owner": 1} and legal(out) == [DRAW]
