"""Shared fixtures: the toy plug-in game for machinery tests."""

import os

import pytest

os.environ.setdefault("CARDLAB_GAMES", "toy=tests.toy_game")
os.environ.setdefault("CARDLAB_REPORTS", "toy=tests.toy_report")


@pytest.fixture
def toy():
    from sim.games import get_game

    return get_game("toy")
