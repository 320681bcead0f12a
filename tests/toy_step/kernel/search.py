"""The toy's part of the search players (``sim.kit.search``): the others' cards, re-dealt.

A seat sees its own card, whose turn it is and who redrew; the others' cards and the cards still
to be drawn are hidden. A world deals every other seat a card from the search stream and gives
the world its own generator counter from it (the game's own draws stay unseen), then checks
that the seat sees the same. It does not weigh worlds by how likely they make the others' keeps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import same_slots
from sim.kit.rng import randbelow_at
from sim.kit.rng_compiled import mixed_counter
from sim.kit.search import SearchDriver, SearchParts, decide, unit_weight
from sim.kit.step import GO_APPLY

from . import (
    CARD, DRIVER, N, NB, PARAMS, PKIND, POLICY, PSEAT, REDRAWN, RNG, SEARCH_FIELDS, STEPS, TURN, USED,
    final_card, new_state, run_vector, step_go, step_legal,
)

SEARCH = 2  # the search bot's policy
BP_BUDGET, BP_WORLDS, BP_ROLLOUT, BP_OBJECTIVE = 1, 2, 3, 4  # its parameter words (after nerve)


@njit(cache=True)
def same_view(w, b, seat):
    """Does ``seat`` see the same in ``w`` as in ``b``: the pending decision, its card, who redrew?"""
    if w[PSEAT] != b[PSEAT] or w[PKIND] != b[PKIND] or w[TURN] != b[TURN] or w[USED] != b[USED]:
        return False
    return w[CARD + seat] == b[CARD + seat] and same_slots(w, b, REDRAWN, b[N])


@njit(cache=True)
def determinize(w, b, seat, key):
    """``w`` (a copy of ``b``) with the others' cards and the draws to come from the stream ``key``."""
    w[RNG] = mixed_counter(np.uint64(key))
    for s in range(b[N]):
        if s != seat:
            w[CARD + s] = randbelow_at(w, RNG, 13)
    return same_view(w, b, seat)


@njit(cache=True)
def resume_copy(dst, src):
    """The whole buffer: play goes on from all of it (it is small)."""
    dst[:] = src


@njit(cache=True)
def rollout(w, option):
    """Answer with ``option``; every seat's bot (a search seat's: its rollout bot) plays on to the end."""
    played = w[N] - w[TURN]
    w[DRIVER] = 0
    step_go(w, GO_APPLY, option, np.uint64(0), w)  # ``run`` is not read
    return played


@njit(cache=True)
def score(w, seat, objective):
    """The seat's share of the win (objective 0, the only one)."""
    best = 0
    for s in range(w[N]):
        best = max(best, final_card(w, s))
    winners = 0
    for s in range(w[N]):
        winners += final_card(w, s) == best
    return 1.0 / winners if final_card(w, seat) == best else 0.0


PARTS = SearchParts(step_legal, resume_copy, determinize, determinize, unit_weight, rollout, score)


@njit(cache=True)
def search_decide(b, seat, key, plan, opts, stats):
    """``sim.kit.search.decide`` with this game's parts (inlined, so cached with them); the toy has no
    all-seeing or weighted seat: its ``determinize`` and ``unit_weight`` stand in their places."""
    return decide(b, seat, key, plan, opts, PARTS, stats)


def bot_param(b, seat, k) -> float:
    """Word ``k`` of the seat's bot parameters (``BP_*``)."""
    return float(b[PARAMS + seat * NB + k:PARAMS + seat * NB + k + 1].view(np.float64)[0])


def collect(b, k, raw):
    """Game ``k``'s final cards into the batch arrays (the plug-in derives the rest from them)."""
    raw["cards"][k, :b[N]] = [final_card(b, s) for s in range(b[N])]


SEARCH_DRIVER = SearchDriver(
    steps=STEPS, search_decide=search_decide, fields=SEARCH_FIELDS, new_state=new_state, run_vector=run_vector,
    pending_seat=PSEAT, max_options=2, bot_param=bot_param,
    param_codes=(BP_BUDGET, BP_WORLDS, BP_ROLLOUT, BP_OBJECTIVE), decision_number=lambda b, seat: b[TURN],
    collect=collect, policies=POLICY, players=N, search_policies=(SEARCH,))
search_option, advance, start_search_game, run_search_games, search_batch, world_mode = SEARCH_DRIVER.functions()
