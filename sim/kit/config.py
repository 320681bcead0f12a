"""Shared configuration machinery: parameter tables, run configs, validation, hashing.

A game declares its rule parameters as ``Param`` rows (default, allowed values, source,
rule ID). A run's ``RunConfig`` (what it plays) is built from defaults, an optional TOML file
and ``key=value`` overrides, validated, frozen and hashed; its ``RunOptions`` say how it is
played (``sim.run.runner.run``). Every bad value raises
``ConfigError`` with a one-line message the CLI prints as is.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable


class ConfigError(ValueError):
    """A bad configuration value; its message is one line meant for the user."""


@dataclass(frozen=True)
class Param:
    """One configurable rule parameter.

    kind: ``int``, ``float``, ``bool``, ``choice`` (one of ``choices``) or ``set`` (a list
    whose items are drawn from ``choices``). ``lo``/``hi`` bound ints and floats.
    source: where the default comes from (``seed``, ``seed-weak``, ``found``, ``assumed``; ``variant``: a rule
    variant offered as a lever, off by default (its default is the printed rule); ``study``:
    an option of the study, not a rule of the game, such as the switch a control run needs).
    """

    name: str
    default: Any
    kind: str
    source: str
    rule: str
    doc: str = ""
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()

    def allowed(self) -> str:
        """Human-readable allowed values."""
        if self.kind in ("choice",):
            return " | ".join(str(c) for c in self.choices)
        if self.kind == "set":
            return "subset of {" + ", ".join(str(c) for c in self.choices) + "}"
        if self.kind == "bool":
            return "true | false"
        lo = "-inf" if self.lo is None else _num(self.lo)
        hi = "inf" if self.hi is None else _num(self.hi)
        return f"{self.kind} in [{lo}, {hi}]"

    def coerce(self, value: Any) -> Any:
        """Convert ``value`` (possibly a CLI string) to this parameter's type, or raise."""
        bad = ConfigError(f"bad value {value!r} for '{self.name}': expected {self.allowed()}")
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                return value.lower() in ("true", "1", "yes")
            raise bad
        if self.kind == "int":
            try:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError
                v = int(value)
            except (TypeError, ValueError):
                raise bad from None
            return self._bounded(v, bad)
        if self.kind == "float":
            try:
                v = float(value)
            except (TypeError, ValueError):
                raise bad from None
            return self._bounded(v, bad)
        if self.kind == "choice":
            choices = {str(c): c for c in self.choices}
            if str(value) not in choices:
                raise bad
            return choices[str(value)]
        if self.kind == "set":
            items = value.split(",") if isinstance(value, str) else list(value)
            items = [str(i).strip() for i in items if str(i).strip()]
            choices = {str(c): c for c in self.choices}
            for item in items:
                if item not in choices:
                    raise ConfigError(f"bad item {item!r} in '{self.name}': expected {self.allowed()}")
            return tuple(sorted({choices[i] for i in items}, key=list(self.choices).index))
        raise AssertionError(self.kind)

    def _bounded(self, v, bad):
        if (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
            raise bad
        return v


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@dataclass(frozen=True)
class BotParam:
    """Meaning and allowed range ``[lo, hi]`` of a bot parameter (one name, one meaning per game)."""

    name: str
    lo: float
    hi: float
    doc: str

    def allowed(self) -> str:
        return f"a number in [{_num(self.lo)}, {_num(self.hi)}]"

    def coerce(self, key: str, value: Any) -> float:
        """``value`` as a float inside the range, or a one-line ConfigError naming ``key``."""
        try:
            v = float(value)
        except (TypeError, ValueError):
            v = None
        if v is None or not self.lo <= v <= self.hi:
            raise ConfigError(f"bad value {value!r} for '{key}': expected {self.allowed()} ({self.doc})")
        return v


@dataclass(frozen=True)
class BotSpec:
    """A scripted policy: a name, its id in the kernel, and named parameters with defaults
    (ranges and meanings: the game's ``BotParam`` rows)."""

    name: str
    policy: int
    params: dict[str, float]
    doc: str = ""


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's results (except the game count)."""

    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    params: dict[str, Any] = field(default_factory=dict)
    bot_params: dict[str, dict[str, float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()},
            "bot_params": self.bot_params,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RunConfig":
        return cls(
            game=d["game"],
            players=int(d["players"]),
            bots=tuple(d["bots"]),
            seed=int(d["seed"]),
            params={k: tuple(v) if isinstance(v, list) else v for k, v in d["params"].items()},
            bot_params={k: dict(v) for k, v in d.get("bot_params", {}).items()},
        )

    def digest(self) -> str:
        """A stable hash of the config (seed included)."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def bot_param(self, bot: str, name: str, defaults: dict[str, float]) -> float:
        return self.bot_params.get(bot, {}).get(name, defaults[name])

    def bot_values(self, spec: BotSpec) -> dict[str, float]:
        """Every parameter of bot ``spec`` in declaration order: the run's override, else the default."""
        return {k: self.bot_param(spec.name, k, spec.params) for k in spec.params}


@dataclass(frozen=True)
class RunOptions:
    """How a run is played (what it plays is the config and the game count): local ``workers``
    or a Dask ``scheduler``, games per batch file (``batch_size``, default about 16 batches),
    the ``engine``, a progress bar, whether a run played by another code version may be resumed
    (``allow_code_change``), ``notify`` for the batches played again, and a ``stopping`` rule."""

    workers: int = 1
    batch_size: int | None = None
    engine: str = "fast"
    scheduler: str | None = None
    progress: bool = True
    allow_code_change: bool = False
    notify: Callable[[str], None] | None = None
    stopping: Any = None  # a sim.run.stopping.StoppingRule (sim.run.stopping builds on this module)
    notes: dict[str, Any] | None = None  # further run.json keys kept with the run (the learned bot's policy file)


@dataclass(frozen=True)
class Table:
    """Who plays what: ``players``, ``bots`` (a list or ``"a,b"``), ``seed``, ``params`` (rule and
    ``bot.<bot>.<param>`` values: a dict or ``"name=value"`` items), ``config_file`` (a TOML file
    with players, bots, seed, ``[params]`` and ``[bot_params.<bot>]``, or its dict) and the
    learned bot's ``policy`` file; the arguments win over the file, the file over the defaults."""

    players: int | None = None
    bots: Any = None
    seed: int | None = None
    params: Any = None
    config_file: Any = None
    policy: str | Path | None = None

    def bot_list(self) -> list[str] | None:
        """``"a, b"`` as ``["a", "b"]`` (empty names dropped); a list as it is; None or empty: None."""
        bots = self.bots
        if isinstance(bots, str):
            bots = [b.strip() for b in bots.split(",") if b.strip()]
        return list(bots) if bots else None

    def overrides(self) -> dict[str, Any]:
        """The rule and bot parameter values by name."""
        p = self.params
        return parse_overrides(p) if isinstance(p, (list, tuple)) else dict(p or {})

    def file(self) -> dict[str, Any] | None:
        """The config file's dict without ``games`` and ``workers`` (None without a file)."""
        if self.config_file is None or isinstance(self.config_file, dict):
            return self.config_file
        return without_run_keys(read_toml(self.config_file))

    def config(self, game, params: dict[str, Any] | None = None) -> RunConfig:
        """The checked config of ``game`` (a plug-in: ``make_config``), ``params`` over the table's."""
        return game.make_config(players=self.players, bots=self.bot_list(), seed=self.seed,
                                overrides={**self.overrides(), **(params or {})}, file=self.file())


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML config file; any failure is a one-line ConfigError."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}") from None
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"cannot read config file {path}: {str(e).splitlines()[0]}") from None


RUN_KEYS = ("games", "workers")  # a config file's keys of how much is played and by how many processes


def run_keys(doc: dict[str, Any], path: str | Path = "config file") -> dict[str, int]:
    """The ``games`` and ``workers`` of a config file's dict (those it gives), each a whole
    number of at least 1, or a one-line ConfigError."""
    out = {}
    for key in RUN_KEYS:
        if key in doc:
            v = doc[key]
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(f"bad value {v!r} for '{key}' in {path}: expected a whole number of at least 1")
            out[key] = v
    return out


def without_run_keys(doc: dict[str, Any]) -> dict[str, Any]:
    """A config file's dict without ``games`` and ``workers``: what the run plays."""
    return {k: v for k, v in doc.items() if k not in RUN_KEYS}


def parse_overrides(items: list[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` -> ``{"a": "1", "b": "x"}``."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"bad --set {item!r}: expected key=value")
        out[key.strip()] = value.strip()
    return out
