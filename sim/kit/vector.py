"""The batched environment's compiled stepper (``cardlab.vector_env``): many games of one game
stepped at once through its step contract (``sim.kit.step``), one compiled loop over the games.

A game joins with a vector module (``Step.vector_module``) whose one compiled ``vector_go(a, ctl,
run, table, actions, reset)`` calls ``batch_go`` below with the game's ``VectorParts`` (one
function, so that numba generates the engine once): its buffer's ``pending_seat`` offset, its
``step_go``, ``step_legal``, the observation module's ``observe_into``, and its own compiled
``action_ids_into(b, options, n, out, table)`` (the observation module's ``action_ids``),
``option_of(b, action, table)`` (its inverse) and ``rewards_into(b, out)`` (``rewards``); and
``table(cfg)``, the int64 array those read (empty where none is needed).

``a`` is ``Arrays``, one row per slot (a game in progress): the game buffers, the ``SLOT_COLUMNS``,
the observation of the seat shown, the action mask, the first ``ids.shape[1]`` legal action ids,
the rewards of a game that ended in this step and the ``ended`` flags; and two scratch vectors.
``ctl`` holds the run's ``CONTROL`` scalars.

Games are handed out in order: ``batch_reset`` starts games ``ctl[NEXT_GAME] ..`` in slots 0, 1,
...; a slot whose game ended in the previous step starts the next game at its next step (the
Gymnasium "next step" autoreset), slots in order. Game ``i`` of the run seeded ``s`` is dealt
from ``(s, i)`` alone (``step_start``), whatever the number of slots. Table place ``p`` sits at
seat ``(p - i) mod players`` in game ``i`` (the bots' rotation of a batch run: seat ``s`` plays
place ``(s + i) mod players``); the places in ``ctl[AGENT_PLACES]`` are driven (answered by the
``actions``), the others by their seated bots inside the engine (``step_seats``).
"""

from __future__ import annotations

from collections import namedtuple
from importlib import import_module

import numpy as np
from numba import njit

from sim.kit.step import GO_APPLY, GO_SEATS, GO_START, observe

Arrays = namedtuple("Arrays", "bufs slots obs mask ids rewards ended options option_ids")
VectorParts = namedtuple("VectorParts", "pending_seat go legal observe action_ids_into option_of rewards_into")
SLOT_COLUMNS = ("seat", "shown", "state", "game", "count")
# seat: the pending decision's seat (-1: the game is over); shown: the seat whose observation is
# in ``obs`` (the pending seat; at the game's end the seat that made its last driven decision);
# state: PLAYING, ENDED or ENDED_AT_START; game: the game's index in the run; count: its legal options
SEAT, SHOWN, STATE, GAME, COUNT = range(len(SLOT_COLUMNS))
PLAYING, ENDED, ENDED_AT_START = 0, 1, 2
CONTROL = ("next_game", "seed", "players", "agent_places")
NEXT_GAME, SEED, PLAYERS, AGENT_PLACES = range(len(CONTROL))


@njit(inline="always")
def driver_seats(places, players, game):
    """The bit mask of the seats that play the driven table places in game ``game``."""
    seats = 0
    for s in range(players):
        if (places >> ((s + game) % players)) & 1:
            seats |= 1 << s
    return seats


@njit(inline="always")
def start_next(a, i, ctl, run, parts):
    """The run's next game into slot ``i``, up to the first decision of a driven seat."""
    b = a.bufs[i]
    game = ctl[NEXT_GAME]
    ctl[NEXT_GAME] = game + 1
    parts.go(b, np.int64(GO_START), game, np.uint64(ctl[SEED]), run)
    players = ctl[PLAYERS]
    seats = driver_seats(ctl[AGENT_PLACES], players, game)
    if seats != (1 << players) - 1:
        parts.go(b, np.int64(GO_SEATS), seats, np.uint64(0), run)
    first = 0
    while first < players and not (seats >> first) & 1:
        first += 1
    a.slots[i, GAME] = game
    a.slots[i, SHOWN] = first % players


@njit(inline="always")
def clear_mask(a, i):
    """Slot ``i``'s mask back to zeros (the ids it set, or the whole row)."""
    count = a.slots[i, COUNT]
    if count > a.ids.shape[1]:
        a.mask[i, :] = 0
    else:
        for k in range(count):
            a.mask[i, a.ids[i, k]] = 0
    a.slots[i, COUNT] = 0


@njit(inline="always")
def settle(a, i, table, parts):
    """After a start or an applied option: slot ``i``'s pending seat, legal action ids, mask and
    observation. Returns whether the game is over."""
    b = a.bufs[i]
    clear_mask(a, i)
    seat = b[parts.pending_seat]
    a.slots[i, SEAT] = seat
    if seat < 0:
        parts.observe(b, a.slots[i, SHOWN], a.obs[i])
        return True
    n = parts.legal(b, a.options)
    parts.action_ids_into(b, a.options, n, a.option_ids, table)
    keep = a.ids.shape[1]
    for k in range(n):
        x = a.option_ids[k]
        a.mask[i, x] = 1
        if k < keep:
            a.ids[i, k] = x
    a.slots[i, COUNT] = n
    a.slots[i, SHOWN] = seat
    parts.observe(b, seat, a.obs[i])
    return False


