"""Metrics: each seat's initial and final banned cards and call success by banned type
(seats columns ``initial_banned_*`` / ``final_banned_*``, sum table ``banned_calls``)."""

from __future__ import annotations

from sim.games.faking_sick import GAME
from sim.games.faking_sick.rules import TYPES
from sim.games.faking_sick.tables import BANNABLE
from tests.faking_sick.helpers import run
from tests.faking_sick.test_scenarios import T06, T06_DECISIONS

NAMES = [TYPES[t].lower() for t in BANNABLE]


def banned(out: dict, s: int, when: str) -> dict[str, int]:
    """The non-zero ``{when}_banned_<type>`` counters of seat s."""
    row = out["stats"]["seats"][s]
    return {n: row[f"{when}_banned_{n}"] for n in NAMES if row[f"{when}_banned_{n}"]}


def test_successful_call_replaces_the_revealed_banned_card():
    """T-06 (FS-7.1, FS-7.3 step 5, FS-8.1): P1 starts with SNZ+MSK banned, ends with ICE+MSK;
    the right call counts for both of P1's banned types."""
    out = run(T06, T06_DECISIONS)
    assert banned(out, 1, "initial") == {"snz": 1, "msk": 1}
    assert banned(out, 1, "final") == {"msk": 1, "ice": 1}
    assert banned(out, 3, "initial") == banned(out, 3, "final") == {"fev": 1, "snz": 1}
    assert out["stats"]["banned_calls"] == [
        {"banned": "SNZ", "card": "SNZ", "calls": 1, "successes": 1},
        {"banned": "MSK", "card": "SNZ", "calls": 1, "successes": 1}]


def test_failed_call_counts_under_a_duplicate_banned_type_once():
    """T-07 (FS-7.4, FS-7.1): P0 (FEV, FEV banned) plays SNZ honestly; P1's call is wrong."""
    state = {"hands": [["SNZ", "VIR"], ["VIR"], ["VIR", "VIR"]],
             "banned": [["FEV", "FEV"], ["HDA", "ICE"], ["HDA", "ICE"]],
             "draw": ["VIR", "MSK", "INJ", "VIR"], "discard": ["HDA"], "to_move": 0}
    out = run(state, [{"action": "play", "card": "SNZ"}, {"calls": [1]}], players=3)
    assert out["stats"]["banned_calls"] == [{"banned": "FEV", "card": "SNZ", "calls": 1, "successes": 0}]
    assert banned(out, 0, "initial") == banned(out, 0, "final") == {"fev": 2}


def test_push_out_leaves_the_revealed_card_unbanned():
    """T-12 (FS-7.3 step 2, FS-9.1): the game ends while P0's HDA is being revealed: its final
    banned cards are the ICE only, though the HDA still lies in its slot."""
    state = {"hands": [["HDA", "VIR", "VIR"], ["VIR", "VIR"], ["VIR", "VIR"], ["VIR", "SNZ"]],
             "banned": [["HDA", "ICE"], ["SNZ", "INJ"], ["FEV", "MSK"], ["FEV", "SNZ"]],
             "draw": ["FEV", "VIR"], "discard": ["MSK"], "to_move": 0}
    out = run(state, [{"action": "play", "card": "HDA"}, {"calls": [3]}, {"push": ["VIR", "SNZ"]}])
    assert out["result"]["win_method"] == "push_out" and out["state"]["banned"][0] == ["HDA", "ICE"]
    assert banned(out, 0, "initial") == {"hda": 1, "ice": 1}
    assert banned(out, 0, "final") == {"ice": 1}


def test_seeded_batch_banned_columns_add_up():
    """FS-2.1: the deal bans k cards per seat out of the pool; every right call is counted once
    on the diagonal of banned_calls (banned == card), which holds only right calls."""
    cfg = GAME.make_config(players=4, bots=["random", "bluffer", "caller", "honest"], seed=5)
    t = GAME.run_batch(cfg, 0, 300, "fast")
    s, g, bc = t["seats"], t["games"], t["banned_calls"]
    initial = s[[f"initial_banned_{n}" for n in NAMES]].sum(axis=1)
    final = s[[f"final_banned_{n}" for n in NAMES]].sum(axis=1)
    k = cfg.params["banned_per_player"]
    assert (initial == k).all() and (final <= k).all() and (final >= k - 1).all()
    diag = bc[bc["banned"] == bc["card"]]
    assert (diag["calls"] == diag["successes"]).all()
    assert diag["successes"].sum() == g["calls_succeeded"].sum()
    assert (bc["successes"] <= bc["calls"]).all() and bc["calls"].sum() >= g["calls_made"].sum()
