"""Report sections every game gets: run facts, win rate by seat and by bot, game length."""

from __future__ import annotations

import pandas as pd

from analysis import charts, queries
from analysis.glossary import weight_words
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
            ("bot parameters set", "; ".join(f"{b}: {weight_words(k)} {v:.3g}" if isinstance(v, float) else
                                             f"{b}: {weight_words(k)} {v}"
                                             for b, kv in cfg.bot_params.items() for k, v in kv.items()) or "defaults"),
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


SECONDS_PER_DECISION = 5.0  # the playing-time estimate: seconds a player takes for one decision at the table


def length_table(run: Run) -> pd.DataFrame:
    """Game length in every unit the run records: the length column, the game's ``length_extra``
    columns (virus-dogs' hard-quarantine steps), the decisions (``decisions``, every game has it)
    and the playing time they take at ``SECONDS_PER_DECISION`` (minutes): mean, median, 95th
    percentile and longest."""
    cols = run.columns("games")
    units = {run.game.length_column: run.game.length_column, **getattr(run.game, "length_extra", {})}
    units = {c: w for c, w in units.items() if c in cols}
    if "decisions" in cols:
        units["decisions"] = "decisions (all players)"
    if not units:
        return pd.DataFrame()
    parts = ", ".join(f"avg({c}) AS m_{c}, median({c}) AS q50_{c}, quantile_cont({c}, 0.95) AS q95_{c}, max({c}) AS x_{c}"
                      for c in units)
    got = queries.one(run, f"SELECT {parts} FROM games")
    rows = [{"measure": w, "mean": got[f"m_{c}"], "median": got[f"q50_{c}"], "95th percentile": got[f"q95_{c}"],
             "longest": got[f"x_{c}"]} for c, w in units.items()]
    if "decisions" in units:
        rows.append({"measure": f"estimated playing time (minutes, {SECONDS_PER_DECISION:g} s a decision)",
                     **{k: v * SECONDS_PER_DECISION / 60 for k, v in rows[-1].items() if k != "measure"}})
    return pd.DataFrame(rows)


def game_length(run: Run) -> Section:
    """The distribution of game length in the game's length column; what that column counts
    (the game's ``LENGTH_NOTE``, e.g. virus-dogs' turns without hard-quarantine steps) is said
    in the text, the caption and under the chart; then the length in every unit the run records
    with an estimated playing time (``length_table``)."""
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
    units = length_table(run)
    time = ("" if units.empty or "decisions" not in run.columns("games") else
            f" The last table gives the length in every unit the run records and an estimated playing time: the "
            f"decisions of all players at {SECONDS_PER_DECISION:g} seconds each (a parameter, "
            f"analysis.common.SECONDS_PER_DECISION; shuffling and dealing not counted).")
    return Section(
        "Game length",
        text=f"Distribution of game length, measured in {col}" + (f": {note}" if note else "")
             + "; the chart stops at the 99th percentile and states the share of longer games and the longest." + time,
        tables=[(f"Game length ({unit})", summary)] + ([("Game length in turns, steps and decisions, and the estimated "
                                                         "playing time", units)] if not units.empty else []),
        figures=[(f"Game length distribution ({unit})",
                  charts.histogram(counts, f"Game length ({col})", f"game length ({col})" + (f"\n{note}" if note else "")))],
    )


def sections(run: Run) -> list[Section]:
    return [run_facts(run), win_rates(run), game_length(run)]

