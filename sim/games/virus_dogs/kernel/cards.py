"""Virus Dogs' fast engine: viruses and elimination (VD-6, VD-18.4, VD-19, VD-21), the action
cards (VD-13..VD-18) and the bat (VD-8), as the reference engine's methods of the same names
(the module map: ``kernel/__init__.py``).

The reference engine's exceptions are flags here: ``finish`` sets ``over`` (GameOver),
``eliminate`` sets ``turn_ended`` when the current player is out (TurnEnds); the callers
test them. ``limbo`` holds the cards a mask or black market took and has not yet resolved
(``remove_player`` puts them in the hand).
"""

from __future__ import annotations

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.kernel.bots import give_card, yes_no
from sim.games.virus_dogs.kernel.state import (
    AMB, ANT, BAT, C_CONTROL, C_COUGH, C_QUARANTINE, C_VOLUNTARY, F_HS, F_LIVE, F_O, F_SUS, F_T,
    K_COUGH, K_COUGH_VIRUS, K_REFUSE_EXC, LAST_HQ, LAST_NORMAL, NF, NO, NOX, NO_WINNER, NS, NT,
    N_TYPES, ONE, O_GIVEN, O_GM, O_H, O_LIMBO, O_LOS, O_P, O_PL, O_REFUSED, O_SM, P_ALLSHARED,
    P_AMBREACT, P_ANTCOUGH, P_BATADD, P_DPC, P_ELIMDEST, P_EXREF, P_THR, S_CUR, S_DOCS, S_DSIZE,
    S_INHQ, S_KTOP, S_LIMBO, S_N, S_NLIVE, S_OVER, S_PEND, S_RES, S_STEPPED, S_TEND, S_TURN,
    S_U_CHANGED, TP, V, X_COUGH, YES, draw_event, exchange_gift, first_draw, hand_shown, left_of, put_bottom,
    put_top, right_of, shuffle_deck, take_top, to_discard, to_hand, touch_top,
)
from sim.kit.kernel_util import fn, inl, ix


# ============================================================================================
# viruses and elimination (VD-6, VD-18.4, VD-19, VD-21)
# ============================================================================================
@inl
def declare_voluntary(b, p):
    """VD-6.3: move one hidden virus to the open area."""
    b[ix(O_H + p * NT + V)] -= 1
    b[ix(O_PL + p * NF + F_HS)] -= 1
    b[ix(O_SM + p * NS + tb.S_VOLUNTARY)] += 1
    open_viruses(b, b[S_N], p, ONE, C_VOLUNTARY, p)


@fn
def open_viruses(b, n, p, k, cause, inst):
    """VD-6.6 / VD-19.1: O += k, then the elimination check."""
    b[ix(O_PL + p * NF + F_O)] += k
    if b[ix(O_PL + p * NF + F_O)] >= b[O_P + P_THR] and not reactive_ambulance(b, n, p):
        b[O_LOS + 0] = p
        eliminate(b, n, ONE, cause, inst)


@fn
def reactive_ambulance(b, n, p):
    """VD-18.4: with ``ambulance_reactive``, a held AMB is played before the elimination check."""
    if b[O_P + P_AMBREACT] and b[ix(O_H + p * NT + AMB)] > 0:
        to_discard(b, p, AMB)
        ambulance_effect(b, n, p)
        return True
    return False


@fn
def eliminate(b, n, nl, cause, inst):
    """VD-19.3 for the ``nl`` seats in ``losers`` (simultaneously), then the game-end check
    (VD-21) and VD-4.8 (the current player is out: the turn ends)."""
    for i in range(nl):
        remove_player(b, b[ix(O_LOS + i)], cause, inst)
    if b[S_NLIVE] == 1:
        finish(b, n, LAST_HQ if b[S_INHQ] else LAST_NORMAL, NO)
        return
    if b[S_NLIVE] == 0:
        if b[O_P + P_ALLSHARED] == 1:
            finish_losers(b, nl)
        else:
            b[O_GM + tb.G_WINNER] = -1
            b[O_GM + tb.G_NWIN] = 0
            b[O_GM + tb.G_OUTCOME] = NO_WINNER
            b[S_OVER] = 1
        return
    if not b[S_INHQ]:
        for i in range(nl):
            if b[ix(O_LOS + i)] == b[S_CUR]:
                b[S_TEND] = 1


