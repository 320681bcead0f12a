"""Virus Dogs' fast engine: the decisions, who answers them (the seated bot or the step
driver), and the bots, twins of ``bots.BotAgent`` (the module map: ``kernel/__init__.py``).

Each decision is one small function returning the chosen option itself: the heuristic bots
compute it from the state, the random bot picks an index into the legal options in the
canonical order of the reference engine (docs/scenarios/virus-dogs.md) and maps it back, so
only its action choice and the hard-quarantine target choice need an option list. Every
decision starts with ``ask``, which counts it in the ``decisions`` column (tables.py) as
the reference engine's ``ask`` does and says who answers it: the seat's bot policy, or STEP
when the step driver does. The step driver and the learned bot answer from the decision's
legal options (``*_options``, codes per kind as in ``kernel.step_legal``): ``answer`` takes
``step_answer``'s or ``learned_option``'s.
"""

from __future__ import annotations

import numpy as np

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.reference.bots import AGGRESSIVE, CAUTIOUS, LEARNED, RANDOM
from sim.games.virus_dogs.kernel.learned import learned_option, unseen_viruses
from sim.games.virus_dogs.kernel.state import (
    AMB, ANT, A_AMB, A_CGH, A_CTL0, A_DECLARE, A_DOC, A_DRAW, A_END, A_EXC, A_MARKET, A_MASK, A_QRN,
    A_SHF, A_SKIP, BAT, BM, B_BLUFF, B_CTLSUS, B_DRAW2, B_EXSUS, B_QRNSUS, B_REFUSE, B_SKIP,
    B_SUICIDE, CGH, COUNTED_ALL, CTL, DOC, EXC, F_HS, F_LIVE, F_O, F_SUS, F_T, GIVE_SEQ, K_ACTION,
    K_COUGH, K_COUGH_VIRUS, K_GIVE, K_HQ, K_MARKET, K_MASK, K_MORE, K_VIRUS, MSK, NB, NF, NO, NOX,
    NT, N_TYPES, ONE, O_BP, O_DECK, O_GM, O_H, O_OPT, O_P, O_PEEK, O_PL, O_POL, O_POPT, O_PSNAP,
    O_LOPT, O_RNG, O_SCRIPT, O_SPOL, O_SSEAT, PENDING, P_DMAX, P_DMIN, P_DPC, P_DPT, P_PREFIX,
    P_SKIPSCOPE, P_THR, P_UPFRONT, QRN, R_ANT, R_DECLARE, R_HIDE, SHF, STEP, S_BAD, S_CARDS,
    S_COUNTED, S_DOCS, S_DRIVEN, S_DRIVER, S_DSIZE, S_KTOP, S_N, S_OVER, S_PKIND, S_PN, S_PSEAT,
    S_SCRIPTED, S_STOP, S_UDRV, TP, TWO, V, YES, ZERO,
)
from sim.kit.kernel_util import fn, inl, ix, listed, param_float, save_snapshot
from sim.kit.rng import randbelow_at, uniform_at


# ============================================================================================
# who answers a decision (reference: Engine.ask)
# ============================================================================================
@inl
def ask(b, seat):
    """``seat`` is asked for a decision (reference: ``Engine.ask``): counted in the
    ``decisions`` column. Returns who answers it: the seat's bot policy (bots.RANDOM, ...),
    or STEP when the step driver does (the decision then lists its options for
    ``step_answer``). A policy reads STEP only in a game driven through the step contract,
    where ``step_policy`` tells the driver's decisions from the bots': the batch pays one
    compare per decision."""
    b[O_GM + tb.G_DECISIONS] += 1
    p = b[ix(O_POL + seat)]
    if p == STEP:
        p = step_policy(b, seat)
    return p


