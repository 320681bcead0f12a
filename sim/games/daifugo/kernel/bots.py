"""Fast engine, the decisions: one ``decide_<kind>`` function per decision kind of the reference
engine, each the twin of ``bots.py``'s (``decide_play`` ... ``decide_collusion_return``). The
rules call them where the reference engine asks; each returns the chosen option itself (a move
index, a card, a card mask, a seat or a yes/no) and counts the decision where the reference
engine's ``ask`` does (two or more options, ``games.decisions``).

Only the ``random`` bot draws: one ``randbelow(n)`` per decision with n >= 2 options; a trim,
pull-back or ten discard draws its count, then one ``randbelow`` per card over the remaining
cards in ascending id order (``random_cards``).
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import fn, inl, ix
from sim.kit.rng import randbelow_at

from .. import rules as R
from ..reference.bots import DRAFT_FIT_RANK, DRAFT_PREF, GREEDY, GREEDY_RECYCLE_HAND, LEARNED, RANDOM
from .state import (A0, B_BOSS_HAND, B_DRAFT_CARD, B_DRAFT_FIT, B_DRAFT_VP, B_FLUX_MARGIN, B_PASS_CONTROL_ABOVE,
                    B_PULLBACK_MARGIN, B_RECYCLE_HAND, B_REVOLT_BELOW, DECISIONS, DISC, FIELD, H0, JOKERK, JOKER_BITS,
                    K_COLLUSION, K_DOBON, K_DRAFT, K_FLUX, K_LOOPHOLE, K_PLAY, K_PULL_BACK,
                    K_RECYCLE, K_REVOLT, K_START, K_TEN_DISCARD, K_TRIM, MC, MH, MJK, MK, ML, MMASK, ORDER0, PV, REV,
                    REVEAL0, RNG, SETK, T5DONE, TK, applies, bot_param, finish_forbidden, forbidden_finish_cards,
                    move_revolts, mv, mvalue, nth_card, policy, popcount, reversed_, strength, taboo)
from .driven import (ASK_BOT, driven_cards, driven_play, driven_revealed, driven_seat, driven_subset, driven_target,
                     driven_yes_no)
from .learned import learned_play
from .movegen import copy_move

PREF = np.array(DRAFT_PREF, dtype=np.int64)
FIT_RANK = np.full(R.N_RULE_CARDS + 1, -1, np.int64)  # bots.DRAFT_FIT_RANK as a table
for _c, _r in DRAFT_FIT_RANK.items():
    FIT_RANK[_c] = _r


@inl
def ask(b, q):
    """Seat q is asked a decision with two or more options (reference: ``Engine.ask``): counted
    in ``decisions``; returns the seat's bot policy."""
    b[DECISIONS] += 1
    return policy(b, q)


@inl
def random_index(b, n):
    return randbelow_at(b, RNG, n)


@inl
def yes_no_answer(b, p, kind):
    """A yes/no decision's answer from outside (``driven_yes_no``) or the random bot's (1 yes,
    0 no), or ASK_BOT when the seat's heuristic bot answers (its policy: ``policy(b, p)``)."""
    x = driven_yes_no(b, p, kind)
    if x != ASK_BOT:
        return x
    if ask(b, p) == RANDOM:
        return random_index(b, 2)
    return ASK_BOT


@inl
def random_cards(b, rest, k):
    """k cards drawn one ``randbelow`` each from ``rest`` in ascending id order (as a trim)."""
    out = np.int64(0)
    for j in range(k):
        x = nth_card(rest, randbelow_at(b, RNG, popcount(rest)))
        rest &= ~(np.int64(1) << np.int64(x))
        out |= np.int64(1) << np.int64(x)
    return out


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
def weakest_cards(b, hand, k, pol):
    """The k weakest cards of ``hand`` for a heuristic bot: greedy by rank, strategist its
    weakest unpaired ones (``bots.weakest_key`` / ``unpaired_key``)."""
    out = np.int64(0)
    for j in range(k):
        x = nth_card(hand & ~out, 0) if pol == GREEDY else unpaired_order_pick(hand, out)
        out |= np.int64(1) << np.int64(x)
    return out


