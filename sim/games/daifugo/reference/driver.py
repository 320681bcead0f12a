"""Reference engine, the driver (``Engine``): the game's phases in order (§2.3), the play of a
round turn by turn (§2.11-§2.13) and its end; the rules it applies come from the mixins
(``state``, ``movegen``, ``resolve``, ``placement``, ``outturn``, ``phases``). The fast engine's twin:
``kernel/driver.py``.
"""

from __future__ import annotations

from .. import rules as R
from ..plays import JOKER_SINGLE
from .movegen import MoveGen
from .outturn import OutOfTurnRules
from .phases import Phases
from .placement import Placements
from .resolve import Resolution
from .state import GameState


class Engine(GameState, MoveGen, Resolution, Placements, OutOfTurnRules, Phases):
    """Game state plus the rules; ``run()`` plays from the current phase to the end."""

    PHASES = ("deal", "draft", "exchange", "king_give", "post_exchange", "collusion", "collusion_precept", "trim",
              "start", "play", "score", "over")

    def run(self) -> None:
        """Play from the current phase to the end of the game (§2.3 phases, §2.15).

        Every phase keeps its pending work in the state (``draft_left``, ``exchange_left``,
        ``king_give_left``, ``trim_left``), so a run can stop at any decision and resume."""
        while self.phase != "over":
            getattr(self, "phase_" + self.phase)()
            if self.phase == "deal" and self.stop_after_round == self.round_no:
                return
        self.finish_game()

    def start_game(self) -> None:
        """§2.2: the rule deck is shuffled once at the start of the game."""
        self.rng.shuffle(self.rule_deck)

    def play_round(self) -> None:
        """§2.11-§2.13: turns until at most one player holds cards (or the play-count guard)."""
        while self.n_active() > 1:
            if self.recycle_pending:
                self.window_recycle()
            if self.stats.plays >= self.pv[R.P_MAX_PLAYS]:
                self.loop_guard()
                break
            self.take_turn(self.turn)
        self.end_round()

    def take_turn(self, p: int) -> None:
        """§2.11.1-2: the leader must play; a follower plays a beating combination or passes
        (after the turn-start windows of cards 25, 24, 01)."""
        if self.start_of_turn(p):
            return
        moves = self.legal_plays(p)
        if self.hunt_forces(p, moves):  # D10: exactly one Joker single, no pass (§4.11)
            options: list = [m for m in moves if m.kind == JOKER_SINGLE]
            self.stats.forced_jokers += 1
        else:
            options = moves if self.top is None else [None, *moves]
        choice = self.ask(p, "play", options)
        if choice is None:
            self.pass_turn(p)
        else:
            self.make_play(p, choice)

    def loop_guard(self) -> None:
        """DEC-18: the play-count guard ranks the remaining players in a random order (a pending
        armed-force claim is confirmed first, as at every round end)."""
        self.confirm_claim()
        order = [q for q in range(self.n) if self.active[q]]
        self.rng.shuffle(order)
        self.stats.guard_hit = True
        self.say(f"play-count guard: remaining players ranked {order}")
        for q in order:
            if self.active[q]:
                self.active[q] = False
                self.place_top(q)

    def end_round(self) -> None:
        """§2.13: a pending armed-force claim is confirmed; the last player holding cards takes
        the one open position."""
        self.confirm_claim()
        for q in range(self.n):
            if self.active[q]:
                self.active[q] = False
                self.place_top(q)
        self.discard |= self.field
        self.field = set()
