"""The toy game (``tests.toy_game``) with a stand-in search bot, for the tests of which runs may
carry design findings: ``search`` (and ``seeing``, a stand-in all-seeing search) draws as the lucky
bot does in the fast engine (its card gets ``lucky_bonus``), and its budget is a parameter it does
not use; ``random`` plays as ``plain``. The stand-in gives tests/test_eligibility.py a search
player whose strength the ladder rates for certain; the toy's real search bot is tests/toy_step/
(high card with one redraw)."""

from sim.kit.config import BotParam, BotSpec
from tests.toy_game import HighCard


class HighCardWithSearch(HighCard):
    name = "toy-search"
    title = "High card with search (test game)"
    bots = {**HighCard.bots, "random": BotSpec("random", 0, {}), "search": BotSpec("search", 1, {"budget": 64.0}),
            "seeing": BotSpec("seeing", 1, {"budget": 64.0})}
    bot_param_specs = (*HighCard.bot_param_specs, BotParam("budget", 1.0, 4096.0, "unused"))


GAME = HighCardWithSearch()
