"""The command line end to end: outputs, one-line errors, exit codes."""

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cardlab(*args, stdin=None) -> subprocess.CompletedProcess:
    """``cardlab ARGS`` through the console entry point (``cardlab.cli.main``, whose one-line
    errors and exit codes are the ones checked), run in this process so that the suite pays
    Python's and the libraries' start-up once per test process instead of once per command:
    its exit code, standard output and standard error, as ``subprocess.run`` gives them. The
    tests of what happens between processes (locks, kills, imports) start real ones."""
    from cardlab.cli import main

    argv = ["cardlab", *map(str, args)]
    out, err = io.StringIO(), io.StringIO()
    saved_argv, saved_stdin = sys.argv, sys.stdin
    sys.argv, sys.stdin = argv, io.StringIO(stdin or "")
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv, sys.stdin = saved_argv, saved_stdin
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def cardlab_subprocess(*args, stdin=None) -> subprocess.CompletedProcess:
    """``cardlab ARGS`` in a new Python process, as a user's shell runs it."""
    env = dict(os.environ, CARDLAB_GAMES="toy=tests.toy_game", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "cardlab.cli", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=ROOT, input=stdin, timeout=300)


def one_line_error(res, code=2):
    assert res.returncode == code, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert "Traceback" not in res.stderr
    return lines[0]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "run"
    res = cardlab("simulate", "toy", "--games", 300, "--seed", 4, "--out", out, "--batch-size", 100, "-q")
    assert res.returncode == 0, res.stderr
    assert "300 games in 3 batches" in res.stdout
    return out


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "chess", "--out", "{tmp}/a"], "unknown game 'chess'"),
        (["simulate", "toy", "--bots", "plain,shark,plain", "--out", "{tmp}/a"], "unknown bot 'shark'"),
        (["simulate", "toy", "--set", "colour=red", "--out", "{tmp}/a"], "unknown parameter 'colour'"),
        (["simulate", "toy", "--set", "lucky_bonus=-2", "--out", "{tmp}/a"], "bad value '-2'"),
        (["simulate", "toy", "--players", "9", "--out", "{tmp}/a"], "2 to 5 players"),
        (["simulate", "toy", "--games", "0", "--out", "{tmp}/a"], "at least 1"),
        (["simulate", "toy", "--games", "many", "--out", "{tmp}/a"], "--games"),
        (["simulate", "toy", "--batch-size", "0", "--out", "{tmp}/a"], "--batch-size must be at least 1, got 0"),
        (["simulate", "toy", "--games", "10", "--out", "/proc/x"], "cannot create run directory /proc/x"),
        (["verify", "toy", "--batch-size", "0"], "must be at least 1"),
        (["resume", "{tmp}/nothing"], "not a run directory"),
        (["simulate", "toy", "--config", "{tmp}/missing.toml", "--out", "{tmp}/a"], "config file not found"),
        (["simulate", "toy", "--config", "{tmp}/bad.toml", "--out", "{tmp}/a"], "cannot read config file"),
        (["report", "{tmp}/nothing", "--out", "{tmp}/r"], "not a run directory"),
        (["scenario", "{tmp}/missing.json"], "cannot read scenario file"),
        (["scenario", "{tmp}/bad.toml"], "not valid JSON"),
        (["rules", "chess"], "unknown game"),
        (["bench", "chess"], "unknown game"),
        (["compile", "chess"], "unknown game"),
        (["compile", "toy", "--jobs", "0"], "--jobs must be at least 1, got 0"),
        (["nonsense"], "No such command"),
    ],
)
def test_bad_input_gives_one_line_error(tmp_path, args, message):
    (tmp_path / "bad.toml").write_text("players = = 1")
    res = cardlab(*[a.format(tmp=tmp_path) for a in args])
    assert message in one_line_error(res)
    assert not (tmp_path / "a").exists()


def test_the_console_command_runs_as_a_process(tmp_path):
    """The same entry point started as a user's shell starts it: a one-line error and exit 2
    for bad input, the output and exit 0 otherwise."""
    res = cardlab_subprocess("simulate", "chess", "--out", tmp_path / "a")
    assert "unknown game 'chess'" in one_line_error(res) and not (tmp_path / "a").exists()
    res = cardlab_subprocess("games")
    assert res.returncode == 0 and res.stdout.startswith("daifugo: ") and "toy: " in res.stdout


def result_times(path):
    """Modification times of every file of a run directory but its writer lock (which a refused
    writer may take and release: it says who writes, it is no result)."""
    from sim.run.store import LOCK

    return {p: p.stat().st_mtime_ns for p in path.rglob("*") if p.name != LOCK}


