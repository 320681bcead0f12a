"""Reference engine, a play (``Resolution``): the on-play resolution order S1-S11 of §4.26
(``make_play``, one ``step_*`` method per step); what follows it, the next turn, the field flow
and the placements, is ``placement.Placements``. The fast engine's twin: ``kernel/resolve.py``.
"""

from __future__ import annotations

from .. import rules as R
from ..plays import JOKER_SINGLE, STAIRS, Fusion, Play, one_step, value
from .state import Subsets


class Resolution:
    """A play's resolution (mixed into ``driver.Engine``)."""

    def make_play(self, p: int, x: Play) -> None:
        """§4.26 on-play resolution order S1-S11 (steps of unimplemented cards are no-ops)."""
        t = self.top
        r_before, rev_before = self.reversed, self.rev
        fused = isinstance(x, Fusion)  # card 02: x holds the added cards, the top becomes x.whole
        # S1: cards to the field; X is the new top play
        for c in x.cards:
            self.hands[p].remove(c)
        self.field.update(x.cards)
        self.top, self.top_owner = (x.whole if fused else x), p
        self.stats.plays += 1
        self.total_plays += 1
        self.stats.substitutions += x.substitutes
        if t is None:
            self.stats.tricks += 1
        elif fused:
            self.stats.fusions += 1
        else:
            self.count_special_play(p, x, t, r_before)
        if not self.pv[R.P_LOCKOUT]:
            self.passed = set()
        if self.log is not None:
            self.say(f"P{p} {'fuses' if fused else 'plays'} {x.text()}")
        revolted = self.step_revolution(p, x)  # S2 (and the 13 claim)
        self.step_jback(p, x)  # S3 (a fusion: the added cards only, DEC-31)
        if not fused:
            self.step_pull_back(p, x, t)  # S4 (never on a fusion, DEC-31)
        emptied = self.step_ten_discard(p, x)  # S5
        self.step_hunt(p, x)  # S6
        self.step_flux(p, revolted)  # S7
        if t is not None and not fused:
            self.step_locks(p, x, t, r_before)  # S8 (a fusion completes the top play: no lock)
        forbidden = False
        if not self.hands[p]:
            forbidden = self.step_finish(p, x, t, r_before, rev_before, revolted, emptied)  # S9
        if self.pv[R.P_AF_MODE] == R.AF_IMMEDIATE:
            self.confirm_claim()  # DEC-39 variant: the claim is won once the play has resolved
        if self.n_active() <= 1:
            return
        if self.step_flow_effects(p, x, t):  # S10
            return
        if forbidden and self.pv[R.P_FF_FLOWS]:  # DEC-15 variant
            self.flow(self.next_active(p))
            return
        if self.window_dobon(p):  # S11
            return
        self.next_turn(p)

    def count_special_play(self, p: int, x: Play, t: Play, r_before: bool) -> None:
        """§7 counters of plays made through a card's permission (06 slip-through, 16 equal)."""
        if x.kind != STAIRS and t.kind != STAIRS and x.count != t.count and not self.is_three_threes(p, x):
            self.stats.slip_throughs += 1
        elif x.kind == t.kind and x.count == t.count and value(x, r_before) == value(t, r_before):
            self.stats.equal_plays += 1

    def step_revolution(self, p: int, x: Play) -> bool:
        """S2 / §3.5 / §4.7: toggle ``rev`` for a revolution-size play (DEC-35 optional 3-card)."""
        if not self.revolution_size(p, x):
            return False
        if self.exiled(p, x):
            self.stats.exiled_revolutions += 1
            self.say("magician exile: no revolution with a joker")
            return False
        if x.count == 3 and self.pv[R.P_07_OPTIONAL] and not isinstance(x, Fusion) and not self.ask(
                p, "revolt", [False, True]):
            return False
        if self.rev:
            self.stats.counter_revolutions += 1
        self.rev = not self.rev
        self.stats.revolutions += 1
        self.revs_by_seat[p] += 1
        self.say("revolution" if self.rev else "counter-revolution")
        self.claim_armed_force(p)
        return True

    def step_jback(self, p: int, x: Play) -> None:
        """S3 / §4.19: a play containing a J sets J-back for the trick (DEC-46: no toggle back)."""
        if self.applies(R.C19_JBACK, p) and self.contains_rank(x, R.RJ):
            self.jback = (not self.jback) if self.pv[R.P_JBACK_TOGGLE] else True
            self.stats.jbacks += 1
            self.say("J-back")

    def step_pull_back(self, p: int, x: Play, t: Play | None) -> None:
        """S4 / §4.10 / DEC-36: k Ks (or k cards, ``pullback_count``) let p take up to k cards of
        the previous play t back from the field (D11; optional, QA-16.1)."""
        if t is None or not self.applies(R.C10_PULL_BACK, p):
            return
        kings = self.rank_count(x, R.RK)
        if not kings:
            return
        most = min(x.count if self.pv[R.P_PULL_PLAYED] else kings, len(t.cards))
        cards = self.ask(p, "pull_back", Subsets(t.cards, range(most + 1)))
        for c in cards:
            self.field.remove(c)
            self.hands[p].add(c)
        if cards:
            self.stats.pull_backs += 1
            self.stats.pulled_cards += len(cards)
            if self.log is not None:
                self.say(f"P{p} pulls back {' '.join(R.pretty(c) for c in sorted(cards))}")

    def step_ten_discard(self, p: int, x: Play) -> bool:
        """S5 / §4.3 / DEC-32: t represented 10s let p discard up to t cards face up (D12;
        mandatory variant: exactly min(t, hand)). Returns whether that emptied the hand."""
        if not self.hands[p] or not self.applies(R.C03_TEN_DISCARD, p):
            return False
        tens = self.rank_count(x, R.R10)
        if not tens:
            return False
        most = min(tens, len(self.hands[p]))
        if self.pv[R.P_03_MANDATORY] and most == len(self.hands[p]):
            cards = self.ask(p, "ten_discard", [sorted(self.hands[p])])
        else:
            sizes = (most,) if self.pv[R.P_03_MANDATORY] else range(most + 1)
            cards = self.ask(p, "ten_discard", Subsets(self.hands[p], sizes))
        for c in cards:
            self.hands[p].remove(c)
            self.discard.add(c)
        if cards:
            self.stats.ten_discards += 1
            self.stats.ten_discarded += len(cards)
            if self.log is not None:
                self.say(f"P{p} discards {' '.join(R.pretty(c) for c in sorted(cards))}")
        return not self.hands[p]

    def step_hunt(self, p: int, x: Play) -> None:
        """S6 / §4.11: a joker played during the hunt fulfils p's obligation; a single Q starts it."""
        if self.hunt and x.jokers:
            self.hunt_done.add(p)
        if not self.hunt and self.is_hunt_trigger(p, x):
            self.hunt = True
            self.stats.magician_hunts += 1
            self.say("magician hunt")

    def step_flux(self, p: int, revolted: bool) -> None:
        """S7 / §4.18 / DEC-45: after p's revolution (not after p went out) p swaps hands with the
        next active player (``rotate_all``: every active hand moves one seat clockwise); the
        precept is the holder's option (D13), the law is mandatory."""
        if not revolted or not self.hands[p] or not self.applies(R.C18_FLUX, p):
            return
        if R.C18_FLUX not in self.laws and not self.ask(p, "flux", [False, True]):
            return
        seats = [q for q in range(self.n) if self.active[q]]
        if not self.pv[R.P_FLUX_ROTATE]:
            seats = [p, self.next_active(p)]
        if len(set(seats)) < 2:
            return
        hands = [self.hands[q] for q in seats]
        for i, q in enumerate(seats):
            self.hands[q] = hands[i - 1]
        self.stats.flux_swaps += 1
        if self.log is not None:
            self.say("flux: hands move "
                     + " ".join(f"P{q}->P{seats[(i + 1) % len(seats)]}" for i, q in enumerate(seats)))

    def flux_source(self, p: int) -> int:
        """The seat whose hand p would receive through card 18 (D13)."""
        if not self.pv[R.P_FLUX_ROTATE]:
            return self.next_active(p)
        for i in range(1, self.n):
            q = (p - i) % self.n
            if self.active[q]:
                return q
        return p

    def step_locks(self, p: int, x: Play, t: Play, r_before: bool) -> None:
        """S8 / §4.14 / §4.15: locks from two consecutive plays, made by a player they apply to."""
        if x.kind == JOKER_SINGLE or t.kind == JOKER_SINGLE:
            return
        if self.applies(R.C14_SUIT_LOCK, p):
            shared = x.suits & t.suits
            if shared and (self.suit_lock == 0 or self.pv[R.P_LOCK_TIGHTEN]):
                if self.suit_lock == 0:
                    self.stats.suit_locks += 1
                    if self.log is not None:
                        self.say("suit lock " + "".join(R.SUIT_SYMBOLS[s] for s in range(4) if shared >> s & 1))
                self.suit_lock |= shared
        if self.applies(R.C15_NUMBER_LOCK, p) and not self.num_lock and one_step(x, t, r_before):
            self.num_lock = True
            self.stats.number_locks += 1
            self.say("number lock")
        if self.suit_lock and self.num_lock and not self.geki_counted:
            self.geki_counted = True
            self.stats.geki += 1

    def step_finish(self, p: int, x: Play, t: Play | None, r_before: bool, rev_before: bool, revolted: bool,
                    emptied: bool = False) -> bool:
        """S9 / §2.12: going out; a forbidden finish goes to the bottom (DEC-14); a hand emptied
        by an effect (card 03 discard) is forbidden too (§3.7 item 4). Returns forbidden."""
        self.active[p] = False
        forbidden = emptied or self.is_forbidden(p, x, t, r_before, rev_before, revolted)
        if forbidden and self.taboo(p):  # §4.4: card 04 lifts the forbidden finish
            self.stats.taboo_breaks += 1
            self.say(f"P{p} breaks the taboo (card 04)")
            forbidden = False
        if forbidden:
            self.place_bottom(p)
            self.stats.forbidden += 1
            self.ff_by_seat[p] += 1
            self.say(f"P{p} forbidden finish -> bottom")
            return True
        self.place_top(p)
        self.say(f"P{p} goes out, place {len(self.top_list)}")
        return False

    def step_flow_effects(self, p: int, x: Play, t: Play | None) -> bool:
        """S10: eight cut (09), three return (22), three 3s (23) flow the field; the player
        who made the play leads (the next active player if they went out). Returns flowed."""
        if self.applies(R.C09_EIGHT_CUT, p) and self.contains_rank(x, R.R8):
            self.stats.eight_cuts += 1
            self.say("eight cut")
        elif self.is_three_return(p, x, t):
            self.stats.three_returns += 1
            self.say("three return")
        elif self.is_three_threes(p, x):
            self.stats.three_threes += 1
            self.say("three 3s")
        else:
            return False
        self.flow(p if self.active[p] else self.next_active(p))
        return True
