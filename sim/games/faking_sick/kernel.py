"""Fast faking-sick engine: one numba kernel plays a whole batch over fixed-shape arrays.

Random-consumption protocol (the reference engine follows the same order):

1. Game ``g`` starts from ``derive(run_seed, g)`` (same stream as ``Rng(run_seed, g)``).
2. Setup (FS-2): the banned pool expanded in type-code order is shuffled
   (``shuffle``); seat ``s`` gets pool cards ``s*k .. s*k+k-1`` in slot order, the rest is
   the unused pool. The remaining deck (deck minus pool minus one VIR marker) expanded in
   type-code order is shuffled; the draw pile's top is the array's LAST element. Seats
   0..n-1 in turn take ``hand_size`` cards each from the top, then the top card is turned
   face up.
3. During play, draws happen only in these places, in game order:
   - bot decisions: ``random`` takes ``randbelow(#options)`` per turn/attack/after-draw
     decision, ``uniform()`` per call question and one ``randbelow(hand)`` per pushed card;
     ``bluffer``/``caller`` take one ``uniform()`` per turn decision that offers a bluff;
   - call windows ask the eligible players clockwise from the challenged player; with
     ``call_priority = random`` and 2+ callers, ``randbelow(#callers)`` picks the caller
     from the callers in that clockwise order;
   - a reshuffle (FS-10.1): the discard pile below its top, in bottom->top order, is
     shuffled with ``shuffle`` and becomes the draw pile.

State layout (allocated once per batch): ``hand[n, 7]`` counts and ``hs[n]`` hand sizes;
``slots[n, k]`` banned cards (-1 = empty); ``drawp[0:ND]`` the draw pile (top last);
``disc[DLO:DHI]`` the discard pile bottom -> top in a buffer with room below (cards put at
the bottom, FS-7.3/FS-8.2) and above; ``cleared[n, 7]`` and ``revealed[7]`` the public
information the call model reads; scalars in ``st``. Played cards in limbo are a local.

Speed: numba reference-counts array arguments on every call of a non-inlined helper, which
cost more than the rules themselves, so everything that happens on most turns (legality,
bot choices, the call window, draws without reshuffle, the successful-call steps) is written
out in ``play_batch``; helpers remain for rarer steps (reshuffles, replacement searches that
run out of cards, the void going-out) and run without the numba runtime (``fn``/``inl``
below). Comments name the helper/rule each block mirrors. In the play loop, variable array
indices go through ``ix`` (unsigned: no negative-index wraparound) and the legal plays are bit
masks over the types (branchy per-type tests were the largest single cost).
Cached compilations are recompiled whenever any file of this package changes (sim/jit_cache.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.base import seat_bot
from sim.kernel_util import fn, inl, ix
from sim.rng import _INV53, GOLDEN, derive, mix64

from . import tables as T
from .bots import BLUFFER, RANDOM
from .rules import (
    FEV, HDA, K_BAN_NEXT, K_BPP, K_CTR_PENALTY, K_DECK, K_DEST, K_DRAW, K_EFFECTS, K_FAIL_DRAW,
    K_FEV_CTR, K_FEV_PEN, K_FIRST, K_FORBID_CALL, K_HAND, K_INIT_APPLY, K_LAST_FORBID, K_MAX_TURNS,
    K_N, K_PLAY_AFTER, K_PLAY_AGAIN, K_POOL, K_PRIO_RANDOM, K_PUSH, K_RESHUFFLE, K_SNZ_CTR,
    K_SNZ_PEN, K_VOID, K_VOLUNTARY, NT, SNZ, VIR, DEST_DISCARD, DEST_HAND,
)

# scalar game state, kept in one int64 array so helpers can update it
ND, DLO, DHI, BAN, ATK, ATK_T, TURNS, REV_ALL, NST = range(9)

# game/seat stat columns
G_WINNER, G_TURNS, G_METHOD, G_CAP = (T.G[k] for k in ("winner", "turns", "win_method", "turn_cap"))
(G_PLAYS, G_BLUFFS, G_CAUGHT, G_REQ, G_MADE, G_SUCC, G_FAIL, G_PUSHED, G_REVEALS, G_DUP, G_SKIP,
 G_RESHUF, G_DRAWS, G_PEN, G_DRAWN, G_ATK, G_CTRD, G_ACC, G_HDA, G_VBLOCK, G_VOID) = (
    T.G[k] for k in T.GAME_STATS)
S_FINAL = T.S["final_hand"]
(S_PLAYS, S_BLUFFS, S_CAUGHT, S_REQ, S_MADE, S_CORRECT, S_CALLED, S_PUSHED, S_RECV, S_DRAWN,
 S_DRAWS, S_SUFFER) = (T.S[k] for k in T.SEAT_STATS)

# bot parameter columns (order of Game.bot_param_names)
BP_CALL_PROB, BP_TH, BP_URG, BP_WIN, BP_BMAX, BP_BK = range(6)
BOT_PARAM_NAMES = ("call_prob", "call_threshold", "call_urgency", "call_win_bonus", "bluff_max", "bluff_k")

CONTINUE, OVER, AGAIN = 0, 1, 2



# ---- the generator: ``sim.rng``'s next_u64/randbelow/uniform/shuffle, inlined -------------------
@inl
def rnext(rs):
    rs[0] = rs[0] + GOLDEN
    return mix64(rs[0])


@inl
def randbelow(rs, n):
    return np.int64(rnext(rs) % np.uint64(n))


@inl
def uniform(rs):
    return np.float64(rnext(rs) >> np.uint64(11)) * _INV53


@inl
def shuffle(rs, a, n):
    """Fisher-Yates over ``a[0:n]``, exactly as ``sim.rng.shuffle``. The counter stays in a
    local during the loop (the stores into ``a`` would otherwise force it through memory)."""
    c = rs[0]
    for i in range(n - 1, 0, -1):
        c += GOLDEN
        j = np.int64(mix64(c) % np.uint64(i + 1))
        t = a[ix(i)]
        a[ix(i)] = a[ix(j)]
        a[ix(j)] = t
    rs[0] = c


@fn
def reshuffle(rs, st, drawp, disc, gs, T0):
    """FS-10.1: the discard pile below its top becomes the shuffled draw pile."""
    m = st[DHI] - st[DLO] - 1
    for i in range(m):
        drawp[i] = disc[st[DLO] + i]
    shuffle(rs, drawp, m)
    st[ND] = m
    top = disc[st[DHI] - 1]
    st[DLO] = T0
    st[DHI] = T0 + 1
    disc[T0] = top
    gs[G_RESHUF] += 1


@fn
def take_card(rs, st, drawp, disc, gs, pv, T0):
    """FS-10.1-10.3: the next card of the draw pile, or -1."""
    if st[ND] == 0:
        if pv[K_RESHUFFLE] == 0 or st[DHI] - st[DLO] <= 1:
            return -1
        reshuffle(rs, st, drawp, disc, gs, T0)
    st[ND] -= 1
    return drawp[st[ND]]


@fn
def draw_cards(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, q, k):
    """FS-10.2: draw k cards one at a time into q's hand."""
    got = 0
    for _ in range(k):
        c = take_card(rs, st, drawp, disc, gs, pv, T0)
        if c < 0:
            break
        hand[q, c] += 1
        hs[q] += 1
        got += 1
    gs[G_DRAWN] += got
    ss[q, S_DRAWN] += got


