"""Reference engine for Virus Dogs: readable Python objects, one method per rule (spec VD-…).

The engine is decision driven: whenever a player has two or more legal options it asks that
seat's agent (a bot, or a scripted decision list in scenarios) with the list of legal
options in the canonical order documented in ``docs/scenarios/virus-dogs.md``. A decision
with a single legal option is taken without asking. Randomness comes only from
``sim.kit.rng.Rng`` and follows the protocol written at the top of ``kernel/__init__.py``.
"""

from __future__ import annotations

from .cards import Cards
from .state import SOURCES, GameOver, Player, StartHQ, State, TurnEnds, opt
from .turn import Turns

__all__ = ["SOURCES", "Engine", "GameOver", "Player", "StartHQ", "TurnEnds", "opt"]


class Engine(Turns, Cards, State):
    """One game of Virus Dogs in progress: the state (``state.py``), the cards (``cards.py``) and
    the game loop (``turn.py``), each the twin of the fast engine's module of that name."""
