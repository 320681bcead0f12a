"""Game feel by a sole leader (sim/kit/lead.py): the fast engines' fields (``LeadFields``) and
sim.kit.kernel_util's ``start_lead``, ``observe_lead`` and ``lead_columns`` count what the reference
engines' ``Lead`` counts."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import lead_columns, observe_lead, start_lead
from sim.kit.layout import Layout
from sim.kit.lead import Lead, LeadFields

SEATS = 4
LAYOUT = Layout("game feel test")
FIELDS = LeadFields(LAYOUT, SEATS, "cards held", "turn index")
LEAD = FIELDS.at
SCORE = LAYOUT.block("score", SEATS, "each seat's score at the observation (-1: out of the race)")
CHANGES, LEAD_FROM, WINNER_BEHIND = LAYOUT.scalars("lead_changes", "leader_from_turn", "winner_max_behind")
SEAT_BEHIND = LAYOUT.block("seat_max_behind", 2 * SEATS, "each seat's max_behind column, every other slot")
SIZE = LAYOUT.size


@njit
def in_race(b, s):
    return b[SCORE + s] >= 0


@njit
def score(b, s):
    return b[SCORE + s]


@njit
def play(scores, winner):
    """A buffer after the observations ``scores[t]`` (turn t) and the columns for ``winner``."""
    b = np.zeros(SIZE, dtype=np.int64)
    start_lead(b, LEAD, SEATS)
    for t in range(scores.shape[0]):
        b[SCORE:SCORE + SEATS] = scores[t]
        observe_lead(b, LEAD, SEATS, t, in_race, score, CHANGES)
    lead_columns(b, LEAD, winner, LEAD_FROM, WINNER_BEHIND, SEATS, SEAT_BEHIND, 2)
    return b


def reference(scores, winner) -> tuple[dict[str, int], list[int]]:
    lead = Lead(SEATS)
    for t, row in enumerate(scores):
        lead.observe(t, {s: int(x) for s, x in enumerate(row) if x >= 0})
    return lead.columns(winner), lead.max_behind


def columns(b) -> tuple[dict[str, int], list[int]]:
    return ({"lead_changes": int(b[CHANGES]), "leader_from_turn": int(b[LEAD_FROM]),
             "winner_max_behind": int(b[WINNER_BEHIND])}, [int(x) for x in b[SEAT_BEHIND:SEAT_BEHIND + 2 * SEATS:2]])


def test_lead_fields_are_declared_alike():
    """The same names, docs and order in every game, one after another from ``at``."""
    assert list(LAYOUT.fields)[:4] == list(LeadFields.NAMES)
    assert (FIELDS.leader, FIELDS.lead_now, FIELDS.lead_since, FIELDS.max_behind) == (0, 1, 2, 3)
    assert LAYOUT["max_behind"].size == SEATS
    assert LAYOUT["leader"].doc == "game feel: the last sole leader (the fewest cards held), or -1"
    assert LAYOUT["lead_since"].doc == "game feel: the turn index from which lead_now has led without a break"


def test_a_known_game():
    """Seat 0 leads (turn 0), seat 2 takes over (turn 1: a change), a tie (turn 2: no leader),
    seat 2 leads again (turn 3: no change) and to the end; seat 3 drops out at turn 3."""
    scores = np.array([[2, 3, 3, 4], [3, 3, 1, 5], [1, 1, 1, 2], [2, 3, 0, -1], [4, 3, 2, -1]])
    got, behind = columns(play(scores, 2))
    assert got == {"lead_changes": 1, "leader_from_turn": 3, "winner_max_behind": 1}
    assert behind == [2, 3, 1, 4]
    assert columns(play(scores, 0))[0] == {"lead_changes": 1, "leader_from_turn": -1, "winner_max_behind": 2}
    assert columns(play(scores, -1))[0] == {"lead_changes": 1, "leader_from_turn": -1, "winner_max_behind": -1}


def test_random_games_count_as_the_reference():
    rng = np.random.default_rng(5)
    for _ in range(300):
        scores = rng.integers(-1, 5, size=(int(rng.integers(1, 12)), SEATS))
        winner = int(rng.integers(-1, SEATS))
        assert columns(play(scores, winner)) == reference(scores, winner)