@fn
def draw_replacement(rs, st, drawp, disc, gs, pv, T0, slots, cleared, p, slot):
    """FS-8.1-8.4: new banned card into ``slot``; viruses go below the discard bottom."""
    while True:
        if st[ND] == 0:
            if pv[K_RESHUFFLE] == 0:
                return
            found = False
            for i in range(st[DLO], st[DHI] - 1):
                if disc[i] != VIR:
                    found = True
                    break
            if not found:
                return
            reshuffle(rs, st, drawp, disc, gs, T0)
        st[ND] -= 1
        c = drawp[st[ND]]
        if c == VIR:
            st[DLO] -= 1
            disc[st[DLO]] = VIR
            gs[G_SKIP] += 1
            continue
        slots[p, slot] = c
        for t in range(NT):
            cleared[p, t] = 0
        return


@fn
def resolve_effect(pv, st, gs, n, p, t):
    """FS-5.2 attacks (reconstructed profile), FS-5.4 HEADACHE ban."""
    if (t == FEV or t == SNZ) and pv[K_EFFECTS]:
        st[ATK] = t
        st[ATK_T] = (p + 1) % n
        gs[G_ATK] += 1
    elif t == HDA:
        st[BAN] = p
        gs[G_HDA] += 1


@fn
def suffer_attack(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, p):
    pen = pv[K_FEV_PEN] if st[ATK] == FEV else pv[K_SNZ_PEN]
    st[ATK] = -1
    st[ATK_T] = -1
    gs[G_PEN] += 1
    ss[p, S_SUFFER] += 1
    draw_cards(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, p, pen)


