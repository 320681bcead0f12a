"""Run directories: one Parquet file per table per batch, and the ``run.json`` manifest.

Layout of a run directory::

    run.json                      run facts (config, hash, seed, bots, engine, code version,
                                  game count, batch size) and the list of finished batches
    <table>/part-00000.parquet    one file per table per batch; schema metadata key
                                  ``cardlab`` repeats the run facts and the batch range

Every file is written to a temporary name and renamed when complete, so a crash leaves
either a whole file or none. A batch is finished when all its table files exist.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pydantic
import pyarrow.parquet as pq

from sim.config import ConfigError, RunConfig

MANIFEST = "run.json"
META_KEY = b"cardlab"


class _Batch(pydantic.BaseModel):
    id: int
    start: int
    count: int


class Manifest(pydantic.BaseModel):
    """The schema of ``run.json``; extra keys are kept for forward compatibility."""

    model_config = pydantic.ConfigDict(extra="allow")
    game: str
    config: dict[str, Any]
    config_hash: str
    seed: int
    bots: list[str]
    engine: str
    games: pydantic.PositiveInt
    batch_size: pydantic.PositiveInt
    tables: list[str]
    code_version: str
    batches: list[_Batch] = []
    complete: bool = False


@lru_cache(maxsize=1)
def code_version() -> str:
    """Package version plus the git commit of the source tree when there is one."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("cardlab")
    except PackageNotFoundError:
        v = "0+unknown"
    try:
        root = Path(__file__).resolve().parent.parent
        rev = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
            capture_output=True, text=True, timeout=5,
        )
        if rev.returncode == 0:
            dirty = subprocess.run(
                ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                capture_output=True, text=True, timeout=5,
            )
            v += f"+g{rev.stdout.strip()}" + (".dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return v


@dataclass(frozen=True)
class RunFacts:
    """What identifies a run; two runs with equal facts produce equal data."""

    config: RunConfig
    games: int
    batch_size: int
    engine: str
    tables: tuple[str, ...]

    def identity(self) -> dict[str, Any]:
        return {
            "config_hash": self.config.digest(),
            "games": self.games,
            "batch_size": self.batch_size,
            "engine": self.engine,
        }

    def n_batches(self) -> int:
        return -(-self.games // self.batch_size)

    def batch_range(self, k: int) -> tuple[int, int]:
        start = k * self.batch_size
        return start, min(self.batch_size, self.games - start)


class RunDir:
    """A run directory on disk."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    # ---- manifest ---------------------------------------------------------------------
    def manifest(self) -> dict[str, Any]:
        f = self.path / MANIFEST
        try:
            doc = json.loads(f.read_text())
        except FileNotFoundError:
            raise ConfigError(f"not a run directory (no {MANIFEST}): {self.path}") from None
        except (OSError, json.JSONDecodeError) as e:
            raise ConfigError(f"cannot read {f}: {str(e).splitlines()[0]}") from None
        try:
            return Manifest.model_validate(doc).model_dump()
        except pydantic.ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "top level"
            raise ConfigError(f"{f} is not a cardlab manifest: {where}: {first['msg']}") from None

    def exists(self) -> bool:
        return (self.path / MANIFEST).exists()

    def open(self, facts: RunFacts) -> list[int]:
        """Create the run, or check an existing one matches; return finished batch ids."""
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(f"output path exists and is not a directory: {self.path}")
        if self.exists():
            old = self.manifest()
            mine = facts.identity()
            diff = [k for k in mine if old.get(k) != mine[k]]
            if diff:
                raise ConfigError(
                    f"{self.path} holds a run with another {', '.join(diff)}; "
                    "use a new --out directory"
                )
            return self.finished(facts)
        if self.path.is_dir() and any(self.path.iterdir()):
            raise ConfigError(f"output directory is not empty and holds no run: {self.path}")
        self.path.mkdir(parents=True, exist_ok=True)
        self._write_manifest(facts, [])
        return []

    def finished(self, facts: RunFacts) -> list[int]:
        return [k for k in range(facts.n_batches()) if all(self._file(t, k).exists() for t in facts.tables)]

    def record(self, facts: RunFacts) -> None:
        """Rewrite the manifest's batch list from the files on disk."""
        self._write_manifest(facts, self.finished(facts))

    def _write_manifest(self, facts: RunFacts, batches: list[int]) -> None:
        doc = run_meta(facts)
        doc["batches"] = [
            {"id": k, "start": facts.batch_range(k)[0], "count": facts.batch_range(k)[1]} for k in batches
        ]
        doc["complete"] = len(batches) == facts.n_batches()
        _atomic_write(self.path / MANIFEST, json.dumps(doc, indent=2).encode())

    # ---- batch files ------------------------------------------------------------------
    def _file(self, table: str, k: int) -> Path:
        return self.path / table / f"part-{k:05d}.parquet"

    def write_batch(self, facts: RunFacts, k: int, tables: dict[str, pd.DataFrame]) -> None:
        """Write every table of batch ``k`` atomically, with the run facts as metadata."""
        start, count = facts.batch_range(k)
        meta = run_meta(facts)
        meta["batch"] = {"id": k, "start": start, "count": count}
        blob = json.dumps(meta).encode()
        for name in facts.tables:
            at = pa.Table.from_pandas(tables[name], preserve_index=False)
            at = at.replace_schema_metadata({**(at.schema.metadata or {}), META_KEY: blob})
            f = self._file(name, k)
            f.parent.mkdir(parents=True, exist_ok=True)
            tmp = f.with_name(f.name + f".tmp{os.getpid()}")
            pq.write_table(at, tmp)
            os.replace(tmp, f)

    def files(self, table: str) -> list[Path]:
        return sorted((self.path / table).glob("part-*.parquet"))


def run_meta(facts: RunFacts) -> dict[str, Any]:
    """The run facts as a JSON-able dict (manifest and Parquet metadata)."""
    return {
        "game": facts.config.game,
        "config": facts.config.to_dict(),
        "config_hash": facts.config.digest(),
        "seed": facts.config.seed,
        "bots": list(facts.config.bots),
        "engine": facts.engine,
        "games": facts.games,
        "batch_size": facts.batch_size,
        "tables": list(facts.tables),
        "code_version": code_version(),
    }


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)
