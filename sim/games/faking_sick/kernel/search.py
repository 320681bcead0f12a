"""Faking-sick's part of the search players (``sim.kit.search``): what a seat cannot know, re-dealt.

A driven game goes on from the snapshot of its current turn's start (``kernel.resume``), so a
world is made there: the hidden cards of the snapshot (the opponents' hands, the draw pile,
the opponents' face-down banned cards and the unused pool, FS-11.3) are dealt again, then the
turn is replayed with the options already applied in it, and the world is kept only if the seat
then sees what it sees in the game (``same_view``: the pending decision, its own hand and banned
cards, every public count and zone, FS-11.1). What the seat knows is kept where it is:

- the cards the opponents played in the turn so far (public) stay in their hands at the snapshot;
- the cards the seat gained in the turn so far are the top cards of the snapshot's pile;
- a banned slot never holds a virus (FS-8.3) nor a type a failed call proved not banned for its
  owner (``cleared``).

The hidden cards are counted by type from the seat's point of view (all cards of a type less
those it holds or sees), sorted, and shuffled with the search stream, so a world depends on the
seat's observations and the stream alone. The re-deal forgets what the seat pushed to an
opponent earlier (a world may give that opponent other cards) and does not weigh worlds by how
likely they make the opponents' past plays.

The all-seeing seat (``bots.SEEING``, ``sim.kit.search.MODE_SEEING``) searches the true game instead
(``reveal``): every hand and banned card as it is, the cards drawn in the turn where they were;
only the chance still to come is drawn again from the search stream (the order of the rest of
the draw pile, the generator of later reshuffles), so it sees the hidden cards but not the
future.

The weighted seat (``bots.WEIGHTED``, ``sim.kit.search.MODE_WEIGHTED``) deals its worlds as the
search does and weighs each by ``likelihood``: how likely the world makes the opponents' plays
so far if each opponent played one of its own banned types (a bluff, FS-5) with chance
``BLUFF_EPSILON`` per play, its other types freely (an epsilon-softened honest player, tempered:
``BLUFF_EPSILON`` is 0.8, though the callers' plays fit about 0.23).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import fn, ir_inline, ix, same_slots
from sim.kit.rng_compiled import mixed_counter, shuffle_at
from sim.kit.search import SearchDriver, SearchParts, decide
from sim.kit.step import GO_RESUME, PLAY_ON, STOP_AT_NEXT

from .. import tables as T
from ..reference.bots import SEARCH, SEEING, WEIGHTED
from . import STEPS, batch_sums, new_state, run_vector, step_go, step_legal
from .state import (
    APPLIED, BANNED, BP_BUDGET, BP_HORIZON, BP_OBJECTIVE, BP_ROLLOUT, BP_WORLDS, CLEARED, DHI, DLO,
    FIXED_STOP, GAME_ROW, HAND, HS, LIMBO, MUTABLE, ND, PKIND, PLAY_SUMS, POOL_SIZE, PSEAT, REVEALED, RNG,
    ROLLOUT_END, SCRIPT, SEARCH_FIELDS, SEAT_ROWS, SNAP, STEPPED, STEP_POLICY, TURNS, bot_param, game_col,
    seat_col,
)
from ..rules import K_BPP, K_N, MAX_DECK, MAX_OPTIONS, MAX_PLAYERS, MAX_POOL, NT, VIR

OBJ_WIN, OBJ_PLACEMENT = 0, 1
WORLD_SALT = np.uint64(0x77D1DE5EED000001)
G_WINNER = T.G["winner"]
G_DECISIONS = T.G["decisions"]
G_CARDS_DRAWN = T.G["cards_drawn"]
# likelihood: the chance that an opponent's play is of one of its banned types, tempered: at 0.5 the
# weighted search is weaker than the honest one against callers, at 0.8 as strong (README, Weighted worlds)
BLUFF_EPSILON = 0.8
S_FINAL = T.S["final_hand"]
P_PLAYS = T.P["plays"]
# public columns of the games row (FS-11.1: plays, calls and their outcomes, draws, reveals)
PUBLIC_GAME = np.array([T.G[k] for k in (
    "plays", "bluffs_caught", "call_requests", "calls_made", "calls_succeeded", "calls_failed", "cards_pushed",
    "reveals", "viruses_skipped", "reshuffles", "draws", "penalty_draws", "cards_drawn", "attacks_played",
    "decisions")], dtype=np.int64)


@fn
def snap(x):
    """The snapshot slot of buffer slot ``x`` (MUTABLE <= x < FIXED_STOP)."""
    return ix(SNAP + x - MUTABLE)


@ir_inline
def determinize(w, b, seat, key):
    """``w`` (a copy of ``b``) with the snapshot's hidden cards dealt again from the stream
    ``key`` and replayed to the pending decision; False unless the seat then sees the same."""
    n = b[K_N]
    k = b[K_BPP]
    pool_at = SNAP + FIXED_STOP - MUTABLE
    pool_n = w[snap(POOL_SIZE)]
    pile_at = pool_at + pool_n
    pile_n = w[snap(ND)]
    # the cards of each type the seat cannot place, and the public plays of this turn so far
    count = np.zeros(NT, dtype=np.int64)
    played = np.zeros((MAX_PLAYERS, NT), dtype=np.int64)
    gained = np.zeros(NT, dtype=np.int64)
    free = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for t in range(NT):
        for o in range(n):
            played[o, t] = b[ix(PLAY_SUMS + (t * MAX_PLAYERS + o) * T.NP + P_PLAYS)] - w[
                snap(PLAY_SUMS + (t * MAX_PLAYERS + o) * T.NP + P_PLAYS)]
        gained[t] = max(0, b[ix(HAND + seat * NT + t)] - w[snap(HAND + seat * NT + t)] + played[seat, t])
    for o in range(n):
        if o == seat:
            continue
        free[o] = w[snap(HS + o)]
        for t in range(NT):
            count[t] += w[snap(HAND + o * NT + t)] - played[o, t]
            free[o] -= played[o, t]
        if free[o] < 0:
            return False
    hidden_slots = 0
    for i in range(pool_n):
        c = w[ix(pool_at + i)]
        if c >= 0 and (i >= n * k or i // k != seat):
            count[c] += 1
            hidden_slots += 1
    n_gained = 0
    for t in range(NT):
        count[t] -= gained[t]
        n_gained += gained[t]
    if n_gained > pile_n:
        return False
    for i in range(pile_n):
        count[w[ix(pile_at + i)]] += 1
    # sorted, shuffled with the stream, dealt: banned slots first, then hands, then the pile
    cards = np.empty(MAX_DECK + MAX_POOL, dtype=np.int64)
    m = 0
    for t in range(NT):
        if count[t] < 0:
            return False
        for _ in range(count[t]):
            cards[m] = t
            m += 1
    need = hidden_slots + pile_n - n_gained
    for o in range(n):
        need += free[o]
    if m != need:
        return False
    r = np.empty(1, dtype=np.uint64)
    r[0] = key
    shuffle_at(r, 0, cards, 0, m)
    j = 0
    for i in range(pool_n):
        if w[ix(pool_at + i)] < 0 or (i < n * k and i // k == seat):
            continue
        owner = i // k if i < n * k else -1
        at = j
        while at < m and (cards[at] == VIR or (owner >= 0 and w[snap(CLEARED + owner * NT + cards[at])] == 1)):
            at += 1
        if at == m:
            return False
        cards[j], cards[at] = cards[at], cards[j]
        w[ix(pool_at + i)] = cards[j]
        j += 1
    for o in range(n):
        if o == seat:
            continue
        for t in range(NT):
            w[snap(HAND + o * NT + t)] = played[o, t]
        for _ in range(free[o]):
            w[snap(HAND + o * NT + cards[j])] += 1
            j += 1
    for i in range(pile_n - n_gained):
        w[ix(pile_at + i)] = cards[j]
        j += 1
    i = pile_n
    for t in range(NT):  # the seat's own draws of this turn, from the top (the top is last)
        for _ in range(gained[t]):
            i -= 1
            w[ix(pile_at + i)] = t
    w[snap(RNG)] = mixed_counter(np.uint64(key) ^ WORLD_SALT)
    w[PSEAT] = -1
    step_go(w, GO_RESUME, STOP_AT_NEXT, np.uint64(0), w)  # ``run`` is not read
    return same_view(w, b, seat)


@ir_inline
def reveal(w, b, seat, key):
    """``w`` (a copy of ``b``) as the true game at the turn's start, only the chance still to
    come drawn again from the stream ``key`` (the all-seeing seat, bots.SEEING): every hand and
    the banned pool stay as they are, the draw pile below the cards drawn in the turn so far is
    shuffled, the world's generator goes on from the stream. Replayed to the pending decision;
    False unless every hand and banned card is then as in ``b`` and the seat sees the same."""
    pile_at = SNAP + FIXED_STOP - MUTABLE + w[snap(POOL_SIZE)]
    drawn = b[ix(GAME_ROW + G_CARDS_DRAWN)] - w[snap(GAME_ROW + G_CARDS_DRAWN)]
    r = np.empty(1, dtype=np.uint64)
    r[0] = key
    shuffle_at(r, 0, w, pile_at, max(0, w[snap(ND)] - drawn))
    w[snap(RNG)] = mixed_counter(np.uint64(key) ^ WORLD_SALT)
    w[PSEAT] = -1
    step_go(w, GO_RESUME, STOP_AT_NEXT, np.uint64(0), w)  # ``run`` is not read
    return same_cards(w, b) and same_view(w, b, seat)


@fn
def same_cards(w, b):
    """Does every seat hold in ``w`` the cards and banned cards it holds in ``b``?"""
    return same_slots(w, b, HAND, b[K_N] * NT) and same_slots(w, b, BANNED, b[POOL_SIZE])


@njit(cache=True, error_model="numpy")
def likelihood(w, b, seat):
    """How likely world ``w`` makes the opponents' public plays so far (``b``'s play counts):
    ``BLUFF_EPSILON`` to the power of their plays of the types the world bans for them (each
    banned type counted once per opponent)."""
    n = b[K_N]
    k = b[K_BPP]
    bluffs = 0
    for o in range(n):
        if o == seat:
            continue
        for i in range(k):
            t = w[ix(BANNED + o * k + i)]
            dup = False
            for j in range(i):
                dup = dup or w[ix(BANNED + o * k + j)] == t
            if t >= 0 and not dup:
                bluffs += b[ix(PLAY_SUMS + (t * MAX_PLAYERS + o) * T.NP + P_PLAYS)]
    return BLUFF_EPSILON ** bluffs


@fn
def same_view(w, b, seat):
    """Does ``seat`` see the same in ``w`` as in ``b`` (FS-11.1 public, FS-11.2 its own)?"""
    if w[PSEAT] != b[PSEAT] or w[PKIND] != b[PKIND]:
        return False
    n = b[K_N]
    for s in (ND, DLO, DHI, LIMBO, TURNS, POOL_SIZE):
        if w[s] != b[s]:
            return False
    for c in PUBLIC_GAME:
        if w[ix(GAME_ROW + c)] != b[ix(GAME_ROW + c)]:
            return False
    if not same_slots(w, b, b[DLO], b[DHI] - b[DLO]):
        return False
    for t in range(NT):
        if w[ix(REVEALED + t)] != b[ix(REVEALED + t)] or w[ix(HAND + seat * NT + t)] != b[ix(HAND + seat * NT + t)]:
            return False
        for o in range(n):
            if w[ix(CLEARED + o * NT + t)] != b[ix(CLEARED + o * NT + t)]:
                return False
            x = PLAY_SUMS + (t * MAX_PLAYERS + o) * T.NP + P_PLAYS
            if w[ix(x)] != b[ix(x)]:
                return False
    for o in range(n):
        if w[ix(HS + o)] != b[ix(HS + o)]:
            return False
    return same_slots(w, b, BANNED + seat * b[K_BPP], b[K_BPP])


@njit(cache=True, error_model="numpy")
def resume_copy(dst, src):
    """Copy into ``dst`` (a copy of the same game) what play goes on from: the step fields and
    the used part of the snapshot (``resume`` rebuilds the rest); about a tenth of the buffer."""
    used = (FIXED_STOP - MUTABLE) + src[snap(POOL_SIZE)] + src[snap(ND)] + src[snap(DHI)] - src[snap(DLO)]
    for i in range(STEPPED, SNAP + used):
        dst[ix(i)] = src[ix(i)]


@ir_inline
def rollout(w, option):
    """Answer the pending decision with ``option`` (legal: the seat sees the same decision in
    every world) and let the bots, the search seat's rollout bot included, play to the end (or,
    with the seat's ``horizon``, that many turns on, then end as at the turn cap);
    ``w`` needs only what ``resume_copy`` copies. Returns the decisions played from the turn's start."""
    horizon = np.int64(bot_param(w, w[PSEAT], BP_HORIZON))
    w[ROLLOUT_END] = w[snap(TURNS)] + horizon if horizon > 0 else 0
    w[ix(SCRIPT + w[APPLIED])] = option
    w[APPLIED] += 1
    step_go(w, GO_RESUME, PLAY_ON, np.uint64(0), w)
    return w[ix(GAME_ROW + G_DECISIONS)] - w[snap(GAME_ROW + G_DECISIONS)]


