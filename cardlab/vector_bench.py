"""``cardlab bench``'s batched-environment line: environment steps per second of
``cardlab.vector_env(GAME, n)`` (one process) with a random agent, each step a uniform pick among
every game's legal action ids (``random_actions``, vectorised numpy), best of ``repeat`` timed runs
after a warm-up; per second of wall time and per second of the process's CPU time (the figure
that other work on a shared machine disturbs less)."""

from __future__ import annotations

import time

import numpy as np

SLOTS = 256  # games stepped at once: their buffers stay in the CPU's cache (docs/reinforcement-learning.md)
STEPS = 400  # steps of every game per timed run


def vector_bench(game: str, repeat: int, n: int = SLOTS, steps: int = STEPS) -> dict:
    """The steps per second and per CPU second (``n`` times ``steps`` environment steps a run, best
    of ``repeat``), and the first reset's time (compile or cache load); empty where the
    environment is not available (no vector module, or no Gymnasium: the ``rl`` extra)."""
    try:
        from cardlab.vector_rl import vector_env
    except ImportError:
        return {}
    from sim.games import get_game

    if not getattr(get_game(game).step, "vector_module", ""):
        return {}
    t = time.perf_counter()
    env = vector_env(game, n)
    env.reset(seed=0)
    first_s = time.perf_counter() - t
    rng = np.random.default_rng(0)
    for _ in range(steps // 4):  # past the games' first decisions
        env.step(env.random_actions(rng))
    wall = cpu = float("inf")
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        for _ in range(steps):
            env.step(env.random_actions(rng))
        wall, cpu = min(wall, time.perf_counter() - t), min(cpu, time.process_time() - c)
    return {"vector_env_steps_per_s": round(n * steps / wall, 1),
            "vector_env_steps_per_cpu_s": round(n * steps / max(cpu, 1e-9), 1),
            "vector_env_slots": n, "vector_env_first_reset_s": round(first_s, 2)}
