"""The ``cardlab`` command line: simulate, tune, report, verify, replay, scenario, rules, bench,
compile.

Every expected failure (bad game, bot, parameter, file) ends with one line on stderr,
``error: ...``, and exit status 2; results already written are never touched.
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from typer.exceptions import TyperException

from cardlab import api
from sim.games import MODULES
from sim.kit.config import ConfigError, RunOptions, Table
from sim.run.training import Training

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Monte Carlo balance and analytics toolkit for tabletop card games.",
)


class Fail(Exception):
    """A one-line failure with an exit status (2: bad input, 1: a check failed)."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def _game(name: str):
    from sim.games import get_game

    return get_game(name)


# the options several commands share, declared once
Game = Annotated[str, typer.Argument(help="Game id: " + ", ".join(MODULES) + " (`cardlab games`).")]
Players = Annotated[Optional[int], typer.Option("--players", "-p", help="Number of players (game default if omitted).")]
Bots = Annotated[Optional[str], typer.Option(
    "--bots", "-b", help="Comma-separated bots of the table, one a seat, e.g. cautious,random; rotated over the "
    "seats game by game (game i seats bot (s + i) mod n in seat s); one name fills every seat.")]
Seed = Annotated[Optional[int], typer.Option("--seed", "-s", help="Run seed (0 if omitted and not in --config).")]
Sets = Annotated[Optional[List[str]], typer.Option(
    "--set", help="Rule or bot parameter override key=value (bot.<bot>.<param>=v); repeatable.")]
Config = Annotated[Optional[Path], typer.Option(
    "--config", help="TOML file with players, bots, seed, [params], [bot_params.<bot>] (simulate also reads games "
    "and workers); the command line wins over it.")]
Policy = Annotated[Optional[Path], typer.Option(
    "--policy", help="Policy file of the learned bot (cardlab train; default: the game's own).")]
AllowCodeChange = Annotated[bool, typer.Option(
    "--allow-code-change", help="Resume a run played by another code version (recorded in run.json).")]
