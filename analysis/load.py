"""Open a run directory for analysis: its facts, its game plug-in and SQL over its tables.

``Run.con`` is a DuckDB connection with one view per table of the game (``games``, ``seats``
and the game's own tables) over the run's Parquet batch files; ``sum`` tables are summed
by key across batches. Queries run out of core and multi-threaded and only their (small)
results come back to pandas::

    run = Run("demo/virus-dogs")
    run.sql("SELECT seat, avg(win::INT) AS win_rate FROM seats GROUP BY seat ORDER BY seat")

The connection is read-only and confined: queries are single SELECT (or EXPLAIN) statements,
and DuckDB may read the run's batch files and nothing else of the file system (external access
off, configuration locked), so a query can neither read other files nor write or delete any.
``Run(path, unrestricted=True)`` opens a connection without these limits, for a user who wants
DuckDB's full power over the views (``COPY``, ``ATTACH``, other files) and takes care of it.
"""

from __future__ import annotations

import os
import tempfile
from functools import cached_property
from pathlib import Path

import duckdb
import pandas as pd

from sim.kit.config import ConfigError, RunConfig
from sim.games import get_game
from sim.run.store import RunDir, require_intact

# DuckDB settings; override with CARDLAB_DUCKDB_THREADS / CARDLAB_DUCKDB_MEMORY (e.g. "2GB").
# Aggregations over the batch files stream, so a modest limit serves any number of games;
# what does not fit spills to a temporary directory.
DEFAULT_MEMORY = "512MB"
KEEP_ROWS = 10_000  # query results up to this many rows are kept for the next identical query


