"""Engine agreement checks: fast vs reference on many games, and replay vs stored rows."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.dataset as ds

from sim.kit.config import ConfigError, RunConfig
from sim.run.store import RunDir


def first_difference(a: pd.DataFrame, b: pd.DataFrame) -> str | None:
    """None if the frames are equal, else a one-line description of the first difference."""
    if list(a.columns) != list(b.columns):
        return f"columns {list(a.columns)} vs {list(b.columns)}"
    if len(a) != len(b):
        return f"{len(a)} rows vs {len(b)} rows"
    for col in a.columns:
        if a[col].dtype != b[col].dtype:
            return f"column '{col}' dtype {a[col].dtype} vs {b[col].dtype}"
        x, y = a[col].reset_index(drop=True), b[col].reset_index(drop=True)
        same = (x == y) | (x.isna() & y.isna())
        if not same.all():
            i = int((~same).to_numpy().nonzero()[0][0])
            where = f"game {a['game'].iloc[i]}" if "game" in a.columns else f"row {i}"
            if "seat" in a.columns:
                where += f" seat {a['seat'].iloc[i]}"
            return f"{where}, column '{col}': {x.iloc[i]!r} vs {y.iloc[i]!r}"
    return None


def compare_engines(game, cfg: RunConfig, games: int, batch: int = 500) -> str | None:
    """Play ``games`` games in both engines, batch by batch; describe the first mismatch."""
    for start in range(0, games, batch):
        count = min(batch, games - start)
        fast = game.run_batch(cfg, start, count, "fast")
        ref = game.run_batch(cfg, start, count, "reference")
        for name in game.tables:
            diff = first_difference(fast[name], ref[name])
            if diff:
                return f"table '{name}': {diff} (fast vs reference)"
    return None


def stored_rows(rd: RunDir, table: str, batch: int, game_index: int) -> pd.DataFrame:
    files = [f for f in rd.files(table) if f.name == f"part-{batch:05d}.parquet"]
    if not files:
        raise ConfigError(f"game batch {batch} is not finished in {rd.path}")
    t = ds.dataset([str(f) for f in files], format="parquet").to_table(filter=ds.field("game") == game_index)
    return t.to_pandas()


def replay_and_check(path: str | Path, game_index: int) -> tuple[list[str], str | None]:
    """Replay game ``game_index`` of a run; return the play-by-play and any mismatch."""
    from sim.games import get_game

    rd = RunDir(path)
    meta = rd.manifest()
    cfg = RunConfig.from_dict(meta["config"])
    if not 0 <= game_index < meta["games"]:
        raise ConfigError(f"--game must be in [0, {meta['games'] - 1}], got {game_index}")
    game = get_game(cfg.game)
    lines, tables = game.replay(cfg, game_index)
    batch = game_index // meta["batch_size"]
    for name, spec in game.tables.items():
        if spec.kind == "sum":
            continue
        stored = stored_rows(rd, name, batch, game_index)
        diff = first_difference(tables[name].reset_index(drop=True), stored.reset_index(drop=True))
        if diff:
            return lines, f"table '{name}': {diff} (replay vs stored)"
    return lines, None
