"""``cardlab suggest``: for every rule line of a run outside its band, a checked prescription.

The run's rule lines (``Game.rule_lines``: seat order, stalls, game length) are measured on
the run itself; each line whose whole 95% interval lies outside its band is searched
(``sim.run.tuner.prescribe.search``: the game's levers, one at a time, then pairs; raced, confirmed
on fresh games, played by every population). The game's report module adds its own lines
(``prescriptions``: daifugo's precept VPs and laws). The answer is written to
``OUT/advice.json`` (``ADVICE_FIELDS``), each prescription's ``set`` in the form ``cardlab
simulate --set`` takes, with every run played beside it, so a killed search resumes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from analysis.advice import ADVICE_FILE
from analysis.games import hook, rules_digest
from sim.kit.config import ConfigError
from sim.kit.levers import check_setting, lever_of
from sim.run.metrics import read_counts, sample_columns
from sim.run.tuner.prescribe import Sizes, estimate_dict, line_value, search

MAX_SCALE = 10  # --scale: a point scale at most this many times finer
MIN_SCREEN = 20_000  # games of a screened candidate at the least (or the run's games, if fewer)
SCREEN_SHARE = 4  # a screened candidate plays a quarter of the confirmation's games


@dataclass(frozen=True)
class Scope:
    """What ``suggest`` searches: only these ``lines`` (metric names) and ``levers`` (``PARAM`` or
    ``PARAM=VALUE``; empty: all), and for games with precept VPs the search's check ``rounds`` and
    point ``scale``."""

    lines: tuple[str, ...] = ()
    levers: tuple[str, ...] = ()
    rounds: int = 3
    scale: int = 1

    def check(self) -> None:
        if self.rounds < 1:
            raise ConfigError(f"--rounds must be at least 1, got {self.rounds}")
        if not 1 <= self.scale <= MAX_SCALE:
            raise ConfigError(f"--scale must be a whole number from 1 to {MAX_SCALE}, got {self.scale}")


def check_out(out: Path, source) -> None:
    """``out`` may not be a run directory, the source run or inside one: advice never writes into
    a run."""
    out = Path(out).resolve()
    src = Path(source.path).resolve()
    for d in (out, *out.parents):
        if (d / "run.json").is_file() or d == src:
            raise ConfigError(f"--out {out} is {'inside ' if d != out else ''}a run directory ({d}); "
                              "give a new directory for the advice")


def sizes(source, games: int | None, workers: int = 1) -> Sizes:
    """Confirm on ``games`` (default: as many as the run), screen on a quarter (at least ``MIN_SCREEN``)."""
    total = games or source.games_done
    return Sizes(screen=min(total, max(MIN_SCREEN, total // SCREEN_SHARE)), confirm=total, workers=workers)


def line_states(source, lines) -> list[dict[str, Any]]:
    """Each line on the source run: value with its interval, band and ``status`` (``Line.status``)."""
    game, cfg = source.game, source.config
    counts = read_counts(game, source.dir, [b["id"] for b in source.meta.get("batches", [])])
    catalog = sample_columns(game, cfg)
    out = []
    for ln in lines:
        e = line_value(game, cfg, ln, counts, catalog)
        out.append({"line": ln.metric, "words": ln.words, "relative": ln.relative, "band": list(ln.band(e.value)),
                    **estimate_dict(e), "status": ln.status(e)})
    return out


def check_lines(game, lines, own: list[dict], wanted: list[str]) -> None:
    """``--line`` names a line of the run that can be searched: a metric line with a band of its
    own (not the game length, which only watches side effects) or one of the game's own lines."""
    searchable = [ln.metric for ln in lines if not ln.relative] + [s["line"] for s in own]
    for name in wanted:
        if name not in searchable:
            watched = " (it only watches side effects)" if name in [ln.metric for ln in lines] else ""
            raise ConfigError(f"unknown line '{name}' for this {game.name} run{watched}; lines: {', '.join(searchable)}")


def choose_levers(game, wanted: list[str]) -> tuple:
    """The levers to search: all, or those named by ``--lever PARAM`` / ``PARAM=VALUE`` (one value,
    within the lever's range)."""
    if not wanted:
        return game.levers
    out = []
    for text in wanted:
        param, sep, value = text.partition("=")
        lv = lever_of(game, param.strip())
        if sep:
            v = check_setting(game, lv.param, value.strip())
            lv = type(lv)(lv.param, (v,), lv.lines, lv.doc)
        out.append(lv)
    return tuple(out)


def suggest(source, out: Path, games: int | None, workers: int, scope: Scope = Scope(),
            notify: Callable[[str], None] = lambda s: None) -> dict:
    """The advice for ``source`` (an opened run) within ``scope``."""
    game = source.game
    check_out(out, source)
    own_states, own_search = hook(game.name, "line_states"), hook(game.name, "prescriptions")
    if own_search is None and scope.scale != 1:
        raise ConfigError(f"--scale applies to games with precept VPs; {game.name} has none")
    levers = choose_levers(game, list(scope.levers))
    lines = game.rule_lines(source.config)
    extra = own_states(source) if own_states else []
    check_lines(game, lines, extra, list(scope.lines))
    states = line_states(source, lines)
    wanted = (lambda name: not scope.lines or name in scope.lines)  # noqa: E731
    todo = [ln for ln, st in zip(lines, states) if st["status"] == "out" and not ln.relative and wanted(ln.metric)]
    size = sizes(source, games, workers)
    found = []
    for ln in todo:
        notify(f"line {ln.metric} ({ln.words}) is out of its band: searching the levers")
        found.append({"game": game.name, **search(game, levers, source.config, ln, lines, out / "levers", size,
                                                  notify)})
    own_todo = [st for st in extra if st["status"] == "out" and wanted(st["line"])]
    if own_search is not None and own_todo:
        found += own_search(source, out, size, workers, own_todo, levers, notify, scope)
    return {"game": game.name, "source": str(source.path), "source_digest": source.config.digest(),
            "rules_digest": rules_digest(source.config),
            "games": size.confirm, "screen_games": size.screen, "lines": states + extra,
            "levers": [{"param": lv.param, "values": list(lv.values), "lines": list(lv.lines)} for lv in levers],
            "prescriptions": found}


def write(advice: dict, out: Path) -> Path:
    """``out/advice.json``, written whole (a temporary file renamed over it), as strict JSON: an
    open band end or an undefined value is null."""
    out.mkdir(parents=True, exist_ok=True)
    path, tmp = out / ADVICE_FILE, out / (ADVICE_FILE + ".tmp")
    tmp.write_text(json.dumps(plain(advice), indent=1, allow_nan=False))
    tmp.replace(path)
    return path


def plain(v):
    """``v`` with JSON's types only: numpy numbers as Python's, tuples and sets as lists, an
    infinite or undefined number as None."""
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set)):
        return [plain(x) for x in v]
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else None
    return v
