"""Virus Dogs' learned bot in the fast engine: the option features (twins of ``learned.py``'s
``reference_features``) and the choice, the option whose features weigh most by the seat's
``w_*`` bot parameters (the first of equals), as ``sim.kit.learned.best_option``."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.virus_dogs.kernel.state import (
    AMB, ANT, DOC, A_AMB, A_CGH, A_CTL0, A_DECLARE, A_DOC, A_DRAW, A_END, A_EXC, A_MARKET, A_MASK, A_QRN, A_SHF, A_SKIP,
    B_W0, F_HS, F_LIVE, F_O, K_ACTION, K_COUGH, K_COUGH_VIRUS, K_GIVE, K_HQ, K_MARKET, K_MASK, K_MORE,
    K_REFUSE_EXC, K_VIRUS, NB, NF, NT, O_BP, O_H, O_LFEAT, O_P, O_PEEK, O_PL, P_NVT, P_THR, P_UPFRONT,
    R_ANT, R_DECLARE, R_HIDE, S_DSIZE, S_KTOP, S_N, S_PEND, S_RES, V,
)
from sim.games.virus_dogs.reference.learned import (
    F_ANTISEPTIC, F_CARDS_TAKEN, F_CONTROL, F_COUGH, F_CURE, F_DECLARE, F_DRAW, F_DRAW_RISK, F_END, F_EXCHANGE,
    F_GIVES_VIRUS, F_PEEK, F_QUARANTINE, F_REFUSE, F_SELF_ELIM, F_SHUFFLE, F_SKIP, F_TARGET_OPEN,
    F_VIRUSES_TAKEN, F_DECLARE_CURABLE, F_CURE_OPEN, F_CONTROL_KILL, F_QUARANTINE_CLEAN, F_EXCHANGE_VIRUS,
    F_SKIP_RISK, F_REFUSE_AT_RISK, NFEAT,
)
from sim.kit.kernel_util import fn, inl, ix, param_float


@fn
def density_pct(b, seat):
    """``learned.density_pct``: the estimated virus share of the unseen cards in whole percent."""
    if b[S_KTOP] > 0:
        return 100
    unknown, pool = unseen_viruses(b, seat)
    return unknown * 100 // pool if pool > 0 else 0


@inl
def unseen_viruses(b, seat):
    """The estimated virus density's parts (the bots' and ``learned.density_pct``'s): the
    viruses ``seat`` has not seen, and the unseen cards (deck and the other live hands)."""
    opened = 0
    pool = b[S_DSIZE]
    for s in range(b[S_N]):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            opened += b[ix(O_PL + s * NF + F_O)]
            if s != seat:
                pool += b[ix(O_PL + s * NF + F_HS)]
    return b[O_P + P_NVT] - b[S_RES] - opened - b[ix(O_H + seat * NT + V)] - b[S_PEND], pool


@fn
def option_features(b, seat, kind, option, out, at):
    """The features of ``option`` (the step contract's code) of ``seat``'s decision ``kind`` in
    ``b`` into ``out[at:at + NFEAT]``."""
    for k in range(NFEAT):
        out[ix(at + k)] = 0
    if kind == K_ACTION:
        if option == A_DECLARE:
            declare_features(b, seat, out, at)
        elif option >= A_CTL0 and option < A_QRN:
            out[ix(at + F_CONTROL)] = 1
            out[ix(at + F_TARGET_OPEN)] = b[ix(O_PL + (option - A_CTL0) * NF + F_O)]
        elif option == A_QRN:
            out[ix(at + F_QUARANTINE)] = 1
        elif option == A_DOC or option == A_AMB:
            out[ix(at + F_CURE)] = 1
        elif option == A_SHF:
            out[ix(at + F_SHUFFLE)] = 1
        elif option == A_CGH:
            out[ix(at + F_COUGH)] = 1
        elif option == A_EXC:
            out[ix(at + F_EXCHANGE)] = 1
        elif option == A_END:
            out[ix(at + F_END)] = 1
        elif option == A_MASK or option == A_MARKET:
            out[ix(at + F_PEEK)] = 1
        elif option == A_SKIP:
            out[ix(at + F_SKIP)] = 1
        else:
            out[ix(at + F_DRAW)] = option - A_DRAW if b[O_P + P_UPFRONT] else 1
    elif kind == K_VIRUS:
        if option == R_DECLARE:
            declare_features(b, seat, out, at)
        out[ix(at + F_ANTISEPTIC)] = 1 if option == R_ANT else 0
        out[ix(at + F_VIRUSES_TAKEN)] = 1 if option == R_HIDE else 0
    elif kind == K_MORE:
        out[ix(at + F_DRAW)] = option
    elif kind == K_MASK:
        for i in range(64):
            if option >> i == 0:
                break
            if (option >> i) & 1:
                if b[ix(O_PEEK + i)] == V:
                    out[ix(at + F_VIRUSES_TAKEN)] += 1
                else:
                    out[ix(at + F_CARDS_TAKEN)] += 1
    elif kind == K_MARKET:
        virus = b[ix(O_PEEK + option)] == V
        out[ix(at + F_VIRUSES_TAKEN)] = 1 if virus else 0
        out[ix(at + F_CARDS_TAKEN)] = 0 if virus else 1
    elif kind == K_COUGH or kind == K_REFUSE_EXC:
        out[ix(at + F_REFUSE)] = option
    elif kind == K_COUGH_VIRUS:
        out[ix(at + F_ANTISEPTIC)] = option
    elif kind == K_GIVE:
        out[ix(at + F_GIVES_VIRUS)] = 1 if option == V else 0
    elif kind == K_HQ:
        out[ix(at + F_TARGET_OPEN)] = b[ix(O_PL + option * NF + F_O)]
    if out[ix(at + F_DRAW)] != 0:
        out[ix(at + F_DRAW_RISK)] = out[ix(at + F_DRAW)] * density_pct(b, seat)
    state_features(b, seat, option, out, at)


@inl
def declare_features(b, seat, out, at):
    """A declared virus: ``F_DECLARE``, and ``F_SELF_ELIM`` when it reaches the threshold."""
    out[ix(at + F_DECLARE)] = 1
    out[ix(at + F_SELF_ELIM)] = 1 if b[ix(O_PL + seat * NF + F_O)] + 1 >= b[O_P + P_THR] else 0


@fn
def state_features(b, seat, option, out, at):
    """The features that weigh a move by the seat's hand and the table (after ``option_features``'
    kind features at ``out[at:]``)."""
    h = O_H + seat * NT
    thr = b[O_P + P_THR]
    o = b[ix(O_PL + seat * NF + F_O)]
    if out[ix(at + F_DECLARE)] == 1 and out[ix(at + F_SELF_ELIM)] == 0 and (b[ix(h + DOC)] > 0 or b[ix(h + AMB)] > 0):
        out[ix(at + F_DECLARE_CURABLE)] = 1
    out[ix(at + F_CURE_OPEN)] = out[ix(at + F_CURE)] * o
    if out[ix(at + F_CONTROL)] == 1:
        t = option - A_CTL0
        if b[ix(O_PL + t * NF + F_O)] >= thr - 1 and b[ix(O_PL + t * NF + F_HS)] >= 1:
            out[ix(at + F_CONTROL_KILL)] = 1
    if out[ix(at + F_QUARANTINE)] == 1 and b[ix(h + V)] == 0:
        out[ix(at + F_QUARANTINE_CLEAN)] = 1
    if out[ix(at + F_EXCHANGE)] == 1 and b[ix(h + V)] >= 1:
        out[ix(at + F_EXCHANGE_VIRUS)] = 1
    if out[ix(at + F_SKIP)] == 1:
        out[ix(at + F_SKIP_RISK)] = density_pct(b, seat)
    if out[ix(at + F_REFUSE)] == 1 and o + 1 >= thr and b[ix(h + ANT)] == 0:
        out[ix(at + F_REFUSE_AT_RISK)] = 1


@fn
def learned_option(b, seat, kind, at, nopt):
    """The learned bot's choice among the ``nopt`` option codes at ``b[at:]``: the highest
    weighted sum of features, the first of equals."""
    best = 0
    best_score = 0.0
    for j in range(nopt):
        option_features(b, seat, kind, b[ix(at + j)], b, O_LFEAT)
        score = 0.0
        for k in range(NFEAT):
            score += param_float(b[ix(O_BP + seat * NB + B_W0 + k)]) * b[ix(O_LFEAT + k)]
        if j == 0 or score > best_score:
            best = j
            best_score = score
    return b[ix(at + best)]


@njit(cache=True, error_model="numpy")
def features_of(b, seat, kind, options, n):
    """The features of the ``n`` option codes ``options`` of ``seat``'s pending decision ``kind``
    (int64[n, NFEAT]; ``sim.kit.learned`` records them at the search's decisions)."""
    out = np.zeros(n * NFEAT, dtype=np.int64)
    for j in range(n):
        option_features(b, seat, kind, options[j], out, j * NFEAT)
    return out.reshape(n, NFEAT)
