"""Game registry: game id -> plug-in module (imported on first use).

A built-in game is a package directly under ``sim/games/`` (every one but ``base``): its id is
the package name with hyphens for underscores (``virus_dogs`` is ``virus-dogs``), so adding the
package registers it. Everything else about a game, its report module and the prefixes of its
rule IDs included, its plug-in (``GAME``, a ``sim.games.base.Game``) declares. A game kept
outside this package registers through ``CARDLAB_GAMES``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil

from sim.kit.config import ConfigError


def _built_in() -> dict[str, str]:
    """Every package under sim/games/ by its game id, found without importing any."""
    return {info.name.replace("_", "-"): f"{__name__}.{info.name}"
            for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name) if info.ispkg}


MODULES = _built_in()


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