Workers = Annotated[int, typer.Option("--workers", "-w", help="Local worker processes.")]
Engine = Annotated[str, typer.Option("--engine", help="fast (numba) or reference (plain Python).")]
Scheduler = Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address (tcp://host:8786).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


@app.command()
def simulate(
    game: Game,
    games: Optional[int] = typer.Option(None, "--games", "-n", help="Number of games (default: games in "
                                        "--config, else 10000)."),
    players: Players = None,
    seed: Seed = None,
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Local worker processes (default: "
                                          "workers in --config, else 1)."),
    out: Path = typer.Option(..., "--out", "-o", help="Run directory (created; rerun to resume)."),
    bots: Bots = None,
    sets: Sets = None,
    config: Config = None,
    engine: Engine = "fast",
    batch_size: Optional[int] = typer.Option(None, "--batch-size", help="Games per batch file (default: about 16 batches)."),
    scheduler: Scheduler = None,
    allow_code_change: AllowCodeChange = False,
    quiet: Quiet = False,
    precision: Optional[float] = typer.Option(
        None, "--precision", help="Stop once the metric's 95% interval half-width is at most this (--games is the cap)."),
    metric: Optional[str] = typer.Option(None, "--metric", help="Metric for --precision (default seat_win, every "
                                         "seat): seat_win:0, bot_win:<bot>, seat_spread, mean_<length>, rate:<games column>."),
    policy: Policy = None,
):
    """Play GAMES games and write Parquet batches and run.json into OUT."""
    from sim.run.stopping import stopping_rule

    file = api.run_settings(config)
    games = games if games is not None else file.get("games", 10_000)
    workers = workers if workers is not None else file.get("workers", 1)
    options = _run_options(workers, scheduler, allow_code_change, quiet, batch_size=batch_size, engine=engine,
                           stopping=stopping_rule(precision, metric))
    with _interruptible(out):
        summary = api.simulate(game, games, out, Table(players, bots, seed, sets, config, policy), options)
    _print_run(summary, out, games)


@app.command()
def resume(
    run: Path = typer.Argument(..., help="Run directory."),
    workers: Workers = 1,
    scheduler: Scheduler = None,
    allow_code_change: AllowCodeChange = False,
    quiet: Quiet = False,
    rebuild_manifest: bool = typer.Option(False, "--rebuild-manifest", help="For a run whose run.json is lost, "
                                          "unreadable or edited: first write it anew from the run facts the batch "
                                          "files carry, then finish the run (an intact run.json is refused)."),
):
    """Finish or repair a run with the settings in its run.json: play its missing and damaged batches."""
    run = _run_dir(run)
    with _interruptible(run):
        summary = api.resume(run, _run_options(workers, scheduler, allow_code_change, quiet), rebuild_manifest,
                             notify=typer.echo)
    _print_run(summary, run, summary.games)


def _run_dir(path: Path) -> Path:
    """A run directory given as itself or as its run.json."""
    return path.parent if path.name == "run.json" and path.is_file() else path


def _run_options(workers, scheduler, allow_code_change, quiet, **more) -> RunOptions:
    """The run options of ``simulate`` and ``resume``: a progress bar unless ``quiet``, and a
    line for each batch played again."""
    return RunOptions(workers=workers, scheduler=scheduler, progress=not quiet, allow_code_change=allow_code_change,
                      notify=typer.echo, **more)


@contextmanager
def _interruptible(out: Path):
    """Ctrl-C during a run: one line that says how to resume it."""
    try:
        yield
    except KeyboardInterrupt:
        raise Fail(f"interrupted; finished batches are kept in {out}; resume with: cardlab resume {out}", 130)


def _print_run(summary, out: Path, cap: int) -> None:
    """The line of a finished run (and of its stopping rule)."""
    played = summary.played_batches
    typer.echo(
        f"{summary.game}: {summary.games:,} games in {summary.batches} batches -> {out} "
        f"({played} batches played now, {max(0, summary.batches - played)} kept; {summary.seconds:.1f} s)"
    )
    if summary.stopping:
        st = summary.stopping
        typer.echo(f"stopped: {st['reason']} ({st['metric']} 95% half-width {st['half_width']} vs --precision "
                   f"{st['precision']}; cap {cap:,} games)")


@app.command()
def tune(
    game: Game,
    space: Optional[List[str]] = typer.Option(None, "--space", help="Searched parameter: name=lo..hi or name=a,b,c "
                                              "(bot.<bot>.<param> for bot parameters); repeatable."),
    space_file: Optional[Path] = typer.Option(None, "--space-file", help="TOML file with a [space] table."),
    minimize: Optional[List[str]] = typer.Option(None, "--minimize", help="Metric to minimize, e.g. seat_spread; "
                                                 "repeatable (several goals: a multi-objective study)."),
    maximize: Optional[List[str]] = typer.Option(None, "--maximize", help="Metric to maximize, e.g. bot_win:cautious; "
                                                 "repeatable."),
    target: Optional[List[str]] = typer.Option(None, "--target", help="METRIC=VALUE (minimize |metric - value|) or "
                                               "METRIC=LO..HI (distance to the band); repeatable."),
    constraint: Optional[List[str]] = typer.Option(None, "--constraint", help="'METRIC in LO..HI', 'METRIC <= X' "
                                                   "or 'METRIC >= X'; repeatable."),
    trials: int = typer.Option(20, "--trials", help="Trials in the study in total (rerun with more to resume)."),
    games: int = typer.Option(10_000, "--games", "-n", help="Games per trial (the cap with --precision)."),
    precision: Optional[float] = typer.Option(None, "--precision", help="Stop each trial at this 95% half-width."),
    metric: Optional[str] = typer.Option(None, "--metric", help="Metric for --precision (default: the objective's)."),
    out: Path = typer.Option(..., "--out", "-o", help="Directory for the study, runs, trials.parquet, best.toml, report."),
    storage: Optional[str] = typer.Option(None, "--storage", help="Optuna storage URL (default sqlite:///OUT/study.db)."),
    study: str = typer.Option("cardlab", "--study", help="Study name in the storage."),
    sampler_seed: int = typer.Option(0, "--sampler-seed", help="Seed of the TPE sampler."),
    players: Players = None,
    seed: Seed = None,
    bots: Bots = None,
    sets: Sets = None,
    config: Config = None,
    workers: int = typer.Option(1, "--workers", "-w", help="Local worker processes per trial."),
    engine: Engine = "fast",
    batch_size: Optional[int] = typer.Option(None, "--batch-size", help="Games per batch file (the stopping checkpoint)."),
    race: int = typer.Option(4, "--race", help="Race this many best trials and the default on fresh common seeds "
                             "before naming a winner (0: no race)."),
    race_games: Optional[int] = typer.Option(None, "--race-games", help="Games per candidate at the race's last rung "
                                             "(default 8 x --games)."),
    confirm_games: Optional[int] = typer.Option(None, "--confirm-games", help="Fresh games each for the chosen "
                                                "configuration and the default (default 4 x --games)."),
    write_best: bool = typer.Option(False, "--write-best", help="Write best.toml even when the improvement over the "
                                    "default is not confirmed (noted in the file)."),
):
    """Search rule and bot parameters for a balance target (Optuna TPE, common random numbers), race
    the best candidates, confirm the winner against the default on fresh games."""
    from sim.run.tuner import Checks, StudySettings, TuneSpec, parse_objectives, parse_space

    try:
        spec = TuneSpec(game, parse_space(_game(game), space or [], space_file),
                        parse_objectives(minimize, maximize, target), list(constraint or []), games, precision, metric,
                        Table(players, bots, seed, sets, config),
                        RunOptions(workers=workers, engine=engine, batch_size=batch_size))
        result = api.tune(spec, out, trials, StudySettings(storage, study, sampler_seed),
                          Checks(race, race_games, confirm_games, write_best))
    except KeyboardInterrupt:
        raise Fail("interrupted; finished trials are kept in the study; rerun the same command to resume", 130)
    _print_tuning(game, result)


def _print_tuning(game: str, result) -> None:
    """What a study found: its trials, the race, the answer, the files written."""
    spec, best = result.spec, result.best
    typer.echo(f"{game}: {result.new_trials} trials run now, {len(result.study.trials)} in the study; "
               + (f"best trial {best.number}: {spec.objective.describe()} = {best.value:.6g} with "
                  + ", ".join(f"{k}={v}" for k, v in best.params.items()) if not spec.multi else
                  f"{len(result.confirmations)} configurations on the Pareto front"))
    if result.race is not None:
        typer.echo(f"race: {result.race.winner.label} wins ({result.race.reason}, {result.race.games:,} games each)")
    typer.echo(f"answer: {result.answer}")
    files = [result.trials_table, result.best_toml or result.pareto_toml, *(result.report or ())]
    typer.echo("wrote " + ", ".join(str(f) for f in files if f is not None)
               + ("" if spec.multi or result.best_toml else " (no best.toml: no confirmed improvement; --write-best "
                  "writes it anyway)"))


@app.command()
def report(
    runs: List[Path] = typer.Argument(..., help="Run directories or sweep directories (cardlab sweep --out)."),
    out: Path = typer.Option(..., "--out", "-o", help="Directory for report.html and report.pdf."),
    min_effect: float = typer.Option(0.01, "--min-effect", help="Smallest effect (share of games) listed as a finding."),
    compare: bool = typer.Option(False, "--compare", help="Two run directories A and B: add an A-vs-B part."),
    robustness: bool = typer.Option(False, "--robustness", help="Two run directories, a search run and a scripted "
                                    "run of the same config but the bots: add a part on whether the findings hold."),
    robustness_pair: Optional[tuple[Path, Path]] = typer.Option(
        None, "--robustness-pair", help="SEARCH_RUN SCRIPTED_RUN: the robustness part for this pair in a "
        "report of any runs (the pair is added to the runs if not listed)."),
):
    """Write OUT/report.html (self-contained) and OUT/report.pdf from run directories, opening
    with the findings (adjusted for every test the report makes). A sweep directory gives each
    headline metric against the swept value with 95% bands; --compare an A-vs-B part."""
    pair = robustness_pair if robustness_pair is not None and robustness_pair[0] is not None else None
    html, pdf = api.report([_run_dir(r) for r in runs], out, min_effect, compare, robustness,
                           pair and tuple(_run_dir(p) for p in pair))
    typer.echo(f"wrote {html} and {pdf}")


@app.command()
def suggest(
    run: Path = typer.Argument(..., help="Run whose rule lines to prescribe for (any game)."),
    out: Path = typer.Option(..., "--out", "-o", help="Advice directory (not a run): advice.json and the runs "
                             "played to check it; run the same command again to resume."),
    games: Optional[int] = typer.Option(None, "--games", "-n", help="Games of each confirmation and population "
                                        "check (default: as many as RUN); candidates are screened on a quarter."),
    line: Optional[list[str]] = typer.Option(None, "--line", help="Only this line (metric name, e.g. seat_spread, "
                                             "rate:hq_stalemate, precept_imbalance); repeatable."),
    lever: Optional[list[str]] = typer.Option(None, "--lever", help="Only this lever (PARAM, or PARAM=VALUE within "
                                              "its range; `cardlab rules GAME` lists them); repeatable."),
    rounds: int = typer.Option(3, "--rounds", help="Precept VPs: check rounds at most (each plays fresh seeds)."),
    scale: int = typer.Option(1, "--scale", help="Precept VPs on a point scale this many times finer (every "
                              "rank point, bonus and VP times SCALE), so that a change can be a fraction of a VP now."),
    workers: Workers = 1,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines."),
):
    """Prescribe for every rule line of RUN outside its band (seat order, stalls and stalemates,
    precept VPs): the smallest lever change that brings the line into its band, screened,
    raced and confirmed on fresh games, with its side effects on every other line, and played by
    the run's bots and by a strong bot in every seat. Give RUN and OUT to `cardlab report`: the
    verdict shows each prescription."""
    from cardlab.advice import Scope

    result, path = api.suggest(_run_dir(run), out, games, Scope(tuple(line or ()), tuple(lever or ()), rounds, scale),
                               RunOptions(workers=workers), (lambda s: None) if quiet else typer.echo)
    from analysis.prescriptions import summary

    for text in summary(result):
        typer.echo(text)
    typer.echo(f"wrote {path}")


@app.command()
def rules(game: Game, as_json: bool = typer.Option(False, "--json", help="Print JSON.")):
    """List a game's rule parameters (default, allowed values, source, rule), bots and bot parameters,
    and its levers (what `cardlab suggest` may change)."""
    out = api.rules(game)
    if as_json:
        typer.echo(json.dumps(out, default=list, ensure_ascii=False))
        return
    g, rows, bots, bot_params, doc = _game(game), out["params"], out["bots"], out["bot_params"], out["rules_doc"]
    from rich.console import Console
    from rich.table import Table

    con = Console(width=160)
    t = Table(title=f"{g.title} ({g.name}) parameters, {g.min_players}-{g.max_players} players")
    for col in ("name", "default", "allowed", "source", "rule", "doc"):
        t.add_column(col, overflow="fold")
    for r in rows:
        d = r["default"]
        t.add_row(r["name"], ",".join(map(str, d)) if isinstance(d, tuple) else str(d).lower() if isinstance(d, bool) else str(d),
                  r["allowed"], r["source"], r["rule"], r["doc"])
    con.print(t)
    b = Table(title="bots (override with --set bot.<bot>.<param>=value)")
    for col in ("bot", "parameters", "doc"):
        b.add_column(col, overflow="fold")
    for r in bots:
        b.add_row(r["bot"], ", ".join(f"{k}={v}" for k, v in r["params"].items()) or "-", r["doc"])
    con.print(b)
    if bot_params:
        p = Table(title="bot parameters")
        for col in ("name", "allowed", "bots", "doc"):
            p.add_column(col, overflow="fold")
        for r in bot_params:
            p.add_row(r["name"], f"[{r['lo']:g}, {r['hi']:g}]", ", ".join(r["bots"]), r["doc"])
        con.print(p)
    if out["levers"]:
        lv = Table(title="levers (cardlab suggest: the values a designer would accept, nearest the default first)")
        for col in ("parameter", "values", "lines it may move", "doc"):
            lv.add_column(col, overflow="fold")
        for r in out["levers"]:
            lv.add_row(r["param"], ", ".join(map(str, r["values"])), ", ".join(r["lines"]), r["doc"])
        con.print(lv)
    typer.echo(f"rules, rule IDs and the engines' readings: {doc} (in the cardlab repository)")


@app.command()
def verify(
    game: Game,
    games: int = typer.Option(2_000, "--games", "-n"),
    players: Players = None,
    seed: Seed = None,
    bots: Bots = None,
    sets: Sets = None,
    config: Config = None,
    batch: int = typer.Option(500, "--batch-size"),
):
    """Play the same games in both engines and compare every result row."""
    cfg, problem = api.verify(game, games, Table(players, bots, seed, sets, config), batch)
    if problem:
        raise Fail(f"engines differ: {problem}", 1)
    typer.echo(f"{game}: fast and reference engines agree on all {games:,} games (seed {cfg.seed}, bots {','.join(cfg.bots)})")


@app.command()
def replay(
    run: Path = typer.Argument(..., help="Run directory."),
    game_index: int = typer.Option(..., "--game", "-g", help="Game index in the run."),
):
    """Replay one game of a run in the reference engine, print it, and check the stored rows."""
    lines, problem = api.replay(_run_dir(run), game_index)
    for line in lines:
        typer.echo(line)
    if problem:
        raise Fail(f"replay differs from the stored results: {problem}", 1)
    typer.echo(f"replay of game {game_index} matches the stored results")


@app.command()
def scenario(file: Path = typer.Argument(..., help="Scenario JSON file (docs/scenarios.md); - for stdin.")):
    """Run an explicit-state scenario in the reference engine and print the resulting state as JSON."""
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text()
    except OSError as e:
        raise ConfigError(f"cannot read scenario file {file}: {e.strerror}") from None
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"scenario file {file} is not valid JSON: {e}") from None
    result = api.scenario(spec)
    typer.echo(json.dumps(result, indent=2, ensure_ascii=False))


