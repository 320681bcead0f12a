"""Property tests: card conservation at every decision (FS-1.3), termination (FS-9.6), invariants."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.faking_sick import GAME
from sim.games.faking_sick.reference import FakingSick, seat_agent
from sim.games.faking_sick.rules import VIR
from sim.kit.rng import Rng

BOTS = ["random", "honest", "bluffer", "caller"]

OPTIONS = {
    "successful_call_turn": ["ends", "play_again"],
    "failed_counter_penalty": [True, False],
    "banned_last_card": ["illegal", "void"],
    "call_priority": ["clockwise", "random"],
    "push_short_hand": ["push_all", "forbid_call"],
    "effects_profile": ["reconstructed", "vanilla"],
    "headache_ban_scope": ["until_owner_next_turn", "next_player_turn"],
    "reshuffle": ["discard_except_top", "none"],
    "revealed_banned_destination": ["discard_bottom", "removed", "owner_hand"],
    "initial_card_effect": ["none", "apply"],
    "play_after_draw": [False, True],
    "voluntary_draw": [True, False],
    "push_count": [0, 1, 2, 3],
    "call_fail_draw": [0, 2, 4],
    "hand_size": [1, 3, 10],
    "banned_per_player": [1, 2],
    "deck_counts": [(32, 16, 16, 8, 8, 8, 8), (12, 5, 5, 3, 3, 3, 3)],
}


@st.composite
def configs(draw):
    players = draw(st.sampled_from([3, 4]))
    over = {k: draw(st.sampled_from(v)) for k, v in OPTIONS.items() if draw(st.booleans())}
    if over.get("deck_counts", (32,))[0] == 12:
        over["hand_size"] = min(over.get("hand_size", 10), 3)
    over["max_turns"] = draw(st.sampled_from([5, 60, 400]))
    bots = draw(st.lists(st.sampled_from(BOTS), min_size=players, max_size=players))
    return GAME.make_config(players=players, bots=bots, seed=draw(st.integers(0, 2**31)), overrides=over)


class Checked:
    """Wraps the seat bots and checks the invariants before every decision."""

    def __init__(self, agent, k):
        self.agent, self.k, self.steps = agent, k, 0

    def check(self, g: FakingSick):
        g.check_invariants()
        self.steps += 1
        for s in range(g.n):
            assert len(g.slots[s]) == self.k
            assert all(t != VIR for t in g.slots[s] if t is not None)
        assert g.turns <= g.p["max_turns"]

    def decide(self, g, s, kind, legal):
        self.check(g)
        assert legal, "a decision always has an option (FS-3.5)"
        if kind == "call":  # a call window: the play waits in limbo, its player is not asked
            assert g.limbo == g.ctx["played"] and s != g.ctx["target"]
        return self.agent.decide(g, s, kind, legal)


@settings(max_examples=100, deadline=None)
@given(cfg=configs(), index=st.integers(0, 10**6))
def test_conservation_and_termination(cfg, index):
    _, agent = seat_agent(cfg, index)
    checked = Checked(agent, cfg.params["banned_per_player"])
    g = FakingSick(cfg.params, cfg.players, Rng(cfg.seed, index), checked)
    g.setup()
    assert sum(g.zone_counts()) == sum(cfg.params["deck_counts"])
    g.play_game()
    g.check_invariants()
    assert g.over and g.turns <= cfg.params["max_turns"]
    assert (g.winner >= 0) != g.turn_cap
    if g.winner >= 0:
        assert g.hand_size(g.winner) == 0 and g.win_method in (1, 2)
    else:
        assert g.turns == cfg.params["max_turns"]


@settings(max_examples=25, deadline=None)
@given(cfg=configs(), start=st.integers(0, 10**6))
def test_engines_agree_on_random_configs(cfg, start):
    fast = GAME.run_batch(cfg, start, 8, "fast")
    ref = GAME.run_batch(cfg, start, 8, "reference")
    for name in GAME.tables:
        pd.testing.assert_frame_equal(fast[name], ref[name])
    games = fast["games"]
    assert ((games["winner"] >= 0) ^ games["turn_cap"]).all()
    assert (games["turns"] <= cfg.params["max_turns"]).all()
    seats = fast["seats"]
    assert (seats.groupby("game")["win"].sum() == games.set_index("game")["n_winners"]).all()
