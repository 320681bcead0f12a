"""The faking-sick search bot (sim.search, kernel_search.py): it does not peek (FS-11.2/11.3).
Its runs for any batch and worker count, the reference engine's play of it and a search decision
leaving the game as it was: tests/test_step_contract.py."""

import numpy as np

from sim.games.faking_sick import GAME
from sim.games.faking_sick import kernel as K
from sim.games.faking_sick import kernel_search as KS
from sim.games.faking_sick import kernel_state as S
from sim.games.faking_sick.rules import K_BPP, K_N, NT, VIR
from sim.rng_compiled import mix64
from sim.search import search_key
from tests.searching import search_choice

BOTS = ["search", "bluffer", "caller", "honest"]
CFG = GAME.make_config(players=4, bots=BOTS, seed=5, overrides={"bot.search.budget": 24})


def snap(x: int) -> int:
    return S.SNAP + x - S.MUTABLE


def search_states(games: int, every: int = 3) -> list[np.ndarray]:
    """Copies of driven games at every ``every``-th decision of their search seat (each game's
    search seat answered by a fixed pseudo-random choice, so the states are varied)."""
    run = K.run_vector(GAME, CFG)
    out, options, k = [], np.zeros(GAME.step.max_options, dtype=np.int64), 0
    for gi in range(games):
        g = K.new_state()
        KS.start_search_game(g, np.uint64(CFG.seed), np.int64(gi), run)
        while g[S.PSEAT] >= 0:
            n = K.step_legal(g, options)
            if k % every == 0:
                out.append(g.copy())
            K.step_apply(g, options[(k * 7919) % n])
            k += 1
    return out


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
    K.resume_at(b)
    return b if KS.same_view(b, state, np.int64(seat)) else None


def ok(b, place, c) -> bool:
    """May card type ``c`` lie at ``place`` (FS-8.3: no virus in a banned slot; cleared types)?"""
    if place[0] != "slot":
        return True
    return c != VIR and (place[1] < 0 or b[snap(S.CLEARED + place[1] * NT + c)] == 0)


def peeking(w, b, seat, key):
    """A determinization that peeks: the true cards, a new generator counter."""
    w[S.SNAP + S.RNG - S.MUTABLE] = np.uint64(mix64(np.uint64(key))).view(np.int64)
    w[S.PSEAT] = -1
    K.resume_at(w)
    return w[S.PSEAT] == b[S.PSEAT] and w[S.PKIND] == b[S.PKIND]


def choice(b: np.ndarray, determinize=None) -> int:
    seat = int(b[S.PSEAT])
    key = search_key(np.uint64(CFG.seed), np.int64(0), np.int64(seat), b[S.GAME_ROW + KS.G_DECISIONS])
    return search_choice(K, KS, b, seat, key, 24, GAME.step.max_options, determinize)


def test_no_peeking_same_choice_when_the_hidden_cards_are_permuted():
    """FS-11.3: opponents' hands, the pile order and hidden banned cards, permuted consistently
    with everything the seat saw, leave its choice unchanged (same search stream); the peeking
    variant, given the same states, changes its choice."""
    rng = np.random.default_rng(1)
    pairs, kinds = [], set()
    for state in search_states(6):
        if len(pairs) >= 40:
            break
        options = np.zeros(GAME.step.max_options, dtype=np.int64)
        if K.step_legal(state, options) < 2:
            continue
        other = hidden_swaps(state, int(state[S.PSEAT]), rng)
        if other is not None and not np.array_equal(other[S.SNAP:], state[S.SNAP:]):
            pairs.append((state, other))
            kinds.add(int(state[S.PKIND]))
    assert len(pairs) >= 30 and {S.TURN, S.CALL} <= kinds
    assert [choice(a) for a, _ in pairs] == [choice(b) for _, b in pairs]
    peeks = [(choice(a, peeking), choice(b, peeking)) for a, b in pairs]
    assert any(x != y for x, y in peeks)  # the same check fails for a search that reads the hidden cards
