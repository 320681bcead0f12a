"""Fast engine, the step contract (``sim.kit.step``, docs/adding-a-game.md): one game driven a decision
at a time from outside. The option codes are ``DaifugoStep``'s (``sim/games/daifugo/contract.py``).

A driven game (``DRIVEN``) goes through units: a round's setup and each pass of the turn loop
(``driver.play_game``). The engine keeps the state at the current unit's start (``snapshot``)
and the options applied since (``script``); ``step_apply`` and ``step_play_on`` go on by
restoring that state and playing the unit again, the applied options answering its first
decisions: the same draws, so the same unit. An applied option therefore costs a part of one
turn (or of one setup), never a replay of the game; the unit then runs on to its end with the
pending decision answered by its first option (``driven.capture``), and the buffer is put back
to the state at the pending decision (the move table of a pending play regenerated). A change
made to the state from outside takes effect when made to the ``snapshot`` block.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import StepParts, ir_inline, ix, listed, restore_snapshot, script_option, step_op
from sim.kit.step import STOP_AT_NEXT, StepFunctions

from .. import rules as R
from .driven import PLAY_ROUND
from .driver import begin_game, play_game, turn_moves
from .state import (APPLIED, BOT_ANSWER, CAPTURED, DRIVEN, DRIVER, DSNAP, K_PLAY, K_PULL_BACK, K_TEN_DISCARD,
                    K_TRIM, MAX_MOVES, MAX_SCRIPT, NP, PCARDS, PHI, PKIND, PLO, PN, POPT, PPASS, PSEAT, PSTEP, PV, SCRIPT, SEEN, SNAP,
                    SIZE, SNAP_UNIT, STATE_SIZE, STEP_FIELDS, STOP, bit, nth_card, popcount)

MAX_SUBSET_CARDS = 16  # the most cards a trim, pull-back or ten discard chooses from (13 dealt + gifts)
MAX_OPTIONS = max(MAX_MOVES + 1, 1 << MAX_SUBSET_CARDS)  # ``out`` length for step_legal


@ir_inline
def resume(b, stop):
    """Back to the current unit's start (none before the first) and on from there, the applied
    options answering its first decisions; then (``stop``) up to the pending decision
    (STOP_AT_NEXT), or the bots play the round out (PLAY_ROUND) and the next round's first
    decision is pending."""
    if b[SNAP_UNIT] > 0:
        restore_snapshot(b, SNAP, 0, STATE_SIZE)
    b[SEEN] = 0
    b[CAPTURED] = 0
    b[PSEAT] = -1
    b[PKIND] = -1
    b[STOP] = stop
    play_game(b, b[NP], b[PV + R.P_ROUNDS])
    if b[CAPTURED]:
        restore_snapshot(b, DSNAP, 0, STATE_SIZE)
        if b[PKIND] == K_PLAY:
            turn_moves(b, b[PSEAT])


@ir_inline
def start_driven(b, seed, game_index, run):
    """``step_start``: the game seated, every seat the driver's; ``resume`` goes on to its first decision."""
    b[:] = 0
    begin_game(b, seed, game_index, run)
    b[DRIVEN] = 1
    b[DRIVER] = (1 << b[NP]) - 1
    return STOP_AT_NEXT


@ir_inline
def apply_option(b, option):
    """``step_apply``'s scripting; the option may be ``BOT_ANSWER`` (the seat's bot answers)."""
    legal = b[PSEAT] >= 0 and (option == BOT_ANSWER or legal_option(b, option))
    return script_option(b, option, legal, PSEAT, APPLIED, SCRIPT, MAX_SCRIPT)


def new_state():
    """A buffer for one game (``step_start`` fills it)."""
    return np.zeros(SIZE, dtype=np.int64)


@njit(cache=True, error_model="numpy")
def step_go(b, op, x, seed, run):
    """Every step-contract call that plays on: ``sim.kit.kernel_util.step_op`` over daifugo's
    parts; ``resume_at``'s ``stop``: STOP_AT_NEXT or PLAY_ROUND (0: the bots play on)."""
    return step_op(b, op, x, seed, run, StepParts(PSEAT, DRIVER, PLAY_ROUND, start_driven, apply_option, resume))


STEPS = StepFunctions(step_go, STEP_FIELDS)
step_start, step_pending, step_seats, step_apply, step_play_on, resume_at = STEPS.functions()


@njit(cache=True, error_model="numpy")
def step_legal(b, out):
    """The pending decision's legal options into ``out`` (MAX_OPTIONS long) in the reference
    engine's order; their count (0 once the game is over)."""
    if b[PSEAT] < 0:
        return 0
    kind = b[PKIND]
    if kind == K_PLAY:
        n = 0
        if b[PPASS]:
            out[0] = -1
            n = 1
        for m in range(b[PN]):
            out[n] = m
            n += 1
        return n
    if kind == K_TRIM or kind == K_PULL_BACK or kind == K_TEN_DISCARD:
        return list_subsets(b, out)
    for j in range(b[PN]):
        out[j] = b[ix(POPT + j)]
    return b[PN]


@njit(cache=True, error_model="numpy")
def list_subsets(b, out):
    """The card masks of the pending subset decision: by size (PLO, PLO + PSTEP, ... PHI), each
    size in the order ``itertools.combinations`` lists the cards ascending."""
    m = popcount(b[PCARDS])
    cards = np.empty(max(m, 1), dtype=np.int64)
    for j in range(m):
        cards[j] = nth_card(b[PCARDS], j)
    idx = np.empty(max(m, 1), dtype=np.int64)
    n = 0
    for k in range(b[PLO], b[PHI] + 1, b[PSTEP]):
        for j in range(k):
            idx[j] = j
        while True:
            mask = np.int64(0)
            for j in range(k):
                mask |= bit(cards[idx[j]])
            if n < len(out):
                out[n] = mask
            n += 1
            j = k - 1
            while j >= 0 and idx[j] == m - k + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for t in range(j + 1, k):
                idx[t] = idx[t - 1] + 1
    return n


@njit(cache=True, error_model="numpy")
def legal_option(b, option):
    """Is ``option`` one of the pending decision's legal options (``step_legal``)?"""
    kind = b[PKIND]
    if kind == K_PLAY:
        return (option == -1 and b[PPASS] == 1) or 0 <= option < b[PN]
    if kind == K_TRIM or kind == K_PULL_BACK or kind == K_TEN_DISCARD:
        if option < 0 or option & ~b[PCARDS]:
            return False
        k = popcount(option)
        return b[PLO] <= k <= b[PHI] and (k - b[PLO]) % b[PSTEP] == 0
    return listed(b, POPT, b[PN], option)
