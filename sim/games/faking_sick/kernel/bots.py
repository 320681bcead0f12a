"""The faking-sick kernel's decisions: what a player may play (FS-4), ``ask`` (the step driver's
decisions told from the bots'), and the bots, twins of reference/'s ``bot_decide``,
``wants_call`` and ``choose_push`` (policies: bots.py), over the state buffer (kernel/state.py).

The engine (kernel/turn.py) asks a decision and, unless the step driver answers it, hands it to
these functions with the deciding seat's policy. A play decision's legal options are a bit mask
over the option codes (the card types, then FALLBACK: DRAW / ACCEPT / END), so ``random``'s
``randbelow(#options)`` indexes them in the reference engine's canonical order.
"""

from __future__ import annotations

import numpy as np

from numba import njit

from sim.kit.kernel_util import fn, inl, ix
from sim.kit.rng import randbelow_at, uniform_at

from ..reference.bots import BLUFFER, LEARNED, RANDOM
from .learned import learned_play, option_features
from ..reference.learned import F_CALL, F_CALL_BAN_PCT, F_CALL_URGENT, F_CALL_WINNING, NFEAT
from .state import (
    ALL_TYPES, APPLIED, ATK, ATTACK, BAN, BOT_ANSWER, BP_BK, BP_BMAX, BP_CALL_PROB, BP_TH, BP_URG, BP_WIN, DRIVEN,
    DRIVER, FALLBACK, G_DECISIONS, LFEAT, LIMBO, LIMBO_SEAT, MAX_SCRIPT, PENDING, PKIND, POLICY, POOL_SIZE, PSEAT, REVEALED, REV_ALL, RNG,
    SCRIPT, STEP, STEP_POLICY, STOP,
    BP_W0, CALL, TURN, TURN_DEC, bot_param, cleared_at, game_col, hand_at, next_seat, size_at, slot_at, top,
)
from ..rules import (
    FEV, K_BAN_NEXT, K_BPP, K_FEV_CTR, K_LAST_FORBID, K_POOL, K_PUSH, K_SNZ_CTR, K_VOID, K_VOLUNTARY, NT, VIR,
)


# ---- legality (FS-4) -------------------------------------------------------------------------
@inl
def ban_binds(b, p):
    """FS-5.4: does an active HEADACHE ban on VIRUS bind p?"""
    ban = b[BAN]
    return ban >= 0 and (b[K_BAN_NEXT] == 0 or p == next_seat(b, ban))


@inl
def banned_mask(b, p):
    """The types of p's face-down banned cards as a bit mask (FS-4.3: playing one is a bluff)."""
    m = 0
    for i in range(b[K_BPP]):
        y = b[slot_at(b, p, i)]
        if y >= 0:
            m |= 1 << y
    return m


@inl
def can_play(b, p, bm, allowed):
    """FS-4.1, 4.2, 4.4 (and 4.5: ``allowed`` = the counters under attack): the types p may
    play as a bit mask."""
    legal = 0
    for x in range(NT):
        if b[hand_at(p, x)] > 0:
            legal |= 1 << x
    legal &= allowed
    t = top(b)
    if t >= 0:
        legal &= ~(1 << t)
    if ban_binds(b, p):
        legal &= ~(1 << VIR)
    if b[size_at(p)] == 1:  # going-out play
        legal &= ~b[K_LAST_FORBID]
        if b[K_VOID] == 0:
            legal &= ~bm
    return legal


@inl
def play_options(b, p, kind, bm):
    """The options of reference ``legal_turn`` / ``legal_attack`` / ``legal_after_draw`` as a
    bit mask over the option codes: the playable types, then FALLBACK (DRAW / ACCEPT / END)."""
    if kind == ATTACK:
        allowed = b[K_FEV_CTR] if b[ATK] == FEV else b[K_SNZ_CTR]
    else:
        allowed = ALL_TYPES
    legal = can_play(b, p, bm, allowed)
    if kind != TURN or b[K_VOLUNTARY] == 1 or legal & ~bm == 0:
        legal |= 1 << FALLBACK
    return legal


