"""Golden playthroughs: three seeded games per registered game, replayed in the reference engine.

``tests/<package>/golden/case-<k>.txt`` (the game id with underscores for hyphens) holds a
header line and the exact play-by-play of ``Game.replay``; ``tests/test_game_contract.py``
compares them character by character. After an intended change of a reference engine or its
log, regenerate them on purpose with ``python -m tests.golden.regenerate`` (or ``make golden``)
and review the diff.
"""

from __future__ import annotations

from pathlib import Path

from sim.kit.config import RunConfig
from sim.kit.search_params import SEARCH, SEARCH_BOTS

ROOT = Path(__file__).parent
REGENERATE = "python -m tests.golden.regenerate"


def cases(game) -> list[tuple[str, RunConfig, int]]:
    """(file name, config, game index) of the three golden games of ``game``: the default
    table, the smallest table and the largest table with every bot seated (seeds 1, 2, 3), the
    search's variants (the all-seeing yardstick, weighted worlds) left out."""
    bots = [b for b in game.bots if b == SEARCH or b not in SEARCH_BOTS]
    small, large = game.min_players, game.max_players
    return [
        ("case-1.txt", game.make_config(seed=1), 0),
        ("case-2.txt", game.make_config(players=small, bots=[bots[i % len(bots)] for i in range(small)], seed=2), 1),
        ("case-3.txt", game.make_config(players=large, bots=[bots[-1 - i % len(bots)] for i in range(large)], seed=3), 2),
    ]


def render(game, cfg: RunConfig, index: int) -> str:
    """Header and play-by-play of game ``index`` of ``cfg``, as stored in a golden file."""
    lines, _ = game.replay(cfg, index)
    header = (f"# {game.name} players={cfg.players} bots={','.join(cfg.bots)} seed={cfg.seed} game={index}"
              f" (regenerate: {REGENERATE})")
    return "\n".join([header, *lines]) + "\n"


def path(game, file_name: str) -> Path:
    """The golden file ``file_name`` of ``game``, in the game's test folder."""
    return ROOT.parent / game.name.replace("-", "_") / "golden" / file_name
