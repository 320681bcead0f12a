"""The plug-in contract, checked for every registered game (``sim.games.available()``).

In the spirit of pgx's ``api_test`` and OpenSpiel's random-simulation test: declared tables,
columns and dtypes; both engines agree on a few hundred mixed-bot games; batches split anywhere
give the same rows; replay matches the stored rows of a run; a scenario's output state fed back
as input reproduces itself; bad configs, scenarios, scenario envelopes and bot parameters are
one-line errors; every rule parameter is documented; the game-feel measures agree with the
results, and the report's Game feel section with the run's tables; golden reference playthroughs
(tests/golden, regenerate with ``python -m tests.golden.regenerate``). The step and search
contracts: tests/test_step_contract.py, tests/test_search_contract.py.
The per-game data of these tests: tests/<game>/cases.py (the keys: tests/game_cases.py).
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from sim.run import runner
from sim.kit.config import ConfigError
from sim.kit.levers import check_levers
from sim.games import available, get_game
from sim.games.base import ENGINES, seat_bots
from sim.kit.search_params import SEARCH, SEARCH_BOTS
from sim.run.verify import compare_engines, replay_and_check
from tests.engines import engines_agree
from tests.game_cases import CASES, case
from tests.golden import REGENERATE, cases, path, render

GAMES = available()
AGREE_GAMES = 200  # per game, mixed bots, both engines
KEYS = {"game": ("game",), "seat": ("game", "seat")}
SOURCES = ("seed", "seed-weak", "found", "assumed", "study", "variant")  # Param.source (sim/kit/config.py)
ECHOING_SCENARIOS = ("toy", "toy-step")  # the toy plug-ins' scenario echoes its state, finished
REQUIRED = {"games": ("game", "winner", "n_winners"), "seats": ("game", "seat", "bot", "win")}


def mixed_config(game, seed: int = 11):
    """Every bot of the game seated, as many players as that takes (within the game's range); the
    search's variants (the all-seeing yardstick, weighted worlds: the search with other worlds) left out."""
    bots = [b for b in game.bots if b == SEARCH or b not in SEARCH_BOTS]
    players = min(game.max_players, max(game.default_players, len(bots)))
    return game.make_config(players=players, bots=[bots[i % len(bots)] for i in range(players)], seed=seed)


def scripted_config(game, seed: int, overrides=None):
    """Every scripted bot of the game seated (no search seat), as many players as that takes."""
    bots = [b for b in game.bots if b not in SEARCH_BOTS]
    players = min(game.max_players, max(game.default_players, len(bots)))
    return game.make_config(players=players, bots=[bots[i % len(bots)] for i in range(players)], seed=seed,
                            overrides=overrides)


@pytest.fixture(params=GAMES)
def game(request):
    return get_game(request.param)


@pytest.mark.parametrize("engine", ENGINES)
def test_tables_columns_and_dtypes(game, engine):
    cfg = mixed_config(game)
    count = 12
    frames = game.run_batch(cfg, 5, count, engine)
    assert set(frames) == set(game.tables)
    assert set(REQUIRED) <= set(game.tables)
    for name, spec in game.tables.items():
        df = frames[name]
        declared = dict(spec.columns)
        keys = KEYS.get(spec.kind, spec.keys)
        required = (*keys, *REQUIRED.get(name, ()), *((game.length_column,) if name == "games" else ()))
        assert keys and set(required) <= set(declared), (name, required)
        assert {c: str(df[c].dtype) for c in declared} == declared, name
        assert not df.duplicated(list(keys)).any(), (name, keys)
        if spec.kind == "game":
            assert df["game"].tolist() == list(range(5, 5 + count))
        if spec.kind == "seat":
            assert len(df) == count * cfg.players
    seats = frames["seats"]
    assert seats["bot"].tolist() == [b for i in range(5, 5 + count) for b in seat_bots(cfg, i)]  # the rotation
    games = frames["games"]
    wins = seats.groupby("game")["win"].sum()
    assert (wins.reindex(games["game"]).to_numpy() == games["n_winners"].to_numpy()).all()


def test_unknown_engine_is_one_message(game):
    with pytest.raises(ConfigError, match=r"^unknown engine 'turbo'; known: fast, reference$"):
        game.run_batch(game.make_config(), 0, 1, "turbo")


def test_engines_agree_on_mixed_bot_games(game):
    assert compare_engines(game, mixed_config(game), AGREE_GAMES, batch=AGREE_GAMES) is None


def test_engines_agree_on_the_default_table_in_odd_batches(game):
    """The default table (scripted bots only: the one `make test-boundscheck` plays, whose
    bounds-checked compile leaves the search out), in batches of odd size."""
    assert compare_engines(game, game.make_config(seed=5), 40, batch=17) is None


def test_replay_matches_the_stored_rows(game, tmp_path):
    cfg = mixed_config(game, seed=7)
    runner.run(cfg, 30, tmp_path / "run", runner.RunOptions(workers=1, batch_size=8, progress=False))
    for index in (0, 13, 29):
        lines, problem = replay_and_check(tmp_path / "run", index)
        assert problem is None and lines


def test_bot_parameters_declared_with_ranges(game):
    declared = {p.name: p for p in game.bot_param_specs}
    assert list(declared) == game.bot_param_names()  # each declared once, in kernel column order
    for spec in game.bots.values():
        for name, default in spec.params.items():
            p = declared[name]
            assert p.doc and p.lo <= default <= p.hi, (spec.name, name)
            for bad in (p.lo - 1, p.hi + 1, "nan"):
                with pytest.raises(ConfigError) as err:
                    game.make_config(overrides={f"bot.{spec.name}.{name}": bad})
                assert "\n" not in str(err.value) and f"'bot.{spec.name}.{name}'" in str(err.value)
            cfg = game.make_config(overrides={f"bot.{spec.name}.{name}": p.hi})
            assert cfg.bot_values(spec)[name] == p.hi


def _scenario(game):
    return copy.deepcopy(case(game.name, "scenario"))


def test_scenario_output_state_fed_back_reproduces_itself(game):
    spec = _scenario(game)
    out = game.scenario(spec)
    assert out["illegal"] is None and not out["finished"] or game.name in ECHOING_SCENARIOS
    envelope = {k: v for k, v in spec.items() if k not in ("decisions", "bots")}
    again = game.scenario({**envelope, "state": copy.deepcopy(out["state"])})
    expected = copy.deepcopy(out["state"])
    for field, step in case(game.name, "recounted").items():
        expected[field] += step
    assert again["state"] == expected
    assert again["illegal"] is None


@pytest.mark.parametrize("field, value", [("seed", "x"), ("unknown", 1)], ids=["seed", "unknown"])
def test_malformed_scenario_envelope_is_a_one_line_error(game, field, value):
    spec = _scenario(game)
    spec["seed" if field == "seed" else "no_such_field"] = value
    with pytest.raises(ConfigError) as err:
        game.scenario(spec)
    message = str(err.value)
    assert "\n" not in message and ("seed" if field == "seed" else "no_such_field") in message


@pytest.mark.parametrize("k", range(3))
def test_golden_playthrough(game, k):
    file_name, cfg, index = cases(game)[k]
    golden = path(game, file_name)
    assert golden.exists(), f"missing {golden}: run {REGENERATE}"
    assert render(game, cfg, index) == golden.read_text(), f"{golden} differs; if intended, run {REGENERATE}"


def test_replay_is_deterministic(game):
    cfg = mixed_config(game, seed=3)
    a, ta = game.replay(cfg, 4)
    b, tb = game.replay(cfg, 4)
    assert a == b
    for name in game.tables:
        assert ta[name].equals(tb[name])
    assert np.array_equal(ta["games"]["game"].to_numpy(), [4])


def test_batches_split_anywhere_equal_the_whole_batch(game):
    """Rows do not depend on batch boundaries: each per-game table of two batches is the whole
    batch's, and a sum table (``Table.kind`` "sum") adds up to it by its keys."""
    cfg = scripted_config(game, seed=3)
    whole = game.run_batch(cfg, 0, 30, "fast")
    parts = [game.run_batch(cfg, 0, 12, "fast"), game.run_batch(cfg, 12, 18, "fast")]
    for name, spec in game.tables.items():
        joined = pd.concat([p[name] for p in parts], ignore_index=True)
        if spec.kind == "sum":
            joined = joined.groupby(list(spec.keys), as_index=False).sum()
        pd.testing.assert_frame_equal(joined, whole[name], obj=f"table '{name}'")


@pytest.fixture(params=[(g, i) for g in GAMES for i in range(len(CASES.get(g, {}).get("bad_configs", [None])))],
                ids=lambda p: f"{p[0]}-{p[1]}")
def bad_config(request):
    game, i = request.param
    return get_game(game), case(game, "bad_configs")[i]


def test_bad_config_is_a_one_line_error(bad_config):
    game, (kwargs, needle) = bad_config
    with pytest.raises(ConfigError) as err:
        game.make_config(**kwargs)
    message = str(err.value)
    assert needle in message and "\n" not in message, message


@pytest.fixture(params=[(g, i) for g in GAMES for i in range(len(CASES.get(g, {}).get("bad_scenarios", [None])))],
                ids=lambda p: f"{p[0]}-{p[1]}")
def bad_scenario(request):
    game, i = request.param
    return get_game(game), case(game, "bad_scenarios")[i]


def test_bad_scenario_input_is_a_one_line_error(bad_scenario):
    game, (spec, needle) = bad_scenario
    with pytest.raises(ConfigError) as err:
        game.scenario({"game": game.name, **copy.deepcopy(spec)})
    message = str(err.value)
    assert needle in message and "\n" not in message, message


def test_every_parameter_has_a_source_a_rule_and_a_default_it_accepts(game):
    """Every rule parameter names where its default comes from (``Param.source``), the rule it
    sets and what it does; the default passes the parameter's own check, and is the config's."""
    defaults = game.make_config().params
    for p in game.params:
        assert p.source in SOURCES and p.rule and p.doc, p.name
        assert p.coerce(p.default) == p.default == defaults[p.name], p.name


def test_every_lever_names_a_parameter_values_it_takes_and_lines_that_exist(game):
    """``sim.kit.levers.check_levers``: what ``cardlab suggest`` plays is a setting the game accepts."""
    check_levers(game)
    assert all(lv.values and lv.lines for lv in game.levers)


def test_the_lever_check_names_a_lever_of_unknown_lines(game):
    if not game.levers:
        pytest.skip(f"{game.name} has no levers")
    lv = game.levers[0]
    broken = type(game)()
    broken.levers = (type(lv)(lv.param, lv.values, ("no_such_line",), lv.doc),)
    with pytest.raises(ConfigError, match=f"lever {lv.param} names unknown lines no_such_line"):
        check_levers(broken)


def test_feel_measures_agree_with_the_results(game):
    """Over simulated games (both engines agree): a sole winner leads at the end, so the turn from
    which it leads for good is within first_turn..length; it and the winner's largest deficit
    are -1 exactly without a sole winner; that deficit is the winner's seat's ``max_behind``."""
    feel = case(game.name, "feel")
    if feel is None:
        pytest.skip(f"{game.name}'s feel measures are checked in its own tests (feel: None in tests/<game>/cases.py)")
    lead = feel["leader_from"]
    for players, bots in feel["tables"]:
        t = engines_agree(game, game.make_config(players=players, bots=bots, seed=21), 0, 150)
        g, s = t["games"], t["seats"]
        sole = g[g["n_winners"] == 1]
        assert sole[lead].between(feel["first_turn"], sole[game.length_column]).all()
        assert (g.loc[g["n_winners"] != 1, [lead, "winner_max_behind"]] == -1).all().all()
        winners = s[s["win"] & s["game"].isin(sole["game"])].set_index("game")["max_behind"]
        assert (sole.set_index("game")["winner_max_behind"] == winners.reindex(sole["game"])).all()
        assert (g["lead_changes"] >= 0).all() and (s["max_behind"] >= 0).all()


def test_feel_section_figures_match_the_tables(game, tmp_path):
    """The Game feel section of the game's report module (``feel_section``) gives the same figures
    as the run's tables counted in pandas (lead changes, the share of the game played when the
    winner took the lead for good, the games longer than the length chart's cut, and the game's
    own ``rows``), each inside its 95% interval; its chart counts the games with one winner by
    the tenth of the game in which the winner took the lead for good."""
    feel = case(game.name, "feel")
    if feel is None:
        pytest.skip(f"{game.name}'s feel measures are checked in its own tests (feel: None in tests/<game>/cases.py)")
    import matplotlib

    matplotlib.use("Agg")
    from analysis.hooks import hook
    from analysis.load import Run

    spec = feel["section"]
    section = hook(game.name, "feel_section")
    assert section is not None, f"{game.name}'s report module has no feel_section"
    runner.run(game.make_config(seed=4), spec["games"], tmp_path / "run",
               runner.RunOptions(batch_size=spec["batch"], progress=False))
    run = Run(tmp_path / "run")
    sec = section(run)
    t = sec.tables[0][1].set_index("measure")
    g, s = run.table("games"), run.table("seats")
    length = g[game.length_column]
    sole = g[g["n_winners"] == 1]
    turns = sole[game.length_column]
    played = (sole[feel["leader_from"]] + 1 - feel["first_turn"]).clip(upper=turns)  # turns played by then
    cut = int(np.sort(length)[-(-99 * len(length) // 100) - 1])  # the least length of 99% of the games or more
    expected = {"lead changes per game": g["lead_changes"].mean(),
                "share of the game played when the winner took the lead for good": (played / turns).mean(),
                f"games longer than {cut} turns": (length > cut).mean(), **spec["rows"](g, s)}
    for measure, value in expected.items():
        assert t.at[measure, "value"] == pytest.approx(value), measure
    shown = t.dropna(subset=["lo"])
    assert ((shown["lo"] <= shown["value"] + 1e-12) & (shown["value"] <= shown["hi"] + 1e-12)).all()
    tenth = (10 * played + turns - 1) // turns
    drawn = sec.figures[0][1].axes[0].patches[0].get_path().vertices[:, 1]
    assert tenth.between(1, 10).all() and drawn.max() == pytest.approx(tenth.value_counts(normalize=True).max())
