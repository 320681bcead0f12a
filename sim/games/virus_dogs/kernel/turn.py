"""Virus Dogs' fast engine: setup (VD-3), the game loop and the turn (VD-4, VD-20.1) with
its phases A and C (actions) and B (the draw: VD-5, VD-9, VD-10, VD-12), hard quarantine
(VD-20) and the results, as the reference engine's methods of the same names (the module
map: ``kernel/__init__.py``). ``play_game`` is one whole game.
"""

from __future__ import annotations

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.kernel.bots import (
    choose_action, hq_choice, market_take, mask_take, virus_response, yes_no,
)
from sim.games.virus_dogs.kernel.cards import (
    ambulance_effect, bat, control, cough, declare_voluntary, doctor, exchange, finish,
    open_viruses, quarantine, return_pending,
)
from sim.games.virus_dogs.kernel.state import (
    AMB, ANT, A_AMB, A_CGH, A_CTL0, A_DECLARE, A_DOC, A_DRAW, A_MARKET, A_MASK, A_QRN, A_SHF,
    A_SKIP, BAT, BM, CGH, CTL, C_DECLARE, C_HQ, DOC, EXC, FRESH_STOP, F_HS, F_LIVE, F_O,
    HQ_FIRST_ELIM, HQ_STALEMATE, K_MORE, MSK, NF, NO, NOX, NS, NT, N_TYPES, ONE, O_COUNTS, O_DECK,
    O_GM, O_H, O_LEAD, O_LIMBO, O_OPT, O_P, O_PEEK, O_PL, O_RNG, O_SM, O_TURNSUM, P_BATCOUNT, P_DMAX, P_DMIN, P_FIRST,
    P_HQALL, P_HQCHOICE, P_HQFIRST, P_HQMAX, P_IMMEDIATE, P_LOOK, P_MAXTURNS, P_NVD, P_NVT, P_PEEK,
    P_UPFRONT, QRN, R_ANT, R_DECLARE, SHF, S_CARDS, S_CUR, S_DECK0, S_DOCS, S_DSIZE, S_FIRST,
    S_HQ_D, S_HQ_STEPS, S_INHQ, S_KTOP, S_LIMBO, S_N, S_NLIVE,
    S_OVER, S_PEND, S_REND, S_RES, S_ROUNDS, S_SHQ, S_STEPPED, S_TEND, S_TURN, S_VDECK, TP, TURN_CAP, V,
    X_MARKET, X_MASK, X_NORMAL, YES, ZERO, draw_event, first_draw, left_of, private_touch, put_top,
    shuffle_deck, take_top, to_discard, to_hand, touch_top, unit_start,
)
from sim.kit.kernel_util import fn, inl, ix, lead_columns, observe_lead, start_lead
from sim.kit.rng import randbelow_at, shuffle_at


# ============================================================================================
# setup (VD-3) and the game loop (VD-4, VD-20.1)
# ============================================================================================
@fn
def play_game(b):
    """One game from setup (VD-3) to its end; results in the game_row/seat_rows blocks."""
    setup(b)
    play(b)


@fn
def setup(b):
    """VD-3.1..3.5: fresh state, shuffled deck with its viruses, the reserve, first player."""
    n = b[S_N]
    for i in range(FRESH_STOP):
        b[ix(i)] = 0
    size = 0
    for c in range(N_TYPES):
        for _ in range(b[ix(O_COUNTS + c)]):
            b[ix(O_DECK + size)] = c
            size += 1
    b[S_DSIZE] = size
    b[S_DECK0] = size
    b[S_VDECK] = b[O_COUNTS + V]
    b[S_RES] = b[O_P + P_NVT] - b[O_P + P_NVD]
    b[S_NLIVE] = n
    for s in range(n):
        b[ix(O_PL + s * NF + F_LIVE)] = 1
        b[ix(O_SM + s * NS + tb.S_CAUSE)] = -1
        b[ix(O_SM + s * NS + tb.S_ELIM_TURN)] = -1
        b[ix(O_SM + s * NS + tb.S_INSTIGATOR)] = -1
        b[ix(O_SM + s * NS + tb.S_ELIM_OPEN)] = -1
        b[ix(O_SM + s * NS + tb.S_ELIM_HIDDEN)] = -1
        b[ix(O_SM + s * NS + tb.S_ELIM_T)] = -1
        b[ix(O_SM + s * NS + tb.S_FIRST_CARD)] = -1
    b[O_GM + tb.G_WINNER] = -1
    b[O_GM + tb.G_FIRST_ELIM] = -1
    start_lead(b, O_LEAD, n)
    shuffle_at(b, O_RNG, b, O_DECK, size)
    first = 0
    if b[O_P + P_FIRST] == 1:
        first = randbelow_at(b, O_RNG, n)
    b[S_FIRST] = first
    b[S_CUR] = first
    b[O_GM + tb.G_FIRST] = first


