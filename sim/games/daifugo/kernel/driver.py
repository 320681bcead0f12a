"""Fast engine, the driver: a game seated from its run vector (``begin_game``), its rounds
(``setup_round``: the phases; ``play_round``: the turns, ``take_turn``; ``end_round``), the
game's end, and the batch (``run_games``). The reference engine's twin: ``reference/driver.py``.
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import bot_param_words, fn, inl, ir_inline, ix
from sim.kit.layout import Layout
from sim.kit.rng import derive, shuffle_at

from .. import rules as R
from .. import tables as T
from ..reference.bots import BOT_PARAM_NAMES
from .bots import decide_play
from .driven import begin_unit
from .movegen import copy_move, hunt_forces, legal_plays
from .outturn import start_of_turn, window_dobon, window_recycle
from .phases import (collusion_law, collusion_precept, finish_game, phase_deal, phase_draft, phase_exchange,
                     phase_king_give, phase_start, phase_trim, resolve_trickster, score_round)
from .resolve import confirm_claim, make_play, next_turn, pass_turn, place_top
from .state import (A0, BP_0, CAPTURED, DECK0, DECK_LEN, DISC, FIELD, IN_ROUND, LAWS, NB, NONE, NP, ORDER0, OWN0,
                    O_GROW, O_RROWS, O_SROWS, POL0, PV, RC_FORCED_JOKERS, RC_GUARD_HIT, RC_PENDING, RC_PLAYS, RDECK0,
                    RDECK_LEN, RNG, ROUND, SIZE, STATE_SIZE, TK, TURN, in_play, n_active)

# ---- one run's constant inputs (``run_vector``): what ``begin_game`` seats a game from -------------
RUN = Layout("daifugo run")
R_N = RUN.scalar("players")
R_P = RUN.block("params", R.N_PARAMS, "rules.param_vector")
R_DECK_LEN = RUN.scalar("rule_deck_size")
R_DECK = RUN.block("rule_deck", R.N_RULE_CARDS, "rules.rule_deck: the rule cards before the shuffle, ascending")
R_POL = RUN.block("table_policies", R.MAX_PLAYERS, "policy of table position j (Game.bot_matrix)")
R_BP = RUN.block("table_bot_params", R.MAX_PLAYERS * NB, "bot parameters of table position j at j * NB (bot_param_words)")
RW, SW, GW = T.ROUND_ROW.size, T.SEAT_ROW.size, T.GAME_ROW.size


@fn
def begin_game(b, seed, game_index, run):
    """Seat game ``game_index`` of a run (``run``: ``run_vector``): a fresh state and result
    rows, players, rules, the rule deck, the bots rotated into the seats (``seat_bot``) with
    their parameters, the generator's counter; then §2.2: the rule deck is shuffled once."""
    n = run[R_N]
    rounds = run[R_P + R.P_ROUNDS]
    for i in range(STATE_SIZE):
        b[ix(i)] = 0
    for i in range(GW):
        b[ix(O_GROW + i)] = 0
    for i in range(rounds * RW):
        b[ix(O_RROWS + i)] = 0
    for i in range(n * SW):
        b[ix(O_SROWS + i)] = 0
    for c in range(R.N_RULE_CARDS + 1):
        b[ix(OWN0 + c)] = -1
    b[NP] = n
    for i in range(R.N_PARAMS):
        b[ix(PV + i)] = run[ix(R_P + i)]
    for q in range(n):
        j = (q + game_index) % n
        b[ix(POL0 + q)] = run[ix(R_POL + j)]
        for k in range(NB):
            b[ix(BP_0 + q * NB + k)] = run[ix(R_BP + j * NB + k)]
    b[RNG] = np.int64(derive(np.uint64(seed), np.uint64(game_index)))  # = sim.kit.rng.game_state(seed, i)
    nd = run[R_DECK_LEN]
    b[RDECK_LEN] = nd
    for i in range(nd):
        b[ix(RDECK0 + i)] = run[ix(R_DECK + i)]
        b[ix(DECK0 + i)] = run[ix(R_DECK + i)]
    shuffle_at(b, RNG, b, DECK0, nd)  # start_game: the rule deck, shuffled once per game (§2.2)
    b[DECK_LEN] = nd


@fn
def setup_round(b, n):
    """§2.3 phases 1-7, as the reference engine's ``phase_*`` methods."""
    phase_deal(b, n)
    phase_draft(b, n)
    if b[ROUND] > 1:
        phase_exchange(b, n)
        phase_king_give(b, n)
    resolve_trickster(b)  # §2.8 / DEC-4: 05, 12 law, 12 precept
    if (b[LAWS] >> R.C12_COLLUSION) & 1:
        collusion_law(b, n)
    elif b[OWN0 + R.C12_COLLUSION] >= 0:
        collusion_precept(b, n)
    phase_trim(b, n)
    phase_start(b, n)


@ir_inline
def play_game(b, n, rounds):
    """The game from where it stands (a round's setup, or its turns: ``IN_ROUND``) to its end:
    each round's setup, play and scoring, then ``finish_game``. A driven game returns early
    once its pending decision is captured (``driven.begin_unit``)."""
    while b[IN_ROUND] or b[ROUND] < rounds:
        if not b[IN_ROUND]:
            if not begin_unit(b, True):
                return
            setup_round(b, n)
            b[IN_ROUND] = 1
        if not play_round(b, n):
            return
        score_round(b, n, b[ROUND] == rounds)
        b[IN_ROUND] = 0
    finish_game(b, n)


