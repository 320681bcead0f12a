"""Virus, faking-sick mode (仮病モード): banned cards, bluffs and "faking sick!" calls.

Rules and rule IDs (FS-...): docs/rules/faking-sick.md. Plug-in for sim.games.base.Game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from sim.kit.config import ConfigError, RunConfig
from sim.games.base import Game
from sim.games.faking_sick.levers import LEVERS
from sim.kit.search_params import seats_search

from . import rules
from .reference.bots import BLUFFER, BOT_PARAMS, BOTS, DEFAULT_BOTS, HONEST, LEARNED, RANDOM
from .tables import TABLES, frames, new_arrays


class FakingSick(Game):
    name = rules.NAME
    title = "Virus — faking-sick mode"
    min_players = 3
    max_players = 4
    default_players = 4
    params = rules.PARAMS
    bots = BOTS
    bot_param_specs = BOT_PARAMS
    default_bots = DEFAULT_BOTS
    tables = TABLES
    length_column = "turns"
    report_module = "analysis.games.faking_sick"
    rule_id_prefixes = ("FS",)
    step_class = "sim.games.faking_sick.contract.FakingSickStep"
    stall_flags = {"turn_cap": "the turn cap"}
    strong_bot = "learned"
    levers = LEVERS
    learned_module = "sim.games.faking_sick.reference.learned"

    def check(self, cfg: RunConfig) -> None:
        rules.check(cfg)
        rollout = int(cfg.bot_values(self.bots["search"])["rollout"])
        if "search" in cfg.bots and rollout not in (RANDOM, HONEST, BLUFFER, LEARNED):
            raise ConfigError(f"bot.search.rollout {rollout} is no rollout bot; "
                              f"{RANDOM} random, {HONEST} honest, {BLUFFER} bluffer, {LEARNED} learned")

    def new_arrays(self, cfg: RunConfig, count: int) -> dict[str, np.ndarray]:
        return new_arrays(count, cfg.players)

    def fast_batch(self, cfg: RunConfig, start: int, count: int) -> dict[str, np.ndarray]:
        if seats_search(cfg.bots):
            from sim.kit.search import N_STATS

            from .kernel.search import search_batch

            return search_batch(self, cfg, start, count, np.zeros(N_STATS, dtype=np.int64))
        from .kernel import run_kernel

        arr = new_arrays(count, cfg.players)
        run_kernel(self, cfg, start, count, arr)
        return arr

    def play_reference(self, cfg: RunConfig, index: int, log: list[str] | None = None, wrap=None):
        from .reference import run_game, seat_agent

        return run_game(cfg, index, log, self.reference_agent(cfg, index, seat_agent(cfg, index)[1], wrap))

    def record(self, engine, raw: dict[str, np.ndarray], row: int) -> None:
        from .reference import record

        record(engine, raw, row)

    def build_tables(self, cfg: RunConfig, start: int, count: int, raw) -> dict[str, pd.DataFrame]:
        return frames(cfg, raw, start)

    def scenario(self, spec: dict[str, Any]) -> dict[str, Any]:
        from .scenario import run_scenario

        return run_scenario(self, spec)


GAME = FakingSick()

__all__ = ["GAME", "FakingSick"]
