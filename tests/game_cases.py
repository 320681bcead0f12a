"""The per-game data of the contract tests (tests/test_game_contract.py, tests/test_step_contract.py).

One dict per game, by game id. A registered game (``sim.games``) without its entry, or an entry
without a key a contract test needs, fails that test with a message naming the key and this file
(``case``), so the contract tests run for every game the registry has.

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

import numpy as np
import pytest

SPEC_FILE = "tests/game_cases.py"


def faking_sick_feel_rows(g, s) -> dict:
    """Faking-sick's own Game feel figures (a win is never shared: a winner is the one winner)."""
    won = g[g["n_winners"] == 1]
    return {"winner once held 3+ cards more than the fewest held": (won["winner_max_behind"] >= 3).mean(),
            "draws (turn cap)": g["turn_cap"].mean()}


def virus_dogs_feel_rows(g, s) -> dict:
    """Virus-dogs' own Game feel figures: deficits, shared wins, the wait of eliminated players."""
    out = s[s["eliminated"]].merge(g[["game", "turns"]], on="game")
    return {"winner was 1+ virus behind at some point": (g.loc[g["n_winners"] == 1, "winner_max_behind"] >= 1).mean(),
            "shared wins": (g["n_winners"] > 1).mean(),
            "turns an eliminated player waits": (out["turns"] - 1 - out["elim_turn"]).clip(lower=0).mean()}


