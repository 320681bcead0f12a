"""Virus Dogs (spec: rules/virus-dogs.md): the game plug-in ``GAME``."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.config import ConfigError, RunConfig
from sim.games.base import Game, seat_bots
from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.bots import BOTS, BotAgent
from sim.games.virus_dogs.reference import Engine
from sim.games.virus_dogs.rules import PARAMS, Rules
from sim.rng import Rng


def play_reference(cfg: RunConfig, index: int, log: list | None = None) -> Engine:
    """Game ``index`` of ``cfg`` in the reference engine, bots seated by ``seat_bots``."""
    rng = Rng(cfg.seed, index)
    names = seat_bots(cfg, index)
    agents = [BotAgent(b, {k: cfg.bot_param(b, k, BOTS[b].params) for k in BOTS[b].params}, rng) for b in names]
    eng = Engine(Rules(cfg.params), cfg.players, rng, agents, log)
    if log is not None:
        log.append("seats: " + ", ".join(f"P{s}={b}" for s, b in enumerate(names)))
    eng.setup()
    eng.play()
    return eng


class VirusDogs(Game):
    name = "virus-dogs"
    title = "Virus Dogs"
    spec = "virus-dogs.md"
    min_players = 2
    max_players = 5
    default_players = 4
    params = PARAMS
    bots = BOTS
    default_bots = ("cautious", "aggressive", "random", "cautious")
    tables = tb.TABLES
    length_column = "turns"

    def check(self, cfg: RunConfig) -> None:
        v = cfg.params
        if v["n_virus_in_deck"] > v["n_virus_total"]:
            raise ConfigError("n_virus_in_deck must not exceed n_virus_total")
        if v["draw_min"] > v["draw_max"]:
            raise ConfigError("draw_min must not exceed draw_max")
        if sum(Rules(v).counts) < 1:
            raise ConfigError("the starting deck must hold at least one card")

    def run_batch(self, cfg: RunConfig, start: int, count: int, engine: str = "fast") -> dict:
        if engine == "fast":
            from sim.games.virus_dogs.kernel import run_fast

            games, seats, density = run_fast(self, cfg, start, count)
        elif engine == "reference":
            games, seats, density = self._run_reference(cfg, start, count)
        else:
            raise ConfigError(f"unknown engine '{engine}' (fast | reference)")
        return tb.build(cfg, start, count, games, seats, density)

    def _run_reference(self, cfg: RunConfig, start: int, count: int):
        n = cfg.players
        games = np.zeros((tb.NG, count), dtype=np.int32)
        seats = np.zeros((tb.NS, count * n), dtype=np.int32)
        density = np.zeros((cfg.params["max_turns"], tb.ND), dtype=np.int64)
        for k in range(count):
            eng = play_reference(cfg, start + k)
            games[:, k] = eng.g
            seats[:, k * n:(k + 1) * n] = np.array(eng.s, dtype=np.int32).T
            for row in eng.density:
                tb.density_row(density, *row)
        return games, seats, density

    def replay(self, cfg: RunConfig, index: int):
        log: list[str] = []
        eng = play_reference(cfg, index, log)
        n = cfg.players
        density = np.zeros((cfg.params["max_turns"], tb.ND), dtype=np.int64)
        for row in eng.density:
            tb.density_row(density, *row)
        frames = tb.build(cfg, index, 1, np.array([eng.g], dtype=np.int32).T,
                          np.array(eng.s, dtype=np.int32).reshape(n, tb.NS).T, density)
        return log, frames

    def scenario(self, spec: dict[str, Any]) -> dict[str, Any]:
        from sim.games.virus_dogs.scenario import run_scenario

        return run_scenario(self, spec)

    def report_sections(self, run):
        from sim.games.virus_dogs.report import sections

        return sections(run)


GAME = VirusDogs()