@fn
def play(b):
    """Turns until the game ends (VD-4, VD-20, VD-21) or the turn cap (a search rollout's end,
    ``rollout_end``, ends it the same way); M-2 sums in the ``turn_sums`` block. Each pass of the
    loop is a unit of a driven game."""
    n = b[S_N]
    while True:
        if b[S_STEPPED]:
            unit_start(b)
            fresh_turn_row(b)
        if b[S_TURN] >= b[O_P + P_MAXTURNS] or (b[S_REND] > 0 and b[S_TURN] >= b[S_REND]):
            b[O_GM + tb.G_TURN_CAP] = 1
            b[O_GM + tb.G_OUTCOME] = TURN_CAP
            break
        cur = b[S_CUR]
        b[S_TEND] = 0
        take_turn(b, cur)
        if b[S_OVER]:
            break
        record_density(b)
        observe(b, b[S_TURN] - 1)
        if b[S_SHQ] or (b[S_DSIZE] == 0 and b[S_NLIVE] >= 2):
            hard_quarantine(b, left_of(b, n, cur))
            break
        advance(b, n, cur)
    finalize(b)


@inl
def advance(b, n, cur):
    """VD-4.5: the left neighbour of the seat that just played takes the next turn."""
    first = b[S_FIRST]
    nxt = left_of(b, n, cur)
    rn = nxt - first if nxt >= first else nxt - first + n  # seats relative to the first player
    rc = cur - first if cur >= first else cur - first + n
    if rn <= rc:
        b[S_ROUNDS] += 1
    b[S_CUR] = nxt


@inl
def fresh_turn_row(b):
    """In a driven game, the ``turn_sums`` row of the coming turn zeroed (the last row, which
    also holds every later turn, as its own turn starts): rows 0 .. turns - 1 then hold the
    game's own sums, whatever the buffer held (``step_start`` does not clear the block)."""
    t = b[S_TURN]
    if t < tb.TURN_ROWS:
        for j in range(tb.ND):
            b[ix(O_TURNSUM + t * tb.ND + j)] = 0


@inl
def record_density(b):
    """M-2 series at a turn end (the sums of tables.density_row) into ``turn_sums``."""
    n = b[S_N]
    t = b[S_TURN] - 1
    ds = b[S_DSIZE]
    vd = b[S_VDECK]
    bp = vd * 10000 // ds if ds > 0 else ZERO
    if bp > b[O_GM + tb.G_PEAK]:
        b[O_GM + tb.G_PEAK] = bp
    hid = 0
    opn = 0
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            hid += b[ix(O_H + s * NT + V)]
            opn += b[ix(O_PL + s * NF + F_O)]
    row = O_TURNSUM + min(t, tb.TURN_ROWS - 1) * tb.ND
    b[ix(row + tb.D_GAMES)] += 1
    b[ix(row + tb.D_DECK)] += ds
    b[ix(row + tb.D_DECK_SQ)] += ds * ds
    b[ix(row + tb.D_VDECK)] += vd
    b[ix(row + tb.D_VDECK_SQ)] += vd * vd
    b[ix(row + tb.D_HID)] += hid
    b[ix(row + tb.D_HID_SQ)] += hid * hid
    b[ix(row + tb.D_OPEN)] += opn
    b[ix(row + tb.D_OPEN_SQ)] += opn * opn
    if ds > 0:
        b[ix(row + tb.D_DGAMES)] += 1
        b[ix(row + tb.D_BP)] += bp
        b[ix(row + tb.D_BP_SQ)] += bp * bp


@inl
def take_turn(b, p):
    """VD-4.1: phases A (actions), B (draw mode), C (actions), D (end)."""
    b[S_TURN] += 1
    b[S_DOCS] = 0
    b[S_CARDS] = 0
    mode = phase_actions(b, p, YES)
    if mode < 0:
        return
    if mode == A_SKIP:
        skip(b, p)
        return
    draw_phase(b, p, mode)
    if interrupted(b):
        return
    phase_actions(b, p, NO)


