"""Numba building blocks shared by the game kernels.

``fn`` compiles a separate function; ``inl`` one that LLVM inlines into every caller
(``forceinline``), which removes the call overhead of passing state arrays around. Both
set every flag explicitly, since an unset flag is inherited from whichever caller compiles
first. Helpers run without the numba runtime (``_nrt=False``): none of them allocates, so
no call pays reference counting on its array arguments. A helper is compiled once per
argument types, not once per constant its callers pass (``HelperDispatcher``).

Importing this module installs the package-aware cache locators (``sim.kit.jit_cache``) first:
every kernel module imports it (directly or through ``sim.kit.rng`` and ``seat_bot``) before its
first ``@njit(cache=True)``.
"""

from collections import namedtuple

import numpy as np

from sim.kit import jit_cache

jit_cache.install()

from llvmlite import ir  # noqa: E402
from numba import njit  # noqa: E402
from numba.core import types  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

from sim.kit.lead import LeadFields  # noqa: E402
from sim.kit.step import GO_APPLY, GO_PLAY_ON, GO_SEATS, GO_START, NOWHERE, STOP_AT_NEXT  # noqa: E402


class HelperDispatcher(CPUDispatcher):
    """numba's dispatcher, except that a call from compiled code types a constant argument
    by its type (int64, bool), not by its value: numba would otherwise type and LLVM optimise
    one copy of the helper per constant its callers pass. LLVM still folds the constants
    where it inlines the helper."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def helper_jit(forceinline: bool):
    """``njit(cache=True, ...)`` for a kernel helper, with ``HelperDispatcher``."""
    options = dict(nopython=True, _nrt=False, error_model="numpy", boundscheck=False,
                   forceinline=forceinline)

    def compile_lazily(func):
        dispatcher = HelperDispatcher(py_func=func, locals={}, targetoptions=options)
        dispatcher.enable_caching()
        return dispatcher
    return compile_lazily


fn = helper_jit(forceinline=False)
inl = helper_jit(forceinline=True)
# A helper with few callers that would otherwise compile, with its whole callee tree code-generated
# again, on its own: numba inlines it into its callers instead (IR inlining). Daifugo's play_game,
# play_round and resume: daifugo compiles in 87 s instead of 125 s; faking-sick's play_game and
# resume: 38 s instead of 51 s; at the same speed.
ir_inline = njit(cache=True, inline="always", error_model="numpy", boundscheck=False)


@inl
def ix(i):
    """A non-negative index as unsigned: numba then skips the negative-index wraparound check
    (a compare and select per access). Constant indices need no ``ix``."""
    return np.uint64(i)


# ---- bot parameters: one encoding from the config to every kernel ---------------------------------
# A bot parameter is a float in the config (``RunConfig.bot_params``, ranges in ``BotParam``); every
# kernel holds it in its int64 buffers as the float64's bits, written by ``bot_param_words`` and read
# with ``param_float`` (or ``param_int`` for a whole number such as the search budget).
def bot_param_words(game, cfg) -> tuple[np.ndarray, np.ndarray]:
    """Per table position: policy ids (int64[n], ``Game.bot_matrix``) and the bot parameter rows
    as the int64 words the kernels hold them in (int64[n, k], the float64s' bits)."""
    policy, params = game.bot_matrix(cfg)
    return policy, np.ascontiguousarray(params, dtype=np.float64).view(np.int64)


@intrinsic
def _float_bits(typingctx, word):
    """The float64 whose bits the int64 ``word`` holds."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.int64), codegen


@inl
def param_float(word):
    """A bot parameter from its buffer word (``bot_param_words``)."""
    return _float_bits(np.int64(word))


@inl
def param_int(word):
    """A whole-number bot parameter (search budget, determinizations, rollout bot, objective,
    horizon) from its buffer word: the float truncated toward zero."""
    return np.int64(_float_bits(np.int64(word)))


@njit(cache=True)
def seat_bot(table_bots, game_index, seat):
    """Bot of ``seat`` in game ``game_index``: the table's bot list rotated by the game index
    (``sim.games.base.seat_bots`` is its Python twin).

    Seat s plays ``table_bots[(s + i) % n]``, so over any n consecutive games every bot
    sits in every seat once and seat effects separate from bot effects.
    """
    n = table_bots.shape[0]
    return table_bots[(seat + game_index) % n]


@inl
def same_slots(w, b, at, n):
    """Do the buffers ``w`` and ``b`` hold the same ``n`` slots from ``at`` on?"""
    for i in range(n):
        if w[ix(at + i)] != b[ix(at + i)]:
            return False
    return True


@inl
def listed(b, at, n, option):
    """Is ``option`` one of the ``n`` option codes at ``b[at:at + n]``?"""
    for j in range(n):
        if b[ix(at + j)] == option:
            return True
    return False


@inl
def script_option(b, option, legal, pending_seat, applied, script, max_script):
    """``step_apply``'s checks and bookkeeping, the same in every game (``legal``: the game's
    verdict on ``option``, False once the game is over; the offsets of the buffer's
    ``pending_seat`` and ``applied`` scalars and ``script`` block): ``sim.kit.step.STATUS`` -1, -2
    or -3 with ``b`` unchanged, else 0 with ``option`` appended to the script (the caller then
    goes on)."""
    if b[pending_seat] < 0:
        return -1
    if not legal:
        return -2
    if b[applied] >= max_script:
        return -3
    b[ix(script + b[applied])] = option
    b[applied] += 1
    return 0


# A game's parts of ``step_op``: the offsets of its buffer's ``pending_seat`` and ``driver_seats``
# fields, its stop code for "the bots play on", and its compiled ``start(b, seed, game_index, run)``,
# ``apply(b, option)`` and ``resume(b, stop)``
StepParts = namedtuple("StepParts", "pending_seat driver play_on start apply resume")


@njit(inline="always")
def step_op(b, op, x, seed, run, parts):
    """A game's ``step_go`` (``sim.kit.step.StepFunctions``): the operations, the same in every game,
    over the game's ``StepParts``. ``GO_START``: ``parts.start(b, seed, x, run)`` seats game ``x``
    and returns the stop code to go on with (``NOWHERE``: it went on itself); ``GO_SEATS``: the
    driver's seats become ``x`` and, if the pending decision is no longer theirs, on to the
    driver's next decision; ``GO_APPLY``: ``parts.apply(b, x)``, the game's ``script_option`` with
    its verdict on option ``x`` (its status; 0: on to the next decision); ``GO_PLAY_ON``: while a
    decision is pending, on with ``parts.play_on``; ``GO_RESUME``: on with stop code ``x``. Going
    on is ``parts.resume(b, stop)``, called in one place (numba generates an inlined engine once):
    the current unit played again from its start (a game that goes on from its state itself: on
    from there), ``stop`` ``sim.kit.step.STOP_AT_NEXT`` up to the driver's next decision, else as
    the game reads it. Returns ``step_apply``'s status (0 for the other operations)."""
    stop = NOWHERE
    if op == GO_START:
        stop = parts.start(b, seed, x, run)
    elif op == GO_SEATS:
        b[parts.driver] = x
        seat = b[parts.pending_seat]
        if seat >= 0 and (x >> seat) & 1 == 0:
            stop = STOP_AT_NEXT
    elif op == GO_APPLY:
        status = parts.apply(b, x)
        if status != 0:
            return status
        stop = STOP_AT_NEXT
    elif op == GO_PLAY_ON:
        if b[parts.pending_seat] >= 0:
            stop = parts.play_on
    else:
        stop = x
    if stop != NOWHERE:
        parts.resume(b, stop)
    return 0


