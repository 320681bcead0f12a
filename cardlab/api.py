"""cardlab's front door: every command of the ``cardlab`` CLI is one call of a function here (the
CLI only parses its arguments and prints), and a notebook calls the same functions:
``cardlab.run`` returns DataFrames, ``cardlab.tune`` a study's answer. pandas loads on the first
call, so importing ``cardlab`` stays light.

Two option groups go to every function that plays: who plays what is a ``sim.kit.config.Table``
(players, bots, seed, rule and bot parameters, a TOML config file, the learned bot's policy
file), how a run is played (workers, batch size, engine, scheduler, progress, stopping rule) is a
``sim.kit.config.RunOptions``. ``run_settings`` reads the ``games`` and ``workers`` a config file
gives for ``simulate``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from sim.kit.config import ConfigError, RunOptions, Table
from sim.games import get_game
from sim.run.training import Training

if TYPE_CHECKING:
    import pandas as pd

    from cardlab.advice import Scope
    from sim.kit.config import RunConfig
    from sim.run.ladder import Rungs
    from sim.run.runner import RunSummary
    from sim.run.tuner import Checks, StudySettings, TuneSpec

Notify = Callable[[str], None]


def _quiet(line: str) -> None:
    """A ``notify`` that drops its line."""


# ---- configurations -------------------------------------------------------------------------
def run_settings(config_file: str | Path | None) -> dict[str, int]:
    """The ``games`` and ``workers`` a TOML ``config_file`` gives (``simulate`` plays them when
    the command line does not); empty without a file."""
    from sim.kit.config import read_toml, run_keys

    return run_keys(read_toml(config_file), config_file) if config_file else {}


def check_not_in_worker_start() -> None:
    """Refuse a run started while a worker process imports the calling script (multiprocessing's
    spawn runs a script's top level again in every worker): without an ``if __name__ ==
    "__main__":`` guard each worker would start the run anew."""
    import multiprocessing

    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise ConfigError("a worker process is importing the script that started this run, and the script starts "
                          "it again: put the script's calls under `if __name__ == \"__main__\":`")


def played_config(game: str, table: Table, extra: dict[str, Any] | None = None) -> tuple[RunConfig, Path | None]:
    """The table's config (``extra`` parameter values over its own), holding the weights of its
    policy file or, when it seats the learned bot without one, of the game's own; and that file
    (None when it plays no learned bot). A policy file that is missing, damaged or for another
    game is a one-line ConfigError."""
    from sim.kit.learned import load_policy, policy_overrides

    g = get_game(game)

    def make(policy) -> RunConfig:
        if policy is not None and getattr(g, "learned", None) is None:
            raise ConfigError(f"{g.name} has no learned bot")
        weights = {} if policy is None else policy_overrides(g, load_policy(policy, g.name, g.learned.FEATURES))
        return dataclasses.replace(table, params={**weights, **table.overrides(), **(extra or {})}).config(g)

    cfg = make(table.policy)
    played = played_policy(cfg, table.policy)
    return (make(played) if played is not None and table.policy is None else cfg), played


def played_policy(cfg: RunConfig, policy: str | Path | None) -> str | Path | None:
    """The policy file ``cfg``'s learned bot plays: ``policy``, else the game's own; None when
    ``cfg`` seats no learned bot (nor search rollouts by it)."""
    from sim.kit.learned import seats_learned

    g = get_game(cfg.game)
    if not seats_learned(g, cfg):
        return None
    if policy is None and g.learned.POLICY_FILE.exists():
        return g.learned.POLICY_FILE
    return policy


def policy_notes(policy: str | Path | None) -> dict[str, Any] | None:
    """run.json's record of the policy file (``played_config``) a run plays."""
    from sim.kit.learned import policy_note

    return None if policy is None else {"learned_policy": policy_note(policy)}


# ---- runs -----------------------------------------------------------------------------------
def simulate(game: str, games: int, out: str | Path, table: Table = Table(),
             options: RunOptions = RunOptions()) -> RunSummary:
    """The ``cardlab simulate`` command: play ``games`` games into run directory ``out``
    (resumed if there). With a stopping rule in ``options`` the games are a cap: the run stops
    once the rule's metric is precise enough (``sim.run.stopping``). With the table's ``policy`` (a
    ``cardlab train`` file) the learned bot plays its weights."""
    from sim.run import runner

    check_not_in_worker_start()
    cfg, policy = played_config(game, table)
    return runner.run(cfg, games, out, dataclasses.replace(options, notes=policy_notes(policy)))


def train(game: str, out: str | Path, schedule: Training = Training(), table: Table = Table(),
          notify: Notify = _quiet) -> dict[str, Any]:
    """The ``cardlab train`` command from ``schedule``'s ``start`` policy file (default: the game's
    own): expert iteration (``sim.run.training``; default table: one search seat against the
    game's search bench opponents, which are also the reference of the evaluation games) or CMA-ES
    on the win share (``sim.run.training_cmaes``; default table: one learned seat against them);
    resumes from the work folder (default: beside ``out``) and writes the best policy file
    ``out``; returns its contents."""
    from sim.kit.learned import LEARNED, policy_overrides, save_policy

    g = get_game(game)
    if getattr(g, "learned", None) is None or "search" not in g.bots:
        raise ConfigError(f"{g.name} has no learned bot to train")
    games, eval_games = schedule.counts()
    out = Path(out)
    if out.is_dir():
        raise ConfigError(f"--out {out} is a folder, not a policy file")
    _check_writable(out.parent)
    first = "search" if schedule.method == "expert" else LEARNED
    table = dataclasses.replace(table, bots=table.bot_list() or [first, *g.step.search_opponents])
    base = table.config(g)
    start_doc = _start_policy(g, schedule.start)

    def make(bots: list, extra: dict, at_seed: int):
        return dataclasses.replace(table, bots=bots, seed=at_seed).config(g, extra)

    config_hash = make(base.bots, policy_overrides(g, start_doc), base.seed).digest()
    work = Path(schedule.work) if schedule.work is not None else out.with_name(out.stem + "-training")
    if schedule.method == "cmaes":
        from sim.run.training_cmaes import TRAIN_SEED_OFFSET, CmaPlan, feature_sizes, tune

        sizes = () if schedule.scale == "weight" else \
            feature_sizes(g, make(base.bots, {}, base.seed + TRAIN_SEED_OFFSET), start_doc["weights"])
        plan = CmaPlan(game=g.name, bots=tuple(base.bots), games=games, eval_games=eval_games, sigma=schedule.sigma,
                       seed=base.seed, start=tuple(float(w) for w in start_doc["weights"]), config_hash=config_hash,
                       sizes=sizes)
        doc = tune(g, plan, make, start_doc, schedule.trials, work, notify)
    else:
        from sim.run.training import Plan, train as expert_iteration

        plan = Plan(game=g.name, bots=tuple(base.bots), reference=g.step.search_opponents[0], games=games,
                    budget=schedule.budget, rollout=schedule.rollout, seed=base.seed, eval_games=eval_games,
                    config_hash=config_hash)
        doc = expert_iteration(g, plan, make, start_doc, schedule.iterations, work, notify)
    doc = {k: v for k, v in doc.items() if k != "release"}  # a shipped policy's number, not a trained one's
    save_policy(out, doc)
    return doc


def _start_policy(g, start: str | Path | None) -> dict:
    """The policy expert iteration starts from: the file ``start``, else the game's own (zero
    weights without one, as a plain fit record)."""
    from sim.kit.learned import FORMAT, VERSION, load_policy

    path = Path(start) if start is not None else g.learned.POLICY_FILE
    if start is not None or path.exists():
        return load_policy(path, g.name, g.learned.FEATURES)
    features = list(g.learned.FEATURES)
    return {"format": FORMAT, "version": VERSION, "game": g.name, "features": features,
            "weights": [0.0] * len(features), "training": {}, "fit": {"agreement": 0.0}}


def _check_writable(folder: Path) -> None:
    """A one-line error now, not after the training, when no file can be written in ``folder``."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise ConfigError(f"cannot write in {folder}: {e.strerror or e}") from None


def resume(run_dir: str | Path, options: RunOptions = RunOptions(), rebuild_manifest: bool = False,
           notify: Notify = _quiet) -> RunSummary:
    """The ``cardlab resume`` command: finish or repair ``run_dir`` with the settings in
    its run.json (its missing and damaged batches played); ``rebuild_manifest`` first writes
    run.json anew from the run facts in the batch files."""
    from sim.run import runner
    from sim.kit.config import RunConfig
    from sim.run.store import RunDir, rebuild_manifest as rebuild, writer_lock

    run_dir = Path(run_dir)
    if rebuild_manifest:
        with writer_lock(run_dir, "run.json rebuild"):
            kept, read = rebuild(run_dir)
        notify(f"rebuilt {run_dir / 'run.json'} from {read} batch files: {kept} finished batches")
    meta = RunDir(run_dir).manifest()
    cfg = RunConfig.from_dict(meta["config"])
    get_game(cfg.game).check(cfg)
    options = dataclasses.replace(options, batch_size=meta["batch_size"], engine=meta["engine"])
    return runner.run(cfg, meta["games"], run_dir, options)


def run(game: str, games: int = 1_000, out: str | Path | None = None, table: Table = Table(),
        options: RunOptions = RunOptions()) -> dict[str, pd.DataFrame]:
    """Simulate and return ``{table: DataFrame}``.

    The games go through the runner (batches, ``options.workers`` processes) into ``out``, a run
    directory that keeps the Parquet batches and resumes, or without ``out`` into a temporary
    directory removed once the tables are loaded.

    >>> tables = run("virus-dogs", games=1000, table=Table(bots="cautious,random", players=2))  # doctest: +SKIP
    """
    import tempfile

    from analysis.load import Run

    def play(path) -> dict[str, pd.DataFrame]:
        simulate(game, games, path, table, dataclasses.replace(options, progress=False))
        loaded = Run(path)
        return {name: loaded.table(name) for name in loaded.game.tables}

    if out is not None:
        return play(out)
    with tempfile.TemporaryDirectory(prefix="cardlab-run-") as tmp:
        return play(Path(tmp) / "run")


# ---- tuning ---------------------------------------------------------------------------------
def tune(spec: TuneSpec, out: str | Path = "tune", trials: int = 20, study: StudySettings | None = None,
         checks: Checks | None = None, report: bool = True):
    """The ``cardlab tune`` command as a function: the study of ``spec`` (``sim.run.tuner.TuneSpec``:
    game, space, goals, constraints, games per trial, precision, table and run options) run or
    resumed up to ``trials`` trials in ``out``, its best trials raced and confirmed (``checks``);
    returns a ``sim.run.tuner.TuneResult``: ``result.answer`` is the answer in one sentence,
    ``result.confirmed`` whether an improvement over the default held on fresh games,
    ``result.best.params`` the search's best trial, ``result.trials_table`` the trials Parquet
    file, ``result.report`` the report's HTML and PDF files (with ``report``).

    >>> spec = TuneSpec("virus-dogs", {"n_bat": (1, 6)}, Objective("minimize", "seat_spread"), games=2000)  # doctest: +SKIP
    >>> r = tune(spec, "tune/vd", trials=10)  # doctest: +SKIP
    """
    from sim.run.tuner import Checks, StudySettings, run_study

    result = run_study(spec, trials, out, study or StudySettings(), checks or Checks())
    if report:
        from reports.tuning import build

        result.report = build(result)
    return result


# ---- sweeps and ladders -----------------------------------------------------------------------
def sweep(game: str, param: str, values: str | list, games: int, out: str | Path, table: Table = Table(),
          options: RunOptions = RunOptions(), pairing: str | None = None) -> pd.DataFrame:
    """The ``cardlab sweep`` command: one run per value of rule parameter ``param`` (``values``:
    comma-separated text or a list) into ``out/<param>=<value>``, and the table of how the
    metrics move (also ``out/sweep.csv``); values whose runs play identical games are named in
    the column ``same games as`` and in ``table.attrs["identical"]`` (groups of values).
    ``pairing`` ``"CHALLENGER,OPPONENT"``: one seat of the challenger (``search@N`` for a search
    budget) against the opponent's other seats."""
    import pandas as pd

    from analysis.compare import summary
    from analysis.load import Run
    from analysis.sweep import identical_values, write_manifest
    from sim.run import runner
    from sim.run.store import writer_lock

    out = Path(out)
    g = get_game(game)
    items = sweep_values(g.param(param), values if isinstance(values, str) else ",".join(map(str, values)))
    if pairing is not None:
        table = pairing_table(game, pairing, table)
    cfgs = [table.config(g, {param: v}) for v in items]
    rows, runs = [], []
    with writer_lock(out, f"{game} sweep"):
        for v, cfg in zip(items, cfgs):
            d = out / f"{param}={v}"
            runner.run(cfg, games, d, dataclasses.replace(options, progress=False))
            runs.append(Run(d))
            rows.append({param: v, **summary(runs[-1])})
        frame = pd.DataFrame(rows)
        same = identical_values(items, runs)
        if same:
            first = {v: g[0] for g in same for v in g[1:]}
            frame["same games as"] = [first.get(v, "") for v in items]
        frame.attrs["identical"] = same
        frame.to_csv(out / "sweep.csv", index=False)
        write_manifest(out, game, param, items, pairing)
    return frame


def sweep_values(param, text: str) -> list[str]:
    """The comma-separated values of a sweep: none empty, no value twice (after conversion)."""
    items = [v.strip() for v in text.split(",")]
    if not text.strip():
        raise ConfigError("--values needs at least one value")
    if "" in items:
        raise ConfigError(f"--values {text!r} has an empty value; give values separated by single commas")
    seen: dict = {}
    for v in items:
        key = str(param.coerce(v))
        if key in seen:
            raise ConfigError(f"--values {text!r} gives {param.name}={key} twice ({seen[key]!r} and {v!r})")
        seen[key] = v
    return items


def pairing_table(game: str, pairing: str, table: Table) -> Table:
    """The table of ``pairing`` ``"CHALLENGER,OPPONENT"``: its bots, and the parameters with the
    challenger's search budget added."""
    from sim.run.ladder import Pairing, Player, pairing_config

    g = get_game(game)
    if table.bots:
        raise ConfigError("--pairing sets the bots; leave --bots out")
    names = pairing.split(",")
    if len(names) != 2:
        raise ConfigError(f"--pairing {pairing!r}: give CHALLENGER,OPPONENT, e.g. search@64,{g.default_bots[0]}")
    pair = Pairing(Player.parse(g, names[0]), Player.parse(g, names[1]))
    if pair.challenger.bot == pair.opponent.bot:
        raise ConfigError(f"--pairing {pairing!r}: the challenger and the opponent must be different bots")
    n = dataclasses.replace(table, seed=0).config(g).players
    table_bots, extra = pairing_config(lambda b, o: (b, o), n, pair)
    return dataclasses.replace(table, bots=",".join(table_bots),
                               params={**table.overrides(), **{k: str(v) for k, v in extra.items()}})


def ladder(game: str, games: int, out: str | Path, rungs: Rungs | None = None, table: Table = Table(),
           options: RunOptions = RunOptions(), report_dir: str | Path | None = None) -> dict[str, Any]:
    """The ``cardlab ladder`` command: play (or resume) a skill ladder of ``rungs`` (``sim.run.ladder.Rungs``)
    on shared deals into ``out`` (each player against the reference, the top rung against the
    bottom, ``games`` in all; a stopping rule in ``options``: its precision for each pairing;
    ``options.notify``: a line a pairing) and return the game's name, its players and summary
    (``analysis.skill.ladder_summary``: ratings, rungs, skill index), and with ``report_dir`` the
    ladder's report files (``report``: HTML, PDF). With the table's ``policy`` (a ``cardlab
    train`` file) the learned bot plays its weights; the ladder seats the bots itself."""
    from analysis.skill import Ladder, ladder_summary
    from sim.run.ladder import Rungs, run_ladder

    g = get_game(game)
    ladder_players, ref = (rungs or Rungs()).players(g)
    base = dataclasses.replace(table, bots=None, policy=None).config(g)

    def pairing_cfg(bots: list[str], extra: dict) -> RunConfig:
        seated = dataclasses.replace(table, players=base.players, bots=",".join(bots))
        return played_config(game, seated, {k: str(v) for k, v in extra.items()})[0]

    run_ladder(g, ladder_players, ref, games, out, pairing_cfg, options,
               notes=lambda cfg: policy_notes(played_policy(cfg, table.policy)))
    summary = {"game": g.name, "players": ladder_players, **ladder_summary(Ladder.open(out))}
    if report_dir is not None:
        from reports.build import build

        summary["report"] = build([Path(out)], Path(report_dir))
    return summary


# ---- checks and reading results ----------------------------------------------------------------
def report(runs: list[str | Path], out: str | Path, min_effect: float = 0.01, compare: bool = False,
           robustness: bool = False, robustness_pair: tuple[str | Path, str | Path] | None = None) -> tuple[Path, Path]:
    """Write OUT/report.html and OUT/report.pdf from run (or sweep) directories; ``compare``: an
    A-vs-B part of the two runs; ``robustness``: the two runs are a search run and its scripted
    run; ``robustness_pair``: that pair in a report of any runs (added to ``runs`` if not listed).
    Returns the two paths."""
    if not 0 <= min_effect < 1:
        raise ConfigError(f"--min-effect must be in [0, 1), got {min_effect}")
    if compare and len(runs) != 2:
        raise ConfigError(f"--compare needs exactly two run directories (A and B), got {len(runs)}")
    dirs = [Path(r) for r in runs]
    pair = None
    if robustness_pair is not None:
        if robustness:
            raise ConfigError("give either --robustness (the two runs listed) or --robustness-pair SEARCH SCRIPTED, not both")
        pair = tuple(Path(p) for p in robustness_pair)
        listed = {d.resolve() for d in dirs}
        dirs += [p for p in pair if p.resolve() not in listed]
    elif robustness:
        if len(runs) != 2:
            raise ConfigError(f"--robustness needs exactly two run directories (search run, scripted run), got {len(runs)}")
        pair = (dirs[0], dirs[1])
    from reports.build import build

    return build(dirs, Path(out), min_effect, compare, pair)  # each run is checked (require_intact) as it is opened


def suggest(run_dir: str | Path, out: str | Path, games: int | None = None, scope: Scope | None = None,
            options: RunOptions = RunOptions(), notify: Notify = _quiet) -> tuple[dict[str, Any], Path]:
    """``cardlab suggest``: a checked prescription for every rule line of the run outside its band
    (``cardlab.advice``; ``scope``: only some lines or levers, and the precept VP search's check
    rounds and point scale, for games with precept VPs); the advice and the advice.json written
    into ``out``."""
    from analysis.load import Run
    from cardlab import advice

    scope = scope or advice.Scope()
    scope.check()
    if games is not None and games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    check_not_in_worker_start()
    result = advice.suggest(Run(run_dir), Path(out), games, options.workers, scope, notify)
    return result, advice.write(result, Path(out))


def compare(a: str | Path, b: str | Path) -> pd.DataFrame:
    """The ``cardlab compare`` command: two runs of one game (each checked intact), win rates,
    per-game flags and length, with 95% intervals and p-values."""
    from analysis.compare import compare as compare_runs
    from analysis.load import Run
    from sim.run.store import require_intact

    require_intact(a)
    require_intact(b)
    return compare_runs(Run(a), Run(b))


def verify(game: str, games: int = 2_000, table: Table = Table(), batch_size: int = 500) -> tuple[RunConfig, str | None]:
    """The ``cardlab verify`` command: the same games in both engines; the configuration and the
    first mismatch (None: every result row agrees)."""
    from sim.run.verify import compare_engines

    cfg = table.config(get_game(game))
    if games < 1 or batch_size < 1:
        raise ConfigError(f"--games and --batch-size must be at least 1, got {games} and {batch_size}")
    return cfg, compare_engines(get_game(game), cfg, games, batch_size)


def replay(run_dir: str | Path, game_index: int) -> tuple[list[str], str | None]:
    """The ``cardlab replay`` command: game ``game_index`` of a run replayed in the reference
    engine; its play-by-play lines and the first mismatch with the stored rows (or None)."""
    from sim.run.verify import replay_and_check

    return replay_and_check(run_dir, game_index)


def scenario(spec: dict[str, Any]) -> dict[str, Any]:
    """The ``cardlab scenario`` command: an explicit-state scenario (docs/scenarios.md) run in the
    reference engine; the resulting state."""
    if not isinstance(spec, dict) or "game" not in spec:
        raise ConfigError("scenario JSON must be an object with a 'game' field")
    return get_game(str(spec["game"])).scenario(spec)


def query(run_dir: str | Path, sql: str, limit: int) -> pd.DataFrame:
    """The ``cardlab sql`` command: the first ``limit`` rows of a DuckDB query over a run's views."""
    from analysis.load import Run

    return Run(run_dir).head(sql, limit)


def export(run_dir: str | Path, sql: str, out: str | Path) -> int:
    """``cardlab sql --out``: a DuckDB query's whole result written as CSV or Parquet; its rows."""
    from analysis.load import Run

    return Run(run_dir).export(sql, out)


# ---- engines and games ---------------------------------------------------------------------------
def compile_engines(games: list[str] | None = None, jobs: int | None = None, batch_only: bool = False) -> list:
    """The ``cardlab compile`` command: the fast engines of ``games`` (None or ``"all"`` among
    them: every game) compiled into numba's cache, ``jobs`` at once (only their batch kernels if
    ``batch_only``); one result per game."""
    from sim.games import available, check_game
    from sim.run.precompile import compile_games

    everything = not games or "all" in games
    for name in [] if everything else games:
        check_game(name)  # an unknown game is a one-line error (without importing the engines here)
    names = available() if everything else list(dict.fromkeys(games))
    if jobs is not None and jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, got {jobs}")
    return compile_games(names, jobs, batch_only=batch_only)


def tables(game: str) -> list[tuple[str, Any, dict[str, Any]]]:
    """The ``cardlab tables`` command: each result table of ``game``, its spec (kind, keys,
    meaning) and its columns' types (from two reference games)."""
    g = get_game(game)
    frames = g.run_batch(g.make_config(), 0, 2, "reference")
    return [(name, spec, dict(frames[name].dtypes.items())) for name, spec in g.tables.items()]


def available_games() -> list:
    """The ``cardlab games`` command: the games this installation simulates (their plug-ins)."""
    from sim.games import available

    return [get_game(name) for name in available()]


def rules(game: str) -> dict[str, Any]:
    """The ``cardlab rules`` command: a game's rule parameters (default, allowed values, source,
    rule), bots and bot parameters, its levers and rule lines (``cardlab suggest``), and the file
    with its rules."""
    g = get_game(game)
    rows = [
        {"name": p.name, "default": p.default, "allowed": p.allowed(), "source": p.source, "rule": p.rule, "doc": p.doc}
        for p in g.params
    ]
    bots = [{"bot": b.name, "params": b.params, "doc": b.doc} for b in g.bots.values()]
    bot_params = [
        {"name": p.name, "lo": p.lo, "hi": p.hi, "allowed": p.allowed(), "doc": p.doc,
         "bots": [b.name for b in g.bots.values() if p.name in b.params]}
        for p in g.bot_param_specs
    ]
    levers = [{"param": lv.param, "values": list(lv.values), "lines": list(lv.lines), "doc": lv.doc} for lv in g.levers]
    lines = [ln.to_dict() for ln in g.rule_lines(g.make_config())]
    return {"game": g.name, "params": rows, "bots": bots, "bot_params": bot_params, "levers": levers, "lines": lines,
            "rules_doc": f"docs/rules/{g.name}.md"}


# ---- benches ----------------------------------------------------------------------------------
def bench(game: str, games: int = 200_000, reference_games: int = 300, repeat: int = 3):
    """The ``cardlab bench`` command for one game: both engines' speeds, their ratio, the first
    call's time (``cardlab.engine_bench.EngineBench``)."""
    from cardlab.engine_bench import engine_bench

    if games < 1 or reference_games < 1 or repeat < 1:
        raise ConfigError("--games, --reference-games and --repeat must be at least 1")
    return engine_bench(get_game(game), games, reference_games, repeat)


def bench_report(game: str, games: int) -> dict[str, Any]:
    """``cardlab bench --report``: wall time and peak memory of ``simulate`` and ``report`` of one
    run of ``games`` games, each in its own process (``cardlab.report_bench``)."""
    from cardlab.report_bench import simulate_and_report

    if games < 1:
        raise ConfigError("--report-games must be at least 1")
    return simulate_and_report(game, games)


def bench_search(names: list[str], games: int, notify: Notify = _quiet) -> list[dict[str, Any]]:
    """``cardlab bench --search``: the search bot's strength and speed at doubling budgets in each
    of ``names`` that has a search bot (``cardlab.search_bench``)."""
    from cardlab.search_bench import search_bench

    searchable = [n for n in names if "search" in get_game(n).bots]
    if not searchable:
        raise ConfigError(f"no search bot in {', '.join(names)}")
    return [search_bench(get_game(n), games, echo=notify) for n in searchable]
