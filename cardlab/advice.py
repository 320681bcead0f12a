"""``cardlab suggest``: the precept VPs to print, played before they are advised.

From the run's draft-order-free card power (``analysis.precept_power``) it proposes a whole-VP
change for every uneven card worth at least half a VP, then plays the check itself: each round
plays the VPs now and the proposed VPs on the same fresh seed (so on the same deals), compares
them card by card and as a set (mean absolute edge), and revises every changed card that the
check left further from even (a smaller change, or none: "VP cannot fix it, change the card's
text") before playing again, up to ``MAX_ROUNDS`` rounds. The answer is the last checked set in
which no changed card ended further from even and the set imbalance fell; if there is none,
no VP change is advised. It is written to ``OUT/advice.json`` with every round's runs beside it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Callable

from analysis import precept_power as power
from sim.config import ConfigError

SEED_OFFSET = 3_000_017  # check rounds play the source seed + this + the round number
MAX_ROUNDS = 3
MAX_SCALE = 10
VP = "precept_vp_{:02d}"
# the points of a final score: on a point scale k times finer, each is k times larger (the same game)
POINT_PARAMS = (*(f"rank_points_{i}" for i in range(1, 7)), "capital_fall_bonus")
VP_WEIGHT = "draft_vp_weight"  # a bot parameter that weighs VP: on a finer scale it weighs each VP less


def scaled(source, scale: int) -> tuple[dict, dict]:
    """The source config's parameters and bot parameters on a point scale ``scale`` times finer:
    every point and VP times ``scale``, every bot's weight of a VP divided by it, so that play
    is as before."""
    defaults = {p.name: p.default for p in source.game.params}  # a run from before a parameter existed
    params = {**defaults, **source.config.params}
    params.update({k: params[k] * scale for k in (*POINT_PARAMS, *(VP.format(c) for c in power.CARDS)) if k in params})
    bots = {b: dict(v) for b, v in source.config.bot_params.items()}
    for name in set(source.config.bots):
        spec = source.game.bots[name]
        if VP_WEIGHT in spec.params:
            bots.setdefault(name, {})[VP_WEIGHT] = source.config.bot_param(name, VP_WEIGHT, spec.params) / scale
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
    rounds and the answer (``analysis.precept_power.answer``). ``play(changes, seed, name)``
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


def write(advice: dict, out: Path) -> Path:
    """``out/advice.json``, written whole (a temporary file renamed over it)."""
    out.mkdir(parents=True, exist_ok=True)
    path, tmp = out / power.ADVICE_FILE, out / (power.ADVICE_FILE + ".tmp")
    tmp.write_text(json.dumps(advice, indent=1, default=float))
    tmp.replace(path)
    return path


def player(source, out: Path, games: int, options, scale: int = 1) -> Callable:
    """``play(changes, seed, name)`` for ``suggest``: the source config (on the point scale
    ``scale``, ``scaled``) with changed VPs, ``games`` games on ``seed`` into ``out/name``
    (resumed if there; ``options``: a ``RunOptions``), opened."""
    from analysis.load import Run
    from sim import runner

    params, bots = scaled(source, scale)

    def play(changes: dict[int, int], seed: int, name: str):
        vps = {VP.format(c): params[VP.format(c)] + d for c, d in changes.items()}
        cfg = dataclasses.replace(source.config, seed=seed, params={**params, **vps}, bot_params=bots)
        source.game.check(cfg)
        runner.run(cfg, games, out / name, dataclasses.replace(options, progress=False))
        return Run(out / name)

    return play
