"""Combinations (spec §3.1) for the reference engine: what a play is, how plays compare.

A ``Play`` is a set of cards with a representation: each card's *represented* card id
(natural cards represent themselves, a wild joker a designated rank and suit, a Joker
single the sentinel 52). Canonical representation (spec §6 D17): one play per distinct
card set and represented rank; wild jokers in a set take the locked suits missing from the
natural cards first, then the lowest missing suits; jokers in stairs fill the gaps in
ascending order.

Canonical order of plays (both engines list legal plays in this order): sets and singles
by (count, rank, card mask), then stairs by (length, low rank, suit), then card-02 fusions
(sets by fused size and added cards, then stairs by fused length and low rank), then the
Joker single.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations
from operator import attrgetter

from .rules import JOKER, pretty, RANK_NAMES, SUIT_SYMBOLS

SET, STAIRS, JOKER_SINGLE = 0, 1, 2
JOKERS = (JOKER, JOKER + 1)  # the Joker and the second joker of card 05
KIND_NAMES = ("set", "stairs", "joker")


@dataclass(frozen=True)
class Play:
    kind: int
    cards: tuple[int, ...]  # ascending card ids
    reps: tuple[int, ...]  # represented card per entry of ``cards`` (52 = the Joker)
    count: int
    low: int  # lowest represented rank (-1 for the Joker single)
    high: int
    suits: int  # bitmask of represented suits

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        """The hash, worked out once per play (legal plays are collected in dicts)."""
        return hash((self.kind, self.cards, self.reps))

    @cached_property
    def mask(self) -> int:
        return sum(1 << c for c in self.cards)

    @cached_property
    def jokers(self) -> int:
        return sum(1 for c in self.cards if c >= JOKER)

    @cached_property
    def substitutes(self) -> int:
        """Cards played as another rank through card 20 (§4.20)."""
        return sum(1 for c, r in zip(self.cards, self.reps) if c < JOKER and r != c)

    def key(self) -> tuple:
        """Sort key of the canonical order (a card-02 fusion: after stairs, before the Joker single)."""
        return self.order

    @cached_property
    def order(self) -> tuple:
        """``key``, worked out once per play."""
        whole = getattr(self, "whole", None)
        if whole is not None:
            return (2, whole.kind, whole.count, whole.low, self.mask)
        if self.kind == SET:
            return (0, self.count, self.low, 0, self.mask)
        if self.kind == STAIRS:
            return (1, self.count, self.low, _first_suit(self.suits), self.mask)
        return (3, 1, 0, 0, self.mask)

    def ranks(self, wild_counts: bool = True) -> tuple[int, ...]:
        """Represented ranks (wild jokers included unless ``wild_counts`` is false)."""
        return self.represented_ranks[wild_counts]

    @cached_property
    def represented_ranks(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``ranks(False)`` and ``ranks(True)``, worked out once per play."""
        natural = tuple(r // 4 for c, r in zip(self.cards, self.reps) if r < JOKER and c < JOKER)
        every = tuple(r // 4 for r in self.reps if r < JOKER)
        return natural, every

    def text(self) -> str:
        parts = []
        for c, r in zip(self.cards, self.reps):
            if c < JOKER:
                parts.append(pretty(c) if r == c else f"{pretty(c)}={RANK_NAMES[r // 4]}")
            elif r == JOKER:
                parts.append("Jk")
            else:
                parts.append(f"Jk={SUIT_SYMBOLS[r % 4]}{RANK_NAMES[r // 4]}")
        return "[" + " ".join(parts) + "]"


@dataclass(frozen=True)
class Fusion(Play):
    """A card-02 fusion (§4.2): the Play fields describe the cards added from the hand (their
    kind is the fused kind); ``whole`` is the fused combination that becomes the top play."""

    whole: Play | None = None

    def text(self) -> str:
        return Play.text(self) + " into " + self.whole.text()


def canonical(plays) -> list[Play]:
    """The plays in the canonical order (``Play.key``)."""
    return sorted(plays, key=_ORDER)


_ORDER = attrgetter("order")


def _fusion(t: Play, kind: int, pairs: list[tuple[int, int]]) -> Fusion:
    """The fusion adding (card, represented card) ``pairs`` to the top play t."""
    pairs = sorted(pairs)
    ranks = [r // 4 for _, r in pairs]
    suits = sum(1 << s for s in {r % 4 for _, r in pairs})
    allp = sorted(pairs + list(zip(t.cards, t.reps)))
    wr = [r // 4 for _, r in allp]
    whole = Play(kind, tuple(c for c, _ in allp), tuple(r for _, r in allp), len(allp), min(wr), max(wr),
                 t.suits | suits)
    return Fusion(kind, tuple(c for c, _ in pairs), tuple(r for _, r in pairs), len(pairs), min(ranks),
                  max(ranks), suits, whole)


def fusions_of(hand: set[int], t: Play, set_sizes, stairs_min: int, jokers_ok: bool) -> list[Fusion]:
    """§4.2 / DEC-30: cards of the hand that, added to the top play t, make a set of one of
    ``set_sizes`` (distinct represented suits) or, with ``stairs_min`` > 0, stairs of at least
    that length in t's suit (extending a run, or a single, on either side). Natural cards and
    jokers only; wild jokers take the lowest free suits (sets) or fill the missing ranks in
    ascending order (stairs)."""
    jokers = sorted(c for c in hand if c >= JOKER) if jokers_ok else []
    out = []
    if t.kind == SET:
        r = t.low
        free = [s for s in range(4) if not t.suits >> s & 1]
        nat = [s for s in free if 4 * r + s in hand]
        for k in set_sizes:
            need = k - t.count
            for j in range(0, min(len(jokers), max(need, 0)) + 1):
                for combo in combinations(nat, need - j) if need > 0 else ():
                    js = [s for s in free if s not in combo][:j]
                    if len(js) < j:
                        continue
                    pairs = [(4 * r + s, 4 * r + s) for s in combo] + list(zip(jokers[:j], (4 * r + s for s in js)))
                    out.append(_fusion(t, SET, pairs))
    if stairs_min and (t.kind == STAIRS or (t.kind == SET and t.count == 1)):
        s = _first_suit(t.suits)
        for L in range(max(stairs_min, t.count + 1), 14):
            if L - t.count > len(hand):
                break
            for low in range(max(0, t.high - L + 1), min(t.low, 13 - L) + 1):
                added = [r for r in range(low, low + L) if not t.low <= r <= t.high]
                pairs = [(4 * r + s, 4 * r + s) for r in added if 4 * r + s in hand]
                missing = [4 * r + s for r in added if 4 * r + s not in hand]
                if len(missing) > len(jokers):
                    continue
                out.append(_fusion(t, STAIRS, pairs + list(zip(jokers, missing))))
    return out


def _first_suit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def strength(rank: int, reversed_: bool) -> int:
    """§3.2: strength of a represented rank; reversed under revolution XOR J-back."""
    return 12 - rank if reversed_ else rank


@lru_cache(maxsize=None)
def ranks_at_least(rank: int, reversed_: bool) -> tuple[int, ...]:
    """§3.2: the ranks at least as strong as ``rank`` (ascending rank index)."""
    return tuple(r for r in range(13) if strength(r, reversed_) >= strength(rank, reversed_))


def value(x: Play, reversed_: bool) -> int:
    """§3.3: the number compared when beating: Joker single 13; stairs use the end that is weakest."""
    if x.kind == JOKER_SINGLE:
        return 13
    rank = x.high if x.kind == STAIRS and reversed_ else x.low
    return 12 - rank if reversed_ else rank  # strength(rank, reversed_)


def beats(x: Play, t: Play, reversed_: bool) -> bool:
    """§3.3 rules 1-2: same type and count, strictly stronger; the Joker single beats any single."""
    if t.kind == JOKER_SINGLE:
        return False
    if x.kind == JOKER_SINGLE:
        return t.kind == SET and t.count == 1
    if x.kind != t.kind or x.count != t.count:
        return False
    return value(x, reversed_) > value(t, reversed_)


def equal(x: Play, t: Play, reversed_: bool) -> bool:
    """§4.16: same type and count and equal strength (stairs: the same represented low rank)."""
    return x.kind == t.kind and x.count == t.count and value(x, reversed_) == value(t, reversed_)


def one_step(x: Play, t: Play, reversed_: bool) -> bool:
    """DEC-42: x is exactly one rank step stronger than t (stairs: adjacent runs)."""
    if x.kind != t.kind or x.kind == JOKER_SINGLE:
        return False
    if x.kind == STAIRS:
        return x.high == t.low - 1 if reversed_ else x.low == t.high + 1
    return value(x, reversed_) == value(t, reversed_) + 1


def designate(natural_suits: list[int], n_jokers: int, lock: int) -> list[int]:
    """Suits of wild jokers in a set: missing locked suits first, then the lowest missing."""
    need = [s for s in range(4) if lock >> s & 1 and s not in natural_suits]
    rest = [s for s in range(4) if s not in natural_suits and s not in need]
    return (need + rest)[:n_jokers]


# card 20 (§4.20): represented rank -> the rank that may stand for it (A as J, 2 as Q, 3 as K)
SUBSTITUTE = {8: 11, 9: 12, 10: 0}


def _physical(hand: set[int], r: int, s: int, subs: bool) -> int | None:
    """The card standing for rank r of suit s: the natural card, else (card 20) its substitute."""
    if 4 * r + s in hand:
        return 4 * r + s
    if subs and r in SUBSTITUTE and 4 * SUBSTITUTE[r] + s in hand:
        return 4 * SUBSTITUTE[r] + s
    return None


def _cards_by_rank(hand: set[int], subs: bool) -> list[tuple[int, ...]]:
    """Per rank, the cards standing for it, one per suit in suit order (a card's suit is its
    id % 4): the natural cards and, with ``subs`` (card 20), the A, 2 or 3 of a suit for its
    missing J, Q or K."""
    by_rank: list[tuple[int, ...]] = [()] * 13
    for c in sorted(hand):
        if c < JOKER:
            by_rank[c // 4] += (c,)
    if subs:
        for r, sub in SUBSTITUTE.items():
            natural = {c % 4 for c in by_rank[r]}
            stand_ins = [c for c in by_rank[sub] if c % 4 not in natural]  # only where the natural card is missing
            by_rank[r] = tuple(sorted(by_rank[r] + tuple(stand_ins), key=lambda c: c % 4))
    return by_rank


def sets_of(hand: set[int], counts, lock: int, lone_joker_wild: bool, ranks=range(13), subs: bool = False) -> list[Play]:
    """All sets/singles of the given sizes (ascending) and ranks (§3.1), jokers wild, 2-4 cards
    or 1; with ``subs`` (card 20) a missing J, Q or K of a suit may be its A, 2 or 3 (only when
    needed). In the canonical order for ascending ``ranks``."""
    jokers = jokers_in(hand)
    by_rank = _cards_by_rank(hand, subs)
    most_held = max(map(len, by_rank))
    out = []
    for k in counts:
        fewest_held = k - len(jokers)  # fewer cards of a rank make no set of k
        if fewest_held > most_held:
            break  # no rank makes a set this large (nor larger)
        known = _known_sets(jokers, k, lock, lone_joker_wild)
        for r in ranks:
            held = by_rank[r]
            if len(held) >= fewest_held:
                plays = known.get((r, held))
                if plays is None:
                    plays = known[r, held] = _sets_of_rank_size(r, held, jokers, k, lock, lone_joker_wild)
                out += plays
    return out


@lru_cache(maxsize=None)
def _known_sets(jokers: tuple[int, ...], k: int, lock: int, lone_joker_wild: bool) -> dict:
    """The sets of k cards (``_sets_of_rank_size``) worked out so far with these jokers, locked
    suits and joker rule, by (rank, cards held): hands ask the same few questions per rank."""
    return {}


def _sets_of_rank_size(r: int, held: tuple[int, ...], jokers: tuple[int, ...], k: int, lock: int,
                       lone_joker_wild: bool) -> tuple[Play, ...]:
    """The sets of k cards of rank r from the ``held`` cards standing for it (one per suit, in
    suit order) and the ``jokers``, in the canonical order."""
    phys = {c % 4: c for c in held}
    suits = list(phys)
    base = 4 * r
    natural = all(c // 4 == r for c in held)
    out = []
    for j in range(0, min(len(jokers), k) + 1):
        n = k - j
        if (n == 0 and k == 1 and not lone_joker_wild) or n > len(suits):
            continue
        for nat in combinations(suits, n):
            js = _designated(nat, j, lock)
            if len(js) < j:
                continue
            if natural:  # no substitute: natural cards ascending, then the jokers
                cards = tuple(base + s for s in nat)
                reps = cards + tuple(base + s for s in js)
                out.append(Play(SET, cards + jokers[:j], reps, k, r, r, _suit_mask(nat + js)))
                continue
            pairs = [(phys[s], base + s) for s in nat] + list(zip(jokers[:j], (base + s for s in js)))
            pairs.sort()
            out.append(Play(SET, tuple(c for c, _ in pairs), tuple(x for _, x in pairs), k, r, r,
                            sum(1 << (x % 4) for _, x in pairs)))
    return tuple(canonical(out))


@lru_cache(maxsize=None)
def _suit_mask(suits: tuple[int, ...]) -> int:
    return sum(1 << s for s in suits)


@lru_cache(maxsize=None)
def _designated(natural_suits: tuple[int, ...], n_jokers: int, lock: int) -> tuple[int, ...]:
    """``designate``, remembered (sets_of asks the same few questions again and again)."""
    return tuple(designate(list(natural_suits), n_jokers, lock)) if n_jokers else ()


def stairs_of(hand: set[int], length: int | None, subs: bool = False) -> list[Play]:
    """§3.1/§4.21: same-suit runs of 3+ consecutive represented ranks, no wrap-around, jokers fill
    gaps; with ``subs`` (card 20) a gap at J, Q or K takes its A, 2 or 3 when that card is not
    in the run itself, before a joker does."""
    jokers = jokers_in(hand)
    longest = min(13, len(hand))
    lengths = tuple(range(3, longest + 1)) if length is None else ((length,) if length <= longest else ())
    out = []
    for s in range(4):
        phys = tuple(_physical(hand, r, s, subs) for r in range(13))  # the card standing for each rank
        out += _stairs_of_suit(s, phys, jokers, lengths)
    return out


@lru_cache(maxsize=1 << 16)
def _stairs_of_suit(s: int, phys: tuple[int | None, ...], jokers: tuple[int, ...],
                    lengths: tuple[int, ...]) -> tuple[Play, ...]:
    """The runs of ``stairs_of`` in suit s from ``phys``, the card standing for each rank (None:
    a gap), remembered: a suit of a hand is asked again until one of its cards is played."""
    held = sum(1 for c in phys if c is not None)
    out = []
    for L in lengths:
        if held + len(jokers) < L:
            break  # not enough cards of this suit for a run this long (nor longer)
        for low in range(0, 14 - L):
            window = range(low, low + L)
            pairs, missing = [], []
            for r in window:
                c = phys[r]
                if c is not None and c != 4 * r + s and c // 4 in window:
                    c = None  # the substitute already stands for itself in this run
                if c is None:
                    missing.append(4 * r + s)
                else:
                    pairs.append((c, 4 * r + s))
            if not pairs or len(missing) > len(jokers):
                continue
            pairs = sorted(pairs + list(zip(jokers, missing)))
            out.append(Play(STAIRS, tuple(c for c, _ in pairs), tuple(x for _, x in pairs), L, low,
                            low + L - 1, 1 << s))
    return tuple(out)


def jokers_in(hand: set[int]) -> tuple[int, ...]:
    """The jokers of the hand, ascending (the Joker 52 and, with card 05, the second joker 53)."""
    if JOKER + 1 in hand:  # the second joker
        return JOKERS if JOKER in hand else (JOKER + 1,)
    return (JOKER,) if JOKER in hand else ()


def joker_single(hand: set[int]) -> list[Play]:
    """The Joker single of the hand (its lowest joker), if it holds one."""
    for c in JOKERS:
        if c in hand:
            return [_joker_single(c)]
    return []


@lru_cache(maxsize=None)
def _joker_single(joker: int) -> Play:
    return Play(JOKER_SINGLE, (joker,), (JOKER,), 1, -1, -1, 0)


def dobon_value(rank: int) -> int:
    """§1.2 numeric value of a rank index for card 25: A=1, 2=2, 3..10 face, J=11, Q=12, K=13."""
    return rank + 3 if rank <= 10 else rank - 10


def dobon_targets(a: int, b: int) -> int:
    """Bit mask of the values 1..13 that a and b reach by +, |−|, × or an exact ÷ (DEC-51)."""
    out = {a + b, abs(a - b), a * b}
    if a % b == 0:
        out.add(a // b)
    if b % a == 0:
        out.add(b // a)
    return sum(1 << v for v in out if 1 <= v <= 13)


def dobon_hits(a: int, b: int, target: int) -> bool:
    return bool(dobon_targets(a, b) >> target & 1)
