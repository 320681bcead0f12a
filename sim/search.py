"""Search players over the step contract: determinized flat Monte Carlo (PIMC), one
implementation for every game.

At each of its decisions a search seat samples ``worlds`` determinizations of what it cannot
know (the game's ``determinize``: a re-deal of the hidden cards consistent with the seat's
observations, checked by replaying to the same decision), plays each legal option out on
copies of every world with the rollout bots (the game's ``rollout``: apply the option, then
the seated bots play to the end, the search seat by its ``rollout`` bot), and takes the option
with the best mean ``score`` (ties: the earlier option in the canonical order).

Budget: ``budget`` rollouts a decision, spread evenly over the legal options; ``worlds``
determinizations (0: one world per rollout of each option, i.e. ``budget // options``), each
option played ``budget // (worlds * options)`` times (at least once) in each world.

Randomness: the search draws only from its own counter-based stream, ``search_key(run seed,
game, seat, decision number)``; a determinized world also plays on with a generator counter
from that stream, never from the game's, so a game with search seats is the same game for any
worker count and batch size, and the game's own draws follow its protocol unchanged.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.rng_compiled import derive, mix64

SEARCH_SALT = np.uint64(0x5EA4C4B075EA4C4B)
BOT_ANSWER = -3  # a game's ``search_option`` may answer this: the seat's rollout bot decides (``step_apply``)
MAX_TRIES = 16  # re-deals tried for one world before it is given up (counted in ``stats``)
# stats slots (``decide``'s ``stats`` array, summed over decisions)
ST_DECISIONS, ST_WORLDS, ST_REJECTED, ST_ROLLOUTS, ST_EMPTY, ST_ROLLOUT_DECISIONS = range(6)
N_STATS = 6
STAT_NAMES = ("decisions", "worlds", "rejected", "rollouts", "no_world", "rollout_decisions")


@njit(cache=True)
def search_key(run_seed, game_index, seat, decision):
    """The search stream of ``seat``'s decision number ``decision`` (the game's count of
    decisions asked so far) in game ``game_index`` of the run seeded ``run_seed``."""
    g = derive(np.uint64(run_seed) ^ SEARCH_SALT, np.uint64(game_index))
    return mix64(g ^ derive(np.uint64(seat), np.uint64(decision)))


@njit(cache=True)
def sub_key(key, i):
    """The ``i``-th draw-free sub-stream of ``key`` (a world's re-deal, its attempts)."""
    return derive(np.uint64(key), np.uint64(i))


@njit(inline="always")
def decide(b, seat, key, budget, worlds, objective, opts, legal, copy, determinize, rollout, score, stats):
    """The search seat's option for the pending decision of ``b`` (``b`` is not changed).

    ``opts``: room for the game's most legal options (``Step.max_options``); ``legal(b, out) -> n``:
    the step contract's ``step_legal``; ``copy(dst, src)``: what play
    goes on from, from one copy of the game to another; ``determinize(w, b, seat, key)
    -> bool``: ``w`` (a copy of ``b``) re-dealt from the seat's point of view and brought back
    to the same decision, False if the re-deal does not lead there; ``rollout(w, option)``:
    answer with ``option`` and play the game to its end, returning the decisions the engine
    played; ``score(w, seat, objective) -> float``.
    """
    n = legal(b, opts)
    stats[ST_DECISIONS] += 1
    if n <= 1:
        return opts[0]
    nw = worlds if worlds > 0 else max(1, budget // n)
    reps = max(1, budget // (nw * n))
    total = np.zeros(n)
    count = np.zeros(n)
    world = b.copy()
    w = b.copy()
    for d in range(nw):
        ok = False
        for attempt in range(MAX_TRIES):
            copy(world, b)
            if determinize(world, b, seat, sub_key(key, d * MAX_TRIES + attempt)):
                ok = True
                break
            stats[ST_REJECTED] += 1
        if not ok:
            continue
        stats[ST_WORLDS] += 1
        for o in range(n):
            for _ in range(reps):
                copy(w, world)
                stats[ST_ROLLOUT_DECISIONS] += rollout(w, opts[o])
                total[o] += score(w, seat, objective)
                count[o] += 1
                stats[ST_ROLLOUTS] += 1
    best = 0
    best_mean = -1e300
    for o in range(n):
        if count[o] > 0 and total[o] / count[o] > best_mean:
            best_mean = total[o] / count[o]
            best = o
    if best_mean == -1e300:
        stats[ST_EMPTY] += 1  # no world could be re-dealt: the first option
    return opts[best]


@njit(inline="always")
def decide_weighted(b, seat, key, budget, worlds, objective, opts, legal, copy, determinize, weight, rollout, score,
                    stats):
    """``decide`` with worlds weighed by how likely they make what the opponents did: each world's
    rollouts count ``weight(world, b, seat)`` (the world replayed to the pending decision; the
    likelihood of the opponents' observed plays in it, read from what the seat sees and the
    world alone), and the option with the best weighted mean score is taken. The worlds are
    still dealt uniformly: this is importance weighting of the same re-deals."""
    n = legal(b, opts)
    stats[ST_DECISIONS] += 1
    if n <= 1:
        return opts[0]
    nw = worlds if worlds > 0 else max(1, budget // n)
    reps = max(1, budget // (nw * n))
    total = np.zeros(n)
    count = np.zeros(n)
    world = b.copy()
    w = b.copy()
    for d in range(nw):
        ok = False
        for attempt in range(MAX_TRIES):
            copy(world, b)
            if determinize(world, b, seat, sub_key(key, d * MAX_TRIES + attempt)):
                ok = True
                break
            stats[ST_REJECTED] += 1
        if not ok:
            continue
        stats[ST_WORLDS] += 1
        wt = weight(world, b, seat)
        for o in range(n):
            for _ in range(reps):
                copy(w, world)
                stats[ST_ROLLOUT_DECISIONS] += rollout(w, opts[o])
                total[o] += wt * score(w, seat, objective)
                count[o] += wt
                stats[ST_ROLLOUTS] += 1
    best = 0
    best_mean = -1e300
    for o in range(n):
        if count[o] > 0 and total[o] / count[o] > best_mean:
            best_mean = total[o] / count[o]
            best = o
    if best_mean == -1e300:
        stats[ST_EMPTY] += 1  # no world could be re-dealt (or every weight was 0): the first option
    return opts[best]


def ask(search_decide, b, seat, seed, game_index, decision, params, opts, stats) -> int:
    """A game's cached ``search_decide`` (``decide`` with its parts) called from Python for the
    pending ``seat`` of ``b``: its ``decision``-th decision in game ``game_index`` of the run
    seeded ``seed``; ``params``: the seat's budget, determinizations and objective."""
    key = search_key(np.uint64(seed), np.int64(game_index), np.int64(seat), np.int64(decision))
    budget, worlds, objective = (np.int64(p) for p in params)
    return int(search_decide(b, np.int64(seat), np.uint64(key), budget, worlds, objective, opts, stats))


@njit
def copy_loop(copy, dst, src, times):
    """``copy(dst, src)`` ``times`` times (the bench's copy time)."""
    for _ in range(times):
        copy(dst, src)


@njit
def rollout_loop(copy, rollout, dst, src, option, times):
    """``times`` rollouts of ``option`` from ``src``, each on a fresh copy; the decisions played."""
    played = 0
    for _ in range(times):
        copy(dst, src)
        played += rollout(dst, option)
    return played
