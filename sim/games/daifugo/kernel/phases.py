"""Fast engine, the phases of a round around its play: §2.3 phases 1-7 (deal, law, precept
draft, exchange, the king's gifts, the post-exchange effects of cards 05 and 12, trim, start
player), one function each named as the reference engine's ``phase_*`` methods; then the
round's scoring and the game's end (§2.14, §2.15), written into the buffer's result rows. The
reference engine's twin: ``reference/phases.py``.
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import fn, inl, ix
from sim.kit.rng import randbelow_at, shuffle_at

from .. import rules as R
from .. import tables as T
from .bots import decide_card, decide_collusion, decide_draft, decide_start, decide_trim
from .driven import driven_subset
from .state import (A0, AF_CLAIM, BEHIND0, BOT0, BP0, DECISIONS, DECK0, DECK_0, DECK_LEN, DECK_PTR, DISC, FEEL_CHANGES,
                    FEEL_LEADER, FF0, FINAL0, FIRSTS0, GIFT0, H0, JOKER_BITS, KING, K_COLLUDE, K_COLLUSION_GIVE,
                    K_COLLUSION_RETURN, K_GIVE, K_KING_GIVE, K_TRIM, LAWS, NBOT, NOTSOLE0, NREV, NTOP, ORDER0, OWN0,
                    O_GROW, O_RROWS, O_SROWS, PICK0, PICKR0, PREV0, PV, RB0, RC_COLLUSION_SWAPS, RC_COLLUSION_TAKES,
                    RC_FREE_GIFTS, RC_KEPT, RC_KING, RC_LAW, RC_PENDING, RC_SECOND_JOKER, RC_START, RC_TRIMMED, RC_USED,
                    REMOVED, REV, REVEAL0, REVS0, RNG, ROUND, RP0, RS0, START, T5DONE, TJ, TK, TO, TOP0, TOTAL, TURN,
                    UNDEALT, VP0, WIN0, WORST0, applies, bit, popcount)

_GAME_COLS = ("plays", "rounds", "laws_mask", "winner", "n_winners", "top_points", "margin", "revolutions",
              "forbidden", "capital_falls", "guard_hits", "kings_kept", "decisions")
_SEAT_COLS = ("points", "rank_points", "bonus_points", "precept_points", "win", "firsts", "forbidden",
              "revolutions", "precepts_mask", "n_precepts")
assert list(_GAME_COLS) == T.GAME_COLS and list(_SEAT_COLS) == T.SEAT_COLS
(G_PLAYS, G_ROUNDS, G_LAWS_MASK, G_WINNER, G_N_WINNERS, G_TOP_POINTS, G_MARGIN, G_REVOLUTIONS, G_FORBIDDEN,
 G_CAPITAL_FALLS, G_GUARD_HITS, G_KINGS_KEPT, G_DECISIONS) = (O_GROW + T.GAME_ROW[c].offset for c in _GAME_COLS)
G_LEAD_CHANGES, G_LEADER_FROM, G_WINNER_BEHIND, G_WINNER_WORST = (O_GROW + T.GAME_ROW[c].offset for c in T.FEEL_COLS)
(S_POINTS, S_RANK_POINTS, S_BONUS_POINTS, S_PRECEPT_POINTS, S_WIN, S_FIRSTS, S_FORBIDDEN, S_REVOLUTIONS,
 S_PRECEPTS_MASK, S_N_PRECEPTS) = (T.SEAT_ROW[c].offset for c in _SEAT_COLS)
R_REVOLUTIONS, R_FORBIDDEN, R_CAPITAL_FALLS, R_GUARD_HIT, R_KEPT = (T.ROUND_ROW[c].offset for c in (
    "revolutions", "forbidden", "capital_falls", "guard_hit", "king_kept"))
RW, SW = T.ROUND_ROW.size, T.SEAT_ROW.size


@inl
def clear_round(b, n):
    """A new round's empty trick, placements and counters (the game's state stays)."""
    for i in range(TK, TJ + 1):
        b[i] = 0
    b[TK] = -1
    b[TO] = -1
    for i in range(REV, REMOVED + 1):
        b[i] = 0
    b[NTOP] = 0
    b[NBOT] = 0
    b[RC_USED] = 0
    b[RC_PENDING] = 0
    for q in range(n):
        b[ix(A0 + q)] = 1
        b[ix(RB0 + q)] = 0
    for i in range(T.R_FIXED):
        b[ix(RS0 + i)] = 0
    b[AF_CLAIM] = -1


# ---- §2.3 phases 1-7 ------------------------------------------------------------------------------
@inl
def phase_deal(b, n):
    """§2.3 phases 1-2: new round, deal, law; round 1 fixes the start player first (DEC-10);
    madness: the next n rule cards are revealed for the draft."""
    b[ROUND] += 1
    clear_round(b, n)
    b[KING] = b[PREV0] if b[ROUND] > 1 else -1
    b[RC_KING] = b[KING]
    if b[ROUND] == 1:
        b[START] = randbelow_at(b, RNG, n)
    deal(b, n)
    law_phase(b)
    b[NREV] = 0
    if b[PV + R.P_MADNESS]:
        while b[NREV] < n and b[DECK_PTR] < b[DECK_LEN]:
            b[ix(REVEAL0 + b[NREV])] = b[ix(DECK0 + b[DECK_PTR])]
            b[DECK_PTR] += 1
            b[NREV] += 1


@inl
def deal(b, n):
    """§2.4: shuffle the 53 cards (54 once card 05 resolved), deal ``hand_size`` to each; the
    rest set aside (DEC-1)."""
    total = R.BASE_DECK + b[T5DONE]
    for i in range(total):
        b[ix(DECK_0 + i)] = i
    shuffle_at(b, RNG, b, DECK_0, total)
    h = b[PV + R.P_HAND]
    for q in range(n):
        m = np.int64(0)
        for i in range(q * h, q * h + h):
            m |= bit(b[ix(DECK_0 + i)])
        b[ix(H0 + q)] = m
    und = np.int64(0)
    for i in range(n * h, total):
        und |= bit(b[ix(DECK_0 + i)])
    b[UNDEALT] = und


@inl
def law_phase(b):
    """§2.5: reveal the top rule card as a law (DEC-3: nothing if the deck is empty); with
    ``laws = off`` (DEC-53) the card is set aside face up instead, no law."""
    if b[DECK_PTR] < b[DECK_LEN]:
        c = b[ix(DECK0 + b[DECK_PTR])]
        b[DECK_PTR] += 1
        if b[PV + R.P_LAWS_OFF]:
            return
        b[LAWS] |= bit(c)
        b[RC_LAW] = c


@inl
def draft_order(b, n):
    """§2.6 / DEC-5 / DEC-6: round 1 random first picker clockwise; later last place first (into ``order``)."""
    if b[ROUND] == 1:
        first = randbelow_at(b, RNG, n)
        for i in range(n):
            b[ix(ORDER0 + i)] = (first + i) % n
    elif b[PV + R.P_DRAFT_CW]:
        for i in range(n):
            b[ix(ORDER0 + i)] = (b[ix(PREV0 + n - 1)] + i) % n
    else:
        for i in range(n):
            b[ix(ORDER0 + i)] = b[ix(PREV0 + n - 1 - i)]


@inl
def phase_draft(b, n):
    """§2.6: each player in draft order takes one revealed card as a precept (DEC-3)."""
    if b[NREV] == 0:
        return
    draft_order(b, n)
    for i in range(n):
        if b[NREV] == 0:
            break
        q = b[ix(ORDER0 + i)]
        pick = decide_draft(b, q, b[NREV])
        c = b[ix(REVEAL0 + pick)]
        for j in range(pick, b[NREV] - 1):
            b[ix(REVEAL0 + j)] = b[ix(REVEAL0 + j + 1)]
        b[NREV] -= 1
        b[ix(OWN0 + c)] = q
        b[ix(PICK0 + c)] = i + 1  # the draft record: pick position and round
        b[ix(PICKR0 + c)] = b[ROUND]
        if c == R.C05_TRICKSTER and b[PV + R.P_05_ON_DRAFT] and not b[T5DONE]:
            give_second_joker(b, q)  # DEC-33 variant: the joker arrives when drafted


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
def phase_exchange(b, n):
    """§2.7 step 1: each commoner gives the king the strongest card (giver picks among ties,
    DEC-7); card 08 (§4.8) lets the giver give any card (D2: strategist its weakest unpaired)."""
    k = b[KING]
    for i in range(1, n):
        c = (k + i) % n
        hand = b[ix(H0 + c)]
        ties = strongest_cards(hand)
        free = applies(b, R.C08_METAMORPHOSIS, c)
        x = decide_card(b, c, K_GIVE, hand if free else ties, free)
        if free and ((ties >> np.int64(x)) & 1) == 0:
            b[RC_FREE_GIFTS] += 1
        b[ix(H0 + c)] &= ~bit(x)
        b[ix(H0 + k)] |= bit(x)


@inl
def phase_king_give(b, n):
    """§2.7 step 2: the king gives one card of choice to each commoner, clockwise."""
    k = b[KING]
    for i in range(1, n):
        c = (k + i) % n
        x = decide_card(b, k, K_KING_GIVE, b[ix(H0 + k)], True)
        b[ix(H0 + k)] &= ~bit(x)
        b[ix(H0 + c)] |= bit(x)


# ---- §2.8 post-exchange effects (DEC-4): card 05 Trickster, card 12 Collusion -------------------------
@inl
def give_second_joker(b, p):
    """§4.5: the second joker (id 53) joins p's hand once; 54 cards from now on (QA-05.1)."""
    b[ix(H0 + p)] |= bit(R.JOKER + 1)
    b[T5DONE] = 1


