"""Fast engine, a driven game's decisions (the step contract, ``kernel/step.py``): in a game driven
from outside, every decision first goes through one of the ``driven_*`` functions here, which
answer it with the next option applied from outside, or make it the pending decision, or let
the seat's bot answer (``ASK_BOT``: the game is not driven, or it plays on).

The pending decision is the first one after the applied options while the engine ``STOP``s:
its options are described (a list in ``pending_options``, the moves of a play, or the subsets
of a card mask by size), the engine state is kept in ``pending_state`` and the decision is
answered with its first option, so that the unit (a round's setup or a pass of the turn loop)
runs to its end without any caller knowing; ``step.resume`` then puts the kept state back.
The option codes are ``DaifugoStep``'s (``sim/games/daifugo/contract.py``).
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import fn, inl, ix, save_snapshot
from sim.kit.step import STOP_AT_NEXT

from .state import (APPLIED, BOT_ANSWER, CAPTURED, DECISIONS, DRIVEN, DRIVER, DSNAP, ORDER0, PCARDS, PHI, PKIND,
                    PLO, PN, POPT, PPASS, PSEAT, PSTEP, REVEAL0, ROLLOUT_END, ROUND_ROLLOUT, SCRIPT, SEEN, SNAP,
                    SNAP_UNIT, STATE_SIZE, STOP, UNIT, bit, nth_card, popcount)

PLAY_ROUND = 2  # ``STOP`` (besides sim.kit.step's STOP_AT_NEXT, the decision after the applied options): the bots
# play the round out
ASK_BOT = -(1 << 62)  # no option from outside: the seat's bot answers
LIST = ASK_BOT + 1  # the pending decision: list its options, then ``capture``


@inl
def step_answer(b, q, kind, many):
    """A driven decision of seat q: the next applied option (counted in ``decisions`` when it had
    two or more options, ``many``, as ``bots.ask`` counts), LIST when it is the pending one, or
    ASK_BOT (the game is driven: the callers' ``b[DRIVEN]`` guard)."""
    if (b[DRIVER] >> q) & 1 == 0:
        return ASK_BOT  # not a driver seat (``step_seats``): its bot answers, now and in replays
    if b[SEEN] < b[APPLIED]:
        x = b[ix(SCRIPT + b[SEEN])]
        b[SEEN] += 1
        if x == BOT_ANSWER:
            return ASK_BOT
        if many:
            b[DECISIONS] += 1
        return x
    if b[STOP] == STOP_AT_NEXT and not b[CAPTURED]:
        b[PSEAT] = q
        b[PKIND] = kind
        b[PN] = 0
        b[PPASS] = 0
        b[PCARDS] = 0
        return LIST
    return ASK_BOT


@inl
def offer(b, option):
    """One more option of the pending (listing) decision."""
    b[ix(POPT + b[PN])] = option
    b[PN] += 1


@inl
def capture(b, first):
    """The pending decision is described: keep the engine state, answer it with ``first``."""
    save_snapshot(b, DSNAP, 0, STATE_SIZE)
    b[CAPTURED] = 1
    return first


@fn
def answer_cards(b, q, kind, cards, decline):
    """A decision over the cards of a mask, ascending (with ``decline``: -1, no card, first)."""
    x = step_answer(b, q, kind, popcount(cards) + decline > 1)
    if x == LIST:
        if decline:
            offer(b, -1)
        for j in range(popcount(cards)):
            offer(b, nth_card(cards, j))
        x = capture(b, b[POPT])
    return x


@fn
def answer_yes_no(b, q, kind):
    """A yes/no decision: 0 (no), 1 (yes)."""
    x = step_answer(b, q, kind, True)
    if x == LIST:
        offer(b, 0)
        offer(b, 1)
        x = capture(b, 0)
    return x


@fn
def answer_play(b, p, kind, nm, can_pass):
    """A play: -1 (the pass, when p may pass), then the move-table rows 0 .. nm-1."""
    x = step_answer(b, p, kind, nm + can_pass > 1)
    if x == LIST:
        b[PN] = nm
        b[PPASS] = can_pass
        x = capture(b, -1 if can_pass else 0)
    return x


@fn
def answer_subset(b, q, kind, cards, lo, hi, step, many):
    """A choice of cards from ``cards``: a card mask of lo, lo+step, ... up to hi cards."""
    x = step_answer(b, q, kind, many)
    if x == LIST:
        b[PCARDS] = cards
        b[PLO] = lo
        b[PHI] = hi
        b[PSTEP] = max(step, 1)
        first = np.int64(0)
        for j in range(lo):
            first |= bit(nth_card(cards, j))
        x = capture(b, first)
    return x


@fn
def begin_driven_unit(b, setup):
    """A unit begins (``setup``: a round's setup, else a pass of the turn loop). A driven game
    that stops keeps the engine state at each unit it reaches anew (``snapshot``), its applied
    options start there; one that plays to the round's end stops from the next round's setup
    on. False once the pending decision is captured: the caller returns."""
    if b[CAPTURED]:
        return False
    u = b[UNIT] + 1
    if u > b[SNAP_UNIT] and ((setup and b[ROUND_ROLLOUT]) or (b[ROLLOUT_END] and u > b[ROLLOUT_END])):
        return False  # a search rollout ends here (``kernel.search.rollout``)
    if setup and b[STOP] == PLAY_ROUND and u > b[SNAP_UNIT]:
        b[STOP] = STOP_AT_NEXT
    if b[STOP] == STOP_AT_NEXT and u > b[SNAP_UNIT]:
        save_snapshot(b, SNAP, 0, STATE_SIZE)
        b[SNAP_UNIT] = u
        b[APPLIED] = 0
        b[SEEN] = 0
    b[UNIT] = u
    return True


@fn
def answer_revealed(b, q, kind, nrev):
    """D1 ``draft``: the position among the ``nrev`` revealed rule cards of the card id applied."""
    x = step_answer(b, q, kind, nrev > 1)
    if x == LIST:
        for j in range(nrev):
            offer(b, b[ix(REVEAL0 + j)])
        x = capture(b, b[REVEAL0])
    if x != ASK_BOT:
        for j in range(nrev):
            if b[ix(REVEAL0 + j)] == x:
                return j
    return x


@fn
def answer_target(b, q, kind, nt):
    """D5 ``collusion``: -1 (decline), then the ``nt`` seats at ``order``."""
    x = step_answer(b, q, kind, True)
    if x == LIST:
        offer(b, -1)
        for j in range(nt):
            offer(b, b[ix(ORDER0 + j)])
        x = capture(b, -1)
    return x


@fn
def answer_seat(b, q, kind, n):
    """D7 ``start``: the seats 0 .. n-1."""
    x = step_answer(b, q, kind, True)
    if x == LIST:
        for j in range(n):
            offer(b, j)
        x = capture(b, 0)
    return x


# The engine's entry points: a game not driven from outside pays one load and branch per
# decision; the rest compiles apart from the bots' code (``fn``).
@inl
def driven_cards(b, q, kind, cards, decline):
    """A decision over the cards of a mask, ascending (with ``decline``: -1, no card, first)."""
    return answer_cards(b, q, kind, cards, decline) if b[DRIVEN] else ASK_BOT


@inl
def driven_yes_no(b, q, kind):
    """A yes/no decision: 0 (no), 1 (yes)."""
    return answer_yes_no(b, q, kind) if b[DRIVEN] else ASK_BOT


@inl
def driven_play(b, p, kind, nm, can_pass):
    """A play: -1 (the pass, when p may pass), then the move-table rows 0 .. nm-1."""
    return answer_play(b, p, kind, nm, can_pass) if b[DRIVEN] else ASK_BOT


@inl
def driven_subset(b, q, kind, cards, lo, hi, step, many):
    """A choice of cards from ``cards``: a card mask of lo, lo+step, ... up to hi cards."""
    return answer_subset(b, q, kind, cards, lo, hi, step, many) if b[DRIVEN] else ASK_BOT


@inl
def driven_revealed(b, q, kind, nrev):
    """The draft: the position of the applied card among the revealed ones."""
    return answer_revealed(b, q, kind, nrev) if b[DRIVEN] else ASK_BOT


@inl
def driven_target(b, q, kind, nt):
    """The collusion target: -1 or a seat."""
    return answer_target(b, q, kind, nt) if b[DRIVEN] else ASK_BOT


@inl
def driven_seat(b, q, kind, n):
    """The start player: a seat."""
    return answer_seat(b, q, kind, n) if b[DRIVEN] else ASK_BOT


@inl
def begin_unit(b, setup):
    """A unit begins (``begin_driven_unit``); True when the game is not driven."""
    return begin_driven_unit(b, setup) if b[DRIVEN] else True
