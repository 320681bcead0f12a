"""Balance metrics from small additive counts, with 95% intervals (``sim.run.stats``).

A batch's result tables shrink to a flat ``Counts`` dict (games, wins per seat and bot,
sums of game length, games with each per-game column non-zero, precept holders' wins);
counts of several batches add up. A ``Metric`` turns counts into one or more
``Estimate`` values with intervals. The runner's stopping rule and the tuner use these,
so neither needs to load a run's tables.

Metric names (``cardlab simulate --metric``, ``cardlab tune --minimize``):

    seat_win            every seat's win rate (one estimate per seat); seat_win:<seat> one seat
    bot_win             every bot's win rate (seat rows of that bot); bot_win:<bot> one bot
    seat_spread         highest minus lowest seat win rate beyond chance: the raw spread minus
                        the mean spread of equal seats with the same noise at the same game
                        count, so it is about 0 for fair seats however many games are played
                        (the raw spread of noisy rates is biased upward and shrinks with n)
    seat_spread_raw     highest minus lowest seat win rate as measured (Newcombe interval)
    bot_spread          highest minus lowest bot win rate beyond chance (2+ distinct bots)
    bot_spread_raw      highest minus lowest bot win rate as measured
    shared_wins         share of games with two or more winners
    mean_<length>       mean game length (mean_turns, mean_plays: the game's length column)
    rate:<column>       share of games whose ``games`` column is true / non-zero (rate:hq)
    precept_advantage   win rate of precept holders minus the other players of the same
                        games, pooled over cards; precept_advantage:<card> one card (daifugo)

Spreads beyond chance (``sim.run.stats.spread_beyond_chance``): the counts keep, per pair of seats
(and of bots), the sum over games of the product of their wins, so the covariance of one game's
win indicators is known (one winner per game makes seats negatively correlated). The chance
level is E[max - min] of normal draws with that covariance over the game count (seeded, so
deterministic); the 95% interval is the basic parametric bootstrap interval.

``Metric.difference(a, b)`` gives the difference a - b of two runs' values with a 95% interval
and its p-value: Newcombe for rates, Welch for means, the basic bootstrap for spreads (the two
runs treated as independent samples: conservative when they share game seeds). ``better(name)``
says which way a metric is better, where that is known.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd

from sim.run import stats
from sim.kit.config import ConfigError, RunConfig

Counts = dict[str, float]
Columns = dict[str, Any]  # table -> column names, and "dtypes": games column -> dtype name


@dataclass(frozen=True)
class Estimate:
    """A metric value with its 95% interval (NaN bounds when not yet defined); for a
    difference, ``p`` is the two-sided p-value of the test the interval inverts."""

    value: float
    lo: float
    hi: float
    p: float = math.nan

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
    _, per_game = np.unique(seats["game"].to_numpy(), return_inverse=True)
    c["shared_games"] = int((np.bincount(per_game, weights=win) > 1).sum())  # games with two or more winners
    c.update(_cross_counts("seat", seats["game"].to_numpy(), seats["seat"].to_numpy(), win))
    c.update(_cross_counts("bot", seats["game"].to_numpy(), seats["bot"].astype(str).to_numpy(), win))
    if "precepts_mask" in seats.columns:
        c.update(_precept_counts(seats, win))
    return c


def _cross_counts(key: str, game: np.ndarray, group: np.ndarray, win: np.ndarray) -> Counts:
    """Per pair of groups (seats or bots) a <= b: the sum over games of wins(a) * wins(b)."""
    names, gi = np.unique(group, return_inverse=True)
    _, row = np.unique(game, return_inverse=True)
    w = np.zeros((row.max() + 1 if len(row) else 0, len(names)))
    np.add.at(w, (row, gi), win)
    cross = w.T @ w
    return {f"{key}_cross/{a}/{b}": float(cross[i, j]) for i, a in enumerate(names) for j, b in enumerate(names)
            if i <= j}


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
    """Summed counts of finished ``batches`` of a run directory (``sim.run.store.RunDir``)."""
    total: Counts = {}
    for k in batches:
        total = add(total, count_tables(game, {t: run_dir.read_batch(t, k) for t in ("games", "seats")}))
    return total


# ---- estimates ---------------------------------------------------------------------------
def rate(successes: float, n: float) -> Estimate:
    """A share with its Wilson interval (``sim.run.stats.wilson``)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    lo, hi = stats.wilson(successes, n)
    return Estimate(successes / n, float(lo), float(hi))