def test_existing_run_with_other_config_is_refused_and_untouched(run_dir):
    before = result_times(run_dir)
    res = cardlab("simulate", "toy", "--games", 300, "--seed", 5, "--out", run_dir, "--batch-size", 100, "-q")
    assert "holds a run with another config_hash" in one_line_error(res)
    assert before == result_times(run_dir)


def test_rerun_same_command_keeps_batches(run_dir):
    res = cardlab("simulate", "toy", "--games", 300, "--seed", 4, "--out", run_dir, "--batch-size", 100, "-q")
    assert res.returncode == 0 and "0 batches played now, 3 kept" in res.stdout


def test_damaged_run_is_refused_by_report_and_compare_until_resumed(tmp_path):
    out = tmp_path / "run"
    assert cardlab("simulate", "toy", "--games", 300, "--seed", 4, "--out", out, "--batch-size", 100, "-q").returncode == 0
    (out / "seats" / "part-00001.parquet").unlink()
    for args in (["report", out, "--out", tmp_path / "rep"], ["compare", out, out]):
        assert one_line_error(cardlab(*args)) == (
            f"error: run {out}: batch 1 (games 100-199): seats/part-00001.parquet is missing; "
            f"repair it with: cardlab resume {out}"
        )
    assert not (tmp_path / "rep").exists()
    res = cardlab("resume", out, "-q")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "batch 1 (games 100-199): seats/part-00001.parquet is missing; playing batch 1 again"
    assert lines[1].startswith(f"toy: 300 games in 3 batches -> {out} (1 batches played now, 2 kept;")
    assert cardlab("compare", out, out).returncode == 0


def test_replay_prints_and_checks(run_dir):
    res = cardlab("replay", run_dir, "--game", 123)
    assert res.returncode == 0, res.stderr
    assert "seat 0" in res.stdout and "replay of game 123 matches the stored results" in res.stdout
    assert "--game must be in" in one_line_error(cardlab("replay", run_dir, "--game", 300))


def test_report_writes_html_and_pdf(run_dir, tmp_path):
    res = cardlab("report", run_dir, "--out", tmp_path / "rep")
    assert res.returncode == 0, res.stderr
    html = (tmp_path / "rep" / "report.html").read_text()
    for heading in ("Run facts", "Win rate by seat and by bot", "Game length", "Card values"):
        assert heading in html
    assert "data:image/png;base64," in html and 'src="http' not in html
    assert "http://" not in html and "https://" not in html and "import(\"data:text/javascript;base64," in html  # offline
    assert 'class="dataframe data"' in html and "new DataTable(t" in html  # every report table sortable
    assert (tmp_path / "rep" / "report.pdf").read_bytes().startswith(b"%PDF")


def test_report_tables_sort_in_a_browser_without_network(run_dir, tmp_path):
    import shutil

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no Chromium on this machine")
    assert cardlab("report", run_dir, "--out", tmp_path / "rep").returncode == 0
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=8000",
                          "--dump-dom", (tmp_path / "rep" / "report.html").as_uri()], capture_output=True, text=True,
                         timeout=120).stdout
    assert dom.count('class="dt-container') == (tmp_path / "rep" / "report.html").read_text().count('<table')


def test_rules_lists_parameters():
    res = cardlab("rules", "toy", "--json")
    doc = json.loads(res.stdout)
    assert [p["name"] for p in doc["params"]] == ["lucky_bonus", "mode"]
    assert doc["params"][0]["source"] == "assumed" and doc["params"][0]["allowed"] == "int in [0, 13]"
    assert doc["bot_params"] == [{"name": "nerve", "lo": 0.0, "hi": 1.0, "allowed": "a number in [0, 1]",
                                  "doc": "unused", "bots": ["lucky"]}]
    text = cardlab("rules", "toy").stdout
    assert "bot parameters" in text and "nerve" in text and "[0, 1]" in text


def test_tables_lists_columns():
    res = cardlab("tables", "toy")
    assert res.returncode == 0, res.stderr
    assert "cards (sum, summed by card): card value counts" in res.stdout
    assert "    win: bool" in res.stdout


def test_compile_readies_the_fast_engine():
    res = cardlab("compile", "toy", "toy")  # a game named twice compiles once
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0].startswith("toy: ready (")
    assert "1 fast engine ready" in res.stdout