@fn
def step_policy(b, seat):
    """In a game driven through the step contract: STEP if the step driver answers this
    decision (``driver_option``: the seat's next option applied in this unit, or PENDING when
    the engine stops at it), else the seat's bot policy (the other seats, and every seat once
    the bots play on)."""
    j = b[S_UDRV]
    if j < b[S_SCRIPTED] and b[ix(O_SSEAT + j)] == seat:
        b[S_UDRV] = j + 1
        b[S_DRIVEN] = b[ix(O_SCRIPT + j)]
        return STEP
    if j >= b[S_SCRIPTED] and b[S_STOP] and (b[S_DRIVER] >> seat) & 1:
        b[S_UDRV] = j + 1
        b[S_DRIVEN] = PENDING
        return STEP
    if j < b[S_SCRIPTED] and (b[S_DRIVER] >> seat) & 1:
        b[S_BAD] = 1  # a replay whose driver seat is asked before its applied option's decision
    return b[ix(O_SPOL + seat)]


# ============================================================================================
# the step driver's answers (the pending decision's options, canonical order)
# ============================================================================================
@fn
def step_answer(b, seat, kind, nopt):
    """A decision the step driver answers, its ``nopt`` legal options at ``pending_options``:
    an applied option, or the pending decision. Then the state is saved to ``pending_state``
    and the engine unwinds as at a game end (the bots answer any decision on the way, and no
    draw is summed); ``kernel.resume`` restores that state afterwards."""
    o = b[S_DRIVEN]
    if o != PENDING:
        if not listed(b, O_POPT, nopt, o):
            b[S_BAD] = 1  # a replay whose applied option does not fit (kernel.search): go on legally
            o = b[O_POPT]
        return o
    b[S_PSEAT] = seat
    b[S_PKIND] = kind
    b[S_PN] = nopt
    b[S_STOP] = 0
    b[S_COUNTED] = COUNTED_ALL
    save_snapshot(b, O_PSNAP, ZERO, O_DECK + b[S_DSIZE])
    b[S_OVER] = 1
    return b[O_POPT]


@fn
def answer(b, seat, p, kind, nopt):
    """The answer of the step driver (``p`` STEP: ``step_answer``) or of the learned bot (``p``
    LEARNED: ``learned_option``) to a decision whose ``nopt`` options are listed at
    ``option_list(p)``."""
    if p == STEP:
        return step_answer(b, seat, kind, nopt)
    return learned_option(b, seat, kind, O_LOPT, nopt)


@fn
def listed_answer(b, seat, p, kind, nopt):
    """``answer`` for a decision whose options the engine listed at ``options``."""
    if p == STEP:
        for j in range(nopt):
            b[ix(O_POPT + j)] = b[ix(O_OPT + j)]
        return step_answer(b, seat, kind, nopt)
    return learned_option(b, seat, kind, O_OPT, nopt)


# ============================================================================================
# the option lists for ``answer`` (codes per kind as in ``kernel.step_legal``): each writes
# them at ``at`` and returns their count
# ============================================================================================
@inl
def option_list(p):
    """Where ``answer`` reads the options of policy ``p``: the step driver's pending options,
    or the learned bot's own list (kept apart, so a learned bot answering on the way to a
    game end leaves the pending options alone)."""
    return O_POPT if p == STEP else O_LOPT


@fn
def virus_options(b, at, has_ant):
    """A private virus: [R_ANT,] R_DECLARE, R_HIDE."""
    k = ZERO
    if has_ant:
        b[ix(at)] = R_ANT
        k = ONE
    b[ix(at + k)] = R_DECLARE
    b[ix(at + k + 1)] = R_HIDE
    return k + 2


@fn
def yes_no_options(b, at):
    """A yes/no decision, listed as the reference lists it: 1 (yes), 0 (no)."""
    b[ix(at)] = 1
    b[ix(at + 1)] = 0
    return TWO


@fn
def mask_options(b, at, nopt, prefix):
    """A mask take: the bit sets in order, or (prefix) the prefixes by length."""
    for i in range(nopt):
        b[ix(at + i)] = (ONE << i) - ONE if prefix else i
    return nopt


@fn
def market_options(b, at, m):
    """A black-market take: the peeked indices."""
    for i in range(m):
        b[ix(at + i)] = i
    return m


@fn
def give_options(b, at, seat):
    """An exchange gift: the held card codes in code order."""
    k = ZERO
    for c in range(N_TYPES):
        if b[ix(O_H + seat * NT + c)] > 0:
            b[ix(at + k)] = c
            k += 1
    return k


