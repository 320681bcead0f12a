"""The game plug-in contract. The runner, store, CLI and report know games only through it.

A game package ``sim/games/<name>/`` exposes ``GAME``, an instance of a ``Game`` subclass
that fills in the class attributes and the engine hooks. ``Game`` owns everything shared:
config building and validation (bot parameter ranges included), engine validation, batching,
seat/bot rotation, bot parameter matrices and the seat key columns of the result tables. A
game supplies only

- ``new_arrays(cfg, count)``: the raw result arrays of ``count`` games, zeroed;
- ``fast_batch(cfg, start, count)``: its kernel call, returning filled raw arrays;
- ``play_reference(cfg, index, log, wrap)``: one finished reference-engine game, its seats
  played by ``reference_agent``;
- ``record(engine, raw, row)``: a finished reference game into row ``row`` of the raw arrays;
- ``build_tables(cfg, start, count, raw)``: the DataFrames (one per ``tables`` entry);
- ``scenario(spec)``.

``run_batch`` and ``replay`` are written once here from those hooks. The game imports nothing
of reports: it names its report module (``report_module``, e.g. ``analysis/games/<game>.py``)
and the prefixes of its rule IDs (``rule_id_prefixes``), so the plug-in is a game's one entry
in the registry (``sim.games``). Likewise it names its step contract's ``sim.kit.step.Step`` class
(``step_class``) and its learned bot's feature module (``learned_module``, ``sim.kit.learned``):
``step`` and ``learned`` import them on first use, so loading a game imports no numba.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from sim.kit.config import BotParam, BotSpec, ConfigError, Param, RunConfig
from sim.kit.search_params import seats_search

ENGINES = ("fast", "reference")


@dataclass(frozen=True)
class Table:
    """A result table a game writes.

    kind: ``game`` (one row per game, key column ``game``), ``seat`` (one row per seat per
    game, keys ``game``, ``seat``), another per-game row kind keyed by ``keys`` (daifugo's
    ``round``: keys ``game``, ``round``) or ``sum`` (an aggregate: rows keyed by ``keys`` whose
    other columns are sums; batches are combined by summing, so totals do not depend on
    batch size).
    """

    kind: str
    doc: str
    keys: tuple[str, ...] = ()
    # Columns every run of the game has, with their numpy/pandas dtype names (``str`` for
    # text). Runs may have more (for example one column per seat or per round).
    columns: tuple[tuple[str, str], ...] = ()


SEAT_KEYS = (("game", "int64"), ("seat", "int64"), ("bot", "str"))


def seat_bots(cfg: RunConfig, game_index: int) -> list[str]:
    """Python twin of the compiled ``seat_bot`` for reference engines: bot name per seat.

    Seat s plays ``cfg.bots[(s + i) % n]``, so over any n consecutive games every bot
    sits in every seat once and seat effects separate from bot effects.
    """
    n = len(cfg.bots)
    return [cfg.bots[(s + game_index) % n] for s in range(n)]


def seat_keys(cfg: RunConfig, start: int, count: int) -> dict[str, Any]:
    """Key columns of the seat rows of games ``start..start+count-1`` (game-major): ``game``,
    ``seat`` (int64) and ``bot`` (``str``, rotated as ``seat_bots``; a take from the n table
    names instead of one Python string per row)."""
    n = cfg.players
    game = np.repeat(np.arange(start, start + count, dtype=np.int64), n)
    seat = np.tile(np.arange(n, dtype=np.int64), count)
    names = pd.array(list(cfg.bots), dtype="str")
    return {"game": game, "seat": seat, "bot": names.take((seat + game) % n)}


def check_engine(engine: str) -> None:
    """One message for an unknown engine name."""
    if engine not in ENGINES:
        raise ConfigError(f"unknown engine '{engine}'; known: {', '.join(ENGINES)}")


class Game:
    """Base class of a game plug-in."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    params: ClassVar[tuple[Param, ...]]
    bots: ClassVar[dict[str, BotSpec]]
    bot_param_specs: ClassVar[tuple[BotParam, ...]] = ()  # range and meaning of every bot parameter
    default_bots: ClassVar[tuple[str, ...]]
    tables: ClassVar[dict[str, Table]]
    unit: ClassVar[str] = "games"  # what `bench` counts
    # Every game's tables have at least: games(game, <length_column>, winner),
    # seats(game, seat, bot, win). ``win`` is true for a sole or shared winner.
    length_column: ClassVar[str] = "turns"
    # Other games columns that count part of a game's length the length column leaves out (column ->
    # words), shown beside it in the report (virus-dogs' hard-quarantine steps).
    length_extra: ClassVar[dict[str, str]] = {}
    # The module of the game's report sections (``sections(run)`` and the other hooks of
    # ``analysis.games``), by name only; None: the shared sections alone.
    report_module: ClassVar[str | None] = None
    # The prefixes of the rule IDs its code cites (``VD`` of ``VD-4.2``), each defined in the
    # rules page docs/rules/<name>.md (tests/test_rule_ids.py).
    rule_id_prefixes: ClassVar[tuple[str, ...]] = ()
    # The import names of the game's ``sim.kit.step.Step`` subclass ("package.module.Class") and of its
    # learned bot's feature module (``sim.kit.learned``); "" for a game without one.
    step_class: ClassVar[str] = ""
    learned_module: ClassVar[str] = ""
    # What a designer may change (``sim.kit.levers.Lever``), the boolean games columns that mark a stall
    # (column -> words: "the turn cap"), the bot a strong population plays every seat with (checks of
    # advice under strong play; "" for none) and the prefixes of the game's own rule lines, which its
    # report module measures (daifugo's "precept_imbalance").
    levers: ClassVar[tuple] = ()
    stall_flags: ClassVar[dict[str, str]] = {}
    # A stall flag whose ending the printed rules do not decide: column -> (the assumed rule's ID in
    # the rules page, the rule in words). The verdict names it as a rule gap when the stall is frequent.
    assumed_ends: ClassVar[dict[str, tuple[str, str]]] = {}
    strong_bot: ClassVar[str] = ""
    own_line_prefixes: ClassVar[tuple[str, ...]] = ()

    @cached_property
    def step(self):
        """The step contract (sim.kit.step): the fast engine one decision at a time (None without one)."""
        if not self.step_class:
            return None
        module, _, name = self.step_class.rpartition(".")
        return getattr(import_module(module), name)(self)

    @cached_property
    def learned(self):
        """The learned bot's feature module (sim.kit.learned; None without one)."""
        return import_module(self.learned_module) if self.learned_module else None

    def rule_lines(self, cfg: RunConfig) -> list:
        """The verdict's rule lines that a metric measures (``sim.kit.levers.Line``): seat order, each
        stall flag, shared wins and the game length (a change of at most ``LENGTH_BAND`` either way)."""
        from sim.kit.levers import LENGTH_BAND, SEAT_BAND, SHARED_BAND, STALL_BAND, Line

        return [Line("seat_spread", "seat order", hi=SEAT_BAND, ideal=0.0),
                *(Line(f"rate:{f}", f"games that end {'at' if 'cap' in w else 'in'} {w}", hi=STALL_BAND)
                  for f, w in self.stall_flags.items()),
                Line("shared_wins", "games with a shared win", hi=SHARED_BAND),
                Line(f"mean_{self.length_column}", f"game length ({self.length_column})", hi=LENGTH_BAND, relative=True)]

    # ---- configuration (shared) -------------------------------------------------------
    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise ConfigError(f"unknown parameter '{name}' for {self.name} (see: cardlab rules {self.name})")

    def make_config(
        self,
        players: int | None = None,
        bots: list[str] | tuple[str, ...] | None = None,
        seed: int = 0,
        overrides: dict[str, Any] | None = None,
        file: dict[str, Any] | None = None,
    ) -> RunConfig:
        """Defaults, then the TOML dict ``file``, then explicit arguments and overrides."""
        file = dict(file or {})
        unknown = set(file) - {"players", "bots", "seed", "params", "bot_params"}
        if unknown:
            raise ConfigError(f"unknown config section(s): {', '.join(sorted(unknown))}")
        players = players if players is not None else file.get("players", self.default_players)
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ConfigError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, got {players}"
            )
        if seed is None:
            seed = file.get("seed", 0)
        if not isinstance(seed, int) or seed < 0 or seed >= 2**63:
            raise ConfigError(f"seed must be an integer in [0, 2**63), got {seed}")
        names = list(bots) if bots else list(file.get("bots", []))
        if not names:
            names = [self.default_bots[i % len(self.default_bots)] for i in range(players)]
        elif len(names) == 1:
            names = names * players
        if len(names) != players:
            raise ConfigError(f"--bots lists {len(names)} bots for {players} players")
        for b in names:
            if b not in self.bots:
                raise ConfigError(f"unknown bot '{b}' for {self.name}; known: {', '.join(self.bots)}")

        values = {p.name: p.default for p in self.params}
        bot_params: dict[str, dict[str, float]] = {}
        raw: dict[str, Any] = dict(file.get("params", {}))
        for bot, kv in file.get("bot_params", {}).items():
            for k, v in dict(kv).items():
                raw[f"bot.{bot}.{k}"] = v
        raw.update(overrides or {})
        for key, value in raw.items():
            if key.startswith("bot."):
                parts = key.split(".")
                if len(parts) != 3 or parts[1] not in self.bots:
                    raise ConfigError(f"unknown bot parameter '{key}' (form: bot.<bot>.<param>)")
                spec = self.bots[parts[1]]
                if parts[2] not in spec.params:
                    raise ConfigError(
                        f"unknown parameter '{parts[2]}' of bot '{parts[1]}'; known: {', '.join(spec.params) or 'none'}"
                    )
                v = self.bot_param_spec(parts[2]).coerce(key, value)
                bot_params.setdefault(parts[1], {})[parts[2]] = v
                continue
            values[key] = self.param(key).coerce(value)
        cfg = RunConfig(self.name, players, tuple(names), int(seed), values, bot_params)
        self.check(cfg)
        return cfg

    def check(self, cfg: RunConfig) -> None:
        """Cross-parameter checks; raise ConfigError. Override per game."""

    def bot_param_spec(self, name: str) -> BotParam:
        """The ``BotParam`` row of a bot parameter name."""
        for p in self.bot_param_specs:
            if p.name == name:
                return p
        raise ConfigError(f"bot parameter '{name}' of {self.name} has no declared range (bot_param_specs)")

    def seat_params(self, cfg: RunConfig, index: int) -> list[tuple[str, dict[str, float]]]:
        """Per seat of game ``index``: the bot name (``seat_bots``) and its resolved parameters."""
        return [(b, cfg.bot_values(self.bots[b])) for b in seat_bots(cfg, index)]

    def bot_matrix(self, cfg: RunConfig) -> tuple[np.ndarray, np.ndarray]:
        """Per table position: policy ids (int64[n]) and parameter rows (float64[n, k]).

        Parameter columns follow the union of all bots' parameter names in declaration
        order (``bot_param_names``); a bot without a parameter gets 0 there.
        """
        names = self.bot_param_names()
        policy = np.array([self.bots[b].policy for b in cfg.bots], dtype=np.int64)
        mat = np.zeros((len(cfg.bots), max(1, len(names))), dtype=np.float64)
        for i, b in enumerate(cfg.bots):
            spec = self.bots[b]
            for j, n in enumerate(names):
                if n in spec.params:
                    mat[i, j] = cfg.bot_param(b, n, spec.params)
        return policy, mat

    def bot_param_names(self) -> list[str]:
        out: list[str] = []
        for spec in self.bots.values():
            for n in spec.params:
                if n not in out:
                    out.append(n)
        return out

    # ---- batch and replay skeleton (shared) --------------------------------------------
    def run_batch(self, cfg: RunConfig, start: int, count: int, engine: str = "fast") -> dict[str, pd.DataFrame]:
        """Play games ``start .. start+count-1``; return one DataFrame per table in ``tables``."""
        check_engine(engine)
        if engine == "fast":
            raw = self.fast_batch(cfg, start, count)
        else:
            raw = self.new_arrays(cfg, count)
            for row in range(count):
                self.record(self.play_reference(cfg, start + row), raw, row)
        return self.build_tables(cfg, start, count, raw)

    def replay(self, cfg: RunConfig, index: int) -> tuple[list[str], dict[str, pd.DataFrame]]:
        """Play game ``index`` in the reference engine: play-by-play lines and its result tables."""
        log: list[str] = []
        raw = self.new_arrays(cfg, 1)
        self.record(self.play_reference(cfg, index, log), raw, 0)
        return log, self.build_tables(cfg, index, 1, raw)

    # ---- engine hooks (per game) ------------------------------------------------------
    def new_arrays(self, cfg: RunConfig, count: int) -> Any:
        """The raw result arrays of ``count`` games, zeroed, in the layout both engines fill."""
        raise NotImplementedError

    def fast_batch(self, cfg: RunConfig, start: int, count: int) -> Any:
        """Games ``start .. start+count-1`` in the compiled kernel: the filled raw arrays."""
        raise NotImplementedError

    def play_reference(self, cfg: RunConfig, index: int, log: list[str] | None = None, wrap=None) -> Any:
        """Game ``index`` played to the end in the reference engine (seated by ``seat_params``),
        appending its play-by-play lines to ``log`` when given; returns the finished engine. Its
        agent is ``reference_agent``'s (``wrap``: as there)."""
        raise NotImplementedError

    def reference_agent(self, cfg: RunConfig, index: int, bots: Any, wrap=None, rollout: Any = None) -> Any:
        """The agent of reference game ``index``: ``bots`` (the seats' bots, ``decide(engine,
        seat, kind, legal) -> option``, every reference engine's one bot interface), at a table
        with search seats ``sim.kit.search_twin.SearchSeats`` over a fast twin of the game (the search
        seats' rollout bots: ``rollout``, default ``bots``), given to ``wrap`` when set (the step
        contract's ``Forced.around``: a game driven from outside has no twin, its search seats play
        as their rollout bots in both engines)."""
        if wrap is not None:
            return wrap(bots)
        if not seats_search(cfg.bots):
            return bots
        from sim.kit.search_twin import SearchSeats, twin_of

        return SearchSeats(bots, twin_of(self, cfg, index), self.step.kinds, rollout)

    def record(self, engine: Any, raw: Any, row: int) -> None:
        """Write a finished reference game into row ``row`` of ``raw`` (and add to its sums)."""
        raise NotImplementedError

    def build_tables(self, cfg: RunConfig, start: int, count: int, raw: Any) -> dict[str, pd.DataFrame]:
        """One DataFrame per table in ``tables`` from filled raw arrays of games ``start..``."""
        raise NotImplementedError

    def scenario(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Run an explicit-state scenario (docs/scenarios.md) and return the resulting state."""
        raise NotImplementedError

    def bench_config(self) -> RunConfig:
        """The configuration ``cardlab bench`` times (defaults unless a game says otherwise)."""
        return self.make_config(players=self.default_players)

    def full_game_bench_config(self) -> RunConfig | None:
        """A second configuration ``bench`` times as a whole default game, where ``bench_config``
        times only a part of one (None: the game has none)."""
        return None
