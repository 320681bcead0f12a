"""Reference engine, the legal plays (``MoveGen``): §3.3 beating, the locks of cards 14 and 15,
the permissions of cards 06, 16, 20, 21, 22, 23, card-02 fusions and the card-17 variant, in the
canonical order of ``plays.py``. The fast engine's twin: ``kernel/movegen.py``.
"""

from __future__ import annotations

from .. import rules as R
from ..plays import (JOKER_SINGLE, SET, STAIRS, Fusion, Play, beats, equal, fusions_of, joker_single, one_step,
                     canonical, ranks_at_least, sets_of, stairs_of, value)


class MoveGen:
    """Legal plays of the player to act (mixed into ``driver.Engine``)."""

    def legal_plays(self, p: int) -> list[Play]:
        """§3.3 + locks + card permissions (06, 16, 22, 23): every legal play for p now, one
        canonical representation each, in the canonical order."""
        lone = bool(self.pv[R.P_LONE_WILD])
        hand = self.hands[p]
        t = self.top
        subs = self.applies(R.C20_DESCENT, p)
        if t is None:
            out = sets_of(hand, (1, 2, 3, 4), 0, lone, subs=subs)
            if self.may_lead_stairs(p):
                out += stairs_of(hand, None, subs)
            out += joker_single(hand)
            return self.exile_filter(p, canonical(out))
        rv = self.reversed
        cand = []
        if self.applies(R.C23_WISDOM, p):
            cand += sets_of(hand, (3,), self.suit_lock, lone, [R.R3])
        if t.kind == JOKER_SINGLE:
            if self.applies(R.C22_THREE_RETURN, p):
                cand += sets_of(hand, (1,), self.suit_lock, lone, [R.R3])
            cand += joker_single(hand)
        elif t.kind == SET:
            counts = (1, 2, 3, 4) if self.applies(R.C06_SLIP, p) else (t.count,)  # a set has 1-4 cards
            cand += sets_of(hand, counts, self.suit_lock, lone, ranks_at_least(t.low, rv), subs)
            cand += joker_single(hand)
        elif self.may_follow_stairs(p):
            cand += stairs_of(hand, t.count, subs)
        out = {x: None for x in cand if self.may_play(p, x)}
        out.update(dict.fromkeys(self.fusion_plays(p)))
        return self.exile_filter(p, canonical(out))

    def fusion_plays(self, p: int) -> list[Fusion]:
        """S0 / §4.2 / DEC-30: card-02 fusions of p onto the top play: revolution-size for p
        (4-sets; 3-sets with 07; stairs of 4+, 3 with 07, where p may play stairs); not onto a
        Joker single; no joker when 17 restricts p (QA-02.3); locks only with
        ``fusion_respects_locks`` (then no fusion while a lock binds p)."""
        t = self.top
        if t is None or t.kind == JOKER_SINGLE or not self.applies(R.C02_FUSION, p):
            return []
        if self.pv[R.P_FUSION_LOCKS] and ((self.suit_lock and not self.precept_holder(R.C14_SUIT_LOCK, p))
                                          or (self.num_lock and not self.precept_holder(R.C15_NUMBER_LOCK, p))):
            return []
        three = self.applies(R.C07_THREE_REV, p)
        stairs = (t.kind == STAIRS and self.may_follow_stairs(p)) or (
            t.kind == SET and t.count == 1 and self.applies(R.C21_STAIRS, p))
        return fusions_of(self.hands[p], t, (3, 4) if three else (4,), (3 if three else 4) if stairs else 0,
                          not self.exile_restricts(p))

    def exile_filter(self, p: int, plays: list[Play]) -> list[Play]:
        """DEC-44 variant ``exile_mode = illegal``: joker revolutions of restricted players are not legal."""
        if not self.pv[R.P_EXILE_ILLEGAL] or not self.exile_restricts(p):
            return plays
        return [x for x in plays if not self.exiled(p, x)]

    def is_legal(self, p: int, x: Play) -> bool:
        """Whether p may make play x now, for any representation of its jokers (the same
        rules as ``legal_plays``, which lists one canonical representation per play)."""
        if any(c not in self.hands[p] for c in x.cards):
            return False
        if x.kind == SET and x.count == 1 and x.jokers and not self.pv[R.P_LONE_WILD]:
            return False  # DEC-23 variant: a lone joker is only the Joker
        if x.substitutes and not self.applies(R.C20_DESCENT, p):
            return False  # §4.20: A as J, 2 as Q, 3 as K only with card 20
        if self.pv[R.P_EXILE_ILLEGAL] and self.exiled(p, x):
            return False  # DEC-44 variant
        if self.top is None:
            return x.kind != STAIRS or self.may_lead_stairs(p)
        if x.kind != JOKER_SINGLE and self.hunt_forces(p, self.legal_plays(p)):
            return False
        return self.may_play(p, x)

    def may_play(self, p: int, x: Play) -> bool:
        """S0 of §4.26 for a follow: beating (§3.3) or a card's permission, then the locks."""
        t = self.top
        if self.is_three_threes(p, x):
            return True  # 23: on anything, ignoring count, strength and locks (DEC-49)
        if t.kind == JOKER_SINGLE:
            if self.is_three_return(p, x, t):
                return True  # 22: ignores locks (DEC-48)
            return x.kind == JOKER_SINGLE and self.may_play_equal(p)  # 16: Joker on Joker
        if x.kind == STAIRS and not self.may_follow_stairs(p):
            return False
        rv = self.reversed
        if not (beats(x, t, rv) or self.is_slip(p, x, t) or (self.may_play_equal(p) and equal(x, t, rv))):
            return False
        return self.locks_allow(p, x)

    def may_play_equal(self, p: int) -> bool:
        """§4.16: card 16 lets p match the top play's strength, never under a number lock."""
        return self.applies(R.C16_SAMENESS, p) and not self.num_lock

    def is_slip(self, p: int, x: Play, t: Play) -> bool:
        """§4.6 / DEC-34: with 06, a single (or the Joker) onto a set, or a set onto a single,
        still stronger rank against rank; never with stairs (QA-06.1)."""
        return self.slip_shape(p, x, t) and value(x, self.reversed) > value(t, self.reversed)

    def slip_shape(self, p: int, x: Play, t: Play) -> bool:
        """06 applies to p and x is a single on a set or a set on a single (sets of different
        sizes cannot replace each other)."""
        if not self.applies(R.C06_SLIP, p) or t.kind != SET or x.kind == STAIRS or x.count == t.count:
            return False
        return x.count == 1 or t.count == 1

    def may_lead_stairs(self, p: int) -> bool:
        """§4.21: stairs exist only through card 21 (law: everyone; precept: the holder leads)."""
        return self.applies(R.C21_STAIRS, p)

    def may_follow_stairs(self, p: int) -> bool:
        """DEC-47: with the 21 precept, others may follow the holder's stairs (configurable)."""
        if self.applies(R.C21_STAIRS, p):
            return True
        return self.owner[R.C21_STAIRS] >= 0 and bool(self.pv[R.P_21_FOLLOW])

    def locks_allow(self, p: int, x: Play) -> bool:
        """§4.14 / §4.15: locked suits must be present; number lock needs the next rank.
        Precept holders ignore their lock (QA-14.3, QA-15.2); the Joker single is exempt
        from the suit lock (QA-14.2) and, by DEC-43, from the number lock."""
        if x.kind == JOKER_SINGLE:
            return not (self.num_lock and not self.pv[R.P_JOKER_NUMLOCK]
                        and not self.precept_holder(R.C15_NUMBER_LOCK, p))
        if self.suit_lock and not self.precept_holder(R.C14_SUIT_LOCK, p):
            if x.suits & self.suit_lock != self.suit_lock:
                return False
        if self.num_lock and not self.precept_holder(R.C15_NUMBER_LOCK, p):
            if not one_step(x, self.top, self.reversed):
                return False
        return True

    def hunt_forces(self, p: int, moves: list[Play]) -> bool:
        """§4.11 / DEC-37: during the hunt a joker holder who has not played a joker in it must
        play one Joker single when that is legal for them (two jokers: one only, QA-11.1)."""
        return self.hunt and p not in self.hunt_done and any(m.kind == JOKER_SINGLE for m in moves)

    def why_illegal(self, p: int, x: Play) -> str:
        """A readable reason why play x is not legal for p now (scenario reports)."""
        t = self.top
        if x.kind == SET and x.count == 1 and x.jokers and not self.pv[R.P_LONE_WILD]:
            return "a lone joker is only the Joker (lone_joker_wild is off)"
        if x.substitutes and not self.applies(R.C20_DESCENT, p):
            return "an A as J, a 2 as Q or a 3 as K needs card 20"
        if self.pv[R.P_EXILE_ILLEGAL] and self.exiled(p, x):
            return "magician exile: no revolution with a joker (card 17, exile_mode = illegal)"
        if x.kind == STAIRS and t is None and not self.may_lead_stairs(p):
            return "stairs need card 21 (law, or the holder's precept to lead)"
        if t is None:
            return "not a legal lead"
        if x.kind != JOKER_SINGLE and self.hunt_forces(p, self.legal_plays(p)):
            return "magician hunt: a joker must be played as the Joker (card 11)"
        if t.kind == JOKER_SINGLE:
            return "nothing beats a Joker single here"
        if x.kind == STAIRS and not self.may_follow_stairs(p):
            return "stairs need card 21"
        rv = self.reversed
        slip = self.is_slip(p, x, t)
        shape = self.slip_shape(p, x, t)
        if x.kind == JOKER_SINGLE and not (t.kind == SET and t.count == 1) and not shape:
            return f"must match the top play's type and count ({t.count} card(s)): a Joker single goes on singles"
        if x.kind != JOKER_SINGLE and (x.kind != t.kind or x.count != t.count) and not shape:
            return f"must match the top play's type and count ({t.count} card(s))"
        if equal(x, t, rv) and self.applies(R.C16_SAMENESS, p) and self.num_lock:
            return "number lock: no equal-strength plays (card 16)"
        if not (beats(x, t, rv) or slip or (self.may_play_equal(p) and equal(x, t, rv))):
            return "does not beat the top play"
        if not self.locks_allow(p, x):
            # the card-15 precept holder ignores the number lock: then the suit lock refuses it
            num_binds = self.num_lock and not self.precept_holder(R.C15_NUMBER_LOCK, p)
            if num_binds and (x.kind == JOKER_SINGLE or not one_step(x, t, self.reversed)):
                return "number lock: must be exactly one rank stronger"
            return "suit lock: must contain " + "".join(R.SUIT_SYMBOLS[s] for s in range(4) if self.suit_lock >> s & 1)
        return "not a legal play"