def test_verify_and_bench_json(toy):
    res = cardlab("verify", "toy", "--games", 300)
    assert res.returncode == 0 and "agree on all 300 games" in res.stdout
    res = cardlab("bench", "toy", "--games", 2000, "--reference-games", 50, "--json")
    doc = json.loads(res.stdout.strip().splitlines()[-1])
    assert set(doc) >= {"fast_games_per_s", "reference_games_per_s", "ratio", "compile_s",
                        "decisions_per_s", "reference_decisions_per_s"}
    assert doc["fast_games_per_s"] > 0
    # decisions per second = decisions of the timed batch / its time = games/s * mean decisions per game
    cfg = toy.bench_config()
    for engine, games, key in [("fast", 2000, "fast_games_per_s"), ("reference", 50, "reference_games_per_s")]:
        mean = toy.run_batch(cfg, 0, games, engine)["games"]["decisions"].mean()
        rate = doc["decisions_per_s" if engine == "fast" else "reference_decisions_per_s"]
        assert rate == pytest.approx(doc[key] * mean, rel=1e-3)
    assert "decisions/s" in res.stdout


def test_bench_leaves_decisions_out_without_the_column(toy):
    from cardlab.engine_bench import decision_rates

    frames = toy.run_batch(toy.make_config(), 0, 10, "fast")
    assert set(decision_rates(frames, 1.0, frames, 2.0)) == {"decisions_per_s", "reference_decisions_per_s"}
    assert decision_rates(frames, 1.0, frames, 2.0)["decisions_per_s"] == frames["games"]["decisions"].sum()
    frames["games"] = frames["games"].drop(columns="decisions")
    assert decision_rates(frames, 1.0, frames, 2.0) == {}


def test_verify_reports_a_mismatch(toy):
    from sim.run.verify import compare_engines

    cfg = toy.make_config(seed=0)
    assert compare_engines(toy, cfg, 20, 10) is None
    toy.broken_reference = True
    try:
        problem = compare_engines(toy, cfg, 20, 10)
    finally:
        toy.broken_reference = False
    assert problem.startswith("table 'games': game 7, column 'turns':")


def test_sweep_and_compare(tmp_path):
    res = cardlab("sweep", "toy", "--param", "lucky_bonus", "--values", "0,3", "--games", 3000, "--out", tmp_path,
                  "--players", 2, "--bots", "plain,lucky")
    assert res.returncode == 0, res.stderr
    import pandas as pd

    table = pd.read_csv(tmp_path / "sweep.csv")
    assert list(table["lucky_bonus"]) == [0, 3] and list(table["games"]) == [3000, 3000]
    res = cardlab("compare", tmp_path / "lucky_bonus=0", tmp_path / "lucky_bonus=3", "--csv", tmp_path / "c.csv")
    assert res.returncode == 0, res.stderr
    c = pd.read_csv(tmp_path / "c.csv").set_index("metric")
    # the same seeds: seat results are unchanged only for the plain bot's draws; the lucky bot gains
    assert c.at["win rate, bot lucky", "A-B"] < -0.1 and c.at["win rate, bot lucky", "p"] < 1e-6
    assert c.at["mean turns", "A-B"] == 0
    assert "no run.json" in one_line_error(cardlab("compare", tmp_path, tmp_path / "lucky_bonus=3"))


def test_python_api_in_memory_equals_runner(tmp_path, monkeypatch):
    import tempfile

    import pandas as pd

    import cardlab
    from sim.run import runner

    # without out the games also go through the runner, into a temporary directory removed after
    paths = []
    real = runner.run
    monkeypatch.setattr(runner, "run", lambda cfg, games, out, *a, **k: paths.append(out) or real(cfg, games, out, *a, **k))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    mem = cardlab.run("toy", games=250, table=cardlab.Table(seed=8), options=cardlab.RunOptions(batch_size=60))
    disk = cardlab.run("toy", games=250, out=tmp_path / "r", table=cardlab.Table(seed=8),
                       options=cardlab.RunOptions(batch_size=100))
    assert len(paths) == 2 and paths[1] == tmp_path / "r" and list((tmp_path / "tmp").iterdir()) == []
    assert set(mem) == set(disk) and len(mem["games"]) == 250
    for name in mem:
        pd.testing.assert_frame_equal(mem[name], disk[name])


def test_simulate_parses_its_arguments_and_prints_what_the_api_returns(tmp_path, monkeypatch):
    """The command line is arguments and printing: ``cardlab simulate`` hands the game, one Table
    and one RunOptions to ``cardlab.api.simulate`` and prints the summary it returns."""
    from cardlab import api
    from sim.kit.config import Table
    from sim.run.runner import RunSummary
    from sim.run.stopping import StoppingRule

    calls = []

    def fake(*args, **kwargs):
        calls.append((args, kwargs))
        return RunSummary(args[2], 40, 4, 3, 1.25, game="toy")

    monkeypatch.setattr(api, "simulate", fake)
    res = cardlab("simulate", "toy", "-n", 50, "-o", tmp_path / "r", "-w", 2, "--batch-size", 10, "--engine",
                  "reference", "-q", "--set", "lucky_bonus=1", "--precision", 0.05, "--metric", "seat_spread")
    assert res.returncode == 0, res.stderr
    (game, games, out, table, options), kwargs = calls[0]
    assert kwargs == {}
    assert (game, games, out) == ("toy", 50, tmp_path / "r")
    assert table == Table(params=["lucky_bonus=1"])
    assert (options.workers, options.batch_size, options.engine, options.progress, options.scheduler,
            options.allow_code_change, options.stopping) == (2, 10, "reference", False, None, False,
                                                             StoppingRule(0.05, "seat_spread"))
    assert res.stdout == f"toy: 40 games in 4 batches -> {tmp_path / 'r'} (3 batches played now, 1 kept; 1.2 s)\n"