@inl
def interrupted(b):
    """Game over, current player out, or (``immediate``) an empty deck starting hard quarantine
    (the reference engine's GameOver, TurnEnds and check_immediate / StartHQ)."""
    if b[S_OVER] or b[S_TEND]:
        return True
    if b[O_P + P_IMMEDIATE] and b[S_DSIZE] == 0 and b[S_NLIVE] >= 2:
        b[S_SHQ] = 1
        return True
    return False


# ============================================================================================
# phases A and C (VD-4.2, VD-4.4)
# ============================================================================================
@inl
def phase_actions(b, p, phase_a):
    """Play cards and declare until the player picks a draw mode (A) or ends the turn (C);
    returns that mode/end code, or -1 if interrupted."""
    while True:
        a = choose_action(b, p, phase_a)
        if a >= A_DRAW:
            return a
        if a == A_DECLARE:
            declare_voluntary(b, p)
        else:
            play_card(b, p, a)
        if interrupted(b):
            return -1


@inl
def play_card(b, p, a):
    """An action card from the hand: discard it, then its effect (VD-13..VD-18)."""
    b[S_CARDS] += 1
    if a < A_QRN:
        to_discard(b, p, CTL)
        control(b, p, a - A_CTL0)
    elif a == A_QRN:
        to_discard(b, p, QRN)
        quarantine(b, p)
    elif a == A_DOC:
        to_discard(b, p, DOC)
        doctor(b, p)
    elif a == A_AMB:
        to_discard(b, p, AMB)
        ambulance_effect(b, b[S_N], p)
    elif a == A_SHF:
        to_discard(b, p, SHF)
        shuffle_deck(b)
    elif a == A_CGH:
        to_discard(b, p, CGH)
        cough(b, p)
    else:
        to_discard(b, p, EXC)
        exchange(b, p)


# ============================================================================================
# phase B (VD-5, VD-9, VD-10, VD-12)
# ============================================================================================
@inl
def draw_phase(b, p, mode):
    if mode == A_MASK:
        mask(b, p)
    elif mode == A_MARKET:
        black_market(b, p)
    else:
        normal_draw(b, p, mode - A_DRAW)


@inl
def skip(b, p):
    """VD-12.2: TP as the draw mode; nothing drawn, no phase C."""
    to_discard(b, p, TP)
    b[ix(O_SM + p * NS + tb.S_TP_SKIP)] += 1


@inl
def normal_draw(b, p, upfront):
    """VD-5.1..5.5: draw 1..2 cards one at a time; pending viruses go on top at the end."""
    drawn = 0
    if b[S_STEPPED]:
        private_touch(b)
    while b[S_DSIZE] > 0 and drawn < b[O_P + P_DMAX]:
        if drawn >= b[O_P + P_DMIN]:
            if b[O_P + P_UPFRONT]:
                if drawn >= upfront:
                    break
            else:
                if not yes_no(b, p, K_MORE, NOX):
                    break
        if b[S_STEPPED]:
            touch_top(b, ONE, ZERO)
        c = take_top(b)
        draw_event(b, X_NORMAL)
        first_draw(b, p, c)
        if c != BAT or b[O_P + P_BATCOUNT]:
            drawn += 1
        receive_private(b, p, c, X_NORMAL)
        if b[S_OVER] or b[S_TEND]:
            return
    return_pending(b)


@inl
def peek(b, m):
    """The top ``m`` cards into the ``peeked`` block, top first (they stay in the deck)."""
    for i in range(m):
        b[ix(O_PEEK + i)] = b[ix(O_DECK + b[S_DSIZE] - 1 - i)]


@fn
def mask(b, p):
    """VD-9: peek at the top cards, take any subset (or a prefix); the rest stay in order."""
    to_discard(b, p, MSK)
    m = min(b[O_P + P_PEEK], b[S_DSIZE])
    if b[S_STEPPED]:
        private_touch(b)
        touch_top(b, m, ZERO)
    peek(b, m)
    take = mask_take(b, p, m)
    cnt = 0
    seen = 0
    avoided = 0
    for i in range(m):
        cnt += (take >> i) & 1
        if b[ix(O_PEEK + i)] == V:
            seen += 1
            avoided += 1 - ((take >> i) & 1)
    b[ix(O_SM + p * NS + tb.S_MASK_TAKEN)] += cnt
    if cnt == 0:
        b[ix(O_SM + p * NS + tb.S_MASK_NONE)] += 1
    if seen > 0:
        b[ix(O_SM + p * NS + tb.S_MASK_PEEK_V)] += 1
    b[ix(O_SM + p * NS + tb.S_MASK_AVOIDED)] += avoided
    take_peeked(b, p, m, take, X_MASK)


