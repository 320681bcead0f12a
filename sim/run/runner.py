"""Run many games in batches, across worker processes or a Dask cluster, with resume.

Game ``i`` is seeded from ``(seed, i)`` alone, so batches can run anywhere and in any
order: results are the same for any worker count or batch size. Each finished batch is
written by the process that played it (the coordinator never holds game data), and the
manifest is updated as batches land. Rerunning the same command resumes: finished
batches whose files are intact are kept, and the missing or damaged ones are played.
The run path flows one way: the runner hands each batch's counts to the stopping rule
(``sim.run.stopping``) and its files and manifest entries to the store (``sim.run.store``).
"""

from __future__ import annotations

import os
import time
from contextlib import closing
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing import get_context
from pathlib import Path

from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

from sim.kit.config import ConfigError, RunConfig, RunOptions
from sim.games import get_game
from sim.games.base import ENGINES
from sim.run.metrics import Counts, count_tables, read_counts
from sim.run.stopping import Stopper, kept_batches
from sim.run.store import RunDir, RunFacts, writer_lock

MAX_BATCH = {"fast": 20_000, "reference": 200}


@dataclass
class RunSummary:
    path: Path
    games: int
    batches: int
    played_batches: int
    seconds: float
    damaged: list[str] = field(default_factory=list)  # what was wrong with each batch played again
    stopping: dict | None = None  # the run.json ``stopping`` record of a --precision run
    game: str = ""  # the game played (RunConfig.game)

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")


