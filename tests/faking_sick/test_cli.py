"""faking-sick through the command line: bad input is one line on stderr, exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import cardlab  # in this process: the console entry point's exit codes and output

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args, needle", [
    (["--players", 5], "3 to 4 players"),
    (["--players", 4, "--set", "banned_per_player=3"], "exceeds the banned pool"),
    (["--players", 3, "--set", "banned_per_player=3"], "exceeds the banned pool"),
    (["--set", "last_card_forbidden_types=FEV,MSK"], "MSK"),
    (["--set", "deck_counts=VIR=1,FEV=x"], "deck_counts"),
])
def test_bad_parameters_one_line(tmp_path, args, needle):
    res = cardlab("simulate", "faking-sick", "--games", 10, "--out", tmp_path / "r", *args)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]


def test_simulate_and_scenario(tmp_path):
    res = cardlab("simulate", "faking-sick", "--games", 200, "--seed", 3, "--out", tmp_path / "r", "-q")
    assert res.returncode == 0, res.stderr
    spec = {"game": "faking-sick", "players": 3, "state": {"hands": [["VIR"], ["VIR"], ["VIR"]],
            "banned": [[], [], []], "draw": [], "discard": ["VIR"], "to_move": 0},
            "params": {"max_turns": 3}, "decisions": [{"action": "draw"}] * 3}
    res = cardlab("scenario", "-", stdin=json.dumps(spec))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["finished"] and out["result"]["end_reason"] == "turn_cap"


def test_doc_examples_run_from_files(tmp_path):
    """The JSON examples of docs/scenarios/faking-sick.md run as files, as an outside user would."""
    import re

    doc = (ROOT / "docs" / "scenarios" / "faking-sick.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
    assert len(blocks) >= 2
    outs = []
    for i, block in enumerate(blocks):
        path = tmp_path / f"example{i}.json"
        path.write_text(block)
        res = cardlab("scenario", path)
        assert res.returncode == 0, res.stderr
        outs.append(json.loads(res.stdout))
    t06, t05 = outs[0], outs[1]
    assert t06["illegal"] is None and t06["state"]["discard"] == ["SNZ", "HDA", "VIR"]
    assert t06["state"]["banned"][1] == ["ICE", "MSK"] and t06["waiting"]["player"] == 2
    assert t05["illegal"] is None and t05["waiting"] == {"player": 3, "decision": "turn",
                                                          "legal": t05["waiting"]["legal"]}
    assert (t05["stats"]["call_requests"], t05["stats"]["calls_made"], t05["stats"]["calls_failed"]) == (3, 1, 1)