# ============================================================================================
# the phase-A/C options (VD-4.2, VD-4.4; reference: action_options)
# ============================================================================================
@inl
def action_options(b, p, phase_a):
    """Legal phase-A/C options at O_OPT in canonical order (DP-1, DP-2, DP-8); their count."""
    n = b[S_N]
    nopt = 0
    if b[ix(O_H + p * NT + V)] > 0:
        b[ix(O_OPT + nopt)] = A_DECLARE
        nopt += 1
    if b[ix(O_H + p * NT + CTL)] > 0:
        for t in range(n):
            if t != p and b[ix(O_PL + t * NF + F_LIVE)]:
                b[ix(O_OPT + nopt)] = A_CTL0 + t
                nopt += 1
    if b[ix(O_H + p * NT + QRN)] > 0:
        b[ix(O_OPT + nopt)] = A_QRN
        nopt += 1
    if b[ix(O_H + p * NT + DOC)] > 0 and b[ix(O_PL + p * NF + F_O)] >= 1 and b[S_DOCS] < b[O_P + P_DPT]:
        b[ix(O_OPT + nopt)] = A_DOC
        nopt += 1
    if b[ix(O_H + p * NT + AMB)] > 0:
        b[ix(O_OPT + nopt)] = A_AMB
        nopt += 1
    if b[ix(O_H + p * NT + SHF)] > 0:
        b[ix(O_OPT + nopt)] = A_SHF
        nopt += 1
    if b[ix(O_H + p * NT + CGH)] > 0 and b[ix(O_PL + p * NF + F_O)] >= 1:
        b[ix(O_OPT + nopt)] = A_CGH
        nopt += 1
    if b[ix(O_H + p * NT + EXC)] > 0:
        b[ix(O_OPT + nopt)] = A_EXC
        nopt += 1
    if not phase_a:
        b[ix(O_OPT + nopt)] = A_END
        return nopt + 1
    if b[O_P + P_UPFRONT]:
        for k in range(b[O_P + P_DMIN], b[O_P + P_DMAX] + 1):
            b[ix(O_OPT + nopt)] = A_DRAW + k
            nopt += 1
    else:
        b[ix(O_OPT + nopt)] = A_DRAW
        nopt += 1
    if b[ix(O_H + p * NT + MSK)] > 0 and b[S_DSIZE] > 0:
        b[ix(O_OPT + nopt)] = A_MASK
        nopt += 1
    if b[ix(O_H + p * NT + BM)] > 0 and b[S_DSIZE] > 0:
        b[ix(O_OPT + nopt)] = A_MARKET
        nopt += 1
    if skip_legal(b, O_H + p * NT):
        b[ix(O_OPT + nopt)] = A_SKIP
        nopt += 1
    return nopt


# ============================================================================================
# the bots (twins of bots.BotAgent)
# ============================================================================================
@inl
def choose_action(b, p, phase_a):
    """The phase-A/C ``action`` decision (DP-1, DP-2, DP-8)."""
    pol = ask(b, p)
    if pol == STEP or pol == LEARNED:
        return listed_answer(b, p, pol, K_ACTION, action_options(b, p, phase_a))
    if pol == RANDOM:
        nopt = action_options(b, p, phase_a)
        suicide = b[O_OPT + 0] == A_DECLARE and b[ix(O_PL + p * NF + F_O)] + 1 >= b[O_P + P_THR]
        return b[ix(O_OPT + pick(b, nopt, ZERO if suicide and not allows_suicide(b, p) else NOX))]
    return bot_action(b, b[S_N], p, phase_a, pol)


@inl
def bot_ppm(b, seat, k):
    """Seat ``seat``'s bot parameter ``k`` (B_*) in parts per million, as ``bots.ppm``: the bots
    of both engines compare their thresholds in integers."""
    return np.int64(round(param_float(b[ix(O_BP + seat * NB + k)]) * 1000000.0))


@inl
def allows_suicide(b, seat):
    """The random bot's ``allow_suicide`` parameter (AD-16: off by default)."""
    return bot_ppm(b, seat, B_SUICIDE) >= 500000


@inl
def density_at_least(b, seat, ppm):
    """Estimated virus density (see bots.py) >= ppm / 1e6, in exact integer arithmetic."""
    unknown, pool = unseen_viruses(b, seat)
    if pool <= 0:
        return ppm <= 0
    return unknown * 1000000 >= ppm * pool


