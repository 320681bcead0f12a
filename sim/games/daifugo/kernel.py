"""Fast engine: the same game as ``reference.py`` over integer arrays, compiled with numba.

State of one game lives in one int64 vector ``S`` declared field by field in ``STATE``
(``sim.layout``); hands, field, discard pile, undealt and removed cards are 54-bit masks
(card id = 4*rank + suit, jokers 52/53). The move table's columns (``MOVE``) and the batch's
scratch arrays (``SCRATCH``) are declared the same way; ``STATE.describe()`` lists them.
Legal plays are generated into the preallocated move table ``MV`` in the canonical order
of ``plays.py`` (sets by count, rank, card mask; stairs by length, low rank, suit; then
the Joker single), so bots that pick by index agree with the reference engine.

Every function is compiled with ``_nrt=False`` (no reference counting): the Python wrapper
``run_kernel`` allocates all scratch arrays once per batch and nothing allocates inside.
A round's setup follows the reference engine's phases, one function each (``phase_deal`` …
``phase_start``); a game ends in ``finish_game``.

Random-consumption protocol (both engines, per game, generator ``game_state(seed, i)``):
  1. shuffle the rule deck (card ids ascending) once.
  2. each round: round 1 only, ``randbelow(N)`` = start player (DEC-10); shuffle the 53
     card ids 0..52 ascending, player p takes positions p*H .. p*H+H-1; the law is the next
     rule card; madness: the next N cards are revealed and, in round 1 if any were
     revealed, ``randbelow(N)`` = first picker (DEC-6).
  3. bot decisions in game order; only the ``random`` bot draws: one ``randbelow(n)`` per
     decision with n >= 2 options (decisions with one option are applied without asking);
     trim: ``randbelow(most+1)`` (all-or-nothing: ``randbelow(2)``) for the count, then one
     ``randbelow(len)`` per card over the remaining hand in ascending id order.
  4. play-count guard: shuffle the remaining active seats (ascending) = their ranking.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kernel_util import fn, inl, ix, seat_bot
from sim.layout import Layout
from sim.rng import derive, randbelow, shuffle

from . import rules as R
from . import tables as T
from .bots import BOTS, DRAFT_FIT_RANK, DRAFT_PREF, GREEDY, RANDOM, STRATEGIST

# ---- layout of S (one game's whole state; zeroed at the start of every game) ----------
STATE = Layout("daifugo state S")
# the top play (cleared together at a flow and a new round)
TK, TC, TL, TH, TS, TO, TM, TN, TJ = STATE.scalars(
    "top_kind", "top_count", "top_low", "top_high", "top_suits", "top_owner", "top_mask",
    "top_ranks", "top_wild_ranks")
# trick and round state (cleared at a new round); card sets are 54-bit masks
REV, JB, SL, NL, GK, HUNT, HUNT_DONE, PASSED, FIELD, DISC, UNDEALT, REMOVED = STATE.scalars(
    "rev", "jback", "suit_lock", "num_lock", "geki_counted", "hunt", "hunt_done", "passed", "field", "discard",
    "undealt", "removed")
TURN, NTOP, NBOT, ROUND, KING, START, TOTAL, LAWS, DECK_PTR, DECK_LEN, DECISIONS = STATE.scalars(
    "turn", "n_top", "n_bottom", "round", "king", "start_player", "total_plays", "laws", "rule_deck_ptr",
    "rule_deck_len", "decisions")
H0 = STATE.block("hands", R.MAX_PLAYERS, "card mask per seat")
A0 = STATE.block("active", R.MAX_PLAYERS, "1 while the seat holds cards in the round")
TOP0 = STATE.block("top_list", R.MAX_PLAYERS, "seats placed from 1st down")
BOT0 = STATE.block("bottom_list", R.MAX_PLAYERS, "seats placed at the bottom, last = lowest")
OWN0 = STATE.block("owner", R.N_RULE_CARDS + 1, "precept owner per rule card id (-1 none; 0 unused)")
RP0 = STATE.block("rank_points", R.MAX_PLAYERS)
BP0 = STATE.block("bonus_points", R.MAX_PLAYERS)
VP0 = STATE.block("precept_points", R.MAX_PLAYERS)
REVS0 = STATE.block("revolutions_by_seat", R.MAX_PLAYERS)
FF0 = STATE.block("forbidden_by_seat", R.MAX_PLAYERS)
PREV0 = STATE.block("prev_ranking", R.MAX_PLAYERS, "previous round's ranking, 1st first")
RS0 = STATE.block("round_stats", T.R_FIXED, "this round's counters, tables.ROUND_COLS order")
RB0 = STATE.block("round_bonus", R.MAX_PLAYERS, "capital-fall bonus per seat this round")
DECK0 = STATE.block("rule_deck", R.N_RULE_CARDS, "the shuffled rule deck")
REVEAL0 = STATE.block("revealed", R.MAX_PLAYERS, "precepts revealed for the draft")
FIRSTS0 = STATE.block("firsts", R.MAX_PLAYERS, "rounds won per seat")
FINAL0 = STATE.block("final_points", R.MAX_PLAYERS)
WIN0 = STATE.block("win", R.MAX_PLAYERS, "1 for a (shared) winner")
# the precept draft record (games.pick_NN, games.pick_round_NN)
PICK0 = STATE.block("pick", R.N_RULE_CARDS + 1, "pick position of each rule card in its round's draft (0 none)")
PICKR0 = STATE.block("pick_round", R.N_RULE_CARDS + 1, "round each rule card was drafted (0 none)")
# cards 05 and 12 (post-exchange effects)
(T5DONE,) = STATE.scalars("trickster_done")  # card 05 has resolved: 54 cards from now on
GIFT0 = STATE.block("collusion_gift", R.MAX_PLAYERS, "card 12 law: the card each commoner gives, in order")
AF_CLAIM = STATE.scalar("af_claim", "card 13: seat whose armed-force win is pending (-1 none)")
# card 01: seats that recycled this round (mask); the W-flow / W-trim window opens before the next turn
RC_USED, RC_PENDING = STATE.scalars("recycle_used", "recycle_pending")
# game feel (games.lead_changes ...): the standings after each round, folded in as they come
FEEL_LEADER, FEEL_CHANGES = STATE.scalars("feel_leader", "lead_changes")  # feel_leader: last sole leader + 1 (0 none)
NOTSOLE0 = STATE.block("feel_not_sole", R.MAX_PLAYERS, "last round after which the seat was not sole leader (0 none)")
BEHIND0 = STATE.block("feel_behind", R.MAX_PLAYERS, "largest deficit of the seat to the top score so far")
WORST0 = STATE.block("feel_worst", R.MAX_PLAYERS, "worst standing place of the seat so far")
S_SIZE = STATE.size
(ST_LAW, ST_KING, ST_START, ST_KEPT, ST_CF, ST_REVS, ST_JB, ST_EIGHT, ST_SL, ST_NL, ST_GEKI, ST_FF,
 ST_TRICKS, ST_PLAYS, ST_PASSES, ST_TRIM, ST_GUARD, ST_SLIP, ST_EQUAL, ST_3RET, ST_333, ST_HUNTS,
 ST_FORCED, ST_PULLS, ST_PULLED, ST_TENS, ST_TENNED, ST_SUBS) = range(28)
ST_EXILED = T.ROUND_COLS.index("exiled_revolutions")  # card 17
ST_FREE_GIFTS = T.ROUND_COLS.index("free_gifts")  # card 08
ST_JK2, ST_CSWAPS, ST_CTAKES = (T.ROUND_COLS.index(c) for c in ("second_joker", "collusion_swaps", "collusion_takes"))
ST_AF_CLAIMS, ST_AF_FIZZLES, ST_AF_PROMOS, ST_AF_BOTTOM, ST_AF_CF = (T.ROUND_COLS.index(c) for c in (
    "af_claims", "af_fizzles", "af_promotions", "af_promotions_from_bottom", "af_capital_falls"))  # card 13
ST_FLUX = T.ROUND_COLS.index("flux_swaps")  # card 18
ST_FUSIONS, ST_COUNTER = T.ROUND_COLS.index("fusions"), T.ROUND_COLS.index("counter_revolutions")  # card 02
ST_TABOO = T.ROUND_COLS.index("taboo_breaks")  # card 04
ST_RECYCLES, ST_LOOPHOLES, ST_DOBONS = (T.ROUND_COLS.index(c) for c in ("recycles", "loopholes", "dobons"))  # 01, 24, 25

# ---- move table: one row per legal play -----------------------------------------------
MOVE = Layout("daifugo move row")
MK, MC, ML, MH, MSU, MMASK, MNR, MJR, MJK = MOVE.scalars(
    "kind", "count", "low", "high", "suits", "mask", "natural_ranks", "wild_ranks", "jokers")
MFU = MOVE.scalar("fusion", "card 02: 1 for a fusion (the row holds the added cards)")
MOVE_COLS = MOVE.size
MAX_MOVES = 1024

# ---- scratch arrays of one batch (views of one buffer) ---------------------------------
SCRATCH = Layout("daifugo scratch")
SCRATCH.block("deck", R.N_CARD_IDS, "card ids shuffled for the deal")
SCRATCH.block("order", max(R.N_RULE_CARDS, R.MAX_PLAYERS), "rule deck shuffle, seat orders")
SCRATCH.block("seatpos", R.MAX_PLAYERS, "bot position of each seat in this game")

NONE = -1
SETK, STAIRS, JOKERK = 0, 1, 2
JOKER_BITS = np.int64(3) << np.int64(52)
PREF = np.array(DRAFT_PREF, dtype=np.int64)
FIT_RANK = np.full(R.N_RULE_CARDS + 1, -1, np.int64)  # bots.DRAFT_FIT_RANK as a table
for _c, _r in DRAFT_FIT_RANK.items():
    FIT_RANK[_c] = _r
PRM_DRAFT_CARD, PRM_DRAFT_VP, PRM_DRAFT_FIT = (list(BOTS["strategist"].params).index(k) for k in (
    "draft_card_weight", "draft_vp_weight", "draft_fit_weight"))  # bot_matrix columns
PRM_FLUX = list(BOTS["strategist"].params).index("flux_margin")  # card 18
P = R  # parameter indices



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
M1, M2, M4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
POP13 = np.array([bin(m).count("1") for m in range(1 << 13)], np.int64)  # ranks in a 13-bit rank mask


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def popcount(x):
    """SWAR popcount of a non-negative int64."""
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def strength(r, rv):
    return 12 - r if rv else r


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def reversed_(S):
    return S[REV] != S[JB]


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def applies(S, c, p):
    """§4.0 A(c, p): c is a law, or a precept owned by p."""
    return ((S[LAWS] >> c) & 1) == 1 or S[ix(OWN0 + c)] == p


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def holder(S, c, p):
    return S[ix(OWN0 + c)] == p and ((S[LAWS] >> c) & 1) == 0


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def n_active(S, n):
    k = 0
    for q in range(n):
        k += S[ix(A0 + q)]
    return k


@inl
def next_active(S, n, seat):
    for i in range(1, n + 1):
        q = (seat + i) % n
        if S[ix(A0 + q)]:
            return q
    return -1


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def mvalue(kind, low, high, rv):
    if kind == JOKERK:
        return 13
    if kind == STAIRS and rv:
        return 12 - high
    return strength(low, rv)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def one_step(kind, low, high, tkind, tlow, thigh, rv):
    if kind != tkind or kind == JOKERK:
        return False
    if kind == STAIRS:
        return high == tlow - 1 if rv else low == thigh + 1
    return mvalue(kind, low, high, rv) == mvalue(tkind, tlow, thigh, rv) + 1


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def contains_rank(nr, jr, rank, wild):
    return ((nr >> rank) & 1) == 1 or (wild and ((jr >> rank) & 1) == 1)


# ---- move generation ----------------------------------------------------------------
@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _add(MV, k, kind, count, low, high, suits, mask, nr, jr, nj):
    kk = ix(k)
    MV[kk, MK] = kind
    MV[kk, MC] = count
    MV[kk, ML] = low
    MV[kk, MH] = high
    MV[kk, MSU] = suits
    MV[kk, MMASK] = mask
    MV[kk, MNR] = nr
    MV[kk, MJR] = jr
    MV[kk, MJK] = nj
    MV[kk, MFU] = 0
    return k + 1


@inl
def locks_allow(S, pv, p, kind, low, high, suits):
    """§4.14 / §4.15 with precept-holder exemptions; Joker single exempt (QA-14.2, DEC-43)."""
    if kind == JOKERK:
        return not (S[NL] and not pv[P.P_JOKER_NUMLOCK] and not holder(S, 15, p))
    if S[SL] and not holder(S, 14, p):
        if (suits & S[SL]) != S[SL]:
            return False
    if S[NL] and not holder(S, 15, p):
        if not one_step(kind, low, high, S[TK], S[TL], S[TH], reversed_(S)):
            return False
    return True


@inl
def gen_sets(S, pv, MV, k, p, hand, count, lock, r_lo, r_hi, check, subs):
    """Sets/singles of one size and ranks r_lo..r_hi-1 in (rank, card mask) order; wild jokers
    designated canonically; ``check``: only plays the locks allow; ``subs`` (card 20): a
    missing J, Q or K of a suit may be its A, 2 or 3."""
    jmask = hand & JOKER_BITS
    nj_hand = popcount(jmask)
    j1 = jmask & (-jmask)  # lowest joker bit
    lone = pv[P.P_LONE_WILD] == 1
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
                if check and not locks_allow(S, pv, p, SETK, r, r, suits):
                    continue
                mask = ((sm & nat) << (4 * r)) | jbits
                if sm & sub:
                    mask |= (sm & sub) << (4 * src)
                k = _add(MV, k, SETK, count, r, r, suits, mask, (1 << r) if n > 0 else 0,
                         (1 << r) if j > 0 else 0, j)
        if sub:
            sort_by_mask(MV, k0, k)
    return k


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def joker_bits(jm, j):
    """The lowest j (0, 1, 2) jokers of the joker mask jm."""
    if j == 1:
        return jm & (-jm)
    if j == 2:
        return jm
    return np.int64(0)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def substitute_rank(r):
    """Card 20 (§4.20): the rank that may stand for J, Q, K (A, 2, 3); -1 for other ranks."""
    if r == 8:
        return 11
    if r == 9:
        return 12
    if r == 10:
        return 0
    return -1


@inl
def sort_by_mask(MV, lo, hi):
    """Rows lo..hi-1 in ascending card-mask order (the canonical order within a rank)."""
    for i in range(lo + 1, hi):
        j = i
        while j > lo and MV[ix(j - 1), MMASK] > MV[ix(j), MMASK]:
            for c in range(MOVE_COLS):
                t = MV[ix(j - 1), c]
                MV[ix(j - 1), c] = MV[ix(j), c]
                MV[ix(j), c] = t
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
def gen_stairs(S, pv, MV, k, p, hand, lo_len, hi_len, follow, eq, subs):
    """Stairs by (length, low rank, suit); following: stronger (or equal with ``eq``) than the top."""
    jmask = hand & JOKER_BITS
    nj_hand = popcount(jmask)
    rv = reversed_(S)
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
                    tv = mvalue(S[TK], S[TL], S[TH], rv)
                    if v < tv or (v == tv and not eq):
                        continue
                    if not locks_allow(S, pv, p, STAIRS, low, high, 1 << s):
                        continue
                k = _add(MV, k, STAIRS, L, low, high, 1 << s, mask, nr, jr, miss)
    return k


@inl
def may_follow_stairs(S, pv, p):
    if applies(S, 21, p):
        return True
    return S[OWN0 + 21] >= 0 and pv[P.P_21_FOLLOW] == 1


@inl
def may_play_equal(S, p):
    """§4.16: card 16 lets p match the top play's strength, never under a number lock."""
    return applies(S, 16, p) and S[NL] == 0


