"""Fast engine vs reference engine: identical tables for the same seeds (>= 2,000 games)."""

import pytest

from sim.games.daifugo import GAME
from tests.engines import engines_agree

SIX = "07,09,14,15,19,21"
MIXED = ["strategist", "greedy", "random", "strategist", "random", "greedy"]


def assert_same(cfg, start, count):
    engines_agree(GAME, cfg, start, count)


@pytest.mark.parametrize("start", [0, 1000])
@pytest.mark.parametrize("mode,players", [("normal", 4), ("madness", 5)])
def test_default_deck_both_modes(mode, players, start):
    """2,000 seeded full games per mode with the default 25-card rule deck, mixed bots (two halves)."""
    cfg = GAME.make_config(players=players, bots=MIXED[:players], seed=11, overrides={"mode": mode})
    assert_same(cfg, start, 1000)


# each card as a law (normal mode) and as a precept (madness mode), 2,000 one-round games each
CARD_DECKS = {"03": "03,09,14,15,21", "10": "10,16,06,14,15", "06": "06,14,15,07,21", "11": "11,06,16,22,15", "16": "16,15,21,07,14", "22": "22,16,14,15,09",
              "23": "23,07,09,14,15",
              "20": "20,21,14,15,10",
              "17": "17,07,21,14,15",
              "13": "13,07,21,14,15",
              "18": "18,13,07,21,17",
              "02": "02,21,07,17,13",
              "04": "04,09,19,03,10", "24": "24,09,19,03,10", "01": "01,24,25,09,21",
              "25": "25,06,16,21,09"}


# a card whose effect needs another card to show in a few hundred games is drawn with it
EFFECT_DECKS = {"17": "17,07", "13": "13,07", "18": "18,07", "02": "02,21"}
CARD_DECKS["05"] = "05,11,16,22,23"  # the second joker with the joker cards
CARD_DECKS["12"] = "12,08,05,09,14"  # acts in round 1 too (DEC-8)
EXCHANGE_DECKS = {"08": "08,09,19,14,15"}  # acts from round 2 (the exchange)


@pytest.mark.parametrize("start", [0, 1000])
@pytest.mark.parametrize("card", sorted(EXCHANGE_DECKS))
@pytest.mark.parametrize("mode", ["normal", "madness"])
def test_exchange_card_as_law_and_precept(card, mode, start):
    """A card of the exchange on 2,000 two-round games (two halves) as a law and as a precept."""
    deck = card if mode == "normal" else EXCHANGE_DECKS[card]
    cfg = GAME.make_config(players=4, bots=MIXED[:4], seed=17,
                           overrides={"mode": mode, "rule_deck": deck, "rounds": 2, "madness_rounds": 2})
    assert_same(cfg, start, 1000)


def test_two_jokers_with_every_joker_card():
    """Card 05 as a law early or late in the game, then two jokers in sets, stairs, Joker
    singles, the hunt (11), three return (22), wisdom (23), substitutes (20), pull-back (10)."""
    cfg = GAME.make_config(players=4, bots=MIXED[:4], seed=23,
                           overrides={"rule_deck": "05,11,16,22,23,21,20,10,06", "rounds": 5})
    assert_same(cfg, 0, 150)


@pytest.mark.parametrize("card", sorted(CARD_DECKS))
@pytest.mark.parametrize("mode", ["normal", "madness"])
def test_card_as_law_and_precept(card, mode):
    """The card is in force from round 1: normal mode, the card alone is the rule deck (the
    law); madness mode, four players and five cards: the law and the four precepts drafted."""
    deck = EFFECT_DECKS.get(card, card) if mode == "normal" else CARD_DECKS[card]
    cfg = GAME.make_config(players=4, bots=MIXED[:4], seed=17,
                           overrides={"mode": mode, "rule_deck": deck, "rounds": 1, "madness_rounds": 1})
    assert_same(cfg, 0, 2000)