def rate_difference(s1: float, n1: float, s2: float, n2: float) -> Estimate:
    """Difference of two shares with Newcombe's interval and p (``sim.run.stats.rate_difference``)."""
    d = stats.rate_difference(s1, n1, s2, n2)
    return Estimate(d["diff"], d["lo"], d["hi"], d["p"])


def mean(total: float, total_sq: float, n: float) -> Estimate:
    """A mean from its sum and sum of squares, with a t interval (``sim.run.stats.mean_ci_from``)."""
    if n < 1:
        return Estimate(math.nan, math.nan, math.nan)
    var = max(0.0, (total_sq - total * total / n) / (n - 1)) if n > 1 else math.nan
    return Estimate(*stats.mean_ci_from(total / n, math.sqrt(var), int(n)))


# ---- metrics -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Metric:
    """A named metric: ``estimates(counts)`` gives one estimate per label; ``differences(a, b)``
    the difference a - b of two runs' counts per label (default: a normal interval from the two
    intervals' half-widths)."""

    name: str
    doc: str
    estimates: Callable[[Counts], dict[str, Estimate]]
    differences: Callable[[Counts, Counts], dict[str, Estimate]] | None = None

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

    def difference(self, a: Counts, b: Counts) -> dict[str, Estimate]:
        """Per label, the difference a - b with its 95% interval and p-value."""
        if self.differences is not None:
            return self.differences(a, b)
        ea, eb = self.estimates(a), self.estimates(b)
        return {k: _normal_difference(ea[k], eb[k]) for k in ea}


def _normal_difference(a: Estimate, b: Estimate) -> Estimate:
    se = math.hypot(a.half_width, b.half_width) / 1.959964
    d = stats.estimate_test(a.value - b.value, se if math.isfinite(se) else math.nan)
    return Estimate(d["diff"], d["lo"], d["hi"], d["p"])


def _rate_metric(name: str, doc: str, keys: dict[str, tuple[str, str]]) -> Metric:
    """A metric of shares: per label, (successes key, trials key) in the counts."""
    def estimates(c: Counts) -> dict[str, Estimate]:
        return {label: rate(c.get(s, 0), c.get(n, 0)) for label, (s, n) in keys.items()}

    def differences(a: Counts, b: Counts) -> dict[str, Estimate]:
        return {label: rate_difference(a.get(s, 0), a.get(n, 0), b.get(s, 0), b.get(n, 0))
                for label, (s, n) in keys.items()}

    return Metric(name, doc, estimates, differences)


def _mean_metric(name: str, doc: str) -> Metric:
    def differences(a: Counts, b: Counts) -> dict[str, Estimate]:
        (ma, va, na), (mb, vb, nb) = _moments(a), _moments(b)
        d = stats.mean_difference(ma, va, na, mb, vb, nb)
        return {name: Estimate(d["diff"], d["lo"], d["hi"], d["p"])}

    return Metric(name, doc, lambda c: {name: mean(c.get("len_sum", 0), c.get("len_sq", 0), c.get("games", 0))},
                  differences)


def _moments(c: Counts) -> tuple[float, float, int]:
    n, s, sq = c.get("games", 0), c.get("len_sum", 0), c.get("len_sq", 0)
    if n < 2:
        return (s / n if n else math.nan), math.nan, int(n)
    return s / n, max(0.0, (sq - s * s / n) / (n - 1)), int(n)


def _raw_spread(name: str, key: str, groups: list) -> Callable[[Counts], dict[str, Estimate]]:
    """Highest minus lowest win rate of ``groups`` (seats or bots), Newcombe's interval."""
    def estimates(c: Counts) -> dict[str, Estimate]:
        n = [c.get(f"{key}_n/{g}", 0) if key == "bot" else c.get("games", 0) for g in groups]
        r = [c.get(f"{key}_win/{g}", 0) / m if m else math.nan for g, m in zip(groups, n)]
        if not all(n):
            return {name: Estimate(math.nan, math.nan, math.nan)}
        hi, lo = int(np.nanargmax(r)), int(np.nanargmin(r))
        return {name: rate_difference(c[f"{key}_win/{groups[hi]}"], n[hi], c[f"{key}_win/{groups[lo]}"], n[lo])}

    return estimates