@njit(inline="always")
def batch_reset(a, ctl, run, table, parts):
    """Games ``ctl[NEXT_GAME] ..`` into every slot, in order; a game over before any driven
    decision is ``ENDED_AT_START`` (its end is reported by the next ``batch_step``)."""
    for i in range(a.bufs.shape[0]):
        a.rewards[i, :] = 0.0
        a.ended[i] = False
        start_next(a, i, ctl, run, parts)
        over = settle(a, i, table, parts)
        a.slots[i, STATE] = ENDED_AT_START if over else PLAYING


@njit(inline="always")
def batch_step(a, ctl, run, table, actions, parts):
    """One step of every slot: a playing slot applies its action (an id its mask marks), a slot
    whose game ended in the previous step starts the next game (its action is not read), a game
    over at its start is reported. ``ended`` and ``rewards`` mark the games that ended now.
    Returns -1, or (nothing changed) the first playing slot whose action its mask does not mark."""
    n_ids = a.mask.shape[1]
    for i in range(a.bufs.shape[0]):
        x = actions[i]
        if a.slots[i, STATE] == PLAYING and (x < 0 or x >= n_ids or a.mask[i, x] == 0):
            return i
    for i in range(a.bufs.shape[0]):
        b = a.bufs[i]
        a.rewards[i, :] = 0.0
        state = a.slots[i, STATE]
        if state == ENDED:
            start_next(a, i, ctl, run, parts)
            over = settle(a, i, table, parts)
        elif state == ENDED_AT_START:
            over = True
        else:
            parts.go(b, np.int64(GO_APPLY), parts.option_of(b, actions[i], table), np.uint64(0), run)
            over = settle(a, i, table, parts)
        a.ended[i] = over
        if over:
            parts.rewards_into(b, a.rewards[i])
            a.slots[i, STATE] = ENDED
        else:
            a.slots[i, STATE] = PLAYING
    return -1


@njit(inline="always")
def batch_go(a, ctl, run, table, actions, reset, parts):
    """``batch_reset`` (``reset``: returns -1) or ``batch_step``, over the game's ``VectorParts``."""
    if reset:
        batch_reset(a, ctl, run, table, parts)
        return -1
    return batch_step(a, ctl, run, table, actions, parts)


KEEP_IDS = 2048  # the most legal action ids kept per slot (beyond: random_actions reads the mask)


class Batch:
    """``n`` games of the run ``cfg`` of a game with a step ``contract`` and a vector module, one
    ``go`` a step of every game (the engine side of ``cardlab.vector_env``); ``agent_places``: a
    flag per table place, True where the actions answer it."""

    def __init__(self, contract, cfg, n: int, agent_places: list[bool]):
        self.parts = import_module(contract.vector_module)
        self.run_vector, self.table = contract.run_vector(cfg), self.parts.table(cfg)
        self.ctl = np.zeros(len(CONTROL), dtype=np.int64)
        self.ctl[SEED], self.ctl[PLAYERS] = cfg.seed, cfg.players
        self.ctl[AGENT_PLACES] = sum(1 << p for p, agent in enumerate(agent_places) if agent)
        self.obs_size = len(observe(contract.observation(), contract.start(cfg, 0), 0))
        self.action_count = contract.observation().action_count(cfg)
        self.arrays = new_arrays(n, contract.kernel().SIZE, self.obs_size, self.action_count, cfg.players,
                                 contract.max_options, min(KEEP_IDS, contract.max_options))
        self.no_actions = np.zeros(n, dtype=np.int64)

    def reset(self) -> None:
        """The run's next ``n`` games from ``ctl[NEXT_GAME]`` on, up to their first driven decisions."""
        self.arrays.mask[:] = 0
        self.arrays.slots[:, COUNT] = 0
        self.parts.vector_go(self.arrays, self.ctl, self.run_vector, self.table, self.no_actions, True)

    def step(self, actions: np.ndarray) -> int:
        """Every game's pending decision answered by ``actions``: the first slot whose action is
        not legal, else -1."""
        return int(self.parts.vector_go(self.arrays, self.ctl, self.run_vector, self.table, actions, False))


def new_arrays(n: int, buf_size: int, obs_size: int, action_count: int, players: int, max_options: int,
               keep: int) -> Arrays:
    """Zeroed ``Arrays`` for ``n`` slots (``keep``: the legal ids kept per slot)."""
    return Arrays(bufs=np.zeros((n, buf_size), dtype=np.int64),
                  slots=np.zeros((n, len(SLOT_COLUMNS)), dtype=np.int64),
                  obs=np.zeros((n, obs_size), dtype=np.int64),
                  mask=np.zeros((n, action_count), dtype=np.int8),
                  ids=np.zeros((n, keep), dtype=np.int64),
                  rewards=np.zeros((n, players), dtype=np.float64),
                  ended=np.zeros(n, dtype=np.bool_),
                  options=np.zeros(max_options, dtype=np.int64),
                  option_ids=np.zeros(max_options, dtype=np.int64))


def random_actions(a: Arrays, rng: np.random.Generator) -> np.ndarray:
    """A legal action id drawn uniformly for every slot (0 for a slot without a decision): a
    uniform pick among the ids its mask marks."""
    count = a.slots[:, COUNT]
    keep = a.ids.shape[1]
    pick = (rng.random(len(count)) * count).astype(np.int64)
    actions = a.ids[np.arange(len(count)), np.minimum(pick, keep - 1)]
    actions[count == 0] = 0
    for i in np.flatnonzero(count > keep):  # more legal options than the ids kept: the mask itself
        actions[i] = np.flatnonzero(a.mask[i].view(np.bool_))[pick[i]]
    return actions