@inl
def resolve_trickster(b):
    """§4.5 / DEC-33: after the exchange of the round card 05 entered play: the law's joker to
    the king (round 1: the start player, QA-05.3), the precept's to its holder (QA-05.2)."""
    if b[T5DONE]:
        return
    if (b[LAWS] >> R.C05_TRICKSTER) & 1:
        give_second_joker(b, b[KING] if b[KING] >= 0 else b[START])
    elif b[OWN0 + R.C05_TRICKSTER] >= 0:
        give_second_joker(b, b[OWN0 + R.C05_TRICKSTER])


@inl
def collusion_law(b, n):
    """§4.12 law (D4): the commoners clockwise from the seat after the king (round 1: everyone
    from the start player, DEC-8) choose a card each, then pairs swap (even) or a ring gives
    around (odd, QA-12.1)."""
    if b[ROUND] == 1 and not b[PV + R.P_12_ROUND1]:
        return
    m = 0
    if b[KING] >= 0:
        for i in range(1, n):
            b[ix(ORDER0 + m)] = (b[KING] + i) % n
            m += 1
    else:
        for i in range(n):
            b[ix(ORDER0 + m)] = (b[START] + i) % n
            m += 1
    if m < 2:
        return
    for i in range(m):
        g = b[ix(ORDER0 + i)]
        b[ix(GIFT0 + i)] = decide_card(b, g, K_COLLUDE, b[ix(H0 + g)], True)
    for i in range(m):
        rcv = b[ix(ORDER0 + (i ^ 1))] if m % 2 == 0 else b[ix(ORDER0 + (i + 1) % m)]
        x = bit(b[ix(GIFT0 + i)])
        b[ix(H0 + b[ix(ORDER0 + i)])] &= ~x
        b[ix(H0 + rcv)] |= x
    b[RC_COLLUSION_SWAPS] += m


