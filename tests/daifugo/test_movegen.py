"""Move generation: the kernel lists exactly the reference engine's legal plays, in order,
on every decision point of a sample of reference games (all six cards, several options)."""

import numpy as np
import pytest

from sim.games.base import seat_bots
from sim.games.daifugo import GAME
from sim.games.daifugo import kernel as K
from sim.games.daifugo.kernel import state as S
from sim.games.daifugo.reference.bots import BotAgent
from sim.games.daifugo import bot_params
from sim.games.daifugo.plays import JOKER_SINGLE
from sim.games.daifugo.reference import Engine
from sim.kit.rng import Rng


def kernel_state(eng):
    """A kernel buffer holding the reference engine's state as far as move generation reads it."""
    b = np.zeros(K.SIZE, np.int64)
    K.LAYOUT.view(b, "owner")[:] = eng.owner
    K.LAYOUT.view(b, "params")[:] = eng.pv
    for c in eng.laws:
        b[S.LAWS] |= 1 << c
    for q in range(eng.n):
        b[S.H0 + q] = sum(1 << c for c in eng.hands[q])
        b[S.A0 + q] = int(eng.active[q])
    t = eng.top
    b[S.TK] = -1 if t is None else t.kind
    if t is not None:
        b[S.TC], b[S.TL], b[S.TH], b[S.TS], b[S.TO] = t.count, t.low, t.high, t.suits, eng.top_owner
    b[S.REV], b[S.JB], b[S.SL], b[S.NL] = int(eng.rev), int(eng.jback), eng.suit_lock, int(eng.num_lock)
    return b


class Checker(BotAgent):
    checked = 0

    def decide(self, eng, p, kind, options):
        if kind == "play" and len(options) > 1:  # a single option (e.g. the joker a hunt forces) is the engine's
            moves = [m for m in options if m is not None]
            b = kernel_state(eng)
            nm = K.legal_plays(b, p)
            assert nm == len(moves)
            MV = K.LAYOUT.view(b, "moves").reshape(K.MAX_MOVES, K.MOVE_COLS)
            for i, m in enumerate(moves):
                assert MV[i, S.MMASK] == m.mask and MV[i, S.MK] == m.kind and MV[i, S.MC] == m.count
                if m.kind != JOKER_SINGLE:
                    assert (MV[i, S.ML], MV[i, S.MH], MV[i, S.MSU]) == (m.low, m.high, m.suits)
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
