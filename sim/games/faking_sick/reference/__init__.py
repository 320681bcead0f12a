"""Reference engine of faking-sick: readable, one method per rule, spec IDs cited.

The engine is decision driven: whenever a player must decide it calls
``agent.decide(engine, player, kind, legal)`` with the legal options (dicts in the scenario
format, docs/scenarios/faking-sick.md); bots and scripted decision lists are interchangeable.
Piles are Python lists: the draw pile's top is its LAST element, the discard pile runs
bottom -> top. Hands are counts per type (hands are multisets, FS-1.3).
"""

from __future__ import annotations

import numpy as np
from sim.games.base import seat_bots
from sim.kit.rng import Rng
from ..rules import NT, TYPES
from ..tables import BANNABLE, GAME_FIELDS, SEAT_FIELDS
from . import bots as B
from .bots import BotAgent
from .state import CALL_OPTIONS, KINDS, GameOver, State
from .turn import Turns

__all__ = ["CALL_OPTIONS", "KINDS", "BotAgent", "FakingSick", "GameOver", "banned_counts", "record", "run_game", "seat_agent"]


class FakingSick(Turns, State):
    """One game of faking-sick in progress: the state (``state.py``) and the game (``turn.py``),
    each the twin of the fast engine's module of that name."""


# ---- whole games --------------------------------------------------------------------
def seat_agent(cfg, index: int) -> tuple[list[str], BotAgent]:
    """The bots of game ``index`` (rotated seats, ``seat_bots``) with resolved parameters."""
    names = seat_bots(cfg, index)
    specs = [B.BOTS[b] for b in names]
    params = [cfg.bot_values(sp) for sp in specs]
    return names, BotAgent(specs, params)


def run_game(cfg, index: int, log: list[str] | None = None, agent=None) -> FakingSick:
    """Set up and play game ``index`` of the run (seeded by ``Rng(cfg.seed, index)`` alone);
    ``agent``: the seats' (default ``seat_agent``'s)."""
    agent = seat_agent(cfg, index)[1] if agent is None else agent
    g = FakingSick(cfg.params, cfg.players, Rng(cfg.seed, index), agent, log)
    g.setup()
    g.play_game()
    return g


def record(g: FakingSick, arr: dict, row: int) -> None:
    """Write one finished game into the result arrays of tables.py."""
    vals = {"winner": g.winner, "turns": g.turns, "win_method": g.win_method,
            "turn_cap": int(g.turn_cap), **g.stats, **g.lead.columns(g.winner)}
    for i, name in enumerate(GAME_FIELDS):
        arr["games"][row, i] = vals[name]
    for s in range(g.n):
        vals = {"final_hand": g.hand_size(s), **g.seat[s], "max_behind": g.lead.max_behind[s],
                **banned_counts("initial", g.initial_banned[s]), **banned_counts("final", g.banned_types(s))}
        for i, name in enumerate(SEAT_FIELDS):
            arr["seats"][row, s, i] = vals[name]
        for t in range(NT):
            for d in range(g.n):
                arr["calls"][t, d, s] += g.call_sums[t][d][s]
            arr["plays"][t, s] += g.play_sums[t][s]
    arr["banned_calls"] += np.array(g.banned_call_sums, dtype=np.int64)


def banned_counts(when: str, types: list[int]) -> dict[str, int]:
    """``{when}_banned_<type>`` seat columns: banned cards of each bannable type (tables.py)."""
    return {f"{when}_banned_{TYPES[t].lower()}": types.count(t) for t in BANNABLE}
