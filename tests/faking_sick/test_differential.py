"""Fast kernel vs reference engine: identical tables for the same seeds (both engines)."""

from __future__ import annotations

import pytest

from sim.games.faking_sick import GAME
from tests.engines import engines_agree

MIXED = ["random", "bluffer", "caller", "honest"]


def assert_same(cfg, start, count):
    return engines_agree(GAME, cfg, start, count)


def test_differential_2000_games_mixed_table():
    """2,000 seeded games, 4 players, every bot: all four tables equal."""
    cfg = GAME.make_config(players=4, bots=MIXED, seed=11)
    fast = assert_same(cfg, 0, 2000)
    g = fast["games"]
    assert g["calls_succeeded"].sum() > 0 and g["reshuffles"].sum() > 0 and g["bluffs"].sum() > 0
    assert g["win_method"].isin([1, 2]).all() or g["turn_cap"].any()


VARIANTS = [
    {"successful_call_turn": "play_again"},
    {"successful_call_turn": "play_again", "failed_counter_penalty": False},
    {"banned_last_card": "void"},
    {"call_priority": "random"},
    {"push_short_hand": "forbid_call"},
    {"effects_profile": "vanilla"},
    {"headache_ban_scope": "next_player_turn"},
    {"reshuffle": "none"},
    {"revealed_banned_destination": "removed"},
    {"revealed_banned_destination": "owner_hand"},
    {"initial_card_effect": "apply", "first_player": 2},
    {"play_after_draw": True},
    {"voluntary_draw": False},
    {"last_card_forbidden_types": "VIR,FEV"},
    {"max_turns": 25},
    {"banned_per_player": 1, "hand_size": 3, "push_count": 0},
    {"draw_count": 3, "call_fail_draw": 0, "fever_penalty_draw": 2, "sneeze_counters": "MSK"},
    {"deck_counts": "VIR=8,FEV=5,SNZ=5,INJ=3,HDA=3,MSK=3,ICE=3", "hand_size": 4},
    # FS-8.4: replacement searches that find nothing leave empty banned slots
    {"revealed_banned_destination": "removed", "deck_counts": "VIR=20,FEV=3,SNZ=3,INJ=1,HDA=2,MSK=1,ICE=1",
     "hand_size": 4},
    {"fever_counters": "SNZ,HDA,VIR", "sneeze_counters": "FEV,HDA", "last_card_forbidden_types": "VIR",
     "sneeze_penalty_draw": 0, "headache_ban_scope": "next_player_turn"},
    {"push_count": 5, "push_short_hand": "forbid_call", "call_fail_draw": 1, "successful_call_turn": "play_again",
     "banned_last_card": "void", "call_priority": "random"},
]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_engines_agree_under_rule_variants(overrides, players):
    cfg = GAME.make_config(players=players, bots=MIXED[:players], seed=5, overrides=overrides)
    assert_same(cfg, 100, 60)


def test_decisions_are_turns_call_answers_and_pushes():
    """tables.py ``decisions``: one per turn (D1/D2, FS-3.3/3.4; no retries with
    successful_call_turn = ends), one per eligible player in each call window (D3, FS-6.1:
    push_all makes all n-1 others eligible), one per push (D4, FS-7.2; a caller always holds a
    card), plus one after-draw decision per voluntary draw with play_after_draw (FS-3.4)."""
    for after in (False, True):
        cfg = GAME.make_config(players=4, bots=MIXED, seed=2, overrides={"play_after_draw": after})
        g = assert_same(cfg, 0, 150)["games"]
        expected = g["turns"] + 3 * g["plays"] + g["calls_succeeded"] + (g["draws"] if after else 0)
        assert (g["decisions"] == expected).all()
        assert g["decisions"].min() > 0
