"""Daifugo's skill index per rule card (analysis.games.daifugo_skill) on a constructed pairing run
with a known answer: the challenger (the first bot, seat (players - game % players) % players by
the seat rotation) wins every round with law 05 in force and every game where precept 09 is held,
and wins by chance otherwise."""

import numpy as np
import pandas as pd

from analysis.games.daifugo_skill import _challenger_seat, skill_by_card
from sim.kit.kernel_util import seat_bot
from tests.daifugo.test_rule_cards import PLAYERS, FrameRun

LAW, PRECEPT = 5, 9


def constructed(n_games=4000, seed=1) -> FrameRun:
    rng = np.random.default_rng(seed)
    rounds, seats = [], []
    for g in range(n_games):
        me = (PLAYERS - g % PLAYERS) % PLAYERS
        held = rng.random() < 0.5  # precept 09 held by some seat in half the games
        holder = int(rng.integers(PLAYERS))
        in_force = set()
        for r in range(3):
            law = int(rng.integers(1, 26))
            in_force.add(law)  # a revealed law stays in force for the rest of the game
            pos = rng.permutation(PLAYERS) + 1
            if LAW in in_force or held:  # the challenger places first
                pos[[me, int(np.argmin(pos))]] = pos[[int(np.argmin(pos)), me]]
            rounds.append({"game": g, "round": r, "law": law, "plays": 10, "king": -1, "king_kept": False,
                           **{f"pos_s{q}": int(pos[q]) for q in range(PLAYERS)}})
        winner = me if held else int(rng.integers(PLAYERS))
        for s in range(PLAYERS):
            seats.append({"game": g, "seat": s, "win_share": float(s == winner),
                          "precepts_mask": (1 << (PRECEPT - 1)) if held and s == holder else 0})
    return FrameRun({"rounds": pd.DataFrame(rounds), "seats": pd.DataFrame(seats)},
                    params={"rule_deck": tuple(range(1, 26))})


def test_challenger_seat_follows_the_seat_rotation():
    bots = np.array([7, 1, 1, 1])
    for g in range(12):
        seat = eval(_challenger_seat(PLAYERS), {"game": g})
        assert seat_bot(bots, g, seat) == 7


def test_a_law_and_a_precept_that_decide_the_game_show_as_skill_and_nothing_else_does():
    """Law 05 in force: the challenger wins every round (index 1); precept 09 held: every game.
    Only these two cards change the index by more than 0.4 at q < 0.05 (half the rounds without
    law 05 are in games with 09 held, so the law's change is about 0.5), every other card by
    less than 0.2 at its interval's low end."""
    t = skill_by_card(constructed()).set_index(["card", "kind"])
    law, precept = t.loc[("05 Trickster", "law")], t.loc[("09 Eight Cut", "precept")]
    assert law["index with"] == 1.0 and precept["index with"] == 1.0
    assert law["lo"] > 0.4 and precept["lo"] > 0.8 and law["q (BH)"] < 1e-6 and precept["q (BH)"] < 1e-6
    strong = t[(t["q (BH)"] < 0.05) & (t["change"].abs() > 0.4)]
    assert set(strong.index) == {("05 Trickster", "law"), ("09 Eight Cut", "precept")}
    others = t.drop(index=[("05 Trickster", "law"), ("09 Eight Cut", "precept")])
    assert (others["lo"] < 0.2).all()
