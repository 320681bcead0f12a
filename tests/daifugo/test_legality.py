"""``Engine.is_legal`` (any representation, used by scenarios) agrees with ``legal_plays``
(one canonical representation per play, used by bots and mirrored by the kernel) on every
play decision of a sample of bot games with the six implemented cards in play."""

from itertools import combinations

import pytest

from sim.games.base import seat_bots
from sim.games.daifugo import GAME
from sim.games.daifugo.reference.bots import BotAgent
from sim.games.daifugo import bot_params
from sim.games.daifugo.plays import SET, Play, joker_single, stairs_of
from sim.games.daifugo.reference import Engine
from sim.games.daifugo.rules import JOKER
from sim.kit.rng import Rng


def candidate_plays(hand):
    """Every single/set with every joker designation, every stairs reading, the Joker single."""
    nat = sorted(c for c in hand if c < JOKER)
    jokers = sorted(c for c in hand if c >= JOKER)
    out = []
    for r in range(13):
        held = [c for c in nat if c // 4 == r]
        for k in range(1, 5):
            for j in range(len(jokers) + 1):
                for cards in combinations(held, k - j):
                    free = [4 * r + s for s in range(4) if 4 * r + s not in cards]
                    if j > len(free) or (j == 0 and k == 0):
                        continue
                    for reps in combinations(free, j):
                        pairs = sorted([(c, c) for c in cards] + list(zip(jokers[:j], reps)))
                        if not pairs:
                            continue
                        out.append(Play(SET, tuple(c for c, _ in pairs), tuple(x for _, x in pairs), k, r, r,
                                        sum(1 << (x % 4) for _, x in pairs)))
    return out + stairs_of(set(hand), None) + joker_single(set(hand))


def key(x):
    """Plays that differ only in the representation of their jokers share a key (stairs: the
    run, whichever cards make it)."""
    if x.kind == SET:
        return (SET, x.count, x.low, x.mask)
    return (x.kind, x.count, x.low, x.suits)


class Checker(BotAgent):
    checked = 0

    def decide(self, eng, p, kind, options):
        if kind == "play":
            moves = [m for m in options if m is not None]
            assert all(eng.is_legal(p, m) for m in moves)
            listed = {key(m) for m in moves}
            legal = {}
            for x in candidate_plays(eng.hands[p]):
                legal[key(x)] = legal.get(key(x), False) or eng.is_legal(p, x)
            assert {k for k, ok in legal.items() if ok} == listed
            Checker.checked += 1
        return super().decide(eng, p, kind, options)


@pytest.mark.parametrize("params", [
    {"rule_deck": "07,09,14,15,19,21", "mode": "madness"},
    {"rule_deck": "14,15,21,19", "rounds": 4, "lone_joker_wild": False, "joker_single_ignores_number_lock": False},
])
def test_is_legal_matches_legal_plays(params):
    cfg = GAME.make_config(players=4, bots=["random", "greedy", "strategist", "random"], seed=9, overrides=params)
    before = Checker.checked
    for i in range(12):
        names = seat_bots(cfg, i)
        eng = Engine(cfg, Rng(cfg.seed, i), Checker(names, bot_params(cfg, names)))
        eng.start_game()
        eng.run()
    assert Checker.checked - before > 300
