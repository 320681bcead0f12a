"""Fast engine, a play and what follows it: the on-play resolution order S1-S11 of §4.26
(``make_play``, one ``step_*`` function per step, named as the reference engine's), passes,
the next turn and the field flow (§2.11), placements and the capital fall (§2.12, §3.8), card
13's claim and card 18's exchange. The reference engine's twins: ``reference/resolve.py``,
``reference/placement.py``.
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import inl, ix

from .. import rules as R
from .bots import decide_flux, decide_pull_back, decide_revolt, decide_ten_discard
from .state import (A0, AF_CLAIM, BOT0, BP0, DISC, FF0, FIELD, GK, H0, HUNT, HUNT_DONE, JB, JOKER_BITS, JOKERK,
                    KING, LAWS, MC, MFU, MH, MJK, MJR, MK, ML, MMASK, MNR, MSU, NBOT, NL, NONE, NTOP, PASSED, PC,
                    PH, PK, PL, PM, PS, PV, RB0, RC_AF_CAPITAL_FALLS, RC_AF_CLAIMS, RC_AF_FIZZLES, RC_AF_FROM_BOTTOM,
                    RC_AF_PROMOTIONS, RC_CAPITAL_FALLS, RC_COUNTER_REVOLUTIONS, RC_EIGHT_CUTS, RC_EQUAL_PLAYS,
                    RC_EXILED, RC_FLUX_SWAPS, RC_FORBIDDEN, RC_FUSIONS, RC_GEKI, RC_HUNTS, RC_JBACKS,
                    RC_NUMBER_LOCKS, RC_PASSES, RC_PENDING, RC_PLAYS, RC_PULL_BACKS, RC_PULLED, RC_REVOLUTIONS,
                    RC_SLIPS, RC_SUBSTITUTIONS, RC_SUIT_LOCKS, RC_TABOO_BREAKS, RC_TEN_DISCARDED, RC_TEN_DISCARDS,
                    RC_THREE_RETURNS, RC_THREE_THREES, RC_TRICKS, REMOVED, REV, REVS0, ROUND, SETK, SL, STAIRS, TC,
                    TH, TJ, TK, TL, TM, TN, TO, TOP0, TOTAL, TS, TURN, applies, bit, contains_rank, exile_restricts,
                    is_forbidden, is_hunt_trigger, is_three_return, is_three_threes, mv, mvalue, n_active,
                    next_active, one_step, popcount, rank_count, revolution_size, taboo)


@inl
def make_play(b, n, m, p):
    """§4.26 on-play resolution order S1-S11 (steps of unimplemented cards are no-ops) of move
    m by p; True when the play neither flowed the field nor ended the round (then S11, the
    dobon window, and the next turn follow in ``driver.take_turn``)."""
    r_before, rev_before = b[REV] != b[JB], b[REV] == 1
    fused = mv(b, m, MFU) == 1  # card 02: the row holds the added cards, the top becomes the fused play
    step_cards(b, m, p, fused, r_before)  # S1: cards to the field, the new top play (the old one kept as prev_*)
    revolted = step_revolution(b, m, p, fused)  # S2 (and the 13 claim)
    step_jback(b, m, p)  # S3 (a fusion: the added cards only, DEC-31)
    if not fused:
        step_pull_back(b, m, p)  # S4 (never on a fusion, DEC-31)
    emptied = step_ten_discard(b, m, p)  # S5
    step_hunt(b, m, p, fused)  # S6
    step_flux(b, n, p, revolted)  # S7
    if b[PK] != NONE and not fused:
        step_locks(b, m, p, r_before)  # S8 (a fusion completes the top play: no lock)
    forbidden = False
    if b[ix(H0 + p)] == 0:
        forbidden = step_finish(b, n, m, p, r_before, rev_before, revolted, emptied)  # S9
    if b[AF_CLAIM] >= 0 and b[PV + R.P_AF_MODE] == R.AF_IMMEDIATE:
        confirm_claim(b, n)  # DEC-39 variant: the claim is won once the play has resolved
    if n_active(b, n) <= 1:
        return False
    if step_flow_effects(b, n, m, p, fused):  # S10
        return False
    if forbidden and b[PV + R.P_FF_FLOWS]:  # DEC-15 variant
        flow_trick(b, n, next_active(b, n, p))
        return False
    return True


@inl
def step_cards(b, m, p, fused, r_before):
    """S1: the cards go to the field and the play becomes the top play (a fusion: the fused
    play); the top play it answered stays readable as ``prev_*``; the §7 counters."""
    b[PK], b[PC], b[PL], b[PH], b[PS], b[PM] = b[TK], b[TC], b[TL], b[TH], b[TS], b[TM]
    kind, count, low, high, suits, mask = mv(b, m, MK), mv(b, m, MC), mv(b, m, ML), mv(b, m, MH), mv(b, m, MSU), mv(b, m, MMASK)
    b[ix(H0 + p)] &= ~mask
    b[FIELD] |= mask
    if fused:
        b[TC], b[TO], b[TM], b[TN], b[TJ] = b[TC] + count, p, b[TM] | mask, b[TN] | mv(b, m, MNR), b[TJ] | mv(b, m, MJR)
        b[TK], b[TS] = kind, b[TS] | suits
        if kind == STAIRS:
            b[TL], b[TH] = min(b[TL], low), max(b[TH], high)
        b[RC_FUSIONS] += 1
    else:
        b[TK], b[TC], b[TL], b[TH], b[TS], b[TO], b[TM], b[TN], b[TJ] = (kind, count, low, high, suits, p, mask,
                                                                        mv(b, m, MNR), mv(b, m, MJR))
    b[RC_PLAYS] += 1
    b[TOTAL] += 1
    if applies(b, R.C20_DESCENT, p):
        b[RC_SUBSTITUTIONS] += substitute_count(kind, count, low, high, suits, mask, mv(b, m, MJK))
    if b[PK] == NONE:
        b[RC_TRICKS] += 1
    elif not fused:
        count_special_play(b, m, p, r_before)
    if not b[PV + R.P_LOCKOUT]:
        b[PASSED] = 0


@inl
def substitute_count(kind, count, low, high, suits, mask, nj):
    """Cards of a play standing for another rank through card 20 (not jokers, not naturals)."""
    if kind == JOKERK:
        return 0
    natural = 0
    if kind == SETK:
        natural = popcount(mask & (np.int64(15) << np.int64(4 * low)))
    else:
        s = 0
        while not (suits >> s) & 1:
            s += 1
        for r in range(low, high + 1):
            natural += (mask >> (4 * r + s)) & 1
    return count - nj - natural


@inl
def count_special_play(b, m, p, rv):
    """§7 counters of plays made through a card's permission (06 slip-through, 16 equal)."""
    kind, count, low, high = mv(b, m, MK), mv(b, m, MC), mv(b, m, ML), mv(b, m, MH)
    if kind != STAIRS and b[PK] != STAIRS and count != b[PC] and not is_three_threes(b, p, kind, count, low):
        b[RC_SLIPS] += 1
    elif kind == b[PK] and count == b[PC] and mvalue(kind, low, high, rv) == mvalue(b[PK], b[PL], b[PH], rv):
        b[RC_EQUAL_PLAYS] += 1


