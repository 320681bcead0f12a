"""Fast faking-sick engine: one numba kernel plays a whole batch; it reads like reference.py.

Every phase of the reference engine (the ``FakingSick`` methods and the bots' ``bot_decide``,
``wants_call``, ``choose_push``) is a function of the same name here, in the same order, so
the two read side by side; where the reference raises ``GameOver`` or recurses (play again,
FS-7.3 step 7), a phase returns ``OVER`` or ``AGAIN``. Phases are ``inl`` (forceinline: LLVM
merges them into ``play_batch``, so passing the state around costs nothing); the rare steps
(``reshuffle`` and the refills that call it, the void going-out) are ``fn`` (separate, no numba
runtime). Variable indices go through ``ix`` (unsigned: no wraparound check) and the legal
plays are bit masks over the types. Compile time: numba compiles a phase once per distinct
argument types, and a literal argument is a type of its own, so counters handed to a phase
start as ``np.int64(0)`` (a plain ``0`` costs one more compilation for ``Literal[int](0)``) and
``play`` has one call site with a runtime ``under_attack`` flag.

State: one int64 buffer declared once by ``STATE`` below (``STATE.describe()`` lists it);
the wrapper allocates it and tests read it by field name (``STATE.view``). The draw pile is
``DRAW .. DRAW + b[ND]`` with its top LAST; the discard pile is ``b[DLO] .. b[DHI]`` bottom ->
top inside a block with room for the whole deck below (cards put at the bottom, FS-7.3/FS-8.2)
and above ``DISC_MID``, where each reshuffle restarts it. Rule parameters are the named
``KernelRules`` tuple (rules.py: values stay in registers, no reloads after stores into the
buffer). The played card in limbo is a local (``t``).

Random-consumption protocol (the reference engine follows the same order), one generator
(``sim.rng``) with its counter in ``b[RNG]``:

1. Game ``g`` starts from ``derive(run_seed, g)`` (same stream as ``Rng(run_seed, g)``).
2. Setup (FS-2): the banned pool expanded in type-code order is shuffled; seat ``s`` gets
   pool cards ``s*k .. s*k+k-1`` in slot order, the rest is the unused pool. The remaining
   deck (deck minus pool minus one VIR marker) expanded in type-code order is shuffled; the
   draw pile's top is its LAST element. Seats 0..n-1 in turn take ``hand_size`` cards each
   from the top, then the top card is turned face up.
3. During play, draws happen only in these places, in game order:
   - bot decisions: ``random`` takes ``randbelow(#options)`` per turn/attack/after-draw
     decision, ``uniform()`` per call question and one ``randbelow(hand)`` per pushed card;
     ``bluffer``/``caller`` take one ``uniform()`` per turn decision that offers a bluff;
   - call windows ask the eligible players clockwise from the challenged player; with
     ``call_priority = random`` and 2+ callers, ``randbelow(#callers)`` picks the caller
     from the callers in that clockwise order;
   - a reshuffle (FS-10.1): the discard pile below its top, in bottom->top order, is
     shuffled and becomes the draw pile.

Decisions (``decisions`` column, tables.py) are counted where the reference counts them:
``ask`` (turn, attack, after-draw), ``call_window`` (each eligible player) and ``push``.
Cached compilations are recompiled whenever any file of this package changes (sim/jit_cache.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.np.unsafe.ndarray import to_fixed_tuple

from sim.kernel_util import fn, inl, ix, seat_bot
from sim.layout import Layout
from sim.rng import derive, randbelow_at, shuffle_at, uniform_at

from . import tables as T
from .bots import BLUFFER, RANDOM
from .rules import (
    DEST_DISCARD, DEST_HAND, FEV, HDA, K_DECK, K_POOL, MAX_DECK, MAX_PLAYERS, MAX_POOL, N_RULES,
    NT, SNZ, VIR, KernelRules,
)

# ---- the state buffer ------------------------------------------------------------------------
STATE = Layout("faking-sick kernel state")
RNG = STATE.scalar("rng", "generator counter (sim.rng *_at)")
ND = STATE.scalar("draw_size", "cards in the draw pile")
DLO = STATE.scalar("discard_lo", "offset of the discard pile's bottom card")
DHI = STATE.scalar("discard_hi", "one past the discard pile's top card")
BAN = STATE.scalar("ban_owner", "seat whose HEADACHE ban on VIRUS is active, or -1 (FS-5.4)")
ATK = STATE.scalar("attack", "pending attack FEV / SNZ, or -1 (FS-5.2)")
ATK_T = STATE.scalar("attack_target", "seat the attack is pending on, or -1")
TURNS = STATE.scalar("turns", "turns started (FS-3.2)")
REV_ALL = STATE.scalar("revealed_total", "banned cards revealed so far")
POOL_SIZE = STATE.scalar("pool_size", "cards in the banned pool (FS-2.1)")
REVEALING = STATE.scalar("revealing", "banned-block index (p*k + slot) of the card being revealed "
                         "(FS-7.3 steps 1-4), or -1")
WINNER = STATE.scalar("winner", "winning seat, or -1")
METHOD = STATE.scalar("win_method", "tables.WIN_METHODS code")
CAP = STATE.scalar("turn_cap", "1 when the turn cap ended the game (FS-9.6)")
LEADER = STATE.scalar("leader", "game feel: the last sole leader (fewest cards), or -1 (tables.py)")
LEAD_NOW = STATE.scalar("lead_now", "game feel: the sole leader at the last observation, or -1")
LEAD_SINCE = STATE.scalar("lead_since", "game feel: the turn from which lead_now has led without a break")
BEHIND = STATE.block("max_behind", MAX_PLAYERS, "game feel: each seat's largest excess of cards over the fewest held")
HAND = STATE.block("hands", MAX_PLAYERS * NT, "cards of type t in seat p's hand at p*NT + t")
HS = STATE.block("hand_sizes", MAX_PLAYERS, "cards in each seat's hand")
BANNED = STATE.block("banned", MAX_POOL, "the shuffled banned pool: seat p's slot i at p*k + i "
                     "(k = banned_per_player; -1 = empty), then the unused pool")
CLEARED = STATE.block("cleared", MAX_PLAYERS * NT, "1 at p*NT + t: a failed call proved t not "
                      "banned for p since p's last replacement (call model)")
REVEALED = STATE.block("revealed", NT, "banned cards of each type revealed so far")
SEAT_BOT = STATE.block("seat_bot", MAX_PLAYERS, "bot table row of each seat in this game")
CALLERS = STATE.block("callers", MAX_PLAYERS - 1, "the players calling in a call window, clockwise")
DRAW = STATE.block("draw_pile", MAX_DECK, "draw pile, bottom -> top")
DISC = STATE.block("discard_pile", 2 * MAX_DECK + 1, "discard pile within, restarted at DISC_MID")
DISC_MID = DISC + MAX_DECK

# ---- result columns (tables.py) --------------------------------------------------------------
G_WINNER, G_TURNS, G_METHOD, G_CAP = (T.G[k] for k in ("winner", "turns", "win_method", "turn_cap"))
(G_PLAYS, G_BLUFFS, G_CAUGHT, G_REQ, G_MADE, G_SUCC, G_FAIL, G_PUSHED, G_REVEALS, G_DUP, G_SKIP,
 G_RESHUF, G_DRAWS, G_PEN, G_DRAWN, G_ATK, G_CTRD, G_ACC, G_HDA, G_VBLOCK, G_VOID, G_DECISIONS) = (
    T.G[k] for k in T.GAME_STATS)
S_FINAL = T.S["final_hand"]
(S_PLAYS, S_BLUFFS, S_CAUGHT, S_REQ, S_MADE, S_CORRECT, S_CALLED, S_PUSHED, S_RECV, S_DRAWN,
 S_DRAWS, S_SUFFER) = (T.S[k] for k in T.SEAT_STATS)
P_PLAYS, P_BLUFFS, P_CALLED, P_CAUGHT = (T.P[k] for k in T.PLAY_SUMS)
S_INITIAL_BANNED0, S_FINAL_BANNED0 = T.S_INITIAL_BANNED0, T.S_FINAL_BANNED0
G_LEAD_CHANGES, G_LEAD_FROM, G_WIN_BEHIND = (T.G[k] for k in T.GAME_FEEL)
S_BEHIND = T.S["max_behind"]
BANNED_COL = np.array(T.BANNED_COL, dtype=np.int64)
C_CALLS, C_SUCCESSES = (T.C[k] for k in T.CALL_SUMS)
PLAY_OUT, PUSH_OUT = T.WIN_METHODS.index("play_out"), T.WIN_METHODS.index("push_out")

# bot parameter columns (order of Game.bot_param_names)
BOT_PARAM_NAMES = ("call_prob", "call_threshold", "call_urgency", "call_win_bonus", "bluff_max", "bluff_k")
BP_CALL_PROB, BP_TH, BP_URG, BP_WIN, BP_BMAX, BP_BK = (
    BOT_PARAM_NAMES.index(k) for k in ("call_prob", "call_threshold", "call_urgency", "call_win_bonus",
                                       "bluff_max", "bluff_k"))

CONTINUE, OVER, AGAIN = 0, 1, 2  # what a phase tells its caller
TURN, ATTACK, AFTER_DRAW = 0, 1, 2  # the play decisions (reference.KINDS)
ALL_TYPES = (1 << NT) - 1


# ---- buffer addressing -----------------------------------------------------------------------
@inl
def hand_at(p, t):
    return ix(HAND + p * NT + t)


@inl
def size_at(p):
    return ix(HS + p)


@inl
def slot_at(r, p, i):
    return ix(BANNED + p * r.banned_per_player + i)


@inl
def cleared_at(p, t):
    return ix(CLEARED + p * NT + t)


@inl
def next_seat(r, p):
    return p + 1 if p + 1 < r.players else 0


@inl
def top(b):
    return b[ix(b[DHI] - 1)] if b[DHI] > b[DLO] else -1


@inl
def put_bottom(b, t):
    """A card under the discard pile (FS-7.3 step 4, FS-8.2)."""
    b[DLO] -= 1
    b[ix(b[DLO])] = t


# ---- setup (FS-2) ----------------------------------------------------------------------------
@inl
def setup(b, r, pv, gs):
    """FS-2.1-2.6. RNG: shuffle the banned pool, then the deck (protocol above)."""
    n = r.players
    m = np.int64(0)
    for t in range(NT):
        for _ in range(pv[ix(K_POOL + t)]):
            b[ix(BANNED + m)] = t
            m += 1
    shuffle_at(b, RNG, b, BANNED, m)  # seat s's slots are pool cards s*k .. s*k+k-1 (slot_at)
    b[POOL_SIZE] = m
    m = np.int64(0)
    for t in range(NT):
        for _ in range(pv[ix(K_DECK + t)] - pv[ix(K_POOL + t)] - (1 if t == VIR else 0)):
            b[ix(DRAW + m)] = t
            m += 1
    shuffle_at(b, RNG, b, DRAW, m)
    for i in range(n * NT):
        b[ix(HAND + i)] = 0
        b[ix(CLEARED + i)] = 0
    for t in range(NT):
        b[ix(REVEALED + t)] = 0
    for s in range(n):
        for _ in range(r.hand_size):
            m -= 1
            b[hand_at(s, b[ix(DRAW + m)])] += 1
        b[size_at(s)] = r.hand_size
    m -= 1
    b[DISC_MID] = b[ix(DRAW + m)]
    b[ND] = m
    b[DLO] = DISC_MID
    b[DHI] = DISC_MID + 1
    b[BAN] = -1
    b[ATK] = -1
    b[ATK_T] = -1
    b[TURNS] = 0
    b[REV_ALL] = 0
    b[REVEALING] = -1
    b[WINNER] = -1
    b[METHOD] = 0
    b[CAP] = 0
    b[LEADER] = -1
    b[LEAD_NOW] = -1
    b[LEAD_SINCE] = -1
    for s in range(n):
        b[ix(BEHIND + s)] = 0
    if r.initial_apply:
        resolve_effect(b, r, gs, (r.first_player - 1 + n) % n, b[DISC_MID])


# ---- drawing (FS-10, FS-8) -------------------------------------------------------------------
@fn
def reshuffle(b, gs):
    """FS-10.1: the discard pile below its top, shuffled, becomes the draw pile."""
    lo = b[DLO]
    m = b[DHI] - lo - 1
    for i in range(m):
        b[ix(DRAW + i)] = b[ix(lo + i)]
    b[DISC_MID] = b[ix(lo + m)]
    shuffle_at(b, RNG, b, DRAW, m)
    b[ND] = m
    b[DLO] = DISC_MID
    b[DHI] = DISC_MID + 1
    gs[G_RESHUF] += 1


@fn
def refill(b, r, gs):
    """FS-10.1 for an empty draw pile: reshuffle if the rules and the discard pile allow it."""
    if r.reshuffle == 0 or b[DHI] - b[DLO] <= 1:
        return False
    reshuffle(b, gs)
    return True


@inl
def take_from_pile(b, r, gs):
    """FS-10.1-10.3: one card off the draw pile, reshuffling if needed; -1 if none."""
    if b[ND] == 0 and not refill(b, r, gs):
        return -1
    b[ND] -= 1
    return b[ix(DRAW + b[ND])]


@inl
def draw_cards(b, r, gs, ss, q, k):
    """FS-10.2: draw one card at a time into q's hand; returns the number drawn."""
    got = 0
    for _ in range(k):
        t = take_from_pile(b, r, gs)
        if t < 0:
            break
        b[hand_at(q, t)] += 1
        got += 1
    b[size_at(q)] += got
    gs[G_DRAWN] += got
    ss[ix(q), S_DRAWN] += got
    return got


