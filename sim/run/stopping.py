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

from sim.kit.config import ConfigError, RunConfig
from sim.run.metrics import Counts, Metric, add, resolve, sample_columns

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


def stopping_rule(precision: float | None, metric: str | None, default: str = DEFAULT_METRIC) -> StoppingRule | None:
    """The rule of ``--precision`` and ``--metric`` (default ``default``); None without a precision,
    where a ``metric`` alone is refused."""
    if precision is None:
        if metric is not None:
            raise ConfigError("--metric chooses the metric of --precision; give --precision too, or leave --metric out")
        return None
    return StoppingRule(precision, metric or default)


class Stopper:
    """Folds the counts of landed batches, handed to it, into a prefix in game order and decides
    where the run stops; ``sizes``: the games of each batch of the run, ``keep``: how many leading
    batches an earlier invocation kept (``kept_batches``)."""

    def __init__(self, rule: StoppingRule, metric: Metric, sizes: list[int], keep: int = 0):
        self.rule, self.metric, self.sizes, self.keep = rule, metric, sizes, keep
        self.counts: Counts = {}
        self.prefix = 0  # batches folded into ``counts``: 0 .. prefix-1
        self.handed: dict[int, Counts] = {}  # counts of landed batches not yet folded
        self.landed: set[int] = set()
        self.met_early = False  # the rule was met inside the kept games
        self.stop_at: int | None = None
        self.reason = ""

    def start(self, kept: dict[int, Counts]) -> list[int]:
        """Fold the counts of the batches kept on disk; return the batches still to play, in game order."""
        for k, counts in kept.items():
            self.land(k, counts)
        return [] if self.stop_at is not None else [k for k in range(len(self.sizes)) if k not in self.landed]

    def land(self, k: int, counts: Counts) -> bool:
        """Batch ``k`` is on disk, with its ``counts``; True once the run has stopped."""
        self.landed.add(k)
        self.handed[k] = counts
        while self.stop_at is None and self.prefix in self.handed:
            self.counts = add(self.counts, self.handed.pop(self.prefix))
            self.prefix += 1
            met = self.metric.half_width(self.counts) <= self.rule.precision
            if self.prefix < self.keep:
                self.met_early |= met
            elif met:
                self.stop_at = self.prefix
                self.reason = "kept earlier games" if self.met_early else "precision reached"
            elif self.prefix == len(self.sizes):
                self.stop_at = self.prefix
                self.reason = "game cap reached"
        return self.stop_at is not None

    def beyond(self) -> list[int]:
        """The landed batches beyond the stopping point (played by workers running ahead)."""
        return [] if self.stop_at is None else [k for k in sorted(self.landed) if k >= self.stop_at]

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
            "games": sum(self.sizes[:batches]),
            "half_width": _json_number(self.metric.half_width(self.counts)) if batches else None,
        }
        return {"stopping": record, **({"complete": True} if stopped else {})}


def kept_batches(previous: dict | None) -> int:
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
