"""Reference engine of high card with one redraw: plain Python, the kernel's draws (kernel/__init__.py's protocol)."""

from __future__ import annotations

from types import SimpleNamespace

from sim.kit.rng import Rng
from tests.toy_game import Played

KEEP, REDRAW = 0, 1


class Bots:
    """The seats' bots in the reference engine's bot interface ``decide(engine, seat, kind, legal)
    -> option``: seat s redraws a card below ``nerves[s]`` x 13 while the game's redraws last
    (every bot, and a search seat without its fast twin)."""

    def __init__(self, nerves: list[float]):
        self.nerves = nerves

    def decide(self, eng, seat: int, kind: str, legal: list[int]) -> int:
        return REDRAW if REDRAW in legal and eng.cards[seat] < self.nerves[seat] * 13 else KEEP


def play(cfg, index: int, seats: list[tuple[str, dict]], agent, log: list[str] | None = None) -> Played:
    """Game ``index``: the deal, then each seat in turn keeps or redraws (``agent.decide``)."""
    r = Rng(cfg.seed, index)
    eng = SimpleNamespace(cards=[r.randbelow(13) for _ in seats])
    used = 0
    for s in range(len(seats)):
        legal = [KEEP, REDRAW] if used < cfg.params["redraws"] else [KEEP]
        dealt = eng.cards[s]
        redraw = agent.decide(eng, s, "redraw", legal) == REDRAW
        if redraw:
            eng.cards[s], used = r.randbelow(13), used + 1
        if log is not None:
            log.append(f"seat {s} ({seats[s][0]}) " + (f"redraws {dealt}: {eng.cards[s]}" if redraw else f"keeps {dealt}"))
    final = [c + (cfg.params["lucky_bonus"] if bot == "lucky" else 0) for c, (bot, _) in zip(eng.cards, seats)]
    return Played(len(seats), final, [s for s, c in enumerate(final) if c == max(final)])
