"""Reference engine, the phases of a round around its play (``Phases``): §2.3 phases 1-7 (deal,
law, precept draft, exchange, the king's gifts, the post-exchange effects of cards 05 and 12,
trim, start player), one ``phase_*`` method each, keeping their pending work in the state so
that a run can stop at any decision and resume; then the round's scoring and the game's end
(§2.14, §2.15). The fast engine's twin: ``kernel/phases.py``.

Each post-exchange step asks all of its decisions before any card moves, so a scenario that
stops at one of them resumes from unchanged hands.
"""

from __future__ import annotations

from .. import rules as R
from ..rules import JOKER
from .state import Subsets


class Phases:
    """Round setup, scoring and the game end (mixed into ``driver.Engine``)."""

    def phase_deal(self) -> None:
        """§2.3 phases 1-2: new round, deal, law; round 1 fixes the start player first (DEC-10)."""
        self.round_no += 1
        self._clear_round()
        self.stats.king = self.king
        self.stats.round = self.round_no
        if self.round_no == 1:
            self.start_player = self.rng.randbelow(self.n)
        self.deal()
        self.law_phase()
        self.phase = "draft"
        if self.madness:
            self.revealed = self.rule_deck[:self.n]
            del self.rule_deck[:self.n]
            self.draft_left = self.draft_order() if self.revealed else []

    def phase_draft(self) -> None:
        """§2.6: each player in draft order takes one revealed card as a precept (DEC-3: while any remain)."""
        while self.draft_left and self.revealed:
            p = self.draft_left[0]
            c = self.ask(p, "draft", list(self.revealed))
            self.revealed.remove(c)
            self.owner[c] = p
            self.precept_pick[c] = 1 + sum(1 for d in range(1, R.N_RULE_CARDS + 1)
                                           if self.owner[d] >= 0 and self.precept_round[d] == self.round_no)
            self.precept_round[c] = self.round_no
            if c == R.C05_TRICKSTER and self.pv[R.P_05_ON_DRAFT] and not self.trickster_done:
                self.give_second_joker(p)  # DEC-33 variant: the joker arrives when drafted
            self.draft_left.pop(0)
            self.say(f"P{p} drafts precept {c:02d} {R.CARD_NAMES[c]}")
        self.revealed, self.draft_left = [], []
        self.phase = "exchange"
        self.exchange_left = [(self.king + i) % self.n for i in range(1, self.n)] if self.round_no > 1 else []

    def phase_exchange(self) -> None:
        """§2.7 step 1: each commoner gives the king the strongest card (giver picks among ties,
        DEC-7); card 08 (§4.8: law, or the giver's precept) lets the giver give any card."""
        k = self.king
        while self.exchange_left:
            c = self.exchange_left[0]
            x = self.ask(c, "give", self.gift_options(c))
            if self.applies(R.C08_METAMORPHOSIS, c) and self.exchange_value(x) < self.strongest_value(c):
                self.stats.free_gifts += 1
            self.hands[c].remove(x)
            self.hands[k].add(x)
            self.exchange_left.pop(0)
            self.say(f"P{c} gives {R.pretty(x)} to king P{k}")
        self.phase = "king_give"
        self.king_give_left = [(k + i) % self.n for i in range(1, self.n)] if self.round_no > 1 else []

    def phase_king_give(self) -> None:
        """§2.7 step 2: the king gives one card of choice to each commoner, clockwise."""
        k = self.king
        while self.king_give_left:
            c = self.king_give_left[0]
            x = self.ask(k, "king_give", sorted(self.hands[k]))
            self.hands[k].remove(x)
            self.hands[c].add(x)
            self.king_give_left.pop(0)
            self.say(f"king P{k} gives {R.pretty(x)} to P{c}")
        self.phase = "post_exchange"

    def phase_post_exchange(self) -> None:
        """§2.8 step 1 / DEC-4: card 05 Trickster (``resolve_trickster``)."""
        self.resolve_trickster()
        self.phase = "collusion"

    def phase_collusion(self) -> None:
        """§2.8 step 2: card 12 law, the commoners' swaps (``collusion_law``)."""
        self.collusion_law()
        self.phase = "collusion_precept"

    def phase_collusion_precept(self) -> None:
        """§2.8 step 3: card 12 precept, the holder's take-and-give (``collusion_precept``)."""
        self.collusion_precept()
        self.phase = "trim"
        self.trim_left = list(range(self.n))

    def phase_trim(self) -> None:
        """§2.9 / DEC-9: each player may discard down to ``trim_to`` cards, face up."""
        while self.trim_left:
            p = self.trim_left[0]
            most = max(0, len(self.hands[p]) - self.pv[R.P_TRIM_TO])
            if not most:
                self.ask(p, "trim", [[]])
            else:
                sizes = (0, most) if self.pv[R.P_TRIM_ALL] else range(most + 1)
                cards = self.ask(p, "trim", Subsets(self.hands[p], sizes))
                for x in cards:
                    self.hands[p].remove(x)
                    self.discard.add(x)
                self.stats.trimmed += len(cards)
                if cards:
                    if self.log is not None:
                        self.say(f"P{p} trims {' '.join(R.pretty(x) for x in sorted(cards))}")
            self.trim_left.pop(0)
        self.phase = "start"

    def phase_start(self) -> None:
        """§2.10: round >= 2 the last-placed player names the start player."""
        if self.round_no > 1:
            self.start_player = self.ask(self.prev_ranking[-1], "start", list(range(self.n)))
        self.stats.start_player = self.start_player
        self.turn = self.start_player
        self.say(f"round {self.round_no}: start player P{self.start_player}")
        self.recycle_pending = True  # card 01 W-trim (DEC-29)
        self.phase = "play"

    def phase_play(self) -> None:
        self.play_round()
        self.phase = "score"

    def phase_score(self) -> None:
        self.score_round()
        self.phase = "deal" if self.round_no < self.rounds else "over"

    # ------------------------------------------------------------ §2.8 post-exchange effects (DEC-4)
    def trickster_recipient(self) -> int:
        """§4.5: the law gives the joker to the king (round 1: the start player, QA-05.3); the
        precept to its holder (QA-05.2); -1 when card 05 is not in play or has resolved."""
        if self.trickster_done:
            return -1
        if R.C05_TRICKSTER in self.laws:
            return self.king if self.king >= 0 else self.start_player
        return self.owner[R.C05_TRICKSTER]

    def give_second_joker(self, p: int) -> None:
        """§4.5: the second joker (Jk2) joins p's hand once; the game has 54 cards from now on (QA-05.1)."""
        self.hands[p].add(R.JOKER + 1)
        self.jokers = 2
        self.trickster_done = True
        self.stats.second_joker = 1
        self.say(f"trickster: P{p} receives the second joker")

    def resolve_trickster(self) -> None:
        """§2.8 step 1 / DEC-33: after the exchange of the round card 05 entered play."""
        p = self.trickster_recipient()
        if p >= 0:
            self.give_second_joker(p)

    def collusion_applies_now(self) -> bool:
        """DEC-8: card 12 acts in round 1 too unless ``collusion_round1`` is off."""
        return self.round_no > 1 or bool(self.pv[R.P_12_ROUND1])

    def collusion_order(self) -> list[int]:
        """§4.12: the commoners clockwise from the seat after the king; round 1 every player
        clockwise from the start player (DEC-8)."""
        if self.king >= 0:
            return [(self.king + i) % self.n for i in range(1, self.n)]
        return [(self.start_player + i) % self.n for i in range(self.n)]

    @staticmethod
    def collusion_partners(order: list[int]) -> list[tuple[int, int]]:
        """QA-12.1: (giver, receiver) pairs: an even number swaps in pairs c1<->c2, c3<->c4, ...;
        an odd number gives around a ring c1->c2->...->cm->c1."""
        m = len(order)
        if m < 2:
            return []
        if m % 2 == 0:
            out = []
            for i in range(0, m, 2):
                out += [(order[i], order[i + 1]), (order[i + 1], order[i])]
            return out
        return [(order[i], order[(i + 1) % m]) for i in range(m)]

    def collusion_law(self) -> None:
        """§4.12 law (D4): each commoner picks a card secretly, then the cards move."""
        if R.C12_COLLUSION not in self.laws or not self.collusion_applies_now():
            return
        pairs = self.collusion_partners(self.collusion_order())
        gifts = {g: self.ask(g, "collude", sorted(self.hands[g])) for g, _ in pairs}
        for g, rcv in pairs:
            self.hands[g].remove(gifts[g])
            self.hands[rcv].add(gifts[g])
            self.say(f"collusion: P{g} gives a card to P{rcv}")
        self.stats.collusion_swaps += len(pairs)

    def collusion_targets(self, holder: int) -> list[int]:
        """§4.12 precept: any other non-king player (round 1: any other player), clockwise from the holder."""
        seats = [(holder + i) % self.n for i in range(1, self.n)]
        return [q for q in seats if q != self.king and self.hands[q]]

    def collusion_precept(self) -> None:
        """§4.12 precept / DEC-38 (D5): the holder may take a non-king player's strongest card (the
        giver picks among ties) and then gives that player any card of the new hand."""
        h = self.owner[R.C12_COLLUSION]
        if h < 0 or R.C12_COLLUSION in self.laws or not self.collusion_applies_now():
            return
        targets = self.collusion_targets(h)
        if not targets:
            return
        q = self.ask(h, "collusion", [None, *targets])
        if q is None:
            return
        best = self.strongest_value(q)
        x = self.ask(q, "collusion_give", sorted(c for c in self.hands[q] if self.exchange_value(c) == best))
        y = self.ask(h, "collusion_return", sorted(self.hands[h] | {x}))
        self.hands[q].remove(x)
        self.hands[h].add(x)
        self.hands[h].remove(y)
        self.hands[q].add(y)
        self.stats.collusion_takes += 1
        self.say(f"collusion precept: P{h} takes {R.pretty(x)} from P{q} and gives {R.pretty(y)}")

    # ------------------------------------------------------------ helpers of the phases
    def deal(self) -> None:
        """§2.4: shuffle the 53 cards, deal 10 (8 with six players) to each; the rest set aside (DEC-1)."""
        deck = list(range(self.card_total()))
        self.rng.shuffle(deck)
        h = self.pv[R.P_HAND]
        for p in range(self.n):
            self.hands[p] = set(deck[p * h:(p + 1) * h])
        self.undealt = set(deck[self.n * h:])

    def law_phase(self) -> None:
        """§2.5: reveal the top rule card as a law (DEC-3: nothing if the deck is empty); with
        ``laws = off`` (DEC-53) the card is set aside face up instead, no law."""
        if self.rule_deck:
            c = self.rule_deck.pop(0)
            if self.pv[R.P_LAWS_OFF]:
                self.say(f"laws off: rule card {c:02d} {R.CARD_NAMES[c]} set aside")
                return
            self.laws.append(c)
            self.stats.law = c
            self.say(f"law {c:02d} {R.CARD_NAMES[c]}")

    def draft_order(self) -> list[int]:
        """§2.6 / DEC-5 / DEC-6: round 1 random first picker clockwise; later last place first."""
        if self.round_no == 1:
            first = self.rng.randbelow(self.n)
            return [(first + i) % self.n for i in range(self.n)]
        if self.pv[R.P_DRAFT_CW]:
            last = self.prev_ranking[-1]
            return [(last + i) % self.n for i in range(self.n)]
        return list(reversed(self.prev_ranking))

    def strongest_value(self, p: int) -> int:
        return max(self.exchange_value(x) for x in self.hands[p])

    def gift_options(self, p: int) -> list[int]:
        """§2.7 / §4.8: the tied strongest cards of p's hand, or (card 08) the whole hand."""
        if self.applies(R.C08_METAMORPHOSIS, p):
            return sorted(self.hands[p])
        best = self.strongest_value(p)
        return sorted(x for x in self.hands[p] if self.exchange_value(x) == best)

    @staticmethod
    def exchange_value(c: int) -> int:
        """§2.7: normal order, Joker strongest (revolution never applies here)."""
        return 13 if c >= JOKER else c // 4

    # ------------------------------------------------------------ scoring (§2.14, §2.15)
    def score_round(self) -> None:
        """§2.14: rank points, capital-fall bonus (already added), precept VP every round (DEC-20 variant)."""
        ranking = self.top_list + self.bottom_list
        self.stats.ranking = ranking
        pts = [0] * self.n
        for pos, q in enumerate(ranking):
            pts[q] = self.pv[R.P_RANK_POINTS + pos]
        for q in range(self.n):
            self.rank_pts[q] += pts[q]
        if self.madness and self.pv[R.P_VP_EVERY_ROUND]:
            self.add_precept_vp()
        self.stats.points = pts
        self.stats.standing = [self.rank_pts[q] + self.bonus_pts[q] + self.vp_pts[q] for q in range(self.n)]
        self.stats.second_joker = int(self.jokers == 2)
        self.history.append(self.stats)
        self.prev_ranking = ranking
        if self.log is not None:
            self.say("round ranking: " + " ".join(f"P{q}" for q in ranking))

    def add_precept_vp(self) -> None:
        """§1.5: each player adds the VP of every precept they hold."""
        for c in range(1, R.N_RULE_CARDS + 1):
            if self.owner[c] >= 0:
                self.vp_pts[self.owner[c]] += self.pv[R.P_VP + c]

    def finish_game(self) -> None:
        """§2.15 / DEC-20 / DEC-21: final points and winners."""
        if self.madness and not self.pv[R.P_VP_EVERY_ROUND]:
            self.add_precept_vp()
        self.scores = [self.rank_pts[q] + self.bonus_pts[q] + self.vp_pts[q] for q in range(self.n)]
        best = max(self.scores)
        winners = [q for q in range(self.n) if self.scores[q] == best]
        if len(winners) > 1 and self.pv[R.P_TIE_LAST] and self.prev_ranking:
            winners = [min(winners, key=self.prev_ranking.index)]
        self.winners = winners
        self.phase = "over"
        self.say(f"final points {self.scores}; winner(s) {winners}")
