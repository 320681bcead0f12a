"""The faking-sick engine's game (kernel/__init__.py has the protocol, the step contract and the batch):
setup (FS-2), drawing (FS-10, FS-8), the game loop and its turns (FS-3), a play and its call
window (FS-4.6, FS-6), judgement (FS-7) and the finished game's rows, each phase a function
named as the ``FakingSick`` method of reference/ it follows, in the same order.

Where the reference raises ``GameOver`` or recurses (play again, FS-7.3 step 7), a phase
returns ``OVER`` or ``AGAIN``; ``PAUSE`` when a game driven through the step contract reaches
its pending decision (the state is then the decision's, nothing after it done). Phases are
``inl`` (forceinline: LLVM merges them into ``play_turns``, so passing the buffer around costs
nothing); the rare steps (``reshuffle`` and the refills that call it, the void going-out) are
``fn`` (separate, no numba runtime). Compile time: numba compiles a phase once per distinct
argument types, and a literal argument is a type of its own, so counters handed to a phase
start as ``np.int64(0)`` (a plain ``0`` costs one more compilation for ``Literal[int](0)``)
and ``play`` has one call site with a runtime ``under_attack`` flag.
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import every_seat, fn, inl, ir_inline, ix, lead_columns, observe_lead, start_lead
from sim.kit.rng import derive, randbelow_at, shuffle_at

from .. import tables as T
from .bots import ask, ban_binds, banned_mask, call_context, choose_push, play_decision, wants_call
from .state import (
    AFTER_DRAW, ATK, ATK_T, ATTACK, BAN, BANNED, BANNED_COL, BOT_PARAMS, CALL, CALLERS, CLEARED, C_CALLS,
    C_SUCCESSES, DHI, DISC_MID, DLO, DRAW, DRIVEN, FALLBACK, GAME_ROW, G_ACC, G_ATK, G_BLUFFS, G_CAP, G_CAUGHT,
    G_CTRD, G_DRAWN, G_DRAWS, G_DUP, G_FAIL, G_HDA, G_LEAD_CHANGES, G_LEAD_FROM, G_MADE, G_METHOD, G_PEN, G_PLAYS,
    G_PUSHED, G_REQ, G_RESHUF, G_REVEALS, G_SKIP, G_SUCC, G_TURNS, G_VBLOCK, G_VOID, G_WINNER, G_WIN_BEHIND, HAND,
    LEAD, LIMBO, LIMBO_SEAT, NB, ND, NS, PENDING, PLAY_OUT, POLICY, POOL_SIZE, PUSH, PUSH_BITS,
    PUSH_MASK, PUSH_OUT, P_BLUFFS, P_CALLED, P_CAUGHT, P_PLAYS, REVEALED, REVEALING, REV_ALL, RNG, R_BP, R_POL,
    ROLLOUT_END, SEAT_ROWS, SNAP_TURNS, STEP, STEPPED, STEP_POLICY, S_BEHIND, S_BLUFFS, S_CALLED, S_CAUGHT,
    S_CORRECT, S_DRAWN,
    S_DRAWS, S_FINAL, S_FINAL_BANNED0, S_INITIAL_BANNED0, S_MADE, S_PLAYS, S_PUSHED, S_RECV, S_REQ, S_SUFFER,
    TO_MOVE, TURN, TURNS, call_mask, call_sum, cleared_at, game_col, hand_at, next_seat, play_sum, seat_col,
    size_at, slot_at, step_turn, top,
)
from ..rules import (
    DEST_DISCARD, DEST_HAND, FEV, HDA, K_BAN_NEXT, K_BPP, K_CTR_PENALTY, K_DECK, K_DEST, K_DRAW, K_EFFECTS,
    K_FAIL_DRAW, K_FEV_PEN, K_FIRST, K_FORBID_CALL, K_HAND, K_INIT_APPLY, K_LEN, K_MAX_TURNS, K_N, K_PLAY_AFTER,
    K_PLAY_AGAIN, K_POOL, K_PRIO_RANDOM, K_PUSH, K_RESHUFFLE, K_SNZ_PEN, K_VOID, NT, SNZ, VIR,
)

CONTINUE, OVER, AGAIN, PAUSE = 0, 1, 2, 3  # what a phase tells its caller


@inl
def put_bottom(b, t):
    """A card under the discard pile (FS-7.3 step 4, FS-8.2)."""
    b[DLO] -= 1
    b[ix(b[DLO])] = t


# ---- setup (FS-2) ----------------------------------------------------------------------------
@inl
def setup(b):
    """FS-2.1-2.6. RNG: shuffle the banned pool, then the deck (kernel/__init__.py protocol). The game's
    result rows start from zero."""
    n = b[K_N]
    m = np.int64(0)
    for t in range(NT):
        for _ in range(b[ix(K_POOL + t)]):
            b[ix(BANNED + m)] = t
            m += 1
    shuffle_at(b, RNG, b, BANNED, m)  # seat s's slots are pool cards s*k .. s*k+k-1 (slot_at)
    b[POOL_SIZE] = m
    m = np.int64(0)
    for t in range(NT):
        for _ in range(b[ix(K_DECK + t)] - b[ix(K_POOL + t)] - (1 if t == VIR else 0)):
            b[ix(DRAW + m)] = t
            m += 1
    shuffle_at(b, RNG, b, DRAW, m)
    for i in range(n * NT):
        b[ix(HAND + i)] = 0
        b[ix(CLEARED + i)] = 0
    for t in range(NT):
        b[ix(REVEALED + t)] = 0
    for j in range(T.NG):
        b[ix(GAME_ROW + j)] = 0
    b[game_col(G_WINNER)] = -1
    for j in range(n * NS):
        b[ix(SEAT_ROWS + j)] = 0
    for s in range(n):
        for _ in range(b[K_HAND]):
            m -= 1
            b[hand_at(s, b[ix(DRAW + m)])] += 1
        b[size_at(s)] = b[K_HAND]
    m -= 1
    b[DISC_MID] = b[ix(DRAW + m)]
    b[ND] = m
    b[DLO] = DISC_MID
    b[DHI] = DISC_MID + 1
    b[BAN] = -1
    b[ATK] = -1
    b[ATK_T] = -1
    b[TO_MOVE] = b[K_FIRST]
    b[TURNS] = 0
    b[LIMBO] = -1
    b[REV_ALL] = 0
    b[REVEALING] = -1
    start_lead(b, LEAD, n)
    if b[K_INIT_APPLY]:
        resolve_effect(b, (b[K_FIRST] - 1 + n) % n, b[DISC_MID])


# ---- drawing (FS-10, FS-8) -------------------------------------------------------------------
@fn
def reshuffle(b):
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
    b[game_col(G_RESHUF)] += 1


@fn
def refill(b):
    """FS-10.1 for an empty draw pile: reshuffle if the rules and the discard pile allow it."""
    if b[K_RESHUFFLE] == 0 or b[DHI] - b[DLO] <= 1:
        return False
    reshuffle(b)
    return True


@inl
def take_from_pile(b):
    """FS-10.1-10.3: one card off the draw pile, reshuffling if needed; -1 if none."""
    if b[ND] == 0 and not refill(b):
        return -1
    b[ND] -= 1
    return b[ix(DRAW + b[ND])]


@inl
def draw_cards(b, q, k):
    """FS-10.2: draw one card at a time into q's hand; returns the number drawn."""
    got = 0
    for _ in range(k):
        t = take_from_pile(b)
        if t < 0:
            break
        b[hand_at(q, t)] += 1
        got += 1
    b[size_at(q)] += got
    b[game_col(G_DRAWN)] += got
    b[seat_col(q, S_DRAWN)] += got
    return got