@inl
def ctl_target(b, n, seat, use_min, min_sus_ppm):
    thr = b[O_P + P_THR]
    best = -1
    best_sus = -1
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)] and s != seat and b[ix(O_PL + s * NF + F_O)] >= thr - 1 and b[ix(O_PL + s * NF + F_HS)] >= 1 and b[ix(O_PL + s * NF + F_SUS)] > best_sus:
            best = s
            best_sus = b[ix(O_PL + s * NF + F_SUS)]
    if best >= 0 or not use_min:
        return best
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)] and s != seat and b[ix(O_PL + s * NF + F_SUS)] * 1000000 >= min_sus_ppm and b[ix(O_PL + s * NF + F_SUS)] > best_sus:
            best = s
            best_sus = b[ix(O_PL + s * NF + F_SUS)]
    return best


@inl
def bot_action(b, n, seat, phase_a, pol):
    """DP-1, DP-2, DP-8 for the heuristic bots (see bots.BotAgent.on_action): the chosen action
    code, computed from the state without listing the options. Every branch checks the
    legality of what it returns, and the last resort (draw / end) is always legal, so when
    only one option is legal this returns exactly that option."""
    h = O_H + seat * NT
    thr = b[O_P + P_THR]
    o = b[ix(O_PL + seat * NF + F_O)]
    topv = b[S_KTOP] > 0
    hv = b[ix(h + V)]
    can_doc = b[ix(h + DOC)] > 0 and b[S_DOCS] < b[O_P + P_DPT]
    deck = b[S_DSIZE] > 0
    if pol == CAUTIOUS:
        if hv > 0 and o + 1 < thr and (can_doc or b[ix(h + AMB)] > 0):
            return A_DECLARE
        if b[ix(h + AMB)] > 0 and o >= 1 and b[ix(h + DOC)] < b[O_P + P_DPC] - b[ix(O_PL + seat * NF + F_T)]:
            return A_AMB
        if can_doc and o >= 1:
            return A_DOC
        if b[ix(h + CTL)] > 0:
            t = ctl_target(b, n, seat, NO, ZERO)
            if t >= 0:
                return A_CTL0 + t
        if b[ix(h + QRN)] > 0 and hv == 0:
            for s in range(n):
                if b[ix(O_PL + s * NF + F_LIVE)] and s != seat and b[ix(O_PL + s * NF + F_O)] >= thr - 1 and b[ix(O_PL + s * NF + F_SUS)] >= 1:
                    return A_QRN
        if b[ix(h + CGH)] > 0 and o >= 1 and topv:
            return A_CGH
        if b[ix(h + EXC)] > 0 and hv >= 1:
            return A_EXC
        if phase_a and b[ix(h + SHF)] > 0 and topv and b[ix(h + MSK)] == 0 and b[ix(h + BM)] == 0:
            return A_SHF
        if not phase_a:
            return A_END
        if b[ix(h + MSK)] > 0 and deck:
            return A_MASK
        if b[ix(h + BM)] > 0 and deck:
            return A_MARKET
        if skip_legal(b, h) and (topv or density_at_least(b, seat, bot_ppm(b, seat, B_SKIP))):
            return A_SKIP
        return A_DRAW + (b[O_P + P_DMIN] if b[O_P + P_UPFRONT] else 0)
    # aggressive
    if hv > 0 and o == 0 and o + 1 < thr and b[ix(h + CGH)] > 0:
        return A_DECLARE
    if b[ix(h + CGH)] > 0 and o >= 1:
        return A_CGH
    if b[ix(h + CTL)] > 0:
        t = ctl_target(b, n, seat, YES, bot_ppm(b, seat, B_CTLSUS))
        if t >= 0:
            return A_CTL0 + t
    if b[ix(h + QRN)] > 0 and hv == 0:
        tot = 0
        for s in range(n):
            if b[ix(O_PL + s * NF + F_LIVE)] and s != seat:
                tot += b[ix(O_PL + s * NF + F_SUS)]
        if tot * 1000000 >= bot_ppm(b, seat, B_QRNSUS):
            return A_QRN
    if b[ix(h + EXC)] > 0 and hv >= 1:
        return A_EXC
    if can_doc and o >= 1:
        return A_DOC
    if b[ix(h + AMB)] > 0 and o >= 1:
        return A_AMB
    if phase_a and b[ix(h + SHF)] > 0 and topv:
        return A_SHF
    if not phase_a:
        return A_END
    if topv:
        if b[ix(h + BM)] > 0 and deck:
            return A_MARKET
        if b[ix(h + MSK)] > 0 and deck:
            return A_MASK
        if skip_legal(b, h):
            return A_SKIP
    cnt = 0
    if b[O_P + P_UPFRONT]:
        cnt = b[O_P + P_DMAX] if bot_ppm(b, seat, B_DRAW2) >= 500000 else b[O_P + P_DMIN]
    return A_DRAW + cnt


