"""Move generation: the kernel lists exactly the reference engine's legal plays, in order,
on every decision point of a sample of reference games (all six cards, several options)."""

import numpy as np
import pytest

from sim.games.base import seat_bots
from sim.games.daifugo import GAME
from sim.games.daifugo import kernel as K
from sim.games.daifugo.bots import BotAgent
from sim.games.daifugo.game import bot_params
from sim.games.daifugo.plays import JOKER_SINGLE
from sim.games.daifugo.reference import Engine
from sim.rng import Rng


def kernel_state(eng):
    S = np.zeros(K.S_SIZE, np.int64)
    K.STATE.view(S, "owner")[:] = eng.owner
    for c in eng.laws:
        S[K.LAWS] |= 1 << c
    for q in range(eng.n):
        S[K.H0 + q] = sum(1 << c for c in eng.hands[q])
        S[K.A0 + q] = int(eng.active[q])
    t = eng.top
    S[K.TK] = -1 if t is None else t.kind
    if t is not None:
        S[K.TC], S[K.TL], S[K.TH], S[K.TS], S[K.TO] = t.count, t.low, t.high, t.suits, eng.top_owner
    S[K.REV], S[K.JB], S[K.SL], S[K.NL] = int(eng.rev), int(eng.jback), eng.suit_lock, int(eng.num_lock)
    return S


class Checker(BotAgent):
    checked = 0

    def decide(self, eng, p, kind, options):
        if kind == "play":
            moves = [m for m in options if m is not None]
            S = kernel_state(eng)
            MV = np.zeros((K.MAX_MOVES, K.MOVE_COLS), np.int64)
            nm = K.legal_plays(S, np.array(eng.pv, np.int64), MV, p)
            assert nm == len(moves)
            for i, m in enumerate(moves):
                assert MV[i, K.MMASK] == m.mask and MV[i, K.MK] == m.kind and MV[i, K.MC] == m.count
                if m.kind != JOKER_SINGLE:
                    assert (MV[i, K.ML], MV[i, K.MH], MV[i, K.MSU]) == (m.low, m.high, m.suits)
            Checker.checked += 1
        return super().decide(eng, p, kind, options)


@pytest.mark.parametrize("params", [
    {"rule_deck": "07,09,14,15,19,21", "mode": "madness"},
    {"rule_deck": "14,15,21", "lone_joker_wild": False, "joker_single_ignores_number_lock": False},
    {"rule_deck": "21,14,15,19", "precept21_followers_may_play_stairs": False, "mode": "madness"},
    {"rule_deck": "16,14,15,21", "mode": "madness"},
    {"rule_deck": "16,15,21,19,07,22"},
    {"rule_deck": "22,14,15,23,06", "mode": "madness"},
    {"rule_deck": "06,16,23,14,15,21,11"},
    {"rule_deck": "20,21,14,15,19,16", "mode": "madness"},
    {"rule_deck": "20,21,06,15"},
])
def test_kernel_lists_the_reference_plays(params):
    cfg = GAME.make_config(players=4, bots=["random"], seed=21, overrides=params)
    before = Checker.checked
    for i in range(25):
        names = seat_bots(cfg, i)
        eng = Engine(cfg, Rng(cfg.seed, i), Checker(names, bot_params(cfg, names)))
        eng.start_game()
        eng.run()
    assert Checker.checked - before > 1000
