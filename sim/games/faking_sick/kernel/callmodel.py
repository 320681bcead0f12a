"""The faking-sick kernel's call model (reference ``bots.ban_probability`` / ``ban_estimate``): the
chance, as a seat estimates it, that a played type is banned for its player. The model bots call
by it (``kernel.bots.wants_call``); the learned bot weighs it, at its calls and at its own plays
(``kernel.learned``)."""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import inl, ix

from .state import POOL_SIZE, REVEALED, REV_ALL, cleared_at, size_at, slot_at
from ..rules import K_BPP, K_POOL, K_VOID


@inl
def call_context(b, p):
    """Of p's play under call: ``safe`` (p goes out on it and may not bluff doing so) and the
    banned slots p has filled (the call model's ``p_slots``)."""
    safe = b[size_at(p)] == 0 and b[K_VOID] == 0
    p_slots = np.int64(0)
    for i in range(b[K_BPP]):
        if b[slot_at(b, p, i)] >= 0:
            p_slots += 1
    return safe, p_slots


@inl
def ban_probability(b, q, p, t, p_slots, safe):
    """The call model's estimate (as seen by q) that t is banned for p."""
    if safe or b[cleared_at(p, t)]:
        return 0.0
    own_t = 0
    own_all = 0
    for i in range(b[K_BPP]):
        y = b[slot_at(b, q, i)]
        own_all += y >= 0
        own_t += y == t
    unseen_t = max(0, b[ix(K_POOL + t)] - own_t - b[ix(REVEALED + t)])
    unseen_all = max(1, b[POOL_SIZE] - own_all - b[REV_ALL])
    ratio = min(1.0, unseen_t / unseen_all)
    miss = 1.0
    for _ in range(p_slots):
        miss *= 1.0 - ratio
    return 1.0 - miss
