"""Run safety: one writer per directory, a read-only and confined ``sql``, a run.json that checks
itself (and can be rebuilt from the batch files), a tuner that heals after a kill, and the small
refusals (sweep values, --metric without --precision, a failed start leaves nothing)."""

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from analysis.load import Run
from sim.run import runner
from sim.kit.config import ConfigError
from sim.run.store import LOCK, RunDir, rebuild_manifest, writer_lock
from tests.test_cli import ROOT, cardlab, one_line_error, result_times
from tests.test_runner import assert_same as same_tables, tables


def cardlab_process(*args):
    env = dict(os.environ, CARDLAB_GAMES="toy=tests.toy_game", PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "cardlab.cli", *map(str, args)], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("safety") / "run"
    res = cardlab("simulate", "toy", "--games", 300, "--seed", 4, "--out", out, "--batch-size", 100, "-q")
    assert res.returncode == 0, res.stderr
    return out


# ---- one writer per run ----------------------------------------------------------------------
def test_two_writers_one_is_refused_and_the_data_is_one_run(toy, tmp_path):
    out = tmp_path / "race"
    args = ["simulate", "toy", "--games", 600_000, "--batch-size", 20_000, "-q", "--out", out]
    procs = [cardlab_process(*args, "--seed", s) for s in (31, 32)]
    results = [p.communicate(timeout=300) for p in procs]
    codes = [p.returncode for p in procs]
    assert sorted(codes) == [0, 2], results
    winner, loser = (0, 1) if codes[0] == 0 else (1, 0)
    assert "600,000 games in 30 batches" in results[winner][0]
    error = results[loser][1].strip()
    assert error.startswith("error: ") and len(error.splitlines()) == 1
    assert f"is being written by pid {procs[winner].pid} (toy run: " in error and "--seed" in error
    single = tmp_path / "single"
    runner.run(toy.make_config(seed=(31, 32)[winner]), 600_000, single,
               runner.RunOptions(batch_size=20_000, progress=False))
    same_tables(tables(single), tables(out))


@pytest.mark.parametrize("command", ["simulate", "resume", "sweep", "tune"])
def test_a_second_writer_is_refused_at_once_naming_the_first(toy_run, tmp_path, command):
    target = {"simulate": toy_run, "resume": toy_run, "sweep": tmp_path / "sw", "tune": tmp_path / "tu"}[command]
    args = {
        "simulate": ["simulate", "toy", "--games", 300, "--seed", 4, "--batch-size", 100, "-q", "--out", target],
        "resume": ["resume", target, "-q"],
        "sweep": ["sweep", "toy", "--param", "lucky_bonus", "--values", "1,2", "--games", 100, "--out", target],
        "tune": ["tune", "toy", "--space", "lucky_bonus=0..3", "--maximize", "bot_win:lucky", "--trials", 1,
                 "--games", 100, "--out", target],
    }[command]
    before = result_times(toy_run)
    with writer_lock(target, "a test writer"):
        t = time.perf_counter()
        error = one_line_error(cardlab(*args))
        assert time.perf_counter() - t < 60
    assert f"is being written by pid {os.getpid()} (a test writer: " in error
    assert result_times(toy_run) == before


def test_a_killed_writer_leaves_no_lock_behind(tmp_path):
    out = tmp_path / "killed"
    # killed once its first batch is recorded (seconds before its last)
    p = cardlab_process("simulate", "toy", "--games", 1_000_000, "--batch-size", 4_000, "-q", "--seed", 3, "--out", out)
    deadline = time.time() + 120
    while not (out / "run.json").exists() or not RunDir(out).manifest()["batches"]:
        assert time.time() < deadline and p.poll() is None
        time.sleep(0.05)
    p.send_signal(signal.SIGKILL)
    p.wait()
    res = cardlab("simulate", "toy", "--games", 100_000, "--batch-size", 20_000, "-q", "--seed", 3, "--out", out)
    assert "holds a run with another games" in one_line_error(res)  # the run's check, not a stale lock
    res = cardlab("resume", out, "-q")
    assert res.returncode == 0 and "1,000,000 games in 250 batches" in res.stdout, res.stderr


def test_readers_see_finished_batches_while_a_writer_works(tmp_path):
    out = tmp_path / "busy"
    p = cardlab_process("simulate", "toy", "--games", 5_000_000, "--batch-size", 20_000, "-q", "--seed", 8, "--out", out)
    try:
        deadline = time.time() + 120
        while not (out / "run.json").exists() or len(RunDir(out).manifest()["batches"]) < 2:
            assert time.time() < deadline and p.poll() is None
            time.sleep(0.05)
        res = cardlab("sql", out, "SELECT count(*) AS n FROM games")
        assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
        n = int(res.stdout.split("│")[-2].strip()) if "│" in res.stdout else None
        assert n is not None and n % 20_000 == 0 and n >= 40_000
    finally:
        p.kill()
        p.wait()