@fn
def refill_for_replacement(b, r, gs):
    """FS-8.4 for an empty draw pile: reshuffle if the discard pile below its top holds a
    non-virus (else no replacement can be found)."""
    if r.reshuffle == 0:
        return False
    for i in range(b[DLO], b[DHI] - 1):
        if b[ix(i)] != VIR:
            reshuffle(b, gs)
            return True
    return False


@inl
def draw_replacement(b, r, gs, p, slot):
    """FS-8.1-8.4: draw a new banned card into ``slot``, skipping viruses to the discard bottom."""
    while True:
        if b[ND] == 0 and not refill_for_replacement(b, r, gs):
            return
        b[ND] -= 1
        t = b[ix(DRAW + b[ND])]
        if t == VIR:
            put_bottom(b, VIR)
            gs[G_SKIP] += 1
            continue
        b[slot_at(r, p, slot)] = t
        for x in range(NT):
            b[cleared_at(p, x)] = 0
        return


# ---- legality (FS-4) -------------------------------------------------------------------------
@inl
def ban_binds(b, r, p):
    """FS-5.4: does an active HEADACHE ban on VIRUS bind p?"""
    ban = b[BAN]
    return ban >= 0 and (r.ban_next_player == 0 or p == next_seat(r, ban))


@inl
def banned_mask(b, r, p):
    """The types of p's face-down banned cards as a bit mask (FS-4.3: playing one is a bluff)."""
    m = 0
    for i in range(r.banned_per_player):
        y = b[slot_at(r, p, i)]
        if y >= 0:
            m |= 1 << y
    return m


