"""Faking-sick in the batched environment (``sim.kit.vector``, ``cardlab.vector_env``): the compiled
action ids (``observe.action_ids``: a push is ``PUSHES`` plus its multiset's place, read from
``table``), their inverse and the rewards (``observe.rewards``), and the batch's reset and step
over the game's parts (``vector_go``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.faking_sick import tables as T
from sim.games.faking_sick.kernel import step_go, step_legal
from sim.games.faking_sick.kernel.state import GAME_ROW, PKIND, PSEAT, PUSH
from sim.games.faking_sick.observe import PUSHES, observe_into, push_ids
from sim.games.faking_sick.rules import K_N
from sim.kit.kernel_util import ix
from sim.kit.vector import VectorParts, batch_go

WINNER = GAME_ROW + T.G["winner"]


def table(cfg) -> np.ndarray:
    """The push option codes by action id (id ``PUSHES + k`` pushes ``table[k]``)."""
    ids = push_ids(int(cfg.params["push_count"]))
    return np.array(sorted(ids, key=ids.get), dtype=np.int64)


@njit(cache=True, error_model="numpy")
def action_ids_into(b, options, n, out, table):
    """The action ids of the ``n`` legal options into ``out``: the code, or a push's place."""
    push = b[PKIND] == PUSH
    for k in range(n):
        out[k] = options[k]
        if push:
            for j in range(len(table)):
                if table[j] == options[k]:
                    out[k] = PUSHES + j


@njit(cache=True, error_model="numpy")
def option_of(b, action, table):
    """The option of a legal action id."""
    return table[ix(action - PUSHES)] if b[PKIND] == PUSH else action


@njit(cache=True, error_model="numpy")
def rewards_into(b, out):
    """Each seat's reward for the finished game: 1 for the winner, 0 for the others and for
    everyone in a game ended by the turn cap (FS-9.6, a draw)."""
    for s in range(b[K_N]):
        out[s] = 1.0 if b[WINNER] == s else 0.0


@njit(cache=True, error_model="numpy")
def vector_go(a, ctl, run, table, actions, reset):
    """``sim.kit.vector.batch_go`` over faking-sick's parts."""
    return batch_go(a, ctl, run, table, actions, reset, VectorParts(PSEAT, step_go, step_legal, observe_into,
                                                                     action_ids_into, option_of, rewards_into))
