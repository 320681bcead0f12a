"""Virus Dogs' observation (sim/games/virus_dogs/observe.py): its one-pass hidden counts are the
search's ``hidden_count`` (what a seat cannot see, VD-22) for every seat and card type."""

import numpy as np

import cardlab
from sim.games.virus_dogs.kernel import state as S
from sim.games.virus_dogs.kernel.search import hidden_count
from sim.games.virus_dogs.observe import hidden_counts_into


def test_hidden_counts_are_the_search_s_hidden_count_for_every_seat_and_type():
    """Along random 5-seat games, exchanges under way included (VD-22), every seat's counts of
    every card type equal ``hidden_count``."""
    env = cardlab.vector_env("virus-dogs", 16, players=5, seed=2)
    env.reset()
    rng = np.random.default_rng(0)
    got, exchanges = np.zeros(S.NT, dtype=np.int64), 0
    for _ in range(300):
        for b in env.buffers:
            exchanges += int(b[S.S_PKIND] in (S.K_GIVE, S.K_REFUSE_EXC))
            for seat in range(5):
                hidden_counts_into(b, np.int64(seat), got)
                assert got.tolist() == [hidden_count(b, np.int64(seat), np.int64(c)) for c in range(S.NT)]
        env.step(env.random_actions(rng))
    assert exchanges > 0