# ---- sql: read-only and confined ---------------------------------------------------------------
@pytest.mark.parametrize("query, message", [
    ("COPY (SELECT 1 AS a, 2 AS b) TO '{run}' (FORMAT parquet, PARTITION_BY (a), OVERWRITE true)",
     "a COPY statement is refused"),
    ("COPY (SELECT 42 AS x) TO '{tmp}/x.csv'", "a COPY statement is refused"),
    ("SELECT * FROM read_text('/etc/passwd')", "Permission Error"),
    ("SELECT * FROM read_csv('/etc/passwd')", "Permission Error"),
    ("SELECT * FROM read_blob('/etc/hostname')", "Permission Error"),
    ("SELECT * FROM glob('/etc/*')", "Permission Error"),
    ("ATTACH '{tmp}/other.db'", "a ATTACH statement is refused"),
    ("SELECT * FROM read_parquet('{run}/../*/games/*.parquet')", "Permission Error"),
    ("SET enable_external_access = true", "a SET statement is refused"),
    ("DROP VIEW games", "a DROP statement is refused"),
    ("SELECT 1; SELECT 2", "give one query, not 2 statements"),
])
def test_sql_cannot_read_or_write_outside_the_run(toy_run, tmp_path, query, message):
    before = result_times(toy_run)
    error = one_line_error(cardlab("sql", toy_run, query.format(run=toy_run, tmp=tmp_path)))
    assert message in error
    assert result_times(toy_run) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_sql_prints_values_verbatim_and_whole_numbers_as_integers(toy_run):
    res = cardlab("sql", toy_run, "SELECT '[/]' AS x, 'a:b:c' AS y, '[bold]z[/bold]' AS z, sum(1.0) AS n FROM games")
    assert res.returncode == 0, res.stderr
    row = [c.strip() for c in res.stdout.splitlines()[-2].split("│")[1:-1]]
    assert row == ["[/]", "a:b:c", "[bold]z[/bold]", "300"]


def test_sql_out_is_written_by_cardlab_outside_the_run(toy_run, tmp_path):
    res = cardlab("sql", toy_run, "SELECT game, turns FROM games ORDER BY game", "--out", tmp_path / "g.parquet")
    assert res.returncode == 0 and "wrote 300 rows" in res.stdout, res.stderr
    assert pd.read_parquet(tmp_path / "g.parquet")["game"].tolist() == list(range(300))
    error = one_line_error(cardlab("sql", toy_run, "SELECT 1 AS a", "--out", toy_run / "games" / "part-00000.parquet"))
    assert "--out must be outside the run directory" in error


def test_python_api_keeps_an_unrestricted_connection(toy_run, tmp_path):
    with pytest.raises(ConfigError, match="COPY statement is refused"):
        Run(toy_run).sql(f"COPY (SELECT 1 AS a) TO '{tmp_path}/a.csv'")
    Run(toy_run, unrestricted=True).con.execute(f"COPY (SELECT count(*) AS n FROM games) TO '{tmp_path}/a.csv'")
    assert (tmp_path / "a.csv").read_text().split() == ["n", "300"]


# ---- run.json checks itself ----------------------------------------------------------------------
def edited_copy(src, dst, edit):
    import shutil

    shutil.copytree(src, dst)
    doc = json.loads((dst / "run.json").read_text())
    edit(doc)
    (dst / "run.json").write_text(json.dumps(doc, indent=2))
    return dst


@pytest.mark.parametrize("command", ["report", "compare", "sql", "resume"])
def test_an_edited_run_json_is_refused(toy_run, tmp_path, command):
    run = edited_copy(toy_run, tmp_path / "edited", lambda d: d["config"]["params"].update(lucky_bonus=5))
    args = {"report": ["report", run, "--out", tmp_path / "rep"], "compare": ["compare", run, toy_run],
            "sql": ["sql", run, "SELECT 1 AS a"], "resume": ["resume", run, "-q"]}[command]
    before = result_times(run)
    error = one_line_error(cardlab(*args))
    assert "run.json does not check: its config hashes to" in error
    assert f"cardlab resume {run} --rebuild-manifest" in error
    assert result_times(run) == before


def test_rebuild_manifest_restores_an_edited_or_lost_run_json(toy_run, tmp_path):
    original = json.loads((toy_run / "run.json").read_text())
    run = edited_copy(toy_run, tmp_path / "edited", lambda d: d["config"]["params"].update(lucky_bonus=5))
    res = cardlab("resume", run, "--rebuild-manifest", "-q")
    assert res.returncode == 0 and "from 9 batch files: 3 finished batches" in res.stdout, res.stderr
    rebuilt = json.loads((run / "run.json").read_text())
    for key in ("config", "config_hash", "games", "batch_size", "tables", "batches", "complete"):
        assert rebuilt[key] == original[key], key
    same_tables(tables(toy_run), tables(run))
    (run / "run.json").unlink()
    (run / "seats" / "part-00001.parquet").unlink()
    error = one_line_error(cardlab("report", run, "--out", tmp_path / "rep"))
    assert "has batch files but no run.json" in error and "--rebuild-manifest" in error
    res = cardlab("resume", run, "--rebuild-manifest", "-q")
    assert res.returncode == 0 and "2 finished batches" in res.stdout and "1 batches played now" in res.stdout
    same_tables(tables(toy_run), tables(run))
    assert "nothing to rebuild" in one_line_error(cardlab("resume", run, "--rebuild-manifest"))


