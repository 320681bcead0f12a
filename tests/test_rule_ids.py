"""Every rule ID the code cites is defined in the game's rules page (docs/rules/<game>.md).

Which game an ID belongs to:
- by its prefix, anywhere in sim/ and tests/: the prefixes each game's plug-in declares
  (``Game.rule_id_prefixes``: ``VD-``, ``AD-``, ``DP-``, ``TS-``, ``M-`` for virus-dogs,
  ``FS-`` for faking-sick, ``DEC-``, ``QA-`` for daifugo);
- bare ``§n.m`` section numbers and ``T-nn`` scenario numbers exist in several specs, so
  they belong to the game whose package or test folder holds the file
  (sim/games/<game>/, tests/<game>/); in a file of no game folder they must be defined in
  at least one rules page. The toy games of the tests (tests/toy_game.py, tests/toy_levers.py) have no rules page.

A rules page defines an ID by starting a table row or a heading with it (``| VD-4.2 |``,
``### §4.14 ...``); ranges are not definitions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.games import available, get_game

ROOT = Path(__file__).resolve().parents[1]
# game id -> its package's folder name (sim/games/<pkg>/, tests/<pkg>/), for every registered
# game with a rules page (the toy game of the tests has none)
GAMES = {g: type(get_game(g)).__module__.split(".")[2] for g in available()
         if (ROOT / "docs" / "rules" / f"{g}.md").is_file()}
NUMBER = r"[0-9]+(?:\.[0-9]+)*"
PREFIXED = {p: g for g in GAMES for p in get_game(g).rule_id_prefixes}  # prefix -> game
PREFIXED_ID = re.compile(rf"\b(?:{'|'.join(PREFIXED)})-{NUMBER}\b")
LOCAL_ID = re.compile(rf"(?:§{NUMBER}|\bT-[0-9]+\b)")
ANY_ID = re.compile(rf"{PREFIXED_ID.pattern}|{LOCAL_ID.pattern}")
NOT_CITING = {"tests/toy_game.py", "tests/toy_levers.py", "tests/test_rule_ids.py"}  # the toy games; this file


def _strip(ident: str) -> str:
    return ident.rstrip(".")


def defined_ids(game: str) -> set[str]:
    """IDs a rules page defines: the first cell of a table row, or the start of a heading."""
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    out = set()
    for line in text.splitlines():
        m = re.match(r"\|\s*`?([^|`]+?)`?\s*\|", line) or re.match(r"#+\s+(\S+)", line)
        if m and ANY_ID.fullmatch(m.group(1)):
            out.add(m.group(1))
    return out


def source_files():
    for top in ("sim", "tests"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in NOT_CITING:
                yield rel, path.read_text(encoding="utf-8")


def home_game(rel: str) -> str | None:
    for game, pkg in GAMES.items():
        if rel.startswith((f"sim/games/{pkg}/", f"tests/{pkg}/")):
            return game
    return None


def citations(files=None) -> tuple[dict[str, dict[str, set[str]]], dict[str, set[str]]]:
    """(game -> ID -> files citing it, ambiguous ID -> files) over ``files`` ((path, text)
    pairs; default: sim/ and tests/)."""
    per_game: dict[str, dict[str, set[str]]] = {g: {} for g in GAMES}
    shared: dict[str, set[str]] = {}
    for rel, text in source_files() if files is None else files:
        for ident in PREFIXED_ID.findall(text):
            game = PREFIXED[ident.split("-")[0]]
            per_game[game].setdefault(_strip(ident), set()).add(rel)
        home = home_game(rel)
        for ident in LOCAL_ID.findall(text):
            target = per_game[home] if home else shared
            target.setdefault(_strip(ident), set()).add(rel)
    return per_game, shared


def _report(missing: dict[str, set[str]]) -> str:
    return "; ".join(f"{i} (cited in {', '.join(sorted(files)[:3])})" for i, files in sorted(missing.items()))


def undefined(cited: dict[str, set[str]], defined: set[str]) -> dict[str, set[str]]:
    return {i: f for i, f in cited.items() if i not in defined}


@pytest.mark.parametrize("game", GAMES)
def test_cited_ids_are_defined(game):
    cited = citations()[0][game]
    assert cited, f"no rule IDs found for {game}: the scan is broken"
    missing = undefined(cited, defined_ids(game))
    assert not missing, f"docs/rules/{game}.md does not define: " + _report(missing)


def test_shared_section_and_scenario_ids_are_defined_somewhere():
    defined = set().union(*(defined_ids(g) for g in GAMES))
    missing = {i: f for i, f in citations()[1].items() if i not in defined}
    assert not missing, "no docs/rules/*.md defines: " + _report(missing)


def test_daifugo_defines_every_spec_rule_card():
    """The 25 rule cards §4.1-§4.25 (and §4.0, §4.26, §4.27) are all defined, cited or not."""
    defined = defined_ids("daifugo")
    assert {f"§4.{k}" for k in range(28)} <= defined


def test_scan_finds_citations_and_reports_missing():
    """The scan sees IDs in code, attributes them per game and reports undefined ones."""
    per_game, _ = citations()
    assert "VD-19.3" in per_game["virus-dogs"] and "FS-6.2" in per_game["faking-sick"]
    assert "DEC-11" in per_game["daifugo"] and "§4.14" in per_game["daifugo"]
    assert "T-05" in per_game["faking-sick"] and "T-46" in per_game["daifugo"]
    files = [("sim/games/daifugo/x.py", "see §4.99 and T-67, DEC-99 (VD-4.2)."),
             ("tests/faking_sick/y.py", "T-23 FS-6.2 §2"), ("sim/z.py", "§3.3 and §12.1")]
    per_game, shared = citations(files)
    assert undefined(per_game["daifugo"], defined_ids("daifugo")) == {
        "§4.99": {"sim/games/daifugo/x.py"}, "T-67": {"sim/games/daifugo/x.py"}, "DEC-99": {"sim/games/daifugo/x.py"}}
    assert set(per_game["virus-dogs"]) == {"VD-4.2"} and not undefined(per_game["virus-dogs"], defined_ids("virus-dogs"))
    assert undefined(per_game["faking-sick"], defined_ids("faking-sick")) == {"T-23": {"tests/faking_sick/y.py"}}
    assert set(shared) == {"§3.3", "§12.1"}
    assert _report({"VD-99.9": {"sim/x.py"}}) == "VD-99.9 (cited in sim/x.py)"


@pytest.mark.parametrize("game", GAMES)
def test_rules_page_lists_every_parameter(game):
    """The parameter table of the rules page names every rule parameter of the game."""
    from sim.games import get_game

    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    listed = set(re.findall(r"^\| `([a-z0-9_]+)` \|", text, re.M))
    assert {p.name for p in get_game(game).params} <= listed


@pytest.mark.parametrize("game", GAMES)
def test_cardlab_rules_ends_with_the_rules_page(game):
    import json

    from typer.testing import CliRunner

    from cardlab.cli import app

    res = CliRunner().invoke(app, ["rules", game])
    assert res.exit_code == 0, res.output
    assert res.output.strip().splitlines()[-1] == (
        f"rules, rule IDs and the engines' readings: docs/rules/{game}.md (in the cardlab repository)")
    res = CliRunner().invoke(app, ["rules", game, "--json"])
    assert json.loads(res.output)["rules_doc"] == f"docs/rules/{game}.md"
    assert (ROOT / "docs" / "rules" / f"{game}.md").is_file()
