"""Daifugō with rule cards: core game, law/precept machinery and all 25 rule cards.

Rules and rule IDs (§…, DEC-…, QA-…, T-…): docs/rules/daifugo.md.
"""

from .game import GAME

__all__ = ["GAME"]
