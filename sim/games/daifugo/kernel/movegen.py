"""Fast engine, the legal plays: every play of the player to act into the move table, in the
canonical order of ``plays.py`` (sets by count, rank, card mask; stairs by length, low rank,
suit; card-02 fusions; the Joker single), so that bots picking by index agree with the
reference engine. The reference engine's twin: ``reference/movegen.py``.
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import inl, ix

from .. import rules as R
from .state import (H0, HUNT, HUNT_DONE, JOKER_BITS, JOKERK, MC, MFU, MH, MJK, MJR, MK, ML, MMASK, MNR, MOVE_COLS, MSU, MV0, NL,
                    NONE, OWN0, PV, SETK, SL, STAIRS, TC, TH, TK, TL, TS, applies, exile_restricts, holder, mv,
                    mvalue, one_step, popcount, reversed_, revolution_size)


def _tables():
    subs = np.zeros((16, 5, 6), np.int64)  # subsets of a suit nibble by size, ascending
    subn = np.zeros((16, 5), np.int64)
    for held in range(16):
        for sm in range(16):
            if sm & ~held == 0:
                n = bin(sm).count("1")
                subs[held, n, subn[held, n]] = sm
                subn[held, n] += 1
    des = np.full((16, 16, 3), -1, np.int64)  # wild-joker suits: missing locked suits first, then lowest
    for sm in range(16):
        for lock in range(16):
            order = [x for x in range(4) if lock >> x & 1 and not sm >> x & 1]
            order += [x for x in range(4) if not sm >> x & 1 and not lock >> x & 1]
            for j in range(3):
                if j <= len(order):
                    des[sm, lock, j] = sum(1 << x for x in order[:j])
    return subs, subn, des


SUBS, SUBN, DES = _tables()
POP13 = np.array([bin(m).count("1") for m in range(1 << 13)], np.int64)  # ranks in a 13-bit rank mask


@inl
def add_move(b, k, kind, count, low, high, suits, mask):
    """Row k of the move table: a play of ``kind`` with its cards ``mask`` (its represented
    ranks: ``move_ranks``). Returns k + 1."""
    row = MV0 + k * MOVE_COLS
    b[ix(row + MK)] = kind
    b[ix(row + MC)] = count
    b[ix(row + ML)] = low
    b[ix(row + MH)] = high
    b[ix(row + MSU)] = suits
    b[ix(row + MMASK)] = mask
    b[ix(row + MFU)] = 0
    return k + 1


@inl
def move_ranks(b, m, nr, jr, nj):
    """Row m's natural and wild represented ranks (13-bit masks) and its jokers."""
    row = MV0 + m * MOVE_COLS
    b[ix(row + MNR)] = nr
    b[ix(row + MJR)] = jr
    b[ix(row + MJK)] = nj


@inl
def copy_move(b, src, dst):
    for c in range(MOVE_COLS):
        b[ix(MV0 + dst * MOVE_COLS + c)] = b[ix(MV0 + src * MOVE_COLS + c)]


@inl
def locks_allow(b, p, kind, low, high, suits):
    """§4.14 / §4.15 with precept-holder exemptions; Joker single exempt (QA-14.2, DEC-43)."""
    if kind == JOKERK:
        return not (b[NL] and not b[PV + R.P_JOKER_NUMLOCK] and not holder(b, R.C15_NUMBER_LOCK, p))
    if b[SL] and not holder(b, R.C14_SUIT_LOCK, p):
        if (suits & b[SL]) != b[SL]:
            return False
    if b[NL] and not holder(b, R.C15_NUMBER_LOCK, p):
        if not one_step(kind, low, high, b[TK], b[TL], b[TH], reversed_(b)):
            return False
    return True


