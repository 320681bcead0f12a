"""Sequential stopping (--precision): same stopping point for any worker count, reached
half-width within the precision, run.json record, resume to a tighter precision."""

import json

import pytest

from sim.run import runner
from sim.kit.config import ConfigError
from sim.run.metrics import read_counts, resolve, sample_columns
from sim.run.stopping import StoppingRule
from sim.run.store import RunDir


def stopping(rule: StoppingRule, batch_size: int | None = None, workers: int = 1) -> runner.RunOptions:
    """Run options with the stopping rule ``rule``, no progress bar."""
    return runner.RunOptions(workers=workers, batch_size=batch_size, progress=False, stopping=rule)


def manifest(path):
    return json.loads((path / "run.json").read_text())


def measured_half_width(toy, cfg, path, name):
    rd = RunDir(path)
    counts = read_counts(toy, rd, [b["id"] for b in rd.manifest()["batches"]])
    return resolve(name, toy, cfg, sample_columns(toy, cfg)).half_width(counts)


def test_same_stop_for_one_and_two_workers_within_precision(toy, tmp_path):
    cfg = toy.make_config(players=3, seed=4)
    rule = StoppingRule(0.03)
    one = runner.run(cfg, 10_000, tmp_path / "w1", stopping(rule, batch_size=250))
    two = runner.run(cfg, 10_000, tmp_path / "w2", stopping(rule, batch_size=250, workers=2))
    assert one.games == two.games and one.games < 10_000
    m1, m2 = manifest(tmp_path / "w1"), manifest(tmp_path / "w2")
    assert m1["batches"] == m2["batches"] and len(m1["batches"]) == one.games // 250
    assert sorted(p.name for p in (tmp_path / "w2" / "games").iterdir()) == [f"part-{k:05d}.parquet" for k in range(one.batches)]
    st = m1["stopping"]
    assert st == m2["stopping"]
    assert st["reason"] == "precision reached" and st["state"] == "stopped" and m1["complete"] is True
    assert st["metric"] == "seat_win" and st["precision"] == 0.03 and st["games"] == one.games
    hw = measured_half_width(toy, cfg, tmp_path / "w1", "seat_win")
    assert hw <= 0.03 and st["half_width"] == pytest.approx(hw, abs=1e-6)
    # one batch fewer would not have been precise enough: the first boundary where the rule holds
    rd = RunDir(tmp_path / "w1")
    counts = read_counts(toy, rd, range(one.batches - 1))
    assert resolve("seat_win", toy, cfg, sample_columns(toy, cfg)).half_width(counts) > 0.03


def test_resume_to_a_tighter_precision_continues(toy, tmp_path):
    cfg = toy.make_config(players=2, seed=1)
    out = tmp_path / "r"
    first = runner.run(cfg, 8_000, out, stopping(StoppingRule(0.04, "bot_win:lucky"), batch_size=200))
    kept = (out / "games" / "part-00000.parquet").stat().st_mtime_ns
    again = runner.run(cfg, 8_000, out, stopping(StoppingRule(0.02, "bot_win:lucky"), batch_size=200))
    assert again.games > first.games and again.played_batches == again.batches - first.batches
    assert (out / "games" / "part-00000.parquet").stat().st_mtime_ns == kept
    assert measured_half_width(toy, cfg, out, "bot_win:lucky") <= 0.02
    fresh = runner.run(cfg, 8_000, tmp_path / "f", stopping(StoppingRule(0.02, "bot_win:lucky"), batch_size=200))
    assert fresh.games == again.games
    looser = runner.run(cfg, 8_000, out, stopping(StoppingRule(0.04, "bot_win:lucky"), batch_size=200))
    assert looser.played_batches == 0 and looser.games == again.games
    assert manifest(out)["stopping"]["reason"] == "kept earlier games"


def test_cap_reached_and_bad_rules(toy, tmp_path):
    cfg = toy.make_config(players=3)
    s = runner.run(cfg, 600, tmp_path / "c", stopping(StoppingRule(0.001, "mean_turns"), batch_size=200))
    assert s.games == 600 and manifest(tmp_path / "c")["stopping"]["reason"] == "game cap reached"
    with pytest.raises(ConfigError, match="unknown metric 'wins'"):
        runner.run(cfg, 600, tmp_path / "d", stopping(StoppingRule(0.01, "wins")))
    with pytest.raises(ConfigError, match="positive"):
        StoppingRule(0.0)
    assert not (tmp_path / "d").exists()


def test_cli_precision_and_bad_metric(tmp_path):
    from tests.test_cli import cardlab, one_line_error

    out = tmp_path / "r"
    res = cardlab("simulate", "toy", "-n", "20000", "--batch-size", "500", "--precision", "0.03", "-q", "-o", out)
    assert res.returncode == 0 and "stopped: precision reached" in res.stdout, res.stderr
    assert manifest(out)["stopping"]["half_width"] <= 0.03
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    res = cardlab("simulate", "toy", "-n", "20000", "--batch-size", "500", "--precision", "0.01", "--metric", "wins",
                  "-q", "-o", out)
    assert "unknown metric 'wins'" in one_line_error(res)
    assert before == {p: p.stat().st_mtime_ns for p in out.rglob("*")}


def test_precision_on_the_spread_beyond_chance(toy, tmp_path):
    # three equal plain seats: the spread beyond chance narrows like a rate and stays near 0
    cfg = toy.make_config(players=3, bots=["plain"] * 3, seed=2)
    run = runner.run(cfg, 40_000, tmp_path / "s", stopping(StoppingRule(0.02, "seat_spread"), batch_size=500))
    st = manifest(tmp_path / "s")["stopping"]
    assert st["reason"] == "precision reached" and run.games < 40_000
    rd = RunDir(tmp_path / "s")
    counts = read_counts(toy, rd, [b["id"] for b in rd.manifest()["batches"]])
    cols = sample_columns(toy, cfg)
    est = resolve("seat_spread", toy, cfg, cols).value(counts)
    raw = resolve("seat_spread_raw", toy, cfg, cols).value(counts)
    assert est.half_width <= 0.02 and st["half_width"] == pytest.approx(est.half_width, abs=1e-6)
    assert est.lo < 0 < est.hi and abs(est.value) < raw.value


def test_played_batches_hand_their_counts_back_kept_ones_are_read(toy, tmp_path, monkeypatch):
    # the stopping rule folds the counts it is handed: the workers return them with each batch, and
    # the runner reads only the batches kept from an earlier invocation; the stop is the same either way
    import sim.run.runner

    read = []

    def spy(game, rd, batches):
        read.extend(batches)
        return read_counts(game, rd, batches)

    monkeypatch.setattr(sim.run.runner, "read_counts", spy)
    cfg = toy.make_config(players=2, seed=3)
    out = tmp_path / "h"
    first = runner.run(cfg, 6_000, out, stopping(StoppingRule(0.05), batch_size=200))
    assert first.played_batches == first.batches > 1 and read == []
    again = runner.run(cfg, 6_000, out, stopping(StoppingRule(0.03), batch_size=200))
    assert read == list(range(first.batches)) and again.batches > first.batches
    fresh = runner.run(cfg, 6_000, tmp_path / "f", stopping(StoppingRule(0.03), batch_size=200))
    assert (fresh.games, fresh.stopping) == (again.games, {**again.stopping, "reason": fresh.stopping["reason"]})
    assert measured_half_width(toy, cfg, out, "seat_win") == pytest.approx(again.stopping["half_width"], abs=1e-6)