# ---- asking ----------------------------------------------------------------------------------
@inl
def ask(b, seat, kind):
    """``seat`` is asked a decision of ``kind`` (reference ``ask``): counted in the ``decisions``
    column; returns the seat's bot policy, or STEP when the step driver answers (its option, or
    PENDING, then in ``driver_option``; see ``step_policy``)."""
    b[game_col(G_DECISIONS)] += 1
    pol = b[ix(POLICY + seat)]
    if pol == STEP:
        return step_policy(b, seat, kind)
    return pol


@inl
def play_decision(b, p, kind):
    """A play decision of p (``kind``: TURN D1, ATTACK D2, AFTER_DRAW), answered by
    ``bot_decide`` or the step driver: the type played, FALLBACK, or PENDING."""
    bm = banned_mask(b, p)
    legal = play_options(b, p, kind, bm)
    pol = ask(b, p, kind)
    if pol == STEP:
        return b[DRIVEN]
    return bot_decide(b, pol, p, legal, bm)


@fn
def step_policy(b, seat, kind):
    """STEP if the step driver answers this decision (``driver_option``: an option applied in
    this turn, or PENDING for the pending decision, whose seat and kind are noted), else the
    seat's bot policy (play on: past the applied options)."""
    i = b[game_col(G_DECISIONS)] - 1 - b[TURN_DEC]
    if i < b[APPLIED]:
        o = b[ix(SCRIPT + i)]
        if o == BOT_ANSWER:
            return b[ix(STEP_POLICY + seat)]
        b[DRIVEN] = o
        return STEP
    if b[STOP]:
        if (b[DRIVER] >> seat) & 1 == 0 and b[APPLIED] < MAX_SCRIPT:
            b[ix(SCRIPT + i)] = BOT_ANSWER  # not the driver's seat: its bot answers, now and in replays
            b[APPLIED] += 1
            return b[ix(STEP_POLICY + seat)]
        b[PSEAT] = seat
        b[PKIND] = kind
        b[DRIVEN] = PENDING
        return STEP
    return b[ix(STEP_POLICY + seat)]


# ---- the bots (bots.py; reference.bot_decide, wants_call, choose_push) -------------------------
@inl
def bot_decide(b, pol, p, legal, bm):
    """A play decision of p by policy ``pol`` over the option mask ``legal`` (``bm``: p's banned
    types): the option code (a type, or FALLBACK)."""
    if pol == LEARNED:
        return learned_play(b, p, legal, bm)
    if pol == RANDOM:
        n_opts = np.int64(0)
        for x in range(NT + 1):
            n_opts += (legal >> x) & 1
        k = randbelow_at(b, RNG, n_opts)  # options: the legal types in code order, then the fallback
        for x in range(NT):
            if (legal >> x) & 1:
                if k == 0:
                    return np.int64(x)
                k -= 1
        return np.int64(FALLBACK)
    honest = legal & ~bm & ALL_TYPES
    bluffs = legal & bm
    sel = honest
    if pol == BLUFFER and bluffs != 0:
        h = np.int64(0)
        for x in range(NT):
            if (honest >> x) & 1:
                h += b[hand_at(p, x)]
        if uniform_at(b, RNG) < bluff_probability(b, p, h):
            sel = bluffs
    t = argmax_type(b, p, sel)
    return t if t >= 0 else np.int64(FALLBACK)


@inl
def argmax_type(b, p, allowed):
    """Type p holds most among the bit mask ``allowed`` (ties: lowest code), or -1."""
    best, best_n = np.int64(-1), 0
    for x in range(NT):
        if (allowed >> x) & 1 and b[hand_at(p, x)] > best_n:
            best, best_n = np.int64(x), b[hand_at(p, x)]
    return best


@inl
def bluff_probability(b, p, honest_cards):
    return bot_param(b, p, BP_BMAX) * bot_param(b, p, BP_BK) / (bot_param(b, p, BP_BK) + honest_cards)


@inl
def wants_call(b, pol, q, p, t, safe, p_slots):
    """D3 of q on p's play of t (``safe``: p goes out on it and may not bluff doing so)."""
    if pol == RANDOM:
        return uniform_at(b, RNG) < bot_param(b, q, BP_CALL_PROB)
    if pol == LEARNED:
        return learned_call(b, q, p, t)
    pr = ban_probability(b, q, p, t, p_slots, safe)
    return pr > 0.0 and pr > call_threshold(b, p, q)


