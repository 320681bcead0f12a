"""Compile the games' fast engines into numba's cache ahead of their runs, one process per
game, several at once: a cold machine then pays the longest compile, not the sum of them,
and the workers of a later run load the engine instead of each compiling it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sim.games import _modules
from sim.kit import vector
from sim.kit.step import observe

PLAY_ONE_GAME = "from sim.run.precompile import warm; warm({name!r}, batch_only={batch_only!r}, search={search!r})"
# the numba settings of the bounds-checked compile (`make test-boundscheck` sets the same; at
# optimisation level 0 it compiled a third faster, but its tests then ran eight times longer)
BOUNDSCHECK_ENV = {"NUMBA_BOUNDSCHECK": "1"}


@dataclass
class Compiled:
    game: str
    seconds: float
    error: str  # the last line the compile printed on failure, else ""
    boundscheck: bool = False  # compiled with NUMBA_BOUNDSCHECK=1 (its own cache, sim.kit.jit_cache)


def warm(name: str, batch_only: bool = False, search: bool = True) -> None:
    """Play one game of ``name`` in the batch kernel and, where the game has the step contract
    (unless ``batch_only``: a run of scripted and learned bots needs the batch kernel alone),
    one decision through each of its entry points and its observation where it has one (and, if
    ``search``, its batched environment and one game with a search seat where it has them; the
    bounds-checked pass plays neither): compiles (or loads) everything a run or a driver calls."""
    import numpy as np

    from sim.games import get_game

    game = get_game(name)
    cfg = game.make_config()
    game.run_batch(cfg, 0, 1, "fast")
    step = getattr(game, "step", None)
    if step is None or batch_only:
        return
    kernel, buf = step.kernel(), step.start(cfg, 0)
    options = np.zeros(step.max_options, dtype=np.int64)
    kernel.step_pending(buf)
    kernel.step_apply(buf.copy(), options[0] if kernel.step_legal(buf, options) else 0)
    if step.observation_module:  # the reinforcement-learning environment's observation (cardlab.env)
        observe(step.observation(), buf, 0)
    kernel.step_play_on(buf)
    if search and step.vector_module:  # the batched environment's one compiled loop (cardlab.vector_env)
        batch = vector.Batch(step, cfg, 1, [True] * cfg.players)
        batch.reset()
        batch.step(vector.random_actions(batch.arrays, np.random.default_rng(0)))
    if search and step.search_module:  # the search: each game's one search_decide, every world mode (sim.kit.search.decide)
        bots = ["search", *step.search_opponents]
        search_cfg = game.make_config(players=len(bots), bots=bots, overrides={"bot.search.budget": 2})
        game.run_batch(search_cfg, 0, 1, "fast")


def source_size(game: str) -> int:
    """Bytes of Python source in a game's package: the order of its compile time."""
    spec = importlib.util.find_spec(_modules()[game])
    dirs = spec.submodule_search_locations or []
    files = [f for d in dirs for f in Path(d).rglob("*.py")] or [Path(spec.origin)]
    return sum(f.stat().st_size for f in files)


def compile_env(boundscheck: bool) -> dict[str, str]:
    """This process's environment with numba's default compile, or the bounds-checked one."""
    env = {k: v for k, v in os.environ.items() if k not in BOUNDSCHECK_ENV and k != "NUMBA_OPT"}
    return env | BOUNDSCHECK_ENV if boundscheck else env


def compile_games(games: list[str], jobs: int | None = None, boundscheck: tuple[bool, ...] = (False,),
                  batch_only: bool = False) -> list[Compiled]:
    """Warm each game in its own process (at most ``jobs`` at once, largest source first),
    which compiles or loads its fast engine (its batch kernel alone if ``batch_only``), once per
    bounds-check setting in ``boundscheck``; how long each took, and its error (in the order of
    ``games``, then of ``boundscheck``). The bounds-checked compile leaves out the search, which
    no bounds-checked test plays (`make test-boundscheck`): in daifugo it is half the compile."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    queue = [(g, bc) for g in sorted(games, key=source_size, reverse=True) for bc in boundscheck]
    running: dict[tuple[str, bool], tuple] = {}  # (game, boundscheck) -> (process, start time, stderr file)
    done: dict[tuple[str, bool], Compiled] = {}
    while queue or running:
        while queue and len(running) < jobs:
            (name, bc), log = queue.pop(0), tempfile.TemporaryFile("w+")
            proc = subprocess.Popen([sys.executable, "-c", PLAY_ONE_GAME.format(name=name, batch_only=batch_only, search=not bc)],
                                    stdout=subprocess.DEVNULL, stderr=log, text=True, env=compile_env(bc))
            running[name, bc] = (proc, time.perf_counter(), log)
        key = _first_finished(running)
        proc, t0, log = running.pop(key)
        done[key] = Compiled(key[0], time.perf_counter() - t0, _last_line(log) if proc.returncode else "", key[1])
        log.close()
    return [done[g, bc] for g in games for bc in boundscheck]


def _first_finished(running: dict) -> tuple[str, bool]:
    while True:
        for name, (proc, _, _) in running.items():
            if proc.poll() is not None:
                return name
        time.sleep(0.05)


def _last_line(log) -> str:
    log.seek(0)
    lines = log.read().strip().splitlines()
    return lines[-1] if lines else "the compile process failed"
