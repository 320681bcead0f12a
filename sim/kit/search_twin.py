"""The reference engines' search seats: the same compiled search (``sim.kit.search``) asked through a
fast twin of the game, driven in lock step through the step contract.

The search is a bot, not a rule: a reference game with search seats keeps a fast-engine buffer
of the same game (same seed and index), whose search seats are the step driver's and whose
other seats are played by the same bots as the reference's. When the reference engine asks a
search seat, the twin is at the same decision; the search picks an option there, the twin takes
it, and the reference engine gets the option at the same position of its own legal list (or,
where the search leaves a decision to the seat's rollout bot, asks that bot itself).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from sim.kit.search import BOT_ANSWER, N_STATS


class SearchTwin:
    """The fast twin of reference game ``index`` of ``cfg``. ``search`` is the game's search
    module (``start_search_game``, ``search_option``) and ``kernel`` its kernel module (the step
    contract, ``new_state``, ``run_vector``)."""

    def __init__(self, game, cfg, index: int, kernel: ModuleType, search: ModuleType):
        self.kernel, self.search, self.seed, self.index = kernel, search, cfg.seed, index
        self.buf = kernel.new_state()
        self.seats = int(search.start_search_game(self.buf, np.uint64(cfg.seed), np.int64(index),
                                                  kernel.run_vector(game, cfg)))
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.options = np.zeros(game.step.max_options, dtype=np.int64)

    def is_search(self, seat: int) -> bool:
        return bool(self.seats >> seat & 1)

    def answer(self, seat: int, kind: int, count: int) -> int | None:
        """The search seat's choice at the reference engine's decision (``seat``, ``kind`` code,
        ``count`` legal options), as a position in the legal list, or None when the search
        leaves it to the seat's rollout bot (``BOT_ANSWER``); the twin takes it."""
        pending = tuple(int(x) for x in self.kernel.step_pending(self.buf))
        n = int(self.kernel.step_legal(self.buf, self.options))
        if pending != (seat, kind) or n != count:
            raise AssertionError(f"search twin out of step: the reference asks {(seat, kind, count)}, "
                                 f"the fast engine {pending + (n,)}")
        option = int(self.search.search_option(self.buf, self.seed, self.index, self.stats))
        position = None if option == BOT_ANSWER else int(np.flatnonzero(self.options[:n] == option)[0])
        self.kernel.step_apply(self.buf, np.int64(option))
        return position


def twin_of(game, cfg, index: int) -> SearchTwin:
    """The fast twin of reference game ``index`` of ``cfg`` that the reference engine's search
    seats ask: the plug-in wires it in, so the reference engine imports no kernel."""
    return SearchTwin(game, cfg, index, game.step.kernel(), game.step.search())


class SearchSeats:
    """The reference engine's agent at a table with search seats, in the one bot interface
    ``decide(engine, seat, kind, legal) -> option``: a search seat's decisions (single options
    included, so that the twin keeps step) take the option of the fast ``twin`` at the same
    position of ``legal``, or where the search leaves one to the seat's rollout bot, ``rollout``'s
    (default ``bots``); the other seats' go to ``bots``. ``kinds``: the decision kinds by code
    (``Step.kinds``)."""

    def __init__(self, bots, twin: SearchTwin, kinds: tuple[str, ...], rollout=None):
        self.bots, self.twin, self.kinds, self.rollout = bots, twin, kinds, bots if rollout is None else rollout

    def decide(self, engine, seat: int, kind: str, legal):
        if not self.twin.is_search(seat):
            return self.bots.decide(engine, seat, kind, legal)
        k = self.twin.answer(seat, self.kinds.index(kind), len(legal))
        return self.rollout.decide(engine, seat, kind, legal) if k is None else legal[k]