def _rates_cov(c: Counts, key: str, groups: list) -> tuple[np.ndarray, np.ndarray]:
    """Win rates of ``groups`` and the covariance matrix of those estimates, from the counts:
    one game's wins per group (W) have covariance E[W_a W_b] - E[W_a] E[W_b]; a bot's rate is
    its mean W over its seats per game."""
    n = c.get("games", 0)
    if n < 2:
        return np.full(len(groups), np.nan), np.full((len(groups), len(groups)), np.nan)
    wins = np.array([c.get(f"{key}_win/{g}", 0) for g in groups], float)
    seats = np.array([c.get(f"bot_n/{g}", 0) / n if key == "bot" else 1.0 for g in groups])
    cross = np.array([[c.get(f"{key}_cross/{min(a, b)}/{max(a, b)}", math.nan) for b in groups] for a in groups])
    w = wins / n
    cov = (cross / n - np.outer(w, w)) / (n - 1) / np.outer(seats, seats)
    return w / seats, cov


def _spread(name: str, key: str, groups: list) -> Metric:
    """Spread beyond chance of ``groups``' win rates (``sim.run.stats.spread_beyond_chance``)."""
    def full(c: Counts, seed: int = 0) -> dict:
        return stats.spread_beyond_chance(*_rates_cov(c, key, groups), seed=seed)

    def estimates(c: Counts) -> dict[str, Estimate]:
        s = full(c)
        return {name: Estimate(s["value"], s["lo"], s["hi"], s["p"])}

    def differences(a: Counts, b: Counts) -> dict[str, Estimate]:
        sa, sb = full(a, 0), full(b, 1)  # independent draws for the two runs
        d = stats.draws_difference(sa["value"], sa["draws"], sb["value"], sb["draws"])
        return {name: Estimate(d["diff"], d["lo"], d["hi"], d["p"])}

    return Metric(name, f"highest minus lowest {key} win rate beyond chance", estimates, differences)


def _spread_groups(name: str, cfg: RunConfig) -> tuple[str, list] | None:
    """(count key, groups) of a spread metric: the seats, or the distinct bots (2 or more)."""
    if name.startswith("seat_spread"):
        return "seat", list(range(cfg.players))
    bots = sorted(set(cfg.bots))
    return ("bot", bots) if len(bots) > 1 else None


def better(name: str) -> str | None:
    """``"lower"`` for metrics that are better lower (spreads, stall, stalemate and turn-cap
    rates), None when no direction is known."""
    base, _, arg = name.partition(":")
    if base in ("seat_spread", "seat_spread_raw", "bot_spread", "bot_spread_raw", "shared_wins"):
        return "lower"
    if base == "rate" and any(w in arg for w in ("stall", "stalemate", "turn_cap", "cap")):
        return "lower"
    return None


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
        return _rate_metric(name, "win rate by seat", {f"seat_win:{s}": (f"seat_win/{s}", "games") for s in seats})
    if base == "bot_win":
        bots = sorted(set(cfg.bots)) if not arg else [arg]
        if arg and arg not in cfg.bots:
            raise ConfigError(f"metric '{name}': bot '{arg}' is not at the table ({', '.join(cfg.bots)})")
        return _rate_metric(name, "win rate by bot", {f"bot_win:{b}": (f"bot_win/{b}", f"bot_n/{b}") for b in bots})
    if name in ("seat_spread", "seat_spread_raw", "bot_spread", "bot_spread_raw"):
        groups = _spread_groups(name, cfg)
        if groups is None:
            raise ConfigError(f"metric '{name}' needs two or more different bots at the table ({', '.join(cfg.bots)})")
        if name.endswith("_raw"):
            return Metric(name, f"highest minus lowest {groups[0]} win rate", _raw_spread(name, *groups))
        return _spread(name, *groups)
    if name == "shared_wins":
        return _rate_metric(name, "share of games with two or more winners", {name: ("shared_games", "games")})
    if name == f"mean_{game.length_column}":
        return _mean_metric(name, f"mean game length ({game.length_column})")
    if base == "rate" and arg:
        if arg not in columns["games"] or arg == "game":
            raise ConfigError(f"metric '{name}': {game.name} games table has no column '{arg}' (see: cardlab tables {game.name})")
        return _rate_metric(name, f"share of games with {arg}", {name: (f"nonzero/{arg}", "games")})
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
    names += ["seat_spread", "seat_spread_raw"]
    if len(set(cfg.bots)) > 1:
        names += ["bot_spread", "bot_spread_raw"]
    names += ["shared_wins", f"mean_{game.length_column}"]
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