@inl
def gen_sets(b, k, p, count, r_lo, r_hi, check, subs):
    """Sets/singles of one size and ranks r_lo..r_hi-1 of p's hand in (rank, card mask) order;
    wild jokers designated canonically (missing locked suits first); ``check``: only plays the
    locks allow; ``subs`` (card 20): a missing J, Q or K of a suit may be its A, 2 or 3."""
    hand = b[ix(H0 + p)]
    lock = b[SL]
    jmask = hand & JOKER_BITS
    nj_hand = popcount(jmask)
    j1 = jmask & (-jmask)  # lowest joker bit
    lone = b[PV + R.P_LONE_WILD] == 1
    for r in range(r_lo, r_hi):
        nat = (hand >> (4 * r)) & 15
        src = substitute_rank(r)
        sub = ((hand >> (4 * src)) & 15 & ~nat) if (subs and src >= 0) else 0
        held = nat | sub
        if SUBN[held, 1] + nj_hand < count:
            continue
        k0 = k
        for j in range(0, min(nj_hand, count) + 1):
            n = count - j
            if n == 0 and count == 1 and not lone:
                continue
            jbits = np.int64(0)
            if j == 1:
                jbits = j1
            elif j == 2:
                jbits = jmask
            for t in range(SUBN[held, ix(n)]):
                sm = SUBS[held, ix(n), ix(t)]
                des = DES[ix(sm), ix(lock), ix(j)]
                if des < 0:
                    continue
                suits = sm | des
                if check and not locks_allow(b, p, SETK, r, r, suits):
                    continue
                mask = ((sm & nat) << (4 * r)) | jbits
                if sm & sub:
                    mask |= (sm & sub) << (4 * src)
                k = add_move(b, k, SETK, count, r, r, suits, mask)
                move_ranks(b, k - 1, (1 << r) if n > 0 else 0, (1 << r) if j > 0 else 0, j)
        if sub:
            sort_by_mask(b, k0, k)
    return k


@inl
def joker_bits(jm, j):
    """The lowest j (0, 1, 2) jokers of the joker mask jm."""
    if j == 1:
        return jm & (-jm)
    if j == 2:
        return jm
    return np.int64(0)


@inl
def substitute_rank(r):
    """Card 20 (§4.20): the rank that may stand for J, Q, K (A, 2, 3); -1 for other ranks."""
    if r == R.RJ:
        return R.RA
    if r == R.RQ:
        return R.R2
    if r == R.RK:
        return R.R3
    return -1


@inl
def sort_by_mask(b, lo, hi):
    """Rows lo..hi-1 in ascending card-mask order (the canonical order within a rank)."""
    for i in range(lo + 1, hi):
        j = i
        while j > lo and mv(b, j - 1, MMASK) > mv(b, j, MMASK):
            for c in range(MOVE_COLS):
                t = b[ix(MV0 + (j - 1) * MOVE_COLS + c)]
                b[ix(MV0 + (j - 1) * MOVE_COLS + c)] = b[ix(MV0 + j * MOVE_COLS + c)]
                b[ix(MV0 + j * MOVE_COLS + c)] = t
            j -= 1


@inl
def suit_ranks(hand, subs):
    """Ranks each suit may fill in a stairs, 13 bits per suit in 16-bit lanes: the held cards,
    and with card 20 (``subs``) a J, Q or K whose A, 2 or 3 of that suit is held."""
    out = np.int64(0)
    for r in range(13):
        src = substitute_rank(r) if subs else -1
        for s in range(4):
            if (hand >> (4 * r + s)) & 1 or (src >= 0 and (hand >> (4 * src + s)) & 1):
                out |= np.int64(1) << np.int64(16 * s + r)
    return out


@inl
def gen_stairs(b, k, p, lo_len, hi_len, follow, eq, subs):
    """Stairs of p's hand by (length, low rank, suit); following: stronger (or equal with
    ``eq``) than the top play, as the locks allow."""
    hand = b[ix(H0 + p)]
    jmask = hand & JOKER_BITS
    nj_hand = popcount(jmask)
    rv = reversed_(b)
    fill = suit_ranks(hand, subs)
    longest = 0  # no stairs is longer than the most ranks one suit fills, plus the jokers
    for s in range(4):
        longest = max(longest, POP13[ix((fill >> np.int64(16 * s)) & 0x1FFF)])
    for L in range(lo_len, min(hi_len, longest + nj_hand) + 1):
        for low in range(0, 14 - L):
            window = np.int64((1 << L) - 1) << np.int64(low)
            for s in range(4):
                most = POP13[ix((fill >> np.int64(16 * s)) & window)]  # at least the held count below
                if most == 0 or L - most > nj_hand:
                    continue
                held = 0
                nr = 0
                jr = 0
                mask = np.int64(0)
                for r in range(low, low + L):
                    src = substitute_rank(r) if subs else -1
                    if (hand >> (4 * r + s)) & 1:
                        held += 1
                        nr |= 1 << r
                        mask |= np.int64(1) << np.int64(4 * r + s)
                    elif src >= 0 and (hand >> (4 * src + s)) & 1 and not (low <= src < low + L):
                        held += 1  # card 20: the A, 2 or 3 stands in (not itself in the run)
                        nr |= 1 << r
                        mask |= np.int64(1) << np.int64(4 * src + s)
                    else:
                        jr |= 1 << r
                miss = L - held
                if held == 0 or miss > nj_hand:
                    continue
                mask |= joker_bits(jmask, miss)
                high = low + L - 1
                if follow:
                    v = mvalue(STAIRS, low, high, rv)
                    tv = mvalue(b[TK], b[TL], b[TH], rv)
                    if v < tv or (v == tv and not eq):
                        continue
                    if not locks_allow(b, p, STAIRS, low, high, 1 << s):
                        continue
                k = add_move(b, k, STAIRS, L, low, high, 1 << s, mask)
                move_ranks(b, k - 1, nr, jr, miss)
    return k