def test_suggest_refuses_a_run_directory_as_out_and_names_unknown_lines_and_levers(run_dir, tmp_path):
    before = sorted(p.name for p in run_dir.iterdir())
    assert "is a run directory" in one_line_error(cardlab("suggest", run_dir, "--out", run_dir))
    other = tmp_path / "other"
    assert cardlab("simulate", "toy", "--games", 50, "--out", other, "-q").returncode == 0
    assert "is a run directory" in one_line_error(cardlab("suggest", run_dir, "--out", other))
    assert not (other / "advice.json").exists() and sorted(p.name for p in run_dir.iterdir()) == before
    err = one_line_error(cardlab("suggest", run_dir, "--line", "stalemates", "--out", tmp_path / "a"))
    assert "unknown line 'stalemates' for this toy run; lines: seat_spread" in err
    err = one_line_error(cardlab("suggest", run_dir, "--line", "mean_turns", "--out", tmp_path / "a"))
    assert "unknown line 'mean_turns' for this toy run (it only watches side effects)" in err
    assert "n_bat is no lever of toy" in one_line_error(cardlab("suggest", run_dir, "--lever", "n_bat", "--out",
                                                                tmp_path / "a"))


def test_suggest_says_which_lines_are_out_and_that_no_lever_moves_them(run_dir, tmp_path):
    """The toy's high card ties often (a shared win in 13.7% of games, band 5%) and the toy declares
    no lever: the line is out and the answer is "no lever", with no game played for it."""
    res = cardlab("suggest", run_dir, "--out", tmp_path / "adv", "-q")
    assert res.returncode == 0, res.stderr
    assert "games with a shared win: 13.7% (95% CI" in res.stdout and "- out of its band" in res.stdout
    assert ("games with a shared win: No lever in range moves this line: the game declares no lever for it, so the "
            "rule's text is the change to make.") in res.stdout
    assert (tmp_path / "adv" / "advice.json").is_file() and not (tmp_path / "adv" / "levers").exists()


@pytest.mark.parametrize("scale", ["0", "11"])
def test_suggest_with_a_scale_out_of_range_is_one_line_error(run_dir, scale):
    err = one_line_error(cardlab("suggest", run_dir, "--scale", scale, "--out", str(run_dir) + "-advice"))
    assert f"--scale must be a whole number from 1 to 10, got {scale}" in err


def test_simulate_takes_games_and_workers_from_the_config_file(tmp_path):
    """A TOML config may give games and workers; the command line wins over them; a bad value is
    a one-line error."""
    (tmp_path / "c.toml").write_text("games = 30\nworkers = 1\nplayers = 2\nseed = 5\n")
    res = cardlab("simulate", "toy", "--config", tmp_path / "c.toml", "--out", tmp_path / "a", "-q")
    assert res.returncode == 0, res.stderr
    assert "30 games" in res.stdout
    res = cardlab("simulate", "toy", "--config", tmp_path / "c.toml", "--games", 20, "--out", tmp_path / "b", "-q")
    assert res.returncode == 0 and "20 games" in res.stdout, res.stderr
    (tmp_path / "bad.toml").write_text("games = 0\n")
    err = one_line_error(cardlab("simulate", "toy", "--config", tmp_path / "bad.toml", "--out", tmp_path / "c"))
    assert "bad value 0 for 'games'" in err
    (tmp_path / "other.toml").write_text("rounds = 3\n")
    assert "unknown config section(s): rounds" in one_line_error(
        cardlab("simulate", "toy", "--config", tmp_path / "other.toml", "--out", tmp_path / "d"))


def test_the_cli_starts_without_pandas_or_numba():
    """cardlab/__init__.py: importing the CLI imports neither numba nor pandas (they load when a
    command plays or reads a run)."""
    code = "import sys, cardlab.cli; print(sorted(m for m in ('pandas', 'numba') if m in sys.modules))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0 and res.stdout.strip() == "[]", res.stdout + res.stderr