@inl
def can_play(b, r, p, bm, allowed):
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
    if ban_binds(b, r, p):
        legal &= ~(1 << VIR)
    if b[size_at(p)] == 1:  # going-out play
        legal &= ~r.last_card_forbidden
        if r.void_last_card == 0:
            legal &= ~bm
    return legal


# ---- asking ----------------------------------------------------------------------------------
@inl
def ask(b, r, policy, bmat, gs, p, kind):
    """A play decision of p (``kind``: TURN D1, ATTACK D2, AFTER_DRAW) over the options of
    reference ``legal_turn`` / ``legal_attack`` / ``legal_after_draw``, answered by
    ``bot_decide``: the type played, or -1 for the fallback DRAW / ACCEPT / END."""
    bm = banned_mask(b, r, p)
    if kind == ATTACK:
        allowed = r.fever_counters if b[ATK] == FEV else r.sneeze_counters
    else:
        allowed = ALL_TYPES
    legal = can_play(b, r, p, bm, allowed)
    fallback = kind != TURN or r.voluntary_draw == 1 or legal & ~bm == 0
    gs[G_DECISIONS] += 1
    row = b[ix(SEAT_BOT + p)]
    return bot_decide(b, policy[ix(row)], bmat, row, p, legal, bm, fallback)


# ---- the game loop ---------------------------------------------------------------------------
@inl
def play_game(b, r, pv, policy, bmat, gs, ss, calls, call_masks, plays):
    p = r.first_player
    while True:
        # turn (FS-3)
        if start_turn(b, r, p) == OVER:
            break
        if take_action(b, r, pv, policy, bmat, gs, ss, calls, call_masks, plays, p) == OVER:
            break
        p = end_turn(b, r, p)
        observe(b, r, gs, ss)
    observe(b, r, gs, ss)


