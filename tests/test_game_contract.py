"""The plug-in contract, checked for every registered game (``sim.games.available()``).

In the spirit of pgx's ``api_test`` and OpenSpiel's random-simulation test: declared tables,
columns and dtypes; both engines agree on a few hundred mixed-bot games; replay matches the
stored rows of a run; a scenario's output state fed back as input reproduces itself; bad
scenario envelopes and bot parameters are one-line errors; golden reference playthroughs
(tests/golden, regenerate with ``python -m tests.golden.regenerate``).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from sim import runner
from sim.config import ConfigError
from sim.games import available, get_game
from sim.games.base import ENGINES
from sim.verify import compare_engines, replay_and_check
from tests.golden import REGENERATE, cases, path, render

GAMES = available()
AGREE_GAMES = 200  # per game, mixed bots, both engines
KEYS = {"game": ("game",), "seat": ("game", "seat")}
REQUIRED = {"games": ("game", "winner", "n_winners"), "seats": ("game", "seat", "bot", "win")}

# A scenario per game that stops at a state which can be fed back (docs/scenarios*.md): no
# pending or unresolved cards, no open call window.
SCENARIOS = {
    "virus-dogs": {"game": "virus-dogs", "players": 3, "seed": 4, "state": {}, "decisions": [
        {"type": "mode", "mode": "draw"}, {"type": "draw_another", "value": False}, {"type": "end"},
        {"type": "mode", "mode": "draw"}, {"type": "draw_another", "value": True}, {"type": "end"},
        {"type": "mode", "mode": "draw"}, {"type": "draw_another", "value": False}]},
    "faking-sick": {"game": "faking-sick", "players": 3, "seed": 4, "state": {}, "decisions": [
        {"action": "play", "card": "VIR", "bluff": False}, {"calls": []}]},
    "daifugo": {"game": "daifugo", "players": 4, "seed": 4, "state": {"phase": "deal", "hands": [[], [], [], []]},
                "decisions": [{"player": 0, "trim": []}, {"player": 1, "trim": []}, {"player": 2, "trim": []},
                              {"player": 3, "trim": []}, {"play": ["D4"]}, {"play": ["D5"]}, {"play": ["D6"]},
                              {"play": ["S7"]}, {"play": ["H8"]}, {"play": ["D10"]}, {"play": ["Jk"], "as": ["SJ"]}]},
    "toy": {"game": "toy", "seed": 1, "state": {"note": "echoed"}},
}
# Documented exceptions to "fed back, the state reproduces itself": faking-sick scenarios start
# at the beginning of ``to_move``'s turn, so an output inside a turn counts it once more when fed
# back (docs/scenarios/faking-sick.md).
RECOUNTED = {"faking-sick": {"turns": 1}}


def mixed_config(game, seed: int = 11):
    """Every bot of the game seated, as many players as that takes (within the game's range)."""
    bots = list(game.bots)
    players = min(game.max_players, max(game.default_players, len(bots)))
    return game.make_config(players=players, bots=[bots[i % len(bots)] for i in range(players)], seed=seed)


@pytest.fixture(params=GAMES)
def game(request):
    return get_game(request.param)


def test_registry_lists_the_built_in_games():
    assert {"virus-dogs", "faking-sick", "daifugo"} <= set(GAMES)


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
    for row in seats.head(2 * cfg.players).itertuples():
        assert row.bot == cfg.bots[(row.seat + row.game) % cfg.players]  # the seat_bots rotation
    games = frames["games"]
    wins = seats.groupby("game")["win"].sum()
    assert (wins.reindex(games["game"]).to_numpy() == games["n_winners"].to_numpy()).all()


def test_unknown_engine_is_one_message(game):
    with pytest.raises(ConfigError, match=r"^unknown engine 'turbo'; known: fast, reference$"):
        game.run_batch(game.make_config(), 0, 1, "turbo")


def test_engines_agree_on_mixed_bot_games(game):
    assert compare_engines(game, mixed_config(game), AGREE_GAMES, batch=AGREE_GAMES) is None
    cfg = game.make_config(seed=5)
    assert compare_engines(game, cfg, 40, batch=17) is None  # batches of odd size, default table


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
    if game.name not in SCENARIOS:
        pytest.fail(f"add a scenario for {game.name} to SCENARIOS in {__name__}")
    return copy.deepcopy(SCENARIOS[game.name])


def test_scenario_output_state_fed_back_reproduces_itself(game):
    spec = _scenario(game)
    out = game.scenario(spec)
    assert out["illegal"] is None and not out["finished"] or game.name == "toy"
    envelope = {k: v for k, v in spec.items() if k not in ("decisions", "bots")}
    again = game.scenario({**envelope, "state": copy.deepcopy(out["state"])})
    expected = copy.deepcopy(out["state"])
    for field, step in RECOUNTED.get(game.name, {}).items():
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


# ---- the step contract (sim.step, docs/adding-a-game.md) ---------------------------------------
# Games whose plug-in has ``step``; the others are skipped by name. Each game's ``Step.variants``
# are rule overrides under which every decision kind comes up (the test checks each kind was reached).
STEP_GAMES_PER_VARIANT = 6


def _step_of(game):
    step = getattr(game, "step", None)
    if step is None:
        pytest.skip(f"{game.name} has no step contract (Game.step, sim/step.py)")
    return step


def _same_outcome(got, want, what):
    assert set(got) == set(want), what
    for name in want:
        assert np.array_equal(np.asarray(got[name], dtype=np.int64), np.asarray(want[name], dtype=np.int64)), (what, name)


def _play_on_to_end(k, buf):
    """``step_play_on`` until the game is over (a game with rounds plays one round per call)."""
    while k.step_pending(buf)[0] >= 0:
        k.step_play_on(buf)


def _walk(step, k, buf, rng, out):
    """Drive ``buf`` to the end with random legal options: per decision, a copy of the buffer
    before it, its (seat, kind, legal options) and the position applied."""
    path = []
    while True:
        seat, kind = k.step_pending(buf)
        n = k.step_legal(buf, out)
        if seat < 0:
            assert n == 0 and kind < 0
            return path
        assert 1 <= n <= len(out) and 0 <= kind < len(step.kinds)
        legal = out[:n].copy()
        assert len(set(legal.tolist())) == n  # distinct options
        pos = int(rng.integers(n))
        path.append((buf.copy(), (int(seat), step.kinds[kind], n), legal, pos))
        assert k.step_apply(buf, legal[pos]) == 0


def test_step_contract_names_and_layout(game):
    step = _step_of(game)
    k = step.kernel()
    from sim.step import NAMES

    for name in NAMES:
        assert callable(getattr(k, name)), name
    assert k.SIZE == k.LAYOUT.size  # the one buffer, declared through sim.layout
    buf = step.start(game.make_config(seed=1), 0)
    assert buf.shape == (k.SIZE,) and buf.dtype == np.int64


def test_step_contract_random_games_against_the_reference(game):
    """Random games driven through the contract from outside: at a random decision the buffer
    is copied, every legal option applied on its own copy and the game played on by the bots;
    each finished copy equals the reference engine fed the same options, which also asks the
    same decisions (seat, kind, number of options). A whole game of random options, and the
    bots alone (start, play on), are checked the same way."""
    step = _step_of(game)
    k = step.kernel()
    out = np.zeros(step.max_options, dtype=np.int64)
    rng = np.random.default_rng(2024)
    kinds_seen = set()
    for v, overrides in enumerate(step.variants):
        cfg = mixed_config(game, seed=17 + v)
        cfg = game.make_config(players=cfg.players, bots=list(cfg.bots), seed=cfg.seed, overrides=overrides)
        for index in range(STEP_GAMES_PER_VARIANT):
            what = (game.name, overrides, index)
            bots_only = step.start(cfg, index)
            _play_on_to_end(k, bots_only)
            _same_outcome(step.outcome(cfg, bots_only), step.reference_outcome(cfg, index, [])[0], what)

            buf = step.start(cfg, index)
            path = _walk(step, k, buf, rng, out)
            assert path, what
            kinds_seen |= {p[1][1] for p in path}
            chosen = [p[3] for p in path]
            got = step.outcome(cfg, buf)
            want, asked = step.reference_outcome(cfg, index, chosen)
            assert asked == [p[1] for p in path], what  # the same decisions, in the same order
            _same_outcome(got, want, what)
            assert k.step_apply(buf, np.int64(0)) == -1  # over

            j = int(rng.integers(len(path)))
            saved, pending, legal, _ = path[j]
            before = saved.copy()
            assert k.step_apply(saved.copy(), np.int64(10**9)) == -2  # not a legal option
            for pos, option in enumerate(legal):
                c = saved.copy()
                assert k.step_apply(c, option) == 0
                _play_on_to_end(k, c)
                assert k.step_pending(c) == (-1, -1)
                want, asked = step.reference_outcome(cfg, index, chosen[:j] + [pos])
                assert asked[:j + 1] == [p[1] for p in path[:j + 1]], what
                _same_outcome(step.outcome(cfg, c), want, (*what, j, pos))
            assert np.array_equal(saved, before)  # the copies are independent
    assert kinds_seen == set(step.kinds), sorted(set(step.kinds) - kinds_seen)


def test_step_contract_coverage_is_named():
    """Which games have the step contract (the others are skipped above, by name)."""
    with_step = [g for g in GAMES if getattr(get_game(g), "step", None) is not None]
    assert "virus-dogs" in with_step
