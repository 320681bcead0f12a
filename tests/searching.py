"""Shared by the search's contract tests (tests/test_step_contract.py, tests/test_search_contract.py)
and the games' own search tests: the table with a search seat and the states it is tested at."""

from __future__ import annotations

from importlib import import_module

import numpy as np

from sim.kit.search import MODE_HONEST, MODE_WEIGHTED, N_STATS, SearchParts, SearchPlan, decide, search_key, unit_weight
from tests.game_cases import case

GAMES_DRIVEN = 24  # the most games ``search_states`` drives


def search_config(game):
    """The table with a search seat of the game's contract data (``search`` in tests/<game>/cases.py)."""
    table = case(game.name, "search")
    assert "search" in table["bots"], f"{game.name}: the search data's table has no search seat"
    return game.make_config(players=len(table["bots"]), bots=table["bots"], seed=5, overrides=table["overrides"])


def search_budget(game) -> int:
    """The search seat's budget in ``search_config``."""
    return int(case(game.name, "search")["overrides"]["bot.search.budget"])


def driver_of(search):
    """The ``sim.kit.search.SearchDriver`` of a game's search module (its entry points are the driver's)."""
    return search.search_option.__self__


def search_states(game, cfg, every: int, also=None, least_options: int = 1, games: int = GAMES_DRIVEN):
    """Copies of the games of ``cfg`` driven for their search seat, with their game index: at every
    ``every``-th decision the search weighs that has ``least_options`` options or more, and at each
    of these for which ``also(buf)`` holds. Each such decision is answered by a fixed
    pseudo-random option, so the states are varied."""
    search, k = game.step.search(), game.step.kernel()
    run = game.step.run_vector(cfg)
    options = np.zeros(game.step.max_options, dtype=np.int64)
    counted = 0
    for index in range(games):
        buf = np.zeros(k.SIZE, dtype=np.int64)
        search.start_search_game(buf, np.uint64(cfg.seed), np.int64(index), run)
        search.advance(buf, options)
        while k.step_pending(buf)[0] >= 0:
            n = k.step_legal(buf, options)
            option = options[(counted * 7919) % n]
            if n >= least_options:
                if counted % every == 0 or (also is not None and also(buf)):
                    yield index, buf.copy()
                counted += 1
            assert k.step_apply(buf, option) == 0
            search.advance(buf, options)


def hidden_rules(game):
    """The game's module of what a seat cannot see (``hidden``'s ``cards`` in tests/<game>/cases.py)."""
    return import_module(case(game.name, "hidden")["cards"])


def case_states(game):
    """``search_states`` of ``search_config`` as the game's hidden-information data asks
    (``hidden``: ``every``, ``least_options``, and ``also``, a function of its ``cards`` module)."""
    hidden = case(game.name, "hidden")
    also = getattr(hidden_rules(game), hidden["also"]) if "also" in hidden else None
    return search_states(game, search_config(game), hidden["every"], also, hidden.get("least_options", 1))


def stream_key(game, cfg, index: int, b: np.ndarray) -> int:
    """The search stream of the pending seat's decision in game ``index`` (``sim.kit.search.search_key``
    of the decision number the seat knows)."""
    seat = int(game.step.kernel().step_pending(b)[0])
    decision = driver_of(game.step.search()).decision_number(b, seat)
    return int(search_key(np.uint64(cfg.seed), np.int64(index), np.int64(seat), np.int64(decision)))


def keep_the_true_game(w, b, seat, key) -> bool:
    """A determinization that peeks: the world is the game itself, what the seat cannot see (its
    generator counter included) where it is."""
    return True


def search_choice(game, b: np.ndarray, key: int, budget: int, mode: int = MODE_HONEST, determinize=None,
                  likelihood=None) -> int:
    """The pending search seat's choice at ``b`` with the search stream ``key``: the game's cached
    ``search_decide`` with the worlds of ``mode``; with another ``determinize(w, b, seat, key)``
    or a ``likelihood(world, b, seat)`` (the weighted search), ``sim.kit.search.decide`` run as
    Python over the game's compiled parts and these, nothing compiled anew."""
    search, k = game.step.search(), game.step.kernel()
    seat = int(k.step_pending(b)[0])
    opts, stats = np.empty(game.step.max_options, dtype=np.int64), np.zeros(N_STATS, dtype=np.int64)
    if determinize is None and likelihood is None:
        return int(search.search_decide(b, seat, np.uint64(key), SearchPlan(budget, 0, 1, mode), opts, stats))

    def redeal(w, b, seat, key):  # a compiled uint64 comes back to Python as an int
        return search.determinize.py_func(w, b, seat, np.uint64(key))

    redeal = determinize or redeal
    plan = SearchPlan(budget, 0, 1, MODE_WEIGHTED if likelihood is not None else mode)
    parts = SearchParts(k.step_legal, search.resume_copy, redeal, redeal, likelihood or unit_weight,
                        search.rollout.py_func, search.score)
    return int(decide.py_func(b, seat, np.uint64(key), plan, opts, parts, stats))
