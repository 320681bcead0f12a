"""Run integrity: code versions per batch, re-checked batches on resume, damaged runs refused."""

import json

import pandas as pd
import pytest

from analysis.load import Run
from sim.run import runner, store
from sim.kit.config import ConfigError
from sim.run.store import RunDir, check_run, require_intact


def run(cfg, out, games=500, **kw):
    return runner.run(cfg, games, out, runner.RunOptions(batch_size=100, progress=False, **kw))


def frames(path):
    r = Run(path)
    return {name: r.table(name) for name in r.game.tables}


def damage(f):
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF
    f.write_bytes(bytes(data))


def test_manifest_records_code_version_rows_and_digest_per_batch(toy, tmp_path):
    cfg = toy.make_config(players=3, seed=5)
    run(cfg, tmp_path / "r", games=250)
    batches = RunDir(tmp_path / "r").manifest()["batches"]
    assert [(b["id"], b["start"], b["count"]) for b in batches] == [(0, 0, 100), (1, 100, 100), (2, 200, 50)]
    last = batches[2]
    assert last["code_version"] == store.code_version()
    assert last["files"]["games"]["rows"] == 50 and last["files"]["seats"]["rows"] == 150
    assert len(last["files"]["cards"]["sha256"]) == 64
    assert check_run(tmp_path / "r") == []


def test_resume_replays_missing_and_damaged_batches(toy, tmp_path):
    cfg = toy.make_config(players=3, seed=6)
    run(cfg, tmp_path / "full")
    out = tmp_path / "r"
    run(cfg, out)
    kept = (out / "games" / "part-00000.parquet").stat().st_mtime_ns
    (out / "seats" / "part-00004.parquet").unlink()
    damage(out / "games" / "part-00002.parquet")
    (out / "cards" / "part-00001.parquet").write_bytes(b"PAR1")
    lines = []
    summary = run(cfg, out, notify=lines.append)
    assert summary.played_batches == 3
    assert lines == [
        "batch 1 (games 100-199): cards/part-00001.parquet is unreadable (Parquet file size is 4 bytes, smaller "
        "than the minimum file footer (8 bytes)); playing batch 1 again",
        "batch 2 (games 200-299): games/part-00002.parquet is damaged (its bytes differ from the SHA-256 in "
        "run.json); playing batch 2 again",
        "batch 4 (games 400-499): seats/part-00004.parquet is missing; playing batch 4 again",
    ]
    assert (out / "games" / "part-00000.parquet").stat().st_mtime_ns == kept
    assert check_run(out) == []
    for name, df in frames(tmp_path / "full").items():
        pd.testing.assert_frame_equal(df, frames(out)[name])


def test_file_with_other_row_count_is_named(toy, tmp_path):
    cfg = toy.make_config(players=3, seed=6)
    run(cfg, tmp_path / "a", games=200)
    # a whole, readable file of another batch size put in place of batch 1's games file
    other = tmp_path / "c"
    runner.run(cfg, 300, other, runner.RunOptions(batch_size=150, progress=False))
    (tmp_path / "a" / "games" / "part-00001.parquet").write_bytes((other / "games" / "part-00001.parquet").read_bytes())
    [p] = check_run(tmp_path / "a")
    assert str(p) == "batch 1 (games 100-199): games/part-00001.parquet has 150 rows where run.json records 100"


def test_other_code_version_is_refused_unless_allowed(toy, tmp_path, monkeypatch):
    cfg = toy.make_config(seed=7)
    out = tmp_path / "r"
    old = store.code_version()
    runner.run(cfg, 500, out, runner.RunOptions(batch_size=100, progress=False))
    manifest = RunDir(out).manifest()
    manifest["batches"] = manifest["batches"][:3]
    (out / "run.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(store, "code_version", lambda: "9.9.9+gnew")
    with pytest.raises(ConfigError) as e:
        run(cfg, out)
    assert str(e.value) == (
        f"{out} holds batches played by code version {old}, this is code version 9.9.9+gnew; use a new --out "
        "directory, or --allow-code-change to resume with this code (recorded in run.json)"
    )
    assert RunDir(out).manifest()["code_changes"] == []
    assert run(cfg, out, allow_code_change=True).played_batches == 2
    manifest = RunDir(out).manifest()
    assert [b["code_version"] for b in manifest["batches"]] == [old] * 3 + ["9.9.9+gnew"] * 2
    [change] = manifest["code_changes"]
    assert change["batches_from"] == [old] and change["to"] == "9.9.9+gnew"
    assert run(cfg, out).played_batches == 0  # once allowed, that version may resume the run again


def test_damaged_or_stray_files_stop_loading_with_the_repair_command(toy, tmp_path):
    out = tmp_path / "r"
    run(toy.make_config(seed=8), out)
    (out / "seats" / "part-00003.parquet").unlink()
    msg = (f"run {out}: batch 3 (games 300-399): seats/part-00003.parquet is missing; "
           f"repair it with: cardlab resume {out}")
    with pytest.raises(ConfigError, match="^" + msg.replace("(", r"\(").replace(")", r"\)") + "$"):
        require_intact(out)
    with pytest.raises(ConfigError, match="is missing"):
        Run(out)
    run(toy.make_config(seed=8), out)
    (out / "games" / "part-00007.parquet").write_bytes(b"junk")
    assert [str(p) for p in check_run(out)] == ["games/part-00007.parquet belongs to no finished batch in run.json"]


def test_runs_from_before_batch_records_are_checked_for_readable_files(toy, tmp_path):
    cfg = toy.make_config(seed=9)
    out = tmp_path / "r"
    run(cfg, out, games=300)
    manifest = json.loads((out / "run.json").read_text())
    manifest["batches"] = [{k: b[k] for k in ("id", "start", "count")} for b in manifest["batches"]]
    del manifest["code_changes"]
    (out / "run.json").write_text(json.dumps(manifest))
    assert check_run(out) == []
    (out / "seats" / "part-00001.parquet").write_bytes(b"not parquet at all")
    [p] = check_run(out)
    assert str(p).startswith("batch 1 (games 100-199): seats/part-00001.parquet is unreadable (")
    assert run(cfg, out, games=300).played_batches == 1
    assert check_run(out) == []