@inl
def add_joker_single(MV, k, hand):
    jm = hand & JOKER_BITS
    return _add(MV, k, JOKERK, 1, -1, -1, 0, jm & (-jm), 0, 0, 1)


@inl
def legal_plays(S, pv, MV, p):
    """All legal plays of p in canonical order; returns their number."""
    k = gen_plays(S, pv, MV, p)
    if pv[P.P_EXILE_ILLEGAL] and exile_restricts(S, p):
        k = drop_exiled(S, MV, k, p)
    return k


@inl
def drop_exiled(S, MV, k, p):
    """DEC-44 variant ``exile_mode = illegal``: joker revolutions of a restricted player go."""
    j = 0
    for i in range(k):
        if MV[ix(i), MJK] > 0 and revolution_size(S, p, MV[ix(i), MK], MV[ix(i), MC]):
            continue
        if j != i:
            for c in range(MOVE_COLS):
                MV[ix(j), c] = MV[ix(i), c]
        j += 1
    return j


@inl
def gen_plays(S, pv, MV, p):
    """Every play of p the rules allow before card 17's ``illegal`` variant."""
    hand = S[ix(H0 + p)]
    k = 0
    subs = applies(S, 20, p)
    if S[TK] == NONE:
        most = 0  # largest set the hand can form: skip sizes it cannot reach
        for r in range(13):
            held = (hand >> (4 * r)) & 15
            src = substitute_rank(r) if subs else -1
            if src >= 0:  # card 20: an A, 2 or 3 may stand in for a J, Q or K of its suit
                held |= (hand >> (4 * src)) & 15
            most = max(most, SUBN[ix(held), 1])
        most = min(4, most + popcount(hand & JOKER_BITS))
        for count in range(1, most + 1):
            k = gen_sets(S, pv, MV, k, p, hand, count, 0, 0, 13, False, subs)
        if applies(S, 21, p):
            k = gen_stairs(S, pv, MV, k, p, hand, 3, 13, False, False, subs)
        if hand & JOKER_BITS:
            k = add_joker_single(MV, k, hand)
        return k
    wisdom = applies(S, 23, p)
    if S[TK] == JOKERK:
        if applies(S, 22, p):  # §4.22: a 3 onto the Joker, ignoring locks (DEC-48)
            k = gen_sets(S, pv, MV, k, p, hand, 1, S[SL], 0, 1, False, False)
        if wisdom:
            k = gen_sets(S, pv, MV, k, p, hand, 3, S[SL], 0, 1, False, False)
        if (hand & JOKER_BITS) and may_play_equal(S, p):
            k = add_joker_single(MV, k, hand)
        return k
    if S[TK] == SETK:
        return follow_sets(S, pv, MV, k, p, hand, wisdom, subs)
    if wisdom:  # three 3s on stairs (kind order: sets before stairs)
        k = gen_sets(S, pv, MV, k, p, hand, 3, S[SL], 0, 1, False, False)
    if may_follow_stairs(S, pv, p):
        k = gen_stairs(S, pv, MV, k, p, hand, S[TC], S[TC], True, may_play_equal(S, p), subs)
    if applies(S, 2, p):
        k = gen_fusions(S, pv, MV, k, p, hand)
    return k