@inl
def skip_legal(b, h):
    """VD-12.2: TP skip needs a TP and, under ``whole_turn``, no card played this turn."""
    return b[ix(h + TP)] > 0 and (b[O_P + P_SKIPSCOPE] == 1 or b[S_CARDS] == 0)


@inl
def pick(b, nopt, excl):
    """The random bot: uniform over ``nopt`` options without index ``excl`` (-1: none); one
    ``randbelow`` when two or more candidates remain, none for a single legal option."""
    if nopt == 1:
        return ZERO
    cands = nopt - 1 if excl >= 0 else nopt
    r = randbelow_at(b, O_RNG, cands) if cands > 1 else ZERO
    if excl >= 0 and r >= excl:
        r += 1
    return r


@inl
def virus_response(b, seat):
    """DP-4, private virus: R_ANT / R_DECLARE / R_HIDE (options: [antiseptic,] declare, hide)."""
    p = ask(b, seat)
    h = O_H + seat * NT
    has_ant = b[ix(h + ANT)] > 0
    if p == STEP or p == LEARNED:
        return answer(b, seat, p, K_VIRUS, virus_options(b, option_list(p), has_ant))
    safe = b[ix(O_PL + seat * NF + F_O)] + 1 < b[O_P + P_THR]
    if p == RANDOM:
        first = R_ANT if has_ant else R_DECLARE
        return first + pick(b, R_HIDE - first + 1, NOX if safe or allows_suicide(b, seat) else R_DECLARE - first)
    if has_ant and (p == CAUTIOUS or not safe):
        return R_ANT
    if safe and ((p == CAUTIOUS and (b[ix(h + DOC)] > 0 or b[ix(h + AMB)] > 0)) or (p == AGGRESSIVE and b[ix(h + CGH)] > 0)):
        return R_DECLARE
    return R_HIDE


@inl
def yes_no(b, seat, kind, giver):
    """A yes/no decision (options: yes, no): ``K_MORE`` draw another card (DP-3 / DP-5),
    ``K_COUGH`` refuse a cough with TP (DP-11), ``K_COUGH_VIRUS`` antiseptic on a face-up
    cough virus (DP-12), ``K_REFUSE_EXC`` refuse ``giver``'s exchange card with TP (DP-14;
    -1 for the others). ``kind`` is a constant at every call, so the inlined code keeps
    only its own rule."""
    p = ask(b, seat)
    if p == STEP or p == LEARNED:
        return answer(b, seat, p, kind, yes_no_options(b, option_list(p))) == 1
    if p == RANDOM:
        return pick(b, TWO, NOX) == 0
    if kind == K_MORE:
        return wants_more(b, seat, p)
    if kind == K_COUGH:
        return refuses_cough(b, seat, p)
    if kind == K_COUGH_VIRUS:
        return antisepticks_cough(b, seat, p)
    return refuses_exchange(b, seat, p, giver)


@inl
def wants_more(b, seat, p):
    """DP-3 / DP-5, heuristic bot ``p``: draw another card."""
    return p == AGGRESSIVE and bot_ppm(b, seat, B_DRAW2) >= 500000 and b[S_KTOP] == 0


@inl
def refuses_cough(b, seat, p):
    """DP-11, heuristic bot ``p``: answer a cough with TP."""
    refuse = b[ix(O_PL + seat * NF + F_O)] + 1 >= b[O_P + P_THR] and b[ix(O_H + seat * NT + ANT)] == 0
    if p == CAUTIOUS:
        refuse = refuse or b[S_KTOP] > 0 or density_at_least(b, seat, bot_ppm(b, seat, B_REFUSE))
    return refuse


