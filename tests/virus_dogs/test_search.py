"""The virus-dogs search bot (sim.search, kernel_search.py): it does not peek (VD-22) and its worlds
keep what the seat saw. Its runs for any batch and worker count, the reference engine's play of it
and a search decision leaving the game as it was: tests/test_step_contract.py."""

import numpy as np

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs import kernel as K
from sim.games.virus_dogs import kernel_search as KS
from sim.games.virus_dogs import kernel_state as S
from sim.games.virus_dogs.rules import V
from sim.rng_compiled import mix64
from sim.search import search_key
from tests.searching import search_choice

BOTS = ["search", "cautious", "aggressive", "cautious"]
BUDGET = 24
CFG = GAME.make_config(players=4, bots=BOTS, seed=5, overrides={"bot.search.budget": BUDGET})
NT, NF = S.NT, S.NF


def snap(x: int) -> int:
    return S.O_USNAP + x


def search_states(games: int, every: int = 2) -> list[np.ndarray]:
    """Copies of driven games at every ``every``-th decision of their search seat with two
    options or more in its own turns, and at each in the others' (each game's search seat
    answered by a fixed pseudo-random choice, so the states are varied)."""
    run = K.run_vector(GAME, CFG)
    out, options, k = [], np.zeros(GAME.step.max_options, dtype=np.int64), 0
    for gi in range(games):
        g = K.new_state()
        KS.start_search_game(g, CFG.seed, gi, run)
        while g[S.S_PSEAT] >= 0:
            n = K.step_legal(g, options)
            if n > 1:
                if k % every == 0 or g[snap(S.S_CUR)] != g[S.S_PSEAT]:
                    out.append(g.copy())
                k += 1
            K.step_apply(g, options[(k * 7919) % n])
    return out


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
    K.resume_at(b, True)
    return b if KS.same_view(b, state, np.int64(seat)) else None


def peeking(w, b, seat, key):
    """A determinization that peeks: the true cards, a new generator counter (from Python)."""
    w[KS.U_RNG] = np.uint64(mix64(np.uint64(key))).view(np.int64)
    K.resume_at(w, True)
    return w[S.S_PSEAT] == b[S.S_PSEAT] and w[S.S_PKIND] == b[S.S_PKIND]


def choice(b: np.ndarray, key: int, determinize=None) -> int:
    return search_choice(K, KS, b, int(b[S.S_PSEAT]), key, BUDGET, GAME.step.max_options, determinize)


def test_no_peeking_same_choice_when_the_hidden_cards_are_permuted():
    """VD-22: the opponents' hands and the deck's order, permuted consistently with everything
    the seat saw, leave its choice unchanged (the same search stream, whose decision number the
    seat knows too); the peeking variant, given the same states, changes its choice."""
    rng = np.random.default_rng(1)
    pairs, kinds = {True: [], False: []}, set()  # by whose turn: the seat's own, another's
    for state in search_states(24, every=3):
        seat = int(state[S.S_PSEAT])
        own = bool(state[snap(S.S_CUR)] == seat)
        if len(pairs[own]) >= (30 if own else 12):
            continue
        other = hidden_swaps(state, seat, rng)
        if other is not None and not np.array_equal(other[S.O_USNAP:S.O_PSNAP], state[S.O_USNAP:S.O_PSNAP]):
            assert KS.decision_number(other, seat) == KS.decision_number(state, seat)
            pairs[own].append((state, other, search_key(np.uint64(CFG.seed), np.int64(0), np.int64(seat),
                                                        KS.decision_number(state, seat))))
            kinds.add(GAME.step.kinds[int(state[S.S_PKIND])])
    assert len(pairs[True]) == 30 and len(pairs[False]) >= 6 and {"action", "draw_another"} <= kinds, kinds
    pairs = pairs[True] + pairs[False]
    assert [choice(a, k) for a, _, k in pairs] == [choice(b, k) for _, b, k in pairs]
    peeks = [(choice(a, k, peeking), choice(b, k, peeking)) for a, b, k in pairs]
    assert any(x != y for x, y in peeks)  # the same check fails for a search that reads the hidden cards


def test_worlds_keep_what_the_seat_saw():
    """A re-dealt world replays the unit to the seat's decision and shows it the same (VD-22):
    over varied states most re-deals are kept, each kept world has the seat's own hand and every
    public count, and the re-deals differ from the game in the hidden cards."""
    kept = tried = differ = 0
    for i, state in enumerate(search_states(4, every=3)[:40]):
        seat = int(state[S.S_PSEAT])
        for t in range(4):
            w = state.copy()
            tried += 1
            if KS.determinize.py_func(w, state, np.int64(seat), np.uint64(1000 * i + t)):
                kept += 1
                assert np.array_equal(w[S.O_H + seat * NT:S.O_H + (seat + 1) * NT],
                                      state[S.O_H + seat * NT:S.O_H + (seat + 1) * NT])
                assert all(w[x] == state[x] for x in KS.PUBLIC_SCALARS)
                differ += not np.array_equal(w[S.O_H:S.O_H + 4 * NT], state[S.O_H:S.O_H + 4 * NT])
    assert kept >= 0.7 * tried and differ >= 0.5 * kept, (kept, tried, differ)
