"""The control run of a daifugō run's law effects: the base game, the same config with no law in
force. Madness mode switches the laws off (``laws = off``, DEC-53), so the precepts are drafted
as in the run and only the laws are gone; normal mode has no precepts and empties the rule deck.
``control_config`` is the report module's hook (``analysis.games.attach_controls`` matches the
control among the report's runs by config); ``control_command`` plays it.
"""

from __future__ import annotations

import dataclasses

# the glossary's "base game"
BASE_GAME = ("the same config with no law in force: in madness mode laws=off (DEC-53: each round's law card is "
             "set aside, the precepts are drafted as usual), in normal mode an empty rule deck")


def control_change(cfg) -> tuple[str, str]:
    """The parameter the control run of ``cfg`` changes and its command-line value: madness keeps its
    precepts and switches the laws off (DEC-53); normal mode empties the rule deck."""
    return ("laws", "off") if cfg.params.get("mode") == "madness" else ("rule_deck", "")


def control_config(cfg):
    """The config of the control run of ``cfg`` (the base game), so each law is measured against the
    same game without laws; None for a run with no law to measure."""
    if not cfg.params.get("rule_deck") or cfg.params.get("laws") == "off":
        return None
    key, _ = control_change(cfg)
    return dataclasses.replace(cfg, params={**cfg.params, key: "off" if key == "laws" else ()})


def base_game(control_cfg) -> str:
    """What a control run is, in a few words of the report, from its config."""
    if control_cfg.params.get("laws") == "off":
        return "the same config with laws=off: no law in force, the precepts drafted as in the run (DEC-53)"
    return "the same config with an empty rule deck: no law in force"


def control_command(run) -> str:
    """The command that plays the control run of ``run`` (for the report's advice)."""
    cfg, game = run.config, getattr(run, "game", None)
    key, value = control_change(cfg)
    if game is None:  # a run object without its plug-in (tests)
        return f"cardlab simulate daifugo ... --set {key}={value} --out BASE"
    text = lambda v: ",".join(map(str, v)) if isinstance(v, tuple) else str(v).lower() if isinstance(v, bool) else str(v)  # noqa: E731
    sets = "".join(f"--set {k}={text(v)} " for k, v in cfg.params.items()
                   if k != key and game.param(k).default != v)
    return (f"cardlab simulate daifugo --games {run.games_done} --players {cfg.players} --bots {','.join(cfg.bots)} "
            f"--seed {cfg.seed} {sets}--set {key}={value} --out {run.path}-base")