@inl
def observe(b, r, gs, ss):
    """Game feel (reference ``Lead.observe``): the seat with strictly the fewest cards leads;
    lead changes, the current leader's start and each seat's largest deficit."""
    least, lead = b[size_at(0)], np.int64(0)
    for s in range(1, r.players):
        h = b[size_at(s)]
        if h < least:
            least, lead = h, np.int64(s)
        elif h == least:
            lead = -1
    for s in range(r.players):
        b[ix(BEHIND + s)] = max(b[ix(BEHIND + s)], b[size_at(s)] - least)
    if lead != b[LEAD_NOW]:
        b[LEAD_NOW] = lead
        if lead >= 0:
            b[LEAD_SINCE] = b[TURNS]
            if b[LEADER] >= 0 and lead != b[LEADER]:
                gs[G_LEAD_CHANGES] += 1
            b[LEADER] = lead


@inl
def start_turn(b, r, p):
    """FS-3.2: turn cap (FS-9.6), turn count, end of an owner-scoped HEADACHE ban."""
    if b[TURNS] >= r.max_turns:
        b[CAP] = 1
        return finish(b, -1, 0)
    b[TURNS] += 1
    if b[BAN] == p and r.ban_next_player == 0:
        b[BAN] = -1
    return CONTINUE


@inl
def take_action(b, r, pv, policy, bmat, gs, ss, calls, call_masks, plays, p):
    """FS-3.3 (under attack) or FS-3.4 (normal turn); repeated once for FS-7.3 step 7 (the
    reference recurses). Returns CONTINUE or OVER."""
    retry = False
    while True:
        under_attack = b[ATK] >= 0 and b[ATK_T] == p
        if under_attack:
            t = ask(b, r, policy, bmat, gs, p, ATTACK)
            if t < 0:
                accept_attack(b, r, gs, ss, p)
                return CONTINUE
        else:
            if ban_binds(b, r, p) and b[hand_at(p, VIR)] > 0 and top(b) != VIR:
                gs[G_VBLOCK] += 1
            t = ask(b, r, policy, bmat, gs, p, TURN)
            if t < 0:
                voluntary_draw(b, r, gs, ss, p)
                if r.play_after_draw == 0:
                    return CONTINUE
                t = ask(b, r, policy, bmat, gs, p, AFTER_DRAW)
                if t < 0:
                    return CONTINUE
        # one call site (a runtime flag, not a literal): numba compiles and inlines play once
        code = play(b, r, pv, policy, bmat, gs, ss, calls, call_masks, plays, p, t, under_attack, retry)
        if code != AGAIN:
            return code
        retry = True


