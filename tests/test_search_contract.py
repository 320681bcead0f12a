"""The search's hidden-information contract (sim.kit.search), checked for every registered game with a
search bot (``Step.search_module``; its all-seeing and weighted variants where the game has them).

The search does not peek: what the seat cannot see, permuted as its view allows, leaves its choice
unchanged, and the same check fails a search that peeks; so for the weighted search, and a weight
that reads the true hidden cards is caught; with every weight 1 the weighted search is the search;
the all-seeing search's worlds are the true game; the driver marks the variants' seats. What a seat
of the game cannot see is the game's own (``tests/<game>/hidden.py``, by rule ID); the per-game data
(``hidden``) is in tests/<game>/cases.py. The search's runs, its reference-engine play and its copies:
tests/test_step_contract.py.
"""

from __future__ import annotations

from itertools import islice

import numpy as np
import pytest

from sim.games import get_game
from sim.games.base import seat_bots
from sim.kit.search import MODE_HONEST, MODE_SEEING, MODE_WEIGHTED, sub_key
from sim.kit.search_params import SEARCH, SEARCH_BOTS, SEEING, WEIGHTED
from tests.game_cases import case
from tests.searching import (
    case_states, driver_of, hidden_rules, keep_the_true_game, search_budget, search_choice, search_config, stream_key,
)
from tests.test_game_contract import GAMES
from tests.test_step_contract import _search_of

MODES = {SEARCH: MODE_HONEST, SEEING: MODE_SEEING, WEIGHTED: MODE_WEIGHTED}
LIGHT_STATES = 5  # the weighted no-peeking check's least states with a world weighing below 1
PEEK = 0.01  # the peeking weight: this to the number of hidden cards a world holds elsewhere than the game


@pytest.fixture(params=GAMES)
def game(request):
    return get_game(request.param)


def _needs(game, bot: str) -> None:
    """Skip unless the game has a search bot and ``bot``."""
    _search_of(game)
    if bot not in game.bots:
        pytest.skip(f"{game.name} has no {bot} search bot")


def permuted_pairs(game, bot: str) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """(state, the state with what its seat cannot see permuted, the search stream) for ``bot``'s
    no-peeking check, as many as the game's ``pairs`` (and ``also_pairs`` at the decisions its
    ``also`` names) allow; fails unless there are as many as they ask for, of the ``kinds`` asked.
    The seat knows its search stream: the permuted state has the same decision number."""
    hidden = case(game.name, "hidden")
    rules = hidden_rules(game)
    also = getattr(rules, hidden["also"]) if "also" in hidden else None
    quotas = {False: hidden["pairs"][bot]}
    if bot in hidden.get("also_pairs", {}):
        quotas[True] = hidden["also_pairs"][bot]
    cfg, k, driver = search_config(game), game.step.kernel(), driver_of(game.step.search())
    rng = np.random.default_rng(1)
    options = np.zeros(game.step.max_options, dtype=np.int64)
    pairs, kinds = {group: [] for group in quotas}, set()
    for index, state in case_states(game):
        if all(len(pairs[group]) >= most for group, (most, _) in quotas.items()):
            break
        group = True in quotas and also(state)
        if len(pairs[group]) >= quotas[group][0]:
            continue
        seat, kind = k.step_pending(state)
        if k.step_legal(state, options) < 2:  # no choice to compare
            continue
        other = rules.permuted(state, int(seat), rng)
        if other is None:
            continue
        assert driver.decision_number(other, seat) == driver.decision_number(state, seat)
        pairs[group].append((state, other, stream_key(game, cfg, index, state)))
        kinds.add(game.step.kinds[kind])
    counts = {group: len(p) for group, p in pairs.items()}
    assert all(counts[group] >= least for group, (_, least) in quotas.items()), (counts, quotas)
    assert hidden.get("kinds", {}).get(bot, set()) <= kinds, kinds
    return [pair for group in quotas for pair in pairs[group]]


def test_no_peeking_same_choice_when_the_hidden_cards_are_permuted(game):
    """What the seat cannot see, permuted consistently with everything it saw (the game's
    ``permuted``), leaves the search's choice unchanged (the same search stream); the same check
    fails a search whose worlds are the game itself (``keep_the_true_game``): given the same
    pairs, it changes its choice."""
    _needs(game, SEARCH)
    budget = search_budget(game)
    pairs = permuted_pairs(game, SEARCH)
    assert [search_choice(game, a, key, budget) for a, _, key in pairs] == \
        [search_choice(game, b, key, budget) for _, b, key in pairs]
    peeks = [(search_choice(game, a, key, budget, determinize=keep_the_true_game),
              search_choice(game, b, key, budget, determinize=keep_the_true_game)) for a, b, key in pairs]
    assert any(x != y for x, y in peeks)