def _bench_search(names: list[str], games: int, as_json: bool) -> None:
    results = api.bench_search(names, games, notify=typer.echo)
    if as_json:
        typer.echo(json.dumps(results))


@app.command()
def bench(
    game: str = typer.Argument("all", help="Game id, or 'all'."),
    games: int = typer.Option(200_000, "--games", "-n", help="Games (or rounds) for the fast engine."),
    reference_games: int = typer.Option(300, "--reference-games", help="Games for the reference engine."),
    repeat: int = typer.Option(3, "--repeat", help="Timed repetitions per engine; the best is reported."),
    as_json: bool = typer.Option(False, "--json", help="Also print the figures as one JSON object on the last line."),
    report: bool = typer.Option(False, "--report", help="Also time simulate + report of --report-games games (own processes)."),
    report_games: int = typer.Option(100_000, "--report-games", help="Games for --report."),
    search: bool = typer.Option(False, "--search", help="Instead: the search bot's strength and speed at budgets "
                                "16, 64, 256, 1024 against the strongest scripted bots."),
    search_games: int = typer.Option(400, "--search-games", help="Games per budget for --search."),
):
    """Print fast-engine speed (one worker), reference speed, their ratio and compile time;
    player decisions per second where the games table counts them;
    with --report also the wall time and peak memory of `simulate` and `report` of one run."""
    from sim.games import available

    names = available() if game == "all" else [game]
    if games < 1 or reference_games < 1 or repeat < 1 or search_games < 1:
        raise ConfigError("--games, --reference-games, --repeat and --search-games must be at least 1")
    if search:
        _bench_search(names, search_games, as_json)
        return
    results = []
    for name in names:
        r = api.bench(name, games, reference_games, repeat)
        _print_bench(r)
        results.append(r.record())
        if report:
            results[-1]["report"] = _bench_report(name, report_games)
    if as_json:
        typer.echo(json.dumps(results[0] if len(results) == 1 else {"games": results}))