@inl
def voluntary_draw(b, r, gs, ss, p):
    """FS-3.4 DRAW: draw_count cards; the turn ends (no call window, FS-6.1)."""
    draw_cards(b, r, gs, ss, p, r.draw_count)
    gs[G_DRAWS] += 1
    ss[ix(p), S_DRAWS] += 1


@inl
def accept_attack(b, r, gs, ss, p):
    """FS-3.3 ACCEPT / FS-5.2: draw the attack penalty; the attack is over."""
    gs[G_ACC] += 1
    suffer_attack(b, r, gs, ss, p)


@inl
def suffer_attack(b, r, gs, ss, p):
    pen = r.fever_penalty_draw if b[ATK] == FEV else r.sneeze_penalty_draw
    b[ATK] = -1
    b[ATK_T] = -1
    gs[G_PEN] += 1
    ss[ix(p), S_SUFFER] += 1
    draw_cards(b, r, gs, ss, p, pen)


@inl
def end_turn(b, r, p):
    """FS-3.6: a next-player-scoped ban that bound p ends; returns the next player."""
    ban = b[BAN]
    if ban >= 0 and r.ban_next_player == 1 and next_seat(r, ban) == p:
        b[BAN] = -1
    return next_seat(r, p)


# ---- a play and its call window (FS-4.6, FS-6) -----------------------------------------------
@inl
def play(b, r, pv, policy, bmat, gs, ss, calls, call_masks, plays, p, t, under_attack, retry):
    """FS-4.6: the card goes to limbo; FS-6 window; FS-7 judgement or FS-6.5 confirmation."""
    bm = banned_mask(b, r, p)
    bluff = (bm >> t) & 1 == 1
    b[hand_at(p, t)] -= 1
    b[size_at(p)] -= 1
    gs[G_PLAYS] += 1
    ss[ix(p), S_PLAYS] += 1
    plays[ix(t), ix(p), P_PLAYS] += 1
    if bluff:
        gs[G_BLUFFS] += 1
        ss[ix(p), S_BLUFFS] += 1
        plays[ix(t), ix(p), P_BLUFFS] += 1
    caller = call_window(b, r, pv, policy, bmat, gs, ss, p, t)
    if caller < 0:
        if bluff and b[size_at(p)] == 0:
            void_going_out(b, r, gs, ss, plays, p, t, under_attack)
            return CONTINUE
        return confirm(b, r, gs, p, t, under_attack)
    plays[ix(t), ix(p), P_CALLED] += 1
    ss[ix(p), S_CALLED] += 1
    gs[G_MADE] += 1
    ss[ix(caller), S_MADE] += 1
    d = caller - p if caller > p else caller - p + r.players  # clockwise distance (FS-6.3)
    calls[ix(t), ix(d), ix(caller), C_CALLS] += 1
    call_masks[ix(bm), ix(t)] += 1  # banned_calls, expanded by add_banned_calls
    if bluff:
        calls[ix(t), ix(d), ix(caller), C_SUCCESSES] += 1
        return call_succeeds(b, r, policy, gs, ss, plays, p, t, caller, under_attack, retry)
    return call_fails(b, r, gs, ss, p, t, caller, under_attack)


