"""Fast-engine twins of ``reference_outturn.py``: cards 01 Recycle, 24 Loophole, 25 Dobon.

Imported by ``kernel.py`` after the helpers it uses are defined (it reads them from there).
The windows run only when their card is a law or somebody's precept (``in_play``, checked
once per round), so a card that is not in force costs nothing in the play loop.

Random consumption (both engines): the ``random`` bot draws one ``randbelow`` per decision
(recycle: 1 + discard cards; loophole, dobon: 2); the loophole card is
``randbelow(len(discard))`` over the discard pile in ascending id order.
"""

from __future__ import annotations

import numpy as np

from sim.kernel_util import inl, ix
from sim.rng import randbelow

from . import rules as P
from .bots import BOTS, GREEDY, GREEDY_RECYCLE_HAND, RANDOM
from .kernel import (A0, DECISIONS, DISC, FIELD, H0, JOKER_BITS, LAWS, NONE, OWN0, PASSED, RC_USED,
                     RS0, SETK, STAIRS, ST_DOBONS, ST_LOOPHOLES, ST_RECYCLES, TH, TK, TL, TO, applies, ff_cards,
                     flow_trick, n_active, next_active, next_turn, nth_card, place_top, popcount, reversed_)
from .plays import dobon_targets, dobon_value

RECYCLE_HAND_COL = list(BOTS["strategist"].params).index("recycle_hand")  # column of the bot matrix
DV = np.array([dobon_value(r) for r in range(13)], np.int64)  # §1.2 dobon value per rank index
DOB = np.zeros((14, 14), np.int64)  # values reached by two cards (bit v for value v)
for _a in range(1, 14):
    for _b in range(1, 14):
        DOB[_a, _b] = dobon_targets(_a, _b)


@inl
def in_play(S, c):
    """Card c is a law or somebody's precept."""
    return ((S[LAWS] >> c) & 1) == 1 or S[ix(OWN0 + c)] >= 0


@inl
def bit(c):
    return np.int64(1) << np.int64(c)


# ---- 01 Recycle -----------------------------------------------------------------------
@inl
def strongest_card(mask, rv):
    """The strongest card of a mask under the current order (a joker first; lowest id)."""
    if mask & JOKER_BITS:
        return nth_card(mask & JOKER_BITS, 0)
    for v in range(12, -1, -1):
        r = 12 - v if rv else v
        nib = (mask >> (4 * r)) & 15
        if nib:
            return nth_card(nib << np.int64(4 * r), 0)
    return -1


@inl
def offer_recycle(S, q, pol, recycle_hand, rng):
    """§4.1 / D14: q (once per round, if 01 applies) may take one card of the discard pile."""
    disc = S[DISC]
    if disc == 0 or (S[RC_USED] >> q) & 1 or not S[ix(A0 + q)] or not applies(S, 1, q):
        return
    S[DECISIONS] += 1
    c = -1
    if pol == RANDOM:
        i = randbelow(rng, 1 + popcount(disc))
        if i > 0:
            c = nth_card(disc, i - 1)
    else:
        bar = float(GREEDY_RECYCLE_HAND) if pol == GREEDY else recycle_hand
        if float(popcount(S[ix(H0 + q)])) <= bar:
            c = strongest_card(disc, reversed_(S))
    if c >= 0:
        S[DISC] &= ~bit(c)
        S[ix(H0 + q)] |= bit(c)
        S[RC_USED] |= bit(q)
        S[RS0 + ST_RECYCLES] += 1


@inl
def window_recycle(S, n, pols, prms, seatpos, rng, leader):
    """W-flow / W-trim (DEC-29): offered clockwise from the next leader; first taker wins."""
    for i in range(n):
        q = (leader + i) % n
        pos = seatpos[q]
        offer_recycle(S, q, pols[pos], prms[pos, RECYCLE_HAND_COL], rng)


