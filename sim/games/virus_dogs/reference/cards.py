"""Reference engine, the cards: viruses taken and opened, the action cards (VD-7 .. VD-17) and the
bat. The fast engine's twin: ``kernel/cards.py``."""

from __future__ import annotations

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.rules import (
    AMB, ANT, BAT, BM, C_CONTROL, C_COUGH, C_DECLARE, C_QUARANTINE, C_VOLUNTARY, CODES, MSK, N_TYPES, TP, V,
)
from .state import SOURCES, Player, opt


class Cards:
    """The cards' effects (a part of ``Engine``)."""

    def mask(self, p: Player) -> None:
        """VD-9: peek at the top cards, take any subset (or a prefix); the rest stay in order."""
        self.to_discard(p, MSK)
        m = min(self.r.mask_peek, len(self.deck))
        peek = [self.deck[-1 - i] for i in range(m)]
        if self.r.mask_take_mode == "prefix":
            subsets = [(1 << k) - 1 for k in range(m + 1)]
        else:
            subsets = list(range(1 << m))
        legal = [opt("mask_take", take=[i for i in range(m) if s >> i & 1]) for s in subsets]
        choice = self.ask(p.seat, "mask_take", legal, {"peek": peek})
        taken = choice["take"]
        del self.deck[len(self.deck) - m:]
        for i in reversed(range(m)):
            if i not in taken:
                self.deck.append(peek[i])
        if taken:
            self.known_top = 0
        st = self.s[p.seat]
        st[tb.S_MASK_TAKEN] += len(taken)
        st[tb.S_MASK_NONE] += not taken
        st[tb.S_MASK_PEEK_V] += V in peek
        st[tb.S_MASK_AVOIDED] += sum(1 for i in range(m) if peek[i] == V and i not in taken)
        self.say(f"  P{p.seat} masks, takes {len(taken)}")
        self.limbo = [peek[i] for i in taken]
        while self.limbo:
            card = self.limbo.pop(0)
            self.draw_event(tb.X_MASK)
            self.first_draw(p.seat, card)
            self.receive_private(p, card, tb.X_MASK)
        self.return_pending()

    def black_market(self, p: Player) -> None:
        """VD-10: look at the top cards, take exactly one; the others stay in order."""
        self.to_discard(p, BM)
        m = min(self.r.black_market_look, len(self.deck))
        seen = [self.deck[-1 - i] for i in range(m)]
        choice = self.ask(p.seat, "market_take", [opt("market_take", index=i) for i in range(m)], {"seen": seen})
        k = choice["index"]
        del self.deck[len(self.deck) - m:]
        for i in reversed(range(m)):
            if i != k:
                self.deck.append(seen[i])
        self.known_top = 0
        self.say(f"  P{p.seat} uses the black market")
        st = self.s[p.seat]
        st[tb.S_MARKET_SEEN] += seen.count(V)
        st[tb.S_MARKET_FORCED] += seen.count(V) == m
        self.limbo = [seen[k]]
        card = self.limbo.pop()
        self.draw_event(tb.X_MARKET)
        self.first_draw(p.seat, card)
        self.receive_private(p, card, tb.X_MARKET)
        self.return_pending()

    def return_pending(self) -> None:
        """VD-5.5 / VD-7.3 / VD-7.4: pending viruses go back on top, publicly known."""
        while self.pending:
            self.pending -= 1
            self.deck.append(V)
            self.known_top += 1

    def receive_private(self, p: Player, card: int, source: int) -> None:
        """VD-5.3: a privately drawn card (``source``: the draw kind, tables.X_*): bat, virus,
        or into the hand."""
        if card == BAT:
            self.bat(p, source)
        elif card == V:
            self.private_virus(p, source)
        else:
            p.hand[card] += 1
            p.suspicion += 1

    def private_virus(self, p: Player, source: int) -> None:
        """VD-6.1 / VD-7: antiseptic, declare or hide a privately drawn virus."""
        st = self.s[p.seat]
        st[tb.S_V_DRAWN] += 1
        legal = ([opt("virus", response="antiseptic")] if p.hand[ANT] else []) + [
            opt("virus", response="declare"), opt("virus", response="hide")]
        self.limbo.append(V)  # the drawn virus is in the player's fingers while they decide
        choice = self.ask(p.seat, "virus", legal, {"source": SOURCES[source]})["response"]
        self.limbo.pop()
        if choice == "antiseptic":
            self.to_discard(p, ANT)
            self.g[tb.G_ANTISEPTICS] += 1
            st[tb.S_ANT0 + source] += 1
            self.pending += 1
            self.say(f"  P{p.seat} uses ANT: a virus goes back on top")
        elif choice == "declare":
            st[tb.S_V_DECLARED] += 1
            self.say(f"  P{p.seat} declares a drawn virus")
            self.open_viruses(p, 1, C_DECLARE, p.seat)
        else:
            st[tb.S_V_HIDDEN] += 1
            p.hand[V] += 1
            p.suspicion += 1

    def bat(self, p: Player, source: int) -> None:
        """VD-8: move up to ``bat_virus_add`` reserve viruses into the deck, shuffle, discard the bat
        (``source``: the draw kind that drew it, tables.X_*)."""
        self.s[p.seat][tb.S_BAT0 + source] += 1
        k = min(self.r.bat_virus_add, self.reserve)
        self.reserve -= k
        self.deck.extend([V] * k)
        self.shuffle_deck()
        self.discard[BAT] += 1
        self.g[tb.G_BATS] += 1
        self.g[tb.G_BAT_ADDED] += k
        self.say(f"  P{p.seat} draws a BAT: +{k} viruses into the deck, reserve {self.reserve}")

    # ---- viruses, elimination (VD-6, VD-19) ------------------------------------------------
    def declare_voluntary(self, p: Player) -> None:
        """VD-6.3: move one hidden virus to the open area."""
        p.hand[V] -= 1
        self.s[p.seat][tb.S_VOLUNTARY] += 1
        self.say(f"  P{p.seat} declares a hidden virus")
        self.open_viruses(p, 1, C_VOLUNTARY, p.seat)

    def open_viruses(self, p: Player, k: int, cause: int, instigator: int) -> None:
        """VD-6.6 / VD-19.1: add open viruses, then the elimination check."""
        p.open += k
        if p.open >= self.r.elimination_threshold and not self.reactive_ambulance(p):
            self.eliminate([p], cause, instigator)

    def reactive_ambulance(self, p: Player) -> bool:
        """VD-18.4: with ``ambulance_reactive``, a held AMB is played before the elimination check."""
        if self.r.ambulance_reactive and p.hand[AMB] > 0:
            self.to_discard(p, AMB)
            self.say(f"  P{p.seat} reacts with AMB")
            self.ambulance_effect(p)
            return True
        return False

    # ---- action cards ---------------------------------------------------------------------
    def control(self, caster: Player, target: Player) -> None:
        """VD-13: the target reveals the hand; every virus in it becomes open."""
        k = target.hand[V]
        target.hand[V] = 0
        target.suspicion = 0
        self.s[caster.seat][tb.S_EXPOSED] += k
        if k:
            self.open_viruses(target, k, C_CONTROL, caster.seat)

    def quarantine(self, caster: Player) -> None:
        """VD-14: every live hand is revealed at once; the threshold check runs for all together."""
        order = [(caster.seat + k) % self.n for k in range(self.n)]
        at_risk = []
        for s in order:
            p = self.players[s]
            if not p.live:
                continue
            k = p.hand[V]
            p.hand[V] = 0
            p.open += k
            p.suspicion = 0
            self.s[caster.seat][tb.S_EXPOSED] += k
            if p.open >= self.r.elimination_threshold:
                at_risk.append(p)
        if not at_risk:
            return
        for p in at_risk:
            if self.reactive_ambulance(p):
                return
        self.eliminate(at_risk, C_QUARANTINE, caster.seat)

    def doctor(self, p: Player) -> None:
        """VD-17: one treatment step; at ``doctors_per_cure`` an open virus goes to the deck bottom."""
        self.docs_this_turn += 1
        p.treatment += 1
        if p.treatment >= self.r.doctors_per_cure:
            p.open -= 1
            p.treatment = 0
            self.put_bottom(V)
            self.g[tb.G_CURES] += 1
            self.s[p.seat][tb.S_CURES] += 1
            self.say(f"  P{p.seat} is cured of one virus")

    def ambulance(self, p: Player) -> None:
        """VD-18: played from the hand (already discarded)."""
        self.ambulance_effect(p)

    def ambulance_effect(self, p: Player) -> None:
        """VD-18.2: every open virus goes to the deck bottom; every T resets (p: the player)."""
        for q in self.players:
            if not q.live:
                continue
            for _ in range(q.open):
                self.put_bottom(V)
            self.g[tb.G_AMB_CURED] += q.open
            self.s[p.seat][tb.S_AMB_OWN if q is p else tb.S_AMB_OTHERS] += q.open
            self.s[q.seat][tb.S_DOC_WASTED] += q.treatment
            q.open = 0
            q.treatment = 0

    def cough(self, caster: Player) -> None:
        """VD-15: each other live player, from the caster's left, draws one card face up."""
        for k in range(1, self.n):
            q = self.players[(caster.seat + k) % self.n]
            if not q.live:
                continue
            if q.hand[TP]:
                choice = self.ask(q.seat, "cough", [opt("cough", response="refuse"), opt("cough", response="accept")])
                if choice["response"] == "refuse":
                    self.to_discard(q, TP)
                    self.s[q.seat][tb.S_TP_COUGH] += 1
                    self.say(f"  P{q.seat} refuses the cough with TP")
                    continue
            if not self.deck:
                continue
            card = self.take_top()
            self.draw_event(tb.X_COUGH)
            self.first_draw(q.seat, card)
            self.say(f"  P{q.seat} draws {CODES[card]} face up")
            if card == BAT:
                self.bat(q, tb.X_COUGH)
            elif card == V:
                if self.r.antiseptic_on_cough and q.hand[ANT]:
                    self.limbo.append(V)
                    choice = self.ask(q.seat, "cough_virus",
                                      [opt("cough_virus", response="antiseptic"), opt("cough_virus", response="accept")])
                    self.limbo.pop()
                    if choice["response"] == "antiseptic":
                        self.to_discard(q, ANT)
                        self.g[tb.G_ANTISEPTICS] += 1
                        self.s[q.seat][tb.S_ANT0 + tb.X_COUGH] += 1
                        self.deck.append(V)
                        self.known_top += 1
                        continue
                self.open_viruses(q, 1, C_COUGH, caster.seat)
            else:
                q.hand[card] += 1

    def exchange(self, caster: Player) -> None:
        """VD-16: select (secretly), refuse with TP (in turn order from the caster), transfer left."""
        parts = [s for s in ((caster.seat + k) % self.n for k in range(self.n)) if self.players[s].live]
        selected: dict[int, int] = {}
        for s in parts:
            p = self.players[s]
            if p.hand_size() == 0:
                continue
            legal = [opt("give", card=CODES[c]) for c in range(N_TYPES) if p.hand[c]]
            card = CODES.index(self.ask(s, "give", legal)["card"])
            p.hand[card] -= 1
            self.limbo.append(card)
            selected[s] = card
        refused = set()
        for s in parts:
            p = self.players[s]
            giver = self.right_of(s)
            if giver in selected and giver != s and p.hand[TP]:
                choice = self.ask(s, "refuse_exchange",
                                  [opt("refuse_exchange", value=True), opt("refuse_exchange", value=False)],
                                  {"giver": giver})
                if choice["value"]:
                    self.to_discard(p, TP)
                    self.s[s][tb.S_TP_EXCHANGE] += 1
                    self.s[s][tb.S_REFUSALS] += 1
                    refused.add(giver)
                    self.say(f"  P{s} refuses the exchange card with TP")
        self.limbo = []
        for s, card in selected.items():
            if s in refused:
                if self.r.exchange_refused_card == "return_to_giver":
                    self.players[s].hand[card] += 1
                else:
                    self.discard[card] += 1
                continue
            to = self.players[self.left_of(s)]
            to.hand[card] += 1
            to.suspicion += 1
            if card == V:
                self.s[s][tb.S_PLANTED] += 1