# ---- the step contract's snapshots (sim.kit.step.StepFields): one copy, the same in every game ---------
# A game saves the state it goes on from (the current unit's start, ``snapshot``; the pending
# decision, ``pending_state``) as consecutive ranges of its buffer, and puts it back range by range
# in the same order; each call returns the block slot the next range goes to (or comes from).
@inl
def save_snapshot(b, at, lo, n):
    """``b[lo:lo + n]`` into the snapshot block from its slot ``at``; returns ``at + n``."""
    for i in range(n):
        b[ix(at + i)] = b[ix(lo + i)]
    return at + n


@inl
def restore_snapshot(b, at, lo, n):
    """The ``n`` snapshot slots from ``at`` back to ``b[lo:lo + n]``; returns ``at + n``."""
    for i in range(n):
        b[ix(lo + i)] = b[ix(at + i)]
    return at + n


# ---- game feel (sim.kit.lead.LeadFields, from their offset ``at``): the reference's ``Lead``, one copy ------
LEAD_NOW, LEAD_SINCE, MAX_BEHIND = (LeadFields.NAMES.index(name) for name in ("lead_now", "lead_since", "max_behind"))


@inl
def start_lead(b, at, n):
    """No sole leader yet and none of the ``n`` seats behind (a new ``Lead``)."""
    b[ix(at)] = -1
    b[ix(at + LEAD_NOW)] = -1
    b[ix(at + LEAD_SINCE)] = -1
    for s in range(n):
        b[ix(at + MAX_BEHIND + s)] = 0


@njit(inline="always")
def observe_lead(b, at, n, turn, in_race, score, changes):
    """One observation at ``turn`` (``Lead.observe``): of the seats ``s < n`` in the race
    (``in_race(b, s)``) the one with strictly the fewest ``score(b, s)`` leads; each seat's
    largest deficit, the current leader's start, and the lead changes counted at
    ``b[changes]``."""
    least, lead = np.int64(1 << 62), np.int64(-1)
    for s in range(n):
        if in_race(b, s):
            x = score(b, s)
            if x < least:
                least, lead = x, np.int64(s)
            elif x == least:
                lead = -1
    for s in range(n):
        if in_race(b, s):
            b[ix(at + MAX_BEHIND + s)] = max(b[ix(at + MAX_BEHIND + s)], score(b, s) - least)
    if lead != b[ix(at + LEAD_NOW)]:
        b[ix(at + LEAD_NOW)] = lead
        if lead >= 0:
            b[ix(at + LEAD_SINCE)] = turn
            if b[ix(at)] >= 0 and lead != b[ix(at)]:
                b[ix(changes)] += 1
            b[ix(at)] = lead


@inl
def every_seat(b, s):
    """``observe_lead``'s ``in_race`` of a game in which every seat is in the race to its end."""
    return True


@inl
def lead_columns(b, at, winner, lead_from, winner_behind, n, seat_behind, stride):
    """The game-feel columns of a finished game (``Lead.columns``; ``winner``: the sole winner,
    or -1): the turn from which the winner has led without a break (``b[lead_from]``, -1 if it
    did not lead at the end) and its largest deficit (``b[winner_behind]``), each seat's at
    ``b[seat_behind + s * stride]``."""
    b[ix(lead_from)] = b[ix(at + LEAD_SINCE)] if winner >= 0 and b[ix(at + LEAD_NOW)] == winner else -1
    b[ix(winner_behind)] = b[ix(at + MAX_BEHIND + winner)] if winner >= 0 else -1
    for s in range(n):
        b[ix(seat_behind + s * stride)] = b[ix(at + MAX_BEHIND + s)]
