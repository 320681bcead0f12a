"""Balance metrics from small additive counts, with 95% intervals (``sim.stats``).

A batch's result tables shrink to a flat ``Counts`` dict (games, wins per seat and bot,
sums of game length, games with each per-game column non-zero, precept holders' wins);
counts of several batches add up. A ``Metric`` turns counts into one or more
``Estimate`` values with intervals. The runner's stopping rule and the tuner use these,
so neither needs to load a run's tables.

Metric names (``cardlab simulate --metric``, ``cardlab tune --minimize``):

    seat_win            every seat's win rate (one estimate per seat); seat_win:<seat> one seat
    bot_win             every bot's win rate (seat rows of that bot); bot_win:<bot> one bot
    seat_spread         highest minus lowest seat win rate
    mean_<length>       mean game length (mean_turns, mean_plays: the game's length column)
    rate:<column>       share of games whose ``games`` column is true / non-zero (rate:hq)
    precept_advantage   win rate of precept holders minus the other players of the same
                        games, pooled over cards; precept_advantage:<card> one card (daifugo)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd

from sim import stats
from sim.config import ConfigError, RunConfig

Counts = dict[str, float]
Columns = dict[str, Any]  # table -> column names, and "dtypes": games column -> dtype name


@dataclass(frozen=True)
class Estimate:
    """A metric value with its 95% interval (NaN bounds when not yet defined)."""

    value: float
    lo: float
    hi: float

    @property
    def half_width(self) -> float:
        w = (self.hi - self.lo) / 2
        return w if math.isfinite(w) else math.inf


# ---- counts ------------------------------------------------------------------------------
def add(a: Counts, b: Counts) -> Counts:
    """Sum of two count dicts."""
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


def count_tables(game, tables: dict[str, pd.DataFrame]) -> Counts:
    """The counts of one batch's ``games`` and ``seats`` frames."""
    games, seats = tables["games"], tables["seats"]
    length = games[game.length_column].to_numpy(np.float64)
    c: Counts = {"games": len(games), "len_sum": float(length.sum()), "len_sq": float((length * length).sum())}
    for col in games.columns:
        if col != "game":
            c[f"nonzero/{col}"] = int((games[col].to_numpy() != 0).sum())
    win = seats["win"].to_numpy() != 0
    for s, w in seats.groupby("seat", sort=True)["win"].sum().items():
        c[f"seat_win/{s}"] = int(w)
    for b, g in pd.DataFrame({"bot": seats["bot"].astype(str), "win": win}).groupby("bot", sort=True)["win"]:
        c[f"bot_win/{b}"] = int(g.sum())
        c[f"bot_n/{b}"] = len(g)
    if "precepts_mask" in seats.columns:
        c.update(_precept_counts(seats, win))
    return c


def _precept_counts(seats: pd.DataFrame, win: np.ndarray) -> Counts:
    """Per card: wins and seat rows of its holders, and of the other seats in the same games."""
    mask = seats["precepts_mask"].to_numpy().astype(np.int64)
    game = seats["game"].to_numpy()
    c: Counts = {}
    for card in range(1, 64):
        held = (mask >> (card - 1)) & 1 == 1
        if not held.any():
            continue
        others = np.isin(game, np.unique(game[held])) & ~held
        for key, rows in (("holder", held), ("other", others)):
            c[f"{key}_win/{card}"] = int(win[rows].sum())
            c[f"{key}_n/{card}"] = int(rows.sum())
    return c


def read_counts(game, run_dir, batches) -> Counts:
    """Summed counts of finished ``batches`` of a run directory (``sim.store.RunDir``)."""
    total: Counts = {}
    for k in batches:
        total = add(total, count_tables(game, {t: run_dir.read_batch(t, k) for t in ("games", "seats")}))
    return total


# ---- estimates ---------------------------------------------------------------------------
def rate(successes: float, n: float) -> Estimate:
    """A share with its Wilson interval (``sim.stats.wilson``)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    lo, hi = stats.wilson(successes, n)
    return Estimate(successes / n, float(lo), float(hi))


def rate_difference(s1: float, n1: float, s2: float, n2: float) -> Estimate:
    """Difference of two shares with Newcombe's interval (``sim.stats.rate_difference``)."""
    d = stats.rate_difference(s1, n1, s2, n2)
    return Estimate(d["diff"], d["lo"], d["hi"])


def mean(total: float, total_sq: float, n: float) -> Estimate:
    """A mean from its sum and sum of squares, with a t interval (``sim.stats.mean_ci_from``)."""
    if n < 1:
        return Estimate(math.nan, math.nan, math.nan)
    var = max(0.0, (total_sq - total * total / n) / (n - 1)) if n > 1 else math.nan
    return Estimate(*stats.mean_ci_from(total / n, math.sqrt(var), int(n)))