@inl
def call_context(b, p):
    """Of p's play under call: ``safe`` (p goes out on it and may not bluff doing so) and the
    banned slots p has filled (the call model's ``p_slots``)."""
    safe = b[size_at(p)] == 0 and b[K_VOID] == 0
    p_slots = np.int64(0)
    for i in range(b[K_BPP]):
        if b[slot_at(b, p, i)] >= 0:
            p_slots += 1
    return safe, p_slots


@fn
def call_features(b, q, p, t, option, out, at):
    """The features of q's call option ``option`` (0 no call, 1 call; reference
    ``learned.call_features``) on p's play of t into ``out[at:at + NFEAT]``; no call has none."""
    for k in range(NFEAT):
        out[ix(at + k)] = 0
    if option == 1:
        safe, p_slots = call_context(b, p)
        out[ix(at + F_CALL)] = 1
        out[ix(at + F_CALL_BAN_PCT)] = np.int64(100.0 * ban_probability(b, q, p, t, p_slots, safe))
        out[ix(at + F_CALL_URGENT)] = 1 if b[size_at(p)] <= 2 else 0
        out[ix(at + F_CALL_WINNING)] = 1 if b[size_at(q)] <= b[K_PUSH] else 0


@fn
def learned_call(b, q, p, t):
    """The learned bot's D3: call when the call option weighs more than no call (score 0)."""
    call_features(b, q, p, t, 1, b, LFEAT)
    s = 0.0
    for k in range(NFEAT):
        s += bot_param(b, q, BP_W0 + k) * b[ix(LFEAT + k)]
    return s > 0.0


@inl
def ban_probability(b, q, p, t, p_slots, safe):
    """The call model's estimate (as seen by q) that t is banned for p."""
    if safe or b[cleared_at(p, t)]:
        return 0.0
    own_t = 0
    own_all = 0
    for i in range(b[K_BPP]):
        y = b[slot_at(b, q, i)]
        own_all += y >= 0
        own_t += y == t
    unseen_t = max(0, b[ix(K_POOL + t)] - own_t - b[ix(REVEALED + t)])
    unseen_all = max(1, b[POOL_SIZE] - own_all - b[REV_ALL])
    ratio = min(1.0, unseen_t / unseen_all)
    miss = 1.0
    for _ in range(p_slots):
        miss *= 1.0 - ratio
    return 1.0 - miss


@inl
def call_threshold(b, p, q):
    th = bot_param(b, q, BP_TH)
    if b[size_at(p)] <= 2:
        th -= bot_param(b, q, BP_URG)
    if b[size_at(q)] <= b[K_PUSH]:
        th -= bot_param(b, q, BP_WIN)
    return th


@inl
def choose_push(b, pol, caller):
    """One card of D4 from the caller's remaining hand: ``random`` uniform, else the first own
    banned type held (slot order), else the type held most."""
    if pol == RANDOM:
        i = randbelow_at(b, RNG, b[size_at(caller)])
        x = 0
        while i >= b[hand_at(caller, x)]:
            i -= b[hand_at(caller, x)]
            x += 1
        return np.int64(x)
    for j in range(b[K_BPP]):
        y = b[slot_at(b, caller, j)]
        if y >= 0 and b[hand_at(caller, y)] > 0:
            return y
    return argmax_type(b, caller, np.int64(ALL_TYPES))


@njit(cache=True, error_model="numpy")
def features_of(b, seat, kind, options, n):
    """The features of the ``n`` options ``options`` of ``seat``'s pending play or call decision
    ``kind`` (int64[n, NFEAT], ``kernel.learned``, ``call_features``; ``sim.run.training`` records them
    at the search's decisions)."""
    out = np.zeros(n * NFEAT, dtype=np.int64)
    if kind == CALL:
        p = b[LIMBO_SEAT]
        for j in range(n):
            call_features(b, seat, p, b[LIMBO], options[j], out, j * NFEAT)
        return out.reshape(n, NFEAT)
    bm = banned_mask(b, seat)
    for j in range(n):
        option_features(b, seat, options[j], bm, out, j * NFEAT)
    return out.reshape(n, NFEAT)
