"""Run directories: one Parquet file per table per batch, and the ``run.json`` manifest.

Layout of a run directory::

    run.json                      run facts (config, hash, seed, bots, engine, code version,
                                  game count, batch size), the finished batches (each with the
                                  code version that played it and, per table, its file's row
                                  count and SHA-256) and the code changes allowed on resume;
                                  ``all_seeing: true`` when a seat plays the all-seeing bot
                                  (it sees the hidden cards: never a design run)
    <table>/part-00000.parquet    one file per table per batch; schema metadata key
                                  ``cardlab`` repeats the run facts and the batch range

    .cardlab.lock                 the writer lock (see ``writer_lock``)

Every file is written to a temporary name and renamed when complete, so a crash leaves
either a whole file or none. A batch is finished when ``run.json`` lists it; ``check_run``
compares every listed file with its record (present, same bytes), so damage done later is
found too, and a resume plays damaged batches again.

One process writes a run at a time: writers hold an OS lock on ``.cardlab.lock`` (released by
the kernel when the process ends, however it ends), and a second writer is refused at once.
Readers take no lock; they see the batches ``run.json`` lists, each file complete. ``run.json``
checks itself: its config must hash to its ``config_hash``. A lost or edited ``run.json`` can be
rebuilt from the run facts every batch file carries in its metadata (``rebuild_manifest``).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

import pandas as pd
import pyarrow as pa
import pydantic
import pyarrow.parquet as pq

from sim.kit.config import ConfigError, RunConfig
from sim.kit.search_params import seats_seeing

MANIFEST = "run.json"
LOCK = ".cardlab.lock"
NOTES = ("learned_policy",)  # manifest keys that describe a run beyond its facts, kept on resume (RunDir.keep)
META_KEY = b"cardlab"


class _File(pydantic.BaseModel):
    rows: int
    sha256: str


class _Batch(pydantic.BaseModel):
    id: int
    start: int
    count: int
    code_version: Optional[str] = None  # None in runs written before batches recorded it
    files: dict[str, _File] = {}  # per table; empty in runs written before files were recorded


class _CodeChange(pydantic.BaseModel):
    """A resume allowed (``--allow-code-change``) over batches of other code versions."""

    batches_from: list[str]
    to: str
    at: str


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
    code_changes: list[_CodeChange] = []


@lru_cache(maxsize=1)
def code_version() -> str:
    """Package version plus the git commit of the source tree when there is one; a tree with
    uncommitted changes adds ``.dirty`` and a digest of the ``sim`` sources, so that every
    edit of the simulation code gives another version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("cardlab")
    except PackageNotFoundError:
        v = "0+unknown"
    try:
        root = Path(__file__).resolve().parents[2]
        rev = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
            capture_output=True, text=True, timeout=5,
        )
        if rev.returncode == 0:
            dirty = subprocess.run(
                ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                capture_output=True, text=True, timeout=5,
            )
            v += f"+g{rev.stdout.strip()}" + (f".dirty.{_sources_digest()}" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return v


def _sources_digest() -> str:
    """First 8 hex digits of a SHA-256 over the ``sim`` package's source files."""
    sim = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for f in sorted(sim.rglob("*.py")):
        h.update(str(f.relative_to(sim)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:8]


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


@dataclass(frozen=True)
class Problem:
    """A finished batch whose file is missing or damaged, or a file of no finished batch."""

    file: str  # relative to the run directory, e.g. ``seats/part-00003.parquet``
    what: str  # e.g. ``is missing``
    batch: Optional[int] = None
    start: int = 0
    count: int = 0

    def __str__(self) -> str:
        where = f"batch {self.batch} (games {self.start}-{self.start + self.count - 1}): " if self.batch is not None else ""
        return f"{where}{self.file} {self.what}"


class RunDir:
    """A run directory on disk."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._batches: dict[int, dict[str, Any]] = {}
        self._code_changes: list[dict[str, Any]] = []
        self._extra: dict[str, Any] = {}  # further manifest keys (a stopping rule's record)
        self._notes: dict[str, Any] = {}  # manifest keys a run keeps when resumed (``keep``)

    # ---- manifest ---------------------------------------------------------------------
    def manifest(self) -> dict[str, Any]:
        """The checked ``run.json``: readable, of the manifest schema, and its config hashing to
        its ``config_hash``; otherwise a one-line ConfigError that says how to rebuild it."""
        f = self.path / MANIFEST
        try:
            doc = json.loads(f.read_text())
        except FileNotFoundError:
            if self.batch_files():
                raise ConfigError(f"{self.path} has batch files but no {MANIFEST}; {self._rebuild_hint()}") from None
            raise ConfigError(f"not a run directory (no {MANIFEST}): {self.path}") from None
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ConfigError(f"cannot read {f}: {str(e).splitlines()[0]}; {self._rebuild_hint()}") from None
        try:
            meta = Manifest.model_validate(doc).model_dump()
        except pydantic.ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "top level"
            raise ConfigError(f"{f} is not a cardlab manifest: {where}: {first['msg']}; {self._rebuild_hint()}") from None
        what = _facts_mismatch(meta)
        if what:
            raise ConfigError(f"{f} does not check: {what} (edited by hand?); restore it, or {self._rebuild_hint()}")
        return meta

    def _rebuild_hint(self) -> str:
        return f"rebuild it from the batch files with: cardlab resume {self.path} --rebuild-manifest"

    def batch_files(self) -> list[Path]:
        """Every complete batch file in the directory's table folders (listed in run.json or not)."""
        if not self.path.is_dir():
            return []
        return sorted(f for d in self.path.iterdir() if d.is_dir() for f in d.glob("part-*.parquet"))

    def exists(self) -> bool:
        return (self.path / MANIFEST).exists()

    def open(self, facts: RunFacts, allow_code_change: bool = False) -> tuple[list[int], list[Problem]]:
        """Create the run, or check an existing one matches and re-check its finished batches.

        Returns the intact finished batch ids and the problems of the damaged ones, which
        are dropped from the manifest (with the files of no finished batch) so that they
        are played again. Another code version is refused unless ``allow_code_change``,
        which is then recorded in ``code_changes``.
        """
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(f"output path exists and is not a directory: {self.path}")
        if not self.exists():
            if self.batch_files():
                raise ConfigError(f"{self.path} has batch files but no {MANIFEST}; {self._rebuild_hint()}")
            if self.path.is_dir() and any(f.name != LOCK for f in self.path.iterdir()):
                raise ConfigError(f"output directory is not empty and holds no run: {self.path}")
            _make_dir(self.path)
            self._write_manifest(facts)
            return [], []
        old = self.manifest()
        mine = facts.identity()
        diff = [k for k in mine if old.get(k) != mine[k]]
        if diff:
            raise ConfigError(f"{self.path} holds a run with another {', '.join(diff)}; use a new --out directory")
        self._code_changes = list(old["code_changes"])
        self._notes = {k: old[k] for k in NOTES if k in old}
        self._check_code_version(old, allow_code_change)
        problems = self.check_batches(old["batches"], facts.tables)
        bad = {p.batch for p in problems}
        self._batches = {b["id"]: b for b in old["batches"] if b["id"] not in bad}
        self._write_manifest(facts)
        for f in self.stray_files(facts.tables, self._batches):
            f.unlink(missing_ok=True)
        return sorted(self._batches), problems

    def _check_code_version(self, old: dict[str, Any], allow: bool) -> None:
        """A run resumes with a code version that played some of its batches or that
        ``--allow-code-change`` admitted before; any other needs ``allow`` (recorded)."""
        mine = code_version()
        played = {b["code_version"] or old["code_version"] for b in old["batches"]}
        if not played or mine in played | {c["to"] for c in self._code_changes}:
            return
        others = sorted(played)
        if not allow:
            raise ConfigError(
                f"{self.path} holds batches played by code version {', '.join(others)}, this is code version "
                f"{mine}; use a new --out directory, or --allow-code-change to resume with this code (recorded in run.json)"
            )
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self._code_changes.append({"batches_from": others, "to": mine, "at": at})

    def keep(self, facts: RunFacts, notes: dict[str, Any]) -> None:
        """Record ``notes`` (keys of ``NOTES``) in the manifest, kept when the run is resumed."""
        self._notes.update({k: v for k, v in notes.items() if k in NOTES})
        self._write_manifest(facts)

    def add_batch(self, facts: RunFacts, entry: dict[str, Any]) -> None:
        """Record a finished batch (the entry ``write_batch`` returned) in the manifest."""
        self._batches[entry["id"]] = entry
        self._write_manifest(facts)

    def note(self, facts: RunFacts, extra: dict[str, Any]) -> None:
        """Write ``extra`` keys (such as a stopping rule's ``stopping`` record and
        ``complete``) into the manifest, over the computed ones."""
        self._extra = dict(extra)
        self._write_manifest(facts)

    def drop_batches(self, facts: RunFacts, ids: list[int]) -> None:
        """Forget finished batches ``ids`` and delete their files (played beyond a stopping point)."""
        for k in ids:
            self._batches.pop(k, None)
        self._write_manifest(facts)
        for f in self.stray_files(facts.tables, self._batches):
            f.unlink(missing_ok=True)

    def discard(self, tables, created: bool) -> None:
        """Undo a new run that failed before it finished a batch (a scheduler that cannot be
        reached, an interrupt): remove its run.json, batch files, folders and lock file, and
        the directory itself when the run ``created`` it, so nothing blocks another run there."""
        try:
            if self.exists() and self.manifest()["batches"]:
                return
        except ConfigError:
            return
        if not self.exists():  # the run was never created here: files in the directory are not its own
            tables = ()
        for f in self.stray_files(tables, set()):
            f.unlink(missing_ok=True)
        for d in [self.path / t for t in tables]:
            if d.is_dir() and not any(d.iterdir()):
                d.rmdir()
        for name in (MANIFEST, LOCK):
            (self.path / name).unlink(missing_ok=True)
        if created and self.path.is_dir() and not any(self.path.iterdir()):
            self.path.rmdir()

    def _write_manifest(self, facts: RunFacts) -> None:
        doc = run_meta(facts)
        doc["batches"] = [self._batches[k] for k in sorted(self._batches)]
        doc["complete"] = len(self._batches) == facts.n_batches()
        doc["code_changes"] = self._code_changes
        doc.update(self._notes)
        doc.update(self._extra)
        try:
            _atomic_write(self.path / MANIFEST, json.dumps(doc, indent=2).encode())
        except OSError as e:
            raise ConfigError(f"cannot write {self.path / MANIFEST}: {e.strerror or e}") from None

    # ---- integrity --------------------------------------------------------------------
    def check_batches(self, batches: list[dict[str, Any]], tables) -> list[Problem]:
        """Problems of the listed batches' files: missing, unreadable, other rows or bytes."""
        problems = []
        for b in batches:
            expected = b.get("files") or {t: None for t in tables}  # older runs: readability only
            for table, rec in expected.items():
                what = _file_problem(self._file(table, b["id"]), rec)
                if what:
                    problems.append(Problem(self._rel(table, b["id"]), what, b["id"], b["start"], b["count"]))
        return problems

    def stray_files(self, tables, finished) -> list[Path]:
        """Batch files of none of the ``finished`` batch ids (left by a crash or a damaged batch)."""
        keep = {self._file(t, k) for t in tables for k in finished}
        found = [f for t in tables for f in (self.path / t).glob("part-*.parquet*")]
        return sorted(f for f in found if f not in keep)

    # ---- batch files ------------------------------------------------------------------
    def _file(self, table: str, k: int) -> Path:
        return self.path / table / f"part-{k:05d}.parquet"

    def _rel(self, table: str, k: int) -> str:
        return f"{table}/part-{k:05d}.parquet"

    def write_batch(self, facts: RunFacts, k: int, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
        """Write every table of batch ``k`` atomically, with the run facts as metadata.

        Returns the batch's manifest entry: range, code version, and per table the file's
        row count and SHA-256."""
        start, count = facts.batch_range(k)
        meta = run_meta(facts)
        meta["batch"] = {"id": k, "start": start, "count": count}
        blob = json.dumps(meta).encode()
        files = {}
        for name in facts.tables:
            at = pa.Table.from_pandas(tables[name], preserve_index=False)
            at = at.replace_schema_metadata({**(at.schema.metadata or {}), META_KEY: blob})
            f = self._file(name, k)
            tmp = f.with_name(f.name + f".tmp{os.getpid()}")
            try:
                f.parent.mkdir(parents=True, exist_ok=True)
                pq.write_table(at, tmp)
                files[name] = {"rows": at.num_rows, "sha256": _sha256(tmp)}
                os.replace(tmp, f)
            except OSError as e:
                raise ConfigError(f"cannot write {f}: {e.strerror or e}; finished batches are kept") from None
        return {"id": k, "start": start, "count": count, "code_version": meta["code_version"], "files": files}

    def read_batch(self, table: str, k: int, columns: list[str] | None = None) -> pd.DataFrame:
        """One table of finished batch ``k``."""
        try:
            return pq.read_table(self._file(table, k), columns=columns).to_pandas()
        except Exception as e:  # pyarrow raises many types for damaged files
            raise ConfigError(f"cannot read {self._file(table, k)}: {str(e).splitlines()[0]}") from None

    def files(self, table: str, manifest: Optional[dict[str, Any]] = None) -> list[Path]:
        """The table's files of the finished batches, in batch order (``manifest``: the
        manifest when already read)."""
        batches = (manifest or self.manifest())["batches"]
        return [self._file(table, b["id"]) for b in sorted(batches, key=lambda b: b["id"])]


def check_run(path: str | Path) -> list[Problem]:
    """Everything that makes a run directory disagree with its ``run.json``: missing or
    damaged files of finished batches, and batch files of no finished batch (unless a writer
    is at work, whose batches land before run.json lists them)."""
    rd = RunDir(path)
    meta = rd.manifest()
    problems = rd.check_batches(meta["batches"], meta["tables"])
    strays = [] if writer_active(rd.path) else rd.stray_files(meta["tables"], {b["id"] for b in meta["batches"]})
    for f in strays:
        problems.append(Problem(str(f.relative_to(rd.path)), "belongs to no finished batch in run.json"))
    return problems


def require_intact(path: str | Path) -> None:
    """Raise a one-line ConfigError naming the first problem of a run and how to repair it."""
    problems = check_run(path)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ConfigError(f"run {path}: {problems[0]}{more}; repair it with: cardlab resume {path}")


def _file_problem(f: Path, rec: Optional[dict[str, Any]]) -> Optional[str]:
    """Why a batch file does not match its record (None: it does; no record: readable)."""
    if not f.exists():
        return "is missing"
    if rec is not None and _sha256(f) == rec["sha256"]:
        return None
    try:
        rows = pq.read_metadata(f).num_rows
    except Exception as e:  # pyarrow raises several types for damaged files
        return f"is unreadable ({str(e).splitlines()[0]})"
    if rec is None:
        return None
    if rows != rec["rows"]:
        return f"has {rows} rows where run.json records {rec['rows']}"
    return "is damaged (its bytes differ from the SHA-256 in run.json)"


def _sha256(f: Path) -> str:
    with open(f, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


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
    } | ({"all_seeing": True} if seats_seeing(facts.config.bots) else {})


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _make_dir(path: Path, kind: str = "directory") -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot create {kind} {path}: {e.strerror or e}") from None


def _facts_mismatch(meta: dict[str, Any]) -> Optional[str]:
    """What makes a manifest's (or a batch file's) run facts disagree with themselves."""
    try:
        cfg = RunConfig.from_dict(meta["config"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return "its config is not a cardlab config"
    if cfg.digest() != meta["config_hash"]:
        return f"its config hashes to {cfg.digest()}, not to its config_hash {meta['config_hash']}"
    for key, value in (("game", cfg.game), ("seed", cfg.seed), ("bots", list(cfg.bots))):
        if meta.get(key) != value:
            return f"its {key} {meta.get(key)!r} is not its config's {value!r}"
    return None


# ---- one writer per directory --------------------------------------------------------------
@contextmanager
def writer_lock(path: str | Path, what: str, kind: str = "output directory"):
    """Hold the exclusive writer lock of directory ``path`` (created if need be) for the block.

    The lock is an ``flock`` on ``path/.cardlab.lock``: the kernel releases it when the process
    ends, killed or not, so a lock is never stale. A second writer is refused at once with a
    one-line ConfigError naming the process that holds it; ``what`` says what it writes, ``kind``
    what the directory is (for the message when it cannot be created)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"output path exists and is not a directory: {path}")
    _make_dir(path, kind)
    try:
        fd = os.open(path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise ConfigError(f"cannot lock {path}: {e.strerror or e}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.pread(fd, 4096, 0).decode(errors="replace").strip() or "another process"
        os.close(fd)
        raise ConfigError(f"{path} is being written by {holder}; wait for it to end, or use another directory") from None
    try:
        os.ftruncate(fd, 0)
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())
        os.pwrite(fd, f"pid {os.getpid()} ({what}: {_command_line()}, since {since})\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def writer_active(path: str | Path) -> bool:
    """Whether a process holds the writer lock of directory ``path`` now."""
    try:
        fd = os.open(Path(path) / LOCK, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def _command_line() -> str:
    words = [Path(sys.argv[0]).name, *sys.argv[1:]] if sys.argv and sys.argv[0] else ["python"]
    text = " ".join(words)
    return text if len(text) <= 200 else text[:197] + "..."


# ---- rebuilding run.json -------------------------------------------------------------------
def rebuild_manifest(path: str | Path) -> tuple[int, int]:
    """Write ``run.json`` anew from the run facts in the batch files' metadata (call under the
    writer lock). Batches whose every table file is present, readable and of the same run are
    finished; the rest are played by the next resume. Refuses a directory whose run.json checks,
    and batch files of different runs. Returns (finished batches, batch files read)."""
    rd = RunDir(path)
    if (rd.path / MANIFEST).exists():
        try:
            rd.manifest()
        except ConfigError:
            pass
        else:
            raise ConfigError(f"{rd.path / MANIFEST} is intact; there is nothing to rebuild")
    files = rd.batch_files()
    if not files:
        raise ConfigError(f"{rd.path} holds no batch files to rebuild {MANIFEST} from")
    facts, found = None, {}
    for f in files:
        meta = _file_meta(f)
        if meta is None:
            continue  # unreadable or not cardlab's: that batch is played again
        batch = {**meta.pop("batch"), "code_version": meta.pop("code_version", None)}
        if facts is None:
            facts = meta
        elif meta != facts:
            raise ConfigError(f"{f.relative_to(rd.path)} belongs to another run than "
                              f"{next(iter(found.values()))[0][1].relative_to(rd.path)}; cannot rebuild {MANIFEST}")
        found.setdefault(batch["id"], []).append((f.parent.name, f, batch))
    if facts is None:
        raise ConfigError(f"no batch file in {rd.path} is readable with its run facts; cannot rebuild {MANIFEST}")
    what = _facts_mismatch(facts)
    if what:
        raise ConfigError(f"the batch files' run facts do not check: {what}; cannot rebuild {MANIFEST}")
    batches = []
    for k in sorted(found):
        by_table = {t: (f, b) for t, f, b in found[k]}
        if set(by_table) != set(facts["tables"]):
            continue
        _, b = by_table[facts["tables"][0]]
        files_rec = {t: {"rows": pq.read_metadata(f).num_rows, "sha256": _sha256(f)} for t, (f, _) in by_table.items()}
        batches.append({"id": k, "start": b["start"], "count": b["count"], "code_version": b["code_version"],
                        "files": files_rec})
    n_batches = -(-facts["games"] // facts["batch_size"])
    rebuilt = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    first = next(iter(found.values()))[0][2]["code_version"]
    doc = {**facts, "code_version": first or "unknown", "batches": batches, "complete": len(batches) == n_batches, "code_changes": [],
           "rebuilt": {"at": rebuilt, "from_files": len(files)}}
    Manifest.model_validate(doc)
    try:
        _atomic_write(rd.path / MANIFEST, json.dumps(doc, indent=2).encode())
    except OSError as e:
        raise ConfigError(f"cannot write {rd.path / MANIFEST}: {e.strerror or e}") from None
    return len(batches), len(files)


def _file_meta(f: Path) -> Optional[dict[str, Any]]:
    """The run facts a batch file carries (None: unreadable, or no cardlab metadata)."""
    try:
        raw = (pq.read_schema(f).metadata or {}).get(META_KEY)
        return json.loads(raw) if raw else None
    except Exception:  # pyarrow raises many types for damaged files
        return None
