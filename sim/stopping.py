"""Sequential stopping: play batches until a metric's 95% interval is narrow enough.

The rule is checked at every batch boundary, on batches in game order (batch 0, then 0-1,
0-2, ...), whatever order workers finish them in. The run stops at the first boundary
where the metric's widest 95% half-width is at most the precision, or at the game cap, so
the stopping point depends only on the seed and the data: any worker count gives the same
games. Batches played beyond the stopping point are discarded.

``run.json`` gets a ``stopping`` record::

    "stopping": {"metric": "seat_win", "precision": 0.01, "confidence": 0.95,
                 "checkpoint": "batch", "state": "stopped", "reason": "precision reached",
                 "batches": 7, "games": 3500, "half_width": 0.0093}

``state`` is ``running`` while the run plays (and after an interruption) and ``stopped``
once it has stopped; ``reason`` is ``precision reached``, ``game cap reached`` or
``kept earlier games`` (a resumed run whose kept games already go past the point where the
rule is met). Resuming with a smaller precision continues a stopped run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sim.config import ConfigError, RunConfig
from sim.metrics import Counts, Metric, add, read_counts, resolve, sample_columns
from sim.store import RunDir, RunFacts

DEFAULT_METRIC = "seat_win"


@dataclass(frozen=True)
class StoppingRule:
    """Stop when ``metric``'s widest 95% half-width is at most ``precision``."""

    precision: float
    metric: str = DEFAULT_METRIC

    def __post_init__(self):
        if not (isinstance(self.precision, (int, float)) and 0 < self.precision < math.inf):
            raise ConfigError(f"--precision must be a positive number, got {self.precision}")

    def bind(self, game, cfg: RunConfig) -> Metric:
        """The rule's metric for runs of ``cfg`` (a ConfigError for an unknown name)."""
        return resolve(self.metric, game, cfg, sample_columns(game, cfg))


class Stopper:
    """Folds landed batches into a prefix in game order and decides where the run stops."""

    def __init__(self, rule: StoppingRule, metric: Metric, game, facts: RunFacts, rd: RunDir, previous: dict | None):
        self.rule, self.metric, self.game, self.facts, self.rd = rule, metric, game, facts, rd
        self.counts: Counts = {}
        self.prefix = 0  # batches folded into ``counts``: 0 .. prefix-1
        self.landed: set[int] = set()
        self.handed: dict[int, Counts] = {}  # counts of landed batches not yet folded, from their workers
        self.keep = _kept_batches(previous)
        self.met_early = False  # the rule was met inside the kept games
        self.stop_at: int | None = None
        self.reason = ""

    def start(self, done: list[int]) -> list[int]:
        """Fold the finished batches; return the batches still to play, in game order."""
        self.landed.update(done)
        self._fold()
        if self.stop_at is not None:
            return []
        return [k for k in range(self.facts.n_batches()) if k not in self.landed]

    def land(self, k: int, counts: Counts | None = None) -> bool:
        """Batch ``k`` is on disk, with its ``counts`` as its worker took them (None: read
        from its files); True once the run has stopped."""
        self.landed.add(k)
        if counts is not None:
            self.handed[k] = counts
        self._fold()
        return self.stop_at is not None

    def _fold(self) -> None:
        while self.stop_at is None and self.prefix in self.landed:
            # batches kept from an earlier invocation are read from disk; played ones come with their counts
            batch = self.handed.pop(self.prefix, None)
            if batch is None:
                batch = read_counts(self.game, self.rd, [self.prefix])
            self.counts = add(self.counts, batch)
            self.prefix += 1
            met = self.metric.half_width(self.counts) <= self.rule.precision
            if self.prefix < self.keep:
                self.met_early |= met
                continue
            if met:
                self.stop_at = self.prefix
                self.reason = "kept earlier games" if self.met_early else "precision reached"
            elif self.prefix == self.facts.n_batches():
                self.stop_at = self.prefix
                self.reason = "game cap reached"

    def finish(self) -> None:
        """Discard batches beyond the stopping point (played by workers running ahead)."""
        if self.stop_at is None:
            return
        self.rd.drop_batches(self.facts, [k for k in sorted(self.landed) if k >= self.stop_at])

    def manifest(self) -> dict[str, Any]:
        """The ``stopping`` record (and ``complete`` once stopped) for ``run.json``."""
        stopped = self.stop_at is not None
        batches = self.prefix
        record = {
            "metric": self.rule.metric,
            "precision": self.rule.precision,
            "confidence": 0.95,
            "checkpoint": "batch",
            "state": "stopped" if stopped else "running",
            "reason": self.reason,
            "batches": batches,
            "games": sum(self.facts.batch_range(k)[1] for k in range(batches)),
            "half_width": _json_number(self.metric.half_width(self.counts)) if batches else None,
        }
        extra: dict[str, Any] = {"stopping": record}
        if stopped:
            extra["complete"] = True
        return extra


def _kept_batches(previous: dict | None) -> int:
    """How many leading batches an earlier invocation already kept (never discarded)."""
    if not previous:
        return 0
    rec = previous.get("stopping")
    if isinstance(rec, dict) and isinstance(rec.get("batches"), int):
        return rec["batches"]
    ids = [b["id"] for b in previous.get("batches", [])]
    return max(ids) + 1 if ids else 0


def _json_number(x: float) -> float | None:
    return round(x, 6) if math.isfinite(x) else None