@inl
def call_window(b, r, pv, policy, bmat, gs, ss, p, t):
    """FS-6.1-6.3: ask every other eligible player once (clockwise from p); the judged caller,
    or -1."""
    n = r.players
    safe = b[size_at(p)] == 0 and r.void_last_card == 0
    p_slots = np.int64(0)
    for i in range(r.banned_per_player):
        if b[slot_at(r, p, i)] >= 0:
            p_slots += 1
    nc = np.int64(0)
    for d in range(1, n):
        q = p + d
        if q >= n:
            q -= n
        if r.forbid_short_call and b[size_at(q)] < r.push_count:
            continue
        gs[G_DECISIONS] += 1
        if wants_call(b, r, pv, policy, bmat, q, p, t, safe, p_slots):
            b[ix(CALLERS + nc)] = q
            nc += 1
    gs[G_REQ] += nc
    for i in range(nc):
        ss[ix(b[ix(CALLERS + i)]), S_REQ] += 1
    if nc == 0:
        return -1
    if r.random_priority and nc > 1:
        return b[ix(CALLERS + randbelow_at(b, RNG, nc))]
    return b[CALLERS]  # FS-6.3: nearest clockwise from the challenged player


@inl
def confirm(b, r, gs, p, t, under_attack):
    """FS-6.5: the card goes on the discard pile; going out (FS-9.1) or its effect (FS-5)."""
    b[ix(b[DHI])] = t
    b[DHI] += 1
    if b[size_at(p)] == 0:
        return finish(b, p, PLAY_OUT)
    if under_attack:
        b[ATK] = -1
        b[ATK_T] = -1
        gs[G_CTRD] += 1
    resolve_effect(b, r, gs, p, t)
    return CONTINUE


@inl
def resolve_effect(b, r, gs, p, t):
    """FS-5.2 attacks (reconstructed profile only) and FS-5.4 HEADACHE."""
    if (t == FEV or t == SNZ) and r.attacks:
        b[ATK] = t
        b[ATK_T] = next_seat(r, p)
        gs[G_ATK] += 1
    elif t == HDA:
        b[BAN] = p
        gs[G_HDA] += 1


# ---- judgement (FS-7) ------------------------------------------------------------------------
@inl
def call_fails(b, r, gs, ss, p, t, caller, under_attack):
    """FS-7.4: the caller draws call_fail_draw; the play is confirmed."""
    gs[G_FAIL] += 1
    b[cleared_at(p, t)] = 1
    draw_cards(b, r, gs, ss, caller, r.call_fail_draw)
    return confirm(b, r, gs, p, t, under_attack)


@inl
def reveal(b, r, gs, p, t):
    """FS-7.1: reveal the lowest-index slot holding t (duplicates: only one, D5); returns it."""
    slot = -1
    cnt = 0
    for i in range(r.banned_per_player):
        if b[slot_at(r, p, i)] == t:
            cnt += 1
            if slot < 0:
                slot = i
    if cnt > 1:
        gs[G_DUP] += 1
    gs[G_REVEALS] += 1
    b[ix(REVEALED + t)] += 1
    b[REV_ALL] += 1
    b[REVEALING] = p * r.banned_per_player + slot
    return slot


@inl
def discard_revealed(b, r, p, slot):
    """FS-7.3 step 4: the revealed card goes to revealed_banned_destination."""
    t = b[slot_at(r, p, slot)]
    b[slot_at(r, p, slot)] = -1
    b[REVEALING] = -1
    if r.revealed_destination == DEST_DISCARD:
        put_bottom(b, t)
    elif r.revealed_destination == DEST_HAND:
        b[hand_at(p, t)] += 1
        b[size_at(p)] += 1
    # otherwise (removed) the card leaves the game


@inl
def call_succeeds(b, r, policy, gs, ss, plays, p, t, caller, under_attack, retry):
    """FS-7.3 steps 1-7; returns OVER (push out), AGAIN (play again) or CONTINUE."""
    gs[G_SUCC] += 1
    gs[G_CAUGHT] += 1
    ss[ix(caller), S_CORRECT] += 1
    ss[ix(p), S_CAUGHT] += 1
    plays[ix(t), ix(p), P_CAUGHT] += 1
    slot = reveal(b, r, gs, p, t)                              # step 1
    push(b, r, policy, gs, ss, caller, p)                      # step 2
    if b[size_at(caller)] == 0:
        return finish(b, caller, PUSH_OUT)  # the played card stays in limbo
    b[hand_at(p, t)] += 1                                      # step 3
    b[size_at(p)] += 1
    discard_revealed(b, r, p, slot)                            # step 4
    draw_replacement(b, r, gs, p, slot)                        # step 5
    again = r.play_again == 1 and not retry
    if under_attack and not again:                             # step 6
        after_failed_counter(b, r, gs, ss, p)
    return AGAIN if again else CONTINUE                        # step 7


@inl
def after_failed_counter(b, r, gs, ss, p):
    """FS-7.3 step 6: the attack hits (failed_counter_penalty) or lapses; it is over."""
    if r.failed_counter_penalty:
        suffer_attack(b, r, gs, ss, p)
    else:
        b[ATK] = -1
        b[ATK_T] = -1