@inl
def antisepticks_cough(b, seat, p):
    """DP-12, heuristic bot ``p``: antiseptic on a face-up cough virus."""
    return p == CAUTIOUS or b[ix(O_PL + seat * NF + F_O)] + 1 >= b[O_P + P_THR]


@inl
def refuses_exchange(b, seat, p, giver):
    """DP-14, heuristic bot ``p``: refuse the giver's card with TP."""
    return p == CAUTIOUS and b[ix(O_PL + giver * NF + F_SUS)] * 1000000 >= bot_ppm(b, seat, B_EXSUS)


@inl
def mask_take(b, seat, m):
    """DP-6: the bit set of the ``m`` peeked cards (b[ix(O_PEEK + i)], top first) to take. Options are
    every subset in bit order, or (prefix mode) the prefixes by length."""
    p = ask(b, seat)
    prefix = b[O_P + P_PREFIX]
    nopt = m + 1 if prefix else ONE << m
    if p == STEP or (p == LEARNED and nopt > 1):  # the step driver answers a single option too
        return answer(b, seat, p, K_MASK, mask_options(b, option_list(p), nopt, prefix))
    if nopt == 1:
        return ZERO
    if p == RANDOM:
        i = pick(b, nopt, NOX)
        return (ONE << i) - ONE if prefix else i
    if p == AGGRESSIVE and uniform_at(b, O_RNG) * 1000000.0 < bot_ppm(b, seat, B_BLUFF):
        return ZERO
    want = ZERO
    for i in range(m):
        if wanted(p, b[ix(O_PEEK + i)]):
            want |= ONE << i
        elif prefix:
            break
    return want


@inl
def wanted(p, c):
    """DP-6 / DP-7: a seen card a heuristic bot takes: never a virus, a bat only if aggressive."""
    return c != V and (c != BAT or p == AGGRESSIVE)


@inl
def market_take(b, seat, m):
    """DP-7: index of the peeked card a black market takes."""
    p = ask(b, seat)
    if p == STEP or (p == LEARNED and m > 1):
        return answer(b, seat, p, K_MARKET, market_options(b, option_list(p), m))
    if m == 1:
        return ZERO
    if p == RANDOM:
        return pick(b, m, NOX)
    for i in range(m):
        if wanted(p, b[ix(O_PEEK + i)]):
            return i
    if p == CAUTIOUS:
        for i in range(m):
            if b[ix(O_PEEK + i)] == BAT:
                return i
    return ZERO


@inl
def give_card(b, seat):
    """DP-13: the card code given in an exchange (options: held codes in code order)."""
    p = ask(b, seat)
    if p == STEP or p == LEARNED:
        return answer(b, seat, p, K_GIVE, give_options(b, option_list(p), seat))
    if p != RANDOM:
        for j in range(GIVE_SEQ.shape[0]):
            c = GIVE_SEQ[j]
            if b[ix(O_H + seat * NT + c)] > 0:
                return c
    nopt = give_options(b, O_OPT, seat)
    if nopt == 0:
        return ZERO
    return b[ix(O_OPT + (pick(b, nopt, NOX) if p == RANDOM else ZERO))]


@fn
def hq_choice(b, seat, nopt):
    """DP-19: index of the hard-quarantine target among the seats listed at O_OPT."""
    p = ask(b, seat)
    if p == STEP or p == LEARNED:
        t = listed_answer(b, seat, p, K_HQ, nopt)
        for i in range(nopt):
            if b[ix(O_OPT + i)] == t:
                return np.int64(i)
    if p == RANDOM:
        return pick(b, nopt, NOX)
    best = ZERO
    for i in range(1, nopt):
        s = b[ix(O_OPT + i)]
        w = b[ix(O_OPT + best)]
        so, wo = b[ix(O_PL + s * NF + F_O)], b[ix(O_PL + w * NF + F_O)]
        if so > wo or (so == wo and b[ix(O_PL + s * NF + F_HS)] < b[ix(O_PL + w * NF + F_HS)]):
            best = i
    return best
