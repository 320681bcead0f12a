"""Faking-sick's step contract (kernel ``step_*``, sim/games/faking_sick/step.py): the batch is the
contract with nothing applied, the buffer's step fields, the push options in the reference
engine's order, the status codes and independent copies. The contract itself, random games
against the reference engine, is tests/test_game_contract.py."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from sim.games.faking_sick import GAME
from sim.games.faking_sick import kernel as K
from sim.games.faking_sick import kernel_state as KS
from sim.games.faking_sick import reference
from sim.games.faking_sick.rules import K_PUSH, MAX_DECK, MAX_POOL, NT, TYPES
from sim.rng import Rng
from tests.searching import assert_driver_seats_answer_alone
from tests.stepping import decisions

STEP = GAME.step
BOTS = ["random", "honest", "bluffer", "caller"]


@pytest.mark.parametrize("players,overrides", [(4, o) for o in STEP.variants] + [(3, {})],
                         ids=lambda x: str(x) if isinstance(x, int) else ",".join(x) or "defaults")
def test_batch_rows_are_start_then_play_on(players, overrides):
    """Every game of a batch equals step_start + step_play_on of the same index (game and seat
    rows), and the batch's sums are the sums of the games'."""
    cfg = GAME.make_config(players=players, bots=BOTS[:players], seed=9, overrides=overrides)
    start, count = 30, 25
    arr = GAME.fast_batch(cfg, start, count)
    sums = {name: np.zeros_like(arr[name]) for name in ("calls", "plays", "banned_calls")}
    for k in range(count):
        buf = STEP.start(cfg, start + k)
        K.step_play_on(buf)
        out = STEP.outcome(cfg, buf)
        assert np.array_equal(out["games"], arr["games"][k]), k
        assert np.array_equal(out["seats"], arr["seats"][k]), k
        for name in sums:
            sums[name] += out[name]
    for name, total in sums.items():
        assert np.array_equal(total, arr[name]), name


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


def test_illegal_options_leave_the_buffer_unchanged():
    """A code that is not among the pending decision's options is refused (-2) and changes
    nothing: out of range, a play of a type not held, a push code at a turn, a call answer
    other than 0 and 1, a push of one card too many."""
    seen = set()
    for index, buf, _seat, kind, legal in decisions(STEP, GAME.make_config(players=4, bots=BOTS, seed=2), 6):
        seen.add(kind)
        bad = [-7, 10**9, KS.FALLBACK + 1, 1 << (KS.PUSH_BITS * NT)]
        bad += [x for x in range(NT + 1) if x not in legal]
        if kind == "push":
            bad += [o + 1 for o in legal if o + 1 not in legal]
        before = buf.copy()
        for option in bad:
            assert K.step_apply(buf, np.int64(option)) == -2, (kind, option)
        assert np.array_equal(buf, before)
        assert K.step_apply(buf, legal[index % len(legal)]) == 0
    assert {"turn", "attack", "call", "push"} <= seen


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


@pytest.mark.parametrize("overrides", STEP.variants, ids=lambda o: ",".join(o) or "defaults")
def test_driver_seats_answer_only_their_own_decisions(overrides):
    """step_seats: with seat s alone the driver's, every pending decision is s's, the other
    seats' bots answer theirs (in replays too), and the finished game is the reference engine's
    with s's decisions forced to the same options; with no driver seat the bots play it out."""
    cfg = GAME.make_config(players=4, bots=BOTS, seed=13, overrides=overrides)
    assert_driver_seats_answer_alone(GAME, cfg, 12, lambda c, i: GAME.fast_batch(c, i, 1)["games"][0])
