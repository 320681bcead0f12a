"""Runner and store: determinism across workers and batch sizes, resume, refusal, metadata."""

import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from analysis.load import Run
from sim.run import runner
from sim.kit.config import ConfigError
from sim.run.store import RunDir


def tables(path):
    run = Run(path)
    return {name: run.table(name) for name in run.game.tables}


def assert_same(a, b):
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name])


def test_same_results_for_any_workers_and_batch_size(toy, tmp_path):
    cfg = toy.make_config(players=3, seed=11)
    runner.run(cfg, 900, tmp_path / "a", runner.RunOptions(workers=1, batch_size=900, progress=False))
    runner.run(cfg, 900, tmp_path / "b", runner.RunOptions(workers=2, batch_size=200, progress=False))
    runner.run(cfg, 900, tmp_path / "c", runner.RunOptions(batch_size=77, engine="reference", progress=False))
    a = tables(tmp_path / "a")
    assert len(a["games"]) == 900 and len(a["seats"]) == 2700
    assert a["cards"]["count"].sum() == 2700
    assert_same(a, tables(tmp_path / "b"))
    assert_same(a, tables(tmp_path / "c"))


def test_seed_changes_results(toy, tmp_path):
    runner.run(toy.make_config(seed=1), 200, tmp_path / "a", runner.RunOptions(progress=False))
    runner.run(toy.make_config(seed=2), 200, tmp_path / "b", runner.RunOptions(progress=False))
    assert not tables(tmp_path / "a")["games"].equals(tables(tmp_path / "b")["games"])


def test_resume_after_crash_equals_uninterrupted_run(toy, tmp_path, monkeypatch):
    cfg = toy.make_config(players=4, seed=3)
    runner.run(cfg, 1000, tmp_path / "full", runner.RunOptions(batch_size=100, progress=False))

    real = type(toy).run_batch
    calls = []

    def crashing(self, cfg, start, count, engine="fast"):
        calls.append(start)
        if start == 500:
            raise KeyboardInterrupt
        return real(self, cfg, start, count, engine)

    monkeypatch.setattr(type(toy), "run_batch", crashing)
    with pytest.raises(KeyboardInterrupt):
        runner.run(cfg, 1000, tmp_path / "part", runner.RunOptions(batch_size=100, progress=False))
    rd = RunDir(tmp_path / "part")
    manifest = rd.manifest()
    assert [b["id"] for b in manifest["batches"]] == [0, 1, 2, 3, 4]
    assert manifest["complete"] is False
    kept = (tmp_path / "part" / "games" / "part-00000.parquet").stat().st_mtime_ns
    # a half-written batch from the crash (one table only) is redone, not trusted
    (tmp_path / "part" / "games" / "part-00006.parquet").write_bytes(b"junk")

    monkeypatch.setattr(type(toy), "run_batch", real)
    summary = runner.run(cfg, 1000, tmp_path / "part", runner.RunOptions(batch_size=100, progress=False))
    assert summary.played_batches == 5
    assert (tmp_path / "part" / "games" / "part-00000.parquet").stat().st_mtime_ns == kept
    assert RunDir(tmp_path / "part").manifest()["complete"] is True
    assert_same(tables(tmp_path / "full"), tables(tmp_path / "part"))


def test_other_config_into_existing_run_is_refused(toy, tmp_path):
    out = tmp_path / "run"
    runner.run(toy.make_config(seed=1), 100, out, runner.RunOptions(progress=False))
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}
    for cfg, games in [(toy.make_config(seed=2), 100), (toy.make_config(seed=1), 200)]:
        with pytest.raises(ConfigError, match="holds a run with another"):
            runner.run(cfg, games, out, runner.RunOptions(progress=False))
    assert before == {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}


def test_refuses_non_run_directory(toy, tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not empty"):
        runner.run(toy.make_config(), 10, tmp_path / "x", runner.RunOptions(progress=False))


@pytest.mark.parametrize("kw, msg", [({"games": 0}, "at least 1"), ({"workers": 0}, "at least 1"),
                                     ({"engine": "turbo"}, "unknown engine"), ({"batch_size": -5}, "at least 1")])
def test_bad_run_shape(toy, tmp_path, kw, msg):
    args = {"games": 10, "workers": 1, "engine": "fast", "batch_size": None} | kw
    options = runner.RunOptions(workers=args["workers"], batch_size=args["batch_size"], engine=args["engine"],
                                progress=False)
    with pytest.raises(ConfigError, match=msg):
        runner.run(toy.make_config(), args["games"], tmp_path / "r", options)
    assert not (tmp_path / "r").exists()


def test_parquet_metadata_names_the_run(toy, tmp_path):
    cfg = toy.make_config(seed=9)
    runner.run(cfg, 50, tmp_path / "r", runner.RunOptions(batch_size=20, progress=False))
    f = tmp_path / "r" / "seats" / "part-00002.parquet"
    meta = json.loads(pq.read_schema(f).metadata[b"cardlab"])
    assert meta["config_hash"] == cfg.digest() and meta["seed"] == 9
    assert meta["batch"] == {"id": 2, "start": 40, "count": 10}
    assert meta["code_version"].startswith("0.1.0")
    assert meta["config"]["bots"] == list(cfg.bots)


def test_damaged_manifest_is_a_one_line_error(toy, tmp_path):
    out = tmp_path / "r"
    runner.run(toy.make_config(), 20, out, runner.RunOptions(progress=False))
    doc = json.loads((out / "run.json").read_text())
    doc["games"] = -3
    (out / "run.json").write_text(json.dumps(doc))
    with pytest.raises(ConfigError, match="not a cardlab manifest: games"):
        Run(out)
    (out / "run.json").write_text("{")
    with pytest.raises(ConfigError, match="cannot read"):
        Run(out)