@fn
def remove_player(b, p, cause, inst):
    """VD-19.3: every virus to the deck bottom, other cards per ``eliminated_hand_destination``
    (no game-end check)."""
    if b[S_STEPPED]:
        hand_shown(b, p)
    turn = b[S_TURN] if b[S_INHQ] else b[S_TURN] - 1
    b[ix(O_SM + p * NS + tb.S_ELIM_OPEN)] = b[ix(O_PL + p * NF + F_O)]
    b[ix(O_SM + p * NS + tb.S_ELIM_HIDDEN)] = b[ix(O_H + p * NT + V)]
    b[ix(O_SM + p * NS + tb.S_ELIM_T)] = b[ix(O_PL + p * NF + F_T)]
    b[ix(O_SM + p * NS + tb.S_DOC_WASTED)] += b[ix(O_PL + p * NF + F_T)]
    b[ix(O_SM + p * NS + tb.S_ELIM)] = 1
    b[ix(O_SM + p * NS + tb.S_CAUSE)] = cause
    b[ix(O_SM + p * NS + tb.S_ELIM_TURN)] = turn
    b[ix(O_SM + p * NS + tb.S_INSTIGATOR)] = inst
    if inst != p:
        b[ix(O_SM + inst * NS + tb.S_KILLS)] += 1
    b[ix(O_GM + tb.G_ELIM0 + cause)] += 1
    if b[S_INHQ]:
        b[O_GM + tb.G_HQ_ELIMS] += 1
    if b[O_GM + tb.G_FIRST_ELIM] < 0:
        b[O_GM + tb.G_FIRST_ELIM] = turn
    b[ix(O_PL + p * NF + F_LIVE)] = 0
    b[S_NLIVE] -= 1
    if p == b[S_CUR] and not b[S_INHQ]:
        # Eliminated mid-draw: the draw phase ends (VD-5.5); cards still being taken join the hand.
        return_pending(b)
        limbo_to_hand(b, p)
    put_bottom(b, V, b[ix(O_PL + p * NF + F_O)] + b[ix(O_H + p * NT + V)])
    b[ix(O_PL + p * NF + F_O)] = 0
    b[ix(O_PL + p * NF + F_T)] = 0
    b[ix(O_H + p * NT + V)] = 0
    dest = b[O_P + P_ELIMDEST]
    for c in range(N_TYPES):
        if dest != 0:
            for _ in range(b[ix(O_H + p * NT + c)]):
                put_bottom(b, c, ONE)
        b[ix(O_H + p * NT + c)] = 0
    b[ix(O_PL + p * NF + F_HS)] = 0
    if dest == 2:
        shuffle_deck(b)


@inl
def return_pending(b):
    """VD-5.5 / VD-7.3 / VD-7.4: pending viruses go back on top, publicly known."""
    while b[S_PEND] > 0:
        b[S_PEND] -= 1
        put_top(b, V)
        b[S_KTOP] += 1


@inl
def limbo_to_hand(b, p):
    """The taken cards not yet resolved join seat p's hand (a bat goes to the discard)."""
    for i in range(b[S_LIMBO]):
        c = b[ix(O_LIMBO + i)]
        if c != BAT:
            to_hand(b, p, c, NO)
    b[S_LIMBO] = 0


@fn
def finish(b, n, outcome, fewest_open_only):
    """VD-21: every live seat wins (or, with ``fewest_open_only``, those with the fewest open
    viruses); the game is over."""
    least = 1 << 30
    if fewest_open_only:
        for s in range(n):
            if b[ix(O_PL + s * NF + F_LIVE)] and b[ix(O_PL + s * NF + F_O)] < least:
                least = b[ix(O_PL + s * NF + F_O)]
    cnt = 0
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)] and (not fewest_open_only or b[ix(O_PL + s * NF + F_O)] == least):
            if cnt == 0:
                b[O_GM + tb.G_WINNER] = s
            cnt += 1
            b[ix(O_SM + s * NS + tb.S_WIN)] = 1
    b[O_GM + tb.G_NWIN] = cnt
    b[O_GM + tb.G_OUTCOME] = outcome
    b[S_OVER] = 1


