"""Virus, faking-sick mode (仮病モード): banned cards, bluffs and "faking sick!" calls.

Spec: rules/virus-faking-sick.md (rule IDs FS-...). Plug-in for sim.games.base.Game.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from sim.config import ConfigError, RunConfig
from sim.games.base import ENGINES, Game, Section

from . import rules
from .bots import BOTS, DEFAULT_BOTS
from .tables import TABLES, frames, new_arrays


class FakingSick(Game):
    name = rules.NAME
    title = "Virus — faking-sick mode"
    spec = "virus-faking-sick.md"
    min_players = 3
    max_players = 4
    default_players = 4
    params = rules.PARAMS
    bots = BOTS
    default_bots = DEFAULT_BOTS
    tables = TABLES
    length_column = "turns"

    def check(self, cfg: RunConfig) -> None:
        rules.check(cfg)

    def run_batch(self, cfg: RunConfig, start: int, count: int, engine: str = "fast") -> dict[str, pd.DataFrame]:
        if engine not in ENGINES:
            raise ConfigError(f"unknown engine '{engine}'; known: {', '.join(ENGINES)}")
        arr = new_arrays(count, cfg.players)
        if engine == "fast":
            from .kernel import run_kernel

            run_kernel(self, cfg, start, count, arr)
        else:
            from .reference import record, run_game

            for i in range(count):
                record(run_game(cfg, start + i), arr, i)
        return frames(arr, start, cfg.bots)

    def replay(self, cfg: RunConfig, index: int) -> tuple[list[str], dict[str, pd.DataFrame]]:
        from .reference import record, run_game

        log: list[str] = []
        g = run_game(cfg, index, log)
        arr = new_arrays(1, cfg.players)
        record(g, arr, 0)
        return log, frames(arr, index, cfg.bots)

    def scenario(self, spec: dict[str, Any]) -> dict[str, Any]:
        from .scenario import run_scenario

        return run_scenario(self, spec)

    def report_sections(self, run) -> list[Section]:
        from .report import sections

        return sections(run)


GAME = FakingSick()

__all__ = ["GAME", "FakingSick"]