@inl
def follow_sets(S, pv, MV, k, p, hand, wisdom, subs):
    """Follows of a set or single: same count stronger (16: or equal), 06 slip-through counts,
    23 three 3s on anything; then the Joker single."""
    rv = reversed_(S)
    topv = mvalue(S[TK], S[TL], S[TH], rv)
    eq = may_play_equal(S, p)
    slip = applies(S, 6, p)
    tc = S[TC]
    check = S[SL] != 0 or S[NL] != 0
    for count in range(1, 5):
        same = count == tc
        if not (same or (slip and (count == 1) != (tc == 1))):
            if count == 3 and wisdom:
                k = gen_sets(S, pv, MV, k, p, hand, 3, S[SL], 0, 1, False, False)
            continue
        floor = topv if (same and eq) else topv + 1  # weakest strength allowed
        if rv:
            r_lo, r_hi = 0, 13 - floor
        else:
            r_lo, r_hi = floor, 13
        if count == 3 and wisdom:  # 23 ignores strength and locks: rank 3 listed first, once
            k = gen_sets(S, pv, MV, k, p, hand, 3, S[SL], 0, 1, False, False)
            r_lo = max(r_lo, 1)
        if r_lo < r_hi:
            k = gen_sets(S, pv, MV, k, p, hand, count, S[SL], r_lo, r_hi, check, subs)
    if applies(S, 2, p):
        k = gen_fusions(S, pv, MV, k, p, hand)
    if (hand & JOKER_BITS) and (tc == 1 or slip) and locks_allow(S, pv, p, JOKERK, -1, -1, 0):
        k = add_joker_single(MV, k, hand)
    return k


# ---- card 02 fusion -----------------------------------------------------------------
@inl
def gen_fusions(S, pv, MV, k, p, hand):
    """S0 / §4.2 / DEC-30: fusions onto the top play in canonical order (sets by fused size and
    added cards, then stairs by fused length and low rank); rows hold the added cards."""
    if pv[P.P_FUSION_LOCKS] and ((S[SL] and not holder(S, 14, p)) or (S[NL] and not holder(S, 15, p))):
        return k
    jm = np.int64(0) if exile_restricts(S, p) else hand & JOKER_BITS
    nj = popcount(jm)
    three = applies(S, 7, p)
    tk, tc, tl, th, ts = S[TK], S[TC], S[TL], S[TH], S[TS]
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
                    k = _add(MV, k, SETK, need, tl, tl, sm | js, (np.int64(sm) << np.int64(4 * tl)) | jbits,
                             (1 << tl) if n > 0 else 0, (1 << tl) if j > 0 else 0, j)
                    MV[ix(k - 1), MFU] = 1
    if (tk == STAIRS and may_follow_stairs(S, pv, p)) or (tk == SETK and tc == 1 and applies(S, 21, p)):
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
                k = _add(MV, k, STAIRS, L - tc, low if low < tl else th + 1, high if high > th else tl - 1,
                         1 << s, mask, nr, jr, miss)
                MV[ix(k - 1), MFU] = 1
    return k


# ---- rule helpers -------------------------------------------------------------------
@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def revolution_size(S, p, kind, count):
    if kind == JOKERK:
        return False
    if count >= 4:
        return True
    return count == 3 and applies(S, 7, p)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def exile_restricts(S, p):
    """§4.17: card 17 restricts p as a law, or as a precept of another player."""
    own = S[ix(OWN0 + 17)]
    return ((S[LAWS] >> 17) & 1) == 1 or (own >= 0 and own != p)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def move_revolts(S, MV, m, p):
    """Whether move m would toggle ``rev`` when p plays it (§3.5, card 17 included)."""
    if MV[ix(m), MFU]:
        return True
    if not revolution_size(S, p, MV[ix(m), MK], MV[ix(m), MC]):
        return False
    return MV[ix(m), MJK] == 0 or not exile_restricts(S, p)


@inl
def is_forbidden(S, pv, p, MV, m, tk, r_before, rev_before, revolted):
    """§3.7 / DEC-27 for move m played onto a top play of kind tk."""
    if MV[m, MJK] > 0:
        return True
    strong_rev = r_before if pv[P.P_STRONG_EFF] else rev_before
    strongest = 0 if strong_rev else 12
    if contains_rank(MV[m, MNR], MV[m, MJR], strongest, True):
        return True
    wild = pv[P.P_WILD_EFFECTS] == 1
    if pv[P.P_FF_09] and applies(S, 9, p) and contains_rank(MV[m, MNR], MV[m, MJR], 5, wild):
        return True
    if pv[P.P_FF_19] and applies(S, 19, p) and contains_rank(MV[m, MNR], MV[m, MJR], 8, wild):
        return True
    if pv[P.P_FF_03] and applies(S, 3, p) and contains_rank(MV[m, MNR], MV[m, MJR], 7, wild):
        return True
    if pv[P.P_FF_10] and applies(S, 10, p) and contains_rank(MV[m, MNR], MV[m, MJR], 10, wild):
        return True
    if pv[P.P_FF_11] and MV[m, MFU] == 0 and is_hunt_trigger(S, p, MV[m, MK], MV[m, MC], MV[m, MNR], MV[m, MJR], wild):
        return True
    if pv[P.P_FF_22] and is_three_return(S, p, MV[m, MK], MV[m, MC], MV[m, ML], tk):
        return True
    if pv[P.P_FF_23] and MV[m, MFU] == 0 and is_three_threes(S, p, MV[m, MK], MV[m, MC], MV[m, ML]):
        return True
    return pv[P.P_REV_FF] == 1 and revolted


@inl
def finish_forbidden(S, pv, p, MV, m, tk, r_before, rev_before, revolted):
    """Finishing with move m is forbidden for p: §3.7 unless card 04 applies (§4.4)."""
    return not applies(S, 4, p) and is_forbidden(S, pv, p, MV, m, tk, r_before, rev_before, revolted)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def is_hunt_trigger(S, p, kind, count, nr, jr, wild):
    """§4.11: a single of represented rank Q (DEC-24 for a wild joker) by a player 11 applies to."""
    return kind == SETK and count == 1 and contains_rank(nr, jr, 9, wild) and applies(S, 11, p)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def is_three_return(S, p, kind, count, low, tk):
    """§4.22: a single of represented rank 3 onto a Joker single."""
    return tk == JOKERK and kind == SETK and count == 1 and low == 0 and applies(S, 22, p)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def is_three_threes(S, p, kind, count, low):
    """§4.23: exactly three cards of represented rank 3 (jokers wild, QA-23.2)."""
    return kind == SETK and count == 3 and low == 0 and applies(S, 23, p)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def flow(S, leader):
    S[DISC] |= S[FIELD]
    S[FIELD] = 0
    S[TK] = NONE
    S[TO] = -1
    S[JB] = 0
    S[SL] = 0
    S[NL] = 0
    S[GK] = 0
    S[HUNT] = 0
    S[HUNT_DONE] = 0
    S[PASSED] = 0
    S[TURN] = leader
    S[RC_PENDING] = 1  # §2.11.5 step 4: the card-01 window


@inl
def flow_trick(S, pv, n, leader):
    """§2.11.5: the field flows; a pending armed-force claim is confirmed (step 3); a leader
    who left the round hands the lead to the next active player (§2.11.6)."""
    flow(S, leader)
    if S[AF_CLAIM] >= 0 and pv[P.P_AF_MODE] == R.AF_TRICK_END:
        confirm_claim(S, pv, n)
    if leader >= 0 and not S[ix(A0 + leader)]:
        S[TURN] = next_active(S, n, leader)


@inl
def next_turn(S, pv, n, p):
    if n_active(S, n) <= 1:
        return
    owner = S[TO]
    for i in range(1, n + 1):
        q = (p + i) % n
        if S[ix(A0 + q)] and not (S[PASSED] >> q) & 1:
            if q == owner:
                flow_trick(S, pv, n, owner)
            else:
                S[TURN] = q
            return
    flow_trick(S, pv, n, next_active(S, n, owner))


@inl
def capital_fall(S, pv, n, first):
    k = S[KING]
    if S[ROUND] < 2 or k < 0 or first == k:
        return
    if S[A0 + k]:
        leave_round(S, pv, k)
    elif not pv[P.P_CF_PLACED] or not remove_placed(S, BOT0, NBOT, k):
        return
    fall_to_bottom(S, pv, n, k)


@inl
def leave_round(S, pv, q):
    """DEC-16: an active player leaves the round; the hand goes face up to the discard pile."""
    S[A0 + q] = 0
    if pv[P.P_EXIT_DISCARD]:
        S[DISC] |= S[H0 + q]
    else:
        S[REMOVED] |= S[H0 + q]
    S[H0 + q] = 0
    S[PASSED] &= ~(np.int64(1) << np.int64(q))


@inl
def remove_placed(S, base, count, q):
    """Remove seat q from the placement list at ``base`` (length S[count]); False if absent."""
    pos = -1
    for i in range(S[count]):
        if S[base + i] == q:
            pos = i
    if pos < 0:
        return False
    for i in range(pos, S[count] - 1):
        S[base + i] = S[base + i + 1]
    S[count] -= 1
    return True


@inl
def fall_to_bottom(S, pv, n, k):
    """§3.8: k goes to the very bottom (last place); +bonus to every other player."""
    S[BOT0 + S[NBOT]] = k
    S[NBOT] += 1
    S[RS0 + ST_CF] += 1
    for q in range(n):
        if q != k:
            S[BP0 + q] += pv[P.P_CF_BONUS]
            S[RB0 + q] += pv[P.P_CF_BONUS]


@inl
def bot_yes(S, pol, rng, strategist_yes):
    """A bot's yes/no decision (optional 07 revolution, 18 precept exchange): random draws,
    greedy says yes, strategist follows its own judgement."""
    S[DECISIONS] += 1
    if pol == RANDOM:
        return randbelow(rng, 2) == 1
    if pol == GREEDY:
        return True
    return strategist_yes


# ---- card 18 flux -------------------------------------------------------------------
@inl
def flux_source(S, pv, n, p):
    """The seat whose hand p would receive through card 18 (D13)."""
    if not pv[P.P_FLUX_ROTATE]:
        return next_active(S, n, p)
    for i in range(1, n):
        q = (p - i + n) % n
        if S[ix(A0 + q)]:
            return q
    return p