@ir_inline
def play_round(b, n):
    """§2.11-§2.13: turns until at most one player holds cards (or the play-count guard); False
    when a driven game's pending decision was captured (the round is left unfinished)."""
    live01, live24, live25 = in_play(b, R.C01_RECYCLE), in_play(b, R.C24_LOOPHOLE), in_play(b, R.C25_DOBON)
    while n_active(b, n) > 1:
        if not begin_unit(b, False):
            return False
        if b[RC_PENDING]:
            b[RC_PENDING] = 0
            if live01:
                window_recycle(b, n, b[TURN])
        if b[RC_PLAYS] >= b[PV + R.P_MAX_PLAYS]:
            loop_guard(b, n)
            break
        take_turn(b, n, b[TURN], live01, live24, live25)
    if b[CAPTURED]:
        return False
    end_round(b, n)
    return True


@inl
def turn_moves(b, p):
    """The legal plays of p's turn into the move table: their count, and whether D10 forces the
    one Joker single (§4.11: then it is the only move, and p may not pass)."""
    nm = legal_plays(b, p)
    if hunt_forces(b, p, nm):
        copy_move(b, nm - 1, 0)
        return 1, True
    return nm, False


@inl
def take_turn(b, n, p, live01, live24, live25):
    """§2.11.1-2: the leader must play; a follower plays a beating combination or passes
    (after the turn-start windows of cards 25, 24, 01); S11: the dobon window after a play."""
    if (live01 or live24 or live25) and start_of_turn(b, n, p, live01, live24, live25):
        return
    nm, forced = turn_moves(b, p)
    can_pass = b[TK] != NONE and not forced
    if forced:
        b[RC_FORCED_JOKERS] += 1
    m = decide_play(b, n, p, nm, can_pass)
    if m < 0:
        pass_turn(b, n, p)
    elif make_play(b, n, m, p) and not (live25 and window_dobon(b, n, p)):
        next_turn(b, n, p)


@inl
def loop_guard(b, n):
    """DEC-18: the play-count guard ranks the remaining players in a random order (a pending
    armed-force claim is confirmed first, as at every round end)."""
    confirm_claim(b, n)
    k = 0
    for q in range(n):
        if b[ix(A0 + q)]:
            b[ix(ORDER0 + k)] = q
            k += 1
    shuffle_at(b, RNG, b, ORDER0, k)
    b[RC_GUARD_HIT] = 1
    for i in range(k):
        q = b[ix(ORDER0 + i)]
        if b[ix(A0 + q)]:
            b[ix(A0 + q)] = 0
            place_top(b, n, q)


@inl
def end_round(b, n):
    """§2.13: a pending armed-force claim is confirmed; the last player holding cards takes the
    one open position; the field goes to the discard pile."""
    confirm_claim(b, n)
    for q in range(n):
        if b[ix(A0 + q)]:
            b[ix(A0 + q)] = 0
            place_top(b, n, q)
    b[DISC] |= b[FIELD]
    b[FIELD] = 0


@fn
def run_games(b, seed, start, count, run, g, r, s):
    """Games ``start .. start+count-1`` of the run into the raw rows ``g``, ``r``, ``s``
    (tables.alloc), each played in the buffer ``b``: ``begin_game``, every round's setup,
    play and scoring, ``finish_game`` (``play_game``)."""
    n = run[R_N]
    rounds = run[R_P + R.P_ROUNDS]
    for k in range(count):
        begin_game(b, seed, start + k, run)
        play_game(b, n, rounds)
        for i in range(GW):
            g[k, i] = b[ix(O_GROW + i)]
        for j in range(rounds):
            for i in range(RW):
                r[k, j, i] = b[ix(O_RROWS + j * RW + i)]
        for q in range(n):
            for i in range(SW):
                s[k, q, i] = b[ix(O_SROWS + q * SW + i)]


def run_vector(game, cfg) -> np.ndarray:
    """The ``RUN`` vector of a configuration: what ``begin_game`` seats every game from."""
    assert tuple(game.bot_param_names()) == BOT_PARAM_NAMES
    pol, words = bot_param_words(game, cfg)
    assert len(pol) == cfg.players and words.shape[1] == NB
    run = np.zeros(RUN.size, dtype=np.int64)
    run[R_N] = cfg.players
    RUN.view(run, "params")[:] = R.param_vector(cfg)
    deck = R.rule_deck(cfg)
    run[R_DECK_LEN] = len(deck)
    RUN.view(run, "rule_deck")[:len(deck)] = deck
    RUN.view(run, "table_policies")[:len(pol)] = pol
    RUN.view(run, "table_bot_params").reshape(R.MAX_PLAYERS, NB)[:len(pol)] = words
    return run


def run_kernel(game, cfg, start, count, g, r, s) -> None:
    """Fill the raw rows of games start..start+count-1 with the compiled engine."""
    run = run_vector(game, cfg)
    b = np.zeros(SIZE, dtype=np.int64)
    run_games(b, np.uint64(cfg.seed), np.int64(start), np.int64(count), run, g, r, s)
