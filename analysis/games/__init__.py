"""Per-game report sections, found by game id.

Each module here exposes ``sections(run) -> list[Section]`` and may expose ``candidates(run, label)``
(its findings tests), ``verdict_marks(run, candidates, min_effect)`` (its verdict lines) and
``control_config(cfg)`` (the config of a control run its figures are measured against) and
``suggestion_key(cfg)`` (the config less the parameters its report suggests values for: a run
with the same key and other values is the check run of those suggestions). A game's plug-in
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
    """Give each run the run among ``runs`` that is its control (``run.control``) and the one
    that checks its suggestions (``run.check``: the same config but for the suggested
    parameters; the later of two given); None if absent. ``supporting(runs)`` names them."""
    by_digest = {r.config.digest(): r for r in runs}
    for run in runs:
        make = control_config_for(run.config.game)
        wanted = make(run.config) if make else None
        match = by_digest.get(wanted.digest()) if wanted is not None else None
        run.control = match if match is not run else None
        run.check = None
    keyed = [(r, _suggestion_key(r.config)) for r in runs]
    for i, (run, key) in enumerate(keyed):
        if key is not None and not getattr(run, "checks", False):
            later = [r for r, k in keyed[i + 1:] if k == key and r.config.digest() != run.config.digest()]
            run.check = later[0] if later else None
            if run.check is not None:
                run.check.checks = True


def _suggestion_key(cfg) -> str | None:
    make = hook(cfg.game, "suggestion_key")
    key = make(cfg) if make else None
    return key.digest() if key is not None else None


def supporting(runs: list) -> set[int]:
    """The ids of the runs that serve others (controls and check runs): references, not parts."""
    return {id(x) for r in runs for x in (getattr(r, "control", None), getattr(r, "check", None)) if x is not None}
