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
compiled ``search_decide``, ``decide`` with its ``SearchParts``: ``determinize``, ``reveal``,
``likelihood``, ``resume_copy``, ``rollout`` and ``score``; its step functions, its buffer's search fields
(``SearchFields``) and where it keeps the pending seat, the seats' policies and bot parameters,
the decision count and the rows). What a search seat searches with (its budget, worlds,
objective and mode) is read once a game.

Randomness: the search draws only from its own counter-based stream, ``search_key(run seed,
game, seat, decision number)``; a determinized world also plays on with a generator counter
from that stream, never from the game's, so a game with search seats is the same game for any
worker count and batch size, and the game's own draws follow its protocol unchanged.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

import numpy as np
from numba import njit

from sim.kit.rng_compiled import derive, mix64
from sim.kit.step import BOT_ANSWER  # noqa: F401  (a game's ``unsearched`` may answer it: the seat's rollout bot decides)
from sim.kit.step import StepFunctions

SEARCH_SALT = np.uint64(0x5EA4C4B075EA4C4B)
NOT_FORCED = -(1 << 62)  # a game's ``unsearched``: the search weighs the pending decision
MAX_TRIES = 16  # re-deals tried for one world before it is given up (counted in ``stats``)
# stats slots (``decide``'s ``stats`` array, summed over decisions)
ST_DECISIONS, ST_WORLDS, ST_REJECTED, ST_ROLLOUTS, ST_EMPTY, ST_ROLLOUT_DECISIONS = range(6)
N_STATS = 6
STAT_NAMES = ("decisions", "worlds", "rejected", "rollouts", "no_world", "rollout_decisions")
# a search seat's worlds (``decide``'s ``mode``): re-dealt (the search), the true game (the all-seeing
# search, ``sim.kit.search_params.SEEING``), re-dealt and weighed (``sim.kit.search_params.WEIGHTED``)
MODE_HONEST, MODE_SEEING, MODE_WEIGHTED = 0, 1, 2
# What a search seat searches with (``decide``'s ``plan``, whole numbers), fixed for its game.
SearchPlan = namedtuple("SearchPlan", "budget worlds objective mode")


