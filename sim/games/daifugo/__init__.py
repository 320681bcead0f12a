"""Daifugō with rule cards: core game, law/precept machinery, play-shaping cards 07/09/14/15/19/21.

Rules and rule IDs (§…, DEC-…, QA-…, T-…): docs/rules/daifugo.md.
"""

from .game import GAME

__all__ = ["GAME"]
