"""Daifugō in the batched environment (``sim.kit.vector``, ``cardlab.vector_env``): the compiled
action ids (``observe.action_ids``: the code plus one; a subset decision's bit set of the chosen
cards among the cards it chooses from), their inverse and the rewards (``observe.rewards``), and
the batch's reset and step over the game's parts (``vector_go``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.daifugo.kernel.state import K_PULL_BACK, K_TEN_DISCARD, K_TRIM, NP, PCARDS, PKIND, PSEAT, WIN0
from sim.games.daifugo.kernel.step import step_go, step_legal
from sim.games.daifugo.observe import observe_into
from sim.kit.kernel_util import ix
from sim.kit.vector import VectorParts, batch_go


def table(cfg) -> np.ndarray:
    """The array ``action_ids_into`` and ``option_of`` read: none."""
    return np.zeros(0, dtype=np.int64)


@njit(cache=True, error_model="numpy")
def subset_decision(b):
    """Is the pending decision a choice of cards (``trim``, ``ten_discard``, ``pull_back``)?"""
    kind = b[PKIND]
    return kind == K_TRIM or kind == K_TEN_DISCARD or kind == K_PULL_BACK


@njit(cache=True, error_model="numpy")
def action_ids_into(b, options, n, out, table):
    """The action ids of the ``n`` legal options into ``out``: the code plus one, or the bit set
    of the chosen cards among the cards the decision chooses from."""
    if not subset_decision(b):
        for k in range(n):
            out[k] = options[k] + 1
        return
    for k in range(n):
        x, j, rest = 0, 0, b[PCARDS]
        while rest:  # bit j of the id: the j-th card chosen from, the lowest bit of ``rest``
            low = rest & -rest
            if options[k] & low:
                x |= 1 << j
            rest ^= low
            j += 1
        out[k] = x


@njit(cache=True, error_model="numpy")
def option_of(b, action, table):
    """The option of a legal action id."""
    if not subset_decision(b):
        return action - 1
    option, j, rest = 0, 0, b[PCARDS]
    while rest:
        low = rest & -rest
        if (action >> j) & 1:
            option |= low
        rest ^= low
        j += 1
    return option


@njit(cache=True, error_model="numpy")
def rewards_into(b, out):
    """Each seat's reward for the finished game: 1 for the winner by the game's scoring, a shared
    win split."""
    wins = 0
    for s in range(b[NP]):
        wins += b[ix(WIN0 + s)]
    for s in range(b[NP]):
        out[s] = b[ix(WIN0 + s)] / max(wins, 1)


@njit(cache=True, error_model="numpy")
def vector_go(a, ctl, run, table, actions, reset):
    """``sim.kit.vector.batch_go`` over daifugo's parts."""
    return batch_go(a, ctl, run, table, actions, reset, VectorParts(PSEAT, step_go, step_legal, observe_into,
                                                                     action_ids_into, option_of, rewards_into))