@fn
def black_market(b, p):
    """VD-10: look at the top cards, take exactly one; the others stay in order."""
    to_discard(b, p, BM)
    m = min(b[O_P + P_LOOK], b[S_DSIZE])
    if b[S_STEPPED]:
        private_touch(b)
        touch_top(b, m, ZERO)
    peek(b, m)
    k = market_take(b, p, m)
    b[S_KTOP] = 0
    seen = 0
    for i in range(m):
        if b[ix(O_PEEK + i)] == V:
            seen += 1
    b[ix(O_SM + p * NS + tb.S_MARKET_SEEN)] += seen
    if seen == m:
        b[ix(O_SM + p * NS + tb.S_MARKET_FORCED)] += 1
    take_peeked(b, p, m, ONE << k, X_MARKET)


@fn
def take_peeked(b, p, m, take, kind):
    """Shared tail of mask and black market: the peeked cards leave the deck, the untaken ones
    go back on top in their order, the taken ones (bit set ``take``) enter the limbo and are
    resolved one by one, top first. If the taker is eliminated meanwhile, ``remove_player``
    puts the rest of the limbo in the hand first (VD-19.3)."""
    b[S_DSIZE] -= m
    for i in range(m):
        if b[ix(O_PEEK + i)] == V:
            b[S_VDECK] -= 1
    k = 0
    for i in range(m - 1, -1, -1):
        if (take >> i) & 1:
            b[ix(O_LIMBO + k)] = b[ix(O_PEEK + i)]
            k += 1
        else:
            put_top(b, b[ix(O_PEEK + i)])
    b[S_LIMBO] = k
    if take:
        b[S_KTOP] = 0
    while b[S_LIMBO] > 0:
        b[S_LIMBO] -= 1
        draw_event(b, kind)
        first_draw(b, p, b[ix(O_LIMBO + b[S_LIMBO])])
        receive_private(b, p, b[ix(O_LIMBO + b[S_LIMBO])], kind)
        if b[S_OVER] or b[S_TEND]:
            return
    return_pending(b)


@inl
def receive_private(b, p, c, kind):
    """VD-5.3: a privately drawn card (``kind``: the draw kind, tables.X_*): bat, virus, or
    into the hand."""
    if c == BAT:
        bat(b, p, kind)
    elif c == V:
        private_virus(b, p, kind)
    else:
        to_hand(b, p, c, YES)


@inl
def private_virus(b, p, kind):
    """VD-6.1 / VD-7: antiseptic, declare or hide a privately drawn virus."""
    b[ix(O_SM + p * NS + tb.S_V_DRAWN)] += 1
    r = virus_response(b, p)
    if r == R_ANT:
        to_discard(b, p, ANT)
        b[O_GM + tb.G_ANTISEPTICS] += 1
        b[ix(O_SM + p * NS + tb.S_ANT0 + kind)] += 1
        b[S_PEND] += 1
    elif r == R_DECLARE:
        b[ix(O_SM + p * NS + tb.S_V_DECLARED)] += 1
        open_viruses(b, b[S_N], p, ONE, C_DECLARE, p)
    else:
        b[ix(O_SM + p * NS + tb.S_V_HIDDEN)] += 1
        to_hand(b, p, V, YES)


# ============================================================================================
# hard quarantine (VD-20)
# ============================================================================================
@fn
def hard_quarantine(b, first):
    """VD-20.4..20.11: drawers pull one random card from a target until a decision."""
    n = b[S_N]
    b[S_INHQ] = 1
    b[O_GM + tb.G_HQ] = 1
    b[O_GM + tb.G_HQ_LIVE] = b[S_NLIVE]
    b[O_GM + tb.G_HQ_HIDDEN] = hidden_total(b, n)
    if hq_check(b, n):
        return
    b[S_HQ_D] = first
    b[S_HQ_STEPS] = 0
    hq_steps(b)


@fn
def hq_steps(b):
    """VD-20.6, 20.8, 20.11: the steps from drawer ``hq_drawer`` on; each step is a unit of a
    driven game."""
    n = b[S_N]
    while not b[S_OVER]:
        if b[S_STEPPED]:
            unit_start(b)
        d = b[S_HQ_D]
        x = hq_target(b, n, d)
        b[S_HQ_STEPS] += 1
        b[O_GM + tb.G_HQ_STEPS] += 1
        if x >= 0 and b[ix(O_PL + x * NF + F_HS)] > 0:
            hq_pull(b, n, d, x)
            if b[S_OVER]:
                return
        if hq_check(b, n):
            return
        if b[S_HQ_STEPS] >= b[O_P + P_HQMAX]:
            stalemate(b, n)
            return
        b[S_HQ_D] = left_of(b, n, d)


