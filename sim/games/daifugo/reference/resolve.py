"""Reference engine, a play and what follows it (``Resolution``): the on-play resolution order
S1-S11 of §4.26 (``make_play``, one ``step_*`` method per step), passes, the next turn and the
field flow (§2.11), placements and the capital fall (§2.12, §3.8), card 13's claim. The fast
engine's twin: ``kernel/resolve.py``.
"""

from __future__ import annotations

from .. import rules as R
from ..plays import JOKER_SINGLE, STAIRS, Fusion, Play, one_step, value
from .state import Subsets


class Resolution:
    """Plays, passes and placements (mixed into ``driver.Engine``)."""

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

    def claim_armed_force(self, q: int) -> None:
        """S2 / §4.13 step 1 / DEC-39: a revolution by q claims the round if A(13, q); a later
        revolution by anyone makes an earlier claim fizzle (``round_end``: by an entitled player)."""
        entitled = self.applies(R.C13_ARMED_FORCE, q)
        if not entitled and (self.af_claim < 0 or self.pv[R.P_AF_MODE] == R.AF_ROUND_END):
            return
        if self.af_claim >= 0 and self.af_claim != q:
            self.stats.af_fizzles += 1
            self.say(f"armed force of P{self.af_claim} fizzles")
        self.af_claim = q if entitled else -1
        if entitled:
            self.stats.af_claims += 1
            self.say(f"armed-force claim P{q}")

    def confirm_claim(self) -> None:
        """§4.13 step 2: a pending claim becomes the win of the round (trick end, round end,
        or at once with ``armed_force_resolution = immediate``)."""
        q, self.af_claim = self.af_claim, -1
        if q >= 0:
            self.promote(q)

    def promote(self, q: int) -> None:
        """§4.13 step 2, QA-13.1-13.3, DEC-40: q becomes 1st; a displaced 1st falls to the very
        bottom (a capital fall, bonus to the others); with nobody placed, the king falls (§3.8)."""
        if self.top_list and self.top_list[0] == q:
            return
        falls = self.stats.capital_falls
        self.stats.af_promotions += 1
        if self.active[q]:
            self.leave_round(q)
        elif q in self.top_list:
            self.top_list.remove(q)
        else:
            self.bottom_list.remove(q)
            self.stats.af_promotions_from_bottom += 1
        self.say(f"armed force: P{q} is 1st")
        if self.top_list:
            first = self.top_list.pop(0)
            self.top_list.insert(0, q)
            self.fall_to_bottom(first, f"1st P{first}")
        else:
            self.top_list.insert(0, q)
            self.capital_fall(q)
        self.stats.af_capital_falls += self.stats.capital_falls - falls

    def pass_turn(self, p: int) -> None:
        """§2.11.3 / DEC-11: a pass; with lock-out the player sits out the rest of the trick."""
        self.passed.add(p)
        self.stats.passes += 1
        self.say(f"P{p} passes")
        self.next_turn(p)

    def next_turn(self, p: int) -> None:
        """§2.11.4 (a)/(b): next active, not passed player; reaching the owner (or nobody) flows."""
        if self.n_active() <= 1:
            return
        owner = self.top_owner
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if self.active[q] and q not in self.passed:
                if q == owner:
                    self.flow(owner)
                else:
                    self.turn = q
                return
        self.flow(self.next_active(owner))  # DEC-12

    def flow(self, leader: int) -> None:
        """§2.11.5: field to the discard pile; J-back, locks, passes cleared; revolution stays."""
        self.discard |= self.field
        self.field = set()
        self.top = None
        self.top_owner = -1
        self.jback = False
        self.suit_lock = 0
        self.num_lock = False
        self.geki_counted = False
        self.hunt = False
        self.hunt_done = set()
        self.passed = set()
        if self.pv[R.P_AF_MODE] == R.AF_TRICK_END:
            self.confirm_claim()  # §2.11.5 step 3
        if leader >= 0 and not self.active[leader]:
            leader = self.next_active(leader)  # §2.11.6: the promoted claimant left the round
        self.turn = leader
        self.recycle_pending = True  # §2.11.5 step 4: the card-01 window
        self.say(f"field flows; P{leader} leads" if leader >= 0 else "field flows")

    def place_bottom(self, p: int) -> None:
        """DEC-14: latest lowest (default) or earliest lowest."""
        if self.pv[R.P_EARLIEST_LOWEST]:
            self.bottom_list.insert(0, p)
        else:
            self.bottom_list.append(p)

    def place_top(self, p: int) -> None:
        self.top_list.append(p)
        if len(self.top_list) == 1:
            self.capital_fall(p)

    def capital_fall(self, first: int) -> None:
        """§3.8: in round >= 2 a new 1st other than the king sends the king to the very bottom;
        his hand goes face up to the discard pile (DEC-16); +bonus to everyone else."""
        k = self.king
        if self.round_no < 2 or k < 0 or first == k:
            return
        if self.active[k]:
            self.leave_round(k)
        elif k in self.bottom_list and self.pv[R.P_CF_PLACED]:  # DEC-28
            self.bottom_list.remove(k)
        else:
            return
        self.fall_to_bottom(k, f"king P{k}")

    def leave_round(self, q: int) -> None:
        """DEC-16: an active player leaves the round; the hand goes face up to the discard pile."""
        self.active[q] = False
        (self.discard if self.pv[R.P_EXIT_DISCARD] else self.removed).update(self.hands[q])
        self.hands[q] = set()
        self.passed.discard(q)

    def fall_to_bottom(self, k: int, who: str) -> None:
        """§3.8: k goes to the very bottom (last place); +bonus to every other player."""
        self.bottom_list.append(k)
        self.stats.capital_falls += 1
        for q in range(self.n):
            if q != k:
                self.bonus_pts[q] += self.pv[R.P_CF_BONUS]
                self.stats.bonus[q] += self.pv[R.P_CF_BONUS]
        self.say(f"capital fall: {who} to last place")
