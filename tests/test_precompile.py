"""sim.run.precompile: each game's engine compiled in its own process; failures named, not raised."""

from sim.run import precompile
from sim.games import MODULES


def test_each_game_gets_its_own_process_and_result(monkeypatch):
    monkeypatch.setattr(precompile, "PLAY_ONE_GAME", "import sys; {name!r} == 'toy' or sys.exit('no engine for ' + {name!r})")
    monkeypatch.setattr(precompile, "source_size", lambda game: len(game))
    results = precompile.compile_games(["toy", "virus-dogs", "daifugo"], jobs=2)
    assert [r.game for r in results] == ["toy", "virus-dogs", "daifugo"]
    assert [r.error for r in results] == ["", "no engine for virus-dogs", "no engine for daifugo"]
    assert all(r.seconds >= 0 for r in results)


def test_largest_source_compiles_first(monkeypatch):
    started = []
    real_popen = precompile.subprocess.Popen

    def popen(args, **kw):
        started.append(args[-1])
        return real_popen(args[:2] + ["pass"], **kw)

    monkeypatch.setattr(precompile.subprocess, "Popen", popen)
    results = precompile.compile_games(list(MODULES), jobs=1)
    sizes = {g: precompile.source_size(g) for g in MODULES}
    assert [s.split("warm(")[1].split(",")[0].strip("'") for s in started] == sorted(sizes, key=sizes.get, reverse=True)
    assert [r.error for r in results] == [""] * len(MODULES)


def test_each_bounds_check_setting_compiles_in_its_own_process(monkeypatch):
    """The bounds-checked compile runs with NUMBA_BOUNDSCHECK=1, the normal one without it."""
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "1")  # inherited from a bounds-checked parent, too
    monkeypatch.setattr(precompile, "PLAY_ONE_GAME", "import os, sys; sys.exit({name!r} + ':' + os.environ.get('NUMBA_BOUNDSCHECK', 'unset'))")
    results = precompile.compile_games(["toy"], jobs=2, boundscheck=(False, True))
    assert [(r.boundscheck, r.error) for r in results] == [(False, "toy:unset"), (True, "toy:1")]
    monkeypatch.setenv("NUMBA_OPT", "0")
    assert "NUMBA_OPT" not in precompile.compile_env(False) and precompile.compile_env(True)["NUMBA_BOUNDSCHECK"] == "1"


def test_batch_only_reaches_the_warm_up(monkeypatch):
    """``cardlab compile --batch-only`` warms the batch kernel alone (sim.run.precompile.warm)."""
    monkeypatch.setattr(precompile, "PLAY_ONE_GAME", "import sys; sys.exit({name!r} + ':' + str({batch_only!r}))")
    assert [r.error for r in precompile.compile_games(["toy"], batch_only=True)] == ["toy:True"]
    assert [r.error for r in precompile.compile_games(["toy"])] == ["toy:False"]


def test_the_bounds_checked_warm_up_leaves_the_search_out(monkeypatch):
    """No bounds-checked test plays a search seat, so that compile skips the search."""
    monkeypatch.setattr(precompile, "PLAY_ONE_GAME", "import sys; sys.exit({name!r} + ':' + str({search!r}))")
    results = precompile.compile_games(["toy"], boundscheck=(False, True))
    assert [(r.boundscheck, r.error) for r in results] == [(False, "toy:True"), (True, "toy:False")]


def test_a_batch_only_warm_up_leaves_the_step_contract_alone(monkeypatch):
    """With ``batch_only`` the step kernel is never loaded; without it, it is."""
    import pytest

    from sim.games import get_game

    class Loaded(Exception):
        pass

    def kernel(self):
        raise Loaded

    monkeypatch.setattr(type(get_game("toy-step").step), "kernel", kernel)
    precompile.warm("toy-step", batch_only=True)
    with pytest.raises(Loaded):
        precompile.warm("toy-step")


def test_a_warm_up_without_search_plays_no_search_seat(monkeypatch):
    """``warm(search=False)`` plays the step contract but no game with a search seat."""
    import pytest

    from sim.games import get_game

    game = get_game("toy-step")
    real = type(game).run_batch

    def run_batch(self, cfg, *args, **kw):
        if "search" in cfg.bots:
            raise AssertionError("a search seat played")
        return real(self, cfg, *args, **kw)

    monkeypatch.setattr(type(game), "run_batch", run_batch)
    precompile.warm("toy-step", search=False)
    with pytest.raises(AssertionError, match="a search seat played"):
        precompile.warm("toy-step")
