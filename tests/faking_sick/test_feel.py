"""Game feel (docs/rules/faking-sick.md, "Game feel measures"): lead changes, the turn from which
the winner leads for good and the winner's largest deficit, in hand-built scenarios whose values
follow from the rules (their consistency over simulated games and the report section's figures:
tests/test_game_contract.py)."""

from __future__ import annotations

from .helpers import run

VANILLA = {"effects_profile": "vanilla"}  # FS-5.1: no attacks, so every play ends the turn
BANNED = [["MSK", "ICE"], ["MSK", "HDA"], ["MSK", "HDA"]]
PASS = {"calls": []}


def play(card: str) -> dict:
    return {"action": "play", "card": card}


def scenario(hands, decisions, banned=BANNED, draw=("ICE", "VIR", "VIR"), params=VANILLA) -> dict:
    state = {"hands": hands, "banned": banned, "draw": list(draw), "discard": ["MSK"], "unused": [],
             "removed": [], "to_move": 0, "turns": 0}
    out = run(state, decisions, players=len(hands), params=params)
    assert out["illegal"] is None and out["waiting"] is None, (out["illegal"], out["waiting"])
    return out


def feel(out: dict) -> tuple[int, int, int]:
    st = out["stats"]
    return st["lead_changes"], st["leader_from_turn"], st["winner_max_behind"]


def test_lead_passes_through_ties_and_back_to_the_player_who_goes_out():
    """Hands after each turn (P0, P1, P2): 2,2,3 tie; 2,1,3 P1 leads; 2,1,2; 1,1,2 tie; P1 draws
    (FS-3.4) 1,2,2 P0 leads (change 1); 1,2,1 tie; P0 goes out on HDA (FS-9.1) at turn 7, still
    P0: one lead change, P0 leads for good from turn 7, at most 1 card behind (turns 2-3); P1
    ends 2 cards behind, P2 was 2 behind after turn 2."""
    hands = [["FEV", "INJ", "HDA"], ["SNZ", "ICE"], ["VIR", "FEV", "SNZ"]]
    decisions = [play("FEV"), PASS, play("SNZ"), PASS, play("VIR"), PASS, play("INJ"), PASS,
                 {"action": "draw"}, play("FEV"), PASS, play("HDA"), PASS]
    out = scenario(hands, decisions, banned=[["MSK", "ICE"], ["MSK", "INJ"], ["MSK", "HDA"]])
    assert out["result"]["winner"] == 0 and out["result"]["turns"] == 7
    assert feel(out) == (1, 7, 1)
    assert [s["max_behind"] for s in out["stats"]["seats"]] == [1, 2, 2]


def test_push_out_comeback_from_three_cards_behind():
    """P1 starts 3 cards behind P0 (4 vs 1 after turn 1) and wins by pushing its last two cards
    after a right call on P0's FEV bluff (FS-7.2, FS-7.3 step 2, FS-9.1). P0 cannot go out on its
    banned FEV (FS-4.4) and draws (turn 4); P2 leads after turn 6 (change 1), P1 at the end
    (change 2)."""
    hands = [["INJ", "FEV"], ["VIR", "VIR", "SNZ", "SNZ"], ["ICE", "ICE", "ICE"]]
    banned = [["FEV", "MSK"], ["MSK", "HDA"], ["MSK", "HDA"]]
    decisions = [play("INJ"), PASS, play("SNZ"), PASS, play("ICE"), PASS, {"action": "draw"},
                 play("SNZ"), PASS, play("ICE"), PASS, play("FEV"), {"calls": [1]}, {"push": ["VIR", "VIR"]}]
    out = scenario(hands, decisions, banned=banned, draw=["VIR"])
    assert out["result"]["winner"] == 1 and out["result"]["win_method"] == "push_out"
    assert out["result"]["turns"] == 7
    assert feel(out) == (2, 7, 3)


def test_a_draw_has_no_winner_measures():
    """A turn-capped game is a draw (FS-9.6): no leader_from_turn nor winner deficit (-1); the
    lead (P0 after turn 1, 1 card vs 2) changed nothing."""
    hands = [["FEV", "INJ"], ["SNZ", "ICE"], ["VIR", "HDA"]]
    out = scenario(hands, [play("FEV"), PASS], params={**VANILLA, "max_turns": 1})
    assert out["result"]["end_reason"] == "turn_cap" and out["result"]["winner"] == -1
    assert feel(out) == (0, -1, -1)

