"""Time the analysis path next to the simulation: ``simulate`` of N games, then ``report`` of
the same run, each as its own process with its wall time and peak resident memory."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(args: list[str]) -> tuple[float, float]:
    """Run ``python -m sim.cli ARGS`` as a child; (wall seconds, peak RSS in MB).

    The peak is the child's ``ru_maxrss`` from ``wait4``: the largest resident set of the
    process and of its own waited-for children (worker processes), not their sum.
    """
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        last = err.strip().splitlines()[-1] if err.strip() else f"exit status {p.returncode}"
        raise RuntimeError(f"{' '.join(args[:2])} failed: {last}")
    return wall, usage.ru_maxrss / 1024  # Linux reports kilobytes


def simulate_and_report(game: str, games: int, workers: int = 2, seed: int = 1) -> dict:
    """Simulate ``games`` games into a temporary run directory, then report on it."""
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-") as tmp:
        run, rep = Path(tmp) / "run", Path(tmp) / "report"
        sim_s, sim_mb = timed(["simulate", game, "--games", str(games), "--seed", str(seed),
                               "--workers", str(workers), "--out", str(run), "--quiet"])
        rep_s, rep_mb = timed(["report", str(run), "--out", str(rep)])
    return {"games": games, "workers": workers, "simulate_s": round(sim_s, 2), "simulate_peak_mb": round(sim_mb),
            "report_s": round(rep_s, 2), "report_peak_mb": round(rep_mb), "report_over_simulate": round(rep_s / sim_s, 2)}
