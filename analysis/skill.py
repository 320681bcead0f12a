"""How much playing well matters: a skill ladder's ratings, rungs and skill index.

A ladder directory (``cardlab ladder``, ``sim.run.ladder``) holds one run per pairing: one seat of
the challenger against the other seats of the opponent, the same deals in every pairing.

- **Ratings.** A Bradley-Terry model (``choix``, iterative Luce spectral ranking) on the
  comparisons of every game: the challenger beats each of its ``n - 1`` opponent seats with its
  win share, and the opponents beat it with theirs. For one challenger seat against ``n - 1``
  opponent seats this gives the Plackett-Luce estimate of who wins the game
  (P(challenger wins) = pi_c / (pi_c + (n - 1) pi_o)). Half a comparison each way is added
  to every pair that met, so that a player that never lost keeps a finite rating. Ratings are
  on the Elo scale (400 points: odds of 10 to 1 head to head), the bottom rung at 0; the 95%
  intervals are basic bootstrap intervals over games (each pairing's games resampled).
- **Rungs** are in rating order, lowest first: the top rung is the highest-rated player (never
  the all-seeing search).
- **Skill index.** The top rung's win share against the bottom rung's other seats, s, as a
  fraction of the way from the equal share e = 1/n to always winning: (s - e) / (1 - e) (from the
  top-against-bottom pairing the ladder played, whose challenger is named when it is not the top
  rung); the same against the reference. 0: a game of chance for these players; 1: the better
  player always wins. Both are lower bounds set by the strongest player the ladder had; the
  verdict calls a game mostly luck only when that player is well above the reference
  (``well_above_reference``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.load import Run
from analysis.sections import Section
from sim.kit.config import ConfigError
from sim.run.ladder import LADDER_FILE, is_seeing
from sim.run.stats import basic_interval, wilson

ELO = 400.0 / np.log(10.0)
BOOTSTRAP = 400
PSEUDO = 0.5  # comparisons added each way to every pair that met
SKILL_TEXT = (
    "Skill index: the top rung's win share s against seats of the bottom rung, as a fraction of the way from "
    "the equal share e = 1/players to always winning, (s - e) / (1 - e); 0 means the better player wins no "
    "more than chance gives, 1 that it always wins. Its interval is the Wilson interval of s, mapped the same "
    "way. Upset: how often the bottom rung's seats win those games although the top rung sits at the table.")


def is_ladder(path: str | Path) -> bool:
    return (Path(path) / LADDER_FILE).is_file()


@dataclass
class Pairing:
    run: Run
    challenger: str
    opponent: str
    counts: pd.DataFrame  # the challenger's win share c and the game's total t per game: c, t, n


@dataclass
class Ladder:
    path: Path
    game: str
    players: list[str]
    reference: str
    pairings: list[Pairing]

    @classmethod
    def open(cls, path: str | Path) -> "Ladder":
        path = Path(path)
        try:
            doc = json.loads((path / LADDER_FILE).read_text())
            players, reference = list(doc["players"]), doc["reference"]
            rows = [(p["run"], p["challenger"], p["opponent"]) for p in doc["pairings"]]
        except (OSError, ValueError, KeyError, TypeError):
            raise ConfigError(f"{path / LADDER_FILE} is damaged: not a cardlab ladder manifest") from None
        pairings = []
        for run_dir, challenger, opponent in rows:
            if not (path / run_dir / "run.json").exists():
                raise ConfigError(f"ladder {path}: pairing {run_dir} has no finished run; rerun the cardlab ladder command")
            run = Run(path / run_dir)
            pairings.append(Pairing(run, challenger, opponent, share_counts(run, run.config.bots[0])))
        return cls(path, doc.get("game", pairings[0].run.config.game), players, reference, pairings)

    _summary: dict | None = None
    _rules: list | None = None

    @property
    def summary(self) -> dict:
        """``ladder_summary`` of this ladder, computed once."""
        if self._summary is None:
            self._summary = ladder_summary(self)
        return self._summary

    @property
    def seats(self) -> int:
        return self.pairings[0].run.config.players

    @property
    def title(self) -> str:
        from analysis.glossary import rules_title

        return f"Skill ladder ({rules_title(self.pairings[0].run)}: {self.path.name})"


def share_counts(run: Run, bot: str) -> pd.DataFrame:
    """Games by (challenger's win share c, all seats' win shares t): columns c, t, n. A shared
    win splits one win between the winners (daifugo's ``win_share``, else ``win`` / winners)."""
    share = ("win_share" if "win_share" in run.columns("seats")
             else "win::DOUBLE / greatest(1, sum(win::INT) OVER (PARTITION BY game))")
    return run.sql(
        f"WITH s AS (SELECT game, bot, {share} AS s FROM seats), "
        "g AS (SELECT game, sum(CASE WHEN bot = $bot THEN s ELSE 0 END) AS c, sum(s) AS t FROM s GROUP BY game) "
        "SELECT round(c, 9) AS c, round(t, 9) AS t, count(*) AS n FROM g GROUP BY 1, 2 ORDER BY 1, 2",
        {"bot": bot})


def comparisons(index: dict[str, int], pairings, seats: int, weights=None) -> np.ndarray:
    """The Bradley-Terry count matrix: [i, j] = times player i finished ahead of player j.
    ``weights``: games per category of each pairing (a bootstrap draw), else the counts."""
    comp = np.zeros((len(index), len(index)))
    for k, (challenger, opponent, counts) in enumerate(pairings):
        n = counts["n"].to_numpy(float) if weights is None else weights[k]
        c, t = counts["c"].to_numpy(float), counts["t"].to_numpy(float)
        i, j = index[challenger], index[opponent]
        comp[i, j] += (n * c).sum() * (seats - 1) + PSEUDO
        comp[j, i] += (n * (t - c)).sum() + PSEUDO
    return comp


def fit(comp: np.ndarray) -> np.ndarray:
    """Log-strengths of the Bradley-Terry model (choix), the first player at 0."""
    import choix

    theta = choix.ilsr_pairwise_dense(comp, max_iter=500, tol=1e-10)
    return theta - theta[0]


@dataclass
class Ratings:
    players: list[str]
    theta: np.ndarray  # log-strength, the first player at 0
    draws: np.ndarray  # bootstrap draws of theta, one row a draw

    def interval(self, values: np.ndarray, draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        bounds = np.array([basic_interval(v, draws[:, i]) for i, v in enumerate(values)])
        return bounds[:, 0], bounds[:, 1]

    def table(self) -> pd.DataFrame:
        lo, hi = self.interval(self.theta, self.draws)
        return pd.DataFrame({"player": self.players, "rating": ELO * self.theta, "lo": ELO * lo, "hi": ELO * hi})

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """Player a's rating minus player b's (Elo scale) with its 95% basic bootstrap interval
        (from the same draws, so the two ratings' shared noise cancels)."""
        i, j = self.players.index(a), self.players.index(b)
        lo, hi = basic_interval(self.theta[i] - self.theta[j], self.draws[:, i] - self.draws[:, j])
        return float(ELO * (self.theta[i] - self.theta[j])), float(ELO * lo), float(ELO * hi)

    def head_to_head(self, a: int, b: int) -> tuple[float, float, float]:
        """Chance that player a finishes ahead of player b (model), with its 95% interval."""
        p = 1 / (1 + np.exp(self.theta[b] - self.theta[a]))
        draws = 1 / (1 + np.exp(self.draws[:, b] - self.draws[:, a]))
        lo, hi = basic_interval(p, draws)
        return float(p), float(np.clip(lo, 0, 1)), float(np.clip(hi, 0, 1))


def ratings(players: list[str], pairings, seats: int, draws: int = BOOTSTRAP, seed: int = 0) -> Ratings:
    """Fit the ratings of ``players`` from ``pairings`` (challenger, opponent, share counts) and
    bootstrap them over games."""
    index = {p: i for i, p in enumerate(players)}
    theta = fit(comparisons(index, pairings, seats))
    rng = np.random.default_rng(seed)
    samples = np.empty((draws, len(players)))
    for d in range(draws):
        weights = [rng.multinomial(int(c["n"].sum()), c["n"].to_numpy(float) / c["n"].sum()) for _, _, c in pairings]
        samples[d] = fit(comparisons(index, pairings, seats, weights))
    return Ratings(players, theta, samples)


def win_share(counts: pd.DataFrame) -> tuple[float, float, float, int]:
    """The challenger's win share over a pairing's games (shared wins as fractions), Wilson 95%."""
    n = int(counts["n"].sum())
    wins = float((counts["n"] * counts["c"]).sum())
    lo, hi = wilson(wins, n)
    return wins / max(n, 1), float(lo), float(hi), n


def skill_index(share: float, lo: float, hi: float, seats: int) -> tuple[float, float, float]:
    """(s - e) / (1 - e) for the share s and its interval, e = 1 / seats."""
    e = 1 / seats
    return tuple((v - e) / (1 - e) for v in (share, lo, hi))


def ladder_summary(ladder: Ladder) -> dict:
    """Ratings, rungs (lowest rating first) and the skill index of a ladder (what the report part
    and the CLI show). The top rung is the highest-rated player that is not the all-seeing search."""
    data = [(p.challenger, p.opponent, p.counts) for p in ladder.pairings]
    r = ratings(ladder.players, data, ladder.seats)
    table = r.table()
    order = list(table.sort_values("rating", kind="stable")["player"])
    rungs = []
    vs_reference = {p.challenger: p for p in ladder.pairings if p.opponent == ladder.reference}
    for k, name in enumerate(order):
        row = {"rung": k + 1, "player": name, "rating": float(table.loc[table["player"] == name, "rating"].iloc[0]),
               "role": "reference" if name == ladder.reference else ""}
        if name in vs_reference:
            s, lo, hi, n = win_share(vs_reference[name].counts)
            row.update({f"share vs {ladder.reference}": s, "lo": lo, "hi": hi, "games": n})
        if k:
            p, plo, phi = r.head_to_head(ladder.players.index(name), ladder.players.index(order[k - 1]))
            row.update({"ahead of the rung below": p, "ahead lo": plo, "ahead hi": phi})
        rungs.append(row)
    top = top_rung(order)
    return {"ratings": r, "rungs": pd.DataFrame(rungs), "skill": _skill(ladder, r, top, vs_reference)}


def _skill(ladder: Ladder, r: Ratings, top: str, vs_reference: dict) -> dict | None:
    """The skill index of the top-against-bottom pairing the ladder played (its challenger is
    ``played``, the top rung when the ladder planned it so), the top rung's rating and, when it
    played the reference, its share and index against it."""
    bottom = ladder.players[0]
    pairs = [p for p in ladder.pairings if p.opponent == bottom and not is_seeing(p.challenger)]
    pair = next((p for p in pairs if p.challenger == top), pairs[-1] if pairs else None)
    if pair is None:
        return None
    s, lo, hi, n = win_share(pair.counts)
    upset_games = float((pair.counts["n"] * (pair.counts["t"] - pair.counts["c"])).sum())
    ulo, uhi = wilson(upset_games, n)
    index = skill_index(s, lo, hi, ladder.seats)
    skill = {"top": top, "played": pair.challenger, "bottom": bottom, "share": s, "lo": lo, "hi": hi, "games": n,
             "equal": 1 / ladder.seats, "index": index[0], "index_lo": index[1], "index_hi": index[2],
             "upset": upset_games / max(n, 1), "upset_lo": float(ulo), "upset_hi": float(uhi),
             "head_to_head": r.head_to_head(ladder.players.index(bottom), ladder.players.index(pair.challenger)),
             "reference": ladder.reference}
    skill["rating"] = r.difference(top, bottom)[0]
    if top in vs_reference:  # the same index against the reference: how far good play beats decent play
        rs, rlo, rhi, _ = win_share(vs_reference[top].counts)
        skill.update({"share_ref": rs, "share_ref_lo": rlo, "share_ref_hi": rhi,
                      "above_ref": r.difference(top, ladder.reference)})
        skill["index_ref"], skill["index_ref_lo"], skill["index_ref_hi"] = skill_index(rs, rlo, rhi, ladder.seats)
    return skill


def top_rung(players: list[str]) -> str:
    """The top rung of ``players`` in rating order (lowest first): the last that is not the
    all-seeing search (a yardstick, ``analysis.hidden_info``)."""
    return next(p for p in reversed(players) if not is_seeing(p))


def sections(ladder: Ladder) -> list[Section]:
    """The ladder part of a report: the skill index, the ratings and the rungs."""
    from analysis.charts import forest

    summary = ladder.summary
    table = summary["ratings"].table()
    table["games"] = [sum(int(p.counts["n"].sum()) for p in ladder.pairings if name in (p.challenger, p.opponent))
                      for name in ladder.players]
    table = table.sort_values("rating", kind="stable").reset_index(drop=True)
    out = []
    sk = summary["skill"]
    if sk is not None:
        h, hlo, hhi = sk["head_to_head"]
        who = sk["played"] + ("" if sk["played"] == sk["top"] else
                              f" (the ladder's last rung, which it played against {sk['bottom']}; the top rung by "
                              f"rating is {sk['top']})")
        text = (f"{who} wins {sk['share']:.3f} [{sk['lo']:.3f}, {sk['hi']:.3f}] of {sk['games']:,} "
                f"games against {ladder.seats - 1} seats of {sk['bottom']} (equal share {sk['equal']:.3f}): skill index "
                f"{sk['index']:.2f} [{sk['index_lo']:.2f}, {sk['index_hi']:.2f}]. {sk['bottom']}'s seats win "
                f"{sk['upset']:.3f} [{sk['upset_lo']:.3f}, {sk['upset_hi']:.3f}] of those games; head to head, by the "
                f"ratings, {sk['bottom']} finishes ahead of {sk['played']} with chance {h:.3f} [{hlo:.3f}, {hhi:.3f}]. "
                + _reference_text(sk) + SKILL_TEXT + " " + LOWER_BOUND_TEXT)
        out.append(Section("Skill index", text=text, marks=[(_skill_mark(sk), _skill_sentence(sk))]))
    out.append(Section("Ratings", text=(
        f"One rating per player from every pairing's games (reference opponent: {ladder.reference}; every pairing "
        "plays the same deals, seats rotated). " + RATINGS_TEXT),
        tables=[(f"Ratings (Elo scale, {ladder.players[0]} = 0; 95% bootstrap intervals)", table)],
        figures=[("Ratings with 95% intervals",
                  forest(table["player"], [(table["rating"], table["lo"], table["hi"], "rating (Elo scale)", 0.0)],
                         "Ratings", ylabel="player"))]))
    out.append(Section("Rungs", text=(
        f"Each player's win share with one seat against {ladder.seats - 1} seats of the reference "
        f"({ladder.reference}; equal share {1 / ladder.seats:.3f}, Wilson 95% intervals), and, from the ratings, "
        "its chance to finish ahead of the rung below head to head (basic bootstrap 95% interval). Rungs are in "
        "the order of the ratings, lowest first: the top rung is the highest-rated player."),
        tables=[("Rungs", summary["rungs"])]))
    return out + rule_sections(ladder)


def verdict_section(ladder: Ladder) -> Section:
    """The ladder's line on the verdict page: how much playing well matters."""
    sk = ladder.summary["skill"]
    marks = [(_skill_mark(sk), _skill_sentence(sk))] if sk is not None else []
    marks += [m for section in rule_sections(ladder) for m in section.marks]
    return Section(ladder.title, marks=marks)


def rule_sections(ladder: Ladder) -> list[Section]:
    """The game's skill-per-rule sections (``skill_sections`` of its report module) on the pairing
    of the highest-rated player against the reference."""
    from analysis.games import hook

    if ladder._rules is None:
        make = hook(ladder.game, "skill_sections")
        against = [p for p in ladder.pairings if p.opponent == ladder.reference and not is_seeing(p.challenger)]
        ladder._rules = []
        if make is not None and against:
            rated = ladder.summary["ratings"].table().set_index("player")["rating"]
            pair = max(against, key=lambda p: rated[p.challenger])
            ladder._rules = make(pair.run, pair.challenger, pair.opponent)
    return ladder._rules


RATINGS_TEXT = ("Bradley-Terry model fitted with choix: in each game the challenger beats each opponent seat with "
                "its win share and each opponent seat beats it with its own, which for one seat against the rest "
                "is the Plackett-Luce model of who wins; 400 points are odds of 10 to 1 head to head. Intervals: "
                f"basic bootstrap over games ({BOOTSTRAP} draws).")


STRONG_MARGIN = 0.10  # "well above the reference": the share's 95% lower bound this far above the equal share
MATTERS_A_LOT, MATTERS = 0.3, 0.1  # the skill index against the reference: green from 0.3, amber from 0.1
LOWER_BOUND_TEXT = (
    "Both indices are lower bounds: they say how much the strongest player the ladder had gains, and a stronger "
    "player could gain more. The verdict calls a game mostly luck beyond decent play only when the ladder's top "
    f"rung is well above the reference (its win share against the reference at least {100 * STRONG_MARGIN:g} "
    "percentage points above the equal share at its 95% lower bound) and still gains little over it (index "
    f"against the reference below {MATTERS}); green from {MATTERS_A_LOT}, amber from {MATTERS}.")


def _reference_text(sk: dict) -> str:
    if "index_ref" not in sk:
        return ""
    return (f"{sk['top']} against the reference ({sk['reference']}) instead: win share {sk['share_ref']:.3f} "
            f"[{sk['share_ref_lo']:.3f}, {sk['share_ref_hi']:.3f}], index {sk['index_ref']:.2f} "
            f"[{sk['index_ref_lo']:.2f}, {sk['index_ref_hi']:.2f}]: how much better play gains over decent play. ")


def _judged(sk: dict) -> float:
    """The index the verdict judges: against the reference where the ladder has it (any player
    beats random; what a designer asks is whether better play beats decent play)."""
    return sk.get("index_ref", sk["index"])


def _top_below_reference(sk: dict) -> bool:
    """Does the ladder's top player lose to the reference (the whole interval below 0)? Then it
    cannot say how much better play gains over decent play."""
    return sk.get("index_ref_hi", 0.0) < 0


def well_above_reference(sk: dict) -> bool:
    """Is the top rung well above the reference: its win share against it at least
    ``STRONG_MARGIN`` above the equal share at the 95% lower bound (``LOWER_BOUND_TEXT``)?"""
    return sk.get("share_ref_lo", -1.0) >= sk["equal"] + STRONG_MARGIN


def _skill_mark(sk: dict) -> str:
    v = _judged(sk)
    if v >= MATTERS_A_LOT:
        return "green"
    return "amber" if v >= MATTERS or _top_below_reference(sk) or not well_above_reference(sk) else "red"


def _top_words(sk: dict) -> str:
    """The top rung named with its rating: "learned (rated 448, 44 [12, 80] above cautious)"."""
    if "above_ref" not in sk:
        return f"{sk['top']} (rated {sk['rating']:.0f} above {sk['bottom']})"
    d, lo, hi = sk["above_ref"]
    return f"{sk['top']} (rated {d:+.0f} [{lo:+.0f}, {hi:+.0f}] against {sk['reference']})"


def _skill_sentence(sk: dict) -> str:
    bottom = (f"against {sk['bottom']}: {sk['index']:.2f} [{sk['index_lo']:.2f}, {sk['index_hi']:.2f}]"
              + ("" if sk["played"] == sk["top"] else f", played by {sk['played']}"))
    if "index_ref" in sk and sk["index_ref"] < MATTERS and (_top_below_reference(sk) or not well_above_reference(sk)):
        how = "plays worse than" if _top_below_reference(sk) else "is not well above"
        return (f"Skill beyond decent play: not measured here. The ladder's top rung, {_top_words(sk)}, {how} the "
                f"reference: win share {sk['share_ref']:.2f} [{sk['share_ref_lo']:.2f}, {sk['share_ref_hi']:.2f}] "
                f"where the equal share is {sk['equal']:.2f} (well above needs at least {sk['equal'] + STRONG_MARGIN:.2f} "
                f"at the 95% lower bound), index against it {sk['index_ref']:.2f} [{sk['index_ref_lo']:.2f}, "
                f"{sk['index_ref_hi']:.2f}]. These are lower bounds: a stronger player (a larger search budget) is "
                f"needed to say how much playing well matters ({bottom}).")
    v = _judged(sk)
    how = ("playing well matters a lot" if v >= MATTERS_A_LOT else "playing well matters at least somewhat"
           if v >= MATTERS else "beyond decent play the game is mostly luck")
    against = (f"against {sk['reference']}: {sk['index_ref']:.2f} [{sk['index_ref_lo']:.2f}, "
               f"{sk['index_ref_hi']:.2f}]; " if "index_ref" in sk else "")
    return (f"Skill: {how}, by the ladder's top rung {_top_words(sk)}, a lower bound set by that player ({against}"
            f"{bottom}, {sk['played']} winning {sk['share']:.0%} where the equal share is {sk['equal']:.0%}).")
