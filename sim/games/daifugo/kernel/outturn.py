"""Fast engine, the out-of-turn and turn-start rules: cards 01 Recycle, 24 Loophole and 25 Dobon
(§4.1, §4.24, §4.25; windows DEC-29, DEC-50, DEC-51). The reference engine's twin:
``reference/outturn.py``.

The windows run only when their card is a law or somebody's precept (``in_play``, checked once
per round by ``driver.play_round``), so a card that is not in force costs nothing in the play
loop. Random consumption (both engines): the loophole card is ``randbelow(len(discard))`` over
the discard pile in ascending id order; the bots' draws are ``bots.py``'s.
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import inl, ix
from sim.kit.rng import randbelow_at

from .. import rules as R
from ..plays import dobon_targets, dobon_value
from .bots import decide_dobon, decide_loophole, decide_recycle
from .resolve import flow_trick, next_turn, place_top
from .state import (A0, DISC, FIELD, H0, JOKER_BITS, NONE, PASSED, PV, RC_DOBONS, RC_LOOPHOLES, RC_RECYCLES, RC_USED,
                    RNG, SETK, STAIRS, TH, TK, TL, TO, applies, bit, forbidden_finish_cards, n_active, next_active,
                    nth_card, popcount, taboo)

DV = np.array([dobon_value(r) for r in range(13)], np.int64)  # §1.2 dobon value per rank index
DOB = np.zeros((14, 14), np.int64)  # values reached by two cards (bit v for value v)
for _a in range(1, 14):
    for _b in range(1, 14):
        DOB[_a, _b] = dobon_targets(_a, _b)


@inl
def start_of_turn(b, n, p, live01, live24, live25):
    """Turn-start windows of p: dobon (ii), loophole, recycle W-start (``live*``: the card is in
    play this round). True when p called a dobon (the turn is over)."""
    if live25 and b[TK] != NONE and b[TO] != p and may_dobon(b, p) and decide_dobon(b, p):
        if not dobon(b, n, p):
            next_turn(b, n, p)
        return True
    if live24:
        window_loophole(b, p)
    if live01:
        offer_recycle(b, p)
    return False


# ---- 01 Recycle -------------------------------------------------------------------------------------
@inl
def offer_recycle(b, q):
    """§4.1 / D14: q (once per round, if 01 applies) may take one card of the discard pile."""
    if b[DISC] == 0 or (b[RC_USED] >> q) & 1 or not b[ix(A0 + q)] or not applies(b, R.C01_RECYCLE, q):
        return
    c = decide_recycle(b, q)
    if c >= 0:
        b[DISC] &= ~bit(c)
        b[ix(H0 + q)] |= bit(c)
        b[RC_USED] |= bit(q)
        b[RC_RECYCLES] += 1


@inl
def window_recycle(b, n, leader):
    """§2.11.5 step 4 / DEC-29: W-flow (after a trick end) and W-trim (before the first lead),
    offered clockwise from the next leader; the first taker gets the card (QA-01.2)."""
    for i in range(n):
        offer_recycle(b, (leader + i) % n)


# ---- 24 Loophole ------------------------------------------------------------------------------------
@inl
def may_loophole(b, p):
    """§4.24 / DEC-50: every card of p's hand is a forbidden-finish card (never under 04)."""
    hand = b[ix(H0 + p)]
    if b[DISC] == 0 or hand == 0 or not applies(b, R.C24_LOOPHOLE, p) or taboo(b, p):
        return False
    return (hand & ~forbidden_finish_cards(b, p)) == 0


@inl
def window_loophole(b, p):
    """§4.24 / DEC-50 / D15: up to ``loophole_uses_per_turn`` times, p may take a uniformly random
    card of the discard pile (QA-24.1: ascending ids, ``randbelow``)."""
    for _ in range(b[PV + R.P_LOOPHOLE_USES]):
        if not may_loophole(b, p) or not decide_loophole(b, p):
            return
        disc = b[DISC]
        c = nth_card(disc, randbelow_at(b, RNG, popcount(disc)))
        b[DISC] &= ~bit(c)
        b[ix(H0 + p)] |= bit(c)
        b[RC_LOOPHOLES] += 1


# ---- 25 Dobon ---------------------------------------------------------------------------------------
@inl
def may_dobon(b, q):
    """§4.25 / DEC-51: two cards, no joker, reaching the top play's value; not one's own play."""
    hand = b[ix(H0 + q)]
    if popcount(hand) != 2 or q == b[TO] or not b[ix(A0 + q)] or hand & JOKER_BITS or not applies(b, R.C25_DOBON, q):
        return False
    if b[TK] == SETK:
        t = DV[ix(b[TL])]
    elif b[TK] == STAIRS and b[PV + R.P_DOBON_STAIRS]:
        t = DV[ix(b[TH])]
    else:
        return False
    a = DV[ix(nth_card(hand, 0) // 4)]
    c = DV[ix(nth_card(hand, 1) // 4)]
    return ((DOB[ix(a), ix(c)] >> t) & 1) == 1


@inl
def window_dobon(b, n, p):
    """S11 window (i) after p's play: clockwise from the player after p; the first caller goes
    out (D16). True when the field flowed or the round ended."""
    for i in range(1, n):
        q = (p + i) % n
        if may_dobon(b, q) and decide_dobon(b, q):
            return dobon(b, n, q)
    return False


@inl
def dobon(b, n, q):
    """§4.25 / DEC-13: q plays both cards out of turn and goes out (never forbidden, QA-25.2; no
    rank effects); the field flows and the next active player from q leads (``dobon_flows``;
    else the trick goes on). True when the field flowed or the round ended."""
    b[FIELD] |= b[ix(H0 + q)]
    b[ix(H0 + q)] = 0
    b[RC_DOBONS] += 1
    b[ix(A0 + q)] = 0
    b[PASSED] &= ~bit(q)
    place_top(b, n, q)
    if n_active(b, n) <= 1:
        return True
    if b[PV + R.P_DOBON_FLOWS]:
        flow_trick(b, n, next_active(b, n, q))
        return True
    return False