# ---- D8/D9 play ---------------------------------------------------------------------------------------
@inl
def weak_hand(hand, rv, revolt_below):
    """The mean strength of the natural cards is below ``revolt_below`` (the strategist revolts)."""
    tot = 0
    cnt = 0
    for r in range(13):
        c = popcount((hand >> (4 * r)) & 15)
        tot += c * strength(r, rv)
        cnt += c
    return cnt > 0 and float(tot) < revolt_below * float(cnt)


@inl
def is_boss(seen, jk_unseen, kind, count, low, high, rv):
    """No unseen cards could beat the play (sets and singles; the Joker single always)."""
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
def strategist_play(b, n, p, nm, can_pass):
    """``bots.strategist_play``: the move index, or -1 for a pass."""
    hand = b[ix(H0 + p)]
    size = popcount(hand)
    rv = reversed_(b)
    rev = b[REV] == 1
    for m in range(nm):
        if mv(b, m, MC) == size and not finish_forbidden(b, p, m, b[TK], rv, rev, move_revolts(b, m, p)):
            return m
    first_rev = -1
    for m in range(nm):
        if move_revolts(b, m, p):
            first_rev = m
            break
    if first_rev >= 0 and weak_hand(hand, rv, bot_param(b, p, B_REVOLT_BELOW)):
        return first_rev
    strongest = R.R3 if rv else R.R2
    ffmask = (hand & JOKER_BITS) | (np.int64(15) << np.int64(4 * strongest))
    if applies(b, R.C09_EIGHT_CUT, p):
        ffmask |= np.int64(15) << np.int64(4 * R.R8)
    if applies(b, R.C19_JBACK, p):
        ffmask |= np.int64(15) << np.int64(4 * R.RJ)
    if taboo(b, p):  # card 04: no finish is forbidden for p
        ffmask = np.int64(0)
    boss_check = (not can_pass) and size <= bot_param(b, p, B_BOSS_HAND)
    seen = hand | b[DISC] | b[FIELD]
    jk_unseen = 1 + b[T5DONE] - popcount(seen & JOKER_BITS)
    min_opp = 0
    first = True
    for q in range(n if can_pass else 0):
        if q != p and b[ix(A0 + q)]:
            c = popcount(b[ix(H0 + q)])
            if first or c < min_opp:
                min_opp = c
                first = False
    best = -1
    best_cost = 1 << 30
    for m in range(nm):
        kind = mv(b, m, MK)
        count = mv(b, m, MC)
        mask = mv(b, m, MMASK)
        cost = mvalue(kind, mv(b, m, ML), mv(b, m, MH), rv) * 16 + (15 - count) + 200 * mv(b, m, MJK)
        if (mask >> (4 * strongest)) & 15:
            cost += 100
        if kind == SETK and count - mv(b, m, MJK) < popcount((hand >> (4 * mv(b, m, ML))) & 15):
            cost += 8
        rest = hand & ~mask
        if rest:
            if (rest & ~ffmask) == 0:
                cost += 60
            if boss_check and is_boss(seen, jk_unseen, kind, count, mv(b, m, ML), mv(b, m, MH), rv):
                cost -= 300
        elif finish_forbidden(b, p, m, b[TK], rv, rev, move_revolts(b, m, p)):
            cost += 1000
        if cost < best_cost:
            best = m
            best_cost = cost
    pass_control_above = bot_param(b, p, B_PASS_CONTROL_ABOVE)
    if can_pass and (best_cost >= 1000 or (best_cost >= 100 and float(min_opp) > pass_control_above)):
        return -1
    return best