@fn
def refill_for_replacement(b):
    """FS-8.4 for an empty draw pile: reshuffle if the discard pile below its top holds a
    non-virus (else no replacement can be found)."""
    if b[K_RESHUFFLE] == 0:
        return False
    for i in range(b[DLO], b[DHI] - 1):
        if b[ix(i)] != VIR:
            reshuffle(b)
            return True
    return False


@inl
def draw_replacement(b, p, slot):
    """FS-8.1-8.4: draw a new banned card into ``slot``, skipping viruses to the discard bottom."""
    while True:
        if b[ND] == 0 and not refill_for_replacement(b):
            return
        b[ND] -= 1
        t = b[ix(DRAW + b[ND])]
        if t == VIR:
            put_bottom(b, VIR)
            b[game_col(G_SKIP)] += 1
            continue
        b[slot_at(b, p, slot)] = t
        for x in range(NT):
            b[cleared_at(p, x)] = 0
        return


# ---- the game loop ---------------------------------------------------------------------------
@ir_inline
def play_game(b):
    """One game from setup (FS-2) to its end (or a driven game's first pending decision)."""
    setup(b)
    count_banned(b, S_INITIAL_BANNED0)
    play_turns(b)


@fn
def play_turns(b):
    """FS-3: turns from to_move's on until the game ends (its rows then recorded), or until
    the pending decision of a game driven through the step contract (``step_turn``)."""
    while True:
        p = b[TO_MOVE]
        if b[STEPPED] and b[TURNS] != b[SNAP_TURNS]:
            step_turn(b)
        if start_turn(b, p) == OVER:
            break
        code = take_action(b, p)
        if code == PAUSE:
            return
        if code == OVER:
            break
        b[TO_MOVE] = end_turn(b, p)
        observe(b)
    observe(b)
    record(b)