class SearchParts(ModuleType):
    """A game's compiled search parts, ``decide``'s ``parts`` (each one described there): a global
    of the game's search module that its ``search_decide`` passes to ``decide``. It is a module
    object because numba finds a called function through a module's attributes (not a tuple's):
    so the parts compiled ``inline="always"`` (a game's ``determinize``, ``rollout``...) are
    inlined into ``search_decide`` and cached with it, not compiled each on its own with the
    engine they reach."""

    def __init__(self, legal, copy, determinize, reveal, likelihood, rollout, score):
        super().__init__("search_parts")
        self.legal, self.copy, self.determinize, self.reveal = legal, copy, determinize, reveal
        self.likelihood, self.rollout, self.score = likelihood, rollout, score


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
def decide(b, seat, key, plan, opts, parts, stats):
    """The search seat's option for the pending decision of ``b`` (``b`` is not changed) under
    ``plan`` (a ``SearchPlan``: ``budget``, ``worlds``, ``objective`` and ``mode``), its worlds
    those of ``mode``: ``MODE_HONEST`` re-dealt by ``determinize``, every world weighing the same;
    ``MODE_SEEING`` the true game (``reveal``, the all-seeing seat); ``MODE_WEIGHTED`` re-dealt,
    each world's rollouts counting ``likelihood(world, b, seat)``: how likely the world (replayed
    to the pending decision) makes what the opponents did, read from what the seat sees and the
    world alone. The option with the best (weighted) mean score is taken. Weighted worlds are
    still dealt uniformly: importance weighting of the same re-deals.

    ``opts``: room for the game's most legal options (``Step.max_options``). ``parts`` (a
    ``SearchParts``): ``legal(b, out) -> n``, the step contract's ``step_legal``; ``copy(dst,
    src)``: what play goes on from, from one copy of the game to another; ``determinize(w, b,
    seat, key) -> bool``: ``w`` (a copy of ``b``) re-dealt from the seat's point of view and
    brought back to the same decision, False if the re-deal does not lead there; ``reveal(w, b,
    seat, key) -> bool``: the same with the hidden cards where they are, only the chance still to
    come drawn again; ``likelihood``; ``rollout(w, option)``: answer with ``option`` and play the
    game to its end, returning the decisions the engine played; ``score(w, seat, objective) ->
    float``. A game compiles this once, with its parts (a module global), as its
    ``search_decide``: numba generates the engine the parts reach again for every compiled
    function that reaches it, so one entry for the three modes compiles it once. A game without
    an all-seeing or weighted seat may give ``determinize`` and ``unit_weight`` in their places.
    """
    n = parts.legal(b, opts)
    stats[ST_DECISIONS] += 1
    if n <= 1:
        return opts[0]
    nw = plan.worlds if plan.worlds > 0 else max(1, plan.budget // n)
    reps = max(1, plan.budget // (nw * n))
    total = np.zeros(n)
    count = np.zeros(n)
    world = b.copy()
    w = b.copy()
    seeing = plan.mode == MODE_SEEING
    for d in range(nw):
        ok = False
        for attempt in range(MAX_TRIES):
            parts.copy(world, b)
            k = sub_key(key, d * MAX_TRIES + attempt)
            if parts.reveal(world, b, seat, k) if seeing else parts.determinize(world, b, seat, k):
                ok = True
                break
            stats[ST_REJECTED] += 1
        if not ok:
            continue
        stats[ST_WORLDS] += 1
        wt = parts.likelihood(world, b, seat) if plan.mode == MODE_WEIGHTED else 1.0
        for o in range(n):
            for _ in range(reps):
                parts.copy(w, world)
                stats[ST_ROLLOUT_DECISIONS] += parts.rollout(w, opts[o])
                total[o] += wt * parts.score(w, seat, plan.objective)
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


class SearchFields:
    """The search's fields of a game's buffer (``sim.kit.layout.Layout``): the same names, in the same
    order, with the same meaning in every game with a search bot, declared in one call after the
    step contract's scalars (``sim.kit.step.StepFields``)::

        SEARCH_FIELDS = SearchFields(LAYOUT)
        SEARCH_SEATS, SEEING_SEATS, WEIGHTED_SEATS, ROLLOUT_END = SEARCH_FIELDS.scalars

    Each field's offset is the attribute of its name; ``scalars`` holds them in this order. The
    seat masks are set at the game's start (``SearchDriver.mark_search_seats``) and read by the
    driver (``SearchDriver.world_mode``); ``rollout_end`` is set by the game's ``rollout`` and read
    by its engine."""

    SCALARS = ("search_seats", "seeing_seats", "weighted_seats", "rollout_end")
    DOCS = {
        "search_seats": "bit s: seat s's bot is a search bot (sim.kit.search_params.SEARCH_BOTS): the search driver "
                        "answers its decisions, its rollout bot plays its rollouts",
        "seeing_seats": "bit s: seat s's search bot is the all-seeing one (sim.kit.search_params.SEEING; the game's "
                        "reveal)",
        "weighted_seats": "bit s: seat s's search bot weighs its worlds (sim.kit.search_params.WEIGHTED; the game's "
                          "likelihood)",
        "rollout_end": "a search rollout ends, as at the turn cap, once the game's count of turns (or units) "
                       "passes this mark, set by the game's rollout from the seat's horizon (0: never)",
    }

    def __init__(self, layout):
        self.scalars = tuple(layout.scalar(name, self.DOCS[name]) for name in self.SCALARS)
        self.search_seats, self.seeing_seats, self.weighted_seats, self.rollout_end = self.scalars


@dataclass(kw_only=True)
class SearchDriver:
    """The search players' driver over one game's parts: a table's games driven through the
    step contract, the search seats' decisions by the compiled search (``decide``).

    ``steps``: the game's ``sim.kit.step.StepFunctions``; ``search_decide(b, seat, key, plan,
    opts, stats)``: ``decide`` with the game's ``SearchParts``, compiled (and cached) in the
    game's module; ``fields``: the buffer's ``SearchFields``; ``new_state()``, ``run_vector(game,
    cfg)``: the kernel's; ``pending_seat``: the buffer's pending-seat slot; ``max_options``:
    ``Step.max_options``; ``bot_param(b, seat, k)``: the seat's bot parameter ``k``,
    ``param_codes``: the ``k`` of its budget, determinizations, rollout bot and objective
    (``sim.kit.search_params.search_params``); ``decision_number(b, seat)``: the pending decision's
    number in the search stream; ``collect(b, k, raw)``: the finished game's rows into game ``k``
    of the batch arrays ``raw`` (``Game.new_arrays``).

    Where ``step_start`` leaves the seats' policies: ``policies``, the block holding seat s's
    policy at ``policies + s`` (``players``: the slot of the seat count), ``search_policies``: the
    policy codes of the game's search bots in ``sim.kit.search_params.SEARCH_BOTS`` order (search,
    all-seeing, weighted; a game without the last two stops early); ``mark_search_seats`` marks
    those seats and makes them their rollout bots.

    Optional: ``unsearched(b, opts)``, the pending decision's option when the search does not
    weigh it (``BOT_ANSWER`` included), else ``NOT_FORCED``."""

    steps: StepFunctions
    search_decide: Callable
    fields: SearchFields
    new_state: Callable
    run_vector: Callable
    pending_seat: int
    max_options: int
    bot_param: Callable
    param_codes: tuple
    decision_number: Callable
    collect: Callable
    policies: int
    players: int
    search_policies: tuple
    unsearched: Callable | None = None

    def __post_init__(self):
        self.search_policies = tuple(self.search_policies)

    def mark_search_seats(self, b) -> int:
        """After ``step_start``: the search seats marked in the search fields (the all-seeing and
        weighted ones apart) and their policies made their rollout bots; their bit mask."""
        f = self.fields
        marks = (f.search_seats, f.seeing_seats, f.weighted_seats)
        for s in range(int(b[self.players])):
            policy = b[self.policies + s]
            if policy in self.search_policies:
                b[f.search_seats] |= 1 << s
                b[marks[self.search_policies.index(policy)]] |= 1 << s
                b[self.policies + s] = int(self.bot_param(b, s, self.param_codes[2]))
        return int(b[f.search_seats])

    def world_mode(self, b, seat) -> int:
        """The worlds (``MODE_*``) search seat ``seat`` of ``b`` plays in: all-seeing, weighted or honest."""
        return seat_mode(int(b[self.fields.seeing_seats]), int(b[self.fields.weighted_seats]), int(seat))

    def seat_search(self, b, seat) -> tuple:
        """What search seat ``seat`` of ``b`` searches with, fixed for its game: ``(seat, plan)``,
        the ``SearchPlan`` in whole numbers as ``search_decide`` takes them."""
        budget, worlds, _, objective = (int(self.bot_param(b, seat, k)) for k in self.param_codes)
        return int(seat), SearchPlan(budget, worlds, objective, self.world_mode(b, seat))

    def decide(self, b, search, seed, game_index, stats, opts) -> int:
        """The option ``search`` (``seat_search``'s) chooses at the pending decision of ``b``, the
        pending seat's decision in game ``game_index`` of the run seeded ``seed`` (a uint64)."""
        seat, plan = search
        key = search_key(seed, game_index, seat, self.decision_number(b, seat))
        return self.search_decide(b, seat, np.uint64(key), plan, opts, stats)

    def search_option(self, b, seed, game_index, stats, opts=None) -> int:
        """The option the pending search seat of ``b`` chooses (``decide``), or ``unsearched``'s."""
        opts = np.empty(self.max_options, dtype=np.int64) if opts is None else opts
        if self.unsearched is not None:
            x = int(self.unsearched(b, opts))
            if x != NOT_FORCED:
                return x
        search = self.seat_search(b, int(b[self.pending_seat]))
        return self.decide(b, search, np.uint64(seed), int(game_index), stats, opts)

    def advance(self, b, opts) -> None:
        """Apply ``unsearched`` options until a decision the search weighs is pending or the game
        is over (nothing without ``unsearched``)."""
        while self.unsearched is not None and b[self.pending_seat] >= 0:
            x = self.unsearched(b, opts)
            if x == NOT_FORCED:
                return
            self.steps.step_apply(b, x)

    def start_search_game(self, b, seed, game_index, run) -> int:
        """Game ``game_index`` driven for its search seats: they answer through the step driver,
        their rollouts (and the decisions they do not search) are played by their rollout bots;
        the other seats' bots answer theirs. Returns the search seats' bit mask."""
        self.steps.step_start(b, seed, game_index, run)
        mask = self.mark_search_seats(b)
        self.steps.step_seats(b, mask)
        return mask

    def run_search_games(self, seed, start: int, count: int, run, raw, stats) -> None:
        """The kernel's batch for a table with search seats: each game driven through the step
        contract, the search seats' decisions by ``decide`` (what each seat searches with read
        once a game); its rows into ``raw``."""
        g = self.new_state()
        opts = np.empty(self.max_options, dtype=np.int64)
        key_seed, pending, unsearched = np.uint64(seed), self.pending_seat, self.unsearched
        apply = self.steps.step_apply
        for k in range(count):
            index = start + k
            mask = self.start_search_game(g, seed, index, run)
            searches = [self.seat_search(g, s) if mask >> s & 1 else None for s in range(mask.bit_length())]
            while (seat := g.item(pending)) >= 0:
                option = NOT_FORCED if unsearched is None else unsearched(g, opts)
                if option == NOT_FORCED:
                    option = self.decide(g, searches[seat], key_seed, index, stats, opts)
                status = apply(g, option)
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
        ``search_batch``, ``world_mode``: a game's search module's entry points."""
        return (self.search_option, self.advance, self.start_search_game, self.run_search_games, self.search_batch,
                self.world_mode)
