"""A constructed game whose levers have known effects, for ``cardlab suggest``'s lever search.

Each of three seats draws a card 0..12 and the highest card wins (ties shared); seat 0 adds
``lead_bonus`` (default 3) to its card, so seat 0 wins far more often: seat order is the red
line. Two levers may move it: ``lead_bonus`` (0 makes the seats even: its known effect) and
``coin_ends`` (true: a coin ends every other game at the turn cap with a winner drawn at random,
which halves the seat gap but sends half the games to the turn cap: a harmful side effect).
Both engines are the same plain Python, one ``sim.kit.rng.Rng(seed, game)`` per game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.kit import rng
from sim.kit.config import BotSpec, Param
from sim.games.base import SEAT_KEYS, Game, Table, seat_keys
from sim.kit.levers import STALL_BAND, Lever, Line

SEATS, CAP = "seat_spread", "rate:turn_cap"


class LeverToy(Game):
    name = "toy-levers"
    title = "High card with a lead seat (test game)"
    min_players, max_players, default_players = 3, 3, 3
    params = (
        Param("lead_bonus", 3, "int", "assumed", "T-1", "added to seat 0's card", lo=0, hi=13),
        Param("coin_ends", False, "bool", "assumed", "T-2", "a coin ends every other game at the turn cap"),
    )
    bots = {"plain": BotSpec("plain", 0, {})}
    default_bots = ("plain",)
    tables = {
        "games": Table("game", "one row per game", columns=(
            ("game", "int64"), ("winner", "int64"), ("n_winners", "int64"), ("turns", "int64"), ("turn_cap", "bool"))),
        "seats": Table("seat", "one row per seat per game", columns=(*SEAT_KEYS, ("win", "bool"))),
    }
    stall_flags = {"turn_cap": "the turn cap"}
    levers = (Lever("coin_ends", (True,), (SEATS,), "the coin"),
              Lever("lead_bonus", (2, 1, 0), (SEATS,), "seat 0's bonus"))

    def rule_lines(self, cfg):
        """Seat order with a band of 5 points (so that a few thousand games tell), and the cap."""
        return [Line(SEATS, "seat order", hi=0.05, ideal=0.0), Line(CAP, "games that end at the turn cap", hi=STALL_BAND)]

    def new_arrays(self, cfg, count):
        return {"win": np.zeros((count, cfg.players), bool), "cap": np.zeros(count, bool)}

    def play_reference(self, cfg, index, log=None):
        r = rng.Rng(cfg.seed, index)
        cards = [r.randbelow(13) + (cfg.params["lead_bonus"] if s == 0 else 0) for s in range(cfg.players)]
        capped = cfg.params["coin_ends"] and r.randbelow(2) == 1
        if capped:
            lucky = r.randbelow(cfg.players)
            return capped, [s == lucky for s in range(cfg.players)]
        return capped, [c == max(cards) for c in cards]

    fast_batch = None  # set below: the same plain Python

    def record(self, played, raw, row):
        raw["cap"][row], raw["win"][row] = played

    def build_tables(self, cfg, start, count, raw):
        win = raw["win"]
        games = pd.DataFrame({"game": np.arange(start, start + count, dtype=np.int64),
                              "winner": win.argmax(axis=1).astype(np.int64), "n_winners": win.sum(axis=1),
                              "turns": np.ones(count, np.int64), "turn_cap": raw["cap"]})
        return {"games": games, "seats": pd.DataFrame({**seat_keys(cfg, start, count), "win": win.ravel()})}

    def scenario(self, spec):
        return {"game": self.name, "state": {}, "events": [], "illegal": None, "waiting": None, "finished": True,
                "result": {}}


def _fast(self, cfg, start, count):
    raw = self.new_arrays(cfg, count)
    for row in range(count):
        self.record(self.play_reference(cfg, start + row), raw, row)
    return raw


LeverToy.fast_batch = _fast
GAME = LeverToy()
