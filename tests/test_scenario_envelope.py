"""The scenario envelope every game shares (sim/kit/scenario.py, docs/scenarios.md): field checks
with the same one-line messages, unused and forced decisions in the output, stop_at_forced."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from sim.kit.config import ConfigError
from sim.games import MODULES, get_game
from tests.game_cases import case

ROOT = Path(__file__).resolve().parents[1]

GAMES = list(MODULES)  # the built-in games (sim/games/__init__.py)


def base(game: str) -> dict:
    """A small valid scenario of ``game`` that stops with ``waiting`` after its first decision
    (``waiting_scenario`` in tests/<game>/cases.py)."""
    return copy.deepcopy(case(game, "waiting_scenario"))


def scenario(game: str, **changes):
    spec = base(game)
    spec.update(changes)
    return get_game(game).scenario(spec)


def error(game: str, spec) -> str:
    with pytest.raises(ConfigError) as e:
        get_game(game).scenario(spec)
    return str(e.value)


KNOWN = "known: game, players, params, seed, state, decisions, bots, stop_at_forced"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("field, value, message", [
    ("seed", "x", "seed must be an integer in [0, 2**63), got 'x'"),
    ("seed", -1, "seed must be an integer in [0, 2**63), got -1"),
    ("seed", True, "seed must be an integer in [0, 2**63), got True"),
    ("players", "3", "players must be an integer, got '3'"),
    ("params", [1], "params must be an object, got [1]"),
    ("state", [1], "state must be an object, got [1]"),
    ("decisions", {"a": 1}, "decisions must be a list, got {'a': 1}"),
    ("decisions", [1], "decision 0 must be an object, got 1"),
    ("bots", 7, "bots must be a bot name or a list of bot names, got 7"),
    ("bots", [], "bots must be a bot name or a list of bot names, got []"),
    ("bots", ["nobody"], "unknown bot 'nobody' for {game}; known: "),
    ("stop_at_forced", 1, "stop_at_forced must be true or false, got 1"),
    ("colour", "red", "unknown scenario field(s): colour; " + KNOWN),
    ("game", "chess", "scenario is for game 'chess', not {game}"),
])
def test_malformed_envelope_field(game, field, value, message):
    spec = {**base(game), field: value}
    assert error(game, spec).startswith(message.replace("{game}", game))


@pytest.mark.parametrize("game", GAMES)
def test_scenario_must_be_an_object(game):
    assert error(game, [base(game)]) == "a scenario must be a JSON object"


@pytest.mark.parametrize("game", GAMES)
def test_bots_count_must_match_players(game):
    bot = next(iter(get_game(game).bots))
    n = base(game)["players"]
    assert error(game, {**base(game), "bots": [bot] * (n + 1)}) == f"bots lists {n + 1} bots for {n} players"


@pytest.mark.parametrize("game", GAMES)
def test_one_bot_name_plays_every_seat(game):
    """``bots`` as one name (a string) is the same as that name for every seat."""
    bot = next(iter(get_game(game).bots))
    n = base(game)["players"]
    assert scenario(game, bots=bot) == scenario(game, bots=[bot] * n)


def test_virus_dogs_keeps_its_turns_field():
    out = scenario("virus-dogs", turns=1)
    assert out["illegal"] is None
    assert error("virus-dogs", {**base("virus-dogs"), "turns": 0}) == "turns must be an integer >= 1, got 0"
    assert error("faking-sick", {**base("faking-sick"), "turns": 1}).startswith("unknown scenario field(s): turns;")


@pytest.mark.parametrize("game", GAMES)
def test_unused_decisions_listed(game):
    """A run that stops (here: an illegal decision) lists every entry it did not apply, the
    illegal one included; a run that uses them all lists none."""
    out = scenario(game)
    assert out["illegal"] is None and out["waiting"] is not None
    assert out["unused_decisions"] == [] and out["forced_decisions"] == []
    decisions = base(game)["decisions"] * 3  # the first entry again: illegal at index 1
    out = scenario(game, decisions=decisions)
    assert out["illegal"]["index"] == 1
    assert out["unused_decisions"] == [{"index": 1, "decision": decisions[1]},
                                       {"index": 2, "decision": decisions[2]}]


def test_unused_decisions_after_the_round_ends_daifugo():
    """daifugo: the scenario's round ends (§2.11) with entries left: they are listed, not lost."""
    left = [{"play": "H5"}, {"pass": True}]
    out = scenario("daifugo", state={"turn": 0, "hands": [["S3"], ["H4"], ["D4", "D6"]]},
                   decisions=[{"play": "S3"}, {"pass": True}, {"play": "D6"}] + left)
    assert out["finished"] and out["result"]["ranking"] == [0, 2, 1]
    assert out["unused_decisions"] == [{"index": 3, "decision": left[0]}, {"index": 4, "decision": left[1]}]


