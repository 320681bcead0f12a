"""High card with one redraw: the toy game (``tests.toy_game``) with a decision, so that it has
the step contract and a search bot (``sim.kit.step``, ``sim.kit.search``): the template of a game's
kernel (``kernel/__init__.py``), reference engine (``reference/``) and search part (``search.py``).

Each seat is dealt a card 0..12; then each seat in turn keeps it or redraws once, while fewer
than ``redraws`` seats have redrawn (HR-1; then its one option is to keep). The others' cards are hidden.
The highest card wins (the lucky bot's card gets ``lucky_bonus``; ties share the win);
``turns`` and ``decisions`` count the seats' decisions.
"""

from __future__ import annotations

import numpy as np

from sim.kit.config import BotParam, BotSpec, Param
from sim.kit.search_params import search_params
from sim.kit.step import Step
from tests.toy_game import HighCard

from .reference import Bots, play


def game_rows(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Winner (the first of the highest), number of winners and turns of games' final ``cards``."""
    best = cards == cards.max(axis=1, keepdims=True)
    return best.argmax(axis=1), best.sum(axis=1), np.full(len(cards), cards.shape[1])


class RedrawStep(Step):
    """The step contract: one decision kind, keep (0) or redraw (1)."""

    kinds = ("redraw",)
    max_options = 2
    kernel_module = "tests.toy_step.kernel"
    search_module = "tests.toy_step.kernel.search"
    search_opponents = ("plain",)

    def outcome(self, cfg, buf):
        cards = np.array([[self.kernel().final_card(buf, s) for s in range(cfg.players)]])
        return {"games": np.array(game_rows(cards))[:, 0], "cards": cards[0]}

    def raw_outcome(self, cfg, raw):
        cards = raw["cards"]
        return {"games": np.array(game_rows(cards))[:, 0], "cards": cards[0]}


class HighCardRedraw(HighCard):
    name = "toy-step"
    title = "High card with one redraw (test game)"
    params = (*HighCard.params, Param("redraws", 2, "int", "assumed", "HR-1", "the most seats that redraw", lo=0, hi=5))
    bots = {"plain": BotSpec("plain", 0, {"nerve": 0.5}), "lucky": BotSpec("lucky", 1, {"nerve": 0.5}),
            "search": BotSpec("search", 2, {"nerve": 0.5, "budget": 64.0, "determinizations": 0.0, "rollout": 0.0,
                                            "objective": 0.0, "horizon": 0.0})}
    bot_param_specs = (BotParam("nerve", 0.0, 1.0, "redraws a card below nerve x 13"),
                       *search_params({"plain": 0}, ("win",)))
    step_class = "tests.toy_step.RedrawStep"  # the step contract (``sim.kit.step``), made on first use

    def fast_batch(self, cfg, start, count):
        if "search" in cfg.bots:
            from sim.kit.search import N_STATS

            from .kernel.search import search_batch

            raw = search_batch(self, cfg, start, count, np.zeros(N_STATS, dtype=np.int64))
        else:
            from .kernel import new_state, run_games, run_vector

            raw = self.new_arrays(cfg, count)
            run_games(new_state(), np.uint64(cfg.seed), np.int64(start), np.int64(count), run_vector(self, cfg),
                      raw["cards"])
        raw["winner"], raw["nwin"], raw["turns"] = game_rows(raw["cards"])
        return raw

    def play_reference(self, cfg, index, log=None, wrap=None):
        seated = self.seat_params(cfg, index)
        return play(cfg, index, seated, self.reference_agent(cfg, index, Bots([p["nerve"] for _, p in seated]), wrap), log)


GAME = HighCardRedraw()
