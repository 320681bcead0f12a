"""Game registry: game id -> plug-in module (imported on first use).

This is the one place a game is registered. Everything else about it, its report module and
the prefixes of its rule IDs included, its plug-in (``GAME``, a ``sim.games.base.Game``)
declares. A game kept outside this package registers through ``CARDLAB_GAMES``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os

from sim.kit.config import ConfigError

MODULES = {
    "virus-dogs": "sim.games.virus_dogs",
    "faking-sick": "sim.games.faking_sick",
    "daifugo": "sim.games.daifugo",
}


def _modules() -> dict[str, str]:
    """Built-in games plus extra plug-ins from ``CARDLAB_GAMES="id=module,id2=module2"``."""
    mods = dict(MODULES)
    for item in os.environ.get("CARDLAB_GAMES", "").split(","):
        name, sep, mod = item.partition("=")
        if sep and name.strip() and mod.strip():
            mods[name.strip()] = mod.strip()
    return mods


def available() -> list[str]:
    """Game ids whose package is present."""
    out = []
    for name, mod in _modules().items():
        try:
            if importlib.util.find_spec(mod) is not None:
                out.append(name)
        except ModuleNotFoundError:
            pass
    return out


def check_game(name: str) -> str:
    """``name`` if it is a game id, else a one-line ConfigError; imports no game."""
    if name not in available():
        raise ConfigError(f"unknown game '{name}'; known: {', '.join(available()) or 'none'}")
    return name


def get_game(name: str):
    """The ``GAME`` object of a game id, or a one-line ConfigError."""
    return importlib.import_module(_modules()[check_game(name)]).GAME
