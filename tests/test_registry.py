"""The game registry (``sim.games.MODULES``, the packages under sim/games/) is the one list of the
built-in games: every other place that names them all is derived from it or checked against it
here, each failure naming the place to edit."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from sim.games import MODULES, available, get_game
from tests.game_cases import CASES, case_file

ROOT = Path(__file__).resolve().parents[1]
# import-linter contracts of pyproject.toml that cover every game package by pattern, the key and the pattern
GAME_CONTRACTS = {"Games are independent of each other": ("modules", "sim.games.*"),
                  "Shared layers name no game: analysis (but its games' report modules), reports and the application":
                      ("forbidden_modules", "sim.games.*")}


def contracts() -> dict[str, dict]:
    """pyproject.toml's import-linter contracts by name."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {c["name"]: c for c in data["tool"]["importlinter"]["contracts"]}


@pytest.mark.parametrize("game", list(MODULES))
def test_every_registered_game_is_found_under_its_id(game):
    """A package under sim/games/ is a game whose id is the package name, hyphens for underscores."""
    assert importlib.import_module(MODULES[game]).GAME is get_game(game)
    assert get_game(game).name == game and game in available()
    assert MODULES[game] == "sim.games." + game.replace("-", "_")


def test_the_registry_is_every_package_under_sim_games():
    packages = {p.parent.name for p in (ROOT / "sim" / "games").glob("*/__init__.py")}
    assert {m.rsplit(".", 1)[1] for m in MODULES.values()} == packages


@pytest.mark.parametrize("name", list(GAME_CONTRACTS))
def test_import_contracts_cover_every_registered_game_by_pattern(name):
    """import-linter reads pyproject.toml as it is: the contracts that hold for every game name them
    by the pattern ``sim.games.*``, which each registered game package matches, so a new game edits
    no contract."""
    found = contracts()
    assert name in found, f"pyproject.toml has no import-linter contract named '{name}'"
    key, pattern = GAME_CONTRACTS[name]
    assert pattern in found[name][key], f"pyproject.toml, contract '{name}': {key} must hold '{pattern}'"
    outside = [m for m in MODULES.values() if m.rsplit(".", 1)[0] != "sim.games"]
    assert not outside, f"{outside}: a built-in game is a package directly under sim/games/"


def test_every_registered_game_has_contract_test_data():
    """Every registered game has its contract-test data (a built-in game's tests/<package>/cases.py)
    and no game that is gone has any."""
    games = set(available())
    assert not games - set(CASES), f"add the contract-test data of {sorted(games - set(CASES))}: " + \
        ", ".join(case_file(g) for g in sorted(games - set(CASES)))
    assert not set(CASES) - games, f"remove {sorted(set(CASES) - games)} from tests/game_cases.py"


@pytest.mark.parametrize("game", list(MODULES))
def test_every_built_in_game_has_its_test_folder(game):
    """tests/<package>/ holds a game's own tests and test data: its contract-test data cases.py,
    its golden playthroughs golden/, and test_differential.py, which `make test-boundscheck` runs
    again with bounds checks (tests/*/test_differential.py)."""
    folder = ROOT / "tests" / MODULES[game].rsplit(".", 1)[1]
    assert (folder / "__init__.py").exists(), f"create {folder.relative_to(ROOT)}/ (a package) for {game}'s tests"
    for name in ("cases.py", "test_differential.py", "hidden.py"):
        assert (folder / name).exists(), f"add {folder.relative_to(ROOT)}/{name}"
    assert list((folder / "golden").glob("case-*.txt")), \
        f"create {folder.relative_to(ROOT)}/golden/: python -m tests.golden.regenerate {game}"
    assert "tests/*/test_differential.py" in (ROOT / "Makefile").read_text()


def test_cli_help_names_every_built_in_game():
    """The game argument's help text of the CLI (cardlab/cli.py, Game) lists the registry's games."""
    from typer.testing import CliRunner

    from cardlab.cli import app

    out = CliRunner().invoke(app, ["simulate", "--help"]).output
    missing = [g for g in MODULES if g not in out]
    assert not missing, f"cardlab simulate --help does not name {missing}"


@pytest.mark.parametrize("game", list(MODULES))
def test_every_built_in_game_has_its_rules_page_and_engine_notes(game):
    """docs/rules/<game>.md (the rules as implemented, every rule ID the code cites) and the
    package's README.md (its engine's own ways)."""
    rules = ROOT / "docs" / "rules" / f"{game}.md"
    notes = ROOT / Path(*MODULES[game].split(".")) / "README.md"
    assert rules.is_file(), f"write {rules.relative_to(ROOT)}: the rules of {game} as implemented"
    assert notes.is_file(), f"write {notes.relative_to(ROOT)}: {game}'s engine notes"
