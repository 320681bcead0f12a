"""The contract-test data of faking-sick (tests/game_cases.py lists the keys)."""

from __future__ import annotations


def feel_rows(g, s) -> dict:
    """Faking-sick's own Game feel figures (a win is never shared: a winner is the one winner)."""
    won = g[g["n_winners"] == 1]
    return {"winner once held 3+ cards more than the fewest held": (won["winner_max_behind"] >= 3).mean(),
            "draws (turn cap)": g["turn_cap"].mean()}


CASE = {
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
             "section": {"games": 2000, "batch": 500, "rows": feel_rows}},
    "chart_games": 150,
}
