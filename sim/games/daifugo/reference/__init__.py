"""Reference engine: a readable, decision-driven implementation of the spec.

One method per rule, citing spec sections and DEC-… ids. Every player decision goes
through ``agent.decide(engine, player, kind, options)``; bots (``bots.py``) and scripted
decision lists (scenarios) are interchangeable. A decision with a single option is applied
without asking.

Decision kinds and their options:
  ``draft``      revealed rule card ids (D1)       ``give``  tied strongest cards (D2)
  ``king_give``  the king's hand, ascending (D3)   ``trim``  int: most cards that may go (D6)
  ``start``      seats 0..N-1 (D7)                 ``play``  [None (= pass)] + legal plays (D8/D9)
  ``revolt``     [False, True] (card 07 when ``three_card_revolution_optional``)
  ``pull_back``  (most, cards of the previous play): the cards taken, a list (D11, card 10)
  ``ten_discard`` int: most cards that may go; the cards discarded, a list (D12, card 03)
  ``flux``       [False, True] (D13, card 18 precept: exchange hands after the holder's revolution)
  ``collude``    the commoner's hand, ascending (D4, card 12 law: the card given to the partner)
  ``collusion``  [None (= decline)] + target seats clockwise from the holder (D5, card 12 precept)
  ``collusion_give``  the target's tied strongest cards (D5)   ``collusion_return``  the holder's hand (D5)
  ``recycle``    [None] + discard cards ascending (D14, card 01)
  ``loophole``   [False, True] (D15, card 24)              ``dobon``  [False, True] (D16, card 25)

Plays made through a card's permission (06 slip-through, 16 equal strength, 22 three return,
23 three 3s) and card-02 fusions (``plays.Fusion``: the added cards, the fused play as
``whole``) are ordinary ``play`` options; during a magician hunt (11) the Joker single is
the only option of a joker holder (D10, applied without asking).

Rule cards: ``applies(c, p)`` is the §4.0 predicate ``A(c, p)``.

The engine is one class, ``driver.Engine``, put together from one mixin per part of the rules,
each in the module named like its fast-engine twin in ``kernel/``: ``state`` (the state and
the rule predicates), ``movegen`` (legal plays), ``resolve`` (a play's resolution, S1-S11),
``placement`` (passes, the field flow, placements, card 13's claim; its twin is also
``kernel/resolve``), ``outturn`` (cards 01, 24, 25), ``phases`` (round setup, scoring, game
end), ``driver`` (the phases in order, the turns).
"""

from .driver import Engine
from .state import RoundStats, StopRun

__all__ = ["Engine", "RoundStats", "StopRun"]
