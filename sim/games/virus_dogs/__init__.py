"""Virus Dogs (rules and rule IDs: docs/rules/virus-dogs.md): the game plug-in ``GAME``."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.kit.config import ConfigError, RunConfig
from sim.games.base import Game
from sim.games.virus_dogs.levers import LEVERS
from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.reference.bots import BOT_PARAMS, BOTS, BotAgent, Bots

ROLLOUT_BOTS = {BOTS[b].policy: b for b in ("random", "cautious", "aggressive", "learned")}
from sim.games.virus_dogs.reference import Engine
from sim.games.virus_dogs.rules import PARAMS, Rules
from sim.kit.rng import Rng
from sim.kit.search_params import seats_search


class VirusDogs(Game):
    name = "virus-dogs"
    title = "Virus Dogs"
    min_players = 2
    max_players = 5
    default_players = 4
    params = PARAMS
    bots = BOTS
    bot_param_specs = BOT_PARAMS
    default_bots = ("cautious", "aggressive", "random", "cautious")
    tables = tb.TABLES
    report_module = "analysis.games.virus_dogs"
    rule_id_prefixes = ("VD", "AD", "DP", "TS", "M")
    length_column = "turns"
    length_extra = {"hq_steps": "hard-quarantine steps (after the last turn)"}
    step_class = "sim.games.virus_dogs.contract.VirusDogsStep"
    learned_module = "sim.games.virus_dogs.reference.learned"
    stall_flags = {"turn_cap": "the turn cap", "hq_stalemate": "a hard-quarantine stalemate"}
    assumed_ends = {"hq_stalemate": ("AD-30", "a hard quarantine nobody can lose is won by the fewest open viruses, "
                                              "shared")}
    strong_bot = "learned"
    levers = LEVERS

    def check(self, cfg: RunConfig) -> None:
        v = cfg.params
        if v["n_virus_in_deck"] > v["n_virus_total"]:
            raise ConfigError("n_virus_in_deck must not exceed n_virus_total")
        if v["draw_min"] > v["draw_max"]:
            raise ConfigError("draw_min must not exceed draw_max")
        if sum(Rules(v).counts) < 1:
            raise ConfigError("the starting deck must hold at least one card")
        rollout = int(cfg.bot_values(BOTS["search"])["rollout"])
        if seats_search(cfg.bots) and rollout not in ROLLOUT_BOTS:
            raise ConfigError(f"bot.search.rollout {rollout} is no rollout bot; "
                              f"{', '.join(f'{c} {b}' for c, b in ROLLOUT_BOTS.items())}")

    def new_arrays(self, cfg: RunConfig, count: int):
        """Column-major int32 ``games[col, game]``, ``seats[col, game * n + seat]``, the int64
        per-turn density sums and the per-draw and per-deck-share sums (``tables.new_sums``)."""
        return (np.zeros((tb.NG, count), dtype=np.int32), np.zeros((tb.NS, count * cfg.players), dtype=np.int32),
                *tb.new_sums())

    def fast_batch(self, cfg: RunConfig, start: int, count: int):
        if seats_search(cfg.bots):
            from sim.games.virus_dogs.kernel.search import search_batch
            from sim.kit.search import N_STATS

            return search_batch(self, cfg, start, count, np.zeros(N_STATS, dtype=np.int64))
        from sim.games.virus_dogs.kernel import run_fast

        return run_fast(self, cfg, start, count)

    def play_reference(self, cfg: RunConfig, index: int, log: list | None = None, wrap=None) -> Engine:
        rng = Rng(cfg.seed, index)
        seats = self.seat_params(cfg, index)
        agent = self.reference_agent(cfg, index, Bots([BotAgent(b, values, rng) for b, values in seats]), wrap)
        eng = Engine(Rules(cfg.params), cfg.players, rng, agent, log)
        if log is not None:
            log.append("seats: " + ", ".join(f"P{s}={b}" for s, (b, _) in enumerate(seats)))
        eng.setup()
        eng.play()
        return eng

    def record(self, eng: Engine, raw, row: int) -> None:
        games, seats, density, draws, deck = raw
        games[:, row] = eng.g
        seats[:, row * eng.n:(row + 1) * eng.n] = np.array(eng.s, dtype=np.int32).T
        for turn_end in eng.density:
            tb.density_row(density, *turn_end)
        for i, (size, vdeck) in enumerate(eng.draw_series):
            tb.draw_row(draws, min(i, tb.DRAW_ROWS - 1), size, vdeck)
            tb.draw_row(deck, tb.deck_bucket(size, eng.start_deck), size, vdeck)

    def build_tables(self, cfg: RunConfig, start: int, count: int, raw) -> dict:
        return tb.build(cfg, start, count, *raw)

    def scenario(self, spec: dict[str, Any]) -> dict[str, Any]:
        from sim.games.virus_dogs.scenario import run_scenario

        return run_scenario(self, spec)


GAME = VirusDogs()
play_reference = GAME.play_reference
