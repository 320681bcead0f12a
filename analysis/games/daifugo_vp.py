"""Daifugō's precept line for ``cardlab suggest``: the precept VPs to print, played before they are advised.

From the run's draft-order-free card power (``analysis.games.daifugo_power``) it proposes a whole-VP
change for every uneven card worth at least half a VP, then plays the check itself: each round
plays the VPs now and the proposed VPs on the same fresh seed (so on the same deals), compares
them card by card and as a set (mean absolute edge), and revises every changed card that the
check left further from even (a smaller change, or none: "VP cannot fix it, change the card's
text") before playing again, up to ``MAX_ROUNDS`` rounds. The answer is the last checked set in
which no changed card ended further from even and the set imbalance fell; if there is none,
no VP change is advised. The rounds' runs are kept in ``OUT``; ``prescription`` gives the answer in the shape of every
prescription (``analysis.advice``), played also by the strong population.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable

from analysis.games import daifugo_power as power
from sim.kit.config import ConfigError

SEED_OFFSET = 3_000_017  # check rounds play the source seed + this + the round number
MAX_ROUNDS = 3
MAX_SCALE = 10
VP = "precept_vp_{:02d}"
# the points of a final score: on a point scale k times finer, each is k times larger (the same game)
POINT_PARAMS = (*(f"rank_points_{i}" for i in range(1, 7)), "capital_fall_bonus")
VP_WEIGHT = "draft_vp_weight"  # a bot parameter that weighs VP: on a finer scale it weighs each VP less


def scaled(source, scale: int, config=None) -> tuple[dict, dict]:
    """The parameters and bot parameters of ``config`` (default: the source's) on a point scale
    ``scale`` times finer: every point and VP times ``scale``, every bot's weight of a VP divided
    by it, so that play is as before."""
    config = config or source.config
    defaults = {p.name: p.default for p in source.game.params}  # a run from before a parameter existed
    params = {**defaults, **config.params}
    params.update({k: params[k] * scale for k in (*POINT_PARAMS, *(VP.format(c) for c in power.CARDS)) if k in params})
    bots = {b: dict(v) for b, v in config.bot_params.items()}
    for name in set(config.bots):
        spec = source.game.bots[name]
        if VP_WEIGHT in spec.params:
            bots.setdefault(name, {})[VP_WEIGHT] = config.bot_param(name, VP_WEIGHT, spec.params) / scale
    return params, bots


def revise(changes: dict[int, int], worse: set[int]) -> tuple[dict[int, int], set[int]]:
    """The changes with each card of ``worse`` one VP nearer to its VP now; a card whose change
    was one VP drops out. Returns the new changes and the cards dropped."""
    out, dropped = {}, set()
    for card, d in changes.items():
        if card not in worse:
            out[card] = d
        elif abs(d) > 1:
            out[card] = d - (1 if d > 0 else -1)
        else:
            dropped.add(card)
    return out, dropped


def further_from_even(before, after, changes: dict[int, int]) -> set[int]:
    """The changed cards whose edge in ``after`` is at least as far from even as in ``before``."""
    b, a = before.set_index("id")["edge"], after.set_index("id")["edge"]
    return {c for c in changes if c in a.index and c in b.index and abs(a[c]) >= abs(b[c])}


def check_round(number: int, seed: int, changes: dict[int, int], play: Callable) -> dict:
    """Play the VPs now and the changed VPs on ``seed``; their card power and set imbalance."""
    now, new = play({}, seed, f"round-{number}/now"), play(changes, seed, f"round-{number}/proposed")
    before, after = power.card_power(now), power.card_power(new)
    return {"round": number, "seed": seed, "changes": dict(changes), "games": now.games_done,
            "imbalance": power.paired_change(now, new, seed=number),
            "worse": sorted(further_from_even(before, after, changes)),
            "before": before.to_dict("records"), "after": after.to_dict("records")}


def suggest(source, play: Callable, rounds: int = MAX_ROUNDS, notify: Callable[[str], None] = lambda s: None,
            scale: int = 1) -> dict:
    """The advice for ``source`` (a daifugo run with precepts): its card power, the checked
    rounds and the answer (``analysis.games.daifugo_power.answer``). ``play(changes, seed, name)``
    plays the source config with the VPs changed by ``changes`` (card id -> VP change) on
    ``seed`` and returns the opened run. With ``scale`` k, VPs are on a point scale k times
    finer (``scaled``; ``play`` plays on it), so a change can be a k-th of a VP now."""
    start = power.card_power(source, scale)
    if start.empty:
        raise ConfigError(f"{source.path}: no precepts were drafted in this run, so there are no precept VPs to suggest")
    changes, dropped, played = power.vp_changes(start), set(), []
    for number in range(1, rounds + 1):
        if not changes:
            break
        notify(f"check round {number}: " + ", ".join(f"{power.label(c)} {d:+d} VP" for c, d in sorted(changes.items())))
        rnd = check_round(number, source.config.seed + SEED_OFFSET + number, changes, play)
        played.append(rnd)
        if power.accepted(rnd):
            break
        changes, gone = revise(changes, set(rnd["worse"]))
        dropped |= gone
        if not rnd["worse"]:  # the set as a whole did not get more even: nothing left to try
            dropped |= set(changes)
            changes = {}
    vps = {c: scale * int(source.config.params.get(VP.format(c), 1)) for c in start["id"]}
    points = {k: v for k, v in scaled(source, scale)[0].items() if k in POINT_PARAMS} if scale > 1 else {}
    return {"source": str(source.path), "source_digest": source.config.digest(), "vp_now": vps, "scale": scale,
            "points": points, "start": start.to_dict("records"), "rounds": played, "dropped": sorted(dropped),
            "answer": power.answer(start, played, dropped, vps,
                                   f"On {power.scale_words(scale, points, source.config.players)}: " if points else "")}


def player(source, out: Path, games: int, options, scale: int = 1, bots: tuple[str, ...] = ()) -> Callable:
    """``play(changes, seed, name)`` for ``suggest``: the source config (on the point scale
    ``scale``, ``scaled``; ``bots``: other bots in the seats) with changed VPs, ``games`` games on
    ``seed`` into ``out/name`` (resumed if there; ``options``: a ``RunOptions``), opened."""
    from analysis.load import Run
    from sim.run import runner

    config = dataclasses.replace(source.config, bots=bots, bot_params={}) if bots else source.config
    params, weights = scaled(source, scale, config)

    def play(changes: dict[int, int], seed: int, name: str):
        vps = {VP.format(c): params[VP.format(c)] + d for c, d in changes.items()}
        cfg = dataclasses.replace(config, seed=seed, params={**params, **vps}, bot_params=weights)
        source.game.check(cfg)
        runner.run(cfg, games, out / name, dataclasses.replace(options, progress=False))
        return Run(out / name)

    return play


LINE = "precept_imbalance"  # the precept line: mean absolute draft-order-free holder's edge
LINE_WORDS = "precept balance"
MEASURED = "as the mean absolute holder's edge, free of draft order"
STRONG_SEED_OFFSET = 5_000_011  # the strong population's check plays the source seed + this


def prescription(source, out: Path, games: int, workers: int, notify: Callable[[str], None] = lambda s: None,
                 scale: int = 1, rounds: int = MAX_ROUNDS) -> dict:
    """The precept line's prescription (``analysis.advice``): the VP search (``suggest``) with the
    run's bots, then the chosen VPs against the VPs now played by the strong bot in every seat
    on fresh games; ``precepts``: the VP search itself (the scorecard's columns)."""
    from sim.run.runner import RunOptions

    options = RunOptions(workers=workers)
    vp = suggest(source, player(source, out / "precepts", games, options, scale), rounds, notify, scale)
    chosen = next((r for r in reversed(vp["rounds"]) if power.accepted(r)), None)
    base = {"game": source.config.game, "line": LINE, "words": LINE_WORDS, "measured": MEASURED, "precepts": vp,
            "before": _est(power.imbalance(source)), "band": [0.0, power.MIN_EFFECT]}
    if chosen is None:
        return {**base, "status": "none", "set": {}, "after": None, "populations": {}, "holds_for": "none",
                "side_effects": [], "reason": vp["answer"]["sentence"]}
    setting = {**vp["points"], **{VP.format(int(c)): vp["vp_now"][int(c)] + d for c, d in chosen["changes"].items()}}
    if scale > 1:  # the bots weigh a VP less on the finer scale
        setting.update({f"bot.{b}.{k}": v for b, kv in scaled(source, scale)[1].items() for k, v in kv.items()})
    imb = chosen["imbalance"]
    pops = {f"the run's bots ({', '.join(source.config.bots)})": _population(imb)}
    strong = source.game.strong_bot
    if strong and set(source.config.bots) != {strong}:
        notify(f"precepts: the VPs to print played by {strong} bots in every seat")
        play = player(source, out / "precepts-strong", games, options, scale, (strong,) * source.config.players)
        seed = source.config.seed + STRONG_SEED_OFFSET
        now, new = play({}, seed, "now"), play(dict(chosen["changes"]), seed, "proposed")
        strong_imb = power.paired_change(now, new, seed=1)
        pops[f"{strong} bots in every seat"] = _population(strong_imb)
        vp["strong"] = {"bots": strong, "seed": seed, "games": now.games_done,
                        "before": power.card_power(now).to_dict("records"),
                        "after": power.card_power(new).to_dict("records"), "imbalance": strong_imb}
    round_play = player(source, out / "precepts", games, options, scale)
    name = f"round-{chosen['round']}"
    from analysis.games.daifugo_laws import side_effects

    side = side_effects(source, round_play({}, chosen["seed"], f"{name}/now"),
                        round_play(dict(chosen["changes"]), chosen["seed"], f"{name}/proposed"))
    harmful, held = [s["line"] for s in side if s["harmful"]], _holds(pops)
    in_band = imb["after"]["value"] <= power.MIN_EFFECT and not any(s["left"] for s in side)
    status = ("none" if imb["change"]["hi"] >= 0 or harmful else "not advised" if held in ("disagree", "none")
              else "prescribed" if in_band else "closest")
    reason = ("it moves " + ", ".join(harmful) + " out of its band" if harmful else
              "the imbalance did not fall beyond noise" if imb["change"]["hi"] >= 0 else
              "the populations disagree" if status == "not advised" else "")
    return {**base, "status": status, "set": setting, "before": imb["before"], "after": imb["after"],
            "change": imb["change"], "games": chosen["games"], "seed": chosen["seed"], "side_effects": side,
            "populations": pops, "holds_for": held, "scale": scale, **({"reason": reason} if reason else {})}


def line_state(source) -> dict:
    """The precept line on the run: its set imbalance with the 95% interval, the band (at most
    ``MIN_EFFECT``) and its status: out when the whole interval is above the band."""
    e = power.imbalance(source)
    status = "in" if e["value"] <= power.MIN_EFFECT else "out" if e["lo"] > power.MIN_EFFECT else "unclear"
    return {"line": LINE, "words": LINE_WORDS, "band": [0.0, power.MIN_EFFECT], **_est(e), "status": status}


def vp_check(run) -> dict | None:
    """The precept VP search of the run's ``cardlab suggest`` advice (``suggest``), or None."""
    from analysis.advice import for_line

    p = for_line(getattr(run, "advice", None), LINE)
    return p["precepts"] if p else None


def _est(imb: dict) -> dict:
    return {"value": imb["value"], "lo": imb["lo"], "hi": imb["hi"]}


def _population(imb: dict) -> dict:
    d = imb["change"]
    return {"before": imb["before"], "after": imb["after"], "change": d, "in_band": imb["after"]["value"] <= power.MIN_EFFECT,
            "better": d["hi"] < 0, "worse": d["lo"] > 0}


def _holds(pops: dict) -> str:
    from sim.run.tuner.prescribe import holds_for

    return holds_for(pops)
