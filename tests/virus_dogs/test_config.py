"""Parameter table (VD-P) and bot sanity."""

import pytest

from sim.games.virus_dogs import GAME

# VD-P.1 and VD-P.2 of rules/virus-dogs.md: every parameter with its spec default.
SPEC_DEFAULTS = {
    "n_virus_total": 7, "n_virus_in_deck": 1, "n_bat": 3, "bat_virus_add": 2, "n_toilet": 6, "n_control": 4,
    "n_quarantine": 2, "n_doctor": 6, "n_antiseptic": 4, "n_ambulance": 1, "n_mask": 5, "n_black_market": 4,
    "n_shuffle": 4, "n_cough": 4, "n_exchange": 4, "n_blank": 0, "draw_min": 1, "draw_max": 2, "mask_peek": 2,
    "black_market_look": 3, "doctors_per_cure": 2, "doctor_per_turn": 1, "elimination_threshold": 2,
    "first_player": 0, "draw_count_declared_upfront": False, "bat_counts_as_draw": True,
    "skip_scope": "whole_turn", "mask_take_mode": "any_subset", "antiseptic_on_cough": True,
    "ambulance_reactive": False, "exchange_refused_card": "return_to_giver",
    "eliminated_hand_destination": "discard", "deck_exhaustion_check": "end_of_turn",
    "hq_target": "left_neighbour", "hq_end": "last_standing", "hq_stalemate": "fewest_open_shared",
    "hq_max_steps": 10_000, "all_eliminated_outcome": "no_winner",
}


def test_parameters_have_the_spec_defaults():
    """VD-P: every parameter is configurable, with the spec's default and a VD- rule; which
    defaults are the seed's (the source tags of every game: tests/test_game_contract.py)."""
    for name, default in SPEC_DEFAULTS.items():
        p = GAME.param(name)
        assert p.default == default and p.rule.startswith("VD-"), name
    assert GAME.param("n_ambulance").source == "seed-weak"
    assert GAME.param("n_bat").source == "seed" and GAME.param("n_doctor").source == "assumed"


@pytest.mark.parametrize("name,value", [("first_player", "random"), ("hq_target", "choice"), ("draw_max", 3)])
def test_alternatives_accepted(name, value):
    cfg = GAME.make_config(overrides={name: value})
    assert cfg.params[name] == value


def test_bots_have_named_parameters_and_heuristics_beat_random():
    """The scripted bots are ordered sensibly: both heuristics win more often than random."""
    assert set(GAME.bots) >= {"random", "cautious", "aggressive"}
    assert GAME.bots["cautious"].params and GAME.bots["aggressive"].params
    cfg = GAME.make_config(players=3, bots=["random", "cautious", "aggressive"], seed=8)
    seats = GAME.run_batch(cfg, 0, 3000, "fast")["seats"]
    rate = seats.groupby("bot")["win"].mean()
    assert rate["random"] < rate["cautious"] and rate["random"] < rate["aggressive"]


def test_bot_parameter_changes_play():
    """A bot parameter reaches both engines: aggressive with draw_two=0 draws fewer cards."""
    base = GAME.make_config(players=2, bots=["aggressive"], seed=1)
    slow = GAME.make_config(players=2, bots=["aggressive"], seed=1, overrides={"bot.aggressive.draw_two": 0})
    a = GAME.run_batch(base, 0, 500, "fast")["games"]
    b = GAME.run_batch(slow, 0, 500, "fast")["games"]
    assert b["turns"].mean() > a["turns"].mean()
