"""Parameter table and bad configurations (one-line ConfigError)."""

from __future__ import annotations

import pytest

from sim.config import ConfigError
from sim.games.faking_sick import GAME

SPEC_PARAMS = {
    "deck_counts", "banned_pool", "banned_per_player", "hand_size", "first_player", "initial_card_effect",
    "draw_count", "voluntary_draw", "play_after_draw", "effects_profile", "fever_counters", "sneeze_counters",
    "fever_penalty_draw", "sneeze_penalty_draw", "headache_ban_scope", "call_priority", "push_count",
    "push_short_hand", "call_fail_draw", "successful_call_turn", "failed_counter_penalty",
    "revealed_banned_destination", "banned_last_card", "last_card_forbidden_types", "reshuffle",
    "pushed_cards_public", "max_turns",
}


def test_every_spec_parameter_has_default_source_and_rule():
    """§2: every parameter (num_players is the run's player count) with default, source, rule ID."""
    names = {p.name for p in GAME.params}
    assert names == SPEC_PARAMS
    for p in GAME.params:
        assert p.source in ("seed", "seed-weak", "found", "assumed") and p.rule.startswith("FS-")
        assert p.coerce(p.default) == p.default
    cfg = GAME.make_config()
    assert cfg.params["deck_counts"] == (32, 16, 16, 8, 8, 8, 8)
    assert cfg.params["banned_pool"] == (0, 2, 2, 1, 1, 1, 1)
    assert (GAME.min_players, GAME.max_players, GAME.default_players) == (3, 4, 4)


def test_counts_parameter_forms():
    cfg = GAME.make_config(overrides={"deck_counts": "VIR=40,FEV=16,SNZ=16,INJ=8,HDA=8,MSK=8,ICE=8"})
    assert cfg.params["deck_counts"] == (40, 16, 16, 8, 8, 8, 8)
    cfg = GAME.make_config(file={"params": {"banned_pool": [0, 2, 2, 2, 1, 1, 1]}})
    assert cfg.params["banned_pool"] == (0, 2, 2, 2, 1, 1, 1)


BAD = [
    (dict(players=5), "3 to 4 players"),
    (dict(players=2), "3 to 4 players"),
    (dict(players=4, overrides={"banned_per_player": 3}), "exceeds the banned pool"),
    (dict(players=3, overrides={"banned_per_player": 3}), "exceeds the banned pool"),
    (dict(overrides={"last_card_forbidden_types": "MSK"}), "MSK"),
    (dict(overrides={"last_card_forbidden_types": "FEV,MSK"}), "MSK"),
    (dict(players=3, overrides={"first_player": 3}), "first_player"),
    (dict(overrides={"banned_pool": "VIR=1,FEV=2,SNZ=2,INJ=1,HDA=1,MSK=1,ICE=1"}), "VIR"),
    (dict(overrides={"banned_pool": "FEV=20"}), "banned_pool"),
    (dict(overrides={"deck_counts": "VIR=0,FEV=30,SNZ=30,INJ=8,HDA=8,MSK=8,ICE=8"}), "marker"),
    (dict(overrides={"hand_size": 30}), "cannot deal"),
    (dict(overrides={"deck_counts": "XYZ=3"}), "deck_counts"),
    (dict(overrides={"deck_counts": "VIR=-1"}), "deck_counts"),
    (dict(overrides={"call_priority": "fastest"}), "call_priority"),
    (dict(overrides={"fever_counters": "ICE,BOGUS"}), "fever_counters"),
    (dict(overrides={"max_turns": 0}), "max_turns"),
    (dict(overrides={"bot.bluffer.bluff_rate": 1}), "bluff_rate"),
    (dict(bots=["bluffer", "nobody", "honest", "random"]), "nobody"),
    (dict(overrides={"bot.bluffer.bluff_k": 0}), "bluff_k"),
    (dict(overrides={"bot.random.call_prob": 1.5}), "call_prob"),
]


@pytest.mark.parametrize("kwargs,needle", BAD, ids=[b[1] + str(i) for i, b in enumerate(BAD)])
def test_bad_config_is_a_one_line_config_error(kwargs, needle):
    with pytest.raises(ConfigError) as e:
        GAME.make_config(**kwargs)
    msg = str(e.value)
    assert needle in msg and "\n" not in msg


def test_bad_scenario_input():
    with pytest.raises(ConfigError, match="unknown card code"):
        GAME.scenario({"game": "faking-sick", "players": 4, "state": {"hands": [["XYZ"], [], [], []]}})
    with pytest.raises(ConfigError, match="unknown state field"):
        GAME.scenario({"game": "faking-sick", "players": 4, "state": {"hand": []}})
    with pytest.raises(ConfigError, match="3 to 4 players"):
        GAME.scenario({"game": "faking-sick", "players": 5, "state": {}})
    with pytest.raises(ConfigError, match="MSK"):
        GAME.scenario({"game": "faking-sick", "players": 4, "params": {"last_card_forbidden_types": ["MSK"]}})


def test_bench_config_is_default_4_players():
    cfg = GAME.bench_config()
    assert cfg.players == 4 and cfg.bots == GAME.default_bots