@inl
def cards_held(b, s):
    """Seat ``s``'s game-feel score: the cards it holds."""
    return b[size_at(s)]


@inl
def observe(b):
    """Game feel (reference ``Lead.observe``): the seat with strictly the fewest cards leads."""
    observe_lead(b, LEAD, b[K_N], b[TURNS], every_seat, cards_held, game_col(G_LEAD_CHANGES))


@inl
def start_turn(b, p):
    """FS-3.2: turn cap (FS-9.6; a search rollout's end, ``rollout_end``), turn count, end of an
    owner-scoped HEADACHE ban."""
    if b[TURNS] >= b[K_MAX_TURNS] or (b[ROLLOUT_END] > 0 and b[TURNS] >= b[ROLLOUT_END]):
        b[game_col(G_CAP)] = 1
        return finish(b, -1, 0)
    b[TURNS] += 1
    if b[BAN] == p and b[K_BAN_NEXT] == 0:
        b[BAN] = -1
    return CONTINUE


@inl
def take_action(b, p):
    """FS-3.3 (under attack) or FS-3.4 (normal turn); repeated once for FS-7.3 step 7 (the
    reference recurses). Returns CONTINUE, OVER or PAUSE."""
    retry = False
    while True:
        under_attack = b[ATK] >= 0 and b[ATK_T] == p
        if under_attack:
            t = play_decision(b, p, ATTACK)
            if t == PENDING:
                return PAUSE
            if t == FALLBACK:
                accept_attack(b, p)
                return CONTINUE
        else:
            if ban_binds(b, p) and b[hand_at(p, VIR)] > 0 and top(b) != VIR:
                b[game_col(G_VBLOCK)] += 1
            t = play_decision(b, p, TURN)
            if t == PENDING:
                return PAUSE
            if t == FALLBACK:
                voluntary_draw(b, p)
                if b[K_PLAY_AFTER] == 0:
                    return CONTINUE
                t = play_decision(b, p, AFTER_DRAW)
                if t == PENDING:
                    return PAUSE
                if t == FALLBACK:
                    return CONTINUE
        # one call site (a runtime flag, not a literal): numba compiles and inlines play once
        code = play(b, p, t, under_attack, retry)
        if code != AGAIN:
            return code
        retry = True


@inl
def voluntary_draw(b, p):
    """FS-3.4 DRAW: draw_count cards; the turn ends (no call window, FS-6.1)."""
    draw_cards(b, p, b[K_DRAW])
    b[game_col(G_DRAWS)] += 1
    b[seat_col(p, S_DRAWS)] += 1