@fn
def reveal(gs, st, slots, revealed, p, t):
    """FS-7.1: reveal the lowest-index slot holding t (only one of duplicates); returns it."""
    slot = -1
    cnt = 0
    for i in range(slots.shape[1]):
        if slots[p, i] == t:
            cnt += 1
            if slot < 0:
                slot = i
    if cnt > 1:
        gs[G_DUP] += 1
    gs[G_REVEALS] += 1
    revealed[t] += 1
    st[REV_ALL] += 1
    return slot


@fn
def discard_revealed(st, disc, pv, hand, hs, slots, p, slot):
    """FS-7.3 step 4: the revealed card goes to revealed_banned_destination."""
    t = slots[p, slot]
    slots[p, slot] = -1
    d = pv[K_DEST]
    if d == DEST_DISCARD:
        st[DLO] -= 1
        disc[st[DLO]] = t
    elif d == DEST_HAND:
        hand[p, t] += 1
        hs[p] += 1
    # otherwise (removed) the card leaves the game


@fn
def retire_banned(rs, st, drawp, disc, gs, pv, T0, hand, hs, slots, cleared, p, slot):
    """FS-7.3 steps 4-5: the revealed card leaves its slot; a replacement is drawn (FS-8)."""
    discard_revealed(st, disc, pv, hand, hs, slots, p, slot)
    draw_replacement(rs, st, drawp, disc, gs, pv, T0, slots, cleared, p, slot)


