"""Reference engine, the out-of-turn and turn-start rules (``OutOfTurnRules``): cards 01 Recycle,
24 Loophole and 25 Dobon (spec §4.1, §4.24, §4.25), mixed into ``driver.Engine``. The fast
engine's twin: ``kernel/outturn.py``.

Windows (DEC-29, DEC-50, DEC-51): at the start of a player's turn, in this order, the dobon of
window (ii), the loophole, then the recycle W-start; after each trick end (and after the trim,
before the first lead) the recycle window W-flow / W-trim clockwise from the next leader, while
more than one player still holds cards; after every play that did not flow the field, the
dobon window (i) clockwise from the player after the one who made it (first caller wins,
QA-01.2 by analogy).

Decision kinds: ``recycle`` [None, discard cards ascending] (D14), ``loophole`` [False, True]
(D15), ``dobon`` [False, True] (D16).
"""

from __future__ import annotations

from .. import rules as R
from ..plays import SET, STAIRS, dobon_hits, dobon_value
from ..rules import JOKER


class OutOfTurnRules:
    """Cards 01, 24, 25 (uses the state, ``applies``, ``ask``, ``flow``... of ``driver.Engine``)."""


    # ------------------------------------------------------------ turn start
    def start_of_turn(self, p: int) -> bool:
        """Turn-start windows of p: dobon (ii), loophole, recycle W-start. True when p called
        a dobon (the turn is over)."""
        if self.card_in_play(R.C25_DOBON) and self.top is not None and self.top_owner != p:
            if self.may_dobon(p) and self.ask(p, "dobon", [False, True]):
                if not self.dobon(p):
                    self.next_turn(p)
                return True
        if self.card_in_play(R.C24_LOOPHOLE):
            self.window_loophole(p)
        if self.card_in_play(R.C01_RECYCLE):
            self.offer_recycle(p)
        return False

    # ------------------------------------------------------------ 01 Recycle
    def offer_recycle(self, q: int) -> None:
        """§4.1 / D14: q (once per round, if 01 applies) may take one card of the discard pile."""
        if not self.discard or q in self.recycle_used or not self.active[q] or not self.applies(R.C01_RECYCLE, q):
            return
        c = self.ask(q, "recycle", [None, *sorted(self.discard)])
        if c is None:
            return
        self.discard.remove(c)
        self.hands[q].add(c)
        self.recycle_used.add(q)
        self.stats.recycles += 1
        self.say(f"P{q} recycles {R.pretty(c)} (card 01)")

    def window_recycle(self) -> None:
        """§2.11.5 step 4 / DEC-29: W-flow (after a trick end) and W-trim (before the first lead),
        offered clockwise from the next leader; the first taker gets the card (QA-01.2)."""
        self.recycle_pending = False
        if not self.card_in_play(R.C01_RECYCLE) or self.turn < 0:
            return
        for i in range(self.n):
            self.offer_recycle((self.turn + i) % self.n)

    # ------------------------------------------------------------ 24 Loophole
    def may_loophole(self, p: int) -> bool:
        """§4.24: 24 applies to p, the discard pile is not empty and every card of p's hand is a
        forbidden-finish card (never when 04 applies to p, §4.27)."""
        return (bool(self.discard) and bool(self.hands[p]) and self.applies(R.C24_LOOPHOLE, p)
                and not self.taboo(p)
                and all(self.forbidden_finish_card(p, c) for c in self.hands[p]))

    def window_loophole(self, p: int) -> None:
        """§4.24 / DEC-50 / D15: up to ``loophole_uses_per_turn`` times, p may reveal the hand and
        take a uniformly random card of the discard pile (QA-24.1: ascending ids, ``randbelow``)."""
        for _ in range(self.pv[R.P_LOOPHOLE_USES]):
            if not self.may_loophole(p) or not self.ask(p, "loophole", [False, True]):
                return
            pile = sorted(self.discard)
            c = pile[self.rng.randbelow(len(pile))]
            self.discard.remove(c)
            self.hands[p].add(c)
            self.stats.loopholes += 1
            if self.log is not None:
                self.say(f"P{p} reveals {' '.join(R.pretty(x) for x in sorted(self.hands[p] - {c}))} "
                         f"and takes {R.pretty(c)} (card 24)")

    # ------------------------------------------------------------ 25 Dobon
    def dobon_target(self) -> int:
        """DEC-51: the value of the top play (single or set; stairs with ``dobon_on_stairs``: its
        highest card); 0 for none (a Joker single, stairs by default, an empty field)."""
        t = self.top
        if t is None:
            return 0
        if t.kind == SET:
            return dobon_value(t.low)
        if t.kind == STAIRS and self.pv[R.P_DOBON_STAIRS]:
            return dobon_value(t.high)
        return 0

    def may_dobon(self, q: int) -> bool:
        """§4.25: q holds exactly 2 cards, no joker (QA-25.1), whose printed values give the
        top play's value by + − × ÷; not on q's own play."""
        hand = self.hands[q]
        if len(hand) != 2 or q == self.top_owner or not self.active[q] or not self.applies(R.C25_DOBON, q):
            return False
        a, b = sorted(hand)
        target = self.dobon_target()
        return b < JOKER and target > 0 and dobon_hits(dobon_value(a // 4), dobon_value(b // 4), target)

    def window_dobon(self, p: int) -> bool:
        """S11 window (i): after p's play, clockwise from the player after p; the first caller
        goes out (D16). True when the field flowed or the round ended."""
        if not self.card_in_play(R.C25_DOBON):
            return False
        for i in range(1, self.n):
            q = (p + i) % self.n
            if self.may_dobon(q) and self.ask(q, "dobon", [False, True]):
                return self.dobon(q)
        return False

    def dobon(self, q: int) -> bool:
        """§4.25 / DEC-13: q plays both cards out of turn and goes out (never forbidden,
        QA-25.2; no rank effects); the field flows and the next active player from q leads
        (``dobon_flows``; else the trick goes on). True when the field flowed or the round ended."""
        cards = sorted(self.hands[q])
        self.hands[q] = set()
        self.field |= set(cards)
        self.stats.dobons += 1
        self.active[q] = False
        self.passed.discard(q)
        if self.log is not None:
            self.say(f"P{q} calls Cthulhu: dobon with {' '.join(R.pretty(c) for c in cards)}")
        self.place_top(q)
        self.say(f"P{q} goes out, place {len(self.top_list)}")
        if self.n_active() <= 1:
            return True
        if self.pv[R.P_DOBON_FLOWS]:
            self.flow(self.next_active(q))
            return True
        return False