def _print_bench(r) -> None:
    """The lines of one game's engine bench (``cardlab.engine_bench.EngineBench``)."""
    s, unit = r.speeds, r.unit
    per_decision = f", {s.rates['decisions_per_s']:,.0f} decisions/s" if "decisions_per_s" in s.rates else ""
    typer.echo(
        f"{r.game}: fast {s.fast:,.0f} {unit}/s{per_decision} (1 worker, {s.games:,} {unit}, best of {r.repeat}), "
        f"reference {s.reference:,.1f} {unit}/s, ratio {s.ratio:,.0f}x, "
        f"first call (compile or cache load) {r.compile_s:.2f} s"
    )
    f = r.full_game
    if f is not None:
        typer.echo(
            f"{r.game} full default game: fast {f.fast:,.0f} games/s (1 worker, {f.games:,} games, best of {r.repeat}), "
            f"reference {f.reference:,.1f} games/s, ratio {f.ratio:,.0f}x"
        )
    if r.vector:
        v = r.vector
        typer.echo(f"{r.game} vector env: {v['vector_env_steps_per_s']:,.0f} steps/s "
                   f"(random agent, {v['vector_env_slots']:,} games at once, best of {r.repeat}), "
                   f"{v['vector_env_steps_per_cpu_s']:,.0f} steps per CPU second")


