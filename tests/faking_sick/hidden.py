"""What a faking-sick seat cannot see (FS-11.2/11.3): the opponents' hands, the draw pile's order and
the face-down banned cards. The search's hidden-information contract (tests/test_search_contract.py)
permutes and compares them (``hidden`` in tests/game_cases.py)."""

import numpy as np

from sim.games.faking_sick import kernel as K
from sim.games.faking_sick.kernel import search as KS
from sim.games.faking_sick.kernel import state as S
from sim.games.faking_sick.rules import K_BPP, K_N, NT, VIR
from sim.kit.step import STOP_AT_NEXT


def snap(x: int) -> int:
    return S.SNAP + x - S.MUTABLE


def hidden_swaps(state: np.ndarray, seat: int, rng: np.random.Generator, swaps: int = 40) -> np.ndarray | None:
    """``state`` with what ``seat`` cannot know permuted at the turn's snapshot: cards swapped
    between opponents' hands, the draw pile, opponents' face-down banned cards and the unused
    pool (no virus into a banned slot, none of a type its owner was cleared of); None unless
    replaying the turn then shows the seat exactly what it saw (``same_view``)."""
    b = state.copy()
    n, k = int(b[K_N]), int(b[K_BPP])
    pool_at = S.SNAP + S.FIXED_STOP - S.MUTABLE
    pool_n, pile_n = int(b[snap(S.POOL_SIZE)]), int(b[snap(S.ND)])
    places = []  # ("hand", owner, type) per card, ("pile", i), ("slot", owner, i)
    for o in range(n):
        if o != seat:
            for t in range(NT):
                places += [("hand", o, t)] * int(b[snap(S.HAND + o * NT + t)])
    places += [("pile", i) for i in range(pile_n)]
    places += [("slot", i // k if i < n * k else -1, i) for i in range(pool_n)
               if b[pool_at + i] >= 0 and not (i < n * k and i // k == seat)]

    def card(p):
        if p[0] == "hand":
            return p[2]
        return int(b[pool_at + pool_n + p[1]] if p[0] == "pile" else b[pool_at + p[2]])

    cards = [card(p) for p in places]
    for _ in range(swaps):
        i, j = rng.integers(len(places), size=2)
        ci, cj = cards[j], cards[i]
        if not (ok(b, places[i], ci) and ok(b, places[j], cj)):
            continue
        cards[i], cards[j] = ci, cj
    for o in range(n):
        if o != seat:
            b[snap(S.HAND + o * NT):snap(S.HAND + o * NT) + NT] = 0
    for p, c in zip(places, cards):
        if p[0] == "hand":
            b[snap(S.HAND + p[1] * NT + c)] += 1
        elif p[0] == "pile":
            b[pool_at + pool_n + p[1]] = c
        else:
            b[pool_at + p[2]] = c
    b[S.PSEAT] = -1
    K.resume_at(b, STOP_AT_NEXT)
    return b if KS.same_view(b, state, np.int64(seat)) else None


def ok(b, place, c) -> bool:
    """May card type ``c`` lie at ``place`` (FS-8.3: no virus in a banned slot; cleared types)?"""
    if place[0] != "slot":
        return True
    return c != VIR and (place[1] < 0 or b[snap(S.CLEARED + place[1] * NT + c)] == 0)


def permuted(state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray | None:
    """``hidden_swaps``, or None when the turn's snapshot came out unchanged."""
    other = hidden_swaps(state, seat, rng)
    return None if other is None or np.array_equal(other[S.SNAP:], state[S.SNAP:]) else other


def unseen_cards(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(every hand and banned card, as the all-seeing world holds them; the draw pile, which it
    holds as a multiset and may reorder)."""
    hands = b[S.HAND:S.HAND + int(b[K_N]) * NT]
    return np.concatenate([hands, b[S.BANNED:S.BANNED + int(b[S.POOL_SIZE])]]), b[S.DRAW:S.DRAW + int(b[S.ND])]
