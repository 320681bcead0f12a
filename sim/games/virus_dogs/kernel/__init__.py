"""Fast Virus Dogs engine: numba kernels over one flat integer buffer, one call per batch.

This module is the driver: the step contract's entry points and the batch kernel. The engine
under it is four modules that follow the reference engine (``reference/``) section by
section, each importing only the ones above it in this list:

- ``kernel.state``: the state buffer's layout (``LAYOUT``, ``SEAT``, ``BOT_PARAMS``, ``RUN``), the
  typed constants, the decision kinds and option codes, and the helpers over the buffer
  (reference: ``left_of`` .. ``to_discard``, ``draw_event``);
- ``kernel.bots``: the decisions: ``ask`` (who answers: the seat's bot or the step driver),
  the step driver's option lists (``step_answer``), the phase-A/C options and the bots
  (twins of ``bots.BotAgent``);
- ``kernel.cards``: viruses and elimination, the action cards and the bat;
- ``kernel.turn``: setup, the game loop and the turn's phases, hard quarantine, the results.

The whole state of one game lives in ONE int64 buffer ``b`` (allocated once per batch, reset
per game), declared field by field in ``kernel.state.LAYOUT`` (``LAYOUT.describe()`` lists
it). Every function but ``run_games``, ``resume`` and the step entry points is compiled
without the numba runtime (``_nrt=False``): none allocates, and without it no call pays
atomic reference counting, which otherwise took half the run time. Hot helpers are ``inl``
(LLVM ``forceinline``): numba's array calling convention makes every call cost about as
much as a small decision.

The step contract (``sim.kit.step``, docs/adding-a-game.md): ``step_start``, ``step_pending``,
``step_legal``, ``step_apply``, ``step_play_on`` drive one game a decision at a time from
outside; ``run_games`` plays each game as ``step_start`` + ``step_play_on`` with nothing
applied (``begin_game`` + ``play_game``). Each decision function asks ``ask`` first; in a
game driven through the contract every seat's policy reads STEP, and ``ask`` tells
(``step_policy``) whether the step driver owns the decision (the function then lists its
legal options, codes per kind as in ``step_legal``, and takes ``step_answer``'s) or the
seat's bot decides. The batch pays one compare per decision for it, and one per turn, draw
and bottom insertion for what a driven game notes about its units (``kernel.state``).

The functions carry the reference engine's names (``setup``, ``take_turn``, ``phase_actions``,
``play_card``, ``draw_phase``, ``normal_draw``, ``mask``, ``remove_player``, ``hard_quarantine``,
``hq_pull``, ...), so the two read side by side. The reference engine's exceptions become
flags: ``over`` (GameOver), ``turn_ended`` (TurnEnds), ``start_hq`` (StartHQ), tested by
``interrupted``; its ``limbo`` (taken cards not yet resolved) is the ``limbo`` block. Every
decision function counts itself in the ``decisions`` column (tables.py), as the reference
engine's ``ask`` does.

The generator is ``sim.kit.rng``'s, with its counter in the ``rng`` slot of ``b``
(``randbelow_at``/``uniform_at``/``shuffle_at``).

Random-consumption protocol (the reference engine follows the same order):
  1. setup: the deck is built bottom-first in card-code order and shuffled (Fisher-Yates as
     ``sim.kit.rng.shuffle``) over the whole array; then, only with ``first_player = random``,
     one ``randbelow(n)`` picks the first seat;
  2. a bat appends its k viruses on top of the deck, then shuffles the whole deck;
     SHF shuffles the deck; ``eliminated_hand_destination = shuffle_into_deck`` shuffles
     after the eliminated player's cards went to the bottom;
  3. a hard-quarantine pull is one ``randbelow(hand size)``; the card is found by walking
     the target's hand in card-code order;
  4. bots: a decision with one legal option is taken without asking (no draw); ``random``
     draws one ``randbelow(candidates)`` when it has >= 2 candidates (suicidal declarations
     removed unless ``allow_suicide``); ``aggressive`` draws one ``uniform`` at every mask
     decision it is asked (bluff if ``uniform * 1e6 < bluff_ppm``); nothing else in the bots
     draws.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.reference.bots import SEARCH, SEEING, WEIGHTED
from sim.games.virus_dogs.kernel.state import (
    BOT_PARAM_NAMES, B_ROLLOUT, MAX_CARDS, MAX_SCRIPT, MAX_SEATS, NB, NOX, NS, N_PARAMS, N_TYPES,
    O_BP, O_COUNTS, O_DECK, O_DECKSUM, O_DRAWSUM, O_GM, O_P, O_POL, O_POPT, O_PSNAP, O_RNG,
    O_SCRIPT, O_SM, O_SPOL, O_SSEAT, O_TURNSUM, RUN, R_BP, R_COUNTS, R_N, R_P, R_POL, SIZE, STEP, S_BAD,
    S_COUNTED, S_DRIVER, S_DSIZE, S_INHQ, S_N, S_PKIND, S_PN, S_PSEAT, S_RESUMING, S_SCRIPTED,
    S_STEPPED, S_STOP, S_UDRV, STEP_FIELDS, TURN_SUMS, V, ZERO, restore_unit,
)
# The buffer's layout, the decision kinds and the pending-options size, read from here by the
# step wrapper (step.py) and the tests:
from sim.games.virus_dogs.kernel.state import FRESH_STOP, KINDS, LAYOUT, MAX_PENDING, SEAT  # noqa: F401
from sim.games.virus_dogs.kernel.turn import finalize, hq_steps, play, play_game, setup
from sim.games.virus_dogs.rules import deck_counts, param_vector
from sim.kit.kernel_util import (
    StepParts, bot_param_words, fn, ix, listed, param_int, restore_snapshot, script_option, step_op,
)
from sim.kit.rng import derive
from sim.kit.step import NOWHERE, PLAY_ON, StepFunctions


# ============================================================================================
# the step contract (docs/adding-a-game.md) and the batches
# ============================================================================================
# A game in progress is its buffer: the engine state at the pending decision, the snapshot of
# the state at the start of the current unit (a pass of the turn loop, or a hard-quarantine
# step), the driver's options applied since (``script``) and the pending decision's seat, kind
# and legal options. The engine is written as nested calls (a decision is asked in the middle
# of a rule), so ``step_apply`` and ``step_play_on`` go on by restoring that snapshot and
# playing the unit again, the applied options answering the driver's decisions in it: the same
# draws, so the same unit. A driven game's turn ends are summed into its own rows of the
# ``turn_sums`` block (``turn.fresh_turn_row``), which ``step_start`` does not clear.
@fn
def begin_game(b, seed, game_index, run):
    """Seat game ``game_index`` of a run (``run``: ``run_vector``): players, rules, deck counts,
    the rotated bots and their parameters (``seat_bot``), the generator's counter. The engine
    state itself is made fresh by ``setup``; the sums are left as they are."""
    n = run[R_N]
    b[S_N] = n
    for i in range(N_PARAMS):
        b[ix(O_P + i)] = run[ix(R_P + i)]
    for c in range(N_TYPES):
        b[ix(O_COUNTS + c)] = run[ix(R_COUNTS + c)]
    b[O_RNG] = np.int64(derive(np.uint64(seed), np.uint64(game_index)))
    for s in range(n):
        j = (s + game_index) % n
        b[ix(O_POL + s)] = run[ix(R_POL + j)]
        for q in range(NB):
            b[ix(O_BP + s * NB + q)] = run[ix(R_BP + j * NB + q)]


@fn
def resume(b, stop):
    """Back to the current unit's start and on from there, the applied options answering the
    driver's decisions; with ``stop``, up to the driver's next decision (the state restored to
    it), else the bots play to the end."""
    untaken_search_seats(b)
    restore_unit(b)
    b[S_STOP] = 1 if stop else 0
    b[S_RESUMING] = 1
    b[S_UDRV] = 0
    b[S_BAD] = 0
    b[S_PSEAT] = NOX
    b[S_PKIND] = NOX
    b[S_PN] = 0
    if b[S_INHQ]:
        hq_steps(b)
        finalize(b)
    else:
        play(b)
    stopped(b)


@fn
def stopped(b):
    """After a pass: at a pending decision, the state there back from ``pending_state`` (the
    engine unwound past it) and every draw up to it summed."""
    if b[S_PSEAT] >= 0:
        restore_snapshot(b, O_PSNAP, ZERO, O_DECK + b[ix(O_PSNAP + S_DSIZE)])
        b[S_COUNTED] = b[O_GM + tb.G_DRAWS]


@fn
def untaken_search_seats(b):
    """A search seat that no search driver took (``SearchDriver.mark_search_seats`` makes its
    policy its rollout bot) plays as its rollout bot, as in the reference engine: its step
    policy becomes that bot before any bot decides (``resume``; up to the first decision, which
    ``step_start`` stops at, every decision is the driver's)."""
    for s in range(b[S_N]):
        pol = b[ix(O_SPOL + s)]
        if pol == SEARCH or pol == SEEING or pol == WEIGHTED:
            b[ix(O_SPOL + s)] = param_int(b[ix(O_BP + s * NB + B_ROLLOUT)])


@fn
def start_game(b, seed, game_index, run):
    """``step_start``: every seat's policy in ``step_policies`` (a search seat's is its rollout bot
    unless a search driver takes the seat: ``untaken_search_seats``), the policies block reading
    STEP, all seats driven, up to the first decision. The buffer is cleared up to the
    ``turn_sums`` block (the game clears its rows as it goes)."""
    b[:TURN_SUMS] = 0
    begin_game(b, seed, game_index, run)
    for s in range(b[S_N]):
        b[ix(O_SPOL + s)] = b[ix(O_POL + s)]
        b[ix(O_POL + s)] = STEP
    b[S_STEPPED] = 1
    b[S_STOP] = 1
    b[S_DRIVER] = (1 << b[S_N]) - 1
    setup(b)
    play(b)
    stopped(b)
    return NOWHERE


@fn
def apply_option(b, option):
    """``step_apply``'s scripting; the seat of the option noted with it."""
    legal = b[S_PSEAT] >= 0 and listed(b, O_POPT, b[S_PN], option)
    seat = b[S_PSEAT]
    status = script_option(b, option, legal, S_PSEAT, S_SCRIPTED, O_SCRIPT, MAX_SCRIPT)
    if status == 0:
        b[ix(O_SSEAT + b[S_SCRIPTED] - 1)] = seat
    return status


@njit(cache=True, error_model="numpy")
def step_go(b, op, x, seed, run):
    """Every step-contract call that plays on (``sim.kit.kernel_util.step_op`` over virus-dogs'
    parts), the search's batches included; ``resume_at``'s ``stop``: 0 the bots play on, else
    up to the driver's next decision. Returns ``step_apply``'s status (0 for the others)."""
    return step_op(b, op, x, seed, run, StepParts(S_PSEAT, S_DRIVER, PLAY_ON, start_game, apply_option, resume))


STEPS = StepFunctions(step_go, STEP_FIELDS)
step_start, step_pending, step_seats, step_apply, step_play_on, resume_at = STEPS.functions()


@njit(cache=True)
def step_legal(b, out):
    """The pending decision's legal options into ``out`` (canonical order: the reference
    engine's list); their count (0 once the game is over). Codes by kind: ``action`` A_*
    (A_CTL0 + target, A_DRAW + declared count, A_END in phase C); ``virus`` R_ANT, R_DECLARE,
    R_HIDE; ``mask_take`` the bit set of peeked cards taken; ``market_take`` the peeked
    index; ``give`` the card code; ``hq_target`` the seat; the yes/no kinds (``draw_another``,
    ``cough``: refuse, ``cough_virus``: antiseptic, ``refuse_exchange``) 1 then 0."""
    n = b[S_PN] if b[S_PSEAT] >= 0 else 0
    for j in range(n):
        out[j] = b[ix(O_POPT + j)]
    return n


@njit(cache=True, error_model="numpy")
def run_games(seed, start, count, run, raw):
    """Play games ``start .. start+count-1`` into the raw matrices ``raw`` (``run_fast``'s): their
    rows into ``games`` and ``seats``, the batch's sums into ``density``, ``draws`` and ``deck``.
    Each game is ``step_start`` and ``step_play_on`` with nothing applied: ``begin_game`` and
    ``play_game``, with no replay."""
    games, seats, density, draws, deck = raw
    b = np.zeros(SIZE, dtype=np.int64)
    for k in range(count):
        begin_game(b, seed, start + k, run)
        play_game(b)
        for j in range(tb.NG):
            games[j, k] = b[ix(O_GM + j)]
        for j in range(NS):  # each column's n cells are adjacent in ``seats``
            for s in range(run[R_N]):
                seats[j, k * run[R_N] + s] = b[ix(O_SM + s * NS + j)]
    copy_sums(b, O_TURNSUM, density)
    copy_sums(b, O_DRAWSUM, draws)
    copy_sums(b, O_DECKSUM, deck)


@fn
def copy_sums(b, at, out):
    """The sum block of ``b`` from ``at`` into the matrix ``out`` (row by row)."""
    width = out.shape[1]
    for r in range(out.shape[0]):
        for j in range(width):
            out[r, j] = b[ix(at + r * width + j)]


def run_vector(game, cfg) -> np.ndarray:
    """The ``RUN`` vector of a configuration: what ``begin_game`` seats every game from."""
    assert tuple(game.bot_param_names()) == BOT_PARAM_NAMES
    prm = np.array(param_vector(cfg.params), dtype=np.int64)
    counts = np.array(deck_counts(cfg.params), dtype=np.int64)
    assert len(prm) == RUN["params"].size and cfg.players <= MAX_SEATS
    assert sum(counts) - counts[V] + cfg.params["n_virus_total"] <= MAX_CARDS
    pol, words = bot_param_words(game, cfg)
    run = np.zeros(RUN.size, dtype=np.int64)
    run[R_N] = cfg.players
    RUN.view(run, "params")[:] = prm
    RUN.view(run, "deck_counts")[:] = counts
    RUN.view(run, "table_policies")[:cfg.players] = pol
    RUN.view(run, "table_bot_params").reshape(MAX_SEATS, NB)[:cfg.players] = words
    return run


def new_state() -> np.ndarray:
    """A zeroed state buffer (``LAYOUT``)."""
    return np.zeros(SIZE, dtype=np.int64)


def run_fast(game, cfg, start: int, count: int):
    """Raw result matrices for a batch from the kernel."""
    run = run_vector(game, cfg)
    n = cfg.players
    games = np.empty((tb.NG, count), dtype=np.int32)  # column-major; every cell is written
    seats = np.empty((tb.NS, count * n), dtype=np.int32)
    raw = (games, seats, *tb.new_sums())
    run_games(np.int64(cfg.seed), np.int64(start), np.int64(count), run, raw)
    return raw