@inl
def flux(S, pv, n, p, pol, flux_margin, rng):
    """S7 / §4.18 / DEC-45: p swaps hands with the next active player (``rotate_all``: every
    active hand moves one seat clockwise); the precept is the holder's option (D13)."""
    if not (S[LAWS] >> 18) & 1:
        got = popcount(S[ix(H0 + flux_source(S, pv, n, p))])
        if not bot_yes(S, pol, rng, float(got) + flux_margin <= float(popcount(S[ix(H0 + p)]))):
            return
    if pv[P.P_FLUX_ROTATE]:
        last = -1
        for q in range(n):
            if S[ix(A0 + q)]:
                last = q
        if n_active(S, n) < 2:
            return
        carry = S[ix(H0 + last)]
        for q in range(n):
            if S[ix(A0 + q)]:
                t = S[ix(H0 + q)]
                S[ix(H0 + q)] = carry
                carry = t
    else:
        q = next_active(S, n, p)
        if q == p or q < 0:
            return
        t = S[ix(H0 + q)]
        S[ix(H0 + q)] = S[ix(H0 + p)]
        S[ix(H0 + p)] = t
    S[RS0 + ST_FLUX] += 1


# ---- card 13 armed force ------------------------------------------------------------
@inl
def claim_armed_force(S, pv, q):
    """S2 / §4.13 step 1 / DEC-39: a revolution by q claims the round if A(13, q); a later
    revolution by anyone makes an earlier claim fizzle (``round_end``: by an entitled player)."""
    entitled = applies(S, 13, q)
    if not entitled and (S[AF_CLAIM] < 0 or pv[P.P_AF_MODE] == R.AF_ROUND_END):
        return
    if S[AF_CLAIM] >= 0 and S[AF_CLAIM] != q:
        S[RS0 + ST_AF_FIZZLES] += 1
    if entitled:
        S[AF_CLAIM] = q
        S[RS0 + ST_AF_CLAIMS] += 1
    else:
        S[AF_CLAIM] = -1


@inl
def confirm_claim(S, pv, n):
    """§4.13 step 2: a pending claim becomes the win of the round."""
    q = S[AF_CLAIM]
    S[AF_CLAIM] = -1
    if q >= 0:
        promote(S, pv, n, q)


@inl
def promote(S, pv, n, q):
    """§4.13 step 2, QA-13.1-13.3, DEC-40: q becomes 1st; a displaced 1st falls to the very
    bottom; with nobody placed, the king falls (§3.8)."""
    if S[NTOP] > 0 and S[TOP0] == q:
        return
    falls = S[RS0 + ST_CF]
    S[RS0 + ST_AF_PROMOS] += 1
    if S[A0 + q]:
        leave_round(S, pv, q)
    elif not remove_placed(S, TOP0, NTOP, q):
        remove_placed(S, BOT0, NBOT, q)
        S[RS0 + ST_AF_BOTTOM] += 1
    if S[NTOP] > 0:
        first = S[TOP0]
        S[TOP0] = q
        fall_to_bottom(S, pv, n, first)
    else:
        S[TOP0] = q
        S[NTOP] = 1
        capital_fall(S, pv, n, q)
    S[RS0 + ST_AF_CF] += S[RS0 + ST_CF] - falls


@inl
def place_top(S, pv, n, p):
    S[TOP0 + S[NTOP]] = p
    S[NTOP] += 1
    if S[NTOP] == 1:
        capital_fall(S, pv, n, p)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def place_bottom(S, pv, p):
    if pv[P.P_EARLIEST_LOWEST]:
        for i in range(S[NBOT], 0, -1):
            S[BOT0 + i] = S[BOT0 + i - 1]
        S[BOT0] = p
    else:
        S[BOT0 + S[NBOT]] = p
    S[NBOT] += 1


# ---- bots ---------------------------------------------------------------------------
@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def weak_hand(S, hand, rv, revolt_below):
    tot = 0
    cnt = 0
    for r in range(13):
        c = popcount((hand >> (4 * r)) & 15)
        tot += c * strength(r, rv)
        cnt += c
    return cnt > 0 and float(tot) < revolt_below * float(cnt)


@inl
def strategist_play(S, pv, n, MV, nm, p, can_pass, revolt_below, pass_control_above, boss_hand):
    hand = S[ix(H0 + p)]
    size = popcount(hand)
    rv = reversed_(S)
    rev = S[REV] == 1
    for m in range(nm):
        if MV[ix(m), MC] == size and not finish_forbidden(S, pv, p, MV, m, S[TK], rv, rev, move_revolts(S, MV, m, p)):
            return m
    first_rev = -1
    for m in range(nm):
        if move_revolts(S, MV, m, p):
            first_rev = m
            break
    if first_rev >= 0 and weak_hand(S, hand, rv, revolt_below):
        return first_rev
    strongest = 0 if rv else 12
    ffmask = (hand & JOKER_BITS) | (np.int64(15) << np.int64(4 * strongest))
    if applies(S, 9, p):
        ffmask |= np.int64(15) << np.int64(20)
    if applies(S, 19, p):
        ffmask |= np.int64(15) << np.int64(32)
    if applies(S, 4, p):  # card 04: no finish is forbidden for p
        ffmask = np.int64(0)
    boss_check = (not can_pass) and size <= boss_hand
    seen = hand | S[DISC] | S[FIELD]
    jk_unseen = 1 + S[T5DONE] - popcount(seen & JOKER_BITS)
    min_opp = 0
    first = True
    for q in range(n if can_pass else 0):
        if q != p and S[ix(A0 + q)]:
            c = popcount(S[ix(H0 + q)])
            if first or c < min_opp:
                min_opp = c
                first = False
    best = -1
    best_cost = 1 << 30
    for m in range(nm):
        kind = MV[ix(m), MK]
        count = MV[ix(m), MC]
        mask = MV[ix(m), MMASK]
        cost = mvalue(kind, MV[ix(m), ML], MV[ix(m), MH], rv) * 16 + (15 - count) + 200 * MV[ix(m), MJK]
        if (mask >> (4 * strongest)) & 15:
            cost += 100
        if kind == SETK and count - MV[ix(m), MJK] < popcount((hand >> (4 * MV[ix(m), ML])) & 15):
            cost += 8
        rest = hand & ~mask
        if rest:
            if (rest & ~ffmask) == 0:
                cost += 60
            if boss_check and is_boss(S, seen, jk_unseen, kind, count, MV[ix(m), ML], MV[ix(m), MH], rv):
                cost -= 300
        elif finish_forbidden(S, pv, p, MV, m, S[TK], rv, rev, move_revolts(S, MV, m, p)):
            cost += 1000
        if cost < best_cost:
            best = m
            best_cost = cost
    if can_pass and (best_cost >= 1000 or (best_cost >= 100 and float(min_opp) > pass_control_above)):
        return -1
    return best


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def is_boss(S, seen, jk_unseen, kind, count, low, high, rv):
    if kind == JOKERK:
        return True
    if kind != SETK:
        return False
    if count == 1 and jk_unseen > 0:
        return False
    v = mvalue(kind, low, high, rv)
    for r in range(13):
        if strength(r, rv) > v and 4 - popcount((seen >> (4 * r)) & 15) + jk_unseen >= count:
            return False
    return True


@inl
def ff_cards(S, pv, p):
    """DEC-50: the mask of cards p could lead alone now only as a forbidden finish (§3.7: a
    joker, the strongest rank, the ranks of the effect cards that apply to p; under card 20
    an A, 2 or 3 only if its J, Q or K lead is forbidden too); 0 when card 04 applies to p."""
    if applies(S, 4, p):
        return np.int64(0)
    strong_rev = reversed_(S) if pv[P.P_STRONG_EFF] else S[REV] == 1
    fr = np.int64(1) << np.int64(0 if strong_rev else 12)  # ranks whose lead is forbidden
    if pv[P.P_FF_09] and applies(S, 9, p):
        fr |= 1 << 5
    if pv[P.P_FF_19] and applies(S, 19, p):
        fr |= 1 << 8
    if pv[P.P_FF_03] and applies(S, 3, p):
        fr |= 1 << 7
    if pv[P.P_FF_10] and applies(S, 10, p):
        fr |= 1 << 10
    if pv[P.P_FF_11] and applies(S, 11, p):
        fr |= 1 << 9
    if applies(S, 20, p):  # an A, 2, 3 may also be led as J, Q, K
        if not (fr >> 8) & 1:
            fr &= ~np.int64(1 << 11)
        if not (fr >> 9) & 1:
            fr &= ~np.int64(1 << 12)
        if not (fr >> 10) & 1:
            fr &= ~np.int64(1)
    mask = JOKER_BITS
    for r in range(13):
        if (fr >> r) & 1:
            mask |= np.int64(15) << np.int64(4 * r)
    return mask


@inl
def keep_finisher(S, pv, MV, nm, p):
    """``bots.keep_finisher``: a leading greedy or strategist drops the plays that would leave
    only forbidden-finish cards (not a revolution) when some play leaves a card it may finish
    on; the move table is compacted in order. Returns the number of moves left."""
    hand = S[ix(H0 + p)]
    ffm = ff_cards(S, pv, p)
    if (hand & ffm) == 0:
        return nm
    safe = False
    for m in range(nm):
        if (hand & ~MV[ix(m), MMASK]) & ~ffm:
            safe = True
            break
    if not safe:
        return nm
    k = 0
    for m in range(nm):
        rest = hand & ~MV[ix(m), MMASK]
        if rest == 0 or (rest & ~ffm) != 0 or move_revolts(S, MV, m, p):
            if k != m:
                for j in range(MOVE_COLS):
                    MV[ix(k), j] = MV[ix(m), j]
            k += 1
    return k


