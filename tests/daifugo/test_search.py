"""The daifugo search bot (sim.kit.search, kernel/search.py): it leaves setup decisions to its rollout bot.
That it does not peek at the opponents' hands, the set-aside or removed cards or the rule deck's
order (§2.4, DEC-1, DEC-16; what a seat cannot see: tests/daifugo/hidden.py) is
tests/test_search_contract.py; its runs for any batch and worker count, the reference engine's play
of it and a search decision leaving the game as it was: tests/test_step_contract.py."""

import numpy as np

from sim.games.daifugo import GAME
from sim.games.daifugo import kernel as K
from sim.games.daifugo.kernel import search as KS
from sim.games.daifugo.kernel import state as S
from sim.kit.search import BOT_ANSWER
from tests.searching import search_config

CFG = search_config(GAME)


def test_setup_and_oversized_decisions_go_to_the_rollout_bot():
    """The search weighs only turn decisions within its budget: a round's setup decision with
    two or more options (D1 draft, D2 gifts ...) is answered by the rollout bot."""
    run = K.run_vector(GAME, CFG)
    g = K.new_state()
    KS.start_search_game(g, np.uint64(CFG.seed), np.int64(0), run)
    options = np.zeros(GAME.step.max_options, dtype=np.int64)
    assert g[S.SNAP + S.IN_ROUND] == 0 and K.step_legal(g, options) >= 2  # madness: the D1 draft comes first
    assert g[S.PKIND] == S.K_DRAFT
    assert KS.unsearched(g, options) == BOT_ANSWER
    assert K.step_apply(g, np.int64(BOT_ANSWER)) == 0
