"""The step contract: a fast engine driven one decision at a time from outside.

A game that has it sets ``step`` on its plug-in (``Game.step``) to a ``Step``. Its kernel
keeps the whole state of a game in progress in one int64 buffer declared with
``sim.kit.layout.Layout`` (engine state, generator counter, seats and bot parameters, and what the
game needs to go on: ``StepFields``), so a game is copied with ``buf.copy()``, and exposes five
functions (compiled, or Python functions over one compiled function) with the same names in
every game (docs/adding-a-game.md, "The step contract"):

    step_start(buf, seed, game_index, run)   game ``game_index`` of a run, up to its first decision
    step_pending(buf) -> (seat, kind)        the pending decision; (-1, -1) once the game is over
    step_legal(buf, out) -> n                its legal options into ``out[:n]``, canonical order
    step_apply(buf, option) -> status        answer it; go on to the next decision (0: done)
    step_play_on(buf)                        the seated bots play on to the end of the game (a game
                                             with scored rounds: of the round; then the next
                                             round's first decision is pending)

``step_legal`` is the game's compiled function; the others (and ``step_seats(buf, mask)``,
``resume_at(buf, stop)``) are ``StepFunctions`` over the game's one compiled ``step_go`` and its
``StepFields``, the same Python for every game (``step_pending`` reads the pending seat and kind
from the buffer). ``step_apply``'s statuses are ``STATUS``; ``BOT_ANSWER`` is no status and no
game's option.

``run`` is the game's run vector (``Step.run_vector``). Options are the game's integer
codes, listed in the order in which the reference engine lists the same decision's options,
so the option at position ``k`` of ``step_legal`` is the reference engine's ``legal[k]``.
Every decision a bot answers is a pending decision, one with a single legal option and one
made out of turn included. ``Forced`` feeds the same options to a reference engine.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

import numpy as np

NAMES = ("step_start", "step_pending", "step_legal", "step_apply", "step_play_on")
# ``step_apply``'s statuses
OK, OVER, ILLEGAL, TOO_MANY = 0, -1, -2, -3
STATUS = {OK: "applied", OVER: "the game is over", ILLEGAL: "not a legal option",
          TOO_MANY: "too many options applied"}
# An option no game lists and no status: applied (where a game accepts it) or answered by a
# search seat (``sim.kit.search``), the seat's own bot answers the pending decision.
BOT_ANSWER = -(1 << 31)
# The operations of a game's compiled ``step_go(b, op, x, seed, run)`` (see ``StepFunctions``)
GO_START, GO_SEATS, GO_APPLY, GO_PLAY_ON, GO_RESUME = range(5)
# ``stop`` codes (``StepFields``' ``stop``, ``resume_at``'s): the bots answer; up to the driver's next
# decision (a game may have further codes); a ``step_go`` part's "the game does not go on"
PLAY_ON, STOP_AT_NEXT, NOWHERE = 0, 1, -1
NO_RUN = np.zeros(1, dtype=np.int64)  # the ``run`` of a ``step_go`` operation that does not read it


class StepFields:
    """The step contract's fields of a game's buffer (``sim.kit.layout.Layout``): the same names, in
    the same order, with the same meaning in every game. They are declared in two calls, the
    game's own step fields (plain ``layout.scalar`` / ``block``, documented as the game's) around
    the second::

        STEP_FIELDS = StepFields(LAYOUT, replays=True, options=0)  # the scalars
        ... the game's own step scalars ...
        STEP_FIELDS.blocks(seats, script, snapshot, snapshot_doc, pending_state=0)
        ... the game's own step blocks ...

    so that the fields a copy of a game goes on from, shared and the game's own, can lie in one
    run (a game's search copies them in runs: its ``resume_copy``).

    Scalars: ``stepped`` and ``stop`` (``replays``: a game that goes on by playing its current
    unit again from the snapshot), ``driver_seats``, ``pending_seat``, ``pending_kind``,
    ``applied``, and ``pending_count`` (``options``: a game whose buffer lists the pending
    decision's options). Blocks: ``pending_options`` (``options`` slots), ``step_policies``
    (``seats`` slots; none for 0), ``script``, ``snapshot``, and ``pending_state`` (a game whose
    engine unwinds past the pending decision to the unit's end and then puts the state at the
    decision back). Each field's offset is the attribute of its name (-1: the game has none);
    ``scalars`` holds the scalars' offsets, ``blocks`` returns the blocks', in this order.
    ``sim.kit.kernel_util.save_snapshot`` and ``restore_snapshot`` copy the state to and from
    ``snapshot`` and ``pending_state``."""

    SCALARS = ("stepped", "stop", "driver_seats", "pending_seat", "pending_kind", "applied", "pending_count")
    BLOCKS = ("pending_options", "step_policies", "script", "snapshot", "pending_state")
    DOCS = {
        "stepped": "1 in a game driven through the step contract (0 in a batch game)",
        "stop": "how the engine goes on past the applied options: 0 the bots answer, 1 it stops at the "
                "driver's next decision (a game may have further codes: resume_at's stop)",
        "driver_seats": "bit s: the step driver answers seat s's decisions (all seats unless step_seats says "
                        "otherwise); the other seats' bots answer theirs",
        "pending_seat": "the seat of the pending decision, -1 when none (the game is over)",
        "pending_kind": "the kind of the pending decision (Step.kinds)",
        "applied": "entries of the script block: the options applied from outside in the current unit",
        "pending_count": "the pending decision's options listed in pending_options (or as the game's own fields say)",
        "pending_options": "the pending decision's legal options, canonical order",
        "step_policies": "seat s's bot policy in a driven game (a policies block, if any, reads STEP)",
        "script": "the options applied from outside in the current unit, in decision order (BOT_ANSWER: "
                  "the seat's bot answered)",
        "pending_state": "the engine state at the pending decision, while the engine unwinds past it",
    }

    def __init__(self, layout, replays: bool = True, options: int = 0):
        self.layout, self.options = layout, int(options)
        for name in self.SCALARS + self.BLOCKS:
            setattr(self, name, -1)
        wanted = {"stepped": replays, "stop": replays, "pending_count": self.options > 0}
        self.scalars = tuple(self._declare(name, 1, self.DOCS[name])
                             for name in self.SCALARS if wanted.get(name, True))

    def blocks(self, seats: int, script: int, snapshot: int, snapshot_doc: str,
               pending_state: int = 0, pending_state_doc: str = "") -> tuple[int, ...]:
        """Declare the blocks: ``pending_options`` (if ``options``), ``step_policies`` (``seats``
        slots, if any), ``script`` (the most options applied in one unit), ``snapshot``
        (``snapshot`` slots, ``snapshot_doc``: the state at the current unit's start, of what)
        and ``pending_state`` (``pending_state`` slots, if any, ``pending_state_doc``: of what).
        Returns their offsets in that order."""
        sizes = {"pending_options": self.options, "step_policies": seats, "script": script,
                 "snapshot": snapshot, "pending_state": pending_state}
        docs = {"snapshot": snapshot_doc,
                "pending_state": self.DOCS["pending_state"] + (": " + pending_state_doc if pending_state_doc else "")}
        optional = ("pending_options", "step_policies", "pending_state")
        return tuple(self._declare(name, sizes[name], docs.get(name, self.DOCS.get(name, "")))
                     for name in self.BLOCKS if name not in optional or sizes[name] > 0)

    def _declare(self, name: str, size: int, doc: str) -> int:
        offset = self.layout.block(name, size, doc)
        setattr(self, name, offset)
        return offset


class StepFunctions:
    """The step contract's Python entry points over a game's one compiled ``step_go(b, op, x,
    seed, run)`` (``sim.kit.kernel_util.step_op`` with the game's parts): numba
    code-generates the whole engine again for each compiled function that reaches it, so every
    call that plays on goes through that one. ``op``: ``GO_START`` game ``x`` of the run seeded
    ``seed`` (``run``: the run vector); ``GO_SEATS`` the driver's seats become the bit mask
    ``x``; ``GO_APPLY`` answer with option ``x`` (returns the status); ``GO_PLAY_ON``;
    ``GO_RESUME`` the current unit played again from its start (``x``: the stop code).
    ``fields``: the game's ``StepFields`` (``step_pending`` reads them)."""

    def __init__(self, step_go, fields: StepFields):
        self.step_go, self.fields = step_go, fields
        seat, kind = fields.pending_seat, fields.pending_kind

        def step_pending(b) -> tuple[int, int]:
            """The pending decision: (seat, kind: ``Step.kinds``), or (-1, -1) once the game is over
            (a closure over the offsets: faster than a compiled call or a method)."""
            return b.item(seat), b.item(kind)

        self.step_pending = step_pending

    def go(self, b, op: int, x=0, seed=0, run=NO_RUN) -> int:
        """``step_go(b, op, x, seed, run)`` with the contract's argument types."""
        return int(self.step_go(b, op, np.int64(x), np.uint64(seed), run))

    def step_start(self, b, seed, game_index, run) -> None:
        """Game ``game_index`` of the run with seed ``seed`` (``run``: ``run_vector``) into ``b``
        (any contents; SIZE slots), up to its first decision."""
        self.go(b, GO_START, game_index, seed, run)

    def step_seats(self, b, seats) -> None:
        """The step driver answers only the decisions of the seats in the bit mask ``seats``; the
        other seats' bots answer theirs (the game goes on to a driver seat's decision)."""
        self.go(b, GO_SEATS, seats)

    def step_apply(self, b, option) -> int:
        """Answer the pending decision with ``option`` (one of ``step_legal``'s), up to the next
        decision or the game's end (a game with scored rounds: or the next round's first decision).
        Returns ``STATUS``: 0, or (``b`` unchanged) -1 if the game is over, -2 for an option that is
        not legal, -3 once the game's most options were applied in one unit (not reached)."""
        return self.go(b, GO_APPLY, option)

    def step_play_on(self, b) -> None:
        """The seated bots play on from the pending decision to the end of the game (a game with
        scored rounds: of the round; then the next round's first decision is pending)."""
        self.go(b, GO_PLAY_ON)

    def resume_at(self, b, stop=PLAY_ON) -> None:
        """The current unit played again from its start with the options applied in it (``stop``:
        the stop code; the search's worlds, the tests)."""
        self.go(b, GO_RESUME, stop)

    def functions(self) -> tuple:
        """``step_start``, ``step_pending``, ``step_seats``, ``step_apply``, ``step_play_on``,
        ``resume_at``: a kernel module's entry points."""
        return self.step_start, self.step_pending, self.step_seats, self.step_apply, self.step_play_on, self.resume_at


class Step:
    """A game's step contract: the kernel's five functions and the Python side around them."""

    kinds: tuple[str, ...] = ()  # decision kind names by kind code (the reference engine's names)
    max_options: int = 0  # the most legal options of one decision (the ``out`` length for step_legal)
    # Rule overrides under which, together, every decision kind comes up (the contract test
    # drives random games under each of them and checks that every kind was asked).
    variants: tuple[dict, ...] = ({},)
    kernel_module: str = ""  # the kernel module's import name, for the default ``kernel``
    # the game's search part (sim.kit.search): determinize, resume_copy, rollout, score, search_decide
    # and the driver functions of its sim.kit.search.SearchDriver (start_search_game, search_option,
    # advance, run_search_games, search_batch); "" for a game without a search bot
    search_module: str = ""
    search_opponents: tuple[str, ...] = ()  # the scripted bots the search bench seats against one search seat
    # the game's observation module for the reinforcement-learning environment (``cardlab.env``):
    # action_count(cfg), action_ids(buf, options), SIZE (or size(buf) where the length varies) and
    # observe_into(buf, seat, out) (see ``observe``), out_of_game(buf, seat),
    # rewards(buf) (docs/reinforcement-learning.md); "" for a game without one
    observation_module: str = ""
    # the game's batched-environment module (``cardlab.vector_env``; sim/kit/vector.py says what it
    # holds); "" for a game without one
    vector_module: str = ""

    def __init__(self, game):
        self.game = game

    def kernel(self) -> ModuleType:
        """The kernel module (imports numba): ``NAMES``, ``SIZE`` and the game's ``run_vector``
        (default: ``kernel_module``, imported on first use)."""
        if not self.kernel_module:
            raise NotImplementedError
        return import_module(self.kernel_module)

    def search(self) -> ModuleType:
        """The game's search module (imports numba)."""
        if not self.search_module:
            raise NotImplementedError(f"{self.game.name} has no search bot")
        return import_module(self.search_module)

    def observation(self) -> ModuleType:
        """The game's observation module (``cardlab.env``)."""
        if not self.observation_module:
            raise NotImplementedError(f"{self.game.name} has no observation module")
        return import_module(self.observation_module)

    def run_vector(self, cfg) -> np.ndarray:
        """The int64 run vector ``step_start`` seats every game of ``cfg`` from (default: the
        kernel's ``run_vector(game, cfg)``)."""
        return self.kernel().run_vector(self.game, cfg)

    def start(self, cfg, index: int) -> np.ndarray:
        """A new buffer holding game ``index`` of ``cfg`` at its first decision."""
        k = self.kernel()
        buf = np.zeros(k.SIZE, dtype=np.int64)
        k.step_start(buf, np.int64(cfg.seed), np.int64(index), self.run_vector(cfg))
        return buf

    def outcome(self, cfg, buf: np.ndarray) -> dict[str, np.ndarray]:
        """The finished game's result arrays from its buffer, as ``reference_outcome`` gives them."""
        raise NotImplementedError

    def reference_outcome(self, cfg, index: int, options: list[int],
                          seats: int | None = None) -> tuple[dict[str, np.ndarray], list[tuple]]:
        """Game ``index`` in the reference engine (the plug-in's ``play_reference``), its first
        decisions answered by ``options`` (positions in each decision's legal list; with ``seats``,
        a bit mask, only those seats' decisions), the rest by the seated bots: its result arrays
        (``raw_outcome``) and, per decision asked, ``(seat, kind, number of legal options)``."""
        forced = Forced(options, seats)
        raw = self.game.new_arrays(cfg, 1)
        self.game.record(self.game.play_reference(cfg, index, wrap=forced.around), raw, 0)
        return self.raw_outcome(cfg, raw), forced.asked

    def raw_outcome(self, cfg, raw) -> dict[str, np.ndarray]:
        """One reference game's raw arrays (``Game.new_arrays(cfg, 1)``, recorded) as ``outcome``
        gives the fast engine's."""
        raise NotImplementedError


class Forced:
    """The reference engine's agent of a game driven through the step contract, in the one bot
    interface of every reference engine, ``decide(engine, seat, kind, legal) -> option`` (every
    decision asked, single options included): the first ``len(options)`` decisions (in the order
    the engine asks them, any seat) take the option at those positions of ``legal`` (a single
    option's position must be 0), the rest go to ``bots`` (``around``). ``asked`` lists ``(seat,
    kind, number of legal options)`` of every decision. With ``seats`` (a bit mask, as a kernel's
    ``step_seats``), only those seats' decisions take the options."""

    def __init__(self, options: list[int], seats: int | None = None):
        self.options, self.seats, self.used, self.bots = list(options), seats, 0, None
        self.asked: list[tuple[int, str, int]] = []

    def around(self, bots: Any) -> Forced:
        """This agent, the decisions it does not answer going to ``bots`` (the seats' agent)."""
        self.bots = bots
        return self

    def decide(self, engine: Any, seat: int, kind: str, legal) -> Any:
        k = self.answer(seat, kind, len(legal))
        return self.bots.decide(engine, seat, kind, legal) if k is None else legal[k]

    def answer(self, seat: int, kind: str, n: int) -> int | None:
        """The forced position of this decision (``n`` legal options), or None for the bots'."""
        self.asked.append((seat, kind, n))
        if self.seats is not None and not self.seats >> seat & 1:
            return None
        i = self.used
        self.used += 1
        if i >= len(self.options):
            return None
        k = self.options[i]
        if not 0 <= k < n:
            raise ValueError(f"decision {i} ({kind}, seat {seat}): option {k} of {n}")
        return k


def observe(view: ModuleType, buf: np.ndarray, seat: int) -> np.ndarray:
    """``seat``'s observation of the game in ``buf``, from a game's observation module ``view``
    (its length: ``view.size(buf)``, or ``view.SIZE`` in a module without ``size``), filled from zeros."""
    out = np.zeros(view.size(buf) if hasattr(view, "size") else view.SIZE, dtype=np.int64)
    view.observe_into(buf, np.int64(seat), out)
    return out