CASES = {
    "virus-dogs": {
        "scenario": {"game": "virus-dogs", "players": 3, "seed": 4, "state": {}, "decisions": [
            {"type": "mode", "mode": "draw"}, {"type": "draw_another", "value": False}, {"type": "end"},
            {"type": "mode", "mode": "draw"}, {"type": "draw_another", "value": True}, {"type": "end"},
            {"type": "mode", "mode": "draw"}, {"type": "draw_another", "value": False}]},
        "recounted": {},
        "waiting_scenario": {
            "game": "virus-dogs", "players": 2,
            "state": {"deck": ["DOC", "SHF", "TP"], "players": [{"hand": ["TP"]}, {"hand": ["TP"]}]},
            "decisions": [{"type": "mode", "mode": "draw"}]},
        "bad_configs": [
            (dict(overrides={"n_virus_in_deck": 8}), "n_virus_in_deck must not exceed n_virus_total"),
            (dict(overrides={"draw_min": 2, "draw_max": 1}), "draw_min must not exceed draw_max"),
            (dict(overrides={"n_toilet": -1}), "bad value -1 for 'n_toilet'"),
            (dict(overrides={"mask_take_mode": "middle"}), "bad value 'middle' for 'mask_take_mode'"),
            (dict(overrides={"no_such_rule": 1}), "unknown parameter 'no_such_rule'"),
            (dict(overrides={"bot.cautious.nerve": 1}), "unknown parameter 'nerve' of bot 'cautious'"),
            (dict(players=6), "2 to 5 players"),
            (dict(players=1), "2 to 5 players"),
            (dict(players=3, overrides={k: 0 for k in (
                "n_virus_in_deck", "n_bat", "n_toilet", "n_control", "n_quarantine", "n_doctor", "n_antiseptic",
                "n_ambulance", "n_mask", "n_black_market", "n_shuffle", "n_cough", "n_exchange")}),
             "the starting deck must hold at least one card"),
        ],
        "bad_scenarios": [
            ({"players": 2, "state": {"deck": ["XYZ"]}}, "unknown card code 'XYZ' in state.deck"),
            ({"players": 2, "state": {"players": [{"hand": ["V"], "color": 1}]}}, "state.players[0] must be an object"),
            ({"players": 2, "state": {"mystery": 1}}, "unknown state field(s): mystery"),
            ({"players": 2, "decisions": [{"type": "fly"}]}, "unknown or missing type"),
            ({"players": 2, "decisions": [{"type": "play", "card": "NOPE"}]}, "unknown card code 'NOPE' in decision 0"),
            ({"players": 2, "params": {"n_toilet": -1}}, "bad value -1 for 'n_toilet'"),
            ({"players": 7}, "2 to 5 players"),
            ({"players": 3, "state": {"deck": ["DOC"], "players": [{"open": 2}, {}]}}, "open 2 >= elimination_threshold 2"),
            ({"players": 3, "state": {"deck": ["DOC"], "players": [{"treatment": 1}, {}]}}, "treatment without an open virus"),
            ({"players": 3, "state": {"deck": ["DOC"], "players": [{"open": 1, "treatment": 2}, {}]}},
             "treatment must be below doctors_per_cure 2"),
            ({"players": 3, "state": {"deck": ["DOC"], "players": [{}, {"live": False, "open": 1}, {}]}},
             "state.players[1] is not live but holds"),
            ({"players": 3, "state": {"deck": ["DOC"], "discard": ["V"]}}, "state.discard cannot hold viruses"),
            ({"players": 3, "state": {"deck": ["DOC"], "pending": 1}}, "state.pending is output only"),
            ({"players": 3, "state": {"deck": ["DOC"], "unresolved": ["V"]}}, "state.unresolved is output only"),
            ({"players": 3, "state": {"deck": ["DOC"], "phase": "B"}}, "state.phase must be A, C or hq"),
            ({"players": 3, "state": {"deck": ["DOC"], "players": [{"hand": ["BAT"]}, {}]}}, "cannot hold a BAT"),
            ({"players": 3, "state": {"deck": ["DOC"], "known_top": 1}}, "state.known_top is 1"),
            ({"players": 3, "state": {"deck": ["DOC"], "first": 3}}, "state.first must be a seat below 3"),
        ],
        "batch_rows": lambda raw, k, n: {"games": raw[0][:, k], "seats": raw[1][:, k * n:(k + 1) * n].T},
        "batch_sums": lambda raw: {"density": raw[2], "draw_density": raw[3], "deck_density": raw[4]},
        "driver_seat_games": 12,
        "single_options_counted": True,
        "search": {"bots": ["search", "cautious", "aggressive", "cautious"], "overrides": {"bot.search.budget": 24},
                   "games": 8, "reference_games": 4},
        "learned": {"bots": ["learned", "cautious", "learned", "random", "aggressive"], "games": 300,
                    "overrides": {"mask_take_mode": "prefix", "draw_count_declared_upfront": True,
                                  "hq_target": "choice"},
                    "search_bots": ["search", "learned", "cautious"], "search_games": 3},
        "hidden": {"cards": "tests.virus_dogs.hidden", "every": 3, "least_options": 2, "also": "in_another_turn",
                   "pairs": {"search": (30, 30), "weighted": (20, 15)}, "also_pairs": {"search": (12, 6)},
                   "kinds": {"search": {"action", "draw_another"}},
                   "seeing": {"states": 40, "tries": 3, "reordered": 0.5}},
        "feel": {"leader_from": "leader_from_turn", "first_turn": 0,
                 "tables": [(4, None), (3, ["random", "aggressive", "cautious"])],
                 "section": {"games": 3000, "batch": 1000, "rows": virus_dogs_feel_rows}},
        "chart_games": 150,
    },
    "faking-sick": {
        "scenario": {"game": "faking-sick", "players": 3, "seed": 4, "state": {}, "decisions": [
            {"action": "play", "card": "VIR", "bluff": False}, {"calls": []}]},
        # scenarios start at the beginning of ``to_move``'s turn, so an output inside a turn counts
        # it once more when fed back (docs/scenarios/faking-sick.md)
        "recounted": {"turns": 1},
        "waiting_scenario": {
            "game": "faking-sick", "players": 3,
            "state": {"hands": [["VIR", "FEV"], ["VIR"], ["VIR"]], "banned": [[], [], []],
                      "draw": ["VIR", "VIR"], "discard": ["VIR"], "to_move": 0},
            "decisions": [{"player": 0, "action": "draw"}]},
        "bad_configs": [
            (dict(players=5), "3 to 4 players"),
            (dict(players=2), "3 to 4 players"),
            (dict(players=4, overrides={"banned_per_player": 3}), "exceeds the banned pool"),
            (dict(players=3, overrides={"banned_per_player": 3}), "exceeds the banned pool"),
            (dict(overrides={"last_card_forbidden_types": "MSK"}), "MSK"),
            (dict(overrides={"last_card_forbidden_types": "FEV,MSK"}), "MSK"),
            (dict(players=3, overrides={"first_player": 3}), "first_player"),
            (dict(overrides={"banned_pool": "VIR=1,FEV=2,SNZ=2,INJ=1,HDA=1,MSK=1,ICE=1"}), "VIR"),
            (dict(overrides={"banned_pool": "FEV=20"}), "banned_pool"),
            (dict(overrides={"deck_counts": "VIR=0,FEV=30,SNZ=30,INJ=8,HDA=8,MSK=8,ICE=8"}), "marker"),
            (dict(overrides={"hand_size": 30}), "cannot deal"),
            (dict(overrides={"deck_counts": "XYZ=3"}), "deck_counts"),
            (dict(overrides={"deck_counts": "VIR=-1"}), "deck_counts"),
            (dict(overrides={"call_priority": "fastest"}), "call_priority"),
            (dict(overrides={"fever_counters": "ICE,BOGUS"}), "fever_counters"),
            (dict(overrides={"max_turns": 0}), "max_turns"),
            (dict(overrides={"bot.bluffer.bluff_rate": 1}), "bluff_rate"),
            (dict(bots=["bluffer", "nobody", "honest", "random"]), "nobody"),
            (dict(overrides={"bot.bluffer.bluff_k": 0}), "bluff_k"),
            (dict(overrides={"bot.random.call_prob": 1.5}), "call_prob"),
        ],
        "bad_scenarios": [
            ({"players": 4, "state": {"hands": [["XYZ"], [], [], []]}}, "unknown card code"),
            ({"players": 4, "state": {"hand": []}}, "unknown state field"),
            ({"players": 5, "state": {}}, "3 to 4 players"),
            ({"players": 4, "params": {"last_card_forbidden_types": ["MSK"]}}, "MSK"),
        ],
        "batch_rows": lambda raw, k, n: {"games": raw["games"][k], "seats": raw["seats"][k]},
        "batch_sums": lambda raw: {name: raw[name] for name in ("calls", "plays", "banned_calls")},
        "driver_seat_games": 12,
        "single_options_counted": True,
        "search": {"bots": ["search", "bluffer", "caller", "honest"], "overrides": {"bot.search.budget": 24},
                   "games": 8, "reference_games": 6},
        "learned": {"bots": ["learned", "caller", "learned", "random"], "games": 300,
                    "overrides": {"play_after_draw": True, "call_priority": "random"},
                    "search_bots": ["search", "learned", "honest"], "search_games": 3},
        "hidden": {"cards": "tests.faking_sick.hidden", "every": 3,
                   "pairs": {"search": (40, 30), "weighted": (20, 15)}, "kinds": {"search": {"turn", "call"}},
                   "seeing": {"states": 40, "tries": 3, "reordered": 0.5}},
        "feel": {"leader_from": "leader_from_turn", "first_turn": 1, "tables": [(3, None), (4, None)],
                 "section": {"games": 2000, "batch": 500, "rows": faking_sick_feel_rows}},
        "chart_games": 150,
    },
    "daifugo": {
        "scenario": {"game": "daifugo", "players": 4, "seed": 4, "state": {"phase": "deal", "hands": [[], [], [], []]},
                     "decisions": [{"player": 0, "trim": []}, {"player": 1, "trim": []}, {"player": 2, "trim": []},
                                   {"player": 3, "trim": []}, {"play": ["D4"]}, {"play": ["D5"]}, {"play": ["D6"]},
                                   {"play": ["S7"]}, {"play": ["H8"]}, {"play": ["D10"]},
                                   {"play": ["Jk"], "as": ["SJ"]}]},
        "recounted": {},
        "waiting_scenario": {
            "game": "daifugo", "players": 3, "params": {"rounds": 1},
            "state": {"turn": 0, "hands": [["S2", "S3"], ["H4", "H5"], ["D4", "D6"]]},
            "decisions": [{"play": ["S2"]}]},
        "bad_configs": [
            (dict(players=7), "3 to 6 players"),
            (dict(players=2), "3 to 6 players"),
            (dict(bots=["search", "greedy", "greedy", "greedy"], overrides={"bot.search.rollout": 3}),
             "bot.search.rollout 3 is no rollout bot"),
            (dict(overrides={"rule_deck": "07,26"}), "bad item '26' in 'rule_deck'"),
            (dict(overrides={"rule_deck": "7x"}), "bad item '7x' in 'rule_deck'"),
            (dict(overrides={"rounds": 0}), "bad value 0 for 'rounds'"),
            (dict(overrides={"madness_rounds": 0}), "bad value 0 for 'madness_rounds'"),
            (dict(overrides={"mode": "crazy"}), "bad value 'crazy' for 'mode'"),
            (dict(overrides={"laws": "none"}), "bad value 'none' for 'laws'"),
            (dict(overrides={"max_plays_per_round": 0}), "bad value 0 for 'max_plays_per_round'"),
            (dict(overrides={"no_such_rule": 1}), "unknown parameter 'no_such_rule'"),
            (dict(players=6, overrides={"hand_size_six": 9}), "bad value 9 for 'hand_size_six'"),
            (dict(players=5, overrides={"hand_size": 11}), "hand size 11 x 5 players needs more than 53 cards"),
        ],
        "bad_scenarios": [
            ({"state": {"hands": [["Z9"], [], [], []]}}, "unknown card code 'Z9'"),
            ({"state": {"hands": [["S9"], ["S9"], ["H3"], ["H4"]]}}, "card(s) in more than one place: S9"),
            ({"state": {"hands": [["S9"], [], []]}}, "P1 holds no cards but is not placed"),
            ({"players": 7, "state": {"hands": [[]] * 7}}, "3 to 6 players"),
            ({"state": {"hands": [["S5"], [], ["S9"], []]}}, "not placed"),
            ({"state": {"hands": [["S5"], ["S6"], ["S9"], ["S8"]], "suit_lock": ["X"]}}, "unknown suit"),
            ({"state": {"hands": [["S5"], ["S6"], ["S9"], ["S8"]], "laws": [14], "precepts": {"14": 1}}}, "both a law"),
            ({"state": {"hands": [["S5"], ["S6"], ["S9"], ["S8"]], "top": ["H3"]}}, "'top'"),
            ({"state": {"hands": [["S5"], ["S6"], ["S9"], ["S8"]], "rev": "yes"}}, "'rev'"),
            ({"state": {"hands": [["S5"], ["S6"], ["S9"], ["S5"]]}}, "S5"),
            ({"state": {"hands": [["S5"], ["S6"], ["S9"], ["S8"]], "top_list": [1, 1]}}, "twice"),
        ],
        "batch_rows": lambda raw, k, n: {"games": raw[0][k], "rounds": raw[1][k], "seats": raw[2][k]},
        "batch_sums": lambda raw: {},
        "driver_seat_games": 4,
        "single_options_counted": False,  # games.decisions: the decisions of two options or more
        "search": {"bots": ["search", "strategist", "greedy", "strategist"],
                   "overrides": {"mode": "madness", "bot.search.budget": 24, "bot.search.horizon": 12},
                   "games": 6, "reference_games": 4},
        "learned": {"bots": ["learned", "strategist", "learned", "random"], "games": 40,
                    "overrides": {"mode": "madness"},
                    "search_bots": ["search", "learned", "greedy"], "search_games": 2},
        "hidden": {"cards": "tests.daifugo.hidden", "every": 2,
                   "pairs": {"search": (40, 30), "weighted": (40, 30)}, "kinds": {"search": {"play"}},
                   "seeing": {"states": 30, "tries": 2, "reordered": None}},
        "feel": None,  # rounds scored by points: tests/daifugo/test_feel.py
        "chart_games": 20,
    },
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
        pytest.fail(f"add '{key}' for {game} to CASES in {SPEC_FILE}")
    return CASES[game][key]
