"""D1 precept draft (spec §2.6, §6 D1): the strategist's scored preference over all 25 cards
and the per-game draft record (games.pick_NN, games.pick_round_NN)."""

import pytest

from sim.games.daifugo import GAME
from sim.games.daifugo.reference.bots import DRAFT_PREF, draft_fit
from sim.games.daifugo import rules as R

HAND_EIGHTS = ["S8", "H8", "D8", "C8", "S3", "H5", "D7", "CJ", "HK", "SA"]


def draft(revealed, params=None, hand=HAND_EIGHTS):
    """Round-1 madness draft of P0 (strategist) from ``revealed``; returns the card P0 takes."""
    hands = [list(hand), ["S4", "H4"], ["S6", "H6"], ["S9", "H9"]]
    spec = {"game": "daifugo", "players": 4, "bots": ["strategist", "greedy", "greedy", "greedy"],
            "params": {"mode": "madness", "madness_rounds": 1, **(params or {})},
            "state": {"hands": hands, "phase": "draft", "revealed": revealed, "draft_left": [0]},
            "decisions": []}
    out = GAME.scenario(spec)
    return next(int(c) for c, q in out["state"]["precepts"].items() if q == 0), out


def test_preference_knows_every_card():
    """Every rule card has a documented value (DRAFT_PREF[1..25])."""
    assert len(DRAFT_PREF) == R.N_RULE_CARDS + 1 and all(v > 0 for v in DRAFT_PREF[1:])


def test_strategist_drafts_the_best_score():
    """score = draft_card_weight * DRAFT_PREF + draft_vp_weight * VP + draft_fit_weight * fit:
    05 (value 6) beats 09 (value 4, fit 3 x four 8s = 12) with the default weights 10/10/1;
    with draft_card_weight 0 the hand fit decides (09); precept VP can decide too."""
    assert draft([9, 5, 18])[0] == 5
    assert draft([9, 5, 18], {"bot.strategist.draft_card_weight": 0})[0] == 9
    assert draft([9, 5, 18], {"precept_vp_18": 9})[0] == 18
    assert draft_fit({R.parse_card(c) for c in HAND_EIGHTS}, 9) == 12


def test_pick_record_in_scenario_state():
    """The draft record of a scenario: round drafted and pick position (1 = first pick)."""
    _, out = draft([9, 5, 18])
    assert out["state"]["precept_rounds"] == {"05": 1} and out["state"]["precept_picks"] == {"05": 1}


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_games_table_pick_record(engine):
    """games.pick_NN / pick_round_NN: each round's drafted cards hold the pick positions 1..N
    and the owner column agrees; undrafted cards (the laws) are 0 / -1."""
    cfg = GAME.make_config(players=4, seed=2, overrides={"mode": "madness", "madness_rounds": 3})
    g = GAME.run_batch(cfg, 0, 40, engine)["games"]
    for _, row in g.iterrows():
        by_round = {}
        for c in range(1, R.N_RULE_CARDS + 1):
            pick, rnd, owner = row[f"pick_{c:02d}"], row[f"pick_round_{c:02d}"], row[f"owner_{c:02d}"]
            assert (pick == 0) == (rnd == 0) == (owner < 0)
            if pick:
                by_round.setdefault(rnd, []).append(pick)
        assert sorted(by_round) == [1, 2, 3]
        assert all(sorted(v) == [1, 2, 3, 4] for v in by_round.values())
