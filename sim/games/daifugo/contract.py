"""Daifugō's step contract (``sim.kit.step``; kernel side: ``kernel/step.py``, ``kernel/driven.py``).

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

import numpy as np

from sim.kit.step import Step

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

    def raw_outcome(self, cfg, raw) -> dict[str, np.ndarray]:
        games, rounds, seats = raw
        return {"games": games[0], "rounds": rounds[0], "seats": seats[0]}
