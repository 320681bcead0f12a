"""Fast engine of high card with one redraw (``tests.toy_step``): one int64 buffer, the step contract.

Random-consumption protocol (``reference/`` follows it): game ``g`` draws only from
``derive(seed, g)``: one ``randbelow(13)`` per seat in seat order (the deal), then, seat by
seat, one ``randbelow(13)`` per redraw. The bots draw nothing. The engine goes on from its state
itself (nothing is replayed), so the step contract's snapshot is empty and ``GO_RESUME`` plays on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import StepParts, bot_param_words, param_float, script_option, step_op
from sim.kit.layout import Layout
from sim.kit.rng import derive, randbelow_at
from sim.kit.search import SearchFields
from sim.kit.step import GO_PLAY_ON, GO_START, PLAY_ON, STOP_AT_NEXT, StepFields, StepFunctions

MAX_SEATS, NB = 5, 6  # bot parameter words per seat: nerve and the search's five
KEEP, REDRAW = 0, 1  # the options of the one decision kind, ``redraw``
LUCKY = 1  # the lucky bot's policy: its card gets the lucky bonus

RUN = Layout("toy-step run vector")
R_N, R_BONUS, R_REDRAWS = RUN.scalars("players", "lucky_bonus", "redraws")
R_POLICY = RUN.block("table_policies", MAX_SEATS, "policy of each table position")
R_PARAMS = RUN.block("table_bot_params", MAX_SEATS * NB, "bot parameter words of each table position")

LAYOUT = Layout("toy-step state")
N, BONUS, REDRAWS, RNG, TURN, USED = LAYOUT.scalars("players", "lucky_bonus", "redraws", "rng", "turn", "used")
CARD = LAYOUT.block("card", MAX_SEATS, "each seat's card, hidden from the others (no bonus added)")
REDRAWN = LAYOUT.block("redrawn", MAX_SEATS, "1 for a seat that redrew (public)")
PARAMS = LAYOUT.block("params", MAX_SEATS * NB, "each seat's bot parameter words")
# the step fields (sim.kit.step.StepFields); no replays: play goes on from the state itself
STEP_FIELDS = StepFields(LAYOUT, replays=False)
DRIVER, PSEAT, PKIND, APPLIED = STEP_FIELDS.scalars
SEARCH_FIELDS = SearchFields(LAYOUT)  # the search's fields (sim.kit.search): the toy's rollouts play to the end
POLICY, SCRIPT, SNAP = STEP_FIELDS.blocks(MAX_SEATS, MAX_SEATS, 0, "none: play goes on from the state itself")
SIZE = LAYOUT.size


@njit(cache=True)
def final_card(b, s):
    """Seat ``s``'s card with the lucky bonus."""
    return b[CARD + s] + (b[BONUS] if b[POLICY + s] == LUCKY else 0)


@njit(cache=True)
def may_redraw(b):
    """Have fewer than ``redraws`` seats redrawn (HR-1)?"""
    return b[USED] < b[REDRAWS]


@njit(cache=True)
def answer(b, s, option):
    """Seat ``s`` keeps its card or redraws it; the next seat's turn."""
    if option == REDRAW:
        b[CARD + s] = randbelow_at(b, RNG, 13)
        b[REDRAWN + s] = 1
        b[USED] += 1
    b[TURN] += 1


@njit(cache=True)
def bot_option(b, s):
    """Every bot (and a search seat's rollout bot) redraws a card below ``nerve`` x 13 while it may."""
    return REDRAW if may_redraw(b) and b[CARD + s] < param_float(b[PARAMS + s * NB]) * 13 else KEEP


@njit(cache=True)
def resume(b, stop):
    """On from the state itself (nothing is replayed): the bots answer in turn, up to a driver
    seat's decision (then pending) or the game's end; with ``stop`` PLAY_ON no seat is the driver's."""
    if stop == PLAY_ON:
        b[DRIVER] = 0
    b[PSEAT] = -1
    b[PKIND] = -1
    while b[TURN] < b[N]:
        s = b[TURN]
        if b[DRIVER] >> s & 1:
            b[PSEAT] = s
            b[PKIND] = 0
            return
        answer(b, s, bot_option(b, s))


@njit(cache=True)
def start(b, seed, g, run):
    """Game ``g`` seated by rotation (``seat_bot``) and dealt; every seat the driver's."""
    b[:] = 0
    n = run[R_N]
    b[N], b[BONUS], b[REDRAWS] = n, run[R_BONUS], run[R_REDRAWS]
    b[RNG] = derive(np.uint64(seed), np.uint64(g))
    for s in range(n):
        t = (s + g) % n
        b[POLICY + s] = run[R_POLICY + t]
        b[PARAMS + s * NB:PARAMS + (s + 1) * NB] = run[R_PARAMS + t * NB:R_PARAMS + (t + 1) * NB]
        b[CARD + s] = randbelow_at(b, RNG, 13)
    b[DRIVER] = (1 << n) - 1
    return STOP_AT_NEXT


@njit(cache=True)
def apply_option(b, option):
    """Option ``option`` scripted (``script_option``) and answered at once."""
    legal = b[PSEAT] >= 0 and (option == KEEP or option == REDRAW and may_redraw(b))
    status = script_option(b, option, legal, PSEAT, APPLIED, SCRIPT, MAX_SEATS)
    if status == 0:
        answer(b, b[PSEAT], option)
    return status


@njit(cache=True)
def step_go(b, op, x, seed, run):
    """Every step-contract call that plays on: ``sim.kit.kernel_util.step_op`` over the toy's parts."""
    return step_op(b, op, x, seed, run, StepParts(PSEAT, DRIVER, PLAY_ON, start, apply_option, resume))


STEPS = StepFunctions(step_go, STEP_FIELDS)
step_start, step_pending, step_seats, step_apply, step_play_on, resume_at = STEPS.functions()


@njit(cache=True)
def step_legal(b, out):
    """KEEP, then REDRAW while the game's redraws last; 0 once the game is over."""
    if b[PSEAT] < 0:
        return 0
    out[0], out[1] = KEEP, REDRAW
    return 2 if may_redraw(b) else 1


@njit(cache=True)
def run_games(b, seed, start_index, count, run, cards):
    """The batch: each game is ``step_start`` and ``step_play_on``; its final cards into ``cards``."""
    for k in range(count):
        step_go(b, GO_START, start_index + k, seed, run)
        step_go(b, GO_PLAY_ON, 0, seed, run)
        for s in range(b[N]):
            cards[k, s] = final_card(b, s)


def run_vector(game, cfg) -> np.ndarray:
    """The ``RUN`` vector of a configuration: what ``start`` seats every game from."""
    policy, words = bot_param_words(game, cfg)
    run = np.zeros(RUN.size, dtype=np.int64)
    run[R_N], run[R_BONUS], run[R_REDRAWS] = cfg.players, cfg.params["lucky_bonus"], cfg.params["redraws"]
    RUN.view(run, "table_policies")[:cfg.players] = policy
    RUN.view(run, "table_bot_params").reshape(MAX_SEATS, NB)[:cfg.players] = words
    return run


def new_state() -> np.ndarray:
    """A zeroed state buffer (``LAYOUT``)."""
    return np.zeros(SIZE, dtype=np.int64)
