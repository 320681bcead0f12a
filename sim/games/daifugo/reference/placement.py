"""Reference engine, what follows a play (``Placements``): passes, the next turn and the field
flow (§2.11), placements and the capital fall (§2.12, §3.8), card 13's claim (§4.13). The fast
engine's twin: ``kernel/resolve.py``.
"""

from __future__ import annotations

from .. import rules as R


class Placements:
    """Passes, turns, the field flow and placements (mixed into ``driver.Engine``)."""

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
