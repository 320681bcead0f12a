"""A game's report module and its functions, by game id: what ``analysis.games`` finds the
games' sections and findings with, kept apart so that shared modules below the games' report
modules (``analysis.glossary``) can ask them too."""

from __future__ import annotations

import importlib
from typing import Any

from sim.games import available, get_game


def report_module(game: str) -> str | None:
    """The report module a game's plug-in declares, or None (no such game, or no module)."""
    return get_game(game).report_module if game in available() else None


def hook(game: str, name: str) -> Any:
    """The attribute ``name`` (a function, or a table such as ``GLOSSARY``) of a game's report
    module, or None (no module, or no such attribute)."""
    mod = report_module(game)
    return getattr(importlib.import_module(mod), name, None) if mod else None
