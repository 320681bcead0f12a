"""Fast faking-sick engine: numba kernels over one state buffer; they read like reference/.

The kernel is split into modules that follow the reference engine and import downward only:
``kernel.state`` (the state buffer's layout, the run vector, addressing, the turn snapshot) <
``kernel.bots`` (legality, ``ask`` and the step driver, the bots) < ``kernel.turn`` (setup,
drawing, the game loop, plays and call windows, judgement, the finished game's rows) <
``kernel`` (this file: the step contract, the batch kernel and their Python wrappers). Variable
indices go through ``ix`` (unsigned: no wraparound check) and the legal plays are bit masks
over the option codes.

Random-consumption protocol (the reference engine follows the same order), one generator
(``sim.kit.rng``) with its counter in ``b[RNG]``:

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
     a decision answered from outside (step contract) draws nothing;
   - call windows ask the eligible players clockwise from the challenged player; with
     ``call_priority = random`` and 2+ callers, ``randbelow(#callers)`` picks the caller
     from the callers in that clockwise order;
   - a reshuffle (FS-10.1): the discard pile below its top, in bottom->top order, is
     shuffled and becomes the draw pile.

Decisions (``decisions`` column, tables.py) are counted where the reference counts them, in
``ask``: each turn, attack and after-draw decision, each eligible player of a call window and
each push. Cached compilations are recompiled whenever any file of this package changes
(sim/kit/jit_cache.py).

The step contract (``sim.kit.step``, docs/adding-a-game.md): ``step_start``, ``step_pending``,
``step_legal``, ``step_apply``, ``step_play_on`` drive one game a decision at a time from
outside; ``run_games`` plays each game as ``step_start`` + ``step_play_on`` with nothing
applied (``begin_game`` + ``play_game``). In a game driven from outside every seat's policy is
STEP and ``ask`` tells the driver's decisions from the bots' (``step_policy``). The engine is
nested calls (a call window in the middle of a play), so ``step_apply`` and ``step_play_on`` go
on by restoring the snapshot taken at the current turn's start (``step_turn``) and playing the
turn again, the options applied in it answering its decisions: the same draws, so the same
turn. A turn holds at most MAX_SCRIPT decisions, so an applied option costs a part of one turn,
never a replay of the game. At the pending decision the buffer holds the decision's state
(the played card in ``limbo`` during a call window).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import StepParts, bot_param_words, ir_inline, ix, script_option, step_op
from sim.kit.step import NOWHERE, PLAY_ON, StepFunctions

from . import state as KS
from .. import tables as T
from .bots import banned_mask, play_options
from .state import (
    APPLIED, CALL, DRIVER, FALLBACK, FIXED_STOP, GAME_ROW, KINDS, LAYOUT, MAX_SCRIPT, NB, NS, PKIND, PSEAT, PUSH,
    PUSH_BITS, PUSH_MASK, RUN, SCRIPT, SIZE, SNAP_TURNS, STEP_FIELDS, STOP, SUMS, hand_at, restore_turn, seat_col,
    size_at,
)
from .turn import begin_game, play_game, play_turns
from ..rules import K_N, K_PUSH, MAX_PLAYERS, NT, encode

__all__ = ["LAYOUT", "SIZE", "RUN", "KINDS", "NS", "step_start", "step_pending", "step_legal", "step_apply",
           "step_play_on", "run_games", "batch_sums", "run_vector", "run_kernel", "new_state"]


# ---- the step contract (sim.kit.step, docs/adding-a-game.md) ---------------------------------------
@ir_inline
def resume(b, stop):
    """Back to the current turn's start (``restore_turn``) and on from there: the applied
    options answer the turn's first decisions; then the pending decision or the bots (``STOP``).
    ``stop`` (``STOP``): STOP_AT_NEXT, up to the driver's next decision; PLAY_ON, the bots play on."""
    b[STOP] = stop
    restore_turn(b)
    b[PSEAT] = -1
    b[PKIND] = -1
    play_turns(b)


@ir_inline
def start_driven(b, seed, game_index, run):
    """``step_start``: the game seated, every seat the driver's, and played up to its first
    decision (``play_game``; no turn to go on from yet)."""
    b[:] = 0
    begin_game(b, seed, game_index, run, True)
    b[STOP] = 1
    b[DRIVER] = (1 << b[K_N]) - 1
    b[PSEAT] = -1
    b[PKIND] = -1
    b[SNAP_TURNS] = -1
    play_game(b)
    return NOWHERE


@ir_inline
def apply_option(b, option):
    """``step_apply``'s scripting."""
    return script_option(b, option, b[PSEAT] >= 0 and legal_option(b, option), PSEAT, APPLIED, SCRIPT, MAX_SCRIPT)


@njit(cache=True, error_model="numpy")
def step_go(b, op, x, seed, run):
    """Every step-contract call that plays on: ``sim.kit.kernel_util.step_op`` over faking-sick's
    parts; ``resume_at``'s ``stop``: STOP_AT_NEXT or PLAY_ON."""
    return step_op(b, op, x, seed, run, StepParts(PSEAT, DRIVER, PLAY_ON, start_driven, apply_option, resume))


STEPS = StepFunctions(step_go, STEP_FIELDS)
step_start, step_pending, step_seats, step_apply, step_play_on, resume_at = STEPS.functions()