@inl
def collusion_precept(b, n):
    """§4.12 precept / DEC-38 (D5): the holder may take a non-king player's strongest card (the
    giver picks among ties) and gives back any card of the new hand."""
    h = b[OWN0 + R.C12_COLLUSION]
    if b[ROUND] == 1 and not b[PV + R.P_12_ROUND1]:
        return
    nt = 0
    for i in range(1, n):
        q = (h + i) % n
        if q != b[KING] and b[ix(H0 + q)] != 0:
            b[ix(ORDER0 + nt)] = q
            nt += 1
    if nt == 0:
        return
    q = decide_collusion(b, h, nt)
    if q < 0:
        return
    x = bit(decide_card(b, q, K_COLLUSION_GIVE, strongest_cards(b[ix(H0 + q)]), False))
    newhand = b[ix(H0 + h)] | x
    y = bit(decide_card(b, h, K_COLLUSION_RETURN, newhand, True))
    b[ix(H0 + q)] = (b[ix(H0 + q)] & ~x) | y
    b[ix(H0 + h)] = newhand & ~y
    b[RC_COLLUSION_TAKES] += 1


@inl
def phase_trim(b, n):
    """§2.9 / DEC-9: each player may discard down to ``trim_to`` cards, face up."""
    for q in range(n):
        most = popcount(b[ix(H0 + q)]) - b[PV + R.P_TRIM_TO]
        if most <= 0:
            driven_subset(b, q, K_TRIM, 0, 0, 0, 1, False)  # a driven game: the reference's forced trim
            continue
        out = decide_trim(b, q, most)
        b[ix(H0 + q)] &= ~out
        b[DISC] |= out
        b[RC_TRIMMED] += popcount(out)


