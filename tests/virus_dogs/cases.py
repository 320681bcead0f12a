"""The contract-test data of virus-dogs (tests/game_cases.py lists the keys)."""

from __future__ import annotations


def feel_rows(g, s) -> dict:
    """Virus-dogs' own Game feel figures: deficits, shared wins, the wait of eliminated players."""
    out = s[s["eliminated"]].merge(g[["game", "turns"]], on="game")
    return {"winner was 1+ virus behind at some point": (g.loc[g["n_winners"] == 1, "winner_max_behind"] >= 1).mean(),
            "shared wins": (g["n_winners"] > 1).mean(),
            "turns an eliminated player waits": (out["turns"] - 1 - out["elim_turn"]).clip(lower=0).mean()}


CASE = {
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
             "section": {"games": 3000, "batch": 1000, "rows": feel_rows}},
    "chart_games": 150,
}