def test_unused_decisions_after_the_game_ends_faking_sick():
    """faking-sick: P0 plays its last card and goes out (FS-9.1); the entries after it are listed."""
    state = {"hands": [["FEV"], ["VIR", "VIR"], ["VIR", "VIR"]], "banned": [[], [], []],
             "draw": ["VIR"], "discard": ["VIR"], "to_move": 0}
    out = scenario("faking-sick", state=state,
                   decisions=[{"action": "play", "card": "FEV"}, {"calls": []}, {"action": "draw"}])
    assert out["finished"] and out["result"]["winner"] == 0
    assert out["unused_decisions"] == [{"index": 2, "decision": {"action": "draw"}}]


# ---- forced decisions: listed and, with stop_at_forced, asked like any other -------------
VD_FORCED_END = [{"type": "mode", "mode": "draw"}, {"type": "draw_another", "value": False}]


def vd_empty_hand(**changes):
    return scenario("virus-dogs", state={"deck": ["DOC", "SHF", "TP"], "players": [{}, {"hand": ["TP"]}]}, **changes)


def test_virus_dogs_forced_decisions_listed():
    """P0 (empty hand) must draw and then, holding only a DOC it cannot play, must end the turn:
    both listed entries are taken as forced decisions (VD-4.1, VD-4.4)."""
    out = vd_empty_hand(decisions=VD_FORCED_END + [{"type": "end"}])
    assert out["forced_decisions"] == [{"index": 0, "decision": VD_FORCED_END[0]},
                                       {"index": 2, "decision": {"type": "end"}}]
    assert out["unused_decisions"] == [] and out["state"]["current"] == 1


def test_virus_dogs_stop_at_forced():
    """Without stop_at_forced the forced end is applied and the run stops before P1's turn; with
    it the run stops at P0's forced end, in phase C with the drawn DOC in hand."""
    plain = vd_empty_hand(decisions=VD_FORCED_END)
    assert plain["waiting"]["player"] == 1 and plain["state"]["phase"] == "A"
    out = vd_empty_hand(decisions=VD_FORCED_END, stop_at_forced=True)
    assert out["waiting"] == {"player": 0, "decision": "action", "legal": [{"type": "end"}]}
    assert out["state"]["phase"] == "C" and out["state"]["players"][0]["hand"] == ["DOC"]
    bad = vd_empty_hand(decisions=VD_FORCED_END + [{"type": "declare"}], stop_at_forced=True)
    assert bad["illegal"]["index"] == 2 and "legal: type=end" in bad["illegal"]["reason"]
    assert bad["unused_decisions"] == [{"index": 2, "decision": {"type": "declare"}}]
    on = vd_empty_hand(decisions=VD_FORCED_END + [{"type": "end"}], stop_at_forced=True)
    assert on["state"] == vd_empty_hand(decisions=VD_FORCED_END + [{"type": "end"}])["state"]


def test_daifugo_forced_pass_listed_and_stop_at_forced():
    """P1 holds nothing above ♠2 (§3.1): its pass is forced. A tagged pass is taken as it;
    with stop_at_forced the run stops there, and an entry for another player is illegal."""
    decisions = [{"play": ["S2"]}, {"player": 1, "pass": True}]
    out = scenario("daifugo", decisions=decisions)
    assert out["forced_decisions"] == [{"index": 1, "decision": decisions[1]}]
    stop = scenario("daifugo", stop_at_forced=True)
    assert stop["waiting"] == {"player": 1, "decision": "play", "legal": [{"pass": True}]}
    assert stop["state"]["top"] == {"cards": ["S2"], "owner": 0} and stop["state"]["turn"] == 1
    plain = scenario("daifugo")
    assert plain["waiting"]["player"] == 1  # P1 passed by itself, P0 led its lone ♠3 and went out
    assert plain["state"]["top"] == {"cards": ["S3"], "owner": 0}
    step = scenario("daifugo", decisions=decisions, stop_at_forced=True)
    assert step["waiting"] == {"player": 2, "decision": "play", "legal": [{"pass": True}]}
    assert step["forced_decisions"] == [{"index": 1, "decision": decisions[1]}]
    bad = scenario("daifugo", decisions=[{"play": ["S2"]}, {"player": 2, "pass": True}], stop_at_forced=True)
    assert bad["illegal"] == {"index": 1, "decision": {"player": 2, "pass": True},
                              "reason": "P1 decides now (play), not P2"}