@app.command("compile")
def compile_engines(
    games: List[str] = typer.Argument(None, help="Game ids (default: all)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", help="Games compiled at once (default: one per core)."),
    batch_only: bool = typer.Option(False, "--batch-only", help="Only the batch kernel: what a run of scripted and "
                                    "learned bots plays (the step contract and the search compile on first use)."),
):
    """Compile the fast engines into numba's cache ahead of a run, one process per game, several
    at once (a run's workers then load them instead of each compiling the same engine)."""
    t = time.perf_counter()
    results = api.compile_engines(games, jobs, batch_only)
    for r in results:
        typer.echo(f"{r.game}: {'failed: ' + r.error if r.error else 'ready'} ({r.seconds:.1f} s)")
    failed = [r.game for r in results if r.error]
    if failed:
        raise Fail(f"the fast engine of {', '.join(failed)} did not compile", 1)
    plural = "" if len(results) == 1 else "s"
    typer.echo(f"{len(results)} fast engine{plural} ready in {time.perf_counter() - t:.1f} s")


@app.command()
def compare(
    a: Path = typer.Argument(..., help="Run directory A."),
    b: Path = typer.Argument(..., help="Run directory B (same game)."),
    csv: Optional[Path] = typer.Option(None, "--csv", help="Also write the table as CSV."),
):
    """Compare two runs of one game: win rates, per-game flags and length, with p-values."""
    a, b = _run_dir(a), _run_dir(b)
    table = api.compare(a, b)
    _print_table(table, f"A = {a}   B = {b}   (diff with 95% interval; two-proportion z / Welch t p-values)")
    if csv:
        table.to_csv(csv, index=False)