# ---- metrics -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Metric:
    """A named metric: ``estimates(counts)`` gives one estimate per label."""

    name: str
    doc: str
    estimates: Callable[[Counts], dict[str, Estimate]]

    def scalar(self) -> "Metric":
        """This metric if it has one estimate (objectives, constraints), else an error."""
        if self.name in ("seat_win", "bot_win"):
            raise ConfigError(f"metric '{self.name}' has one value per seat or bot; name one, e.g. {self.name}:0")
        return self

    def value(self, counts: Counts) -> Estimate:
        return next(iter(self.estimates(counts).values()))

    def half_width(self, counts: Counts) -> float:
        """The widest 95% half-width over the metric's estimates (inf while undefined)."""
        return max((e.half_width for e in self.estimates(counts).values()), default=math.inf)


def _seat(s: int) -> Callable[[Counts], Estimate]:
    return lambda c: rate(c.get(f"seat_win/{s}", 0), c.get("games", 0))


def _bot(b: str) -> Callable[[Counts], Estimate]:
    return lambda c: rate(c.get(f"bot_win/{b}", 0), c.get(f"bot_n/{b}", 0))


def _spread(players: int) -> Callable[[Counts], dict[str, Estimate]]:
    def estimates(c: Counts) -> dict[str, Estimate]:
        wins = [c.get(f"seat_win/{s}", 0) for s in range(players)]
        hi, lo = int(np.argmax(wins)), int(np.argmin(wins))
        n = c.get("games", 0)
        return {"seat_spread": rate_difference(wins[hi], n, wins[lo], n)}

    return estimates


def _precept(name: str, cards: list[int]) -> Callable[[Counts], dict[str, Estimate]]:
    def estimates(c: Counts) -> dict[str, Estimate]:
        s = {k: sum(c.get(f"{k}/{card}", 0) for card in cards) for k in ("holder_win", "holder_n", "other_win", "other_n")}
        return {name: rate_difference(s["holder_win"], s["holder_n"], s["other_win"], s["other_n"])}

    return estimates


def resolve(name: str, game, cfg: RunConfig, columns: Columns) -> Metric:
    """The metric called ``name`` for runs of ``cfg``; ``columns``: result columns per table."""
    base, _, arg = name.partition(":")
    players = cfg.players
    if base == "seat_win":
        seats = range(players) if not arg else [_int_in(arg, players, name)]
        return Metric(name, "win rate by seat", lambda c: {f"seat_win:{s}": _seat(s)(c) for s in seats})
    if base == "bot_win":
        bots = sorted(set(cfg.bots)) if not arg else [arg]
        if arg and arg not in cfg.bots:
            raise ConfigError(f"metric '{name}': bot '{arg}' is not at the table ({', '.join(cfg.bots)})")
        return Metric(name, "win rate by bot", lambda c: {f"bot_win:{b}": _bot(b)(c) for b in bots})
    if name == "seat_spread":
        return Metric(name, "highest minus lowest seat win rate", _spread(players))
    if name == f"mean_{game.length_column}":
        return Metric(name, f"mean game length ({game.length_column})",
                      lambda c: {name: mean(c.get("len_sum", 0), c.get("len_sq", 0), c.get("games", 0))})
    if base == "rate" and arg:
        if arg not in columns["games"] or arg == "game":
            raise ConfigError(f"metric '{name}': {game.name} games table has no column '{arg}' (see: cardlab tables {game.name})")
        return Metric(name, f"share of games with {arg}", lambda c: {name: rate(c.get(f"nonzero/{arg}", 0), c.get("games", 0))})
    if base == "precept_advantage" and "precepts_mask" in columns["seats"]:
        cards = list(range(1, 64)) if not arg else [_int_in(arg, 64, name, first=1)]
        return Metric(name, "precept holder win rate minus the other players'", _precept(name, cards))
    raise ConfigError(f"unknown metric '{name}'; known: {', '.join(catalog(game, cfg, columns, expand=False))}")


def _int_in(text: str, stop: int, name: str, first: int = 0) -> int:
    try:
        v = int(text)
    except ValueError:
        v = -1
    if not first <= v < stop:
        raise ConfigError(f"metric '{name}': expected an integer in [{first}, {stop - 1}] after ':'")
    return v


def catalog(game, cfg: RunConfig, columns: Columns, expand: bool = True) -> list[str]:
    """Metric names for runs of ``cfg``: every seat and bot, spread, length, flags (bool columns)."""
    names = [f"seat_win:{s}" for s in range(cfg.players)] if expand else ["seat_win", "seat_win:<seat>"]
    names += [f"bot_win:{b}" for b in sorted(set(cfg.bots))] if expand else ["bot_win", "bot_win:<bot>"]
    names += ["seat_spread", f"mean_{game.length_column}"]
    if expand:
        names += [f"rate:{c}" for c, t in columns.get("dtypes", {}).items() if t == "bool"]
    else:
        names.append("rate:<games column>")
    if "precepts_mask" in columns["seats"]:
        names.append("precept_advantage")
    return names


def sample_columns(game, cfg: RunConfig) -> Columns:
    """Result columns of ``cfg``'s tables (from one game in the reference engine); ``dtypes``
    maps each games column to its dtype name."""
    frames = game.run_batch(cfg, 0, 1, "reference")
    return {"games": list(frames["games"].columns), "seats": list(frames["seats"].columns),
            "dtypes": {c: str(t) for c, t in frames["games"].dtypes.items() if c != "game"}}