@inl
def push(b, r, policy, gs, ss, caller, p):
    """FS-7.2: the caller gives min(push_count, hand) cards of their choice to p."""
    m = min(r.push_count, b[size_at(caller)])
    if m == 0:
        return
    gs[G_DECISIONS] += 1
    pol = policy[ix(b[ix(SEAT_BOT + caller)])]
    for _ in range(m):
        x = choose_push(b, r, pol, caller)
        b[hand_at(caller, x)] -= 1
        b[size_at(caller)] -= 1
        b[hand_at(p, x)] += 1
        b[size_at(p)] += 1
    gs[G_PUSHED] += m
    ss[ix(caller), S_PUSHED] += m
    ss[ix(p), S_RECV] += m


@fn
def void_going_out(b, r, gs, ss, plays, p, t, under_attack):
    """FS-9.4 banned_last_card = void: the reveal voids the going out."""
    gs[G_VOID] += 1
    gs[G_CAUGHT] += 1
    ss[ix(p), S_CAUGHT] += 1
    plays[ix(t), ix(p), P_CAUGHT] += 1
    b[hand_at(p, t)] += 1
    b[size_at(p)] += 1
    draw_cards(b, r, gs, ss, p, r.call_fail_draw)
    slot = reveal(b, r, gs, p, t)
    discard_revealed(b, r, p, slot)
    draw_replacement(b, r, gs, p, slot)
    if under_attack:
        after_failed_counter(b, r, gs, ss, p)


@inl
def finish(b, winner, method):
    b[WINNER] = winner
    b[METHOD] = method
    return OVER


# ---- bots (bots.py; reference.bot_decide, wants_call, choose_push) ---------------------------
@inl
def bot_decide(b, pol, bmat, row, p, legal, bm, fallback):
    """The play decisions of the bundled policies: a legal type, or -1 for the fallback."""
    if pol == RANDOM:
        n_opts = np.int64(1 if fallback else 0)
        for x in range(NT):
            n_opts += (legal >> x) & 1
        k = randbelow_at(b, RNG, n_opts)  # options: the legal types in code order, then the fallback
        for x in range(NT):
            if (legal >> x) & 1:
                if k == 0:
                    return x
                k -= 1
        return -1
    honest = legal & ~bm
    bluffs = legal & bm
    sel = honest
    if pol == BLUFFER and bluffs != 0:
        h = np.int64(0)
        for x in range(NT):
            if (honest >> x) & 1:
                h += b[hand_at(p, x)]
        if uniform_at(b, RNG) < bluff_probability(bmat, row, h):
            sel = bluffs
    return argmax_type(b, p, sel)


@inl
def argmax_type(b, p, allowed):
    """Type p holds most among the bit mask ``allowed`` (ties: lowest code), or -1."""
    best, best_n = -1, 0
    for x in range(NT):
        if (allowed >> x) & 1 and b[hand_at(p, x)] > best_n:
            best, best_n = x, b[hand_at(p, x)]
    return best


@inl
def bluff_probability(bmat, row, honest_cards):
    return bmat[ix(row), BP_BMAX] * bmat[ix(row), BP_BK] / (bmat[ix(row), BP_BK] + honest_cards)


@inl
def wants_call(b, r, pv, policy, bmat, q, p, t, safe, p_slots):
    """D3 of q on p's play of t (``safe``: p goes out on it and may not bluff doing so)."""
    row = b[ix(SEAT_BOT + q)]
    if policy[ix(row)] == RANDOM:
        return uniform_at(b, RNG) < bmat[ix(row), BP_CALL_PROB]
    pr = ban_probability(b, r, pv, q, p, t, p_slots, safe)
    return pr > 0.0 and pr > call_threshold(b, r, bmat, row, p, q)


@inl
def ban_probability(b, r, pv, q, p, t, p_slots, safe):
    """The call model's estimate (as seen by q) that t is banned for p."""
    if safe or b[cleared_at(p, t)]:
        return 0.0
    own_t = 0
    own_all = 0
    for i in range(r.banned_per_player):
        y = b[slot_at(r, q, i)]
        own_all += y >= 0
        own_t += y == t
    unseen_t = max(0, pv[ix(K_POOL + t)] - own_t - b[ix(REVEALED + t)])
    unseen_all = max(1, b[POOL_SIZE] - own_all - b[REV_ALL])
    ratio = min(1.0, unseen_t / unseen_all)
    miss = 1.0
    for _ in range(p_slots):
        miss *= 1.0 - ratio
    return 1.0 - miss


@inl
def call_threshold(b, r, bmat, row, p, q):
    th = bmat[ix(row), BP_TH]
    if b[size_at(p)] <= 2:
        th -= bmat[ix(row), BP_URG]
    if b[size_at(q)] <= r.push_count:
        th -= bmat[ix(row), BP_WIN]
    return th


