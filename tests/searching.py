"""Shared by the games' search tests."""

from __future__ import annotations

import numpy as np

from sim.search import MODE_HONEST, N_STATS, decide, unit_weight


def search_choice(kernel, search, b: np.ndarray, seat: int, key, budget: int, max_options: int,
                  determinize=None, rollout=None) -> int:
    """The search seat's choice at ``b`` with the search stream ``key``: the game's cached
    ``search_decide`` (honest worlds), or the honest search (``sim.search.decide``) run as Python
    over the game's compiled parts with another ``determinize`` (and ``rollout``, default the
    game's as Python), nothing compiled anew."""
    head = (b, np.int64(seat), np.uint64(key), np.int64(budget), np.int64(0), np.int64(1),
            np.empty(max_options, dtype=np.int64))
    stats = np.zeros(N_STATS, dtype=np.int64)
    if determinize is None:
        return int(search.search_decide(*head, np.int64(MODE_HONEST), stats))
    def redeal(w, b, seat, key):  # a compiled uint64 comes back to Python as an int
        return determinize(w, b, seat, np.uint64(key))

    return int(decide.py_func(*head, np.int64(MODE_HONEST), kernel.step_legal, search.resume_copy, redeal, redeal,
                              unit_weight, rollout or search.rollout.py_func, search.score, stats))


def assert_search_leaves_states(states, choose) -> None:
    """The search works on copies: each game buffer, its generator counter included, is the
    same after ``choose(state)`` (a search decision), so the game's own draws follow its protocol."""
    for state in states:
        before = state.copy()
        choose(state)
        assert np.array_equal(state, before)
