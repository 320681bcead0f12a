"""Game feel measures (docs/rules/daifugo.md, "Game feel measures"): the definitions on hand-made
standings, the same columns from both engines on real games, and the report section."""

import numpy as np
import pytest

from sim.games.daifugo import GAME
from sim.games.daifugo.game import game_feel
from sim.games.daifugo.tables import FEEL_COLS


@pytest.mark.parametrize("standings,winners,expected", [
    # wire to wire: seat 0 leads after every round
    ([[3, 2, 1, 0], [6, 4, 2, 0], [9, 6, 3, 0]], [0], [0, 1, 0, 1]),
    # comeback from last: leaders 1, 2, 2, 0 (two changes); seat 0 last (4th) and 3 behind after
    # round 1, 3 behind after round 2, sole leader only after the last round
    ([[0, 3, 2, 1], [2, 4, 5, 1], [5, 5, 6, 1], [8, 6, 6, 2]], [0], [2, 4, 3, 4]),
    # a shared lead in between is no change; the winner is sole leader again only from round 3
    ([[3, 0, 0, 0], [3, 3, 0, 0], [6, 3, 0, 0]], [0], [0, 3, 0, 1]),
    # a shared win: the winner (lowest winning seat) is not the sole leader at the end
    ([[3, 2, 1, 0], [5, 5, 1, 1]], [0, 1], [0, -1, 0, 1]),
    # one round: the round decides
    ([[3, 2, 1, 0]], [0], [0, 1, 0, 1]),
    # A -> B -> A: two changes; tied for 2nd (place 2) behind by 2
    ([[3, 2, 1, 0], [4, 5, 4, 0], [7, 5, 4, 1]], [0], [2, 3, 1, 2]),
])
def test_game_feel_definitions(standings, winners, expected):
    """lead_changes, leader_from_round, winner_max_behind, winner_worst_place (tables.FEEL_COLS)."""
    assert FEEL_COLS == ["lead_changes", "leader_from_round", "winner_max_behind", "winner_worst_place"]
    assert game_feel(standings, winners) == expected


@pytest.mark.parametrize("mode", ["normal", "madness"])
def test_feel_columns_of_real_games(mode):
    """Both engines fill the columns identically (also checked by the differential tests), and
    they agree with the games' own results: a shared win (DEC-21, tiebreak share) has
    leader_from_round -1, a sole win a round in 1..rounds; a wire-to-wire winner had no lead
    change, was never behind and never below 1st."""
    cfg = GAME.make_config(players=4, seed=3, overrides={"mode": mode})
    fast = GAME.run_batch(cfg, 0, 300, "fast")["games"]
    ref = GAME.run_batch(cfg, 0, 60, "reference")["games"]
    for c in FEEL_COLS:
        assert np.array_equal(fast[c].to_numpy()[:60], ref[c].to_numpy()), c
    g = fast
    rounds = int(g["rounds"].iloc[0])
    shared = g["n_winners"] > 1
    assert (g.loc[shared, "leader_from_round"] == -1).all()
    assert g.loc[~shared, "leader_from_round"].between(1, rounds).all()
    w2w = g["leader_from_round"] == 1
    assert (g.loc[w2w, ["lead_changes", "winner_max_behind"]] == 0).all().all()
    assert (g.loc[w2w, "winner_worst_place"] == 1).all()
    assert g["winner_worst_place"].between(1, 4).all() and (g["winner_max_behind"] >= 0).all()
    assert (g["lead_changes"] <= rounds - 1).all()
    assert shared.any() and w2w.any() and (g["leader_from_round"] == rounds).any()
