"""Faking Sick's learned bot (``sim.kit.learned``): the features of a play option (``turn``,
``attack``, ``after_draw``), reference side; ``kernel/learned.py`` computes the same integers
from the state buffer and the option code. The learned bot plays those decisions; it calls
and pushes as the model bots do (bots.py), with its ``call_*`` parameters."""

from __future__ import annotations

from pathlib import Path

from ..rules import NT, TYPES

FEATURES = (
    "fallback",        # draw / accept / end instead of a play
    "bluff",           # play a type banned for the seat (FS-4.3)
    "held",            # copies held of the type played
    "going_out",       # the play empties the hand
    "fallback_hand",   # fallback * cards in hand
    *("type_" + t.lower() for t in TYPES),  # the type played
)
NFEAT = len(FEATURES)
F_FALLBACK, F_BLUFF, F_HELD, F_GOING_OUT, F_FALLBACK_HAND, F_TYPE0 = range(6)
KINDS = ("turn", "attack", "after_draw")  # the decisions the learned bot weighs (the others: bots.py's rules)
POLICY_FILE = Path(__file__).parents[1] / "learned_policy.json"  # the learned bot's default weights
KERNEL_MODULE = "sim.games.faking_sick.kernel.bots"  # features_of: the features at a pending decision


def reference_features(g, s: int, kind: str, o: dict, ctx: dict) -> list[int]:
    """The features of play option ``o`` of seat ``s``'s decision ``kind``."""
    f = [0] * NFEAT
    size = g.hand_size(s)
    if "card" not in o:
        f[F_FALLBACK] = 1
        f[F_FALLBACK_HAND] = size
        return f
    t = TYPES.index(o["card"])
    f[F_BLUFF] = int(o["bluff"])
    f[F_HELD] = g.hands[s][t]
    f[F_GOING_OUT] = int(size == 1)
    f[F_TYPE0 + t] = 1
    return f


assert NFEAT == F_TYPE0 + NT
