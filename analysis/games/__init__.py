"""Per-game report sections, found by game id.

Each module here exposes ``sections(run) -> list[Section]``. A game plug-in outside this
package names its report module in ``CARDLAB_REPORTS="id=module,id2=module2"`` (the
analysis-side twin of ``CARDLAB_GAMES``); a game without one gets only the shared sections.
"""

from __future__ import annotations

import importlib
import os
from typing import Callable

MODULES = {
    "virus-dogs": "analysis.games.virus_dogs",
    "faking-sick": "analysis.games.faking_sick",
    "daifugo": "analysis.games.daifugo",
}


def _modules() -> dict[str, str]:
    mods = dict(MODULES)
    for item in os.environ.get("CARDLAB_REPORTS", "").split(","):
        name, sep, mod = item.partition("=")
        if sep and name.strip() and mod.strip():
            mods[name.strip()] = mod.strip()
    return mods


def sections_for(game: str) -> Callable | None:
    """The ``sections(run)`` function of a game id, or None when the game has no report module."""
    mod = _modules().get(game)
    return importlib.import_module(mod).sections if mod else None
