"""The search space of ``cardlab tune``: ``name=lo..hi`` (int or float, by the parameter's type),
``name=a,b,c`` (categorical), ``bot.<bot>.<param>`` for bot parameters, from the command line and
a TOML file's ``[space]`` table."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.kit.config import ConfigError, RunConfig, read_toml


@dataclass(frozen=True)
class Dim:
    """One searched parameter: an int or float range, or a list of choices."""

    name: str
    kind: str  # int | float | categorical
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()

    def suggest(self, trial) -> Any:
        if self.kind == "int":
            return trial.suggest_int(self.name, int(self.lo), int(self.hi))
        if self.kind == "float":
            return trial.suggest_float(self.name, float(self.lo), float(self.hi))
        return trial.suggest_categorical(self.name, list(self.choices))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "lo": self.lo, "hi": self.hi, "choices": list(self.choices)}


def space_items(space: dict[str, Any] | list[str] | None) -> list[str]:
    """A space given as ``{name: (lo, hi) | [choices] | "lo..hi"}`` as CLI-style ``name=...`` items."""
    if not isinstance(space, dict):
        return list(space or [])

    def text(v: Any) -> str:
        if isinstance(v, tuple) and len(v) == 2:
            return f"{v[0]}..{v[1]}"
        return ",".join(str(x) for x in v) if isinstance(v, (list, set)) else str(v)

    return [f"{k}={text(v)}" for k, v in space.items()]


def parse_space(game, items: list[str], file: str | Path | None = None) -> list[Dim]:
    """Dims from ``name=lo..hi`` / ``name=a,b`` items and a TOML file's ``[space]`` table."""
    raw: dict[str, Any] = {}
    if file is not None:
        doc = read_toml(file)
        if not isinstance(doc.get("space"), dict) or set(doc) - {"space"}:
            raise ConfigError(f"space file {file} must hold one [space] table")
        raw.update(doc["space"])
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ConfigError(f"bad --space {item!r}: expected name=lo..hi or name=a,b,c")
        raw[name.strip()] = value.strip()
    if not raw:
        raise ConfigError("the search space is empty: give --space name=lo..hi or --space-file")
    return [_dim(game, name, value) for name, value in raw.items()]


def _dim(game, name: str, value: Any) -> Dim:
    coerce, kind = _coercer(game, name)
    if isinstance(value, dict):
        if set(value) != {"low", "high"}:
            raise ConfigError(f"space '{name}': a table needs exactly low and high")
        value = (value["low"], value["high"])
    elif isinstance(value, str) and ".." in value:
        value = tuple(v.strip() for v in value.split("..", 1))
    elif isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, tuple):
        if kind not in ("int", "float"):
            raise ConfigError(f"space '{name}': a {kind} parameter takes a list of values, not a range")
        lo, hi = coerce(value[0]), coerce(value[1])
        if lo > hi:
            raise ConfigError(f"space '{name}': empty range {lo}..{hi}")
        return Dim(name, kind, lo, hi)
    choices = tuple(coerce(v) for v in value)
    if not choices:
        raise ConfigError(f"space '{name}': no values")
    if any(isinstance(c, tuple) for c in choices):
        raise ConfigError(f"space '{name}': set parameters cannot be searched")
    return Dim(name, "categorical", choices=tuple(dict.fromkeys(choices)))


def _coercer(game, name: str):
    """(value converter, kind) of a rule parameter or ``bot.<bot>.<param>``."""
    if name.startswith("bot."):
        parts = name.split(".")
        if len(parts) != 3 or parts[1] not in game.bots or parts[2] not in game.bots[parts[1]].params:
            raise ConfigError(f"unknown bot parameter '{name}' in the space (see: cardlab rules {game.name})")
        spec = game.bot_param_spec(parts[2])
        return (lambda v: spec.coerce(name, v)), "float"
    p = game.param(name)
    return p.coerce, p.kind


def param_value(game, cfg: RunConfig, name: str) -> Any:
    """A searched parameter's value in ``cfg`` (rule parameter or ``bot.<bot>.<param>``)."""
    if name.startswith("bot."):
        _, bot, key = name.split(".")
        return cfg.bot_param(bot, key, game.bots[bot].params)
    return cfg.params.get(name)