def test_rebuild_refuses_batch_files_of_two_runs(toy, toy_run, tmp_path):
    other = tmp_path / "other"
    runner.run(toy.make_config(seed=9), 300, other, runner.RunOptions(batch_size=100, progress=False))
    mixed = edited_copy(toy_run, tmp_path / "mixed", lambda d: None)
    (mixed / "run.json").unlink()
    os.replace(other / "games" / "part-00002.parquet", mixed / "games" / "part-00002.parquet")
    with pytest.raises(ConfigError, match="belongs to another run"):
        rebuild_manifest(mixed)


def test_report_accepts_a_run_json_path(toy_run, tmp_path):
    res = cardlab("report", toy_run / "run.json", "--out", tmp_path / "rep")
    assert res.returncode == 0 and (tmp_path / "rep" / "report.html").exists(), res.stderr


# ---- small refusals ------------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    (["sweep", "toy", "--param", "lucky_bonus", "--values", "1,,2", "--out", "{tmp}/s"], "has an empty value"),
    (["sweep", "toy", "--param", "lucky_bonus", "--values", "2,2", "--out", "{tmp}/s"], "gives lucky_bonus=2 twice"),
    (["simulate", "toy", "--metric", "seat_spread", "--out", "{tmp}/s"], "give --precision too"),
    (["tune", "toy", "--space", "lucky_bonus=0..3", "--maximize", "bot_win:lucky", "--metric", "seat_spread",
      "--out", "{tmp}/s"], "give --precision too"),
])
def test_small_bad_inputs_are_one_line_errors(tmp_path, args, message):
    assert message in one_line_error(cardlab(*[str(a).format(tmp=tmp_path) for a in args]))
    assert not (tmp_path / "s").exists()


def test_a_failed_start_leaves_no_run_behind(tmp_path):
    out = tmp_path / "r"
    res = cardlab("simulate", "toy", "--games", 100, "--seed", 1, "-q", "--out", out, "--scheduler", "tcp://127.0.0.1:9")
    assert res.returncode != 0 and "Traceback" not in res.stderr
    assert not out.exists()
    res = cardlab("simulate", "toy", "--games", 100, "--seed", 2, "-q", "--out", out)
    assert res.returncode == 0, res.stderr


# ---- the tuner after a kill, and a study nothing satisfies ---------------------------------------
# trials long enough to be killed inside the first one; the race and the confirmation, which
# this test does not check, kept small (by default they play 8 and 4 times a trial's games)
TUNE = ["tune", "toy", "--players", "2", "--bots", "plain,lucky", "--space", "lucky_bonus=0..5", "--maximize",
        "bot_win:lucky", "--trials", "3", "--games", "100000", "--batch-size", "1000", "--race", "0",
        "--confirm-games", "5000"]


def test_a_killed_tune_heals_on_rerun(tmp_path):
    import optuna

    out = tmp_path / "t"
    p = cardlab_process(*TUNE, "--out", out)
    deadline = time.time() + 180
    while not list((out / "runs").glob("*/run.json")) if (out / "runs").exists() else True:
        assert time.time() < deadline and p.poll() is None, p.communicate()
        time.sleep(0.02)
    p.send_signal(signal.SIGKILL)
    p.wait()
    storage = f"sqlite:///{(out / 'study.db').resolve()}"
    states = [t.state.name for t in optuna.load_study(study_name="cardlab", storage=storage).trials]
    assert states == ["RUNNING"]
    res = cardlab(*TUNE, "--out", out)
    assert res.returncode == 0, res.stderr
    trials = optuna.load_study(study_name="cardlab", storage=storage).trials
    assert [t.state.name for t in trials] == ["FAIL", "COMPLETE", "COMPLETE", "COMPLETE"]
    assert trials[1].params == trials[0].params and trials[1].system_attrs["failed_trial"] == 0
    table = pd.read_parquet(out / "trials.parquet")
    assert list(table["number"]) == [1, 2, 3] and table["value"].notna().all()
    assert set(table["state"]) == {"COMPLETE"}


def test_a_study_that_no_trial_satisfies_names_the_constraint(tmp_path):
    out = tmp_path / "t"
    res = cardlab("tune", "toy", "--players", "2", "--bots", "plain,lucky", "--space", "lucky_bonus=0..5", "--maximize",
                  "bot_win:lucky", "--constraint", "seat_win:0 >= 2", "--trials", "2", "--games", "1000", "--out", out)
    error = one_line_error(res)
    assert "no trial of 2 met 'seat_win:0 >= 2' (closest: seat_win:0 = " in error and "no best.toml written" in error
    assert not (out / "best.toml").exists() and (out / "trials.parquet").exists()


def test_lock_file_is_the_only_trace_of_a_refused_writer(toy_run):
    assert (toy_run / LOCK).exists()
    assert sorted(p.name for p in toy_run.iterdir()) == sorted(["run.json", LOCK, "games", "seats", "cards"])
