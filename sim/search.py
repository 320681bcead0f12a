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

The driver (``SearchDriver``) is the same for every game: a game supplies only its parts (the
compiled ``search_decide``, ``decide`` with its ``determinize``, ``reveal``, ``likelihood``,
``resume_copy``, ``rollout`` and ``score``; its step functions, where its buffer keeps the pending seat, its bot parameters and
decision count, its search seats and rows).

Randomness: the search draws only from its own counter-based stream, ``search_key(run seed,
game, seat, decision number)``; a determinized world also plays on with a generator counter
from that stream, never from the game's, so a game with search seats is the same game for any
worker count and batch size, and the game's own draws follow its protocol unchanged.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.rng_compiled import derive, mix64
from sim.step import BOT_ANSWER  # noqa: F401  (a game's ``unsearched`` may answer it: the seat's rollout bot decides)

SEARCH_SALT = np.uint64(0x5EA4C4B075EA4C4B)
NOT_FORCED = -(1 << 62)  # a game's ``unsearched``: the search weighs the pending decision
MAX_TRIES = 16  # re-deals tried for one world before it is given up (counted in ``stats``)
# stats slots (``decide``'s ``stats`` array, summed over decisions)
ST_DECISIONS, ST_WORLDS, ST_REJECTED, ST_ROLLOUTS, ST_EMPTY, ST_ROLLOUT_DECISIONS = range(6)
N_STATS = 6
STAT_NAMES = ("decisions", "worlds", "rejected", "rollouts", "no_world", "rollout_decisions")
# a search seat's worlds (``decide``'s ``mode``): re-dealt (the search), the true game (the all-seeing
# search, ``sim.search_params.SEEING``), re-dealt and weighed (``sim.search_params.WEIGHTED``)
MODE_HONEST, MODE_SEEING, MODE_WEIGHTED = 0, 1, 2


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
def decide(b, seat, key, budget, worlds, objective, opts, mode, legal, copy, determinize, reveal, likelihood, rollout,
           score, stats):
    """The search seat's option for the pending decision of ``b`` (``b`` is not changed), its
    worlds those of ``mode``: ``MODE_HONEST`` re-dealt by ``determinize``, every world weighing
    the same; ``MODE_SEEING`` the true game (``reveal``, the all-seeing seat); ``MODE_WEIGHTED``
    re-dealt, each world's rollouts counting ``likelihood(world, b, seat)``: how likely the world
    (replayed to the pending decision) makes what the opponents did, read from what the seat
    sees and the world alone. The option with the best (weighted) mean score is taken. Weighted
    worlds are still dealt uniformly: importance weighting of the same re-deals.

    ``opts``: room for the game's most legal options (``Step.max_options``); ``legal(b, out) -> n``:
    the step contract's ``step_legal``; ``copy(dst, src)``: what play
    goes on from, from one copy of the game to another; ``determinize(w, b, seat, key)
    -> bool``: ``w`` (a copy of ``b``) re-dealt from the seat's point of view and brought back
    to the same decision, False if the re-deal does not lead there; ``reveal(w, b, seat, key)
    -> bool``: the same with the hidden cards where they are, only the chance still to come drawn
    again; ``rollout(w, option)``: answer with ``option`` and play the game to its end,
    returning the decisions the engine played; ``score(w, seat, objective) -> float``. A game
    compiles this once, with its parts, as its ``search_decide``: numba generates the engine the
    parts reach again for every compiled function that reaches it, so one entry for the three
    modes compiles it once. A game without an all-seeing or weighted seat may pass
    ``determinize`` and ``unit_weight`` in their places.
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
            k = sub_key(key, d * MAX_TRIES + attempt)
            if reveal(world, b, seat, k) if mode == MODE_SEEING else determinize(world, b, seat, k):
                ok = True
                break
            stats[ST_REJECTED] += 1
        if not ok:
            continue
        stats[ST_WORLDS] += 1
        wt = likelihood(world, b, seat) if mode == MODE_WEIGHTED else 1.0
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


@njit(cache=True)
def unit_weight(world, b, seat):
    """Every world weighs 1 (``decide``'s ``likelihood`` for a game without a weighted seat)."""
    return 1.0


def ask(search_decide, b, seat, seed, game_index, decision, params, mode, opts, stats) -> int:
    """A game's cached ``search_decide`` (``decide`` with its parts) called from Python for the
    pending ``seat`` of ``b``: its ``decision``-th decision in game ``game_index`` of the run
    seeded ``seed``; ``params``: the seat's budget, determinizations and objective; ``mode``:
    its worlds (``MODE_*``)."""
    key = search_key(np.uint64(seed), np.int64(game_index), np.int64(seat), np.int64(decision))
    budget, worlds, objective = (np.int64(p) for p in params)
    return int(search_decide(b, np.int64(seat), np.uint64(key), budget, worlds, objective, opts, np.int64(mode),
                             stats))


def seat_mode(seeing, weighted, seat) -> int:
    """The worlds (``MODE_*``) of search seat ``seat`` from the bit masks of the all-seeing and
    the weighted seats."""
    if seeing >> seat & 1:
        return MODE_SEEING
    return MODE_WEIGHTED if weighted >> seat & 1 else MODE_HONEST


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


class SearchDriver:
    """The search players' driver over one game's parts: a table's games driven through the
    step contract, the search seats' decisions by the compiled search (``decide``).

    ``steps``: the game's ``sim.step.StepFunctions``; ``search_decide(b, seat, key, budget,
    worlds, objective, opts, mode, stats)``: ``decide`` with the game's parts, compiled (and
    cached) in the game's module; ``new_state()``, ``run_vector(game, cfg)``: the kernel's;
    ``pending_seat``: the buffer's pending-seat slot; ``max_options``: ``Step.max_options``;
    ``bot_param(b, seat, k)`` and ``param_codes``: the seat's budget, determinizations and
    objective; ``decision_number(b, seat)``: the pending decision's number in the search stream;
    ``search_seats(b)``: after ``step_start``, the search seats' bit mask (their bots in the
    step policies made their rollout bots); ``collect(b, k, raw)``: the finished game's rows
    into game ``k`` of the batch arrays ``raw`` (``Game.new_arrays``); ``unsearched(b, opts)``
    (optional): the pending decision's option when the search does not weigh it (``BOT_ANSWER``
    included), else ``NOT_FORCED``; ``batch_rest(raw)`` (optional): the further ``step_go``
    arguments of a batch's own calls; ``world_mode(b, seat)`` (optional): the worlds
    (``MODE_*``) the pending search seat plays in, where a game has an all-seeing or a weighted
    seat (``seat_mode``; default ``MODE_HONEST``)."""

    def __init__(self, *, steps, search_decide, new_state, run_vector, pending_seat, max_options, bot_param,
                 param_codes, decision_number, search_seats, collect, unsearched=None, batch_rest=None,
                 world_mode=None):
        self.steps, self.search_decide, self.new_state, self.run_vector = steps, search_decide, new_state, run_vector
        self.world_mode = world_mode or (lambda b, seat: MODE_HONEST)
        self.pending_seat, self.max_options = pending_seat, max_options
        self.bot_param, self.param_codes, self.decision_number = bot_param, param_codes, decision_number
        self.search_seats, self.collect, self.unsearched = search_seats, collect, unsearched
        self.batch_rest = batch_rest or (lambda raw: ())

    def search_option(self, b, seed, game_index, stats, opts=None) -> int:
        """The option the pending search seat of ``b`` chooses (``decide``), or ``unsearched``'s."""
        opts = np.empty(self.max_options, dtype=np.int64) if opts is None else opts
        if self.unsearched is not None:
            x = int(self.unsearched(b, opts))
            if x != NOT_FORCED:
                return x
        seat = np.int64(b[self.pending_seat])
        params = [self.bot_param(b, seat, np.int64(k)) for k in self.param_codes]
        return ask(self.search_decide, b, seat, seed, game_index, self.decision_number(b, seat), params,
                   self.world_mode(b, seat), opts, stats)

    def advance(self, b, opts) -> None:
        """Apply ``unsearched`` options until a decision the search weighs is pending or the game
        is over (nothing without ``unsearched``)."""
        while self.unsearched is not None and b[self.pending_seat] >= 0:
            x = self.unsearched(b, opts)
            if x == NOT_FORCED:
                return
            self.steps.step_apply(b, x)

    def start_search_game(self, b, seed, game_index, run, *rest) -> int:
        """Game ``game_index`` driven for its search seats: they answer through the step driver,
        their rollouts (and the decisions they do not search) are played by their rollout bots;
        the other seats' bots answer theirs. Returns the search seats' bit mask."""
        self.steps.step_start(b, seed, game_index, run, *rest)
        mask = self.search_seats(b)
        self.steps.step_seats(b, mask, *rest)
        return mask

    def run_search_games(self, seed, start: int, count: int, run, raw, stats) -> None:
        """The kernel's batch for a table with search seats: each game driven through the step
        contract, the search seats' decisions by ``search_option``; its rows into ``raw``."""
        g = self.new_state()
        opts = np.empty(self.max_options, dtype=np.int64)
        rest = self.batch_rest(raw)
        for k in range(count):
            self.start_search_game(g, seed, start + k, run, *rest)
            while g[self.pending_seat] >= 0:
                status = self.steps.step_apply(g, self.search_option(g, seed, start + k, stats, opts), *rest)
                assert status == 0, status
            self.collect(g, k, raw)

    def search_batch(self, game, cfg, start: int, count: int, stats):
        """``Game.fast_batch`` for a table with search seats: the raw arrays of games ``start ..
        start+count-1``; the search's counts add up in ``stats`` (``STAT_NAMES``)."""
        raw = game.new_arrays(cfg, count)
        self.run_search_games(cfg.seed, start, count, self.run_vector(game, cfg), raw, stats)
        return raw

    def functions(self) -> tuple:
        """``search_option``, ``advance``, ``start_search_game``, ``run_search_games``,
        ``search_batch``: a game's search module's entry points."""
        return self.search_option, self.advance, self.start_search_game, self.run_search_games, self.search_batch


def swap_search_seats(b, players: int, policies: int, search_policies: tuple[int, ...], rollout_policy) -> int:
    """The seats whose policy (block ``policies`` of ``b``) is one of ``search_policies`` as a bit
    mask, their policies made ``rollout_policy(b, seat)`` (their rollout bots)."""
    mask = 0
    for s in range(players):
        if b[policies + s] in search_policies:
            mask |= 1 << s
            b[policies + s] = int(rollout_policy(b, np.int64(s)))
    return mask
