"""A prescription for a rule line outside its band: the smallest lever change that brings it in.

For the line, every value of every lever that names it (``Game.levers``, nearest the default
first) is played on one fresh seed, paired with the run's config (``screen``). The values that
bring the line into its band while no other rule line leaves its band beyond noise (or, out already, gets worse) are
raced (``run_race``, up to the confirmation's game count: the smallest change leads a tie), and
they are confirmed against the run's config on fresh games (``confirm``), the race's winner
first, until one lands in the band. When
no single lever reaches the band, pairs of the best single levers are tried; when none reaches
it, the best one is given as the closest, said as such. The confirmed change is then played by
every population (``populations``: the run's own bots and, where the game has one, a strong
bot in every seat) on other fresh seeds, paired, and the prescription says which it holds for.
Every run lives under ``out/<line>/`` named by its config hash, so a killed search resumes.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from sim.kit.config import RunConfig, RunOptions, Table
from sim.kit.levers import Line
from sim.run.metrics import Counts, Estimate, resolve
from sim.run.tuner.goals import Constraint, Objective
from sim.run.tuner.race import CONFIRM_SEED_OFFSET, confirm, constraint_fit, play, run_race
from sim.run.tuner.spec import Candidate, TuneSpec

SEED_OFFSET = 4_000_037  # every seed of a prescription: the run's seed + this (+ the tuner's offsets)
POPULATION_SEED_OFFSET = 5_000_011  # the populations' check, on top of SEED_OFFSET
RACE_SIZE = 4  # candidates raced (and confirmed, until one is prescribed) at most
PAIR_LEVERS = 3  # pairs are formed from this many of the best single levers


@dataclass(frozen=True)
class Sizes:
    """Games per screened candidate, the race's cap, and the confirmation's and each
    population's games."""

    screen: int
    confirm: int
    workers: int = 1  # local worker processes of every run

    @property
    def race(self) -> int:
        """The race's cap: twice the screen (the confirmations, in the race's order, decide)."""
        return min(2 * self.screen, self.confirm)

    @property
    def batch(self) -> int:
        """Games per batch: a screened run in four batches (few files to read back)."""
        return max(500, self.screen // 4)


def estimate_dict(e: Estimate) -> dict[str, float]:
    return {"value": e.value, "lo": e.lo, "hi": e.hi}


def line_value(game, cfg: RunConfig, line: Line, counts: Counts, catalog) -> Estimate:
    return resolve(line.metric, game, cfg, catalog).value(counts)


def _constraints(lines: list[Line], target: Line, default: dict[str, Estimate]) -> list[Constraint]:
    """Every other line stays in its band, or, out of it already, no worse than now beyond noise."""
    out = []
    for ln in lines:
        if ln.metric == target.metric or ln.metric not in default:
            continue
        e = default[ln.metric]
        lo, hi = ln.band(e.value)
        if e.value > hi:  # out already: no worse beyond the noise of two runs
            hi = e.value + 2 * e.half_width
        if e.value < lo:
            lo = e.value - 2 * e.half_width
        out.append(Constraint(ln.metric, lo, hi, f"{ln.metric} in {lo:.4g}..{hi:.4g}"))
    return out


def _spec(game, cfg: RunConfig, objective: Objective, constraints: list[Constraint], sizes: "Sizes") -> TuneSpec:
    file = {k: v for k, v in cfg.to_dict().items() if k != "game"}
    file["seed"] = cfg.seed + SEED_OFFSET
    return TuneSpec(game.name, [], objective, constraints, games=sizes.screen, table=Table(config_file=file),
                    options=RunOptions(workers=sizes.workers, batch_size=sizes.batch))


def singles(game, levers: tuple, cfg: RunConfig, metric: str) -> list[dict[str, Any]]:
    """Every one-lever change of ``levers`` that may move ``metric``, the smallest first (a lever's
    first value before any lever's second)."""
    levers = [lv for lv in levers if lv.moves(metric)]
    out = []
    for rank in range(max((len(lv.values) for lv in levers), default=0)):
        for lv in levers:
            now = cfg.params.get(lv.param, game.param(lv.param).default)  # a run from before the lever existed
            if rank < len(lv.values) and game.param(lv.param).coerce(lv.values[rank]) != now:
                out.append({lv.param: game.param(lv.param).coerce(lv.values[rank])})
    return out


def _label(setting: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in setting.items())


def screen(spec: TuneSpec, settings: list[dict], out: Path) -> list[tuple[Candidate, Counts]]:
    """Each setting on the screening seed, with its counts."""
    res = []
    for s in settings:
        cand = Candidate(_label(s), s, spec.config(s))
        res.append((cand, play(spec, cand.config, 0, spec.games, out / "screen")[1]))
    return res


def _pairs(ranked: list[tuple[Candidate, Counts]]) -> list[dict]:
    """Pairs of the best single settings of different levers."""
    best, seen = [], set()
    for cand, _ in ranked:
        (param,) = cand.params
        if param not in seen:
            seen.add(param)
            best.append(cand.params)
    return [{**a, **b} for a, b in itertools.combinations(best[:PAIR_LEVERS], 2)]


def search(game, levers: tuple, cfg: RunConfig, line: Line, lines: list[Line], out: Path, sizes: Sizes,
           notify: Callable[[str], None] = lambda s: None) -> dict:
    """The prescription for ``line`` (see the module docstring) as a dict: ``status``
    (``prescribed``: in band, ``closest``: better but not in band, ``none``: no lever moves it),
    ``set``, ``before``/``after`` (value, lo, hi on the confirmation games), ``side_effects``
    (every other line before -> after) and ``populations``."""
    out = out / line.metric.replace(":", "-")
    settings = singles(game, levers, cfg, line.metric)
    if not settings:
        return {"line": line.metric, "words": line.words, "band": list(line.band(math.nan)), "tried": [], "set": {},
                "before": None, "after": None, "side_effects": [], "populations": {}, "holds_for": "none",
                "status": "none", "reason": "the game declares no lever for it, so the rule's text is the change to make"}
    probe = _spec(game, cfg, Objective("minimize", line.metric), [], sizes)
    default = Candidate("now", {}, probe.config({}))
    base = play(probe, default.config, 0, sizes.screen, out / "screen")[1]
    now = {ln.metric: line_value(game, probe.base, ln, base, probe.catalog) for ln in lines}
    band = line.band(now[line.metric].value)
    spec = _spec(game, cfg, Objective("target", line.metric, sum(band) / 2 if all(map(math.isfinite, band)) else band[1],
                                      band), _constraints(lines, line, now), sizes)
    result = {"line": line.metric, "words": line.words, "band": list(band), "tried": [], "set": {},
              "before": estimate_dict(now[line.metric]), "after": None, "side_effects": [], "populations": {},
              "holds_for": "none"}
    notify(f"{line.metric}: screening {len(settings)} one-lever changes")
    screened = screen(spec, settings, out)
    ranked = _ranked(spec, screened)
    if not _reaching(spec, ranked):
        pairs = _pairs(ranked)
        notify(f"{line.metric}: no one lever reaches the band; screening {len(pairs)} pairs")
        ranked = _ranked(spec, screened + screen(spec, pairs, out))
    result["tried"] = [_tried(spec, c, k) for c, k in ranked]
    reaching = _reaching(spec, ranked)
    pool = reaching[:RACE_SIZE] or [c for c, k in ranked if constraint_fit(spec, k) != "breaks"][:2]
    if not pool:
        return {**result, "status": "none", "reason": "every lever moves another line out of its band"}
    confirmed = []
    for attempt, cand in enumerate(raced(spec, pool, out, sizes)[:CONFIRMATIONS]):
        notify(f"{line.metric}: confirming {cand.label} on {sizes.confirm:,} fresh games")
        confirmed.append(confirmation(game, spec, cand, default, lines, out / f"attempt-{attempt}", sizes, attempt))
        if confirmed[-1]["status"] == "prescribed":
            break
    best = min(confirmed, key=lambda c: (STATUS_ORDER.index(c["status"]), spec.objective.score(c["after_estimate"])))
    best = {k: v for k, v in best.items() if k != "after_estimate"}
    if best["status"] == "none":
        return {**result, **best, "confirmed": [c["set"] for c in confirmed]}
    chosen = next(c for c in pool if c.params == best["set"])
    pops = populations(game, spec, chosen, default, out, sizes)
    held = holds_for(pops)
    if held in ("disagree", "none"):
        best = {**best, "status": "not advised", "reason": {"disagree": "the populations disagree",
                                                            "none": "no population gained beyond noise"}[held]}
    return {**result, **best, "confirmed": [c["set"] for c in confirmed], "populations": pops, "holds_for": held}


STATUS_ORDER = ("prescribed", "closest", "none")
CONFIRMATIONS = 2  # candidates confirmed at most, each on its own fresh seed
# a line already out of its band is harmed by a change that takes it further out by at least the verdict's practical
# threshold: 1 percentage point of a share, or 5% of a mean
PRACTICAL_WORSE, PRACTICAL_WORSE_MEAN = 0.01, 0.05
ATTEMPT_SEED_STEP = 7_000_003  # a later confirmation plays the seeds of the first + attempt x this


def raced(spec: TuneSpec, pool: list[Candidate], out: Path, sizes: Sizes) -> list[Candidate]:
    """The pool in the order to confirm it: the race's winner first (``run_race`` on common fresh
    seeds, up to the race cap), then the candidates it kept, smallest change first; the ones it
    dropped as worse beyond noise are left out."""
    if len(pool) == 1:
        return pool
    race = run_race(spec, pool, out, sizes.race)  # into out/race
    last = race.rows[race.rows["rung"] == race.rows["rung"].max()]
    kept = set(last.loc[last["status"].isin(["leader", "kept"]), "candidate"])
    return [race.winner] + [c for c in pool if c.label in kept and c is not race.winner]


def _ranked(spec: TuneSpec, screened: list[tuple[Candidate, Counts]]) -> list[tuple[Candidate, Counts]]:
    """Screened settings by distance to the band, then by size of change (their order)."""
    order = {id(c): i for i, (c, _) in enumerate(screened)}
    score = {id(c): spec.objective.score(spec.objective_metric.value(k)) for c, k in screened}
    return sorted(screened, key=lambda ck: (score[id(ck[0])], len(ck[0].params), order[id(ck[0])]))


def _reaching(spec: TuneSpec, ranked: list[tuple[Candidate, Counts]]) -> list[Candidate]:
    """Settings whose line estimate is in band and that break no other line beyond noise: those
    that keep every other line first, then the smallest change."""
    fit = [constraint_fit(spec, k) for _, k in ranked]
    ok = [i for i, (c, k) in enumerate(ranked) if spec.objective.score(spec.objective_metric.value(k)) == 0
          and fit[i] != "breaks"]
    return [ranked[i][0] for i in sorted(ok, key=lambda i: (fit[i] != "keeps", len(ranked[i][0].params), i))]


def _tried(spec: TuneSpec, cand: Candidate, counts: Counts) -> dict:
    return {"set": cand.params, "screen": estimate_dict(spec.objective_metric.value(counts)),
            "other_lines": constraint_fit(spec, counts)}


def confirmation(game, spec: TuneSpec, chosen: Candidate, default: Candidate, lines: list[Line], out: Path,
                 sizes: Sizes, attempt: int = 0) -> dict:
    """``chosen`` confirmed against ``default`` on fresh games (attempt k on seeds of its own):
    the line, every other line, and the status (``prescribed``: in band, better beyond noise, no
    other line out of its band; ``closest``: better, but the line or another one is left out of
    its band within noise)."""
    chosen, default = (dataclasses.replace(c, config=dataclasses.replace(
        c.config, seed=c.config.seed + attempt * ATTEMPT_SEED_STEP)) for c in (chosen, default))
    conf = confirm(spec, chosen, default, out, sizes.confirm)  # into out/confirm
    after, before = conf.values[0]
    lo, hi = spec.objective.band
    counts = [play(spec, c.config, CONFIRM_SEED_OFFSET, sizes.confirm, out / "confirm")[1] for c in (chosen, default)]
    side = [side_effect(game, spec.base, spec.catalog, ln, *counts) for ln in lines if ln.metric != spec.objective.metric]
    harmful = [s["line"] for s in side if s["harmful"]]
    left_out = [s["words"] for s in side if s["left"]]
    better = toward(conf.diffs[0], before.value, spec.objective.band) == "better"
    status = ("none" if not better or harmful else "prescribed" if lo <= after.value <= hi and not left_out
              else "closest")
    reason = ("it moves " + ", ".join(harmful) + " out of its band" if harmful else
              "no change tried moved the line beyond noise on the confirmation games" if not better else
              "it leaves " + ", ".join(left_out) + " just out of its band (within noise)" if left_out else "")
    return {"status": status, "set": chosen.params, "before": estimate_dict(before), "after": estimate_dict(after),
            "after_estimate": after, "change": estimate_dict(conf.diffs[0]), "games": sizes.confirm, "seed": conf.seed,
            "harmful": harmful, "side_effects": side, **({"reason": reason} if reason else {})}


def side_effect(game, cfg: RunConfig, catalog, line: Line, after_counts: Counts, before_counts: Counts) -> dict:
    """``line`` before -> after a change; ``harmful`` when the change takes it out of its band beyond
    noise, or, out already, further out beyond noise and by at least ``PRACTICAL_WORSE`` (another
    lever may fix that line); ``left`` when it was in its band and ends out of it within noise."""
    metric = resolve(line.metric, game, cfg, catalog)
    b, a = metric.value(before_counts), metric.value(after_counts)
    d = next(iter(metric.difference(after_counts, before_counts).values()))
    lo, hi = line.band(b.value)
    practical = PRACTICAL_WORSE_MEAN * abs(b.value) if line.metric.startswith("mean_") else PRACTICAL_WORSE
    out_hi = a.value > hi and d.lo > 0 and (b.value <= hi or d.value >= practical)
    out_lo = a.value < lo and d.hi < 0 and (b.value >= lo or -d.value >= practical)
    in_band = lo <= a.value <= hi
    return {"line": line.metric, "words": line.words, "before": estimate_dict(b), "after": estimate_dict(a),
            "change": estimate_dict(d), "in_band": bool(in_band), "harmful": bool(out_hi or out_lo),
            "left": bool(lo <= b.value <= hi and not in_band and not (out_hi or out_lo))}


def populations(game, spec: TuneSpec, chosen: Candidate, default: Candidate, out: Path, sizes: Sizes) -> dict[str, dict]:
    """The line before and after the change under each population (the run's bots; every seat
    the game's strong bot), paired on fresh seeds."""
    pops = {"the run's bots (" + ", ".join(spec.base.bots) + ")": {}}
    if game.strong_bot and set(spec.base.bots) != {game.strong_bot}:
        pops[f"{game.strong_bot} bots in every seat"] = {"bots": (game.strong_bot,) * spec.base.players,
                                                           "bot_params": {}}
    res = {}
    for name, change in pops.items():
        est = {}
        for key, cand in (("before", default), ("after", chosen)):
            cfg = dataclasses.replace(cand.config, **change)
            counts = play(spec, cfg, POPULATION_SEED_OFFSET, sizes.confirm, out / "populations")[1]
            est[key] = spec.objective_metric.value(counts)
            est[key + "_counts"] = counts
        d = next(iter(spec.objective_metric.difference(est["after_counts"], est["before_counts"]).values()))
        lo, hi = spec.objective.band
        way = toward(d, est["before"].value, (lo, hi))
        res[name] = {"before": estimate_dict(est["before"]), "after": estimate_dict(est["after"]),
                     "change": estimate_dict(d), "in_band": bool(lo <= est["after"].value <= hi),
                     "better": way == "better", "worse": way == "worse"}
    return res


def toward(d: Estimate, before: float, band: tuple[float, float]) -> str:
    """Which way a change ``d`` (with its 95% interval) moves a line that stood at ``before``:
    ``better`` (toward its band beyond noise, from outside it), ``worse`` (away from the band
    beyond noise, or out of it from inside) or ``same``."""
    lo, hi = band
    if before > hi:
        return "better" if d.hi < 0 else "worse" if d.lo > 0 else "same"
    if before < lo:
        return "better" if d.lo > 0 else "worse" if d.hi < 0 else "same"
    after = before + d.value
    return "worse" if (after > hi and d.lo > 0) or (after < lo and d.hi < 0) else "same"


def holds_for(pops: dict[str, dict]) -> str:
    """``all`` (every population ends in the band or better beyond noise), ``some`` (some do, none
    is worse), ``disagree`` (some population is worse beyond noise) or ``none``."""
    if any(p["worse"] for p in pops.values()):
        return "disagree"
    held = [p["better"] or (bool(p.get("in_band")) and not p["worse"]) for p in pops.values()]
    return "all" if held and all(held) else "some" if any(held) else "none"