@fn
def finish_losers(b, nl):
    """VD-21.3 ``shared_win``: the last players, fallen together, share the win."""
    b[O_GM + tb.G_WINNER] = b[O_LOS + 0]
    for i in range(nl):
        b[ix(O_SM + b[ix(O_LOS + i)] * NS + tb.S_WIN)] = 1
        b[O_GM + tb.G_WINNER] = min(b[O_GM + tb.G_WINNER], b[ix(O_LOS + i)])
    b[O_GM + tb.G_NWIN] = nl
    b[O_GM + tb.G_OUTCOME] = LAST_NORMAL
    b[S_OVER] = 1


# ============================================================================================
# action cards (VD-13..VD-18) and the bat (VD-8)
# ============================================================================================
@fn
def control(b, p, t):
    """VD-13: the target reveals the hand; every virus in it becomes open."""
    if b[S_STEPPED]:
        hand_shown(b, t)
    k = b[ix(O_H + t * NT + V)]
    b[ix(O_H + t * NT + V)] = 0
    b[ix(O_PL + t * NF + F_HS)] -= k
    b[ix(O_PL + t * NF + F_SUS)] = 0
    b[ix(O_SM + p * NS + tb.S_EXPOSED)] += k
    if k:
        open_viruses(b, b[S_N], t, k, C_CONTROL, p)


@fn
def quarantine(b, p):
    """VD-14: every live hand is revealed at once; the threshold check runs for all together."""
    n = b[S_N]
    thr = b[O_P + P_THR]
    nl = 0
    for j in range(n):
        s = p + j - n if p + j >= n else p + j
        if not b[ix(O_PL + s * NF + F_LIVE)]:
            continue
        if b[S_STEPPED]:
            hand_shown(b, s)
        k = b[ix(O_H + s * NT + V)]
        b[ix(O_H + s * NT + V)] = 0
        b[ix(O_PL + s * NF + F_HS)] -= k
        b[ix(O_PL + s * NF + F_O)] += k
        b[ix(O_PL + s * NF + F_SUS)] = 0
        b[ix(O_SM + p * NS + tb.S_EXPOSED)] += k
        if b[ix(O_PL + s * NF + F_O)] >= thr:
            b[ix(O_LOS + nl)] = s
            nl += 1
    if nl == 0:
        return
    for i in range(nl):
        if reactive_ambulance(b, n, b[ix(O_LOS + i)]):
            return
    eliminate(b, n, nl, C_QUARANTINE, p)


@fn
def doctor(b, p):
    """VD-17: one treatment step; at ``doctors_per_cure`` an open virus goes to the deck bottom."""
    b[S_DOCS] += 1
    b[ix(O_PL + p * NF + F_T)] += 1
    if b[ix(O_PL + p * NF + F_T)] >= b[O_P + P_DPC]:
        b[ix(O_PL + p * NF + F_O)] -= 1
        b[ix(O_PL + p * NF + F_T)] = 0
        put_bottom(b, V, ONE)
        b[O_GM + tb.G_CURES] += 1
        b[ix(O_SM + p * NS + tb.S_CURES)] += 1


@fn
def ambulance_effect(b, n, p):
    """VD-18.2: every open virus goes to the deck bottom; every T resets (p: the player)."""
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            o = b[ix(O_PL + s * NF + F_O)]
            put_bottom(b, V, o)
            b[O_GM + tb.G_AMB_CURED] += o
            b[ix(O_SM + p * NS + (tb.S_AMB_OWN if s == p else tb.S_AMB_OTHERS))] += o
            b[ix(O_SM + s * NS + tb.S_DOC_WASTED)] += b[ix(O_PL + s * NF + F_T)]
            b[ix(O_PL + s * NF + F_O)] = 0
            b[ix(O_PL + s * NF + F_T)] = 0