# ---- 24 Loophole ----------------------------------------------------------------------
@inl
def may_loophole(S, pv, p):
    """§4.24 / DEC-50: every card of p's hand is a forbidden-finish card (never under 04)."""
    hand = S[ix(H0 + p)]
    if S[DISC] == 0 or hand == 0 or not applies(S, 24, p) or applies(S, 4, p):
        return False
    return (hand & ~ff_cards(S, pv, p)) == 0


@inl
def window_loophole(S, pv, p, pol, rng):
    """D15: up to ``loophole_uses_per_turn`` random discard cards while eligible."""
    for _ in range(pv[P.P_LOOPHOLE_USES]):
        if not may_loophole(S, pv, p):
            return
        S[DECISIONS] += 1
        if pol == RANDOM:
            if randbelow(rng, 2) == 0:
                return
        elif (S[DISC] & ~ff_cards(S, pv, p)) == 0:  # bots.decide_loophole: no card to finish on
            return
        disc = S[DISC]
        c = nth_card(disc, randbelow(rng, popcount(disc)))
        S[DISC] &= ~bit(c)
        S[ix(H0 + p)] |= bit(c)
        S[RS0 + ST_LOOPHOLES] += 1


# ---- 25 Dobon -------------------------------------------------------------------------
@inl
def may_dobon(S, pv, q):
    """§4.25 / DEC-51: two cards, no joker, reaching the top play's value; not one's own play."""
    hand = S[ix(H0 + q)]
    if popcount(hand) != 2 or q == S[TO] or not S[ix(A0 + q)] or hand & JOKER_BITS or not applies(S, 25, q):
        return False
    if S[TK] == SETK:
        t = DV[ix(S[TL])]
    elif S[TK] == STAIRS and pv[P.P_DOBON_STAIRS]:
        t = DV[ix(S[TH])]
    else:
        return False
    a = DV[ix(nth_card(hand, 0) // 4)]
    b = DV[ix(nth_card(hand, 1) // 4)]
    return ((DOB[ix(a), ix(b)] >> t) & 1) == 1


@inl
def calls_dobon(S, pol, rng):
    S[DECISIONS] += 1
    return randbelow(rng, 2) == 1 if pol == RANDOM else True


@inl
def do_dobon(S, pv, n, q):
    """DEC-13: q goes out with both cards (never forbidden); the field flows to the next
    player from q (``dobon_flows``). True when the field flowed or the round ended."""
    S[FIELD] |= S[ix(H0 + q)]
    S[ix(H0 + q)] = 0
    S[RS0 + ST_DOBONS] += 1
    S[ix(A0 + q)] = 0
    S[PASSED] &= ~bit(q)
    place_top(S, pv, n, q)
    if n_active(S, n) <= 1:
        return True
    if pv[P.P_DOBON_FLOWS]:
        flow_trick(S, pv, n, next_active(S, n, q))
        return True
    return False


@inl
def window_dobon(S, pv, n, p, pols, seatpos, rng):
    """S11 window (i) after p's play: clockwise from the player after p; first caller wins."""
    for i in range(1, n):
        q = (p + i) % n
        if may_dobon(S, pv, q) and calls_dobon(S, pols[seatpos[q]], rng):
            return do_dobon(S, pv, n, q)
    return False


# ---- turn start -----------------------------------------------------------------------
@inl
def start_of_turn(S, pv, n, p, pol, recycle_hand, rng, live01, live24, live25):
    """Dobon (ii), loophole, recycle W-start; True when p called a dobon."""
    if live25 and S[TK] != NONE and S[TO] != p and may_dobon(S, pv, p) and calls_dobon(S, pol, rng):
        if not do_dobon(S, pv, n, p):
            next_turn(S, pv, n, p)
        return True
    if live24:
        window_loophole(S, pv, p, pol, rng)
    if live01:
        offer_recycle(S, p, pol, recycle_hand, rng)
    return False