def test_daifugo_stop_at_forced_trim():
    """§2.9: a player with at most trim_to cards has one trim, []; stop_at_forced stops there."""
    out = scenario("daifugo", state={"phase": "trim", "hands": [["S3"], ["H4"], ["D4"]]}, decisions=[],
                   stop_at_forced=True)
    assert out["waiting"] == {"player": 0, "decision": "trim", "legal": [{"trim": []}]}
    bad = scenario("daifugo", state={"phase": "trim", "hands": [["S3"], ["H4"], ["D4"]]},
                   decisions=[{"trim": ["S3"]}], stop_at_forced=True)
    assert bad["illegal"]["reason"] == "P0 holds 1 cards, at most trim_to = 7: the only trim is []"


def test_faking_sick_has_no_forced_decisions():
    """faking-sick asks every decision, even one with a single option (FS-3.4: a draw when
    nothing is playable), so stop_at_forced changes nothing."""
    state = {"hands": [["VIR"], ["VIR"], ["VIR"]], "banned": [[], [], []], "draw": ["VIR", "VIR"],
             "discard": ["VIR"], "to_move": 0}
    out = scenario("faking-sick", state=state, decisions=[])
    assert out["waiting"]["legal"] == [{"action": "draw"}]
    assert scenario("faking-sick", state=state, decisions=[], stop_at_forced=True) == out


# ---- through the command line -------------------------------------------------------------
def cardlab_scenario(spec):
    from tests.test_cli import cardlab

    return cardlab("scenario", "-", stdin=json.dumps(spec))


@pytest.mark.parametrize("game, field, value, needle", [
    ("daifugo", "seed", "x", "error: seed must be an integer in [0, 2**63), got 'x'"),
    ("virus-dogs", "colour", 1, "error: unknown scenario field(s): colour;"),
    ("faking-sick", "stop_at_forced", "yes", "error: stop_at_forced must be true or false, got 'yes'"),
])
def test_cli_one_line_error(game, field, value, needle):
    res = cardlab_scenario({**base(game), field: value})
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(needle), res.stderr


def doc_examples(page: str) -> list[dict]:
    import re

    text = (ROOT / "docs" / page).read_text()
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S) if '"...' not in b]


def test_doc_example_stop_at_forced_daifugo():
    """docs/scenarios.md: the stop_at_forced example stops at P1's forced pass (§3.3)."""
    (spec,) = [s for s in doc_examples("scenarios.md") if s.get("stop_at_forced")]
    out = cardlab_json(spec)
    assert out["waiting"] == {"player": 1, "decision": "play", "legal": [{"pass": True}]}
    assert out["state"]["top"] == {"cards": ["S2"], "owner": 0}
    spec["decisions"].append({"player": 1, "pass": True})
    out = cardlab_json(spec)
    assert out["waiting"]["player"] == 2 and out["forced_decisions"] == [{"index": 1, "decision": spec["decisions"][1]}]


def test_doc_example_stop_at_forced_virus_dogs():
    """docs/scenarios/virus-dogs.md: the stop_at_forced example stops at P0's forced end."""
    (spec,) = [s for s in doc_examples("scenarios/virus-dogs.md") if s.get("stop_at_forced")]
    out = cardlab_json(spec)
    assert out["waiting"] == {"player": 0, "decision": "action", "legal": [{"type": "end"}]}
    assert out["state"]["phase"] == "C" and out["state"]["players"][0]["hand"] == ["DOC"]
    assert [f["index"] for f in out["forced_decisions"]] == [0]


def cardlab_json(spec) -> dict:
    res = cardlab_scenario(spec)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)