@inl
def choose_play(S, pv, n, MV, nm, p, can_pass, pol, revolt_below, pass_control_above, boss_hand, rng):
    """Index of the chosen move, or -1 for a pass (options: [pass] + moves)."""
    nopt = nm + (1 if can_pass else 0)
    if nopt == 1:
        return 0 if nm == 1 else -1
    S[DECISIONS] += 1
    if pol == RANDOM:
        i = randbelow(rng, nopt)
        return i - 1 if can_pass else i
    if nm == 0:
        return -1
    if not can_pass:  # leading (§2.11.1)
        nm = keep_finisher(S, pv, MV, nm, p)
    if pol == GREEDY:
        rv = reversed_(S)
        best = 0
        bc = 1 << 30
        for m in range(nm):
            c = MV[ix(m), MJK] * 1000 + mvalue(MV[ix(m), MK], MV[ix(m), ML], MV[ix(m), MH], rv) * 16 + (15 - MV[ix(m), MC])
            if c < bc:
                bc = c
                best = m
        return best
    return strategist_play(S, pv, n, MV, nm, p, can_pass, revolt_below, pass_control_above, boss_hand)


@fn
def nth_card(mask, idx):
    """The idx-th card (ascending ids) of a mask; -1 if there are fewer cards."""
    for r in range(14):
        nib = (mask >> (4 * r)) & 15
        c = popcount(nib)
        if idx >= c:
            idx -= c
            continue
        for s in range(4):
            if (nib >> s) & 1:
                if idx == 0:
                    return 4 * r + s
                idx -= 1
    return -1


@fn
def unpaired_order_pick(hand, exclude):
    """Strategist's weakest card: unpaired naturals, then paired, then jokers (ascending ids)."""
    unpaired = np.int64(0)
    for r in range(13):
        nib = (hand >> (4 * r)) & 15
        if nib and popcount(nib) < 2:
            unpaired |= nib << (4 * r)
    avail = hand & ~exclude
    c = nth_card(avail & unpaired, 0)
    if c >= 0:
        return c
    c = nth_card(avail & ~unpaired & ~JOKER_BITS, 0)
    if c >= 0:
        return c
    return nth_card(avail & JOKER_BITS, 0)


@inl
def draft_fit(hand, c):
    """bots.draft_fit: cards of the dealt hand the precept's effect uses (D1)."""
    rank = FIT_RANK[c]
    if rank >= 0:
        return 3 * popcount((hand >> (4 * rank)) & 15)
    jokers = popcount(hand & JOKER_BITS)
    if c == 4:
        return 3 * (jokers + popcount((hand >> 48) & 15))
    if c == 20:
        return 2 * (popcount((hand >> 44) & 15) + popcount((hand >> 48) & 15) + popcount(hand & 15))
    if c == 23:
        return 4 if popcount(hand & 15) + jokers >= 3 else 0
    if c == 2 or c == 7 or c == 13:
        k = 0
        for r in range(13):
            cnt = popcount((hand >> (4 * r)) & 15)
            if (c == 2 and cnt >= 2) or (c == 7 and cnt >= 3) or (c == 13 and cnt + jokers >= 4):
                k += 1
        return (2 if c == 2 else 4) * k
    if c == 21:
        k = 0
        for s in range(4):
            for r in range(11):
                if (hand >> (4 * r + s)) & 1 and (hand >> (4 * r + 4 + s)) & 1 and (hand >> (4 * r + 8 + s)) & 1:
                    k += 1
        return 4 * k
    return 0


# ---- game ---------------------------------------------------------------------------
@inl
def rank_count(kind, count, low, nr, jr, nj, rank, wild):
    """Cards of a play that represent ``rank`` (DEC-24: wild jokers when they trigger effects)."""
    if kind == SETK:
        if low != rank:
            return 0
        return count if wild else count - nj
    if kind == STAIRS:
        return ((nr >> rank) & 1) + (1 if wild and (jr >> rank) & 1 else 0)
    return 0


@inl
def random_cards(rest, k, rng):
    """k cards drawn one ``randbelow`` each from ``rest`` in ascending id order (as a trim)."""
    out = np.int64(0)
    for j in range(k):
        x = nth_card(rest, randbelow(rng, popcount(rest)))
        rest &= ~(np.int64(1) << np.int64(x))
        out |= np.int64(1) << np.int64(x)
    return out


@inl
def pull_back(S, pv, p, kind, count, nr, jr, nj, wild, tm, pol, margin, rng):
    """S4 / §4.10 / DEC-36 (D11): take up to k cards of the previous play (mask tm) back."""
    kings = rank_count(kind, count, S[TL], nr, jr, nj, 10, wild)
    if kings == 0:
        return
    most = min(count if pv[P.P_PULL_PLAYED] else kings, popcount(tm))
    S[DECISIONS] += 1
    if pol == RANDOM:
        take = random_cards(tm, randbelow(rng, most + 1), rng)
    else:
        rv = reversed_(S)
        bar = strength(10, rv) + (1 if pol == GREEDY else margin)
        take = np.int64(0)
        got = 0
        for v in range(13, -1, -1):  # strongest first, ascending ids within a strength
            if got == most or v < bar:
                break
            if v == 13:
                cand = tm & JOKER_BITS
            else:
                r = 12 - v if rv else v
                cand = tm & (np.int64(15) << np.int64(4 * r))
            while cand and got < most:
                low = cand & (-cand)
                take |= low
                cand &= ~low
                got += 1
    if take:
        S[FIELD] &= ~take
        S[ix(H0 + p)] |= take
        S[RS0 + ST_PULLS] += 1
        S[RS0 + ST_PULLED] += popcount(take)


@inl
def ten_discard(S, pv, p, kind, count, nr, jr, nj, wild, pol, rng):
    """S5 / §4.3 / DEC-32 (D12): discard up to t cards for t represented 10s among the ``count``
    cards just played (a fusion: the added cards, DEC-31); returns whether that emptied the
    hand (a forbidden finish, §3.7 item 4)."""
    tens = rank_count(kind, count, S[TL], nr, jr, nj, 7, wild)
    if tens == 0:
        return False
    hand = S[ix(H0 + p)]
    size = popcount(hand)
    most = min(tens, size)
    mandatory = pv[P.P_03_MANDATORY] == 1
    if mandatory and most == size:
        out = hand
    else:
        S[DECISIONS] += 1
        if pol == RANDOM:
            out = random_cards(hand, most if mandatory else randbelow(rng, most + 1), rng)
        else:
            k = most if mandatory else min(most, size - 1)
            out = np.int64(0)
            for j in range(k):
                if pol == GREEDY:
                    x = nth_card(hand & ~out, 0)
                else:
                    x = unpaired_order_pick(hand, out)
                out |= np.int64(1) << np.int64(x)
    if out:
        S[ix(H0 + p)] &= ~out
        S[DISC] |= out
        S[RS0 + ST_TENS] += 1
        S[RS0 + ST_TENNED] += popcount(out)
    return S[ix(H0 + p)] == 0


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
def count_special_play(S, p, kind, count, low, high, tk, tc, tl, th, rv):
    """§7 counters of plays made through a card's permission (06 slip-through, 16 equal)."""
    if kind != STAIRS and tk != STAIRS and count != tc and not is_three_threes(S, p, kind, count, low):
        S[RS0 + ST_SLIP] += 1
    elif kind == tk and count == tc and mvalue(kind, low, high, rv) == mvalue(tk, tl, th, rv):
        S[RS0 + ST_EQUAL] += 1


