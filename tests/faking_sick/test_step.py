"""Faking-sick's step contract (kernel ``step_*``, sim/games/faking_sick/contract.py): the buffer's step
fields, the push options in the reference engine's order and the pending decisions' state. The
contract itself (random games against the reference engine, the batch as the contract with
nothing applied, refused options, driver seats) is tests/test_step_contract.py."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from sim.games.faking_sick import GAME
from sim.games.faking_sick import kernel as K
from sim.games.faking_sick.kernel import state as KS
from sim.games.faking_sick import reference
from sim.games.faking_sick.rules import K_PUSH, MAX_DECK, MAX_POOL, NT, TYPES
from sim.kit.rng import Rng
from tests.stepping import decisions

STEP = GAME.step
BOTS = ["random", "honest", "bluffer", "caller"]


def test_step_fields_are_declared_and_fit():
    """The snapshot holds the state a turn changes and the used part of the variable blocks; the
    kind names are the reference engine's; the largest decision is a push of push_count cards."""
    f = K.LAYOUT.fields
    assert f["rules"].offset == 0 and f["snapshot"].stop == K.SIZE == K.LAYOUT.size
    assert f["snapshot"].size == KS.FIXED_STOP - KS.MUTABLE + MAX_POOL + MAX_DECK
    assert KS.MUTABLE == f["rng"].offset and KS.FIXED_STOP == f["banned"].offset
    assert f["discard_pile"].stop == f["stepped"].offset  # the step fields are not snapshotted
    assert f["script"].size == KS.MAX_SCRIPT == 2 * (2 + 3 + 1)  # one turn's decisions, played twice at most
    assert STEP.kinds == K.KINDS == reference.KINDS
    assert reference.CALL_OPTIONS == ({"call": False}, {"call": True})  # the codes 0, 1
    assert STEP.max_options == comb(GAME.param("push_count").hi + NT - 1, NT - 1)
    assert KS.STEP not in {spec.policy for spec in GAME.bots.values()}
    assert K.RUN.size == K.RUN["table_bot_params"].stop


def push_code(option: dict) -> int:
    return sum(1 << (KS.PUSH_BITS * TYPES.index(t)) for t in option["push"])


@pytest.mark.parametrize("push_count", [1, 2, 3, 5])
def test_push_options_are_the_references_in_its_order(push_count):
    """``push_options`` lists reference ``legal_push`` (combinations_with_replacement order,
    restricted to the hand) for random hands, one of fewer cards than push_count included."""
    rng = np.random.default_rng(push_count)
    cfg = GAME.make_config(players=4, overrides={"push_count": push_count})
    out = np.zeros(STEP.max_options, dtype=np.int64)
    for _ in range(30):
        hand = [int(x) for x in rng.integers(0, 4, NT)]
        if sum(hand) == 0:
            hand[0] = 1
        g = reference.FakingSick(cfg.params, 4, Rng(1, 0), agent=None)
        g.hands[2] = list(hand)
        want = [push_code(o) for o in g.legal_push(2)]
        b = K.new_state()
        b[K_PUSH] = push_count
        K.LAYOUT.view(b, "hands")[2 * NT:3 * NT] = hand
        K.LAYOUT.view(b, "hand_sizes")[2] = sum(hand)
        n = K.push_options(b, 2, out)
        assert list(out[:n]) == want, hand


def test_pending_state_is_the_decisions():
    """At a pending call the played card is in limbo and out of the challenged player's hand, the
    caller is another seat; at a pending push the caller's push is of min(push_count, hand) cards."""
    cfg = GAME.make_config(players=4, bots=BOTS, seed=6)
    seen = set()
    for index, buf, seat, kind, legal in decisions(STEP, cfg, 4):
        seen.add(kind)
        if kind == "call":
            assert buf[KS.LIMBO] >= 0 and seat != buf[KS.TO_MOVE] and list(legal) == [0, 1]
        elif kind == "push":
            m = min(cfg.params["push_count"], K.LAYOUT.view(buf, "hand_sizes")[seat])
            assert all(sum((o >> (KS.PUSH_BITS * t)) & KS.PUSH_MASK for t in range(NT)) == m for o in legal)
        else:
            assert buf[KS.LIMBO] == -1 and seat == buf[KS.TO_MOVE]
        assert K.step_apply(buf, legal[(index + len(legal) // 2) % len(legal)]) == 0
    assert {"turn", "call", "push"} <= seen