@inl
def keep_finisher(b, nm, p):
    """``bots.keep_finisher``: a leading greedy or strategist drops the plays that would leave
    only forbidden-finish cards (not a revolution) when some play leaves a card it may finish
    on; the move table is compacted in order. Returns the number of moves left."""
    hand = b[ix(H0 + p)]
    ffm = forbidden_finish_cards(b, p)
    if (hand & ffm) == 0:
        return nm
    safe = False
    for m in range(nm):
        if (hand & ~mv(b, m, MMASK)) & ~ffm:
            safe = True
            break
    if not safe:
        return nm
    k = 0
    for m in range(nm):
        rest = hand & ~mv(b, m, MMASK)
        if rest == 0 or (rest & ~ffm) != 0 or move_revolts(b, m, p):
            if k != m:
                copy_move(b, m, k)
            k += 1
    return k


@inl
def decide_play(b, n, p, nm, can_pass):
    """D8/D9 ``play``: the index of the chosen move, or -1 for a pass (options: [pass] + moves)."""
    nopt = nm + (1 if can_pass else 0)
    x = driven_play(b, p, K_PLAY, nm, can_pass)
    if x != ASK_BOT:
        return x
    if nopt == 1:
        return 0 if nm == 1 else -1
    pol = ask(b, p)
    if pol == RANDOM:
        i = random_index(b, nopt)
        return i - 1 if can_pass else i
    if pol == LEARNED:
        return learned_play(b, p, nm, can_pass)
    if not can_pass:  # leading (§2.11.1)
        nm = keep_finisher(b, nm, p)
    if pol == GREEDY:
        rv = reversed_(b)
        best = 0
        bc = 1 << 30
        for m in range(nm):
            c = mv(b, m, MJK) * 1000 + mvalue(mv(b, m, MK), mv(b, m, ML), mv(b, m, MH), rv) * 16 + (15 - mv(b, m, MC))
            if c < bc:
                bc = c
                best = m
        return best
    return strategist_play(b, n, p, nm, can_pass)


# ---- play-time decisions: 07 revolt, 10 pull-back, 03 ten discard, 18 flux ----------------------------
@inl
def decide_revolt(b, p):
    """``revolt`` (card 07, DEC-35): random either way, greedy always, strategist when weak."""
    x = yes_no_answer(b, p, K_REVOLT)
    if x != ASK_BOT:
        return x == 1
    if policy(b, p) == GREEDY:
        return True
    return weak_hand(b[ix(H0 + p)], reversed_(b), bot_param(b, p, B_REVOLT_BELOW))


@inl
def decide_flux(b, p, source):
    """D13 ``flux`` (card 18 precept): random either way; greedy always; strategist when the hand
    of ``source`` it would receive is at least ``flux_margin`` cards smaller than its own."""
    x = yes_no_answer(b, p, K_FLUX)
    if x != ASK_BOT:
        return x == 1
    if policy(b, p) == GREEDY:
        return True
    got = popcount(b[ix(H0 + source)])
    return float(got) + bot_param(b, p, B_FLUX_MARGIN) <= float(popcount(b[ix(H0 + p)]))


@inl
def decide_pull_back(b, p, most, tm):
    """D11 ``pull_back`` (card 10): up to ``most`` cards of the previous play ``tm``: random count
    then random cards; greedy the cards stronger than a K, strategist those ``pullback_margin``
    steps stronger, strongest first (ascending ids within a strength)."""
    x = driven_subset(b, p, K_PULL_BACK, tm, 0, most, 1, True)
    if x != ASK_BOT:
        return x
    pol = ask(b, p)
    if pol == RANDOM:
        return random_cards(b, tm, random_index(b, most + 1))
    rv = reversed_(b)
    bar = strength(R.RK, rv) + (1 if pol == GREEDY else bot_param(b, p, B_PULLBACK_MARGIN))
    take = np.int64(0)
    got = 0
    for v in range(13, -1, -1):
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
    return take