@inl
def accept_attack(b, p):
    """FS-3.3 ACCEPT / FS-5.2: draw the attack penalty; the attack is over."""
    b[game_col(G_ACC)] += 1
    suffer_attack(b, p)


@inl
def suffer_attack(b, p):
    pen = b[K_FEV_PEN] if b[ATK] == FEV else b[K_SNZ_PEN]
    b[ATK] = -1
    b[ATK_T] = -1
    b[game_col(G_PEN)] += 1
    b[seat_col(p, S_SUFFER)] += 1
    draw_cards(b, p, pen)


@inl
def end_turn(b, p):
    """FS-3.6: a next-player-scoped ban that bound p ends; returns the next player."""
    ban = b[BAN]
    if ban >= 0 and b[K_BAN_NEXT] == 1 and next_seat(b, ban) == p:
        b[BAN] = -1
    return next_seat(b, p)


# ---- a play and its call window (FS-4.6, FS-6) -----------------------------------------------
@inl
def play(b, p, t, under_attack, retry):
    """FS-4.6: the card goes to limbo; FS-6 window; FS-7 judgement or FS-6.5 confirmation."""
    bm = banned_mask(b, p)
    bluff = (bm >> t) & 1 == 1
    b[hand_at(p, t)] -= 1
    b[size_at(p)] -= 1
    b[LIMBO] = t
    b[LIMBO_SEAT] = p
    b[game_col(G_PLAYS)] += 1
    b[seat_col(p, S_PLAYS)] += 1
    b[play_sum(t, p, P_PLAYS)] += 1
    if bluff:
        b[game_col(G_BLUFFS)] += 1
        b[seat_col(p, S_BLUFFS)] += 1
        b[play_sum(t, p, P_BLUFFS)] += 1
    caller = call_window(b, p, t)
    if caller == PENDING:
        return PAUSE
    if caller < 0:
        if bluff and b[size_at(p)] == 0:
            void_going_out(b, p, t, under_attack)
            return CONTINUE
        return confirm(b, p, t, under_attack)
    b[play_sum(t, p, P_CALLED)] += 1
    b[seat_col(p, S_CALLED)] += 1
    b[game_col(G_MADE)] += 1
    b[seat_col(caller, S_MADE)] += 1
    d = caller - p if caller > p else caller - p + b[K_N]  # clockwise distance (FS-6.3)
    b[call_sum(t, d, caller, C_CALLS)] += 1
    b[call_mask(bm, t)] += 1  # banned_calls, expanded by banned_call_sums
    if bluff:
        b[call_sum(t, d, caller, C_SUCCESSES)] += 1
        return call_succeeds(b, p, t, caller, under_attack, retry)
    return call_fails(b, p, t, caller, under_attack)


@inl
def call_window(b, p, t):
    """FS-6.1-6.3: ask every other eligible player once (clockwise from p); the judged caller,
    -1 (none) or PENDING."""
    n = b[K_N]
    safe, p_slots = call_context(b, p)
    nc = np.int64(0)
    for d in range(1, n):
        q = p + d
        if q >= n:
            q -= n
        if b[K_FORBID_CALL] and b[size_at(q)] < b[K_PUSH]:
            continue
        pol = ask(b, q, CALL)
        if pol == STEP:
            if b[DRIVEN] == PENDING:
                return PENDING
            calls = b[DRIVEN] == 1
        else:
            calls = wants_call(b, pol, q, p, t, safe, p_slots)
        if calls:
            b[ix(CALLERS + nc)] = q
            nc += 1
    b[game_col(G_REQ)] += nc
    for i in range(nc):
        b[seat_col(b[ix(CALLERS + i)], S_REQ)] += 1
    if nc == 0:
        return -1
    if b[K_PRIO_RANDOM] and nc > 1:
        return b[ix(CALLERS + randbelow_at(b, RNG, nc))]
    return b[CALLERS]  # FS-6.3: nearest clockwise from the challenged player


