"""Parameter table and the bench configuration (bad configurations: tests/game_cases.py)."""

from __future__ import annotations

from sim.games.faking_sick import GAME

SPEC_PARAMS = {
    "deck_counts", "banned_pool", "banned_per_player", "hand_size", "first_player", "initial_card_effect",
    "draw_count", "voluntary_draw", "play_after_draw", "effects_profile", "fever_counters", "sneeze_counters",
    "fever_penalty_draw", "sneeze_penalty_draw", "headache_ban_scope", "call_priority", "push_count",
    "push_short_hand", "call_fail_draw", "successful_call_turn", "failed_counter_penalty",
    "revealed_banned_destination", "banned_last_card", "last_card_forbidden_types", "reshuffle",
    "pushed_cards_public", "max_turns",
}


def test_parameters_are_the_specs_with_its_defaults():
    """§2: every parameter (num_players is the run's player count) with an FS- rule ID and the
    spec's defaults (the source tags of every game: tests/test_game_contract.py)."""
    assert {p.name for p in GAME.params} == SPEC_PARAMS
    assert all(p.rule.startswith("FS-") for p in GAME.params)
    cfg = GAME.make_config()
    assert cfg.params["deck_counts"] == (32, 16, 16, 8, 8, 8, 8)
    assert cfg.params["banned_pool"] == (0, 2, 2, 1, 1, 1, 1)
    assert (GAME.min_players, GAME.max_players, GAME.default_players) == (3, 4, 4)


def test_counts_parameter_forms():
    cfg = GAME.make_config(overrides={"deck_counts": "VIR=40,FEV=16,SNZ=16,INJ=8,HDA=8,MSK=8,ICE=8"})
    assert cfg.params["deck_counts"] == (40, 16, 16, 8, 8, 8, 8)
    cfg = GAME.make_config(file={"params": {"banned_pool": [0, 2, 2, 2, 1, 1, 1]}})
    assert cfg.params["banned_pool"] == (0, 2, 2, 2, 1, 1, 1)


def test_bench_config_is_default_4_players():
    cfg = GAME.bench_config()
    assert cfg.players == 4 and cfg.bots == GAME.default_bots
