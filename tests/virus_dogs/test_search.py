"""The virus-dogs search bot (sim.kit.search, kernel/search.py): its worlds keep what the seat saw (VD-22).
That it does not peek (VD-22; what a seat cannot see: tests/virus_dogs/hidden.py) is
tests/test_search_contract.py; its runs for any batch and worker count, the reference engine's play
of it and a search decision leaving the game as it was: tests/test_step_contract.py."""

from itertools import islice

import numpy as np

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs.kernel import search as KS
from sim.games.virus_dogs.kernel import state as S
from tests.searching import case_states

NT = S.NT


def test_worlds_keep_what_the_seat_saw():
    """A re-dealt world replays the unit to the seat's decision and shows it the same (VD-22):
    over varied states most re-deals are kept, each kept world has the seat's own hand and every
    public count, and the re-deals differ from the game in the hidden cards."""
    kept = tried = differ = 0
    for i, (_, state) in enumerate(islice(case_states(GAME), 40)):
        seat = int(state[S.S_PSEAT])
        for t in range(4):
            w = state.copy()
            tried += 1
            if KS.determinize.py_func(w, state, np.int64(seat), np.uint64(1000 * i + t)):
                kept += 1
                assert np.array_equal(w[S.O_H + seat * NT:S.O_H + (seat + 1) * NT],
                                      state[S.O_H + seat * NT:S.O_H + (seat + 1) * NT])
                assert all(w[x] == state[x] for x in KS.PUBLIC_SCALARS)
                differ += not np.array_equal(w[S.O_H:S.O_H + 4 * NT], state[S.O_H:S.O_H + 4 * NT])
    assert kept >= 0.7 * tried and differ >= 0.5 * kept, (kept, tried, differ)
