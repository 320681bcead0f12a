"""A tiny plug-in game (high card) for testing the runner, store, CLI and report machinery.

Each seat draws a card 0..12; the highest card wins (ties: every tied seat shares the win);
``turns`` is 1 + a draw in 0..4. Both engines follow the protocol: per game, one draw for
``turns``, then one ``randbelow(13)`` per seat in seat order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from sim import rng
from sim.config import BotSpec, Param
from sim.games.base import Game, Section, Table, seat_bot, seat_bots


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


class HighCard(Game):
    name = "toy"
    title = "High card (test game)"
    spec = ""
    min_players, max_players, default_players = 2, 5, 3
    params = (
        Param("lucky_bonus", 0, "int", "assumed", "T-1", "added to the lucky bot's card", lo=0, hi=5),
        Param("mode", "plain", "choice", "assumed", "T-2", "unused switch", choices=("plain", "fancy")),
    )
    bots = {"plain": BotSpec("plain", 0, {}), "lucky": BotSpec("lucky", 1, {"nerve": 0.5})}
    default_bots = ("plain", "lucky")
    tables = {
        "games": Table("game", "one row per game"),
        "seats": Table("seat", "one row per seat per game"),
        "cards": Table("sum", "card value counts", keys=("card",)),
    }
    broken_reference = False  # tests flip this to prove verify can fail

    def _frames(self, cfg, start, count, turns, cards, winner, nwin):
        games = pd.DataFrame({"game": np.arange(start, start + count, dtype=np.int64), "winner": winner,
                              "n_winners": nwin, "turns": turns})
        n = cfg.players
        names = [seat_bots(cfg, start + g) for g in range(count)]
        seats = pd.DataFrame({
            "game": np.repeat(games["game"].to_numpy(), n),
            "seat": np.tile(np.arange(n, dtype=np.int64), count),
            "bot": [b for row in names for b in row],
            "win": (cards == cards.max(axis=1, keepdims=True)).ravel(),
            "card": cards.ravel(),
        })
        vals, cnt = np.unique(cards, return_counts=True)
        sums = pd.DataFrame({"card": vals.astype(np.int64), "count": cnt.astype(np.int64)})
        return {"games": games, "seats": seats, "cards": sums}

    def run_batch(self, cfg, start, count, engine="fast"):
        n = cfg.players
        turns = np.zeros(count, np.int64)
        cards = np.zeros((count, n), np.int64)
        winner = np.zeros(count, np.int64)
        nwin = np.zeros(count, np.int64)
        bonus = cfg.params["lucky_bonus"]
        if engine == "fast":
            policy, _ = self.bot_matrix(cfg)
            _kernel(np.uint64(cfg.seed), start, count, n, bonus, policy, turns, cards, winner, nwin)
        else:
            for g in range(count):
                r = rng.Rng(cfg.seed, start + g)
                turns[g] = 1 + r.randbelow(5)
                bots = seat_bots(cfg, start + g)
                for p in range(n):
                    cards[g, p] = r.randbelow(13) + (bonus if bots[p] == "lucky" else 0)
                best = cards[g].max()
                winners = [p for p in range(n) if cards[g, p] == best]
                winner[g], nwin[g] = winners[0], len(winners)
                if self.broken_reference and start + g == 7:
                    turns[g] += 1
        return self._frames(cfg, start, count, turns, cards, winner, nwin)

    def replay(self, cfg, index):
        tables = self.run_batch(cfg, index, 1, "reference")
        lines = [f"seat {s.seat} ({s.bot}) draws {s.card}" for s in tables["seats"].itertuples()]
        return lines, tables

    def scenario(self, spec):
        return {"game": self.name, "state": spec.get("state", {}), "events": [], "illegal": None,
                "waiting": None, "finished": True, "result": {}}

    def report_sections(self, run):
        cards = run.table("cards")
        return [Section("Card values", tables=[("Card counts", cards)])]


GAME = HighCard()