@njit(cache=True, error_model="numpy")
def step_legal(b, out):
    """The pending decision's legal options into ``out`` in the reference engine's order; their
    count (0 once the game is over). Codes: ``turn`` / ``attack`` / ``after_draw`` the card type
    played (rules.TYPES code), then FALLBACK (NT: draw / accept / end); ``call`` 0 (no call),
    1 (call); ``push`` the multiset pushed as counts by type (type t at bits PUSH_BITS*t)."""
    seat = b[PSEAT]
    if seat < 0:
        return 0
    kind = b[PKIND]
    if kind == CALL:
        out[0] = 0
        out[1] = 1
        return 2
    if kind == PUSH:
        return push_options(b, seat, out)
    legal = play_options(b, seat, kind, banned_mask(b, seat))
    n = 0
    for x in range(NT + 1):
        if (legal >> x) & 1:
            out[n] = x
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def push_options(b, caller, out):
    """Reference ``legal_push``: every multiset of m = min(push_count, hand) of the caller's
    cards, in the order of ``combinations_with_replacement(types, m)`` (the count vectors in
    decreasing lexicographic order), into ``out``; their count."""
    h = np.zeros(NT, dtype=np.int64)
    c = np.zeros(NT, dtype=np.int64)
    rest = min(b[K_PUSH], b[size_at(caller)])
    for t in range(NT):
        h[t] = b[hand_at(caller, t)]
        c[t] = min(h[t], rest)
        rest -= c[t]
    n = 0
    while True:
        code = 0
        for t in range(NT):
            code |= c[t] << (PUSH_BITS * t)
        out[n] = code
        n += 1
        # the next: the last type that can hand one card on to the types after it, which then
        # hold as many of the cards after it as they can, in type order
        t = NT - 2
        tail, room = c[NT - 1], h[NT - 1]
        while t >= 0 and not (c[t] > 0 and room > tail):
            tail += c[t]
            room += h[t]
            t -= 1
        if t < 0:
            return n
        c[t] -= 1
        tail += 1
        for u in range(t + 1, NT):
            c[u] = min(h[u], tail)
            tail -= c[u]


@njit(cache=True, error_model="numpy")
def legal_option(b, option):
    """Is ``option`` one of the pending decision's legal options (``step_legal``)?"""
    seat, kind = b[PSEAT], b[PKIND]
    if kind == CALL:
        return option == 0 or option == 1
    if kind == PUSH:
        if option < 0 or option >= 1 << (PUSH_BITS * NT):
            return False
        total = 0
        for t in range(NT):
            k = (option >> (PUSH_BITS * t)) & PUSH_MASK
            if k > b[hand_at(seat, t)]:
                return False
            total += k
        return total == min(b[K_PUSH], b[size_at(seat)])
    return 0 <= option <= FALLBACK and (play_options(b, seat, kind, banned_mask(b, seat)) >> option) & 1 == 1


# ---- the batches -----------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", boundscheck=False)  # no zero-division checks: inputs are validated
def run_games(b, seed, start, count, run, games, seats):
    """Play games ``start .. start+count-1`` into the ``games`` / ``seats`` rows; the batch sums
    (calls, plays, call masks) add up in ``b`` (``batch_sums``). Each game is ``step_start`` +
    ``step_play_on`` with nothing applied: ``begin_game`` and ``play_game``, with no replay."""
    for i in range(SUMS, FIXED_STOP):
        b[ix(i)] = 0
    n = run[K_N]
    for gi in range(count):
        begin_game(b, seed, start + gi, run, False)
        play_game(b)
        for j in range(T.NG):
            games[gi, j] = b[ix(GAME_ROW + j)]
        for s in range(n):
            for j in range(NS):
                seats[gi, s, j] = b[seat_col(s, j)]


def batch_sums(b: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """The ``calls``, ``plays`` and ``banned_calls`` sums held in ``b`` for an n-player table.
    ``banned_calls``: a judged call, counted by (the challenged player's banned-type mask, the
    played type), counts in the row of every type in its mask, and it was right when the played
    type is in the mask (counting one cell per call keeps the call path short)."""
    calls = LAYOUT.view(b, "call_sums").reshape(NT, MAX_PLAYERS, MAX_PLAYERS, -1)[:, :n, :n]
    plays = LAYOUT.view(b, "play_sums").reshape(NT, MAX_PLAYERS, -1)[:, :n]
    masks = LAYOUT.view(b, "call_masks").reshape(1 << NT, NT)  # [mask, played]
    bits = (np.arange(1 << NT)[:, None] >> np.arange(NT)) & 1  # [mask, type]
    banned = np.stack([bits.T @ masks, bits.T @ (masks * bits)], axis=-1)  # [banned, played, (calls, right)]
    return {"calls": calls.copy(), "plays": plays.copy(), "banned_calls": banned.astype(np.int64)}


def run_vector(game, cfg) -> np.ndarray:
    """The ``RUN`` vector of a configuration: what ``begin_game`` seats every game from."""
    assert tuple(game.bot_param_names()) == KS.BOT_PARAM_NAMES
    assert cfg.players <= MAX_PLAYERS
    policy, words = bot_param_words(game, cfg)
    run = np.zeros(RUN.size, dtype=np.int64)
    RUN.view(run, "rules")[:] = encode(cfg)
    RUN.view(run, "table_policies")[:cfg.players] = policy
    RUN.view(run, "table_bot_params").reshape(MAX_PLAYERS, NB)[:cfg.players] = words
    return run


def new_state() -> np.ndarray:
    """A zeroed state buffer (``LAYOUT``)."""
    return np.zeros(SIZE, dtype=np.int64)


def run_kernel(game, cfg, start: int, count: int, arr: dict, state: np.ndarray | None = None) -> np.ndarray:
    """Fill the tables.py arrays for games ``start .. start+count-1``; returns the state
    buffer, which then holds the last game's final state."""
    state = new_state() if state is None else state
    run_games(state, np.uint64(cfg.seed), np.int64(start), np.int64(count), run_vector(game, cfg),
              arr["games"], arr["seats"])
    for name, total in batch_sums(state, cfg.players).items():
        arr[name] += total
    return state
