"""Faking Sick's learned bot in the fast engine: the play options' features (twins of
``learned.py``'s ``reference_features``) and the choice, the option whose features weigh most by
the seat's ``w_*`` bot parameters (the first of equals), as ``sim.kit.learned.best_option``
(``kernel.bots.features_of`` gives them at a pending decision)."""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import fn, ix

from .state import BP_W0, FALLBACK, LEARNED_FEATURES, LFEAT, bot_param, hand_at, size_at
from ..reference.learned import F_BLUFF, F_FALLBACK, F_FALLBACK_HAND, F_GOING_OUT, F_HELD, F_TYPE0, NFEAT
from ..rules import NT


@fn
def option_features(b, p, option, bm, out, at):
    """The features of play option ``option`` (a type code, or FALLBACK) of seat ``p`` (``bm``:
    its banned types' mask) into ``out[at:at + NFEAT]``."""
    for k in range(NFEAT):
        out[ix(at + k)] = 0
    if option == FALLBACK:
        out[ix(at + F_FALLBACK)] = 1
        out[ix(at + F_FALLBACK_HAND)] = b[size_at(p)]
        return
    out[ix(at + F_BLUFF)] = (bm >> option) & 1
    out[ix(at + F_HELD)] = b[hand_at(p, option)]
    out[ix(at + F_GOING_OUT)] = 1 if b[size_at(p)] == 1 else 0
    out[ix(at + F_TYPE0 + option)] = 1


@fn
def learned_play(b, p, legal, bm):
    """The learned bot's play among the option mask ``legal`` (types in code order, then FALLBACK)."""
    best = np.int64(-1)
    best_score = 0.0
    for x in range(NT + 1):
        if (legal >> x) & 1:
            option_features(b, p, x, bm, b, LFEAT)
            s = 0.0
            for k in range(NFEAT):
                s += bot_param(b, p, BP_W0 + k) * b[ix(LFEAT + k)]
            if best < 0 or s > best_score:
                best = np.int64(x)
                best_score = s
    return best


assert len(LEARNED_FEATURES) == NFEAT