def cores() -> int:
    """CPU cores this process may run on."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _threads() -> int:
    env = os.environ.get("CARDLAB_DUCKDB_THREADS")
    if env:
        return max(1, int(env))
    return cores()


def _sql_list(files: list[Path]) -> str:
    return "[" + ", ".join("'" + str(f).replace("'", "''") + "'" for f in files) + "]"


class Run:
    """A finished (or partial) run: its facts, its game plug-in and SQL views of its tables."""

    def __init__(self, path: str | Path, unrestricted: bool = False):
        self.unrestricted = unrestricted
        self.dir = RunDir(path)
        self.path = self.dir.path
        self.meta = self.dir.manifest()
        require_intact(self.path)
        try:
            self.config = RunConfig.from_dict(self.meta["config"])
        except (KeyError, TypeError, ValueError):
            raise ConfigError(f"{self.path}/run.json is not a cardlab manifest") from None
        self.game = get_game(self.config.game)
        self._kept: dict[str, pd.DataFrame] = {}

    @property
    def games_done(self) -> int:
        return sum(b["count"] for b in self.meta.get("batches", []))

    def _files(self, name: str) -> list[Path]:
        if name not in self.game.tables:
            raise ConfigError(f"{self.config.game} has no table '{name}'")
        files = self.dir.files(name, self.meta)
        if not files:
            raise ConfigError(f"{self.path} has no finished batches of '{name}'")
        return files

    # ---- SQL ------------------------------------------------------------------------------
    @cached_property
    def con(self) -> duckdb.DuckDBPyConnection:
        """An in-memory DuckDB connection with one view per table of the run; confined to the
        run's batch files unless the run was opened ``unrestricted``."""
        con = duckdb.connect(config={
            "threads": _threads(),
            "memory_limit": os.environ.get("CARDLAB_DUCKDB_MEMORY", DEFAULT_MEMORY),
            "temp_directory": os.path.join(tempfile.gettempdir(), "cardlab-duckdb"),
            "preserve_insertion_order": False,
        })
        con.execute("SET enable_progress_bar = false")
        con.execute("SET parquet_metadata_cache = true")  # every query reads the same batch files
        for name, spec in self.game.tables.items():
            # no hive partitioning: a run directory named "<param>=<value>" (cardlab sweep) is not a column
            scan = f"read_parquet({_sql_list(self._files(name))}, hive_partitioning = false)"
            if spec.kind == "sum":
                scan = self._summed(con, scan, spec.keys)
            con.execute(f'CREATE VIEW "{name}" AS SELECT * FROM {scan}')
        if not self.unrestricted:
            files = [f for name in self.game.tables for f in self._files(name)]
            con.execute(f"SET allowed_paths = {_sql_list(files)}")
            con.execute("SET enable_external_access = false")
            con.execute("SET lock_configuration = true")
        return con

    def _read_only(self, query: str) -> None:
        """Refuse anything but one SELECT or EXPLAIN statement (unless unrestricted)."""
        if self.unrestricted:
            return
        try:
            statements = self.con.extract_statements(query)
        except duckdb.Error as e:
            raise self._query_error(e) from None
        if len(statements) != 1:
            raise ConfigError(f"give one query, not {len(statements)} statements")
        kind = statements[0].type
        if kind not in (duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN):
            raise ConfigError(f"queries over a run are read-only: a {kind.name} statement is refused "
                              "(SELECT or EXPLAIN only; --out writes the result)")

    def _query_error(self, e: duckdb.Error) -> ConfigError:
        """A DuckDB error as one line; a refused file access says why it was refused."""
        first = str(e).splitlines()[0]
        if isinstance(e, duckdb.PermissionException):
            return ConfigError(f"queries over a run read its own tables only ({', '.join(self.game.tables)}): {first}")
        return ConfigError(f"{first} (run {self.path})")

    @staticmethod
    def _summed(con: duckdb.DuckDBPyConnection, scan: str, keys: tuple[str, ...]) -> str:
        """A ``sum`` table's batches summed by key (sums cast back to BIGINT, not HUGEINT)."""
        cols = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {scan}").fetchall()]
        key_list = ", ".join(f'"{k}"' for k in keys)
        sums = ", ".join(f'sum("{c}")::BIGINT AS "{c}"' for c in cols if c not in keys)
        return f"(SELECT {key_list}, {sums} FROM {scan} GROUP BY {key_list} ORDER BY {key_list})"

    def sql(self, query: str, params: list | dict | None = None) -> pd.DataFrame:
        """Run a query over the run's views; the (small) result as a DataFrame.

        Errors (a bad query, a damaged file) are one-line ``ConfigError``s. A report asks some
        aggregates twice (win rates for the findings and for their section): small results of
        queries without parameters are kept, and each call gets its own copy.
        """
        if params is None and query in self._kept:
            return self._kept[query].copy()
        self._read_only(query)
        try:
            df = self.con.execute(query, params).df()
        except duckdb.Error as e:
            raise self._query_error(e) from None
        if params is None and len(df) <= KEEP_ROWS:
            self._kept[query] = df.copy()
        return df

    def relation(self, query: str) -> duckdb.DuckDBPyRelation:
        """A query as a lazy DuckDB relation (nothing is computed until it is read or written)."""
        self._read_only(query)
        try:
            rel = self.con.sql(query)
        except duckdb.Error as e:
            raise self._query_error(e) from None
        if rel is None:
            raise ConfigError("the statement returns no rows; give a query (SELECT ...)")
        return rel

    def head(self, query: str, n: int) -> pd.DataFrame:
        """The first ``n`` rows of a query's result."""
        try:
            return self.relation(query).limit(n).df()
        except duckdb.Error as e:
            raise self._query_error(e) from None

    def export(self, query: str, out: str | Path) -> int:
        """Write a query's result to ``out`` (``.csv`` or ``.parquet``, outside the run directory),
        streamed batch by batch from DuckDB through pyarrow, out of core; the file appears whole
        or not at all. Returns the number of rows written."""
        import pyarrow.csv as pcsv
        import pyarrow.parquet as pq

        out = Path(out)
        fmt = {".csv": "csv", ".parquet": "parquet"}.get(out.suffix.lower())
        if fmt is None:
            raise ConfigError(f"--out must end in .csv or .parquet, got {out.name}")
        if out.resolve().is_relative_to(self.path.resolve()):
            raise ConfigError(f"--out must be outside the run directory {self.path}")
        rel = self.relation(query)
        tmp = out.with_name(f"{out.name}.tmp{os.getpid()}")
        rows = 0
        try:
            reader = (rel.to_arrow_reader if hasattr(rel, "to_arrow_reader") else rel.fetch_record_batch)(100_000)
            writer = pq.ParquetWriter(tmp, reader.schema) if fmt == "parquet" else pcsv.CSVWriter(tmp, reader.schema)
            with writer:
                for batch in reader:
                    writer.write_batch(batch)
                    rows += batch.num_rows
            os.replace(tmp, out)
        except (duckdb.Error, OSError, ValueError) as e:
            raise ConfigError(f"cannot write {out}: {str(e).splitlines()[0]}") from None
        finally:
            tmp.unlink(missing_ok=True)
        return rows

    def columns(self, name: str) -> dict[str, str]:
        """Column name -> DuckDB type of a table's view."""
        rows = self.con.execute(f'DESCRIBE "{name}"').fetchall()
        return {r[0]: r[1] for r in rows}

    # ---- whole tables (notebooks, small runs) ---------------------------------------------
    def table(self, name: str, columns: list[str] | None = None) -> pd.DataFrame:
        """A whole table as one DataFrame (for notebooks and tests on small runs; reports use
        ``sql``). ``sum`` tables are summed over batches by key; rows in key order."""
        import pyarrow.dataset as ds  # here: reports do not read whole tables

        spec = self.game.tables.get(name)
        files = [str(f) for f in self._files(name)]
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