@inl
def decide_ten_discard(b, p, most):
    """D12 ``ten_discard`` (card 03): up to ``most`` cards of the hand (mandatory: exactly
    ``most``; the whole hand is the one option then); random as a trim, greedy and strategist
    their weakest cards, never the last one unless the discard is mandatory."""
    hand = b[ix(H0 + p)]
    size = popcount(hand)
    mandatory = b[PV + R.P_03_MANDATORY] == 1
    x = driven_subset(b, p, K_TEN_DISCARD, hand, most if mandatory else 0, most, 1, not (mandatory and most == size))
    if x != ASK_BOT:
        return x
    if mandatory and most == size:
        return hand
    pol = ask(b, p)
    if pol == RANDOM:
        return random_cards(b, hand, most if mandatory else random_index(b, most + 1))
    return weakest_cards(b, hand, most if mandatory else min(most, size - 1), pol)


# ---- the round's setup: D1 draft, D2 give, D3 king give, D4/D5 collusion, D6 trim, D7 start ------------
@inl
def draft_fit(hand, c):
    """bots.draft_fit: cards of the dealt hand the precept's effect uses (D1)."""
    rank = FIT_RANK[c]
    if rank >= 0:
        return 3 * popcount((hand >> (4 * rank)) & 15)
    jokers = popcount(hand & JOKER_BITS)
    if c == R.C04_TABOO:
        return 3 * (jokers + popcount((hand >> (4 * R.R2)) & 15))
    if c == R.C20_DESCENT:
        return 2 * (popcount((hand >> (4 * R.RA)) & 15) + popcount((hand >> (4 * R.R2)) & 15)
                    + popcount((hand >> (4 * R.R3)) & 15))
    if c == R.C23_WISDOM:
        return 4 if popcount((hand >> (4 * R.R3)) & 15) + jokers >= 3 else 0
    if c == R.C02_FUSION or c == R.C07_THREE_REV or c == R.C13_ARMED_FORCE:
        k = 0
        for r in range(13):
            cnt = popcount((hand >> (4 * r)) & 15)
            if ((c == R.C02_FUSION and cnt >= 2) or (c == R.C07_THREE_REV and cnt >= 3)
                    or (c == R.C13_ARMED_FORCE and cnt + jokers >= 4)):
                k += 1
        return (2 if c == R.C02_FUSION else 4) * k
    if c == R.C21_STAIRS:
        k = 0
        for s in range(4):
            for r in range(11):
                if (hand >> (4 * r + s)) & 1 and (hand >> (4 * r + 4 + s)) & 1 and (hand >> (4 * r + 8 + s)) & 1:
                    k += 1
        return 4 * k
    return 0


@inl
def decide_draft(b, q, nrev):
    """D1 ``draft``: the position of the chosen card among the ``nrev`` revealed ones: random
    uniform, greedy the first, strategist the best score (card value, VP, hand fit)."""
    x = driven_revealed(b, q, K_DRAFT, nrev)
    if x != ASK_BOT:
        return x
    if nrev == 1:
        return 0
    pol = ask(b, q)
    if pol == RANDOM:
        return random_index(b, nrev)
    if pol == GREEDY:
        return 0
    pick = 0
    bs = -np.inf
    for j in range(nrev):
        c = b[ix(REVEAL0 + j)]
        sc = (bot_param(b, q, B_DRAFT_CARD) * PREF[c] + bot_param(b, q, B_DRAFT_VP) * b[ix(PV + R.P_VP + c)]
              + bot_param(b, q, B_DRAFT_FIT) * draft_fit(b[ix(H0 + q)], c))
        if sc > bs:
            bs = sc
            pick = j
    return pick


@inl
def decide_card(b, q, kind, opts, weakest):
    """A card of ``opts`` q gives away (``kind``: D2 ``give``, D3 ``king_give``, D4 ``collude``,
    D5 ``collusion_give`` and ``collusion_return``): random uniform; with ``weakest`` (``opts``
    is then q's hand: D3, D4, D5's return, and D2 under card 08) the strategist (and the learned
    bot) its weakest unpaired card; else the first, greedy's weakest."""
    x = driven_cards(b, q, kind, opts, False)
    if x != ASK_BOT:
        return x
    cnt = popcount(opts)
    if cnt == 1:
        return nth_card(opts, 0)
    pol = ask(b, q)
    if pol == RANDOM:
        return nth_card(opts, random_index(b, cnt))
    if weakest and pol != GREEDY:
        return unpaired_order_pick(opts, 0)
    return nth_card(opts, 0)


