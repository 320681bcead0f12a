"""Fast engine: the same game as the reference engine (``reference/``) over one int64 buffer per
game, compiled with numba. Imported only to play (``Daifugo.fast_batch``, ``Daifugo.step``):
loading the game for a report never imports numba.

The modules pair one to one with the reference engine's, and their functions carry the
reference engine's names, so the two read side by side:

    state    the buffer (``LAYOUT``), ``applies`` and the rule predicates
    movegen  the legal plays, in the canonical order of ``plays.py``
    resolve  a play's resolution S1-S11 (``make_play``), passes, flows, placements
    outturn  cards 01, 24, 25: the windows at a turn's start and after a play
    phases   the round's setup phases, its scoring and the game's end
    bots     one ``decide_<kind>`` per decision kind (``bots.py``'s twins)
    driver   a game seated from its run vector, its rounds and turns; the batch
    driven   a decision of a game driven from outside (the step contract's side of it)
    step     the step contract: step_start, step_pending, step_legal, step_apply, step_play_on

Every helper is compiled by ``sim.kit.kernel_util``'s ``fn`` / ``inl`` (no numba runtime: nothing
allocates inside; ``run_kernel`` allocates the buffer once per batch).

Random-consumption protocol (both engines, per game, generator ``game_state(seed, i)``):
  1. shuffle the rule deck (card ids ascending) once.
  2. each round: round 1 only, ``randbelow(N)`` = start player (DEC-10); shuffle the 53
     card ids 0..52 ascending, player p takes positions p*H .. p*H+H-1; the law is the next
     rule card; madness: the next N cards are revealed and, in round 1 if any were
     revealed, ``randbelow(N)`` = first picker (DEC-6).
  3. bot decisions in game order; only the ``random`` bot draws: one ``randbelow(n)`` per
     decision with n >= 2 options (decisions with one option are applied without asking);
     trim: ``randbelow(most+1)`` (all-or-nothing: ``randbelow(2)``) for the count, then one
     ``randbelow(len)`` per card over the remaining hand in ascending id order (the same for
     a pull-back over the previous play's cards and a ten discard over the hand); the
     loophole card: ``randbelow(len(discard))`` over the discard pile in ascending id order.
  4. play-count guard: shuffle the remaining active seats (ascending) = their ranking.
"""

from .driver import RUN, begin_game, run_games, run_kernel, run_vector
from .movegen import legal_plays
from .state import LAYOUT, MAX_MOVES, MOVE, MOVE_COLS, SIZE
from .step import MAX_OPTIONS, new_state, step_apply, step_legal, step_pending, step_play_on, step_seats, step_start

__all__ = ["LAYOUT", "MAX_MOVES", "MAX_OPTIONS", "MOVE", "MOVE_COLS", "RUN", "SIZE", "begin_game", "legal_plays",
           "new_state", "run_games", "run_kernel", "run_vector", "step_apply", "step_legal", "step_pending",
           "step_play_on", "step_seats", "step_start"]