def plan(cfg: RunConfig, games: int, batch_size: int | None, engine: str) -> RunFacts:
    """Check the run's shape and return its facts."""
    if engine not in ENGINES:
        raise ConfigError(f"unknown engine '{engine}'; known: {', '.join(ENGINES)}")
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    # default: about 16 batches (so workers share the load), within [500, MAX_BATCH]; it
    # depends on the game count only, so rerunning the same command resumes the same plan
    if batch_size is None:
        batch_size = max(1, min(MAX_BATCH[engine], max(500, -(-games // 16))))
    if batch_size < 1:
        raise ConfigError(f"--batch-size must be at least 1, got {batch_size}")
    game = get_game(cfg.game)
    return RunFacts(cfg, games, min(batch_size, games), engine, tuple(game.tables))


def play_batch(cfg_dict: dict, facts_dict: dict, k: int, out: str,
               counts: bool = False) -> tuple[int, int, dict, Counts | None]:
    """Worker task: play batch ``k`` and write its files. Returns (k, games played, the
    batch's manifest entry, and with ``counts`` the batch's counts for a stopping rule,
    ``sim.run.metrics.count_tables``, taken from the frames it wrote so that nobody reads the
    files back)."""
    cfg = RunConfig.from_dict(cfg_dict)
    facts = RunFacts(cfg, facts_dict["games"], facts_dict["batch_size"], facts_dict["engine"], tuple(facts_dict["tables"]))
    start, count = facts.batch_range(k)
    game = get_game(cfg.game)
    tables = game.run_batch(cfg, start, count, facts.engine)
    entry = RunDir(out).write_batch(facts, k, tables)
    return k, count, entry, count_tables(game, tables) if counts else None


class _Rate(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "- games/s")


def run(cfg: RunConfig, games: int, out: str | Path, options: RunOptions = RunOptions()) -> RunSummary:
    """Play ``games`` games of ``cfg`` into run directory ``out`` (resuming if present).

    On resume, every finished batch is checked first; ``options.notify`` gets one line for
    each batch that is played again because a file of it is missing or damaged. With a
    ``stopping`` rule, ``games`` is a cap: the run stops at the first batch boundary (in
    game order) where the rule is met (``sim.run.stopping``)."""
    if options.workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {options.workers}")
    facts = plan(cfg, games, options.batch_size, options.engine)
    game = get_game(cfg.game)
    metric = options.stopping.bind(game, cfg) if options.stopping else None
    rd = RunDir(out)
    created = not rd.path.exists()
    with writer_lock(rd.path, f"{cfg.game} run", "run directory"):
        previous = rd.manifest() if rd.exists() else None
        try:
            return _run_locked(cfg, facts, game, metric, rd, previous, options)
        except BaseException:
            if previous is None:
                rd.discard(facts.tables, created)  # a start that failed leaves no run behind
            raise


def _run_locked(cfg, facts, game, metric, rd, previous, options: RunOptions) -> RunSummary:
    """``run`` under the run directory's writer lock."""
    out, games, stopping = rd.path, facts.games, options.stopping
    kept, problems = rd.open(facts, options.allow_code_change)
    if options.notes:
        rd.keep(facts, options.notes)
    damaged = [f"{p}; playing batch {p.batch} again" for p in problems]
    for line in damaged if options.notify else []:
        options.notify(line)
    sizes = [facts.batch_range(k)[1] for k in range(facts.n_batches())]
    stopper = Stopper(stopping, metric, sizes, kept_batches(previous)) if stopping else None
    # a stopping rule folds every batch's counts: the kept batches' are read here, the played ones' come from workers
    todo = stopper.start({k: read_counts(game, rd, [k]) for k in kept}) if stopper else [
        k for k in range(facts.n_batches()) if k not in kept]
    facts_dict = {"games": facts.games, "batch_size": facts.batch_size, "engine": facts.engine, "tables": list(facts.tables)}
    args = (cfg.to_dict(), facts_dict, str(out), stopper is not None)
    t0 = time.perf_counter()
    already = sum(sizes[k] for k in kept)
    columns = [TextColumn(f"{cfg.game}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
               _Rate(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn()]
    with Progress(*columns, disable=not options.progress, transient=False) as bar:
        task = bar.add_task("games", total=games, completed=already)
        played = 0
        with closing(_execute(todo, args, options.workers, options.scheduler)) as landing:
            for k, count, entry, counts in landing:
                played += 1
                bar.advance(task, count)
                rd.add_batch(facts, entry)
                if stopper and stopper.land(k, counts):
                    break
                if stopper:
                    rd.note(facts, stopper.manifest())
    summary = RunSummary(Path(out), games, facts.n_batches(), played, time.perf_counter() - t0, damaged, game=cfg.game)
    if stopper:
        rd.drop_batches(facts, stopper.beyond())
        rd.note(facts, stopper.manifest())
        summary.stopping = stopper.manifest()["stopping"]
        summary.games, summary.batches = summary.stopping["games"], summary.stopping["batches"]
    return summary


def _execute(todo: list[int], args: tuple, workers: int, scheduler: str | None):
    """Yield ``play_batch`` results as batches finish: inline, in local processes, or on Dask."""
    if not todo:
        return
    if scheduler:
        yield from _execute_dask(todo, args, scheduler)
        return
    if workers == 1:
        for k in todo:
            yield play_batch(*args[:2], k, *args[2:])
        return
    queue = iter(todo)
    pool = _pool(workers)
    # batches are handed out in game order, two per worker at a time, so a run that
    # stops early (sim.run.stopping) has few batches running beyond its stopping point
    pending = {pool.submit(play_batch, *args[:2], k, *args[2:]) for k in islice(queue, 2 * workers)}
    try:
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            pending |= {pool.submit(play_batch, *args[:2], k, *args[2:]) for k in islice(queue, len(finished))}
            for f in finished:
                yield f.result()
    except BaseException as e:
        for f in pending:
            f.cancel()
        wait(pending)  # the batches already running finish before the run goes on (it then removes strays)
        if not isinstance(e, GeneratorExit):  # an error or an interrupt, not a stop: no workers left behind
            _drop_pool()
        raise


_POOL: dict = {}  # the process's worker pool: its key (workers, environment, folder) and the pool


def _pool(workers: int) -> ProcessPoolExecutor:
    """Local worker processes, spawned once and reused by every later run of this process with
    the same worker count, environment and working folder (``cardlab suggest`` and ``tune`` play
    many short runs: each worker imports the engines and loads their compiled kernels once)."""
    key = (workers, tuple(sorted(os.environ.items())), os.getcwd())
    if _POOL.get("key") != key:
        _drop_pool()
        _POOL.update(key=key, pool=ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")))
    return _POOL["pool"]


def _drop_pool() -> None:
    pool = _POOL.pop("pool", None)
    _POOL.pop("key", None)
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def _execute_dask(todo: list[int], args: tuple, scheduler: str):
    """Batches as tasks on an existing Dask distributed cluster (shared filesystem for ``out``)."""
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise ConfigError("--scheduler needs dask.distributed: pip install 'cardlab[dask]'") from None
    with Client(scheduler) as client:
        futures = [client.submit(play_batch, *args[:2], k, *args[2:], pure=False) for k in todo]
        for f in as_completed(futures):
            yield f.result()