@inl
def phase_start(b, n):
    """§2.10: round >= 2 the last-placed player names the start player."""
    if b[ROUND] > 1:
        b[START] = decide_start(b, n, b[ix(PREV0 + n - 1)])
    b[RC_START] = b[START]
    b[TURN] = b[START]
    b[RC_PENDING] = 1  # card 01 W-trim (DEC-29)


# ---- scoring (§2.14, §2.15) -----------------------------------------------------------------------
@fn
def score_round(b, n, last):
    """§2.14: the ranking (top list, then bottom list) scores rank points; precept VP every
    round (DEC-20 variant); the round's row, the seats' positions and (but after the ``last``
    round) the standings folded into the game feel."""
    rnd = b[ROUND]
    row = O_RROWS + (rnd - 1) * RW
    for i in range(b[NBOT]):
        b[ix(TOP0 + b[NTOP] + i)] = b[ix(BOT0 + i)]
    for pos in range(n):
        q = b[ix(TOP0 + pos)]
        b[ix(RP0 + q)] += b[ix(PV + R.P_RANK_POINTS + pos)]
        b[ix(row + T.R_POS0 + q)] = pos + 1
        b[ix(O_SROWS + q * SW + T.S_POS0 + rnd - 1)] = pos + 1
    if b[PV + R.P_MADNESS] and b[PV + R.P_VP_EVERY_ROUND]:
        add_precept_vp(b)
    b[RC_KEPT] = 1 if (b[KING] >= 0 and b[TOP0] == b[KING]) else 0
    b[RC_SECOND_JOKER] = b[T5DONE]
    for i in range(T.R_FIXED):
        b[ix(row + i)] = b[ix(RS0 + i)]
    for pos in range(n):
        b[ix(PREV0 + pos)] = b[ix(TOP0 + pos)]
    b[ix(FIRSTS0 + b[TOP0])] += 1
    b[ix(O_GROW + T.G_LAW0 + rnd - 1)] = b[RC_LAW]
    if not last:  # the last round's standings are the final points (finish_game)
        for q in range(n):
            b[ix(FINAL0 + q)] = b[ix(RP0 + q)] + b[ix(BP0 + q)] + b[ix(VP0 + q)]
        feel_round(b, n, rnd)


@fn
def add_precept_vp(b):
    """§1.5: each player adds the VP of every precept they hold."""
    for c in range(1, R.N_RULE_CARDS + 1):
        if b[ix(OWN0 + c)] >= 0:
            b[ix(VP0 + b[ix(OWN0 + c)])] += b[ix(PV + R.P_VP + c)]


@fn
def feel_round(b, n, k):
    """Fold the standings after round k (``final_points``, points per seat) into the game-feel
    counters; ``game.game_feel`` computes the same from the whole list."""
    best = b[FINAL0]
    nbest = 0
    sole = -1
    for q in range(n):
        if b[ix(FINAL0 + q)] > best:
            best = b[ix(FINAL0 + q)]
    for q in range(n):
        if b[ix(FINAL0 + q)] == best:
            nbest += 1
            sole = q
    if nbest > 1:
        sole = -1
    if sole >= 0:
        if b[FEEL_LEADER] != 0 and b[FEEL_LEADER] != sole + 1:
            b[FEEL_CHANGES] += 1
        b[FEEL_LEADER] = sole + 1
    for q in range(n):
        x = b[ix(FINAL0 + q)]
        if q != sole:
            b[ix(NOTSOLE0 + q)] = k
        if best - x > b[ix(BEHIND0 + q)]:
            b[ix(BEHIND0 + q)] = best - x
        place = 1
        for o in range(n):
            if b[ix(FINAL0 + o)] > x:
                place += 1
        if place > b[ix(WORST0 + q)]:
            b[ix(WORST0 + q)] = place