@inl
def step_revolution(b, m, p, fused):
    """S2 / §3.5 / §4.7: toggle ``rev`` for a revolution-size play (DEC-35: the optional 3-card
    revolution is asked; §4.17: no revolution with a joker for a player card 17 restricts)."""
    if not (fused or revolution_size(b, p, mv(b, m, MK), mv(b, m, MC))):
        return False
    if not fused and mv(b, m, MJK) > 0 and exile_restricts(b, p):
        b[RC_EXILED] += 1
        return False
    if mv(b, m, MC) == 3 and b[PV + R.P_07_OPTIONAL] and not fused and not decide_revolt(b, p):
        return False
    if b[REV]:
        b[RC_COUNTER_REVOLUTIONS] += 1
    b[REV] = 1 - b[REV]
    b[RC_REVOLUTIONS] += 1
    b[ix(REVS0 + p)] += 1
    claim_armed_force(b, p)
    return True


@inl
def step_jback(b, m, p):
    """S3 / §4.19: a play containing a J sets J-back for the trick (DEC-46: no toggle back)."""
    if applies(b, R.C19_JBACK, p) and contains_rank(mv(b, m, MNR), mv(b, m, MJR), R.RJ, b[PV + R.P_WILD_EFFECTS] == 1):
        b[JB] = (1 - b[JB]) if b[PV + R.P_JBACK_TOGGLE] else 1
        b[RC_JBACKS] += 1