@inl
def make_play(S, pv, n, MV, m, p, pol, revolt_below, margin, flux_margin, rng):
    """§4.26 S1-S10 (steps of unimplemented cards are no-ops); True when the play did not flow
    the field or end the round (S11 follows in ``play_round``)."""
    tk, tc, tl, th, ts, tm = S[TK], S[TC], S[TL], S[TH], S[TS], S[TM]
    r_before = reversed_(S)
    rev_before = S[REV] == 1
    kind, count, low, high, suits, mask = MV[m, MK], MV[m, MC], MV[m, ML], MV[m, MH], MV[m, MSU], MV[m, MMASK]
    fu = MV[m, MFU] == 1  # card 02: the row holds the added cards; the top becomes the fused play
    S[ix(H0 + p)] &= ~mask
    S[FIELD] |= mask
    if fu:
        S[TC], S[TO], S[TM], S[TN], S[TJ] = tc + count, p, tm | mask, S[TN] | MV[m, MNR], S[TJ] | MV[m, MJR]
        S[TK], S[TS] = kind, ts | suits
        if kind == STAIRS:
            S[TL], S[TH] = min(tl, low), max(th, high)
        S[RS0 + ST_FUSIONS] += 1
    else:
        S[TK], S[TC], S[TL], S[TH], S[TS], S[TO], S[TM], S[TN], S[TJ] = kind, count, low, high, suits, p, mask, MV[m, MNR], MV[m, MJR]
    S[RS0 + ST_PLAYS] += 1
    S[TOTAL] += 1
    if applies(S, 20, p):
        S[RS0 + ST_SUBS] += substitute_count(kind, count, low, high, suits, mask, MV[m, MJK])
    if tk == NONE:
        S[RS0 + ST_TRICKS] += 1
    elif not fu:
        count_special_play(S, p, kind, count, low, high, tk, tc, tl, th, r_before)
    if not pv[P.P_LOCKOUT]:
        S[PASSED] = 0
    # S2 revolution
    revolted = False
    rsize = fu or revolution_size(S, p, kind, count)
    if rsize and not fu and MV[m, MJK] > 0 and exile_restricts(S, p):
        S[RS0 + ST_EXILED] += 1  # S2 / §4.17: no revolution with a joker
    elif rsize:
        go = True
        if count == 3 and pv[P.P_07_OPTIONAL] and not fu:
            go = bot_yes(S, pol, rng, weak_hand(S, S[ix(H0 + p)], reversed_(S), revolt_below))
        if go:
            if S[REV]:
                S[RS0 + ST_COUNTER] += 1
            S[REV] = 1 - S[REV]
            S[RS0 + ST_REVS] += 1
            S[REVS0 + p] += 1
            revolted = True
            claim_armed_force(S, pv, p)
    wild = pv[P.P_WILD_EFFECTS] == 1
    nr, jr = MV[m, MNR], MV[m, MJR]
    # S3 J-back
    if applies(S, 19, p) and contains_rank(nr, jr, 8, wild):
        S[JB] = (1 - S[JB]) if pv[P.P_JBACK_TOGGLE] else 1
        S[RS0 + ST_JB] += 1
    # S4 pull-back, S5 ten discard
    if tk != NONE and not fu and applies(S, 10, p):
        pull_back(S, pv, p, kind, count, nr, jr, MV[m, MJK], wild, tm, pol, margin, rng)
    emptied = False
    if S[ix(H0 + p)] != 0 and applies(S, 3, p):
        emptied = ten_discard(S, pv, p, kind, count, nr, jr, MV[m, MJK], wild, pol, rng)
    # S6 magician hunt
    if S[HUNT] and mask & JOKER_BITS:
        S[HUNT_DONE] |= np.int64(1) << np.int64(p)
    if not S[HUNT] and not fu and is_hunt_trigger(S, p, kind, count, nr, jr, wild):
        S[HUNT] = 1
        S[RS0 + ST_HUNTS] += 1
    # S7 flux
    if revolted and S[ix(H0 + p)] != 0 and applies(S, 18, p):
        flux(S, pv, n, p, pol, flux_margin, rng)
    # S8 locks
    if tk != NONE and kind != JOKERK and tk != JOKERK and not fu:
        if applies(S, 14, p):
            shared = suits & ts
            if shared and (S[SL] == 0 or pv[P.P_LOCK_TIGHTEN]):
                if S[SL] == 0:
                    S[RS0 + ST_SL] += 1
                S[SL] |= shared
        if applies(S, 15, p) and not S[NL] and one_step(kind, low, high, tk, tl, th, r_before):
            S[NL] = 1
            S[RS0 + ST_NL] += 1
        if S[SL] and S[NL] and not S[GK]:
            S[GK] = 1
            S[RS0 + ST_GEKI] += 1
    # S9 finish
    forbidden = False
    if S[ix(H0 + p)] == 0:
        S[A0 + p] = 0
        forbidden = emptied or is_forbidden(S, pv, p, MV, m, tk, r_before, rev_before, revolted)
        if forbidden and applies(S, 4, p):  # §4.4: card 04 lifts the forbidden finish
            S[RS0 + ST_TABOO] += 1
            forbidden = False
        if forbidden:
            place_bottom(S, pv, p)
            S[RS0 + ST_FF] += 1
            S[FF0 + p] += 1
            forbidden = True
        else:
            place_top(S, pv, n, p)
    if S[AF_CLAIM] >= 0 and pv[P.P_AF_MODE] == R.AF_IMMEDIATE:
        confirm_claim(S, pv, n)  # DEC-39 variant: the claim is won once the play has resolved
    if n_active(S, n) <= 1:
        return False
    # S10 flow effects: eight cut (09), three return (22), three 3s (23)
    flows = True
    if applies(S, 9, p) and contains_rank(nr, jr, 5, wild):
        S[RS0 + ST_EIGHT] += 1
    elif is_three_return(S, p, kind, count, low, tk):
        S[RS0 + ST_3RET] += 1
    elif not fu and is_three_threes(S, p, kind, count, low):
        S[RS0 + ST_333] += 1
    else:
        flows = False
    if flows:
        flow_trick(S, pv, n, p if S[A0 + p] else next_active(S, n, p))
        return False
    if forbidden and pv[P.P_FF_FLOWS]:
        flow_trick(S, pv, n, next_active(S, n, p))
        return False
    return True  # S11: the dobon window (play_round), then the next turn


from .kernel_outturn import RECYCLE_HAND_COL, in_play, start_of_turn, window_dobon, window_recycle  # noqa: E402


@inl
def play_round(S, pv, n, MV, pols, prms, rng, seatpos, order):
    live01, live24, live25 = in_play(S, 1), in_play(S, 24), in_play(S, 25)
    live = live01 or live24 or live25
    while n_active(S, n) > 1:
        if S[RC_PENDING]:
            S[RC_PENDING] = 0
            if live01:
                window_recycle(S, n, pols, prms, seatpos, rng, S[TURN])
        if S[RS0 + ST_PLAYS] >= pv[P.P_MAX_PLAYS]:
            confirm_claim(S, pv, n)  # a round end (§2.13)
            k = 0
            for q in range(n):
                if S[ix(A0 + q)]:
                    order[k] = q
                    k += 1
            shuffle(rng, order, k)
            S[RS0 + ST_GUARD] = 1
            for i in range(k):
                q = order[i]
                if S[ix(A0 + q)]:
                    S[ix(A0 + q)] = 0
                    place_top(S, pv, n, q)
            break
        p = S[TURN]
        pos = seatpos[p]
        if live and start_of_turn(S, pv, n, p, pols[pos], prms[pos, RECYCLE_HAND_COL], rng, live01, live24, live25):
            continue
        nm = legal_plays(S, pv, MV, p)
        can_pass = S[TK] != NONE
        if S[HUNT] and not (S[HUNT_DONE] >> p) & 1 and nm > 0 and MV[ix(nm - 1), MK] == JOKERK:
            for j in range(MOVE_COLS):  # D10: the Joker single (always listed last) is forced
                MV[0, j] = MV[ix(nm - 1), j]
            nm = 1
            can_pass = False
            S[RS0 + ST_FORCED] += 1
        ch = choose_play(S, pv, n, MV, nm, p, can_pass, pols[pos], prms[pos, 0], prms[pos, 1], prms[pos, 2], rng)
        if ch < 0:
            S[PASSED] |= np.int64(1) << np.int64(p)
            S[RS0 + ST_PASSES] += 1
            next_turn(S, pv, n, p)
        else:
            if make_play(S, pv, n, MV, ch, p, pols[pos], prms[pos, 0], prms[pos, 3], prms[pos, PRM_FLUX], rng):
                if not (live25 and window_dobon(S, pv, n, p, pols, seatpos, rng)):
                    next_turn(S, pv, n, p)
    confirm_claim(S, pv, n)  # §2.13: before the last player is placed
    for q in range(n):
        if S[ix(A0 + q)]:
            S[ix(A0 + q)] = 0
            place_top(S, pv, n, q)
    S[DISC] |= S[FIELD]
    S[FIELD] = 0


@fn
def setup_round(S, pv, n, pols, prms, rng, seatpos, deck, order):
    """§2.3 phases 1-7, as the reference engine's ``phase_*`` methods."""
    nrev = phase_deal(S, pv, n, rng, deck)
    phase_draft(S, pv, n, pols, prms, rng, seatpos, order, nrev)
    if S[ROUND] > 1:
        phase_exchange(S, n, pols, rng, seatpos)
        phase_king_give(S, n, pols, rng, seatpos)
    trickster(S)  # §2.8 / DEC-4: 05, 12 law, 12 precept
    if (S[LAWS] >> 12) & 1:
        collusion_law(S, pv, n, pols, rng, seatpos, order)
    elif S[OWN0 + 12] >= 0:
        collusion_precept(S, pv, n, pols, rng, seatpos, order)
    phase_trim(S, pv, n, pols, rng, seatpos)
    phase_start(S, n, pols, rng, seatpos)


@inl
def clear_round(S, n):
    """A new round's empty trick, placements and counters (round-long state of the game stays)."""
    for i in range(TK, TJ + 1):
        S[i] = 0
    S[TK] = NONE
    S[TO] = -1
    for i in range(REV, REMOVED + 1):
        S[i] = 0
    S[NTOP] = 0
    S[NBOT] = 0
    S[RC_USED] = 0
    S[RC_PENDING] = 0
    for q in range(n):
        S[ix(A0 + q)] = 1
        S[RB0 + q] = 0
    for i in range(T.R_FIXED):
        S[RS0 + i] = 0
    S[AF_CLAIM] = -1


@inl
def phase_deal(S, pv, n, rng, deck):
    """§2.3 phases 1-2: new round, deal, law, precepts revealed; round 1 fixes the start player
    first (DEC-10). Returns the number of revealed precepts."""
    S[ROUND] += 1
    rnd = S[ROUND]
    clear_round(S, n)
    S[KING] = S[PREV0] if rnd > 1 else -1
    S[RS0 + ST_KING] = S[KING]
    if rnd == 1:
        S[START] = randbelow(rng, n)
    deal(S, pv, n, rng, deck)
    law_phase(S)
    nrev = 0
    if pv[P.P_MADNESS]:
        while nrev < n and S[DECK_PTR] < S[DECK_LEN]:
            S[REVEAL0 + nrev] = S[DECK0 + S[DECK_PTR]]
            S[DECK_PTR] += 1
            nrev += 1
    return nrev


@inl
def deal(S, pv, n, rng, deck):
    """§2.4: shuffle the 53 cards (54 once card 05 resolved), deal ``hand_size`` to each; the
    rest set aside (DEC-1)."""
    total = R.BASE_DECK + S[T5DONE]
    for i in range(total):
        deck[i] = i
    shuffle(rng, deck, total)
    h = pv[P.P_HAND]
    for q in range(n):
        m = np.int64(0)
        for i in range(q * h, q * h + h):
            m |= np.int64(1) << np.int64(deck[i])
        S[ix(H0 + q)] = m
    und = np.int64(0)
    for i in range(n * h, total):
        und |= np.int64(1) << np.int64(deck[i])
    S[UNDEALT] = und