@app.command()
def sweep(
    game: Game,
    param: str = typer.Option(..., "--param", help="Rule parameter to vary."),
    values: str = typer.Option(..., "--values", help="Comma-separated values, e.g. 4,6,8."),
    games: int = typer.Option(10_000, "--games", "-n", help="Games per value."),
    out: Path = typer.Option(..., "--out", "-o", help="Directory; one run directory per value inside."),
    players: Players = None,
    seed: Seed = None,
    bots: Bots = None,
    sets: Sets = None,
    config: Config = None,
    workers: Workers = 1,
    pairing: Optional[str] = typer.Option(None, "--pairing", help="CHALLENGER,OPPONENT: one seat of the challenger "
                                          "(search@N for a search budget) against the opponent's other seats; the "
                                          "sweep then also shows the challenger's skill index."),
):
    """Run one simulation per value of a parameter and tabulate how the metrics move
    (`cardlab report OUT` draws them with 95% bands)."""
    table = api.sweep(game, param, values, games, out, Table(players, bots, seed, sets, config),
                      RunOptions(workers=workers), pairing)
    _print_table(table, f"{game}: sweep of {param} ({games:,} games each); also in {out / 'sweep.csv'}; "
                 f"report with 95% bands: cardlab report {out} --out REPORT_DIR")
    from analysis.sweep import identical_sentence

    for group in table.attrs.get("identical", []):
        typer.echo(f"note: {identical_sentence(param, group)}")


@app.command()
def ladder(
    game: Game,
    games: int = typer.Option(14_000, "--games", "-n", help="Games in the whole ladder, split evenly over its "
                               "pairings and rounded up to whole games a pairing (each pairing's cap with "
                               "--precision)."),
    out: Path = typer.Option(..., "--out", "-o", help="Ladder directory: ladder.json and one run per pairing."),
    rungs: Optional[str] = typer.Option(None, "--rungs", help="Players from the weakest up, e.g. "
                                        "random,cautious,search@16,search@64 (default: random, each scripted bot "
                                        "and the learned bot, then search at --budgets); search@64:learned names "
                                        "the search's rollout bot."),
    budgets: Optional[str] = typer.Option(None, "--budgets", help="Search budgets of the default rungs "
                                          "(default 16,32,64,128)."),
    reference: Optional[str] = typer.Option(None, "--reference", help="Every player's opponent, one of the rungs "
                                            "(default: the game's strongest scripted bot)."),
    precision: Optional[float] = typer.Option(None, "--precision", help="Stop each pairing once the challenger's "
                                              "win-share 95% half-width is at most this."),
    players: Players = None,
    seed: Seed = None,
    sets: Sets = None,
    config: Config = None,
    workers: Workers = 1,
    report_dir: Optional[Path] = typer.Option(None, "--report", help="Also write the ladder's report into this directory."),
    allow_code_change: AllowCodeChange = False,
    policy: Policy = None,
):
    """Play a skill ladder on shared deals (each player against the reference, the top rung
    against the bottom) and print the ratings and the skill index; rerun to resume."""
    from sim.run.ladder import Rungs
    from sim.run.stopping import StoppingRule

    options = RunOptions(workers=workers, allow_code_change=allow_code_change, notify=typer.echo,
                         stopping=None if precision is None else StoppingRule(precision))
    try:
        summary = api.ladder(game, games, out, Rungs(rungs, budgets, reference),
                             Table(players, None, seed, sets, config, policy), options, report_dir)
    except KeyboardInterrupt:
        raise Fail(f"interrupted; finished batches are kept in {out}; rerun the same command to resume", 130)
    name, bottom = summary["game"], summary["players"][0].name
    _print_table(summary["ratings"].table(), f"{name}: ratings (Elo scale, {bottom} = 0; 95% bootstrap intervals)")
    _print_table(summary["rungs"].astype(object).where(summary["rungs"].notna(), ""), "rungs: win share against the reference, chance ahead of the rung below")
    sk = summary["skill"]
    if sk is not None:
        typer.echo(f"skill index {sk['index']:.3f} [{sk['index_lo']:.3f}, {sk['index_hi']:.3f}]: {sk['played']} wins "
                   f"{sk['share']:.3f} against {sk['bottom']} (equal share {sk['equal']:.3f}); upsets {sk['upset']:.3f}")
        if "index_ref" in sk:
            typer.echo(f"skill index of the top rung {sk['top']} against the reference {sk['reference']}: "
                       f"{sk['index_ref']:.3f} [{sk['index_ref_lo']:.3f}, {sk['index_ref_hi']:.3f}] (a lower bound)")
    if report_dir is not None:
        html, pdf = summary["report"]
        typer.echo(f"wrote {html} and {pdf}")