@inl
def confirm(b, p, t, under_attack):
    """FS-6.5: the card goes on the discard pile; going out (FS-9.1) or its effect (FS-5)."""
    b[ix(b[DHI])] = t
    b[DHI] += 1
    b[LIMBO] = -1
    if b[size_at(p)] == 0:
        return finish(b, p, PLAY_OUT)
    if under_attack:
        b[ATK] = -1
        b[ATK_T] = -1
        b[game_col(G_CTRD)] += 1
    resolve_effect(b, p, t)
    return CONTINUE


@inl
def resolve_effect(b, p, t):
    """FS-5.2 attacks (reconstructed profile only) and FS-5.4 HEADACHE."""
    if (t == FEV or t == SNZ) and b[K_EFFECTS]:
        b[ATK] = t
        b[ATK_T] = next_seat(b, p)
        b[game_col(G_ATK)] += 1
    elif t == HDA:
        b[BAN] = p
        b[game_col(G_HDA)] += 1


# ---- judgement (FS-7) ------------------------------------------------------------------------
@inl
def call_fails(b, p, t, caller, under_attack):
    """FS-7.4: the caller draws call_fail_draw; the play is confirmed."""
    b[game_col(G_FAIL)] += 1
    b[cleared_at(p, t)] = 1
    draw_cards(b, caller, b[K_FAIL_DRAW])
    return confirm(b, p, t, under_attack)


@inl
def reveal(b, p, t):
    """FS-7.1: reveal the lowest-index slot holding t (duplicates: only one, D5); returns it."""
    slot = -1
    cnt = 0
    for i in range(b[K_BPP]):
        if b[slot_at(b, p, i)] == t:
            cnt += 1
            if slot < 0:
                slot = i
    if cnt > 1:
        b[game_col(G_DUP)] += 1
    b[game_col(G_REVEALS)] += 1
    b[ix(REVEALED + t)] += 1
    b[REV_ALL] += 1
    b[REVEALING] = p * b[K_BPP] + slot
    return slot


@inl
def discard_revealed(b, p, slot):
    """FS-7.3 step 4: the revealed card goes to revealed_banned_destination."""
    t = b[slot_at(b, p, slot)]
    b[slot_at(b, p, slot)] = -1
    b[REVEALING] = -1
    if b[K_DEST] == DEST_DISCARD:
        put_bottom(b, t)
    elif b[K_DEST] == DEST_HAND:
        b[hand_at(p, t)] += 1
        b[size_at(p)] += 1
    # otherwise (removed) the card leaves the game


@inl
def call_succeeds(b, p, t, caller, under_attack, retry):
    """FS-7.3 steps 1-7; returns OVER (push out), AGAIN (play again), CONTINUE or PAUSE."""
    b[game_col(G_SUCC)] += 1
    b[game_col(G_CAUGHT)] += 1
    b[seat_col(caller, S_CORRECT)] += 1
    b[seat_col(p, S_CAUGHT)] += 1
    b[play_sum(t, p, P_CAUGHT)] += 1
    slot = reveal(b, p, t)                                     # step 1
    if push(b, caller, p) == PAUSE:                            # step 2
        return PAUSE
    if b[size_at(caller)] == 0:
        return finish(b, caller, PUSH_OUT)  # the played card stays in limbo
    b[hand_at(p, t)] += 1                                      # step 3
    b[size_at(p)] += 1
    b[LIMBO] = -1
    discard_revealed(b, p, slot)                               # step 4
    draw_replacement(b, p, slot)                               # step 5
    again = b[K_PLAY_AGAIN] == 1 and not retry
    if under_attack and not again:                             # step 6
        after_failed_counter(b, p)
    return AGAIN if again else CONTINUE                        # step 7


@inl
def after_failed_counter(b, p):
    """FS-7.3 step 6: the attack hits (failed_counter_penalty) or lapses; it is over."""
    if b[K_CTR_PENALTY]:
        suffer_attack(b, p)
    else:
        b[ATK] = -1
        b[ATK_T] = -1