def weighs_below_1(game, state: np.ndarray, key: int, worlds: int = 8) -> bool:
    """Does one of the first ``worlds`` worlds re-dealt at ``state`` from the stream ``key`` weigh
    below 1 (the game's ``likelihood``)?"""
    search = game.step.search()
    seat = np.int64(game.step.kernel().step_pending(state)[0])
    for i in range(worlds):
        w = state.copy()
        if search.determinize.py_func(w, state, seat, sub_key(np.uint64(key), i)) and \
                search.likelihood(w, state, seat) < 1.0:
            return True
    return False


def test_no_peeking_weighted_choice_unchanged_when_the_hidden_cards_are_permuted(game):
    """The weighted search gives the same choice on states whose hidden cards are permuted
    consistently with the seat's view (the same stream), as the search does, at states where its
    worlds weigh differently (some below 1, in at least ``LIGHT_STATES``); the same check fails a
    weight that reads the true hidden cards (``PEEK`` to the number of them a world holds
    elsewhere: worlds nearer the game weigh more)."""
    _needs(game, WEIGHTED)
    budget = search_budget(game)
    pairs = permuted_pairs(game, WEIGHTED)
    assert sum(weighs_below_1(game, a, key) for a, _, key in pairs) >= LIGHT_STATES
    assert [search_choice(game, a, key, budget, MODE_WEIGHTED) for a, _, key in pairs] == \
        [search_choice(game, b, key, budget, MODE_WEIGHTED) for _, b, key in pairs]
    rules = hidden_rules(game)

    def peek(w, truth, seat):
        return PEEK ** float(np.abs(rules.unseen_cards(w)[0] - rules.unseen_cards(truth)[0]).sum())

    peeks = [(search_choice(game, a, key, budget, likelihood=peek),
              search_choice(game, b, key, budget, likelihood=peek)) for a, b, key in pairs]
    assert any(x != y for x, y in peeks)


def test_with_every_weight_1_the_weighted_search_is_the_search(game):
    """The weighted search with a weight of 1 for every world chooses as the search does (the same
    worlds and rollouts from the same stream): the weights are the only difference."""
    _needs(game, WEIGHTED)
    for _, state in islice(case_states(game), 6):
        key = 77 + int(game.step.kernel().step_pending(state)[0])
        assert search_choice(game, state, key, 12, likelihood=lambda w, b, seat: 1.0) == \
            search_choice(game, state, key, 12)


def test_the_all_seeing_world_is_the_true_game(game):
    """Every world the all-seeing search keeps (``reveal``) holds every hidden card where the game
    does (the game's ``unseen_cards``), the cards it draws again as the same multiset, the same
    pending decision and the seat's view; over varied states nearly every world is kept, and the
    multiset's order is drawn again in a share of them."""
    _needs(game, SEEING)
    seeing = case(game.name, "hidden")["seeing"]
    search, k, rules = game.step.search(), game.step.kernel(), hidden_rules(game)
    kept = tried = reordered = 0
    for i, (_, state) in enumerate(islice(case_states(game), seeing["states"])):
        seat = k.step_pending(state)[0]
        placed, shuffled = rules.unseen_cards(state)
        for t in range(seeing["tries"]):
            w = state.copy()
            tried += 1
            if not search.reveal.py_func(w, state, np.int64(seat), np.uint64(7000 * i + t)):
                continue
            kept += 1
            w_placed, w_shuffled = rules.unseen_cards(w)
            assert np.array_equal(w_placed, placed)
            if shuffled is not None:
                assert np.array_equal(np.sort(w_shuffled), np.sort(shuffled))
                reordered += not np.array_equal(w_shuffled, shuffled)
            assert k.step_pending(w) == k.step_pending(state)
            assert search.same_view(w, state, np.int64(seat))
    assert kept >= 0.9 * tried, (kept, tried)
    if seeing["reordered"] is not None:
        assert reordered >= seeing["reordered"] * kept, (reordered, kept)


def test_the_search_variants_seats_are_marked_for_the_search_driver(game):
    """``start_search_game`` drives the all-seeing and weighted seats as search seats (its mask)
    and marks them: the driver searches the true game for the all-seeing seat, weighted worlds for
    the weighted one, re-dealt worlds for the search and for no other seat."""
    _search_of(game)
    variants = [b for b in (WEIGHTED, SEEING) if b in game.bots]
    if not variants:
        pytest.skip(f"{game.name} has no all-seeing or weighted search bot")
    scripted = next(b for b in game.bots if b not in SEARCH_BOTS)
    bots = [scripted, *variants, SEARCH]
    bots += [scripted] * (game.default_players - len(bots))
    cfg = game.make_config(players=len(bots), bots=bots, seed=2)
    search, k = game.step.search(), game.step.kernel()
    buf = np.zeros(k.SIZE, dtype=np.int64)
    mask = search.start_search_game(buf, np.uint64(cfg.seed), np.int64(0), game.step.run_vector(cfg))
    seated = seat_bots(cfg, 0)
    assert int(mask) == sum(1 << s for s, b in enumerate(seated) if b in SEARCH_BOTS)
    world_mode = driver_of(search).world_mode
    assert [world_mode(buf, s) for s in range(cfg.players)] == [MODES.get(b, MODE_HONEST) for b in seated]