@njit(cache=True, error_model="numpy", boundscheck=False)  # no zero-division checks: inputs are validated
def play_batch(pv, seed, start, count, policy, bmat, games, seats, calls, plays):
    """Play games ``start .. start+count-1`` (parameters ``pv`` from rules.encode; bots
    ``policy``/``bmat`` per table position) into the tables.py result arrays."""
    n = pv[K_N]
    K = pv[K_BPP]
    # rule parameters as locals: stores into the int64 state arrays could alias ``pv``
    c_ban_next = pv[K_BAN_NEXT]
    c_ctr_penalty = pv[K_CTR_PENALTY]
    c_dest = pv[K_DEST]
    c_draw = pv[K_DRAW]
    c_effects = pv[K_EFFECTS]
    c_fail_draw = pv[K_FAIL_DRAW]
    c_fev_ctr = pv[K_FEV_CTR]
    c_fev_pen = pv[K_FEV_PEN]
    c_first = pv[K_FIRST]
    c_forbid_call = pv[K_FORBID_CALL]
    c_hand = pv[K_HAND]
    c_init_apply = pv[K_INIT_APPLY]
    c_last_forbid = pv[K_LAST_FORBID]
    c_max_turns = pv[K_MAX_TURNS]
    c_play_after = pv[K_PLAY_AFTER]
    c_play_again = pv[K_PLAY_AGAIN]
    c_prio_random = pv[K_PRIO_RANDOM]
    c_push = pv[K_PUSH]
    c_snz_ctr = pv[K_SNZ_CTR]
    c_snz_pen = pv[K_SNZ_PEN]
    c_void = pv[K_VOID]
    c_voluntary = pv[K_VOLUNTARY]
    total = 0
    pool_tot = 0
    for t in range(NT):
        total += pv[K_DECK + t]
        pool_tot += pv[K_POOL + t]
    T0 = total + 1
    rs = np.zeros(1, dtype=np.uint64)
    st = np.zeros(NST, dtype=np.int64)
    hand = np.zeros((n, NT), dtype=np.int64)
    hs = np.zeros(n, dtype=np.int64)
    slots = np.zeros((n, K), dtype=np.int64)
    cleared = np.zeros((n, NT), dtype=np.int64)
    revealed = np.zeros(NT, dtype=np.int64)
    drawp = np.zeros(total + 1, dtype=np.int64)
    disc = np.zeros(2 * T0 + 2, dtype=np.int64)
    pooltmp = np.zeros(pool_tot + 1, dtype=np.int64)
    callers = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    seat_row = np.zeros(n, dtype=np.int64)
    all_mask = (1 << NT) - 1
    for gi in range(count):
        g = start + gi
        rs[0] = derive(np.uint64(seed), np.uint64(g))
        gs = games[gi]
        ss = seats[gi]
        for s_ in range(n):
            seat_row[ix(s_)] = seat_bot(rows, g, s_)
        # ---- setup (FS-2) ----
        k = 0
        for t in range(NT):
            for _ in range(pv[K_POOL + t]):
                pooltmp[ix(k)] = t
                k += 1
        shuffle(rs, pooltmp, pool_tot)
        for s_ in range(n):
            for j in range(K):
                slots[ix(s_), ix(j)] = pooltmp[ix(s_ * K + j)]
        k = 0
        for t in range(NT):
            for _ in range(pv[K_DECK + t] - pv[K_POOL + t] - (1 if t == VIR else 0)):
                drawp[ix(k)] = t
                k += 1
        shuffle(rs, drawp, k)
        st[ND] = k
        hand[:, :] = 0
        cleared[:, :] = 0
        revealed[:] = 0
        for s_ in range(n):
            for _ in range(c_hand):
                st[ND] -= 1
                hand[ix(s_), ix(drawp[ix(st[ND])])] += 1
            hs[ix(s_)] = c_hand
        st[DLO] = T0
        st[DHI] = T0 + 1
        st[ND] -= 1
        disc[T0] = drawp[ix(st[ND])]
        st[BAN] = -1
        st[ATK] = -1
        st[ATK_T] = -1
        st[TURNS] = 0
        st[REV_ALL] = 0
        if c_init_apply:
            resolve_effect(pv, st, gs, n, (c_first - 1 + n) % n, disc[T0])
        winner = -1
        method = 0
        cap = 0
        p = c_first
        # ---- turns (FS-3) ----
        while True:
            if st[TURNS] >= c_max_turns:
                cap = 1
                break
            st[TURNS] += 1
            if st[BAN] == p and c_ban_next == 0:
                st[BAN] = -1
            row = seat_row[ix(p)]
            pol = policy[ix(row)]
            retry = False
            after_draw = False
            code = AGAIN
            while code == AGAIN:
                # one pass per decision of this turn (FS-3.3 / FS-3.4; helpers are inlined by
                # hand here: numba array arguments cost reference counting on every call)
                code = CONTINUE
                under_attack = st[ATK] >= 0 and st[ATK_T] == p
                bm = 0
                for i in range(K):
                    if slots[ix(p), ix(i)] >= 0:
                        bm |= 1 << slots[ix(p), ix(i)]
                top = disc[ix(st[DHI] - 1)] if st[DHI] > st[DLO] else -1
                ban = st[BAN]
                binds = ban >= 0 and (c_ban_next == 0 or p == (ban + 1 if ban + 1 < n else 0))
                if under_attack:
                    mask = c_fev_ctr if st[ATK] == FEV else c_snz_ctr
                else:
                    mask = all_mask
                    if not after_draw and binds and hand[ix(p), VIR] > 0 and top != VIR:
                        gs[G_VBLOCK] += 1
                # legal plays (FS-4.1, 4.2, 4.4, 4.5) as bit masks over the types
                lmask = 0
                for x in range(NT):
                    if hand[ix(p), ix(x)] > 0:
                        lmask |= 1 << x
                lmask &= mask
                if top >= 0:
                    lmask &= ~(1 << top)
                if binds:
                    lmask &= ~(1 << VIR)
                if hs[ix(p)] == 1:
                    lmask &= ~c_last_forbid
                    if c_void == 0:
                        lmask &= ~bm
                honest = lmask & ~bm
                bluffs = lmask & bm
                fallback = under_attack or after_draw or c_voluntary == 1 or honest == 0
                # bot decision (bots.py): a type, or -1 for DRAW / ACCEPT / END
                t = -1
                if pol == RANDOM:
                    nlegal = 0
                    for x in range(NT):
                        nlegal += (lmask >> x) & 1
                    k = randbelow(rs, nlegal + (1 if fallback else 0))
                    for x in range(NT):
                        if (lmask >> x) & 1:
                            if k == 0:
                                t = x
                                break
                            k -= 1
                else:
                    sel = honest
                    if pol == BLUFFER and bluffs != 0:
                        h = 0
                        for x in range(NT):
                            if (honest >> x) & 1:
                                h += hand[ix(p), ix(x)]
                        pb = bmat[ix(row), BP_BMAX] * bmat[ix(row), BP_BK] / (bmat[ix(row), BP_BK] + h)
                        if uniform(rs) < pb:
                            sel = bluffs
                    best_n = 0
                    for x in range(NT):
                        if (sel >> x) & 1 and hand[ix(p), ix(x)] > best_n:
                            t, best_n = x, hand[ix(p), ix(x)]
                if t < 0:
                    if after_draw:
                        break
                    if under_attack:
                        # FS-3.3 ACCEPT (suffer_attack with the common no-reshuffle draw inlined)
                        gs[G_ACC] += 1
                        k = c_fev_pen if st[ATK] == FEV else c_snz_pen
                        if st[ND] < k:
                            suffer_attack(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, p)
                            break
                        st[ATK] = -1
                        st[ATK_T] = -1
                        gs[G_PEN] += 1
                        ss[ix(p), S_SUFFER] += 1
                        for _ in range(k):
                            st[ND] -= 1
                            hand[ix(p), ix(drawp[ix(st[ND])])] += 1
                        hs[ix(p)] += k
                        gs[G_DRAWN] += k
                        ss[ix(p), S_DRAWN] += k
                        break
                    # FS-3.4 DRAW
                    k = c_draw
                    if st[ND] >= k:
                        for _ in range(k):
                            st[ND] -= 1
                            hand[ix(p), ix(drawp[ix(st[ND])])] += 1
                        hs[ix(p)] += k
                        gs[G_DRAWN] += k
                        ss[ix(p), S_DRAWN] += k
                    else:
                        draw_cards(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, p, k)
                    gs[G_DRAWS] += 1
                    ss[ix(p), S_DRAWS] += 1
                    if c_play_after == 0:
                        break
                    after_draw = True
                    code = AGAIN
                    continue
                # ---- a play (FS-4.6) and its call window (FS-6) ----
                bluff = (bm >> t) & 1 == 1
                hand[ix(p), ix(t)] -= 1
                hs[ix(p)] -= 1
                gs[G_PLAYS] += 1
                ss[ix(p), S_PLAYS] += 1
                plays[ix(t), ix(p), 0] += 1
                if bluff:
                    gs[G_BLUFFS] += 1
                    ss[ix(p), S_BLUFFS] += 1
                    plays[ix(t), ix(p), 1] += 1
                nc = 0
                safe = hs[ix(p)] == 0 and c_void == 0
                p_slots = 0
                for i in range(K):
                    if slots[ix(p), ix(i)] >= 0:
                        p_slots += 1
                for d in range(1, n):
                    q = p + d
                    if q >= n:
                        q -= n
                    if c_forbid_call and hs[ix(q)] < c_push:
                        continue
                    rq = seat_row[ix(q)]
                    # D3 call decision (bots.py call model)
                    if policy[ix(rq)] == RANDOM:
                        call = uniform(rs) < bmat[ix(rq), BP_CALL_PROB]
                    elif safe or cleared[ix(p), ix(t)]:
                        call = False
                    else:
                        own_t = 0
                        own_all = 0
                        for i in range(K):
                            y = slots[ix(q), ix(i)]
                            own_all += y >= 0
                            own_t += y == t
                        unseen_t = max(0, pv[ix(K_POOL + t)] - own_t - revealed[ix(t)])
                        unseen_all = max(1, pool_tot - own_all - st[REV_ALL])
                        r = min(1.0, unseen_t / unseen_all)
                        miss = 1.0
                        for _ in range(p_slots):
                            miss *= 1.0 - r
                        pr = 1.0 - miss
                        th = bmat[ix(rq), BP_TH]
                        th -= bmat[ix(rq), BP_URG] if hs[ix(p)] <= 2 else 0.0
                        th -= bmat[ix(rq), BP_WIN] if hs[ix(q)] <= c_push else 0.0
                        call = pr > 0.0 and pr > th
                    if call:
                        callers[ix(nc)] = q
                        nc += 1
                gs[G_REQ] += nc
                for i in range(nc):
                    ss[ix(callers[ix(i)]), S_REQ] += 1
                confirm = True
                if nc == 0:
                    if bluff and hs[ix(p)] == 0:
                        # FS-9.4 banned_last_card = void
                        confirm = False
                        gs[G_VOID] += 1
                        gs[G_CAUGHT] += 1
                        ss[ix(p), S_CAUGHT] += 1
                        plays[ix(t), ix(p), 3] += 1
                        hand[ix(p), ix(t)] += 1
                        hs[ix(p)] += 1
                        draw_cards(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, p, c_fail_draw)
                        slot = reveal(gs, st, slots, revealed, p, t)
                        retire_banned(rs, st, drawp, disc, gs, pv, T0, hand, hs, slots, cleared, p, slot)
                        if under_attack:
                            if c_ctr_penalty:
                                suffer_attack(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, p)
                            else:
                                st[ATK] = -1
                                st[ATK_T] = -1
                else:
                    c = callers[0]
                    if c_prio_random and nc > 1:
                        c = callers[ix(randbelow(rs, nc))]
                    plays[ix(t), ix(p), 2] += 1
                    ss[ix(p), S_CALLED] += 1
                    gs[G_MADE] += 1
                    ss[ix(c), S_MADE] += 1
                    d = c - p if c > p else c - p + n
                    calls[ix(t), ix(d), ix(c), 0] += 1
                    if bluff:
                        # FS-7.3 success
                        confirm = False
                        calls[ix(t), ix(d), ix(c), 1] += 1
                        gs[G_SUCC] += 1
                        gs[G_CAUGHT] += 1
                        ss[ix(c), S_CORRECT] += 1
                        ss[ix(p), S_CAUGHT] += 1
                        plays[ix(t), ix(p), 3] += 1
                        # step 1, as reveal()
                        slot = -1
                        cnt = 0
                        for i in range(K):
                            if slots[ix(p), ix(i)] == t:
                                cnt += 1
                                if slot < 0:
                                    slot = i
                        if cnt > 1:
                            gs[G_DUP] += 1
                        gs[G_REVEALS] += 1
                        revealed[ix(t)] += 1
                        st[REV_ALL] += 1
                        # step 2: push (D4, bots.py)
                        m = min(c_push, hs[ix(c)])
                        cpol = policy[ix(seat_row[ix(c)])]
                        for _ in range(m):
                            if cpol == RANDOM:
                                i = randbelow(rs, hs[ix(c)])
                                x = 0
                                while i >= hand[ix(c), ix(x)]:
                                    i -= hand[ix(c), ix(x)]
                                    x += 1
                            else:
                                x = -1
                                for j in range(K):
                                    y = slots[ix(c), ix(j)]
                                    if y >= 0 and hand[ix(c), ix(y)] > 0:
                                        x = y
                                        break
                                if x < 0:
                                    best_n = 0
                                    for y in range(NT):
                                        if hand[ix(c), ix(y)] > best_n:
                                            x, best_n = y, hand[ix(c), ix(y)]
                            hand[ix(c), ix(x)] -= 1
                            hs[ix(c)] -= 1
                            hand[ix(p), ix(x)] += 1
                            hs[ix(p)] += 1
                        gs[G_PUSHED] += m
                        ss[ix(c), S_PUSHED] += m
                        ss[ix(p), S_RECV] += m
                        if hs[ix(c)] == 0:
                            winner = c
                            method = 2
                            code = OVER  # FS-7.3 step 2: the played card stays in limbo
                            break
                        hand[ix(p), ix(t)] += 1  # step 3
                        hs[ix(p)] += 1
                        # step 4 (as discard_revealed)
                        x = slots[ix(p), ix(slot)]
                        slots[ix(p), ix(slot)] = -1
                        if c_dest == DEST_DISCARD:
                            st[DLO] -= 1
                            disc[ix(st[DLO])] = x
                        elif c_dest == DEST_HAND:
                            hand[ix(p), ix(x)] += 1
                            hs[ix(p)] += 1
                        # step 5 (as draw_replacement; the helper handles an empty draw pile)
                        while st[ND] > 0:
                            st[ND] -= 1
                            y = drawp[ix(st[ND])]
                            if y == VIR:
                                st[DLO] -= 1
                                disc[ix(st[DLO])] = VIR
                                gs[G_SKIP] += 1
                                continue
                            slots[ix(p), ix(slot)] = y
                            for z in range(NT):
                                cleared[ix(p), ix(z)] = 0
                            break
                        if slots[ix(p), ix(slot)] < 0:
                            draw_replacement(rs, st, drawp, disc, gs, pv, T0, slots, cleared, p, slot)
                        again = c_play_again == 1 and not retry
                        if under_attack and not again:
                            if c_ctr_penalty:
                                suffer_attack(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, p)
                            else:
                                st[ATK] = -1
                                st[ATK_T] = -1
                        if again:
                            retry = True
                            after_draw = False
                            code = AGAIN
                    else:
                        # FS-7.4 failure
                        gs[G_FAIL] += 1
                        cleared[ix(p), ix(t)] = 1
                        k = c_fail_draw
                        if st[ND] >= k:
                            for _ in range(k):
                                st[ND] -= 1
                                hand[ix(c), ix(drawp[ix(st[ND])])] += 1
                            hs[ix(c)] += k
                            gs[G_DRAWN] += k
                            ss[ix(c), S_DRAWN] += k
                        else:
                            draw_cards(rs, st, drawp, disc, gs, ss, pv, T0, hand, hs, c, k)
                if confirm:
                    # FS-6.5
                    disc[ix(st[DHI])] = t
                    st[DHI] += 1
                    if hs[ix(p)] == 0:
                        winner = p
                        method = 1
                        code = OVER
                        break
                    if under_attack:
                        st[ATK] = -1
                        st[ATK_T] = -1
                        gs[G_CTRD] += 1
                    # FS-5.2 / FS-5.4 (as resolve_effect)
                    if (t == FEV or t == SNZ) and c_effects:
                        st[ATK] = t
                        st[ATK_T] = p + 1 if p + 1 < n else 0
                        gs[G_ATK] += 1
                    elif t == HDA:
                        st[BAN] = p
                        gs[G_HDA] += 1
            if code == OVER:
                break
            # ---- end of turn (FS-3.6) ----
            ban = st[BAN]
            if ban >= 0 and c_ban_next == 1 and (ban + 1 if ban + 1 < n else 0) == p:
                st[BAN] = -1
            p = p + 1 if p + 1 < n else 0
        gs[G_WINNER] = winner
        gs[G_TURNS] = st[TURNS]
        gs[G_METHOD] = method
        gs[G_CAP] = cap
        for s_ in range(n):
            ss[ix(s_), S_FINAL] = hs[ix(s_)]


def run_kernel(game, cfg, start: int, count: int, arr: dict) -> None:
    """Fill the tables.py arrays for games ``start .. start+count-1``."""
    from .rules import encode

    assert tuple(game.bot_param_names()) == BOT_PARAM_NAMES
    policy, bmat = game.bot_matrix(cfg)
    play_batch(encode(cfg), np.uint64(cfg.seed), np.int64(start), np.int64(count), policy, bmat,
               arr["games"], arr["seats"], arr["calls"], arr["plays"])
