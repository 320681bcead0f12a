"""What a virus-dogs seat cannot see (VD-22): the hands of the opponents whose hands were not shown
and the deck below the cards it saw. The search's hidden-information contract
(tests/test_search_contract.py) permutes and compares them (``hidden`` in tests/game_cases.py)."""

import numpy as np

from sim.games.virus_dogs import kernel as K
from sim.games.virus_dogs.kernel import search as KS
from sim.games.virus_dogs.kernel import state as S
from sim.games.virus_dogs.rules import V
from sim.kit.step import STOP_AT_NEXT

NT, NF = S.NT, S.NF


def snap(x: int) -> int:
    return S.O_USNAP + x


def in_another_turn(b: np.ndarray) -> bool:
    """Is the pending decision one of a turn not the deciding seat's?"""
    return bool(b[snap(S.S_CUR)] != b[S.S_PSEAT])


def hidden_places(b: np.ndarray, seat: int) -> list[tuple]:
    """What ``seat`` cannot place at the unit's start (VD-22): the hand cards of the live
    opponents whose hands were not shown in the unit, as ("hand", owner) per card, and the
    deck below the cards it saw there this unit (its own turn: every card drawn or peeked at;
    another's: those seen face up before the first private draw) and the known-top viruses,
    as ("deck", slot)."""
    n, d0 = int(b[S.S_N]), int(b[snap(S.S_DSIZE)])
    seen = int(b[S.S_U_D0] - b[S.S_U_INTACT])
    if seat != b[snap(S.S_CUR)] and b[S.S_U_PRIVATE]:
        seen = int(b[S.S_U_PUBLIC])
    seen = max(seen, int(b[snap(S.S_KTOP)]))
    places = [("deck", i) for i in range(d0 - seen)]
    for o in range(n):
        if o != seat and b[snap(S.O_PL + o * NF + S.F_LIVE)] and not (b[S.S_U_SHOWN] >> o) & 1:
            places += [("hand", o)] * int(b[snap(S.O_PL + o * NF + S.F_HS)])
    return places


def hidden_swaps(state: np.ndarray, seat: int, rng: np.random.Generator, swaps: int = 6) -> np.ndarray | None:
    """``state`` with what ``seat`` cannot know permuted at the unit's start: cards swapped
    between the opponents' hands and the deck (an opponent never holding more hidden viruses
    than its suspicion, the cards it took unseen since its hand was shown); None unless
    replaying the unit then shows the seat exactly what it saw (``same_view``)."""
    b = state.copy()
    places = hidden_places(b, seat)
    if len(places) < 2:
        return None
    owners = {x for kind, x in places if kind == "hand"}
    left = {o: [t for t in range(NT) for _ in range(int(b[snap(S.O_H + o * NT + t)]))] for o in owners}
    cards = [int(b[KS.U_DECK + x]) if kind == "deck" else left[x].pop() for kind, x in places]
    for _ in range(swaps):
        i, j = rng.integers(len(places), size=2)
        cards[i], cards[j] = cards[j], cards[i]
    for o in owners:
        b[snap(S.O_H + o * NT):snap(S.O_H + o * NT) + NT] = 0
    for (kind, x), c in zip(places, cards):
        if kind == "deck":
            b[KS.U_DECK + x] = c
        else:
            b[snap(S.O_H + x * NT + c)] += 1
    for o in owners:
        if b[snap(S.O_H + o * NT + V)] > b[snap(S.O_PL + o * NF + S.F_SUS)]:
            return None
    deck = b[KS.U_DECK:KS.U_DECK + int(b[snap(S.S_DSIZE)])]
    b[snap(S.S_VDECK)] = int((deck == V).sum())
    K.resume_at(b, STOP_AT_NEXT)
    return b if KS.same_view(b, state, np.int64(seat)) else None


def permuted(state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray | None:
    """``hidden_swaps``, or None when the unit's snapshots came out unchanged."""
    other = hidden_swaps(state, seat, rng)
    return None if other is None or np.array_equal(other[S.O_USNAP:S.O_PSNAP], state[S.O_USNAP:S.O_PSNAP]) else other


def unseen_cards(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(every hand, as the all-seeing world holds it; the deck, which it holds as a multiset and
    may reorder below the cards seen)."""
    return b[S.O_H:S.O_H + int(b[S.S_N]) * NT], b[S.O_DECK:S.O_DECK + int(b[S.S_DSIZE])]
