"""The search bot's parameters (``sim.search``), declared once for every game (no numba here)."""

from __future__ import annotations

from sim.config import BotParam

MAX_BUDGET = 1_000_000


def search_params(rollout_bots: dict[str, int], objectives: tuple[str, ...]) -> tuple[BotParam, ...]:
    """The ``BotParam`` rows of a game's search bot: ``rollout_bots`` maps the scripted bots
    that can play its rollouts to their policy codes; ``objectives`` names the objective codes
    0, 1, ... the game scores."""
    bots = ", ".join(f"{code} {name}" for name, code in rollout_bots.items())
    goals = ", ".join(f"{i} {name}" for i, name in enumerate(objectives))
    return (
        BotParam("budget", 1.0, float(MAX_BUDGET), "search: rollouts per decision, spread over the legal options"),
        BotParam("determinizations", 0.0, float(MAX_BUDGET),
                 "search: re-dealt worlds per decision (0: one per rollout of each option)"),
        BotParam("rollout", float(min(rollout_bots.values())), float(max(rollout_bots.values())),
                 f"search: the scripted bot that plays the rollouts ({bots})"),
        BotParam("objective", 0.0, float(len(objectives) - 1), f"search: what a rollout scores ({goals})"),
        BotParam("horizon", 0.0, 1e6, "search: turns a rollout plays before it is scored on the position "
                 "(0: until what it scores is decided)"),
    )
