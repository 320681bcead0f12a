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

PLAY_ONE_GAME = ("from sim.games import get_game; g = get_game({name!r}); "
                 "g.run_batch(g.make_config(), 0, 1, 'fast')")


@dataclass
class Compiled:
    game: str
    seconds: float
    error: str  # the last line the compile printed on failure, else ""


def source_size(game: str) -> int:
    """Bytes of Python source in a game's package: the order of its compile time."""
    spec = importlib.util.find_spec(_modules()[game])
    dirs = spec.submodule_search_locations or []
    files = [f for d in dirs for f in Path(d).rglob("*.py")] or [Path(spec.origin)]
    return sum(f.stat().st_size for f in files)


def compile_games(games: list[str], jobs: int | None = None) -> list[Compiled]:
    """Play one game of each in its own process (at most ``jobs`` at once, largest source
    first), which compiles or loads its fast engine; how long each took, and its error."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    queue = sorted(games, key=source_size, reverse=True)
    running: dict[str, tuple] = {}  # game -> (process, start time, stderr file)
    done: dict[str, Compiled] = {}
    while queue or running:
        while queue and len(running) < jobs:
            name, log = queue.pop(0), tempfile.TemporaryFile("w+")
            proc = subprocess.Popen([sys.executable, "-c", PLAY_ONE_GAME.format(name=name)],
                                    stdout=subprocess.DEVNULL, stderr=log, text=True)
            running[name] = (proc, time.perf_counter(), log)
        name = _first_finished(running)
        proc, t0, log = running.pop(name)
        done[name] = Compiled(name, time.perf_counter() - t0, _last_line(log) if proc.returncode else "")
        log.close()
    return [done[g] for g in games]


def _first_finished(running: dict) -> str:
    while True:
        for name, (proc, _, _) in running.items():
            if proc.poll() is not None:
                return name
        time.sleep(0.05)


def _last_line(log) -> str:
    log.seek(0)
    lines = log.read().strip().splitlines()
    return lines[-1] if lines else "the compile process failed"