@app.command()
def train(
    game: Game,
    out: Path = typer.Option(..., "--out", "-o", help="Policy file to write (JSON): the best policy found."),
    method: str = typer.Option("expert", "--method", help="expert: expert iteration (imitate the search); "
                               "cmaes: CMA-ES on the learned seat's win share against the reference."),
    iterations: int = typer.Option(4, "--iterations", "-i", help="expert: iterations (a rerun with "
                                   "more continues the work folder)."),
    trials: int = typer.Option(200, "--trials", help="cmaes: trials in all, each playing one set of weights "
                               "(a rerun with more continues the work folder)."),
    games: Optional[int] = typer.Option(None, "--games", "-n", help="expert: games with search seats an iteration "
                                        "(default 200); cmaes: training games a trial (default 10,000)."),
    budget: int = typer.Option(64, "--budget", help="expert: the search's rollouts a decision."),
    rollout: str = typer.Option("learned", "--rollout", help="expert: the bot that plays the search's rollouts "
                                "(learned: the current policy)."),
    sigma: float = typer.Option(0.1, "--sigma", help="cmaes: the first steps, as a share of each weight's scale."),
    scale: str = typer.Option("weight", "--scale", help="cmaes: each weight's scale, weight: its own size; feature: "
                              "its size in score units (times its feature's typical size), for features on "
                              "different scales."),
    eval_games: Optional[int] = typer.Option(None, "--eval-games", help="Games of one learned seat against the "
                                             "reference that judge a policy on held-out deals (default: expert "
                                             "400, cmaes 10,000)."),
    work: Optional[Path] = typer.Option(None, "--work", help="Work folder: the iterations or the trials; a rerun "
                                        "resumes it (default: OUT's name + -training)."),
    start: Optional[Path] = typer.Option(None, "--start", help="Policy file to start from (default: the game's own)."),
    players: Players = None,
    bots: Optional[str] = typer.Option(None, "--bots", "-b", help="Table (default: one search seat, or for cmaes "
                                       "one learned seat, against the game's search bench opponents, the reference)."),
    seed: Seed = None,
    sets: Sets = None,
    config: Config = None,
):
    """Train the learned bot, resumable. expert (default): search with the current policy, refit on
    every search decision so far, keep the fit when it beats the reference more often. cmaes: tune
    the weights on the win share against the reference (training deals: seed + 2), keep the best
    when it wins more on the held-out deals (seed + 1)."""
    schedule = Training(iterations, games, budget, rollout, eval_games, work, start, method, trials, sigma,
                        scale)
    doc = api.train(game, out, schedule, Table(players, bots, seed, sets, config), notify=typer.echo)
    record = doc["training"]
    if record["trainer"] == "cmaes":
        typer.echo(f"{doc['game']}: " + (f"trial {record['best_trial']}'s weights win" if record["kept"] else
                   "no trial beat the start; its weights win") + f" {max(record['eval_share'], record['eval_share_start']):.3f} "
                   f"against {record['reference']} on the evaluation deals -> {out}")
        for name, w in zip(doc["features"], doc["weights"]):
            typer.echo(f"  {name:<20} {w:+9.3f}")
        return
    fit = doc.get("fit", {})  # a start tuned by CMA-ES has no fit
    best = next(h for h in reversed(record["history"]) if h["kept"])
    repeats = (f"; it repeats the search's option at {fit['agreement']:.1%} of its {fit.get('decisions', 0):,} "
               "training decisions") if "agreement" in fit else ""
    typer.echo(f"{doc['game']}: the policy of iteration {best['iteration']} wins {best['share']:.3f} against "
               f"{record.get('reference', 'the reference')}{repeats} -> {out}")
    for name, w, se in zip(doc["features"], doc["weights"], fit.get("std_errors", [None] * len(doc["weights"]))):
        typer.echo(f"  {name:<20} {w:+9.3f}" + ("" if se is None else f"  (se {se:.3f})"))