@fn
def finish_game(b, n):
    """§2.15 / DEC-20 / DEC-21: final points and winners (a tie shared, or the better rank in
    the last round); the games row and the seats rows."""
    rounds = b[ROUND]
    if b[PV + R.P_MADNESS] and not b[PV + R.P_VP_EVERY_ROUND]:
        add_precept_vp(b)
    best = -(1 << 40)
    second = -(1 << 40)
    for q in range(n):
        pts = b[ix(RP0 + q)] + b[ix(BP0 + q)] + b[ix(VP0 + q)]
        b[ix(FINAL0 + q)] = pts
        if pts > best:
            second = best
            best = pts
        elif pts > second:
            second = pts
    feel_round(b, n, rounds)
    nw = 0
    for q in range(n):
        if b[ix(FINAL0 + q)] == best:
            b[ix(WIN0 + q)] = 1
            nw += 1
    if nw > 1 and b[PV + R.P_TIE_LAST]:
        for pos in range(n):
            q = b[ix(PREV0 + pos)]
            if b[ix(WIN0 + q)]:
                for x in range(n):
                    b[ix(WIN0 + x)] = 0
                b[ix(WIN0 + q)] = 1
                nw = 1
                break
    if nw > 1:
        second = best
    winner = -1
    for q in range(n):
        if b[ix(WIN0 + q)]:
            winner = q
            break
    game_row(b, rounds, winner, nw, best, best - second)
    for q in range(n):
        seat_row(b, q)


@inl
def game_row(b, rounds, winner, nw, best, margin):
    """The games row (tables.GAME_ROW): totals over the round rows, the laws, the draft record,
    the winner's game feel."""
    for c in (G_REVOLUTIONS, G_FORBIDDEN, G_CAPITAL_FALLS, G_GUARD_HITS, G_KINGS_KEPT):
        b[c] = 0
    for k in range(rounds):
        row = O_RROWS + k * RW
        b[G_REVOLUTIONS] += b[ix(row + R_REVOLUTIONS)]
        b[G_FORBIDDEN] += b[ix(row + R_FORBIDDEN)]
        b[G_CAPITAL_FALLS] += b[ix(row + R_CAPITAL_FALLS)]
        b[G_GUARD_HITS] += b[ix(row + R_GUARD_HIT)]
        b[G_KINGS_KEPT] += b[ix(row + R_KEPT)]
    lm = np.int64(0)
    for c in range(1, R.N_RULE_CARDS + 1):
        if (b[LAWS] >> c) & 1:
            lm |= bit(c - 1)
    b[G_PLAYS], b[G_ROUNDS], b[G_LAWS_MASK], b[G_DECISIONS] = b[TOTAL], rounds, lm, b[DECISIONS]
    b[G_WINNER], b[G_N_WINNERS], b[G_TOP_POINTS], b[G_MARGIN] = winner, nw, best, margin
    b[G_LEAD_CHANGES] = b[FEEL_CHANGES]
    b[G_LEADER_FROM] = b[ix(NOTSOLE0 + winner)] + 1 if b[ix(NOTSOLE0 + winner)] < rounds else -1
    b[G_WINNER_BEHIND] = b[ix(BEHIND0 + winner)]
    b[G_WINNER_WORST] = b[ix(WORST0 + winner)]
    for c in range(1, R.N_RULE_CARDS + 1):
        b[ix(O_GROW + T.G_OWNER0 + c - 1)] = b[ix(OWN0 + c)]
        b[ix(O_GROW + T.G_PICK0 + c - 1)] = b[ix(PICK0 + c)]
        b[ix(O_GROW + T.G_PICK_ROUND0 + c - 1)] = b[ix(PICKR0 + c)]


@inl
def seat_row(b, q):
    """Seat q's row (tables.SEAT_ROW): points by source, win, rounds won, forbidden finishes,
    revolutions, the precepts held."""
    row = O_SROWS + q * SW
    pm = np.int64(0)
    for c in range(1, R.N_RULE_CARDS + 1):
        if b[ix(OWN0 + c)] == q:
            pm |= bit(c - 1)
    b[ix(row + S_POINTS)] = b[ix(FINAL0 + q)]
    b[ix(row + S_RANK_POINTS)] = b[ix(RP0 + q)]
    b[ix(row + S_BONUS_POINTS)] = b[ix(BP0 + q)]
    b[ix(row + S_PRECEPT_POINTS)] = b[ix(VP0 + q)]
    b[ix(row + S_WIN)] = b[ix(WIN0 + q)]
    b[ix(row + S_FIRSTS)] = b[ix(FIRSTS0 + q)]
    b[ix(row + S_FORBIDDEN)] = b[ix(FF0 + q)]
    b[ix(row + S_REVOLUTIONS)] = b[ix(REVS0 + q)]
    b[ix(row + S_PRECEPTS_MASK)] = pm
    b[ix(row + S_N_PRECEPTS)] = popcount(pm)
