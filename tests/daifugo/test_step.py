"""Daifugō's step contract (kernel/step.py, kernel/driven.py, sim/games/daifugo/step.py): the batch
is the contract with nothing applied, the kind codes are the reference engine's names, the subset
options are listed in ``itertools.combinations`` order, and refused options change nothing. The
contract itself, random games against the reference engine, is tests/test_game_contract.py."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from sim.games.daifugo import GAME
from sim.games.daifugo import kernel as K
from sim.games.daifugo import rules as R
from sim.games.daifugo.kernel import state as KS
from sim.games.daifugo.kernel import step as KSTEP
from tests.stepping import check_driver_seats, decisions

STEP = GAME.step
BOTS = ["strategist", "random", "greedy", "strategist"]


def play_on_to_end(buf):
    """``step_play_on`` once per round; the game is over after the last."""
    rounds = 0
    while K.step_pending(buf)[0] >= 0:
        K.step_play_on(buf)
        rounds += 1
    return rounds


@pytest.mark.parametrize("overrides", [{}, {"mode": "madness"}, *STEP.variants],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_batch_rows_are_start_then_play_on(overrides):
    """Every game of a batch equals step_start + one step_play_on per round of the same index
    (game, round and seat rows)."""
    cfg = GAME.make_config(players=4, bots=BOTS, seed=9, overrides=overrides)
    start, count = 40, 12
    g, r, s = GAME.fast_batch(cfg, start, count)
    for k in range(count):
        buf = STEP.start(cfg, start + k)
        assert play_on_to_end(buf) == R.n_rounds(cfg)  # §2.2: one call per round
        out = STEP.outcome(cfg, buf)
        assert np.array_equal(out["games"], g[k]), k
        assert np.array_equal(out["rounds"], r[k]), k
        assert np.array_equal(out["seats"], s[k]), k


def test_kind_codes_are_the_reference_names():
    """K_<NAME> is the position of ``name`` in rules.DECISION_KINDS (the reference engine's kind names)."""
    assert STEP.kinds == R.DECISION_KINDS and len(set(R.DECISION_KINDS)) == len(R.DECISION_KINDS)
    for code, name in enumerate(R.DECISION_KINDS):
        assert getattr(KS, f"K_{name.upper()}") == code, name
    f = K.LAYOUT.fields
    assert f["snapshot"].size == f["decision_state"].size == KS.STATE_SIZE
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


def test_refused_options_leave_the_buffer_unchanged_and_a_finished_game_refuses_all():
    """A code that is not among the pending decision's options is refused (-2) and changes
    nothing: out of range, the pass when the player may not pass (§2.11 D8 leading), a card not
    offered, a mask of a card not held; once the game is over every option is refused (-1)."""
    cfg = GAME.make_config(players=4, bots=BOTS, seed=5, overrides=STEP.variants[0])
    seen, buf = set(), None
    for index, buf, _seat, kind, legal in decisions(STEP, cfg, 2):
        seen.add(kind)
        bad = [10**9, -5] + [x for x in (-1, 0, 1, KS.MAX_MOVES) if x not in legal]
        if kind in ("trim", "ten_discard", "pull_back"):
            bad.append(int(legal[-1]) | (1 << 62))
        before = buf.copy()
        for option in bad:
            assert K.step_apply(buf, np.int64(option)) == -2, (kind, option)
        assert np.array_equal(buf, before)
        assert K.step_apply(buf, legal[(index + len(legal) // 2) % len(legal)]) == 0
    assert {"play", "give", "king_give", "trim", "start"} <= seen
    assert K.step_pending(buf) == (-1, -1) and K.step_apply(buf, np.int64(0)) == -1


def test_play_on_stops_at_the_next_rounds_first_decision():
    """step_play_on from a decision of round 1 plays that round out: the next pending decision
    is round 2's first (its setup: the king's give-back, D3, in normal mode with laws only)."""
    cfg = GAME.make_config(players=4, bots=BOTS, seed=3)
    buf = STEP.start(cfg, 0)
    assert buf[KS.ROUND] == 1
    K.step_play_on(buf)
    assert buf[KS.ROUND] == 2 and not buf[KS.IN_ROUND]
    seat, kind = K.step_pending(buf)
    assert seat >= 0 and STEP.kinds[kind] in ("give", "king_give", "start", "trim")


@pytest.mark.parametrize("overrides", STEP.variants[:2], ids=["normal", "madness"])
def test_driver_seats_answer_only_their_own_decisions(overrides):
    """step_seats against the reference engine with one seat's decisions forced (tests.stepping)."""
    cfg = GAME.make_config(players=4, bots=BOTS, seed=13, overrides=overrides)
    check_driver_seats(GAME, cfg, range(4), lambda i: GAME.fast_batch(cfg, i, 1)[0][0])

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
