"""``cardlab bench``: the fast engine's speed (one worker) next to the reference engine's, their
ratio, the first call's time (compile or cache load), and player decisions per second where the
games table counts them; for a game whose bench config is not its full default game, the full
default game too."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from cardlab.vector_bench import vector_bench


@dataclass
class Speeds:
    """Best-of-``repeat`` games per second of both engines on one config, and decision rates."""

    games: int
    reference_games: int
    fast: float
    reference: float
    rates: dict = field(default_factory=dict)  # decisions_per_s, reference_decisions_per_s

    @property
    def ratio(self) -> float:
        return self.fast / self.reference


@dataclass
class EngineBench:
    """One game's bench: its bench config's speeds, the first call's time, the full default
    game's speeds (None when the bench config is the full game) and the batched environment's
    steps per second (``cardlab.vector_bench``; empty without it)."""

    game: str
    unit: str
    players: int
    bots: list[str]
    repeat: int
    compile_s: float
    speeds: Speeds
    full_game: Speeds | None = None
    vector: dict = field(default_factory=dict)

    def record(self) -> dict:
        """The figures as ``cardlab bench --json`` prints them."""
        s = self.speeds
        r = {"game": self.game, "unit": self.unit, "players": self.players, "bots": self.bots,
             "fast_games_per_s": round(s.fast, 1), "reference_games_per_s": round(s.reference, 2),
             "ratio": round(s.ratio, 1), "compile_s": round(self.compile_s, 2), **s.rates}
        if self.full_game is not None:
            f = self.full_game
            r.update(full_game_games_per_s=round(f.fast, 1), full_game_reference_games_per_s=round(f.reference, 2),
                     full_game_ratio=round(f.ratio, 1))
        r.update(self.vector)
        return r


def engine_bench(game, games: int, reference_games: int, repeat: int) -> EngineBench:
    """Time both engines of ``game`` on its bench config (and on its full default game)."""
    cfg = game.bench_config()
    t = time.perf_counter()
    game.run_batch(cfg, 0, 2, "fast")
    compile_s = time.perf_counter() - t
    bench = EngineBench(game.name, game.unit, cfg.players, list(cfg.bots), repeat, compile_s,
                        speeds(game, cfg, games, reference_games, repeat))
    full = game.full_game_bench_config()
    if full is not None:
        bench.full_game = speeds(game, full, max(1, games // 10), max(5, reference_games // 5), repeat, rates=False)
    bench.vector = vector_bench(game.name, repeat)
    return bench


def speeds(game, cfg, games: int, reference_games: int, repeat: int, rates: bool = True) -> Speeds:
    """Best-of-``repeat`` speeds of both engines on ``cfg`` (warmed), and the decision rates."""
    game.run_batch(cfg, 0, min(games, 2000), "fast")  # warm caches
    game.run_batch(cfg, 0, min(reference_games, 5), "reference")
    fast_s, fast_frames = best_time(lambda: game.run_batch(cfg, 0, games, "fast"), repeat)
    ref_s, ref_frames = best_time(lambda: game.run_batch(cfg, 0, reference_games, "reference"), repeat)
    found = decision_rates(fast_frames, fast_s, ref_frames, ref_s) if rates else {}
    return Speeds(games, reference_games, games / fast_s, reference_games / ref_s, found)


def best_time(fn, repeat: int):
    """Shortest wall time of ``repeat`` calls (the usual timeit practice on a shared machine),
    and the last call's result."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def decision_rates(fast_frames, fast_s: float, ref_frames, ref_s: float) -> dict:
    """Player decisions per second of both engines, from the ``games`` table's ``decisions``
    column (empty when a game's table has no such column)."""
    if "decisions" not in fast_frames["games"].columns:
        return {}
    return {
        "decisions_per_s": round(int(fast_frames["games"]["decisions"].sum()) / fast_s, 1),
        "reference_decisions_per_s": round(int(ref_frames["games"]["decisions"].sum()) / ref_s, 2),
    }