@fn
def cough(b, p):
    """VD-15: each other live player, from the caster's left, draws one card face up."""
    n = b[S_N]
    for j in range(1, n):
        q = p + j - n if p + j >= n else p + j
        if not b[ix(O_PL + q * NF + F_LIVE)]:
            continue
        if b[ix(O_H + q * NT + TP)] > 0:
            if yes_no(b, q, K_COUGH, NOX):
                to_discard(b, q, TP)
                b[ix(O_SM + q * NS + tb.S_TP_COUGH)] += 1
                continue
        if b[S_DSIZE] == 0:
            continue
        if b[S_STEPPED]:
            touch_top(b, ONE, ONE)
        c = take_top(b)
        draw_event(b, X_COUGH)
        first_draw(b, q, c)
        if c == BAT:
            bat(b, q, X_COUGH)
        elif c == V:
            if b[O_P + P_ANTCOUGH] and b[ix(O_H + q * NT + ANT)] > 0:
                if yes_no(b, q, K_COUGH_VIRUS, NOX):
                    to_discard(b, q, ANT)
                    b[O_GM + tb.G_ANTISEPTICS] += 1
                    b[ix(O_SM + q * NS + tb.S_ANT0 + X_COUGH)] += 1
                    put_top(b, V)
                    b[S_KTOP] += 1
                    continue
            open_viruses(b, n, q, ONE, C_COUGH, p)
            if b[S_OVER]:
                return
        else:
            to_hand(b, q, c, NO)


@fn
def exchange(b, p):
    """VD-16: select (secretly), refuse with TP (in turn order from the caster), transfer left."""
    n = b[S_N]
    for s in range(n):
        b[ix(O_GIVEN + s)] = -1
        b[ix(O_REFUSED + s)] = 0
    for j in range(n):
        s = p + j - n if p + j >= n else p + j
        if not b[ix(O_PL + s * NF + F_LIVE)] or b[ix(O_PL + s * NF + F_HS)] == 0:
            continue
        c = give_card(b, s)
        if b[S_STEPPED]:
            b[S_U_CHANGED] |= ONE << s
        b[ix(O_H + s * NT + c)] -= 1
        b[ix(O_PL + s * NF + F_HS)] -= 1
        b[ix(O_GIVEN + s)] = c
    for j in range(n):
        s = p + j - n if p + j >= n else p + j
        if not b[ix(O_PL + s * NF + F_LIVE)]:
            continue
        giver = right_of(b, n, s)
        if giver != s and b[ix(O_GIVEN + giver)] >= 0 and b[ix(O_H + s * NT + TP)] > 0:
            if yes_no(b, s, K_REFUSE_EXC, giver):
                to_discard(b, s, TP)
                b[ix(O_SM + s * NS + tb.S_TP_EXCHANGE)] += 1
                b[ix(O_SM + s * NS + tb.S_REFUSALS)] += 1
                b[ix(O_REFUSED + giver)] = 1
    for j in range(n):
        s = p + j - n if p + j >= n else p + j
        c = b[ix(O_GIVEN + s)]
        if c < 0:
            continue
        if b[ix(O_REFUSED + s)]:
            if b[O_P + P_EXREF] == 0:
                to_hand(b, s, c, NO)
            continue
        to = left_of(b, n, s)
        to_hand(b, to, c, YES)
        if b[S_STEPPED]:
            exchange_gift(b, s, to, c)
        if c == V:
            b[ix(O_SM + s * NS + tb.S_PLANTED)] += 1


@fn
def bat(b, p, kind):
    """VD-8: up to ``bat_virus_add`` reserve viruses on top, shuffle (seat p drew it by a draw
    of ``kind``, tables.X_*)."""
    b[ix(O_SM + p * NS + tb.S_BAT0 + kind)] += 1
    k = min(b[O_P + P_BATADD], b[S_RES])
    b[S_RES] -= k
    for _ in range(k):
        put_top(b, V)
    shuffle_deck(b)
    b[O_GM + tb.G_BATS] += 1
    b[O_GM + tb.G_BAT_ADDED] += k