@inl
def decide_collusion(b, h, nt):
    """D5 ``collusion`` (card 12 precept): the target among the ``nt`` seats at ``order``, or -1
    to decline: random uniform over [decline, targets], greedy the first seat, strategist the
    seat holding the most cards (the first of ties)."""
    x = driven_target(b, h, K_COLLUSION, nt)
    if x != ASK_BOT:
        return x
    pol = ask(b, h)
    if pol == RANDOM:
        j = random_index(b, nt + 1)
        return b[ix(ORDER0 + j - 1)] if j > 0 else -1
    if pol == GREEDY:
        return b[ORDER0]
    q = -1
    most = -1
    for j in range(nt):
        c = popcount(b[ix(H0 + b[ix(ORDER0 + j)])])
        if c > most:
            most = c
            q = b[ix(ORDER0 + j)]
    return q


@inl
def decide_trim(b, q, most):
    """D6 ``trim``: the cards q discards, at most ``most`` (``all_or_nothing``: 0 or ``most``):
    random count then random cards; greedy and strategist their ``most`` weakest cards."""
    hand = b[ix(H0 + q)]
    x = driven_subset(b, q, K_TRIM, hand, 0, most, most if b[PV + R.P_TRIM_ALL] else 1, True)
    if x != ASK_BOT:
        return x
    pol = ask(b, q)
    if pol == RANDOM:
        k = most * random_index(b, 2) if b[PV + R.P_TRIM_ALL] else random_index(b, most + 1)
        return random_cards(b, hand, k)
    return weakest_cards(b, hand, most, pol)


@inl
def decide_start(b, n, last):
    """D7 ``start``: the start player the last-placed player names: random uniform, else itself."""
    x = driven_seat(b, last, K_START, n)
    if x != ASK_BOT:
        return x
    if ask(b, last) == RANDOM:
        return random_index(b, n)
    return last


# ---- out of turn: D14 recycle, D15 loophole, D16 dobon ------------------------------------------------
@inl
def strongest_card(mask, rv):
    """The strongest card of a mask under the current order (a joker first; lowest id)."""
    if mask & JOKER_BITS:
        return nth_card(mask & JOKER_BITS, 0)
    for v in range(12, -1, -1):
        r = 12 - v if rv else v
        nib = (mask >> (4 * r)) & 15
        if nib:
            return nth_card(nib << np.int64(4 * r), 0)
    return -1


@inl
def decide_recycle(b, q):
    """D14 ``recycle`` (card 01): the discard card taken, or -1: random uniform over [no, each
    card]; greedy (hand <= 3) and strategist (hand <= ``recycle_hand``) the strongest card."""
    disc = b[DISC]
    x = driven_cards(b, q, K_RECYCLE, disc, True)
    if x != ASK_BOT:
        return x
    pol = ask(b, q)
    if pol == RANDOM:
        i = random_index(b, 1 + popcount(disc))
        return nth_card(disc, i - 1) if i > 0 else -1
    bar = float(GREEDY_RECYCLE_HAND) if pol == GREEDY else bot_param(b, q, B_RECYCLE_HAND)
    if float(popcount(b[ix(H0 + q)])) <= bar:
        return strongest_card(disc, reversed_(b))
    return -1


@inl
def decide_loophole(b, p):
    """D15 ``loophole`` (card 24): random uniform; greedy and strategist whenever the discard
    pile holds a card that is not a forbidden-finish card for them."""
    x = yes_no_answer(b, p, K_LOOPHOLE)
    if x != ASK_BOT:
        return x == 1
    return (b[DISC] & ~forbidden_finish_cards(b, p)) != 0


@inl
def decide_dobon(b, q):
    """D16 ``dobon`` (card 25): random uniform, greedy and strategist always."""
    x = yes_no_answer(b, q, K_DOBON)
    return x == 1 or x == ASK_BOT