@inl
def hq_target(b, n, d):
    """VD-20.6: the left neighbour, or a chosen live player with cards (DP-19); -1 if none."""
    if not b[O_P + P_HQCHOICE]:
        return left_of(b, n, d)
    nopt = 0
    for s in range(n):
        if s != d and b[ix(O_PL + s * NF + F_LIVE)] and b[ix(O_PL + s * NF + F_HS)] > 0:
            b[ix(O_OPT + nopt)] = s
            nopt += 1
    if nopt == 0:
        return NOX
    return b[ix(O_OPT + hq_choice(b, d, nopt))]


@fn
def hq_pull(b, n, d, x):
    """VD-20.6: a uniformly random card of X's hand (code order) is shown; a virus becomes open."""
    r = randbelow_at(b, O_RNG, b[ix(O_PL + x * NF + F_HS)])
    c = 0
    while r >= b[ix(O_H + x * NT + c)]:
        r -= b[ix(O_H + x * NT + c)]
        c += 1
    if c == V:
        b[ix(O_H + x * NT + V)] -= 1
        b[ix(O_PL + x * NF + F_HS)] -= 1
        before = b[S_NLIVE]
        open_viruses(b, n, x, ONE, C_HQ, d)
        if not b[S_OVER] and b[O_P + P_HQFIRST] and b[S_NLIVE] < before:
            finish(b, n, HQ_FIRST_ELIM, NO)


@inl
def hidden_total(b, n):
    hid = 0
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            hid += b[ix(O_H + s * NT + V)]
    return hid


@fn
def hq_check(b, n):
    """VD-20.8: a stalemate when no live player holds a hidden virus; true if so."""
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)] and b[ix(O_H + s * NT + V)] > 0:
            return False
    stalemate(b, n)
    return True


@fn
def stalemate(b, n):
    """VD-20.10."""
    b[O_GM + tb.G_HQ_STALE] = 1
    finish(b, n, HQ_STALEMATE, b[O_P + P_HQALL] == ZERO)


# ============================================================================================
# results
# ============================================================================================
@inl
def is_live(b, s):
    """Is seat ``s`` in the game (and in the race for the lead)?"""
    return b[ix(O_PL + s * NF + F_LIVE)] != 0


@inl
def viruses_carried(b, s):
    """Seat ``s``'s game-feel score: the viruses it carries, ``O + HV``."""
    return b[ix(O_PL + s * NF + F_O)] + b[ix(O_H + s * NT + V)]


@inl
def observe(b, turn):
    """Game feel (reference ``observe_lead``): the live seat carrying strictly the fewest viruses
    leads."""
    observe_lead(b, O_LEAD, b[S_N], turn, is_live, viruses_carried, O_GM + tb.G_LEAD_CHANGES)


@fn
def record_lead(b):
    """The game-feel columns, after the observation at the game's end (reference ``record_lead``)."""
    observe(b, b[S_TURN] if b[S_INHQ] else b[S_TURN] - 1)
    winner = b[O_GM + tb.G_WINNER] if b[O_GM + tb.G_NWIN] == 1 else NOX
    lead_columns(b, O_LEAD, winner, O_GM + tb.G_LEAD_FROM, O_GM + tb.G_WIN_BEHIND, b[S_N], O_SM + tb.S_MAX_BEHIND, NS)


@fn
def finalize(b):
    n = b[S_N]
    record_lead(b)
    b[O_GM + tb.G_TURNS] = b[S_TURN]
    b[O_GM + tb.G_ROUNDS] = b[S_ROUNDS]
    for s in range(n):
        b[ix(O_SM + s * NS + tb.S_HAND_END)] = b[ix(O_PL + s * NF + F_HS)]
        b[ix(O_SM + s * NS + tb.S_HIDDEN_END)] = b[ix(O_H + s * NT + V)]
        b[ix(O_SM + s * NS + tb.S_OPEN_END)] = b[ix(O_PL + s * NF + F_O)]
        b[ix(O_SM + s * NS + tb.S_TP_END)] = b[ix(O_H + s * NT + TP)]
