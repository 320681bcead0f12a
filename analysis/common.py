"""Report sections every game gets: run facts, win rate by seat and by bot, game length."""

from __future__ import annotations

import pandas as pd

from analysis import charts, queries
from analysis.hooks import hook
from analysis.load import Run
from analysis.sections import Section


def run_facts(run: Run) -> Section:
    m = run.meta
    cfg = run.config
    game = run.game
    changed = {k: v for k, v in cfg.params.items() if game.param(k).default != v}
    facts = pd.DataFrame(
        [
            ("game", f"{game.title} ({cfg.game})"),
            ("games played", f"{run.games_done:,} of {m['games']:,}"),
            ("players", cfg.players),
            ("bots (table order, rotated by game)", ", ".join(cfg.bots)),
            ("seed", cfg.seed),
            ("engine", m["engine"]),
            ("config hash", m["config_hash"]),
            ("code version", m["code_version"]),
            ("parameters changed from defaults", ", ".join(f"{k}={v}" for k, v in changed.items()) or "none"),
            ("bot parameters set", ", ".join(f"{b}.{k}={v}" for b, kv in cfg.bot_params.items() for k, v in kv.items()) or "defaults"),
        ],
        columns=["fact", "value"],
    )
    facts["value"] = facts["value"].astype(str)
    return Section("Run facts", tables=[("Run facts", facts)])


def win_rates(run: Run) -> Section:
    n = run.config.players
    by_seat = queries.rates(run, "seats", "seat", "win")
    by_bot = queries.rates(run, "seats", "bot", "win")
    even = float(by_seat["successes"].sum() / by_seat["n"].sum())  # shared wins count for every sharer
    text = (
        f"Share of games won by each seat (turn order from seat 0) and by each bot, with 95% Wilson "
        f"intervals. Shared wins count as wins for every sharer, so an even table gives every seat the "
        f"mean win rate, {even:.3f} here (1/{n} = {1 / n:.3f} without shared wins)."
    )
    return Section(
        "Win rate by seat and by bot",
        text=text,
        tables=[("Win rate by seat", by_seat), ("Win rate by bot", by_bot)],
        figures=[
            ("Win rate by seat", charts.rate_bars(by_seat, "seat", "Win rate by seat (95% Wilson)", ref=even,
                                                         ylabel="win rate (share of games)", xlabel="seat (turn order)")),
            ("Win rate by bot", charts.rate_bars(by_bot, "bot", "Win rate by bot (95% Wilson)", ref=even,
                                                       ylabel="win rate (share of seat-games)")),
        ],
    )


def game_length(run: Run) -> Section:
    """The distribution of game length in the game's length column; what that column counts
    (the game's ``LENGTH_NOTE``, e.g. virus-dogs' turns without hard-quarantine steps) is said
    in the text, the caption and under the chart."""
    col = run.game.length_column
    note = hook(run.config.game, "LENGTH_NOTE") or ""
    counts, d = queries.distribution(run, "games", col)
    summary = pd.DataFrame(
        {
            "measure": ["mean", "standard deviation", "5th percentile", "25th percentile", "median", "75th percentile",
                        "95th percentile", "longest"],
            "value": [d["mean"], d["std"], *d["quantiles"], d["max"]],
        }
    )
    summary["value"] = summary["value"].map(lambda v: f"{v:.2f}" if not float(v).is_integer() else f"{int(v)}")
    unit = f"{col}: {note}" if note else col
    return Section(
        "Game length",
        text=f"Distribution of game length, measured in {col}" + (f": {note}" if note else "")
             + "; the chart stops at the 99th percentile and states the share of longer games and the longest.",
        tables=[(f"Game length ({unit})", summary)],
        figures=[(f"Game length distribution ({unit})",
                  charts.histogram(counts, f"Game length ({col})", f"game length ({col})" + (f"\n{note}" if note else "")))],
    )


def sections(run: Run) -> list[Section]:
    return [run_facts(run), win_rates(run), game_length(run)]