@inl
def step_pull_back(b, m, p):
    """S4 / §4.10 / DEC-36 (D11): k Ks (or k cards, ``pullback_count``) let p take up to k cards
    of the previous play back from the field."""
    if b[PK] == NONE or not applies(b, R.C10_PULL_BACK, p):
        return
    kind, count = mv(b, m, MK), mv(b, m, MC)
    kings = rank_count(kind, count, b[TL], mv(b, m, MNR), mv(b, m, MJR), mv(b, m, MJK), R.RK,
                       b[PV + R.P_WILD_EFFECTS] == 1)
    if kings == 0:
        return
    most = min(count if b[PV + R.P_PULL_PLAYED] else kings, popcount(b[PM]))
    take = decide_pull_back(b, p, most, b[PM])
    if take:
        b[FIELD] &= ~take
        b[ix(H0 + p)] |= take
        b[RC_PULL_BACKS] += 1
        b[RC_PULLED] += popcount(take)


@inl
def step_ten_discard(b, m, p):
    """S5 / §4.3 / DEC-32 (D12): t represented 10s among the cards just played (a fusion: the
    added cards, DEC-31) let p discard up to t cards face up; returns whether that emptied the
    hand (a forbidden finish, §3.7 item 4)."""
    if b[ix(H0 + p)] == 0 or not applies(b, R.C03_TEN_DISCARD, p):
        return False
    tens = rank_count(mv(b, m, MK), mv(b, m, MC), b[TL], mv(b, m, MNR), mv(b, m, MJR), mv(b, m, MJK), R.R10,
                      b[PV + R.P_WILD_EFFECTS] == 1)
    if tens == 0:
        return False
    out = decide_ten_discard(b, p, min(tens, popcount(b[ix(H0 + p)])))
    if out:
        b[ix(H0 + p)] &= ~out
        b[DISC] |= out
        b[RC_TEN_DISCARDS] += 1
        b[RC_TEN_DISCARDED] += popcount(out)
    return b[ix(H0 + p)] == 0


@inl
def step_hunt(b, m, p, fused):
    """S6 / §4.11: a joker played during the hunt fulfils p's obligation; a single Q starts it."""
    if b[HUNT] and mv(b, m, MMASK) & JOKER_BITS:
        b[HUNT_DONE] |= bit(p)
    if not b[HUNT] and not fused and is_hunt_trigger(b, p, mv(b, m, MK), mv(b, m, MC), mv(b, m, MNR), mv(b, m, MJR),
                                                     b[PV + R.P_WILD_EFFECTS] == 1):
        b[HUNT] = 1
        b[RC_HUNTS] += 1


@inl
def step_flux(b, n, p, revolted):
    """S7 / §4.18 / DEC-45: after p's revolution (not after p went out) p swaps hands with the
    next active player (``rotate_all``: every active hand moves one seat clockwise); the
    precept is the holder's option (D13), the law is mandatory."""
    if not revolted or b[ix(H0 + p)] == 0 or not applies(b, R.C18_FLUX, p):
        return
    if not (b[LAWS] >> R.C18_FLUX) & 1 and not decide_flux(b, p, flux_source(b, n, p)):
        return
    if b[PV + R.P_FLUX_ROTATE]:
        last = -1
        for q in range(n):
            if b[ix(A0 + q)]:
                last = q
        if n_active(b, n) < 2:
            return
        carry = b[ix(H0 + last)]
        for q in range(n):
            if b[ix(A0 + q)]:
                t = b[ix(H0 + q)]
                b[ix(H0 + q)] = carry
                carry = t
    else:
        q = next_active(b, n, p)
        if q == p or q < 0:
            return
        t = b[ix(H0 + q)]
        b[ix(H0 + q)] = b[ix(H0 + p)]
        b[ix(H0 + p)] = t
    b[RC_FLUX_SWAPS] += 1


@inl
def flux_source(b, n, p):
    """The seat whose hand p would receive through card 18 (D13)."""
    if not b[PV + R.P_FLUX_ROTATE]:
        return next_active(b, n, p)
    for i in range(1, n):
        q = (p - i + n) % n
        if b[ix(A0 + q)]:
            return q
    return p


