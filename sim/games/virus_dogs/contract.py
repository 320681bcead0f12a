"""Virus Dogs' step contract (``sim.kit.step``; kernel side: ``step_*`` in ``kernel/__init__.py``)."""

from __future__ import annotations

import numpy as np

from sim.games.virus_dogs import tables as tb
from sim.kit.step import Step


class VirusDogsStep(Step):
    # The reference engine's ``ask`` kinds, by the kernel's K_* codes (checked by the tests).
    kinds = ("action", "virus", "draw_another", "mask_take", "market_take", "cough", "cough_virus", "give",
             "refuse_exchange", "hq_target")
    variants = ({}, {"hq_target": "choice", "mask_take_mode": "prefix", "elimination_threshold": 4},
                {"draw_count_declared_upfront": True, "first_player": "random", "exchange_refused_card": "discard"})

    search_module = "sim.games.virus_dogs.kernel.search"
    observation_module = "sim.games.virus_dogs.observe"
    vector_module = "sim.games.virus_dogs.vector"
    search_opponents = ("cautious", "cautious", "cautious")  # the strongest scripted bot (the search bench's table)

    @property
    def max_options(self) -> int:
        return self.kernel().MAX_PENDING

    def kernel(self):
        from sim.games.virus_dogs import kernel

        return kernel

    def run_vector(self, cfg) -> np.ndarray:
        return self.kernel().run_vector(self.game, cfg)

    def outcome(self, cfg, buf: np.ndarray) -> dict[str, np.ndarray]:
        k = self.kernel()
        n = cfg.players
        games = k.LAYOUT.view(buf, "game_row").copy()
        density = np.zeros((tb.TURN_ROWS, tb.ND), dtype=np.int64)
        turns = min(int(games[tb.G_TURNS]), tb.TURN_ROWS)  # the game's rows (the others hold older sums)
        density[:turns] = k.LAYOUT.view(buf, "turn_sums").reshape(tb.TURN_ROWS, tb.ND)[:turns]
        return {
            "games": games,
            "seats": k.LAYOUT.view(buf, "seat_rows")[:n * tb.NS].reshape(n, tb.NS).copy(),
            "density": density,
            "draw_density": k.LAYOUT.view(buf, "draw_sums").reshape(tb.DRAW_ROWS, tb.NW).copy(),
            "deck_density": k.LAYOUT.view(buf, "deck_sums").reshape(tb.DECK_BUCKETS + 1, tb.NW).copy(),
        }

    def raw_outcome(self, cfg, raw) -> dict[str, np.ndarray]:
        games, seats, density, draws, deck = raw
        return {"games": games[:, 0].astype(np.int64), "seats": seats.T.astype(np.int64), "density": density,
                "draw_density": draws.astype(np.int64), "deck_density": deck.astype(np.int64)}
