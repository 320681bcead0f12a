"""Game feel (docs/rules/virus-dogs.md, "Game feel measures"): the live seat carrying the fewest
viruses (O + HV) leads; lead changes, the turn from which the winner leads for good and the
winner's largest deficit in hand-built scenarios whose values follow from the rules (their
consistency over simulated games and the report section's figures: tests/test_game_contract.py)."""

from sim.games.virus_dogs import GAME
from tests.virus_dogs.test_scenarios import DRAW, END, HIDE, MORE, STOP, P, ok, play, run

FEEL = ("lead_changes", "leader_from_turn", "winner_max_behind")


def feel(out: dict) -> tuple[int, ...]:
    return tuple(out["metrics"]["game"][c] for c in FEEL)


def behind(out: dict) -> list[int]:
    return [s["max_behind"] for s in out["metrics"]["seats"]]


def test_comeback_by_control():
    """Turn 0: P0 (O = 1) draws TP; P1, clean, leads and P0 is 1 behind. Turn 1: P1 hides two
    drawn viruses (VD-6.1), so P0 (1) leads P1 (2): one lead change. Turn 2: P0's control opens
    them (VD-13), P1 is out (VD-19.1) and P0 wins (VD-21.1), leading for good from turn 1."""
    out = ok(run(decisions=[DRAW, STOP, END, DRAW, HIDE, MORE, HIDE, END, play("CTL", 1)],
                 deck=["TP", "V", "V", "DOC", "SHF"], players=[P(["CTL"], open=1), P()]))
    assert out["result"]["winners"] == [0] and out["metrics"]["game"]["turns"] == 3
    assert feel(out) == (1, 1, 1)
    assert behind(out) == [1, 1]


def test_a_tie_is_no_lead():
    """Three players: P0's control opens P1's hidden V (O = 2: out, VD-13, VD-19.1); after turn 0
    P0 and P2 carry nothing, a tie, so nobody leads; P2 hides a drawn virus in turn 1 (VD-6.1) and
    P0 leads alone, the first lead (no change). P1 was never observed in play (deficit 0); the
    game goes on, so there is no winner (-1)."""
    out = ok(run(n=3, turns=2, decisions=[play("CTL", 1), DRAW, STOP, END, DRAW, HIDE, STOP, END],
                 deck=["SHF", "V", "DOC"], players=[P(["CTL"]), P(["V"], open=1), P()]))
    assert not out["finished"] and out["state"]["players"][2]["hand"] == ["V"]
    assert feel(out) == (0, -1, -1)
    assert behind(out) == [0, 0, 1]


def test_hard_quarantine_lead_counts_at_turns():
    """TS-42 (VD-20.6, VD-21.1): P0 pulls P1's hidden V in hard quarantine; P1 is out and P0
    wins there. Before it both carry 2 viruses (no leader); the lead is taken in hard
    quarantine, which counts as turn index ``turns`` (as ``elim_turn``)."""
    out = ok(run(phase="hq", turn=5, players=[P(["V", "SHF"], open=1), P(["V"], open=1)]))
    assert out["result"]["outcome"] == "last_standing_hq"
    assert feel(out) == (0, 5, 0)


def test_shared_win_has_no_single_winner_measures():
    """TS-44 (VD-20.8, VD-20.10): a stalemate shared by all live players (all_remaining_shared):
    no single winner, so leader_from_turn and winner_max_behind are -1; P1 led (O = 0 vs 1)."""
    out = ok(GAME.scenario({"game": "virus-dogs", "players": 2, "params": {"hq_stalemate": "all_remaining_shared"},
                            "state": {"phase": "hq", "players": [P(["SHF"], open=1), P(["DOC"])]}}))
    assert out["result"]["winners"] == [0, 1]
    assert feel(out) == (0, -1, -1) and behind(out) == [1, 0]