@inl
def step_locks(b, m, p, r_before):
    """S8 / §4.14 / §4.15: locks from two consecutive plays, made by a player they apply to."""
    kind = mv(b, m, MK)
    if kind == JOKERK or b[PK] == JOKERK:
        return
    if applies(b, R.C14_SUIT_LOCK, p):
        shared = mv(b, m, MSU) & b[PS]
        if shared and (b[SL] == 0 or b[PV + R.P_LOCK_TIGHTEN]):
            if b[SL] == 0:
                b[RC_SUIT_LOCKS] += 1
            b[SL] |= shared
    if (applies(b, R.C15_NUMBER_LOCK, p) and not b[NL]
            and one_step(kind, mv(b, m, ML), mv(b, m, MH), b[PK], b[PL], b[PH], r_before)):
        b[NL] = 1
        b[RC_NUMBER_LOCKS] += 1
    if b[SL] and b[NL] and not b[GK]:
        b[GK] = 1
        b[RC_GEKI] += 1


@inl
def step_finish(b, n, m, p, r_before, rev_before, revolted, emptied):
    """S9 / §2.12: going out; a forbidden finish goes to the bottom (DEC-14); a hand emptied by
    an effect (card 03 discard) is forbidden too (§3.7 item 4); card 04 lifts it (§4.4).
    Returns forbidden."""
    b[ix(A0 + p)] = 0
    forbidden = emptied or is_forbidden(b, p, m, b[PK], r_before, rev_before, revolted)
    if forbidden and taboo(b, p):
        b[RC_TABOO_BREAKS] += 1
        forbidden = False
    if forbidden:
        place_bottom(b, p)
        b[RC_FORBIDDEN] += 1
        b[ix(FF0 + p)] += 1
        return True
    place_top(b, n, p)
    return False


@inl
def step_flow_effects(b, n, m, p, fused):
    """S10: eight cut (09), three return (22), three 3s (23) flow the field; the player who made
    the play leads (the next active player if they went out). Returns flowed."""
    kind, count, low = mv(b, m, MK), mv(b, m, MC), mv(b, m, ML)
    if applies(b, R.C09_EIGHT_CUT, p) and contains_rank(mv(b, m, MNR), mv(b, m, MJR), R.R8,
                                                        b[PV + R.P_WILD_EFFECTS] == 1):
        b[RC_EIGHT_CUTS] += 1
    elif is_three_return(b, p, kind, count, low, b[PK]):
        b[RC_THREE_RETURNS] += 1
    elif not fused and is_three_threes(b, p, kind, count, low):
        b[RC_THREE_THREES] += 1
    else:
        return False
    flow_trick(b, n, p if b[ix(A0 + p)] else next_active(b, n, p))
    return True


# ---- card 13 armed force ----------------------------------------------------------------------------
@inl
def claim_armed_force(b, q):
    """S2 / §4.13 step 1 / DEC-39: a revolution by q claims the round if A(13, q); a later
    revolution by anyone makes an earlier claim fizzle (``round_end``: by an entitled player)."""
    entitled = applies(b, R.C13_ARMED_FORCE, q)
    if not entitled and (b[AF_CLAIM] < 0 or b[PV + R.P_AF_MODE] == R.AF_ROUND_END):
        return
    if b[AF_CLAIM] >= 0 and b[AF_CLAIM] != q:
        b[RC_AF_FIZZLES] += 1
    if entitled:
        b[AF_CLAIM] = q
        b[RC_AF_CLAIMS] += 1
    else:
        b[AF_CLAIM] = -1


@inl
def confirm_claim(b, n):
    """§4.13 step 2: a pending claim becomes the win of the round (trick end, round end, or at
    once with ``armed_force_resolution = immediate``)."""
    q = b[AF_CLAIM]
    b[AF_CLAIM] = -1
    if q >= 0:
        promote(b, n, q)


@inl
def promote(b, n, q):
    """§4.13 step 2, QA-13.1-13.3, DEC-40: q becomes 1st; a displaced 1st falls to the very
    bottom; with nobody placed, the king falls (§3.8)."""
    if b[NTOP] > 0 and b[TOP0] == q:
        return
    falls = b[RC_CAPITAL_FALLS]
    b[RC_AF_PROMOTIONS] += 1
    if b[ix(A0 + q)]:
        leave_round(b, q)
    elif not remove_placed(b, TOP0, NTOP, q):
        remove_placed(b, BOT0, NBOT, q)
        b[RC_AF_FROM_BOTTOM] += 1
    if b[NTOP] > 0:
        first = b[TOP0]
        b[TOP0] = q
        fall_to_bottom(b, n, first)
    else:
        b[TOP0] = q
        b[NTOP] = 1
        capital_fall(b, n, q)
    b[RC_AF_CAPITAL_FALLS] += b[RC_CAPITAL_FALLS] - falls


