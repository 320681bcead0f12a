"""Per-game report sections, found by game id.

Each module here exposes ``sections(run) -> list[Section]`` and may expose ``candidates(run, label)``
(its findings tests), ``verdict_marks(run, candidates, min_effect)`` (its verdict lines),
``what_to_change(run, candidates, min_effect)`` (the sentence its verdict page ends with) and
``control_config(cfg)`` (the config of a control run its figures are measured against). A run
may also carry ``run.advice``: the checked advice of ``cardlab suggest`` made from it
(``attach_advice``). A game's plug-in
names its report module (``Game.report_module``: ``analysis.games.<game>`` for the built-in
games, any module for a plug-in kept elsewhere); a game without one gets only the shared sections.
"""

from __future__ import annotations

from typing import Callable

from analysis.hooks import hook, report_module  # noqa: F401 (the games' report modules, by game id)


def sections_for(game: str) -> Callable | None:
    """The ``sections(run)`` function of a game id, or None when the game has no report module."""
    return hook(game, "sections")


def candidates_for(game: str) -> Callable | None:
    """The game's own findings tests ``candidates(run, label)``, or None when it has none."""
    return hook(game, "candidates")


def control_config_for(game: str) -> Callable | None:
    """The game's ``control_config(cfg)``: the config of the run its report measures rule
    effects against (daifugo: the base game, an empty rule deck), or None."""
    return hook(game, "control_config")


def attach_controls(runs: list) -> None:
    """Give each run the run among ``runs`` that is its control (``run.control``), or None.
    ``supporting(runs)`` names them."""
    by_digest = {r.config.digest(): r for r in runs}
    for run in runs:
        make = control_config_for(run.config.game)
        wanted = make(run.config) if make else None
        match = by_digest.get(wanted.digest()) if wanted is not None else None
        run.control = match if match is not run else None


def attach_advice(runs: list, advices: list[dict]) -> None:
    """Give each run the advice among ``advices`` (``cardlab suggest``'s advice.json, opened) made
    from it (``run.advice``, matched by the run's config digest), or None; an advice whose run is
    not among ``runs`` is a one-line ConfigError."""
    by_digest = {a["source_digest"]: a for a in advices}
    for run in runs:
        run.advice = by_digest.pop(run.config.digest(), None)
        run.advice_from = None
    if by_digest:
        from sim.kit.config import ConfigError

        lost = next(iter(by_digest.values()))
        raise ConfigError(f"the advice made from {lost['source']} needs that run in the report too")
    for run in runs:  # a run of the same rules whose bots an advice played as a population borrows it
        if run.advice is None:
            run.advice_from = next((a for a in advices if a.get("rules_digest") == rules_digest(run.config)
                                    and bots_population(run.config.bots) in populations_of(a)), None)
            run.advice = run.advice_from


def rules_digest(cfg) -> str:
    """What a run's rules are (game, players, parameters), whoever plays them."""
    import hashlib
    import json

    text = json.dumps([cfg.game, cfg.players, cfg.to_dict()["params"]], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def bots_population(bots) -> str:
    """The name a prescription's population of one bot in every seat goes by."""
    return f"{bots[0]} bots in every seat" if len(set(bots)) == 1 else ""


def populations_of(advice: dict) -> set[str]:
    return {name for p in advice.get("prescriptions", []) for name in p.get("populations", {})}


def supporting(runs: list) -> set[int]:
    """The ids of the runs that serve others (controls): references, not parts."""
    return {id(r.control) for r in runs if getattr(r, "control", None) is not None}