@inl
def push(b, caller, p):
    """FS-7.2: the caller gives min(push_count, hand) cards of their choice to p (D4: the
    bot's one card at a time, or the step driver's option, the counts by type); PAUSE at the
    pending decision, else CONTINUE."""
    m = min(b[K_PUSH], b[size_at(caller)])
    if m == 0:
        return CONTINUE
    pol = ask(b, caller, PUSH)
    if pol == STEP:
        o = b[DRIVEN]
        if o == PENDING:
            return PAUSE
        for x in range(NT):
            give(b, caller, p, x, (o >> (PUSH_BITS * x)) & PUSH_MASK)
    else:
        for _ in range(m):
            give(b, caller, p, choose_push(b, pol, caller), 1)
    b[game_col(G_PUSHED)] += m
    b[seat_col(caller, S_PUSHED)] += m
    b[seat_col(p, S_RECV)] += m
    return CONTINUE


@inl
def give(b, caller, p, x, k):
    """k cards of type x from the caller's hand to p's."""
    b[hand_at(caller, x)] -= k
    b[size_at(caller)] -= k
    b[hand_at(p, x)] += k
    b[size_at(p)] += k


@fn
def void_going_out(b, p, t, under_attack):
    """FS-9.4 banned_last_card = void: the reveal voids the going out."""
    b[game_col(G_VOID)] += 1
    b[game_col(G_CAUGHT)] += 1
    b[seat_col(p, S_CAUGHT)] += 1
    b[play_sum(t, p, P_CAUGHT)] += 1
    b[hand_at(p, t)] += 1
    b[size_at(p)] += 1
    b[LIMBO] = -1
    draw_cards(b, p, b[K_FAIL_DRAW])
    slot = reveal(b, p, t)
    discard_revealed(b, p, slot)
    draw_replacement(b, p, slot)
    if under_attack:
        after_failed_counter(b, p)


@inl
def finish(b, winner, method):
    b[game_col(G_WINNER)] = winner
    b[game_col(G_METHOD)] = method
    return OVER


# ---- whole games -----------------------------------------------------------------------------
@fn
def begin_game(b, seed, game_index, run, driven):
    """Seat game ``game_index`` of a run (``run``: ``run_vector``): the rules, the rotated bots
    and their parameters (seat s plays table position (s + game_index) % n, ``seat_bot``),
    the generator's counter. ``driven``: a game driven through the step contract, whose seats'
    policies read STEP (the bots' kept in ``step_policies``). ``setup`` makes the engine state;
    the batch sums are left as they are."""
    for i in range(K_LEN):
        b[ix(i)] = run[ix(i)]
    n = b[K_N]
    for s in range(n):
        j = (s + game_index) % n
        pol = run[ix(R_POL + j)]
        b[ix(STEP_POLICY + s)] = pol
        b[ix(POLICY + s)] = STEP if driven else pol
        for k in range(NB):
            b[ix(BOT_PARAMS + s * NB + k)] = run[ix(R_BP + j * NB + k)]
    b[RNG] = derive(np.uint64(seed), np.uint64(game_index))
    b[STEPPED] = driven
    b[ROLLOUT_END] = 0


@inl
def record(b):
    """Write the finished game into its games / seats rows (tables.py; the winner, win method
    and turn cap are there already)."""
    b[game_col(G_TURNS)] = b[TURNS]
    w = b[game_col(G_WINNER)]
    lead_columns(b, LEAD, w, game_col(G_LEAD_FROM), game_col(G_WIN_BEHIND), b[K_N], seat_col(0, S_BEHIND), NS)
    for s in range(b[K_N]):
        b[seat_col(s, S_FINAL)] = b[size_at(s)]
    count_banned(b, S_FINAL_BANNED0)


@inl
def count_banned(b, col0):
    """Add each seat's face-down banned cards, by type, to its seat columns from ``col0``
    (tables.SEAT_BANNED); the card being revealed (a push out ended the game) is not counted."""
    for s in range(b[K_N]):
        for i in range(b[K_BPP]):
            y = b[slot_at(b, s, i)]
            if y >= 0 and s * b[K_BPP] + i != b[REVEALING]:
                b[seat_col(s, col0 + BANNED_COL[ix(y)])] += 1
