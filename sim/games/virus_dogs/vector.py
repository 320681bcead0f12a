"""Virus Dogs in the batched environment (``sim.kit.vector``, ``cardlab.vector_env``): the compiled
action ids (the option codes themselves, as ``observe.action_ids``), their inverse and the
rewards (``observe.rewards``), and the batch's reset and step over the game's parts (``vector_go``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.kernel import step_go, step_legal
from sim.games.virus_dogs.kernel.state import NS, O_SM, S_N, S_PSEAT
from sim.games.virus_dogs.observe import observe_into
from sim.kit.kernel_util import ix
from sim.kit.vector import VectorParts, batch_go

WIN = tb.SI["win"]


def table(cfg) -> np.ndarray:
    """The array ``action_ids_into`` and ``option_of`` read: none."""
    return np.zeros(0, dtype=np.int64)


@njit(cache=True, error_model="numpy")
def action_ids_into(b, options, n, out, table):
    """The action ids of the ``n`` legal options into ``out``: the codes themselves."""
    for k in range(n):
        out[k] = options[k]


@njit(cache=True, error_model="numpy")
def option_of(b, action, table):
    """The option of a legal action id: the id itself."""
    return action


@njit(cache=True, error_model="numpy")
def rewards_into(b, out):
    """Each seat's reward for the finished game: 1 for a win, a shared win split (VD-20.10, VD-21.3)."""
    wins = 0
    for s in range(b[S_N]):
        wins += b[ix(O_SM + s * NS + WIN)]
    for s in range(b[S_N]):
        out[s] = b[ix(O_SM + s * NS + WIN)] / max(wins, 1)


@njit(cache=True, error_model="numpy")
def vector_go(a, ctl, run, table, actions, reset):
    """``sim.kit.vector.batch_go`` over virus-dogs' parts."""
    return batch_go(a, ctl, run, table, actions, reset, VectorParts(S_PSEAT, step_go, step_legal, observe_into,
                                                                     action_ids_into, option_of, rewards_into))
