"""Daifugō's step contract (kernel/step.py, kernel/driven.py, sim/games/daifugo/contract.py): the kind
codes are the reference engine's names, the subset options are listed in ``itertools.combinations``
order, play on stops at each round's end, and the seat's own bot can answer. The contract itself
(random games against the reference engine, the batch as the contract with nothing applied,
refused options, driver seats) is tests/test_step_contract.py."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from sim.games.daifugo import GAME
from sim.games.daifugo import kernel as K
from sim.games.daifugo import rules as R
from sim.games.daifugo.kernel import state as KS
from sim.games.daifugo.kernel import step as KSTEP

STEP = GAME.step
BOTS = ["strategist", "random", "greedy", "strategist"]


def play_on_to_end(buf):
    """``step_play_on`` once per round; the game is over after the last."""
    rounds = 0
    while K.step_pending(buf)[0] >= 0:
        K.step_play_on(buf)
        rounds += 1
    return rounds


def test_kind_codes_are_the_reference_names():
    """K_<NAME> is the position of ``name`` in rules.DECISION_KINDS (the reference engine's kind names)."""
    assert STEP.kinds == R.DECISION_KINDS and len(set(R.DECISION_KINDS)) == len(R.DECISION_KINDS)
    for code, name in enumerate(R.DECISION_KINDS):
        assert getattr(KS, f"K_{name.upper()}") == code, name
    f = K.LAYOUT.fields
    assert f["snapshot"].size == f["pending_state"].size == KS.STATE_SIZE
    assert f["pending_options"].size == KS.MAX_LISTED >= R.N_RULE_CARDS + 1 and K.SIZE == K.LAYOUT.size


def subset_buffer(cards, lo, hi, step):
    b = np.zeros(K.SIZE, dtype=np.int64)
    b[KS.PCARDS] = sum(1 << c for c in cards)
    b[KS.PLO], b[KS.PHI], b[KS.PSTEP] = lo, hi, step
    b[KS.PKIND], b[KS.PSEAT] = KS.K_TRIM, 0
    return b


@pytest.mark.parametrize("m,lo,hi,step", [(5, 0, 2, 1), (7, 0, 3, 3), (4, 2, 2, 1), (9, 0, 9, 1), (1, 0, 1, 1)])
def test_subsets_are_listed_by_size_then_in_combinations_order(m, lo, hi, step):
    """Trim (D6), ten discard (D12) and pull-back (D11) options: every allowed size lo, lo+step, ..
    hi, each in the order itertools.combinations lists the ascending card ids; each is legal,
    a mask of another size or with a card outside the set is not."""
    rng = np.random.default_rng(m * 100 + lo)
    cards = sorted(int(c) for c in rng.choice(R.N_CARD_IDS, m, replace=False))
    b = subset_buffer(cards, lo, hi, step)
    out = np.zeros(STEP.max_options, dtype=np.int64)
    n = KSTEP.list_subsets(b, out)
    want = [sum(1 << c for c in combo) for k in range(lo, hi + 1, step) for combo in combinations(cards, k)]
    assert out[:n].tolist() == want
    assert all(KSTEP.legal_option(b, np.int64(x)) for x in want)
    outside = next(c for c in range(R.N_CARD_IDS) if c not in cards)
    assert not KSTEP.legal_option(b, np.int64(want[-1] | (1 << outside)))
    if step > 1 or lo == hi:
        assert not KSTEP.legal_option(b, np.int64(1 << cards[0]))  # one card: not an allowed size


def test_play_on_stops_at_the_next_rounds_first_decision():
    """step_play_on from a decision of round 1 plays that round out: the next pending decision
    is round 2's first (its setup: the king's give-back, D3, in normal mode with laws only);
    a game takes one call per round (§2.2), in both modes."""
    cfg = GAME.make_config(players=4, bots=BOTS, seed=3)
    buf = STEP.start(cfg, 0)
    assert buf[KS.ROUND] == 1
    K.step_play_on(buf)
    assert buf[KS.ROUND] == 2 and not buf[KS.IN_ROUND]
    seat, kind = K.step_pending(buf)
    assert seat >= 0 and STEP.kinds[kind] in ("give", "king_give", "start", "trim")
    for overrides in ({}, {"mode": "madness"}):
        cfg = GAME.make_config(players=4, bots=BOTS, seed=9, overrides=overrides)
        assert [play_on_to_end(STEP.start(cfg, i)) for i in range(3)] == [R.n_rounds(cfg)] * 3


def test_bot_answer_lets_the_seats_bot_decide():
    """step_apply(BOT_ANSWER): the seat's own bot answers the pending decision; a game answered
    so throughout is the batch's game."""
    cfg = GAME.make_config(players=4, bots=BOTS, seed=13, overrides=STEP.variants[1])
    buf = STEP.start(cfg, 2)
    while K.step_pending(buf)[0] >= 0:
        assert K.step_apply(buf, np.int64(KS.BOT_ANSWER)) == 0
    batch = GAME.fast_batch(cfg, 2, 1)
    for name, raw in zip(("games", "rounds", "seats"), batch):
        assert np.array_equal(STEP.outcome(cfg, buf)[name], raw[0]), name
