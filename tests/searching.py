"""Shared by the games' search tests."""

from __future__ import annotations

import numpy as np


def assert_search_leaves_states(states, choose) -> None:
    """The search works on copies: each game buffer, its generator counter included, is the
    same after ``choose(state)`` (a search decision), so the game's own draws follow its protocol."""
    for state in states:
        before = state.copy()
        choose(state)
        assert np.array_equal(state, before)
