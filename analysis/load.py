"""Load a run directory's tables for analysis."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

import pandas as pd
import pyarrow.dataset as ds

from sim.config import ConfigError, RunConfig
from sim.games import get_game
from sim.store import RunDir, require_intact


class Run:
    """A finished (or partial) run: its facts, its game plug-in and its tables."""

    def __init__(self, path: str | Path):
        self.dir = RunDir(path)
        self.path = self.dir.path
        self.meta = self.dir.manifest()
        require_intact(self.path)
        try:
            self.config = RunConfig.from_dict(self.meta["config"])
        except (KeyError, TypeError, ValueError):
            raise ConfigError(f"{self.path}/run.json is not a cardlab manifest") from None
        self.game = get_game(self.config.game)

    @property
    def games_done(self) -> int:
        return sum(b["count"] for b in self.meta.get("batches", []))

    def table(self, name: str, columns: list[str] | None = None) -> pd.DataFrame:
        """All finished batches of a table; ``sum`` tables are summed over batches by key."""
        if name not in self.game.tables:
            raise ConfigError(f"{self.config.game} has no table '{name}'")
        spec = self.game.tables[name]
        files = [str(f) for f in self.dir.files(name)]
        if not files:
            raise ConfigError(f"{self.path} has no finished batches of '{name}'")
        try:
            df = ds.dataset(files, format="parquet").to_table(columns=columns).to_pandas()
        except Exception as e:  # pyarrow raises many types for damaged files
            raise ConfigError(f"cannot read table '{name}' in {self.path}: {str(e).splitlines()[0]}") from None
        if spec.kind == "sum":
            keys = [k for k in spec.keys if columns is None or k in columns]
            if keys:
                df = df.groupby(keys, as_index=False, sort=True).sum()
        elif "game" in df.columns:
            order = ["game", "seat"] if "seat" in df.columns else ["game"]
            df = df.sort_values(order, kind="stable").reset_index(drop=True)
        return df

    @cached_property
    def games(self) -> pd.DataFrame:
        return self.table("games")

    @cached_property
    def seats(self) -> pd.DataFrame:
        return self.table("seats")
