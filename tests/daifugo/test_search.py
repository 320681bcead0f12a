"""The daifugo search bot (sim.search, kernel/search.py): it does not peek at the opponents' hands,
the set-aside or removed cards or the rule deck's order (§2.4, DEC-1, DEC-16), and it leaves setup
decisions to its rollout bot. Its runs for any batch and worker count, the reference engine's play
of it and a search decision leaving the game as it was: tests/test_step_contract.py."""

import numpy as np
import pytest

from sim.games.daifugo import GAME
from sim.games.daifugo import kernel as K
from sim.games.daifugo import rules as R
from sim.games.daifugo.kernel import search as KS
from sim.games.daifugo.kernel import state as S
from sim.games.daifugo.kernel.step import resume_at
from sim.rng_compiled import mix64
from sim.search import BOT_ANSWER, search_key
from tests.searching import search_choice

BOTS = ["search", "strategist", "greedy", "strategist"]
CFG = GAME.make_config(players=4, bots=BOTS, seed=5,
                       overrides={"mode": "madness", "bot.search.budget": 24, "bot.search.horizon": 12})
BUDGET = 24


def search_states(games: int, every: int = 2) -> list[np.ndarray]:
    """Copies of driven games at every ``every``-th decision the search weighs (each search
    decision answered by a fixed pseudo-random choice, so the states are varied)."""
    run = K.run_vector(GAME, CFG)
    out, options, k = [], np.zeros(GAME.step.max_options, dtype=np.int64), 0
    for gi in range(games):
        g = K.new_state()
        KS.start_search_game(g, np.uint64(CFG.seed), np.int64(gi), run)
        KS.advance(g, options)
        while g[S.PSEAT] >= 0:
            n = K.step_legal(g, options)
            if k % every == 0:
                out.append(g.copy())
            K.step_apply(g, options[(k * 7919) % n])
            k += 1
            KS.advance(g, options)
    return out


def hidden_swaps(state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray | None:
    """``state`` with what ``seat`` cannot know permuted at the unit's snapshot: cards swapped
    between the opponents' hands and the set-aside and removed cards (an opponent's cards put
    face up in the unit stay with it), the undrawn rule cards reordered; None unless replaying
    the unit then shows the seat exactly what it saw (``same_view``)."""
    b = state.copy()
    snap = S.SNAP
    shown = (b[S.FIELD] | b[S.DISC]) & ~(b[snap + S.FIELD] | b[snap + S.DISC])
    zones = [S.H0 + o for o in range(int(b[S.NP])) if o != seat] + [S.UNDEALT, S.REMOVED]
    cards = [(z, c) for z in zones for c in range(R.N_CARD_IDS) if b[snap + z] >> c & 1 and not shown >> c & 1]
    owners = [z for z, _ in cards]
    ids = [c for _, c in cards]
    rng.shuffle(ids)
    for z in zones:
        b[snap + z] &= shown
    for z, c in zip(owners, ids):
        b[snap + z] |= 1 << c
    lo, hi = int(b[snap + S.DECK_PTR]), int(b[snap + S.DECK_LEN])
    b[snap + S.DECK0 + lo:snap + S.DECK0 + hi] = rng.permutation(b[snap + S.DECK0 + lo:snap + S.DECK0 + hi])
    resume_at(b, 1)
    return b if KS.same_view(b, state, np.int64(seat)) else None


def peeking(w, b, seat, key):
    """A determinization that peeks: the true cards, a new generator counter (from Python)."""
    w[S.SNAP + S.RNG] = np.uint64(mix64(np.uint64(key))).view(np.int64)
    resume_at(w, 1)
    return w[S.PSEAT] == b[S.PSEAT] and w[S.PKIND] == b[S.PKIND]


def choice(b: np.ndarray, determinize=None) -> int:
    seat = int(b[S.PSEAT])
    key = search_key(np.uint64(CFG.seed), np.int64(0), np.int64(seat), b[S.DECISIONS])
    rollout = KS.rollout.py_func if determinize else None  # from Python: the compiled step_go, no new compile
    return search_choice(K, KS, b, seat, key, BUDGET, GAME.step.max_options, determinize, rollout)


@pytest.fixture(scope="module")
def states():
    return search_states(4)


def test_no_peeking_same_choice_when_the_hidden_cards_are_permuted(states):
    """§2.4, DEC-1, DEC-16: the opponents' hands, the set-aside and removed cards and the
    undrawn rule cards, permuted consistently with everything the seat saw, leave its choice
    unchanged (same search stream); the peeking variant, given the same states, changes it."""
    rng = np.random.default_rng(1)
    pairs, kinds = [], set()
    for state in states:
        if len(pairs) >= 40:
            break
        other = None
        for _ in range(4):
            other = hidden_swaps(state, int(state[S.PSEAT]), rng)
            if other is not None:
                break
        if other is not None and not np.array_equal(other[S.SNAP:S.SNAP + S.STATE_SIZE],
                                                    state[S.SNAP:S.SNAP + S.STATE_SIZE]):
            pairs.append((state, other))
            kinds.add(int(state[S.PKIND]))
    assert len(pairs) >= 30 and S.K_PLAY in kinds
    assert [choice(a) for a, _ in pairs] == [choice(b) for _, b in pairs]
    peeks = [(choice(a, peeking), choice(b, peeking)) for a, b in pairs]
    assert any(x != y for x, y in peeks)  # the same check fails for a search that reads the hidden cards


def test_setup_and_oversized_decisions_go_to_the_rollout_bot():
    """The search weighs only turn decisions within its budget: a round's setup decision with
    two or more options (D1 draft, D2 gifts ...) is answered by the rollout bot."""
    run = K.run_vector(GAME, CFG)
    g = K.new_state()
    KS.start_search_game(g, np.uint64(CFG.seed), np.int64(0), run)
    options = np.zeros(GAME.step.max_options, dtype=np.int64)
    assert g[S.SNAP + S.IN_ROUND] == 0 and K.step_legal(g, options) >= 2  # madness: the D1 draft comes first
    assert g[S.PKIND] == S.K_DRAFT
    assert KS.unsearched(g, options) == BOT_ANSWER
    assert K.step_apply(g, np.int64(BOT_ANSWER)) == 0