VARIANTS = [
    (3, {"mode": "madness", "rule_deck": SIX, "pass_locks_out": False, "bottom_order": "earliest_lowest",
         "three_card_revolution_optional": True, "draft_order": "clockwise_from_last"}),
    (6, {"mode": "madness", "rule_deck": SIX, "forbidden_finish_flows": True, "suit_lock_tightens": True,
         "jback_toggles": True, "precept21_followers_may_play_stairs": False, "tiebreak": "last_round_rank",
         "precept_vp_timing": "every_round", "precept_vp_21": 3}),
    (4, {"rule_deck": SIX, "lone_joker_wild": False, "trim_mode": "all_or_nothing", "wild_triggers_rank_effects": False,
         "strongest_uses_effective_order": False, "capital_fall_if_king_already_placed": False,
         "exited_hand_to_discard": False, "joker_single_ignores_number_lock": False, "revolution_finish_forbidden": True}),
    (5, {"max_plays_per_round": 12, "rank_points_2": 5, "capital_fall_bonus": 2}),
    (4, {"rule_deck": "25,24,01,21,20,04", "mode": "madness", "dobon_flows": False, "dobon_on_stairs": True,
         "loophole_uses_per_turn": 2, "strongest_uses_effective_order": False}),
    (4, {"mode": "madness", "rule_deck": "13,17,07,21,14", "armed_force_resolution": "round_end",
         "exile_mode": "illegal"}),
    (5, {"rule_deck": "13,07,21,18,02", "armed_force_resolution": "immediate", "flux_mode": "rotate_all",
         "fusion_respects_locks": True}),
    (4, {}),  # default: full 25-card rule deck
    (4, {"rule_deck": "04,24,03,09,10,19", "taboo_law_scope": "commoners"}),  # DEC-54
    (4, {"mode": "madness", "rule_deck": "04,24,11,19,06,02,03,14", "taboo_law_scope": "commoners"}),
]


@pytest.mark.parametrize("players,params", VARIANTS)
def test_engines_agree_under_rule_variants(players, params):
    cfg = GAME.make_config(players=players, bots=(MIXED * 2)[1:players + 1], seed=5, overrides=params)
    assert_same(cfg, 100, 120)


COUNTERS = {"03": "ten_discards", "06": "slip_throughs", "10": "pull_backs", "11": "magician_hunts",
            "16": "equal_plays", "20": "substitutions", "22": "three_returns", "23": "three_threes",
            "17": "exiled_revolutions", "13": "af_promotions", "18": "flux_swaps", "02": "fusions"}
COUNTERS.update({"05": "second_joker", "08": "free_gifts", "12": "collusion_swaps"})
COUNTERS.update({"04": "taboo_breaks", "01": "recycles", "24": "loopholes", "25": "dobons"})


@pytest.mark.parametrize("card", sorted(COUNTERS))
def test_card_effects_happen(card):
    """The differential decks really exercise each card: its rounds counter (spec §7) is not 0."""
    deck = EFFECT_DECKS.get(card, card)
    cfg = GAME.make_config(players=4, bots=MIXED[:4], seed=17, overrides={"rule_deck": deck, "rounds": 2})
    assert GAME.run_batch(cfg, 0, 400, "fast")["rounds"][COUNTERS[card]].sum() > 0


def test_collusion_precept_takes_happen():
    """Card 12 as a precept (madness): the holder's take-and-gives are counted."""
    cfg = GAME.make_config(players=4, bots=MIXED[:4], seed=17,
                           overrides={"mode": "madness", "rule_deck": CARD_DECKS["12"], "madness_rounds": 2})
    assert GAME.run_batch(cfg, 0, 200, "fast")["rounds"]["collusion_takes"].sum() > 0


@pytest.mark.parametrize("mode", ["normal", "madness"])
def test_two_jokers_with_armed_force_and_flux(mode):
    """Cards 13 and 18 (and 02) in rounds with the second joker of card 05: the claims and the
    flux exchanges of those rounds agree in both engines and do happen."""
    cfg = GAME.make_config(players=4, bots=MIXED[:4], seed=29,
                           overrides={"mode": mode, "rule_deck": "05,13,18,02,07", "rounds": 5,
                                      "madness_rounds": 2})
    r = engines_agree(GAME, cfg, 0, 150)["rounds"]
    two = r[r["second_joker"] == 1]
    assert two["af_claims"].sum() > 0 and two["flux_swaps"].sum() > 0