@app.command()
def sql(
    run: Path = typer.Argument(..., help="Run directory."),
    query: str = typer.Argument(..., help="SQL over the run's views: games, seats and the game's own tables."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the result to FILE.csv or FILE.parquet instead."),
    limit: int = typer.Option(50, "--limit", help="Rows to print (the whole result goes to --out)."),
):
    """Run a DuckDB query over a run's tables; print the result or write it as CSV/Parquet."""
    if out is not None:
        n = api.export(_run_dir(run), query, out)
        typer.echo(f"wrote {n:,} rows to {out}")
        return
    df = api.query(_run_dir(run), query, limit + 1)
    more = f" (first {limit} rows)" if len(df) > limit else ""
    _print_table(df.head(limit), f"{run}{more}", fit=True, verbatim=True)


def _print_table(df, title: str, fit: bool = False, verbatim: bool = False) -> None:
    """A rich table; with ``fit`` the console is as wide as the table needs (no squeezed columns);
    ``verbatim``: floats as they are (``_cell_texts``)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    t = Table(title=Text(title))
    for c in df.columns:
        t.add_column(Text(str(c)), no_wrap=fit)
    columns = [_cell_texts(df[c], verbatim) for c in df.columns]
    rows = [list(r) for r in zip(*columns)] if columns else []
    for row in rows:
        t.add_row(*(Text(v) for v in row))  # Text: values print verbatim, never as markup or emoji codes
    width = 200
    if fit:
        width = max(width, sum(max([len(str(c))] + [len(r[j]) for r in rows]) + 3 for j, c in enumerate(df.columns)) + 1)
    Console(width=width, markup=False, emoji=False, highlight=False).print(t)


def _cell_texts(col, verbatim: bool = False) -> list[str]:
    """A column's values as text: whole numbers as integers (also whole floats, such as the
    HUGEINT and DOUBLE sums DuckDB hands over as floats), other floats to four places, or with
    ``verbatim`` as they are (the shortest text that reads back as the same float)."""
    import math
    import numbers

    def text(v) -> str:
        if isinstance(v, numbers.Real) and not isinstance(v, numbers.Integral):
            x = float(v)
            if math.isfinite(x) and x.is_integer() and abs(x) < 2**53:
                return str(int(x))
            return repr(x) if verbatim else f"{x:.4f}"
        return str(v)

    return [text(v) for v in col]


def _bench_report(game: str, games: int) -> dict:
    try:
        r = api.bench_report(game, games)
    except RuntimeError as e:
        raise Fail(str(e), 1) from None
    typer.echo(
        f"{game}: simulate {games:,} games ({r['workers']} workers) {r['simulate_s']:.1f} s, peak {r['simulate_peak_mb']} MB; "
        f"report {r['report_s']:.1f} s, peak {r['report_peak_mb']} MB; report/simulate {r['report_over_simulate']:.2f}"
    )
    return r


@app.command()
def tables(game: Game):
    """List a game's result tables: kind, meaning, and every column with its type."""
    for name, spec, dtypes in api.tables(game):
        keys = f", summed by {', '.join(spec.keys)}" if spec.kind == "sum" else ""
        typer.echo(f"{name} ({spec.kind}{keys}): {spec.doc}")
        for col, dtype in dtypes.items():
            typer.echo(f"    {col}: {dtype}")


@app.command("games")
def list_games():
    """List the games this installation simulates."""
    for g in api.available_games():
        name = g.name
        typer.echo(f"{name}: {g.title}, {g.min_players}-{g.max_players} players, tables {', '.join(g.tables)}")


def main() -> None:
    """Console entry point: one-line errors, non-zero exit codes."""
    if len(sys.argv) == 1:
        sys.argv.append("--help")
    try:
        code = app(standalone_mode=False)
    except typer.Abort:
        _die("aborted", 130)
    except TyperException as e:
        _die(e.format_message().replace("\n", " "), 2)
    except (ConfigError, Fail) as e:
        _die(str(e), getattr(e, "code", 2))
    except KeyboardInterrupt:
        _die("interrupted", 130)
    except BrokenPipeError:
        sys.exit(0)
    sys.exit(code if isinstance(code, int) else 0)


def _die(message: str, code: int) -> None:
    sys.stderr.write(f"error: {message}\n")
    sys.exit(code)


if __name__ == "__main__":
    main()
