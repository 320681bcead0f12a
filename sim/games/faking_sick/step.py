"""Faking-sick's step contract (``sim.step``; kernel side: ``step_*`` in ``kernel.py``)."""

from __future__ import annotations

import numpy as np

from sim.step import Forced, Step

from .reference import CallEach
from .rules import MAX_OPTIONS

KINDS = ("turn", "attack", "after_draw", "call", "push")  # reference.KINDS (checked by the tests)


class FakingSickStep(Step):
    kinds = KINDS
    # play_after_draw brings the after-draw decision; the others vary the paths through a turn
    # (random caller, play again, voided going out, a forbidden short call, fallback-only turns,
    # games ended by the turn cap)
    variants = ({}, {"play_after_draw": True, "call_priority": "random", "successful_call_turn": "play_again",
                     "banned_last_card": "void"},
                {"initial_card_effect": "apply", "voluntary_draw": False, "push_short_hand": "forbid_call",
                 "push_count": 3, "headache_ban_scope": "next_player_turn",
                 "revealed_banned_destination": "owner_hand", "max_turns": 60})

    kernel_module = "sim.games.faking_sick.kernel"
    search_module = "sim.games.faking_sick.kernel_search"
    observation_module = "sim.games.faking_sick.observe"
    vector_module = "sim.games.faking_sick.vector"
    search_opponents = ("caller", "caller", "caller")  # the strongest scripted bot (the search bench's table)
    max_options = MAX_OPTIONS

    def outcome(self, cfg, buf: np.ndarray) -> dict[str, np.ndarray]:
        k = self.kernel()
        n = cfg.players
        return {"games": k.LAYOUT.view(buf, "game_row").copy(),
                "seats": k.LAYOUT.view(buf, "seat_rows")[:n * k.NS].reshape(n, k.NS).copy(),
                **k.batch_sums(buf, n)}

    def reference_outcome(self, cfg, index: int, options: list[int], seats: int | None = None):
        from sim.games.faking_sick.reference import FakingSick, record, seat_agent
        from sim.rng import Rng

        agent = ForcedAgent(seat_agent(cfg, index)[1], options, seats)
        g = FakingSick(cfg.params, cfg.players, Rng(cfg.seed, index), agent)
        g.setup()
        g.play_game()
        raw = self.game.new_arrays(cfg, 1)
        record(g, raw, 0)
        return {"games": raw["games"][0], "seats": raw["seats"][0], "calls": raw["calls"], "plays": raw["plays"],
                "banned_calls": raw["banned_calls"]}, agent.forced.asked


class ForcedAgent(CallEach):
    """``sim.step.Forced`` for the reference engine's one agent of all seats (``decide`` and the
    call window's ``window``): the first options answer the first decisions (a call window's
    eligible players one by one, clockwise), the rest go to ``agent``."""

    def __init__(self, agent, options: list[int], seats: int | None = None):
        self.agent = agent
        self.forced = Forced([], options, seats)

    def decide(self, g, s: int, kind: str, legal: list[dict], **ctx) -> dict:
        k = self.forced.answer(s, kind, len(legal))
        return self.agent.decide(g, s, kind, legal, **ctx) if k is None else legal[k]
