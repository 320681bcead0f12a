"""A tiny plug-in game (high card) for testing the runner, store, CLI and report machinery.

Each seat draws a card 0..12; the highest card wins (ties: every tied seat shares the win);
``turns`` is 1 + a draw in 0..4 and every turn counts as one player decision (``decisions``,
as in the real games' ``games`` tables). Both engines follow the protocol: per game, one draw for
``turns``, then one ``randbelow(13)`` per seat in seat order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from sim.kit import rng
from sim.kit.config import BotParam, BotSpec, ConfigError, Param
from sim.games.base import SEAT_KEYS, Game, Table, seat_keys
from sim.kit.kernel_util import seat_bot


@njit(cache=True)
def _kernel(seed, start, count, players, bonus, policy, turns, cards, winner, nwin):
    for g in range(count):
        s = rng.game_state(seed, start + g)
        turns[g] = 1 + rng.randbelow(s, 5)
        best = -1
        for p in range(players):
            c = rng.randbelow(s, 13) + (bonus if seat_bot(policy, start + g, p) == 1 else 0)
            cards[g, p] = c
            if c > best:
                best = c
        winner[g] = -1
        nwin[g] = 0
        for p in range(players):
            if cards[g, p] == best:
                nwin[g] += 1
                if winner[g] < 0:
                    winner[g] = p


@dataclass
class Played:
    """A finished reference game: its length, every seat's card, the winning seats."""

    turns: int
    cards: list[int]
    winners: list[int]


class HighCard(Game):
    name = "toy"
    title = "High card (test game)"
    min_players, max_players, default_players = 2, 5, 3
    params = (
        Param("lucky_bonus", 0, "int", "assumed", "T-1", "added to the lucky bot's card (13: it always wins)", lo=0, hi=13),
        Param("mode", "plain", "choice", "assumed", "T-2", "unused switch", choices=("plain", "fancy")),
    )
    bots = {"plain": BotSpec("plain", 0, {}), "lucky": BotSpec("lucky", 1, {"nerve": 0.5})}
    bot_param_specs = (BotParam("nerve", 0.0, 1.0, "unused"),)
    default_bots = ("plain", "lucky")
    tables = {
        "games": Table("game", "one row per game", columns=(
            ("game", "int64"), ("winner", "int64"), ("n_winners", "int64"), ("turns", "int64"),
            ("decisions", "int64"))),
        "seats": Table("seat", "one row per seat per game", columns=(*SEAT_KEYS, ("win", "bool"), ("card", "int64"))),
        "cards": Table("sum", "card value counts", keys=("card",), columns=(("card", "int64"), ("count", "int64"))),
    }
    report_module = "tests.toy_report"
    broken_reference = False  # tests flip this to prove verify can fail

    def new_arrays(self, cfg, count):
        return {"turns": np.zeros(count, np.int64), "cards": np.zeros((count, cfg.players), np.int64),
                "winner": np.zeros(count, np.int64), "nwin": np.zeros(count, np.int64)}

    def fast_batch(self, cfg, start, count):
        raw = self.new_arrays(cfg, count)
        policy, _ = self.bot_matrix(cfg)
        _kernel(np.uint64(cfg.seed), start, count, cfg.players, cfg.params["lucky_bonus"], policy, raw["turns"],
                raw["cards"], raw["winner"], raw["nwin"])
        return raw

    def play_reference(self, cfg, index, log=None):
        r = rng.Rng(cfg.seed, index)
        turns = 1 + r.randbelow(5)
        seats = self.seat_params(cfg, index)
        cards = [r.randbelow(13) + (cfg.params["lucky_bonus"] if b == "lucky" else 0) for b, _ in seats]
        if self.broken_reference and index == 7:
            turns += 1
        if log is not None:
            log.extend(f"seat {s} ({b}) draws {c}" for s, ((b, _), c) in enumerate(zip(seats, cards)))
        return Played(turns, cards, [p for p, c in enumerate(cards) if c == max(cards)])

    def record(self, played, raw, row):
        raw["turns"][row] = played.turns
        raw["cards"][row] = played.cards
        raw["winner"][row], raw["nwin"][row] = played.winners[0], len(played.winners)

    def build_tables(self, cfg, start, count, raw):
        cards = raw["cards"]
        games = pd.DataFrame({"game": np.arange(start, start + count, dtype=np.int64), "winner": raw["winner"],
                              "n_winners": raw["nwin"], "turns": raw["turns"], "decisions": raw["turns"].copy()})
        seats = pd.DataFrame({**seat_keys(cfg, start, count),
                              "win": (cards == cards.max(axis=1, keepdims=True)).ravel(), "card": cards.ravel()})
        vals, cnt = np.unique(cards, return_counts=True)
        sums = pd.DataFrame({"card": vals.astype(np.int64), "count": cnt.astype(np.int64)})
        return {"games": games, "seats": seats, "cards": sums}

    def scenario(self, spec):
        unknown = set(spec) - {"game", "players", "params", "seed", "state", "decisions", "bots"}
        if unknown:
            raise ConfigError(f"unknown scenario field(s): {', '.join(sorted(unknown))}")
        if not isinstance(spec.get("seed", 0), int) or isinstance(spec.get("seed"), bool):
            raise ConfigError(f"seed must be an integer, got {spec['seed']!r}")
        return {"game": self.name, "state": spec.get("state", {}), "events": [], "illegal": None,
                "waiting": None, "finished": True, "result": {}}


GAME = HighCard()