@inl
def may_follow_stairs(b, p):
    """DEC-47: with the 21 precept, others may follow the holder's stairs (configurable)."""
    if applies(b, R.C21_STAIRS, p):
        return True
    return b[OWN0 + R.C21_STAIRS] >= 0 and b[PV + R.P_21_FOLLOW] == 1


@inl
def may_play_equal(b, p):
    """§4.16: card 16 lets p match the top play's strength, never under a number lock."""
    return applies(b, R.C16_SAMENESS, p) and b[NL] == 0


@inl
def add_joker_single(b, k, hand):
    jm = hand & JOKER_BITS
    k = add_move(b, k, JOKERK, 1, -1, -1, 0, jm & (-jm))
    move_ranks(b, k - 1, 0, 0, 1)
    return k


@inl
def legal_plays(b, p):
    """All legal plays of p in canonical order into the move table; returns their number."""
    k = gen_plays(b, p)
    if b[PV + R.P_EXILE_ILLEGAL] and exile_restricts(b, p):
        k = exile_filter(b, k, p)
    return k


@inl
def exile_filter(b, k, p):
    """DEC-44 variant ``exile_mode = illegal``: joker revolutions of a restricted player go."""
    j = 0
    for i in range(k):
        if mv(b, i, MJK) > 0 and revolution_size(b, p, mv(b, i, MK), mv(b, i, MC)):
            continue
        if j != i:
            copy_move(b, i, j)
        j += 1
    return j


@inl
def hunt_forces(b, p, nm):
    """§4.11 / DEC-37 (D10): during the hunt a joker holder who has not played a joker in it
    must play the Joker single when it is legal (listed last)."""
    return (b[HUNT] != 0 and not (b[HUNT_DONE] >> p) & 1 and nm > 0 and mv(b, nm - 1, MK) == JOKERK)


@inl
def gen_plays(b, p):
    """Every play of p the rules allow before card 17's ``illegal`` variant."""
    hand = b[ix(H0 + p)]
    k = 0
    subs = applies(b, R.C20_DESCENT, p)
    if b[TK] == NONE:
        most = 0  # largest set the hand can form: skip sizes it cannot reach
        for r in range(13):
            held = (hand >> (4 * r)) & 15
            src = substitute_rank(r) if subs else -1
            if src >= 0:  # card 20: an A, 2 or 3 may stand in for a J, Q or K of its suit
                held |= (hand >> (4 * src)) & 15
            most = max(most, SUBN[ix(held), 1])
        most = min(4, most + popcount(hand & JOKER_BITS))
        for count in range(1, most + 1):
            k = gen_sets(b, k, p, count, 0, 13, False, subs)
        if applies(b, R.C21_STAIRS, p):
            k = gen_stairs(b, k, p, 3, 13, False, False, subs)
        if hand & JOKER_BITS:
            k = add_joker_single(b, k, hand)
        return k
    wisdom = applies(b, R.C23_WISDOM, p)
    if b[TK] == JOKERK:
        if applies(b, R.C22_THREE_RETURN, p):  # §4.22: a 3 onto the Joker, ignoring locks (DEC-48)
            k = gen_sets(b, k, p, 1, 0, 1, False, False)
        if wisdom:
            k = gen_sets(b, k, p, 3, 0, 1, False, False)
        if (hand & JOKER_BITS) and may_play_equal(b, p):
            k = add_joker_single(b, k, hand)
        return k
    if b[TK] == SETK:
        return follow_sets(b, k, p, wisdom, subs)
    if wisdom:  # three 3s on stairs (kind order: sets before stairs)
        k = gen_sets(b, k, p, 3, 0, 1, False, False)
    if may_follow_stairs(b, p):
        k = gen_stairs(b, k, p, b[TC], b[TC], True, may_play_equal(b, p), subs)
    if applies(b, R.C02_FUSION, p):
        k = gen_fusions(b, k, p)
    return k


