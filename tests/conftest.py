"""Shared fixtures: the toy plug-in game for machinery tests. Under pytest-xdist the
controller first compiles every game's fast engine (its batch kernel and step contract) into
numba's cache, one process per game in parallel, so that the workers load the kernels instead
of each compiling them at once."""

import os

import pytest

os.environ.setdefault("CARDLAB_GAMES", "toy=tests.toy_game,toy-step=tests.toy_step")


@pytest.fixture
def toy():
    from sim.games import get_game

    return get_game("toy")


def pytest_sessionstart(session):
    if os.environ.get("PYTEST_XDIST_WORKER") or not getattr(session.config.option, "numprocesses", None):
        return
    from sim.games import available
    from sim.run.precompile import compile_games

    # this pass's own kernels; `make test` also fills the bounds-checked cache of its second pass here
    if os.environ.get("NUMBA_BOUNDSCHECK") == "1":
        boundscheck: tuple[bool, ...] = (True,)
    else:
        boundscheck = (False, True) if os.environ.get("CARDLAB_PRECOMPILE_BOUNDSCHECK") == "1" else (False,)
    compile_games(available(), boundscheck=boundscheck)  # a kernel that fails to compile fails its own tests with the message