# ---- passes, the next turn, the field flow (§2.11) ----------------------------------------------------
@inl
def pass_turn(b, n, p):
    """§2.11.3 / DEC-11: a pass; with lock-out the player sits out the rest of the trick."""
    b[PASSED] |= bit(p)
    b[RC_PASSES] += 1
    next_turn(b, n, p)


@inl
def next_turn(b, n, p):
    """§2.11.4 (a)/(b): next active, not passed player; reaching the owner (or nobody) flows."""
    if n_active(b, n) <= 1:
        return
    owner = b[TO]
    for i in range(1, n + 1):
        q = (p + i) % n
        if b[ix(A0 + q)] and not (b[PASSED] >> q) & 1:
            if q == owner:
                flow_trick(b, n, owner)
            else:
                b[TURN] = q
            return
    flow_trick(b, n, next_active(b, n, owner))  # DEC-12


@inl
def flow(b, leader):
    """§2.11.5: field to the discard pile; J-back, locks, passes cleared; revolution stays."""
    b[DISC] |= b[FIELD]
    b[FIELD] = 0
    b[TK] = NONE
    b[TO] = -1
    b[JB] = 0
    b[SL] = 0
    b[NL] = 0
    b[GK] = 0
    b[HUNT] = 0
    b[HUNT_DONE] = 0
    b[PASSED] = 0
    b[TURN] = leader
    b[RC_PENDING] = 1  # §2.11.5 step 4: the card-01 window


@inl
def flow_trick(b, n, leader):
    """§2.11.5: the field flows; a pending armed-force claim is confirmed (step 3); a leader
    who left the round hands the lead to the next active player (§2.11.6)."""
    flow(b, leader)
    if b[AF_CLAIM] >= 0 and b[PV + R.P_AF_MODE] == R.AF_TRICK_END:
        confirm_claim(b, n)
    if leader >= 0 and not b[ix(A0 + leader)]:
        b[TURN] = next_active(b, n, leader)


# ---- placements, the capital fall (§2.12, §3.8) -------------------------------------------------------
@inl
def place_bottom(b, p):
    """DEC-14: latest lowest (default) or earliest lowest."""
    if b[PV + R.P_EARLIEST_LOWEST]:
        for i in range(b[NBOT], 0, -1):
            b[ix(BOT0 + i)] = b[ix(BOT0 + i - 1)]
        b[BOT0] = p
    else:
        b[ix(BOT0 + b[NBOT])] = p
    b[NBOT] += 1


@inl
def place_top(b, n, p):
    b[ix(TOP0 + b[NTOP])] = p
    b[NTOP] += 1
    if b[NTOP] == 1:
        capital_fall(b, n, p)


@inl
def capital_fall(b, n, first):
    """§3.8: in round >= 2 a new 1st other than the king sends the king to the very bottom;
    his hand goes face up to the discard pile (DEC-16); +bonus to everyone else."""
    k = b[KING]
    if b[ROUND] < 2 or k < 0 or first == k:
        return
    if b[ix(A0 + k)]:
        leave_round(b, k)
    elif not b[PV + R.P_CF_PLACED] or not remove_placed(b, BOT0, NBOT, k):
        return
    fall_to_bottom(b, n, k)


@inl
def leave_round(b, q):
    """DEC-16: an active player leaves the round; the hand goes face up to the discard pile."""
    b[ix(A0 + q)] = 0
    if b[PV + R.P_EXIT_DISCARD]:
        b[DISC] |= b[ix(H0 + q)]
    else:
        b[REMOVED] |= b[ix(H0 + q)]
    b[ix(H0 + q)] = 0
    b[PASSED] &= ~bit(q)


@inl
def remove_placed(b, base, count, q):
    """Remove seat q from the placement list at ``base`` (length b[count]); False if absent."""
    pos = -1
    for i in range(b[count]):
        if b[ix(base + i)] == q:
            pos = i
    if pos < 0:
        return False
    for i in range(pos, b[count] - 1):
        b[ix(base + i)] = b[ix(base + i + 1)]
    b[count] -= 1
    return True


@inl
def fall_to_bottom(b, n, k):
    """§3.8: k goes to the very bottom (last place); +bonus to every other player."""
    b[ix(BOT0 + b[NBOT])] = k
    b[NBOT] += 1
    b[RC_CAPITAL_FALLS] += 1
    for q in range(n):
        if q != k:
            b[ix(BP0 + q)] += b[PV + R.P_CF_BONUS]
            b[ix(RB0 + q)] += b[PV + R.P_CF_BONUS]
