"""Game registry: game id -> plug-in module (imported on first use)."""

from __future__ import annotations

import importlib
import importlib.util

from sim.config import ConfigError

MODULES = {
    "virus-dogs": "sim.games.virus_dogs",
    "faking-sick": "sim.games.faking_sick",
    "daifugo": "sim.games.daifugo",
}


def available() -> list[str]:
    """Game ids whose package is present."""
    out = []
    for name, mod in MODULES.items():
        if importlib.util.find_spec(mod) is not None:
            out.append(name)
    return out


def get_game(name: str):
    """The ``GAME`` object of a game id, or a one-line ConfigError."""
    if name not in available():
        raise ConfigError(f"unknown game '{name}'; known: {', '.join(available()) or 'none'}")
    return importlib.import_module(MODULES[name]).GAME
