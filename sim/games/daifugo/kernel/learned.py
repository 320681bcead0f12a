"""Fast engine, the learned bot's plays: the features of a ``play`` option (twins of
``learned.py``'s ``reference_features``) read from the move table, and the choice, the option
whose features weigh most by the seat's ``w_*`` bot parameters (the first of equals), as
``sim.kit.learned.best_option``; ``features_of`` gives them at a pending decision."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import fn, ix

from .. import rules as R
from ..reference.bots import BOT_PARAM_NAMES
from ..reference.learned import (F_BREAKS_SET, F_CARDS, F_FORBIDDEN_FINISH, F_GOING_OUT, F_JOKERS, F_LEAD_STRENGTH,
                       F_LEAVES_FORBIDDEN, F_PASS, F_PASS_HAND, F_PASS_OPP, F_REST_RANKS, F_REVOLUTION, F_STRENGTH,
                       F_TOP_RANK, FEATURES, NFEAT)
from .state import (A0, H0, LFEAT, MC, MH, MJK, MK, ML, MMASK, NONE, NP, REV, SETK, TK, bot_param, finish_forbidden,
                    forbidden_finish_cards, move_revolts, mv, mvalue, popcount, reversed_)

B_W0 = BOT_PARAM_NAMES.index("w_" + FEATURES[0])  # the weights' bot parameter columns, in FEATURES order
assert BOT_PARAM_NAMES[B_W0:B_W0 + NFEAT] == tuple("w_" + f for f in FEATURES)


@fn
def fewest_opponent_cards(b, p):
    """``learned.fewest_opponent_cards``: the fewest cards an opponent of p still in the round holds."""
    fewest = 0
    first = True
    for q in range(b[NP]):
        if q != p and b[ix(A0 + q)]:
            c = popcount(b[ix(H0 + q)])
            if first or c < fewest:
                fewest = c
                first = False
    return fewest


@fn
def natural_ranks(cards):
    """``learned.natural_ranks``: the natural ranks among the card mask ``cards``."""
    n = 0
    for r in range(13):
        if (cards >> np.int64(4 * r)) & 15:
            n += 1
    return n


@fn
def option_features(b, p, option, out, at):
    """The features of play option ``option`` (a move-table row, or -1 for a pass) of seat p into
    ``out[at:at + NFEAT]``."""
    for k in range(NFEAT):
        out[ix(at + k)] = 0
    hand = b[ix(H0 + p)]
    if option < 0:
        out[ix(at + F_PASS)] = 1
        out[ix(at + F_PASS_HAND)] = popcount(hand)
        out[ix(at + F_PASS_OPP)] = fewest_opponent_cards(b, p)
        out[ix(at + F_REST_RANKS)] = natural_ranks(hand)
        return
    m = option
    rv = reversed_(b)
    strongest = R.R3 if rv else R.R2
    kind = mv(b, m, MK)
    count = mv(b, m, MC)
    mask = mv(b, m, MMASK)
    jokers = mv(b, m, MJK)
    out[ix(at + F_CARDS)] = count
    out[ix(at + F_STRENGTH)] = mvalue(kind, mv(b, m, ML), mv(b, m, MH), rv)
    out[ix(at + F_JOKERS)] = jokers
    out[ix(at + F_TOP_RANK)] = popcount((mask >> np.int64(4 * strongest)) & 15)
    if kind == SETK and count - jokers < popcount((hand >> np.int64(4 * mv(b, m, ML))) & 15):
        out[ix(at + F_BREAKS_SET)] = 1
    revolts = move_revolts(b, m, p)
    rest = hand & ~mask
    if rest == 0:
        out[ix(at + F_GOING_OUT)] = 1
        if finish_forbidden(b, p, m, b[TK], rv, b[REV] == 1, revolts):
            out[ix(at + F_FORBIDDEN_FINISH)] = 1
    elif (rest & ~forbidden_finish_cards(b, p)) == 0:
        out[ix(at + F_LEAVES_FORBIDDEN)] = 1
    out[ix(at + F_REVOLUTION)] = 1 if revolts else 0
    out[ix(at + F_REST_RANKS)] = natural_ranks(rest)
    if b[TK] == NONE:
        out[ix(at + F_LEAD_STRENGTH)] = out[ix(at + F_STRENGTH)]


@fn
def learned_play(b, p, nm, can_pass):
    """The learned bot's play among [pass (``can_pass``)] + the ``nm`` moves: the move index, or
    -1 for a pass; the highest weighted sum of features, the first of equals."""
    nopt = nm + (1 if can_pass else 0)
    best = 0
    best_score = 0.0
    for j in range(nopt):
        option = j - 1 if can_pass else j
        option_features(b, p, option, b, LFEAT)
        score = 0.0
        for k in range(NFEAT):
            score += bot_param(b, p, B_W0 + k) * b[ix(LFEAT + k)]
        if j == 0 or score > best_score:
            best = j
            best_score = score
    return best - 1 if can_pass else best


@njit(cache=True, error_model="numpy")
def features_of(b, seat, kind, options, n):
    """The features of the ``n`` play options ``options`` (step-contract codes: -1 a pass, else a
    move-table row) of ``seat``'s pending decision (int64[n, NFEAT]; ``sim.kit.learned`` records them
    at the search's play decisions)."""
    out = np.zeros(n * NFEAT, dtype=np.int64)
    for j in range(n):
        option_features(b, seat, options[j], out, j * NFEAT)
    return out.reshape(n, NFEAT)
