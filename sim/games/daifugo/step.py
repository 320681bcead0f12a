"""Daifugō's step contract (``sim.step``; kernel side: ``kernel/step.py``, ``kernel/driven.py``).

Option codes per kind (``Step.kinds``, the reference engine's names), listed by ``step_legal``
in the reference engine's order of the same decision's options:

- ``play``: -1 the pass (listed first when the player may pass), then 0 .. n-1 the legal plays
  in the canonical order (``plays.py``; the rows of the buffer's move table ``moves``);
- ``draft``: the rule card ids on offer, as revealed; ``give``, ``king_give``, ``collude``,
  ``collusion_give``, ``collusion_return``: the card ids, ascending; ``start``: the seats;
  ``collusion``: -1 (decline), then the target seats clockwise from the holder; ``recycle``:
  -1 (decline), then the discard pile's card ids, ascending;
- ``revolt``, ``flux``, ``loophole``, ``dobon``: 0 (no), 1 (yes);
- ``trim``, ``ten_discard``, ``pull_back``: the card mask of the cards given up or taken, every
  allowed subset by size (0 first), then in the lexicographic order of ascending card ids (as
  ``itertools.combinations`` lists them): a trim up to ``hand - trim_to`` cards (0 or exactly
  that many with ``trim_mode = all_or_nothing``), a ten discard up to one card per 10 played
  (exactly that many with ``ten_discard_mandatory``), a pull-back up to one card per K played
  (or per card, ``pullback_count``) of the previous play's cards.

Daifugō has scored rounds: ``step_play_on`` plays on to the end of the round; then the next
round's first decision is pending (after the last round: the game is over).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from sim.search_params import SEARCH_BOTS, seats_search
from sim.step import Forced, Step

from . import rules as R


class DaifugoStep(Step):
    kinds = R.DECISION_KINDS  # the kernel's K_* codes
    kernel_module = "sim.games.daifugo.kernel"
    search_module = "sim.games.daifugo.kernel.search"
    observation_module = "sim.games.daifugo.observe"
    vector_module = "sim.games.daifugo.vector"
    search_opponents = ("greedy", "greedy", "greedy")  # the strongest scripted bot (greedy beats strategist: the skill ladder)
    # Together every kind comes up: normal mode with the out-of-turn cards, card 12 as a law and
    # the optional 3-card revolution; madness with cards 12 and 18 drafted as precepts (ten-card
    # hands, which five seats can be dealt, and ten rounds, so that the holder of 18 revolts);
    # small hands under card 24, where a hand of forbidden-finish cards (card 24's condition)
    # comes up, with the all-or-nothing trim and the mandatory ten discard. Small trims keep the option lists short (the test tries each
    # option of a random decision).
    variants = ({"rule_deck": "01,03,07,10,12,24,25", "three_card_revolution_optional": True, "trim_to": 9},
                {"mode": "madness", "rule_deck": "02,07,12,18", "hand_size": 10, "trim_to": 10, "madness_rounds": 10},
                {"rule_deck": "24,03,25", "rounds": 3, "hand_size": 4, "trim_to": 2, "trim_mode": "all_or_nothing",
                 "ten_discard_mandatory": True})

    @property
    def max_options(self) -> int:
        return self.kernel().MAX_OPTIONS

    def outcome(self, cfg, buf: np.ndarray) -> dict[str, np.ndarray]:
        from . import tables as T

        k = self.kernel()
        rounds, n = R.n_rounds(cfg), cfg.players
        return {"games": k.LAYOUT.view(buf, "game_row").copy(),
                "rounds": k.LAYOUT.view(buf, "round_rows")[:rounds * T.ROUND_ROW.size].reshape(rounds, -1).copy(),
                "seats": k.LAYOUT.view(buf, "seat_rows")[:n * T.SEAT_ROW.size].reshape(n, -1).copy()}

    def reference_outcome(self, cfg, index: int, options: list[int], seats: int | None = None):
        from sim.rng import Rng

        from .bots import BotAgent
        from .reference import Engine

        names, values = zip(*self.game.seat_params(cfg, index))
        forced = Forced([], options, seats)
        eng = Engine(cfg, Rng(cfg.seed, index), ForcedAgent(forced, BotAgent(names, values)))
        eng.start_game()
        eng.run()
        g, r, s = self.game.new_arrays(cfg, 1)
        self.game.record(eng, (g, r, s), 0)
        return {"games": g[0], "rounds": r[0], "seats": s[0]}, forced.asked


def legal_options(eng, p: int, kind: str, options) -> list:
    """The options of a reference-engine decision as the step contract lists them: the engine's
    list, or for the subset kinds (trim, ten discard, pull-back: the engine passes a bound)
    every allowed subset by size, then in ``combinations`` order."""
    if kind == "trim":
        sizes = (0, options) if eng.pv[R.P_TRIM_ALL] else range(options + 1)
        return subsets(sorted(eng.hands[p]), sizes)
    if kind == "ten_discard":
        sizes = (options,) if eng.pv[R.P_03_MANDATORY] else range(options + 1)
        return subsets(sorted(eng.hands[p]), sizes)
    if kind == "pull_back":
        most, cards = options
        return subsets(sorted(cards), range(most + 1))
    return list(options)


def subsets(cards: list[int], sizes) -> list[list[int]]:
    return [list(c) for k in sizes for c in combinations(cards, k)]


class ForcedAgent:
    """The reference engine's agent for a game driven through the step contract: the first
    decisions (``sim.step.Forced``, in the order the engine asks them, forced single options
    included) are answered by position in ``legal_options``, the rest by the bots."""

    def __init__(self, forced: Forced, bots):
        self.forced_by, self.bots = forced, bots

    def forced(self, eng, p, kind, choice) -> None:
        self.forced_by.answer(p, kind, 1)

    def decide(self, eng, p, kind, options):
        legal = legal_options(eng, p, kind, options)
        k = self.forced_by.answer(p, kind, len(legal))
        return self.bots.decide(eng, p, kind, options) if k is None else legal[k]


class SearchSeats:
    """The reference engine's agent at a table with search seats (bots ``search``): they ask the
    compiled search through a fast twin of the game (``sim.search_twin``) and take its option at
    the same position of ``legal_options``; a decision the search leaves to the seat's rollout
    bot (``BOT_ANSWER``) goes to ``rollout_bots``; the other seats are ``bots``'."""

    def __init__(self, bots, rollout_bots, twin):
        self.bots, self.rollout_bots, self.twin = bots, rollout_bots, twin

    def forced(self, eng, p, kind, choice) -> None:
        if self.twin.is_search(p):
            self.twin.answer(p, R.DECISION_KINDS.index(kind), 1)

    def decide(self, eng, p, kind, options):
        if not self.twin.is_search(p):
            return self.bots.decide(eng, p, kind, options)
        legal = legal_options(eng, p, kind, options)
        k = self.twin.answer(p, R.DECISION_KINDS.index(kind), len(legal))
        return self.rollout_bots.decide(eng, p, kind, options) if k is None else legal[k]


def with_search_seats(bots, cfg, index: int, names, values):
    """``bots``, or at a table with search seats, ``SearchSeats`` over a fast twin (the search
    seats' rollout bots by name: the bot whose policy code is their ``rollout`` value)."""
    if not seats_search(cfg.bots):
        return bots
    from sim.search_twin import twin_of

    from . import GAME
    from .bots import BOTS, BotAgent

    by_code = {spec.policy: name for name, spec in BOTS.items()}
    rollout = [by_code[int(v["rollout"])] if n in SEARCH_BOTS else n for n, v in zip(names, values)]
    return SearchSeats(bots, BotAgent(rollout, values), twin_of(GAME, cfg, index))
