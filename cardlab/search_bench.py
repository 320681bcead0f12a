"""``cardlab bench GAME --search``: the search bot's strength and speed at doubling budgets.

Strength: one search seat against the game's strongest scripted bots (``Step.search_opponents``),
seats rotated by the usual seat rotation, the same game seeds for every budget; the search
seat's win share with its 95% Wilson interval next to the equal share 1/players.
Speed (one worker): search decisions per second, rollout decisions per second (decisions the
engine plays inside rollouts, the replayed part of the current turn included), and the time of
one state copy next to the time of one rollout.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from sim.run.stats import wilson

BUDGETS = (16, 64, 256, 1024)


def search_config(game, budget: int, seed: int = 7):
    """One search seat (budget ``budget``) and the game's strongest scripted bots."""
    bots = ["search", *game.step.search_opponents]
    return game.make_config(players=len(bots), bots=bots, seed=seed, overrides={"bot.search.budget": budget})


def strength_row(game, budget: int, games: int) -> dict[str, Any]:
    """Win share and speed of the search seat at ``budget`` over ``games`` games."""
    from sim.kit.search import N_STATS, STAT_NAMES

    search = game.step.search()
    cfg = search_config(game, budget)
    search.search_batch(game, cfg, games, 4, np.zeros(N_STATS, dtype=np.int64))  # compile / load, warm up
    stats = np.zeros(N_STATS, dtype=np.int64)
    t = time.perf_counter()
    raw = search.search_batch(game, cfg, 0, games, stats)
    seconds = time.perf_counter() - t
    seats = game.build_tables(cfg, 0, games, raw)["seats"]
    mine = seats[seats["bot"] == "search"]
    wins = int(mine["win"].sum())
    lo, hi = wilson(wins, len(mine))
    counts = dict(zip(STAT_NAMES, (int(x) for x in stats)))
    return {"budget": budget, "games": games, "win_share": wins / len(mine), "lo": float(lo), "hi": float(hi),
            "equal_share": 1 / cfg.players, "seconds": round(seconds, 2),
            "search_decisions_per_s": counts["decisions"] / seconds,
            "rollout_decisions_per_s": counts["rollout_decisions"] / seconds,
            "rollouts_per_s": counts["rollouts"] / seconds,
            "rejected_share": counts["rejected"] / max(1, counts["rejected"] + counts["worlds"]), **counts}


def copy_and_rollout_us(game, states: int = 20, times: int = 2000) -> tuple[float, float]:
    """Microseconds of one state copy (``resume_copy``) and of one rollout (copy included), over
    the first search decision of ``states`` games."""
    from sim.kit.search import copy_loop, rollout_loop, sub_key

    search, kernel = game.step.search(), game.step.kernel()
    cfg = search_config(game, 64)
    run = kernel.run_vector(game, cfg)
    copy_s = rollout_s = 0.0
    options = np.zeros(game.step.max_options, dtype=np.int64)
    done = 0
    for gi in range(states):
        b = kernel.new_state()
        search.start_search_game(b, np.uint64(cfg.seed), np.int64(gi), run)
        if hasattr(search, "advance"):  # on to the first decision the search weighs
            search.advance(b, options)
        seat = np.int64(kernel.step_pending(b)[0])
        if seat < 0 or kernel.step_legal(b, options) == 0:
            continue
        world = b.copy()
        if not any(search.determinize(world, b, seat, np.uint64(sub_key(np.uint64(gi), k))) for k in range(16)):
            continue
        dst = world.copy()
        copy_loop(search.resume_copy, dst, world, 10)
        rollout_loop(search.resume_copy, search.rollout, dst, world, options[0], 10)
        t = time.perf_counter()
        copy_loop(search.resume_copy, dst, world, times)
        copy_s += time.perf_counter() - t
        t = time.perf_counter()
        rollout_loop(search.resume_copy, search.rollout, dst, world, options[0], times)
        rollout_s += time.perf_counter() - t
        done += times
    return 1e6 * copy_s / max(1, done), 1e6 * rollout_s / max(1, done)


def search_bench(game, games: int, budgets=BUDGETS, echo=print) -> dict[str, Any]:
    """Print and return the strength and speed tables of ``game``'s search bot."""
    rows = []
    echo(f"{game.name}: one search seat against {', '.join(game.step.search_opponents)} "
         f"(seats rotated, the same {games:,} games for every budget; 1 worker)")
    echo(f"{'budget':>7} {'win share':>10} {'95% interval':>16} {'equal':>6} {'search dec/s':>13} "
         f"{'rollout dec/s':>14} {'rejected':>9} {'time':>8}")
    for budget in budgets:
        r = strength_row(game, budget, games)
        rows.append(r)
        interval = f"[{r['lo']:.3f}, {r['hi']:.3f}]"
        echo(f"{budget:>7} {r['win_share']:>10.3f} {interval:>16} {r['equal_share']:>6.3f} "
             f"{r['search_decisions_per_s']:>13,.0f} {r['rollout_decisions_per_s']:>14,.0f} "
             f"{r['rejected_share']:>9.0%} {r['seconds']:>7.1f}s")
    copy_us, rollout_us = copy_and_rollout_us(game)
    echo(f"  one state copy {copy_us:.2f} us, one rollout {rollout_us:.2f} us (copy included)")
    return {"game": game.name, "rows": rows, "copy_us": copy_us, "rollout_us": rollout_us}