@inl
def law_phase(S):
    """§2.5: reveal the top rule card as a law (DEC-3: nothing if the deck is empty)."""
    if S[DECK_PTR] < S[DECK_LEN]:
        c = S[DECK0 + S[DECK_PTR]]
        S[DECK_PTR] += 1
        S[LAWS] |= np.int64(1) << np.int64(c)
        S[RS0 + ST_LAW] = c


@inl
def draft_order(S, pv, n, rng, order):
    """§2.6 / DEC-5 / DEC-6: round 1 random first picker clockwise; later last place first."""
    if S[ROUND] == 1:
        first = randbelow(rng, n)
        for i in range(n):
            order[i] = (first + i) % n
    elif pv[P.P_DRAFT_CW]:
        for i in range(n):
            order[i] = (S[PREV0 + n - 1] + i) % n
    else:
        for i in range(n):
            order[i] = S[PREV0 + n - 1 - i]


@inl
def phase_draft(S, pv, n, pols, prms, rng, seatpos, order, nrev):
    """§2.6: each player in draft order takes one revealed card as a precept (DEC-3)."""
    if nrev == 0:
        return
    draft_order(S, pv, n, rng, order)
    for i in range(n):
        if nrev == 0:
            break
        q = order[i]
        pos = seatpos[q]
        pick = 0
        if nrev > 1:
            S[DECISIONS] += 1
            if pols[pos] == RANDOM:
                pick = randbelow(rng, nrev)
            elif pols[pos] != GREEDY:
                bs = -np.inf
                for j in range(nrev):
                    c = S[REVEAL0 + j]
                    sc = (prms[pos, PRM_DRAFT_CARD] * PREF[c] + prms[pos, PRM_DRAFT_VP] * pv[P.P_VP + c]
                          + prms[pos, PRM_DRAFT_FIT] * draft_fit(S[ix(H0 + q)], c))
                    if sc > bs:
                        bs = sc
                        pick = j
        c = S[REVEAL0 + pick]
        for j in range(pick, nrev - 1):
            S[REVEAL0 + j] = S[REVEAL0 + j + 1]
        nrev -= 1
        S[ix(OWN0 + c)] = q
        S[ix(PICK0 + c)] = i + 1  # the draft record: pick position and round
        S[ix(PICKR0 + c)] = S[ROUND]
        if c == 5 and pv[P.P_05_ON_DRAFT] and not S[T5DONE]:
            give_second_joker(S, q)  # DEC-33 variant: the joker arrives when drafted


@inl
def strongest_cards(hand):
    """§2.7: the tied strongest cards of a hand in the normal order (jokers strongest)."""
    if hand & JOKER_BITS:
        return hand & JOKER_BITS
    for r in range(12, -1, -1):
        t = (hand >> (4 * r)) & 15
        if t:
            return t << np.int64(4 * r)
    return np.int64(0)


@inl
def phase_exchange(S, n, pols, rng, seatpos):
    """§2.7 step 1: each commoner gives the king the strongest card (giver picks among ties,
    DEC-7); card 08 (§4.8) lets the giver give any card (D2: strategist its weakest unpaired)."""
    k = S[KING]
    for i in range(1, n):
        c = (k + i) % n
        hand = S[H0 + c]
        ties = strongest_cards(hand)
        free = applies(S, 8, c)
        opts = hand if free else ties
        nt = popcount(opts)
        idx = 0
        pol = pols[seatpos[c]]
        if nt > 1:
            S[DECISIONS] += 1
            if pol == RANDOM:
                idx = randbelow(rng, nt)
        x = nth_card(opts, idx)
        if free and pol == STRATEGIST and nt > 1:
            x = unpaired_order_pick(hand, 0)
        if free and ((ties >> np.int64(x)) & 1) == 0:
            S[RS0 + ST_FREE_GIFTS] += 1
        S[H0 + c] &= ~(np.int64(1) << np.int64(x))
        S[H0 + k] |= np.int64(1) << np.int64(x)


# ---- post-exchange effects (§2.8): card 05 Trickster, card 12 Collusion ----------------
@inl
def give_second_joker(S, p):
    """§4.5: the second joker (id 53) joins p's hand once; 54 cards from now on (QA-05.1)."""
    S[ix(H0 + p)] |= np.int64(1) << np.int64(53)
    S[T5DONE] = 1


@inl
def trickster(S):
    """§4.5 / DEC-33: after the exchange of the round card 05 entered play: the law's joker to
    the king (round 1: the start player, QA-05.3), the precept's to its holder (QA-05.2)."""
    if S[T5DONE]:
        return
    if (S[LAWS] >> 5) & 1:
        give_second_joker(S, S[KING] if S[KING] >= 0 else S[START])
    elif S[OWN0 + 5] >= 0:
        give_second_joker(S, S[OWN0 + 5])


@inl
def pick_weakest(S, hand, pol, rng):
    """D4 / D5 card choice from a whole hand: random uniform, greedy the weakest card, strategist
    the weakest unpaired card (counts a decision when there are two or more cards)."""
    cnt = popcount(hand)
    if cnt > 1:
        S[DECISIONS] += 1
    if pol == RANDOM:
        return nth_card(hand, randbelow(rng, cnt) if cnt > 1 else 0)
    if pol == GREEDY:
        return nth_card(hand, 0)
    return unpaired_order_pick(hand, 0)


@inl
def collusion_law(S, pv, n, pols, rng, seatpos, order):
    """§4.12 law (D4): the commoners clockwise from the seat after the king (round 1: everyone
    from the start player, DEC-8) choose a card each, then pairs swap (even) or a ring gives
    around (odd, QA-12.1)."""
    if S[ROUND] == 1 and not pv[P.P_12_ROUND1]:
        return
    m = 0
    if S[KING] >= 0:
        for i in range(1, n):
            order[m] = (S[KING] + i) % n
            m += 1
    else:
        for i in range(n):
            order[m] = (S[START] + i) % n
            m += 1
    if m < 2:
        return
    for i in range(m):
        g = order[i]
        S[GIFT0 + i] = pick_weakest(S, S[ix(H0 + g)], pols[seatpos[g]], rng)
    for i in range(m):
        rcv = order[i ^ 1] if m % 2 == 0 else order[(i + 1) % m]
        bit = np.int64(1) << np.int64(S[GIFT0 + i])
        S[ix(H0 + order[i])] &= ~bit
        S[ix(H0 + rcv)] |= bit
    S[RS0 + ST_CSWAPS] += m


@inl
def collusion_precept(S, pv, n, pols, rng, seatpos, order):
    """§4.12 precept / DEC-38 (D5): the holder may take a non-king player's strongest card
    (the giver picks among ties) and gives back any card of the new hand."""
    h = S[OWN0 + 12]
    if S[ROUND] == 1 and not pv[P.P_12_ROUND1]:
        return
    nt = 0
    for i in range(1, n):
        q = (h + i) % n
        if q != S[KING] and S[ix(H0 + q)] != 0:
            order[nt] = q
            nt += 1
    if nt == 0:
        return
    S[DECISIONS] += 1  # options: decline + nt targets
    pol = pols[seatpos[h]]
    q = -1
    if pol == RANDOM:
        j = randbelow(rng, nt + 1)
        if j > 0:
            q = order[j - 1]
    elif pol == GREEDY:
        q = order[0]
    else:
        most = -1
        for j in range(nt):
            c = popcount(S[ix(H0 + order[j])])
            if c > most:
                most = c
                q = order[j]
    if q < 0:
        return
    ties = strongest_cards(S[ix(H0 + q)])
    k = popcount(ties)
    idx = 0
    if k > 1:
        S[DECISIONS] += 1
        if pols[seatpos[q]] == RANDOM:
            idx = randbelow(rng, k)
    xbit = np.int64(1) << np.int64(nth_card(ties, idx))
    newhand = S[ix(H0 + h)] | xbit
    ybit = np.int64(1) << np.int64(pick_weakest(S, newhand, pol, rng))
    S[ix(H0 + q)] = (S[ix(H0 + q)] & ~xbit) | ybit
    S[ix(H0 + h)] = newhand & ~ybit
    S[RS0 + ST_CTAKES] += 1


@inl
def phase_king_give(S, n, pols, rng, seatpos):
    """§2.7 step 2: the king gives one card of choice to each commoner, clockwise."""
    k = S[KING]
    kpol = pols[seatpos[k]]
    for i in range(1, n):
        c = (k + i) % n
        hand = S[H0 + k]
        if popcount(hand) > 1:
            S[DECISIONS] += 1
        if kpol == RANDOM:
            x = nth_card(hand, randbelow(rng, popcount(hand)))
        elif kpol == GREEDY:
            x = nth_card(hand, 0)
        else:
            x = unpaired_order_pick(hand, 0)
        S[H0 + k] &= ~(np.int64(1) << np.int64(x))
        S[H0 + c] |= np.int64(1) << np.int64(x)


@inl
def phase_trim(S, pv, n, pols, rng, seatpos):
    """§2.9 / DEC-9: each player may discard down to ``trim_to`` cards, face up."""
    for q in range(n):
        hand = S[ix(H0 + q)]
        most = popcount(hand) - pv[P.P_TRIM_TO]
        if most <= 0:
            continue
        S[DECISIONS] += 1
        pol = pols[seatpos[q]]
        out = np.int64(0)
        if pol == RANDOM:
            if pv[P.P_TRIM_ALL]:
                kk = most * randbelow(rng, 2)
            else:
                kk = randbelow(rng, most + 1)
            rest = hand
            for j in range(kk):
                x = nth_card(rest, randbelow(rng, popcount(rest)))
                rest &= ~(np.int64(1) << np.int64(x))
                out |= np.int64(1) << np.int64(x)
        elif pol == GREEDY:
            for j in range(most):
                x = nth_card(hand & ~out, 0)
                out |= np.int64(1) << np.int64(x)
        else:
            for j in range(most):
                x = unpaired_order_pick(hand, out)
                out |= np.int64(1) << np.int64(x)
        S[ix(H0 + q)] &= ~out
        S[DISC] |= out
        S[RS0 + ST_TRIM] += popcount(out)


