"""Post-exchange effects (spec §2.8, DEC-4) for the reference engine: card 05 Trickster (the
second joker, §4.5) and card 12 Collusion (§4.12, law swaps and the precept's take-and-give).

Each step asks all of its decisions before any card moves, so a scenario that stops at one of
them resumes from unchanged hands."""

from __future__ import annotations

from . import rules as R

C05, C12 = R.C05_TRICKSTER, R.C12_COLLUSION


def trickster_recipient(eng) -> int:
    """§4.5: the law gives the joker to the king (round 1: the start player, QA-05.3); the
    precept to its holder (QA-05.2); -1 when card 05 is not in play or has resolved."""
    if eng.trickster_done:
        return -1
    if C05 in eng.laws:
        return eng.king if eng.king >= 0 else eng.start_player
    return eng.owner[C05]


def give_second_joker(eng, p: int) -> None:
    """§4.5: the second joker (Jk2) joins p's hand once; the game has 54 cards from now on (QA-05.1)."""
    eng.hands[p].add(R.JOKER + 1)
    eng.jokers = 2
    eng.trickster_done = True
    eng.stats.second_joker = 1
    eng.say(f"trickster: P{p} receives the second joker")


def resolve_trickster(eng) -> None:
    """§2.8 step 1 / DEC-33: after the exchange of the round card 05 entered play."""
    p = trickster_recipient(eng)
    if p >= 0:
        give_second_joker(eng, p)


def collusion_applies_now(eng) -> bool:
    """DEC-8: card 12 acts in round 1 too unless ``collusion_round1`` is off."""
    return eng.round_no > 1 or bool(eng.pv[R.P_12_ROUND1])


def collusion_order(eng) -> list[int]:
    """§4.12: the commoners clockwise from the seat after the king; round 1 every player
    clockwise from the start player (DEC-8)."""
    if eng.king >= 0:
        return [(eng.king + i) % eng.n for i in range(1, eng.n)]
    return [(eng.start_player + i) % eng.n for i in range(eng.n)]


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


def collusion_law(eng) -> None:
    """§4.12 law (D4): each commoner picks a card secretly, then the cards move."""
    if C12 not in eng.laws or not collusion_applies_now(eng):
        return
    pairs = collusion_partners(collusion_order(eng))
    gifts = {g: eng.ask(g, "collude", sorted(eng.hands[g])) for g, _ in pairs}
    for g, rcv in pairs:
        eng.hands[g].remove(gifts[g])
        eng.hands[rcv].add(gifts[g])
        eng.say(f"collusion: P{g} gives a card to P{rcv}")
    eng.stats.collusion_swaps += len(pairs)


def collusion_targets(eng, holder: int) -> list[int]:
    """§4.12 precept: any other non-king player (round 1: any other player), clockwise from the holder."""
    seats = [(holder + i) % eng.n for i in range(1, eng.n)]
    return [q for q in seats if q != eng.king and eng.hands[q]]


def collusion_precept(eng) -> None:
    """§4.12 precept / DEC-38 (D5): the holder may take a non-king player's strongest card (the
    giver picks among ties) and then gives that player any card of the new hand."""
    h = eng.owner[C12]
    if h < 0 or C12 in eng.laws or not collusion_applies_now(eng):
        return
    targets = collusion_targets(eng, h)
    if not targets:
        return
    q = eng.ask(h, "collusion", [None, *targets])
    if q is None:
        return
    best = eng.strongest_value(q)
    x = eng.ask(q, "collusion_give", sorted(c for c in eng.hands[q] if eng.exchange_value(c) == best))
    y = eng.ask(h, "collusion_return", sorted(eng.hands[h] | {x}))
    eng.hands[q].remove(x)
    eng.hands[h].add(x)
    eng.hands[h].remove(y)
    eng.hands[q].add(y)
    eng.stats.collusion_takes += 1
    eng.say(f"collusion precept: P{h} takes {R.pretty(x)} from P{q} and gives {R.pretty(y)}")
