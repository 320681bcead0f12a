"""The learned bot's play features that weigh the call model (``suspect_pct``, ``bluff_suspect``):
at every play decision of games driven through the step contract, each option's features as the
call model gives them (FS-4.3 bluffs, D3 calls)."""

import numpy as np

from sim.games.faking_sick import GAME
from sim.games.faking_sick.kernel import bots as KB
from sim.games.faking_sick.kernel.callmodel import ban_probability, call_context
from sim.games.faking_sick.reference.learned import F_BLUFF, F_BLUFF_SUSPECT, F_FALLBACK, F_SUSPECT
from sim.games.faking_sick.rules import NT


def test_play_options_weigh_the_call_models_chance_that_the_type_is_banned():
    step, k = GAME.step, GAME.step.kernel()
    cfg = GAME.make_config(players=4, bots=["learned", "caller", "bluffer", "caller"], seed=6)
    opts = np.zeros(step.max_options, dtype=np.int64)
    rng = np.random.default_rng(1)
    seen = {"bluff_suspected": 0, "honest_suspected": 0}
    for index in range(12):
        buf = step.start(cfg, index)
        while (pending := k.step_pending(buf))[0] >= 0:
            seat, kind = (int(v) for v in pending)
            n = int(k.step_legal(buf, opts))
            if step.kinds[kind] in ("turn", "attack", "after_draw"):
                rows = KB.features_of(buf, np.int64(seat), np.int64(kind), opts, np.int64(n))
                safe, slots = call_context(buf, seat)
                for option, row in zip(opts[:n], rows):
                    if option >= NT:  # draw, accept or end: no card played
                        assert row[F_FALLBACK] == 1 and row[F_SUSPECT] == row[F_BLUFF_SUSPECT] == 0
                        continue
                    pct = int(100.0 * ban_probability(buf, seat, seat, option, slots, safe))
                    assert row[F_SUSPECT] == pct and 0 <= pct <= 100
                    assert row[F_BLUFF_SUSPECT] == row[F_BLUFF] * pct
                    if pct:
                        seen["bluff_suspected" if row[F_BLUFF] else "honest_suspected"] += 1
            k.step_apply(buf, opts[int(rng.integers(n))])
    assert min(seen.values()) > 0, seen  # both kinds of play came up with a chance above 0
