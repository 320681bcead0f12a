"""Time the analysis path next to the simulation: ``simulate`` of N games, then ``report`` of
the same run, each as its own process with its wall time and peak resident memory."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path


# Runs its arguments as one child and prints that child's wall time and peak resident memory.
# The peak of a process started from a large one starts at the large one's size (Linux keeps
# the pre-exec high-water mark), so each measured command starts from this small process,
# never from the bench process itself.
MEASURE = """
import resource, subprocess, sys, time
t = time.perf_counter()
code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)
"""


def timed(args: list[str]) -> tuple[float, float]:
    """Run ``python -m cardlab.cli ARGS`` on its own; (wall seconds, peak RSS in MB).

    The peak is ``ru_maxrss`` of that process and its waited-for children (worker
    processes): the largest resident set of any one of them, not their sum.
    """
    p = subprocess.run([sys.executable, "-c", MEASURE, sys.executable, "-m", "cardlab.cli", *args],
                       capture_output=True, text=True)
    wall, peak_kb, code = p.stdout.split() if p.returncode == 0 else ("0", "0", str(p.returncode))
    if int(code) != 0:
        err = p.stderr.strip()
        last = err.splitlines()[-1] if err else f"exit status {code}"
        raise RuntimeError(f"{' '.join(args[:2])} failed: {last}")
    return float(wall), int(peak_kb) / 1024  # Linux reports kilobytes


def simulate_and_report(game: str, games: int, workers: int = 2, seed: int = 1) -> dict:
    """Simulate ``games`` games into a temporary run directory, then report on it."""
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-") as tmp:
        run, rep = Path(tmp) / "run", Path(tmp) / "report"
        sim_s, sim_mb = timed(["simulate", game, "--games", str(games), "--seed", str(seed),
                               "--workers", str(workers), "--out", str(run), "--quiet"])
        rep_s, rep_mb = timed(["report", str(run), "--out", str(rep)])
    return {"games": games, "workers": workers, "simulate_s": round(sim_s, 2), "simulate_peak_mb": round(sim_mb),
            "report_s": round(rep_s, 2), "report_peak_mb": round(rep_mb), "report_over_simulate": round(rep_s / sim_s, 2)}
