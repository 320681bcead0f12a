"""Faking Sick's learned bot (``sim.kit.learned``): the features of a play option (``turn``,
``attack``, ``after_draw``) and of a call option (``call``, D3), reference side;
``kernel/learned.py`` and ``kernel/bots.py`` (``call_features``) compute the same integers from
the state buffer and the option code. The learned bot plays and calls by its weights; it pushes
as the model bots do (bots.py): a push is a multiset of cards, which the search answers but these
features do not describe."""

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
    "call",            # call the play (D3)
    "call_ban_pct",    # call * the call model's chance that the type is banned, whole percent (bots.ban_probability)
    "call_urgent",     # call * the player holds 2 cards or fewer after the play
    "call_winning",    # call * the caller holds no more cards than a push moves
)
NFEAT = len(FEATURES)
F_FALLBACK, F_BLUFF, F_HELD, F_GOING_OUT, F_FALLBACK_HAND, F_TYPE0 = range(6)
F_CALL, F_CALL_BAN_PCT, F_CALL_URGENT, F_CALL_WINNING = range(F_TYPE0 + NT, F_TYPE0 + NT + 4)
KINDS = ("turn", "attack", "after_draw", "call")  # the decisions the learned bot weighs (pushes: bots.py's rules)
POLICY_FILE = Path(__file__).parents[1] / "learned_policy.json"  # the learned bot's default weights
KERNEL_MODULE = "sim.games.faking_sick.kernel.bots"  # features_of: the features at a pending decision


def reference_features(g, s: int, kind: str, o: dict, ctx: dict) -> list[int]:
    """The features of option ``o`` of seat ``s``'s play or call decision ``kind``."""
    f = [0] * NFEAT
    if kind == "call":
        if o["call"]:
            p = ctx["target"]
            f[F_CALL] = 1
            f[F_CALL_BAN_PCT] = int(100.0 * g.ban_estimate(s, p, ctx["played"]))
            f[F_CALL_URGENT] = int(g.hand_size(p) <= 2)
            f[F_CALL_WINNING] = int(g.hand_size(s) <= g.p["push_count"])
        return f
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


assert NFEAT == F_CALL_WINNING + 1
