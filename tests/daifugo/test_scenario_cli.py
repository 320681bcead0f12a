"""Scenario JSON written from docs/scenarios/daifugo.md alone, run through ``cardlab scenario``."""

import json

from tests.test_cli import cardlab, one_line_error

T05 = {  # spec T-05, every turn written out with the deciding seat
    "game": "daifugo", "players": 4, "params": {"rounds": 1},
    "state": {"turn": 2, "top": {"cards": ["HA"], "owner": 1},
              "hands": [["C4", "D4"], ["C6", "D6"], ["S2"], ["C7", "Jk"]]},
    "decisions": [{"player": 2, "play": ["S2"]}, {"player": 3, "pass": True}, {"player": 0, "pass": True},
                  {"player": 1, "pass": True}, {"player": 3, "play": ["C7"]}],
}

T44 = {  # spec T-44 with the lock given in the state and the joker's suit chosen freely
    "game": "daifugo", "players": 4,
    "state": {"laws": ["14"], "turn": 2, "top": {"cards": ["S7"], "owner": 1}, "field": ["S5"],
              "suit_lock": ["♠"], "hands": [["D7", "SA"], ["H8", "HA"], ["Jk", "C4", "C6"], ["DA", "CA"]]},
    "decisions": [{"player": 2, "play": ["Jk"], "as": ["C9"]}],
}


def test_t05_full_turn_list():
    res = cardlab("scenario", "-", stdin=json.dumps(T05))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["illegal"] is None
    assert out["state"]["bottom_list"] == [2] and "P3 plays [♣7]" in out["events"]


def test_t44_joker_suit_outside_lock_is_illegal_and_bad_suit_is_malformed():
    res = cardlab("scenario", "-", stdin=json.dumps(T44))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["illegal"]["index"] == 0 and "suit lock" in out["illegal"]["reason"]
    bad = dict(T44, state=dict(T44["state"], suit_lock=["X"]))
    assert "unknown suit" in one_line_error(cardlab("scenario", "-", stdin=json.dumps(bad)))
