"""Reference engine of high card with one redraw: plain Python, the kernel's draws (kernel/__init__.py's protocol)."""

from __future__ import annotations

from types import SimpleNamespace

from sim.rng import Rng
from tests.toy_game import Played

KEEP, REDRAW = 0, 1


class Bot:
    """Redraws a card below ``nerve`` x 13 while the game's redraws last (every bot, and a search
    seat without its fast twin)."""

    def __init__(self, nerve: float):
        self.nerve = nerve

    def decide(self, eng, seat: int, kind: str, legal: list[int], ctx) -> int:
        return legal.index(REDRAW) if REDRAW in legal and eng.cards[seat] < self.nerve * 13 else 0


class SearchSeat:
    """A search seat: the compiled search asked through the game's fast twin (``sim.search_twin``)."""

    def __init__(self, twin):
        self.twin = twin

    def decide(self, eng, seat: int, kind: str, legal: list[int], ctx) -> int:
        return self.twin.answer(seat, 0, len(legal))


def play(cfg, index: int, seats: list[tuple[str, dict]], agents: list, log: list[str] | None = None) -> Played:
    """Game ``index``: the deal, then each seat in turn keeps or redraws (``agents[s].decide``)."""
    r = Rng(cfg.seed, index)
    eng = SimpleNamespace(cards=[r.randbelow(13) for _ in seats])
    used = 0
    for s, agent in enumerate(agents):
        legal = [KEEP, REDRAW] if used < cfg.params["redraws"] else [KEEP]
        dealt = eng.cards[s]
        redraw = legal[agent.decide(eng, s, "redraw", legal, {})] == REDRAW
        if redraw:
            eng.cards[s], used = r.randbelow(13), used + 1
        if log is not None:
            log.append(f"seat {s} ({seats[s][0]}) " + (f"redraws {dealt}: {eng.cards[s]}" if redraw else f"keeps {dealt}"))
    final = [c + (cfg.params["lucky_bonus"] if bot == "lucky" else 0) for c, (bot, _) in zip(eng.cards, seats)]
    return Played(len(seats), final, [s for s, c in enumerate(final) if c == max(final)])
