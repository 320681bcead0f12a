"""Daifugō with rule cards: core game, law/precept machinery, the cards of rules.IMPLEMENTED_CARDS.

Rules and rule IDs (§…, DEC-…, QA-…, T-…): docs/rules/daifugo.md.
"""

from .game import GAME

__all__ = ["GAME"]
