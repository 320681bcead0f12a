"""Faking-sick's step contract (``sim.kit.step``; kernel side: ``step_*`` in ``kernel/__init__.py``)."""

from __future__ import annotations

import numpy as np

from sim.kit.step import Step

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
    search_module = "sim.games.faking_sick.kernel.search"
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

    def raw_outcome(self, cfg, raw) -> dict[str, np.ndarray]:
        return {"games": raw["games"][0], "seats": raw["seats"][0], "calls": raw["calls"], "plays": raw["plays"],
                "banned_calls": raw["banned_calls"]}