@inl
def choose_push(b, r, pol, caller):
    """One card of D4 from the caller's remaining hand: ``random`` uniform, else the first own
    banned type held (slot order), else the type held most."""
    if pol == RANDOM:
        i = randbelow_at(b, RNG, b[size_at(caller)])
        x = 0
        while i >= b[hand_at(caller, x)]:
            i -= b[hand_at(caller, x)]
            x += 1
        return x
    for j in range(r.banned_per_player):
        y = b[slot_at(r, caller, j)]
        if y >= 0 and b[hand_at(caller, y)] > 0:
            return y
    return argmax_type(b, caller, np.int64(ALL_TYPES))


# ---- whole games -----------------------------------------------------------------------------
@inl
def record(b, r, gs, ss):
    """Write one finished game into its games / seats rows (tables.py)."""
    gs[G_WINNER] = b[WINNER]
    gs[G_TURNS] = b[TURNS]
    gs[G_METHOD] = b[METHOD]
    gs[G_CAP] = b[CAP]
    w = b[WINNER]
    gs[G_LEAD_FROM] = b[LEAD_SINCE] if w >= 0 and b[LEAD_NOW] == w else -1
    gs[G_WIN_BEHIND] = b[ix(BEHIND + w)] if w >= 0 else -1
    for s in range(r.players):
        ss[ix(s), S_FINAL] = b[size_at(s)]
        ss[ix(s), S_BEHIND] = b[ix(BEHIND + s)]
    count_banned(b, r, ss, S_FINAL_BANNED0)


@inl
def count_banned(b, r, ss, col0):
    """Add each seat's face-down banned cards, by type, to its seat columns from ``col0``
    (tables.SEAT_BANNED); the card being revealed (a push out ended the game) is not counted."""
    for s in range(r.players):
        for i in range(r.banned_per_player):
            y = b[slot_at(r, s, i)]
            if y >= 0 and s * r.banned_per_player + i != b[REVEALING]:
                ss[ix(s), ix(col0 + BANNED_COL[ix(y)])] += 1


@njit(cache=True, error_model="numpy", boundscheck=False)  # no zero-division checks: inputs are validated
def play_batch(pv, seed, start, count, policy, bmat, b, games, seats, calls, banned_calls, plays):
    """Play games ``start .. start+count-1`` (parameters ``pv`` from rules.encode; bots
    ``policy``/``bmat`` per table position; state buffer ``b`` laid out by ``STATE``) into
    the tables.py result arrays."""
    r = KernelRules(*to_fixed_tuple(pv, N_RULES))
    rows = np.arange(r.players)
    call_masks = np.zeros((1 << NT, NT), dtype=np.int64)  # judged calls by (banned mask, played type)
    for gi in range(count):
        g = start + gi
        b[RNG] = derive(np.uint64(seed), np.uint64(g))
        for s in range(r.players):
            b[ix(SEAT_BOT + s)] = seat_bot(rows, g, s)
        gs = games[gi]
        ss = seats[gi]
        setup(b, r, pv, gs)
        count_banned(b, r, ss, S_INITIAL_BANNED0)
        play_game(b, r, pv, policy, bmat, gs, ss, calls, call_masks, plays)
        record(b, r, gs, ss)
    add_banned_calls(call_masks, banned_calls)


@inl
def add_banned_calls(call_masks, banned_calls):
    """Add the judged calls counted by (the challenged player's banned-type mask, the played
    type) to ``banned_calls`` (tables.py): a call counts in the row of every type in its mask,
    and it was right when the played type is in the mask. Counting one cell per call instead
    keeps the call path short."""
    for m in range(1 << NT):
        for t in range(NT):
            c = call_masks[m, t]
            if c == 0:
                continue
            for y in range(NT):
                if (m >> y) & 1:
                    banned_calls[y, t, C_CALLS] += c
                    if (m >> t) & 1:
                        banned_calls[y, t, C_SUCCESSES] += c


def new_state() -> np.ndarray:
    """A zeroed state buffer (``STATE`` layout)."""
    return np.zeros(STATE.size, dtype=np.int64)


def run_kernel(game, cfg, start: int, count: int, arr: dict, state: np.ndarray | None = None) -> np.ndarray:
    """Fill the tables.py arrays for games ``start .. start+count-1``; returns the state
    buffer, which then holds the last game's final state."""
    from .rules import encode

    assert tuple(game.bot_param_names()) == BOT_PARAM_NAMES
    assert cfg.players <= MAX_PLAYERS
    policy, bmat = game.bot_matrix(cfg)
    state = new_state() if state is None else state
    play_batch(encode(cfg), np.uint64(cfg.seed), np.int64(start), np.int64(count), policy, bmat,
               state, arr["games"], arr["seats"], arr["calls"], arr["banned_calls"], arr["plays"])
    return state
