"""The per-game data of the contract tests (tests/test_game_contract.py, tests/test_step_contract.py).

One dict per game, by game id: a built-in game's is ``CASE`` in its test folder,
``tests/<package>/cases.py``; the suite's own plug-ins' (``toy``, ``toy-step``) are below. A
registered game (``sim.games``) without its entry, or an entry without a key a contract test
needs, fails that test with a message naming the key and the file (``case``), so the contract
tests run for every game the registry has.

Keys:

- ``scenario``: a scenario that stops at a state which can be fed back (docs/scenarios*.md: no
  pending or unresolved cards, no open call window);
- ``recounted``: state fields that count once more when an output state inside a turn is fed
  back (a documented exception to "fed back, the state reproduces itself");
- ``waiting_scenario``: a small valid scenario that stops ``waiting`` after its first decision
  (tests/test_scenario_envelope.py);
- ``bad_configs``: ``(make_config keyword arguments, part of the one-line message)``;
- ``bad_scenarios``: ``(scenario spec, part of the one-line message)``;
- ``batch_rows(raw, k, players)``, ``batch_sums(raw)``: the raw arrays of a fast batch as
  ``Step.outcome`` names them, for game ``k`` of the batch and summed over the batch (games
  with the step contract);
- ``driver_seat_games``: the games per rule variant driven with one seat the driver's;
- ``single_options_counted``: whether the ``decisions`` column counts decisions of one option;
- ``search``: a table with a search seat (``bots``, ``overrides``) and the games its run
  (``games``) and its reference-engine check (``reference_games``) play (games with a search bot);
- ``learned``: tables for the learned bot's engine check (games with a learned bot): ``bots``
  with its seats, the rule ``overrides`` and the ``games`` both engines play, and a table with
  a search seat whose rollouts the learned bot plays (``search_bots``, ``search_games``);
- ``hidden``: what a seat cannot see, for the search's hidden-information contract
  (tests/test_search_contract.py; games with a search bot): ``cards``, the game's module of it
  (``permuted(state, seat, rng)``: the state with what the seat cannot see permuted as its view
  allows, or None; ``unseen_cards(b)``: the hidden cards an all-seeing world holds where they
  are, and those it holds as a multiset or None); the states tested
  (``tests.searching.search_states``: every ``every``-th decision of ``least_options`` options or
  more, default 1, and each that the module's function ``also`` names); per search bot the most
  and the least ``pairs`` of permuted states compared (``also_pairs``: those at ``also``'s
  decisions, counted apart) and the decision ``kinds`` that must be among them; for the
  all-seeing bot (``seeing``) the ``states`` and the worlds revealed at each (``tries``), and
  the least share of the kept worlds whose multiset is reordered (``reordered``, or None);
- ``feel``: the game-feel columns the contract checks over simulated games (``leader_from``,
  the first turn it can name ``first_turn``, the tables to play ``tables``) and the figures of
  its report section (``section``: a run of ``games`` in batches of ``batch``, and ``rows(games,
  seats)``: the game's own figures by measure, from the run's tables), or None for a game whose
  feel measures follow other definitions (checked in its own tests);
- ``chart_games``: the games of the reference-engine run whose report charts and tables are
  checked (tests/test_report_charts.py).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from sim.games import MODULES

SPEC_FILE = "tests/game_cases.py"
TESTS = Path(__file__).parent


def case_file(game: str) -> str:
    """Where ``game``'s contract-test data is kept."""
    return f"tests/{MODULES[game].rsplit('.', 1)[1]}/cases.py" if game in MODULES else SPEC_FILE


def _built_in_cases() -> dict[str, dict]:
    """``CASE`` of every built-in game whose test folder has a cases.py."""
    found = {}
    for game in MODULES:
        if (TESTS.parent / case_file(game)).is_file():
            found[game] = importlib.import_module(case_file(game)[:-3].replace("/", ".")).CASE
    return found


CASES = {**_built_in_cases(),
    "toy": {  # the test plug-in (tests/toy_game.py), registered through CARDLAB_GAMES
        "scenario": {"game": "toy", "seed": 1, "state": {"note": "echoed"}},
        "recounted": {},
        "bad_configs": [
            (dict(players=9), "2 to 5 players"),
            (dict(overrides={"lucky_bonus": 14}), "bad value 14 for 'lucky_bonus'"),
        ],
        "bad_scenarios": [],
        "feel": None,
    },
    "toy-step": {  # the step-contract template (tests/toy_step/), registered through CARDLAB_GAMES
        "scenario": {"game": "toy-step", "seed": 1, "state": {"note": "echoed"}},
        "recounted": {},
        "bad_configs": [
            (dict(players=6), "2 to 5 players"),
            (dict(overrides={"redraws": 6}), "bad value 6 for 'redraws'"),
        ],
        "bad_scenarios": [],
        "batch_rows": lambda raw, k, n: {"games": np.array([raw["winner"][k], raw["nwin"][k], raw["turns"][k]]),
                                         "cards": raw["cards"][k]},
        "batch_sums": lambda raw: {},
        "driver_seat_games": 10,
        "single_options_counted": True,
        "search": {"bots": ["search", "plain", "search", "lucky", "search"], "overrides": {"bot.search.budget": 24},
                   "games": 8, "reference_games": 6},
        "hidden": {"cards": "tests.toy_step.hidden", "every": 1, "pairs": {"search": (20, 15)},
                   "kinds": {"search": {"redraw"}}},
        "feel": None,  # no lead to follow: one card a seat
    },
}


def case(game: str, key: str):
    """The contract-test data ``key`` of ``game``; a test fails naming what to add where."""
    if key not in CASES.get(game, {}):
        pytest.fail(f"add '{key}' for {game} to {case_file(game)}")
    return CASES[game][key]