@inl
def phase_start(S, n, pols, rng, seatpos):
    """§2.10: round >= 2 the last-placed player names the start player."""
    if S[ROUND] > 1:
        S[DECISIONS] += 1
        last = S[PREV0 + n - 1]
        S[START] = randbelow(rng, n) if pols[seatpos[last]] == RANDOM else last
    S[RS0 + ST_START] = S[START]
    S[TURN] = S[START]
    S[RC_PENDING] = 1  # card 01 W-trim (DEC-29)


@fn
def score_round(S, pv, n, r_out, s_out, gi):
    rnd = S[ROUND]
    for i in range(S[NBOT]):
        S[TOP0 + S[NTOP] + i] = S[BOT0 + i]
    for pos in range(n):
        q = S[TOP0 + pos]
        S[RP0 + q] += pv[P.P_RANK_POINTS + pos]
        r_out[gi, rnd - 1, T.R_FIXED + q] = pos + 1
        s_out[gi, q, T.S_FIXED + rnd - 1] = pos + 1
    if pv[P.P_MADNESS] and pv[P.P_VP_EVERY_ROUND]:
        add_vp(S, pv)
    S[RS0 + ST_KEPT] = 1 if (S[KING] >= 0 and S[TOP0] == S[KING]) else 0
    S[RS0 + ST_JK2] = S[T5DONE]
    for i in range(T.R_FIXED):
        r_out[gi, rnd - 1, i] = S[RS0 + i]
    for pos in range(n):
        S[PREV0 + pos] = S[TOP0 + pos]


@fn
def add_vp(S, pv):
    for c in range(1, 26):
        if S[ix(OWN0 + c)] >= 0:
            S[VP0 + S[ix(OWN0 + c)]] += pv[P.P_VP + c]


@fn
def feel_round(S, n, k):
    """Fold the standings after round k (``FINAL0``, points per seat) into the game-feel
    counters; ``game.game_feel`` computes the same from the whole list."""
    best = S[FINAL0]
    nbest = 0
    sole = -1
    for q in range(n):
        if S[FINAL0 + q] > best:
            best = S[FINAL0 + q]
    for q in range(n):
        if S[FINAL0 + q] == best:
            nbest += 1
            sole = q
    if nbest > 1:
        sole = -1
    if sole >= 0:
        if S[FEEL_LEADER] != 0 and S[FEEL_LEADER] != sole + 1:
            S[FEEL_CHANGES] += 1
        S[FEEL_LEADER] = sole + 1
    for q in range(n):
        x = S[FINAL0 + q]
        if q != sole:
            S[NOTSOLE0 + q] = k
        if best - x > S[BEHIND0 + q]:
            S[BEHIND0 + q] = best - x
        place = 1
        for o in range(n):
            if S[FINAL0 + o] > x:
                place += 1
        if place > S[WORST0 + q]:
            S[WORST0 + q] = place


# play_game is inlined into run_games in numba's IR, so that LLVM optimises and emits the
# engine once less (inlining play_round too saves more compile time but slows the play loop).
@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def play_game(S, pv, n, MV, pols, prms, rng, seatpos, deck, order, rdeck, g_out, r_out, s_out, gi):
    for i in range(S_SIZE):
        S[i] = 0
    for c in range(R.N_RULE_CARDS + 1):
        S[ix(OWN0 + c)] = -1
    nd = rdeck.shape[0]
    for i in range(nd):
        order[i] = rdeck[i]
    shuffle(rng, order, nd)  # the rule deck, shuffled once per game (§2.2)
    for i in range(nd):
        S[DECK0 + i] = order[i]
    S[DECK_LEN] = nd
    rounds = pv[P.P_ROUNDS]
    kept = 0
    for rnd in range(rounds):
        setup_round(S, pv, n, pols, prms, rng, seatpos, deck, order)
        play_round(S, pv, n, MV, pols, prms, rng, seatpos, order)
        score_round(S, pv, n, r_out, s_out, gi)
        S[FIRSTS0 + S[TOP0]] += 1
        kept += S[RS0 + ST_KEPT]
        g_out[gi, T.G_FIXED + rnd] = S[RS0 + ST_LAW]
        if rnd < rounds - 1:  # the last round's standings are the final points (finish_game)
            for q in range(n):
                S[FINAL0 + q] = S[RP0 + q] + S[BP0 + q] + S[VP0 + q]
            feel_round(S, n, rnd + 1)
    if pv[P.P_MADNESS] and not pv[P.P_VP_EVERY_ROUND]:
        add_vp(S, pv)
    finish_game(S, pv, n, rounds, kept, g_out, r_out, s_out, gi)


@inl
def finish_game(S, pv, n, rounds, kept, g_out, r_out, s_out, gi):
    """§2.15 / DEC-20 / DEC-21: final points and winners; the games and seats rows."""
    best = -(1 << 40)
    second = -(1 << 40)
    for q in range(n):
        pts = S[RP0 + q] + S[BP0 + q] + S[VP0 + q]
        S[FINAL0 + q] = pts
        if pts > best:
            second = best
            best = pts
        elif pts > second:
            second = pts
    feel_round(S, n, rounds)
    nw = 0
    for q in range(n):
        if S[FINAL0 + q] == best:
            S[WIN0 + q] = 1
            nw += 1
    if nw > 1 and pv[P.P_TIE_LAST]:
        for pos in range(n):
            q = S[PREV0 + pos]
            if S[WIN0 + q]:
                for x in range(n):
                    S[WIN0 + x] = 0
                S[WIN0 + q] = 1
                nw = 1
                break
    if nw > 1:
        second = best
    winner = -1
    for q in range(n):
        if S[WIN0 + q]:
            winner = q
            break
    tot_rev = 0
    tot_ff = 0
    tot_cf = 0
    tot_guard = 0
    for k in range(rounds):
        tot_rev += r_out[gi, k, ST_REVS]
        tot_ff += r_out[gi, k, ST_FF]
        tot_cf += r_out[gi, k, ST_CF]
        tot_guard += r_out[gi, k, ST_GUARD]
    lm = np.int64(0)
    for c in range(1, R.N_RULE_CARDS + 1):
        if (S[LAWS] >> c) & 1:
            lm |= np.int64(1) << np.int64(c - 1)
    vals = (S[TOTAL], rounds, lm, winner, nw, best, best - second, tot_rev, tot_ff, tot_cf, tot_guard, kept,
            S[DECISIONS])
    for j in range(T.G_FIXED):
        g_out[gi, j] = vals[j]
    fo = T.G_FIXED + rounds + 3 * R.N_RULE_CARDS  # tables.feel_offset
    g_out[gi, fo] = S[FEEL_CHANGES]
    g_out[gi, fo + 1] = S[NOTSOLE0 + winner] + 1 if S[NOTSOLE0 + winner] < rounds else -1
    g_out[gi, fo + 2] = S[BEHIND0 + winner]
    g_out[gi, fo + 3] = S[WORST0 + winner]
    for c in range(1, R.N_RULE_CARDS + 1):
        g_out[gi, T.G_FIXED + rounds + c - 1] = S[ix(OWN0 + c)]
        g_out[gi, T.G_FIXED + rounds + R.N_RULE_CARDS + c - 1] = S[ix(PICK0 + c)]
        g_out[gi, T.G_FIXED + rounds + 2 * R.N_RULE_CARDS + c - 1] = S[ix(PICKR0 + c)]
    for q in range(n):
        pm = np.int64(0)
        for c in range(1, R.N_RULE_CARDS + 1):
            if S[ix(OWN0 + c)] == q:
                pm |= np.int64(1) << np.int64(c - 1)
        sv = (S[FINAL0 + q], S[RP0 + q], S[BP0 + q], S[VP0 + q], S[WIN0 + q], S[FIRSTS0 + q], S[FF0 + q],
              S[REVS0 + q], pm, popcount(pm))
        for j in range(T.S_FIXED):
            s_out[gi, q, j] = sv[j]


@fn
def run_games(seed, start, count, n, pv, pols, prms, rdeck, g, r, s, S, MV, deck, seatpos, order, rng, table):
    for i in range(count):
        gi = start + i
        rng[0] = derive(np.uint64(seed), np.uint64(gi))  # = sim.rng.game_state(seed, gi)
        for q in range(n):
            seatpos[q] = seat_bot(table, gi, q)
        play_game(S, pv, n, MV, pols, prms, rng, seatpos, deck, order, rdeck, g, r, s, i)


def run_kernel(game, cfg, start, count, g, r, s) -> None:
    """Fill the result arrays for games start..start+count-1 with the compiled engine."""
    pols, prms = game.bot_matrix(cfg)
    pv = np.array(R.param_vector(cfg), dtype=np.int64)
    rdeck = np.array(R.rule_deck(cfg), dtype=np.int64)
    n = cfg.players
    # all scratch state is allocated here: the compiled code runs without reference counting
    scratch = np.zeros(SCRATCH.size, np.int64)
    run_games(np.uint64(cfg.seed), start, count, n, pv, pols, prms, rdeck, g, r, s,
              np.zeros(S_SIZE, np.int64), np.zeros((MAX_MOVES, MOVE_COLS), np.int64),
              SCRATCH.view(scratch, "deck"), SCRATCH.view(scratch, "seatpos"), SCRATCH.view(scratch, "order"),
              np.zeros(1, np.uint64), np.arange(n, dtype=np.int64))