@njit(cache=True, error_model="numpy")
def score(w, seat, objective):
    """1 for a win, else 0; placement: the share of opponents left with more cards (ties half)."""
    if objective == OBJ_WIN:
        return 1.0 if w[game_col(G_WINNER)] == seat else 0.0
    n = w[K_N]
    mine = w[seat_col(seat, S_FINAL)]
    better = 0.0
    for o in range(n):
        if o != seat:
            theirs = w[seat_col(o, S_FINAL)]
            better += 1.0 if theirs > mine else (0.5 if theirs == mine else 0.0)
    return better / (n - 1)


PARTS = SearchParts(step_legal, resume_copy, determinize, reveal, likelihood, rollout, score)


@njit(cache=True)
def search_decide(b, seat, key, plan, opts, stats):
    """``sim.kit.search.decide`` with faking-sick's parts, honest, all-seeing or weighted by ``plan.mode``."""
    return decide(b, seat, key, plan, opts, PARTS, stats)


def collect(g, k, arr):
    """Game ``k``'s rows and its sums into the tables.py arrays ``arr``."""
    n = int(g[K_N])
    arr["games"][k] = g[GAME_ROW:GAME_ROW + T.NG]
    arr["seats"][k, :n] = g[SEAT_ROWS:SEAT_ROWS + n * T.NS].reshape(n, T.NS)
    for name, total in batch_sums(g, n).items():
        arr[name] += total


DRIVER = SearchDriver(
    steps=STEPS, search_decide=search_decide, fields=SEARCH_FIELDS, new_state=new_state, run_vector=run_vector,
    pending_seat=PSEAT, max_options=MAX_OPTIONS, bot_param=bot_param,
    param_codes=(BP_BUDGET, BP_WORLDS, BP_ROLLOUT, BP_OBJECTIVE),
    decision_number=lambda b, seat: b[GAME_ROW + G_DECISIONS], collect=collect,
    policies=STEP_POLICY, players=K_N, search_policies=(SEARCH, SEEING, WEIGHTED))
search_option, advance, start_search_game, run_search_games, search_batch, world_mode = DRIVER.functions()
