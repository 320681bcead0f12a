"""The scenario envelope every game shares (docs/scenarios.md).

``parse_envelope`` checks the top-level fields of a scenario (names, types, player count,
parameters, seed, bots, decisions) with the same one-line ``ConfigError`` messages for every
game, and builds the run config. A game's ``scenario.py`` then loads its ``state``, runs its
reference engine with a script agent that counts decisions through a ``Script``, and adds
the shared output fields with ``decision_report``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from sim.kit.config import ConfigError, RunConfig

ENVELOPE_FIELDS = ("game", "players", "params", "seed", "state", "decisions", "bots", "stop_at_forced")


@dataclass(frozen=True)
class Envelope:
    """A checked scenario envelope. ``bots`` is one name per seat, or None (stop when the
    decision list runs out); ``extra`` holds the game's own envelope fields."""

    players: int
    seed: int
    params: dict[str, Any]
    state: dict[str, Any]
    decisions: list[dict[str, Any]]
    bots: list[str] | None
    stop_at_forced: bool
    config: RunConfig
    extra: dict[str, Any] = field(default_factory=dict)


def parse_envelope(game, spec: Any, players_from_state: Callable[[dict], int | None],
                   extra_fields: tuple[str, ...] = ()) -> Envelope:
    """Check a scenario's envelope for ``game``; ConfigError (one line) on malformed input.

    ``players_from_state(state)`` gives the player count a state implies when ``players``
    is left out (None: the game default); ``extra_fields`` are the game's own top-level
    fields, returned unchecked in ``Envelope.extra``.
    """
    if not isinstance(spec, dict):
        raise ConfigError("a scenario must be a JSON object")
    known = ENVELOPE_FIELDS + tuple(extra_fields)
    unknown = sorted(set(spec) - set(known))
    if unknown:
        raise ConfigError(f"unknown scenario field(s): {', '.join(unknown)}; known: {', '.join(known)}")
    if spec.get("game", game.name) != game.name:
        raise ConfigError(f"scenario is for game {spec.get('game')!r}, not {game.name}")
    state = _object(spec.get("state"), "state")
    players = spec.get("players")
    if players is None:
        players = players_from_state(state) or game.default_players
    elif isinstance(players, bool) or not isinstance(players, int):
        raise ConfigError(f"players must be an integer, got {players!r}")
    seed = spec.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ConfigError(f"seed must be an integer in [0, 2**63), got {seed!r}")
    params = _object(spec.get("params"), "params")
    bots = _bots(game, spec.get("bots"), players)
    stop = spec.get("stop_at_forced", False)
    if not isinstance(stop, bool):
        raise ConfigError(f"stop_at_forced must be true or false, got {stop!r}")
    decisions = spec.get("decisions")
    decisions = [] if decisions is None else decisions
    if not isinstance(decisions, list):
        raise ConfigError(f"decisions must be a list, got {decisions!r}")
    for i, d in enumerate(decisions):
        if not isinstance(d, dict):
            raise ConfigError(f"decision {i} must be an object, got {d!r}")
    cfg = game.make_config(players=players, bots=bots, seed=seed, overrides=params)
    extra = {k: spec[k] for k in extra_fields if k in spec}
    return Envelope(players, seed, params, state, decisions, bots, stop, cfg, extra)


def _object(value: Any, name: str) -> dict:
    """An optional JSON object field (null and absent are empty)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError(f"{name} must be an object, got {value!r}")
    return value


def _bots(game, value: Any, players: int) -> list[str] | None:
    """``bots``: one name per seat, or one name (a string or a one-item list) for every seat."""
    if value is None:
        return None
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(b, str) for b in names):
        raise ConfigError(f"bots must be a bot name or a list of bot names, got {value!r}")
    for b in names:
        if b not in game.bots:
            raise ConfigError(f"unknown bot '{b}' for {game.name}; known: {', '.join(game.bots)}")
    names = names * players if len(names) == 1 else names
    if len(names) != players:
        raise ConfigError(f"bots lists {len(names)} bots for {players} players")
    return list(names)


class Script:
    """The scenario's decision list and what became of each entry.

    Entries are consumed in order (``take``); an entry consumed for a decision that had a
    single option (taken by the engine without asking) is also noted as forced.
    """

    def __init__(self, decisions: list[dict]):
        self.decisions = decisions
        self.pos = 0
        self.forced: list[int] = []

    def next(self) -> dict | None:
        return self.decisions[self.pos] if self.pos < len(self.decisions) else None

    def take(self, forced: bool = False) -> None:
        if forced:
            self.forced.append(self.pos)
        self.pos += 1

    def report(self) -> dict[str, list]:
        return decision_report(self.decisions, self.pos, self.forced)


def decision_report(decisions: list[dict], used: int, forced: list[int]) -> dict[str, list]:
    """The output fields about the list: ``unused_decisions`` (every entry from ``used`` on:
    never applied, an illegal one included) and ``forced_decisions`` (entries taken as the
    only option of a decision the engine applied without asking)."""
    return {
        "unused_decisions": [{"index": i, "decision": decisions[i]} for i in range(used, len(decisions))],
        "forced_decisions": [{"index": i, "decision": decisions[i]} for i in forced],
    }