@inl
def follow_sets(b, k, p, wisdom, subs):
    """Follows of a set or single: same count stronger (16: or equal), 06 slip-through counts,
    23 three 3s on anything; then the fusions and the Joker single."""
    hand = b[ix(H0 + p)]
    rv = reversed_(b)
    topv = mvalue(b[TK], b[TL], b[TH], rv)
    eq = may_play_equal(b, p)
    slip = applies(b, R.C06_SLIP, p)
    tc = b[TC]
    check = b[SL] != 0 or b[NL] != 0
    for count in range(1, 5):
        same = count == tc
        if not (same or (slip and (count == 1) != (tc == 1))):
            if count == 3 and wisdom:
                k = gen_sets(b, k, p, 3, 0, 1, False, False)
            continue
        floor = topv if (same and eq) else topv + 1  # weakest strength allowed
        if rv:
            r_lo, r_hi = 0, 13 - floor
        else:
            r_lo, r_hi = floor, 13
        if count == 3 and wisdom:  # 23 ignores strength and locks: rank 3 listed first, once
            k = gen_sets(b, k, p, 3, 0, 1, False, False)
            r_lo = max(r_lo, 1)
        if r_lo < r_hi:
            k = gen_sets(b, k, p, count, r_lo, r_hi, check, subs)
    if applies(b, R.C02_FUSION, p):
        k = gen_fusions(b, k, p)
    if (hand & JOKER_BITS) and (tc == 1 or slip) and locks_allow(b, p, JOKERK, -1, -1, 0):
        k = add_joker_single(b, k, hand)
    return k


# ---- card 02 fusion ---------------------------------------------------------------------------------
@inl
def gen_fusions(b, k, p):
    """S0 / §4.2 / DEC-30: fusions of p onto the top play in canonical order (sets by fused size
    and added cards, then stairs by fused length and low rank); rows hold the added cards."""
    hand = b[ix(H0 + p)]
    if b[PV + R.P_FUSION_LOCKS] and ((b[SL] and not holder(b, R.C14_SUIT_LOCK, p))
                                     or (b[NL] and not holder(b, R.C15_NUMBER_LOCK, p))):
        return k
    jm = np.int64(0) if exile_restricts(b, p) else hand & JOKER_BITS
    nj = popcount(jm)
    three = applies(b, R.C07_THREE_REV, p)
    tk, tc, tl, th, ts = b[TK], b[TC], b[TL], b[TH], b[TS]
    if tk == SETK:
        free = 15 & ~ts
        nat = (hand >> (4 * tl)) & free
        for kk in range(3 if three else 4, 5):
            need = kk - tc
            if need <= 0:
                continue
            for j in range(0, min(nj, need) + 1):
                n = need - j
                jbits = joker_bits(jm, j)
                for t in range(SUBN[ix(nat), ix(n)]):
                    sm = SUBS[ix(nat), ix(n), ix(t)]
                    rest = free & ~sm
                    if popcount(rest) < j:
                        continue
                    js = 0
                    for x in range(j):
                        js |= rest & (-rest)
                        rest &= rest - 1
                    k = add_move(b, k, SETK, need, tl, tl, sm | js, (np.int64(sm) << np.int64(4 * tl)) | jbits)
                    move_ranks(b, k - 1, (1 << tl) if n > 0 else 0, (1 << tl) if j > 0 else 0, j)
                    b[ix(MV0 + (k - 1) * MOVE_COLS + MFU)] = 1
    if (tk == STAIRS and may_follow_stairs(b, p)) or (tk == SETK and tc == 1 and applies(b, R.C21_STAIRS, p)):
        s = 0
        while not (ts >> s) & 1:
            s += 1
        size = popcount(hand)
        own = suit_ranks(hand, False) >> np.int64(16 * s)
        top = np.int64((1 << (th + 1)) - (1 << tl))  # the top play's ranks
        for L in range(max(3 if three else 4, tc + 1), 14):
            if L - tc > size:
                break
            for low in range(max(0, th - L + 1), min(tl, 13 - L) + 1):
                window = (np.int64((1 << L) - 1) << np.int64(low)) & ~top
                if L - tc - POP13[ix(own & window & 0x1FFF)] > nj:
                    continue  # more ranks missing than jokers (the count below)
                nr = 0
                jr = 0
                miss = 0
                mask = np.int64(0)
                for r in range(low, low + L):
                    if tl <= r <= th:
                        continue
                    if (hand >> (4 * r + s)) & 1:
                        nr |= 1 << r
                        mask |= np.int64(1) << np.int64(4 * r + s)
                    else:
                        jr |= 1 << r
                        miss += 1
                if miss > nj:
                    continue
                mask |= joker_bits(jm, miss)
                high = low + L - 1
                k = add_move(b, k, STAIRS, L - tc, low if low < tl else th + 1, high if high > th else tl - 1,
                             1 << s, mask)
                move_ranks(b, k - 1, nr, jr, miss)
                b[ix(MV0 + (k - 1) * MOVE_COLS + MFU)] = 1
    return k
