"""Which runs may carry the design findings and the verdict.

A run's design findings (seat order, stalls, rule cards) speak of the rules only when the run
has enough games to measure effects at the practical threshold (``MIN_DESIGN_GAMES``) and when
its players play at least as well as the game's scripted reference: a weak player's mistakes
would be measured as rule effects. A run played by scripted bots needs only the games; a run
with a search seat must also be shown stronger than the reference by a skill ladder of the
same game in the same report (``rated_strength``). A run that fails (``Standing.eligible``) is
kept out of the findings and of the verdict: the robustness part shows it when it is one of
its pair, else the list "Runs kept out of the design findings" (``kept_sections``) names it.

A run where the all-seeing search plays (``sim.kit.search_params.SEEING``: it sees the hidden cards;
``run.json`` marks it ``all_seeing``) is never eligible, whatever its games and strength: it is
a yardstick of what hidden information is worth, not a player of the game. Such runs are listed
apart, under "All-seeing runs kept out of the design findings".
"""

from __future__ import annotations

from dataclasses import dataclass

from analysis.sections import Section
from sim.run.ladder import SEARCH, Player
from sim.kit.search_params import HONEST_SEARCH, SEARCH_BOTS, SEEING, WEIGHTED

MIN_DESIGN_GAMES = 2000
"""Fewest games a run needs for design findings. At an even four-seat table (win rate 25%) one
seat's win rate minus the other seats' has a standard error of about 0.5 / sqrt(games): at
2,000 games its 95% interval is about +-2.2 percentage points, twice the 1-point practical
threshold, and an effect of three times the threshold (a red line) is found in about three runs
of four. With fewer games only effects that noise has inflated reach significance, and as the
findings rank by size, those would come first."""

KEPT_TITLE = "Runs kept out of the design findings"
SEEING_TITLE = "All-seeing runs kept out of the design findings"
SEEING_REASON = "an all-seeing search seat plays in it (it sees the hidden cards: a yardstick, not a player)"
NO_LADDER = "not rated (no skill ladder of this game in the report)"


@dataclass(frozen=True)
class Strength:
    """A run's player as the skill ladder rates it against the scripted reference."""

    text: str  # "rated 120 Elo below cautious (95% interval -180 to -60; skill ladder vd-ladder)"
    stronger: bool  # rated above the reference, the whole 95% interval above


def player_rung(run) -> str | None:
    """The run's player as a ladder rung: ``search@B`` when a seat plays the search bot (its
    budget B), the bot when every seat plays the same one, else None (mixed scripted bots)."""
    bots = list(run.config.bots)
    for bot in (SEEING, SEARCH, WEIGHTED):
        if bot in bots:
            return Player(bot, budget(run, bot)).name
    return bots[0] if len(set(bots)) == 1 else None


def budget(run, bot: str = SEARCH) -> int:
    """The budget of search bot ``bot`` in ``run`` (its override, else the game's default)."""
    return int(run.config.bot_param(bot, "budget", run.game.bots[bot].params))


def all_seeing(run) -> bool:
    """Does an all-seeing search seat play in ``run`` (its bots, or its ``run.json`` mark)?"""
    return SEEING in run.config.bots or bool(getattr(run, "meta", {}).get("all_seeing"))


def player_text(run) -> str:
    """The run's bots in words: "search x4 at budget 16", "cautious, strategist x3"."""
    bots, out = list(run.config.bots), []
    for name in dict.fromkeys(bots):
        k = bots.count(name)
        out.append(f"{name}{f' x{k}' if k > 1 else ''}" + (f" at budget {budget(run, name)}" if name in SEARCH_BOTS else ""))
    return ", ".join(out)


def rated_strength(run, ladders) -> Strength:
    """The run's player (``player_rung``) against the reference of a skill ladder of the same
    game (``analysis.skill.Ladder``; one with the run's rule parameters first): its rating
    minus the reference's with the 95% interval of that difference. Stronger: both above 0."""
    rung = player_rung(run)
    same = [ld for ld in ladders if ld.game == run.config.game]
    if not same:
        return Strength(NO_LADDER, False)
    if rung is None:
        return Strength("not rated (its seats play different scripted bots)", False)
    rated = [ld for ld in same if rung in ld.players]
    if not rated:
        return Strength(f"not rated (the skill ladder {same[0].path.name} has no {rung} rung)", False)
    ladder = next((ld for ld in rated if _params(ld) == run.config.params), rated[0])
    where = f"skill ladder {ladder.path.name}" + _other_rules(ladder, run)
    if rung == ladder.reference:
        return Strength(f"the reference of the {where}", False)
    d, lo, hi = ladder.summary["ratings"].difference(rung, ladder.reference)
    side = "above" if d >= 0 else "below"
    return Strength(f"rated {abs(d):.0f} Elo {side} {ladder.reference} (95% interval {lo:+.0f} to {hi:+.0f}; {where})",
                    d > 0 and lo > 0)


def _params(ladder) -> dict:
    return ladder.pairings[0].run.config.params


def _other_rules(ladder, run) -> str:
    keys = sorted(k for k in set(_params(ladder)) | set(run.config.params)
                  if _params(ladder).get(k) != run.config.params.get(k))
    return f", played with other rule parameters: {', '.join(keys)}" if keys else ""


@dataclass
class Standing:
    """A run's claim to carry design findings: its games and its player's rated strength."""

    label: str
    run: object
    strength: Strength

    @property
    def games(self) -> int:
        return self.run.games_done

    @property
    def searched(self) -> bool:
        return any(b in HONEST_SEARCH for b in self.run.config.bots)

    @property
    def all_seeing(self) -> bool:
        return all_seeing(self.run)

    @property
    def too_small(self) -> bool:
        return self.games < MIN_DESIGN_GAMES

    @property
    def eligible(self) -> bool:
        return not self.all_seeing and not self.too_small and (self.strength.stronger or not self.searched)

    @property
    def shown_strong(self) -> bool:
        """Enough games and a player rated above the reference: its play is evidence."""
        return not self.all_seeing and not self.too_small and self.strength.stronger

    def headline(self) -> str:
        """Player, budget, games and rated strength: "search x4 at budget 16, 800 games, not rated (...)"."""
        return f"{player_text(self.run)}, {self.games:,} games, {self.strength.text}"

    def reasons(self, any_player: bool = False) -> str:
        """Why the run is kept out, in words ("" when it is not); ``any_player``: also when a
        scripted player is not shown stronger (what a robustness part needs of its search run)."""
        out = [SEEING_REASON] if self.all_seeing else []
        if self.too_small:
            out.append(f"{self.games:,} games are fewer than the {MIN_DESIGN_GAMES:,} that design findings need")
        if (self.searched or any_player) and not self.strength.stronger:
            out.append(f"its {'search ' if self.searched else ''}player is not shown stronger than the game's "
                       "scripted reference")
        return "; ".join(out)


def standing(label: str, run, ladders) -> Standing:
    return Standing(label, run, rated_strength(run, ladders))


def kept_section(kept: list[Standing]) -> Section:
    """The short list of runs kept out (each linked to its part), or an empty list."""
    text = (f"A run carries design findings and a verdict page when it has at least {MIN_DESIGN_GAMES:,} games and, "
            "if a search bot plays in it, that bot is rated above the game's scripted reference by a skill ladder "
            "of the same game in this report (the whole 95% interval above). These runs are not: their tests join "
            "no findings list; their own parts follow as measurements.")
    return Section(KEPT_TITLE, text=text,
                   items=[(f"{s.run.path.name}: {s.headline()}. Kept out: {s.reasons()}.", (s.label, "")) for s in kept])


def kept_sections(kept: list[Standing]) -> list[Section]:
    """``kept_section`` of the runs kept out for a player or their size, then the all-seeing runs
    apart (``seeing_section``); a list without the empty ones."""
    honest = [s for s in kept if not s.all_seeing]
    seeing = [s for s in kept if s.all_seeing]
    return ([kept_section(honest)] if honest else []) + ([seeing_section(seeing)] if seeing else [])


def seeing_section(kept: list[Standing]) -> Section:
    """The list of runs kept out because the all-seeing search plays in them."""
    text = ("In these runs a seat plays the all-seeing search: the search bot dealt the true hidden cards (the "
            "opponents' hands, banned cards, hidden viruses). It measures what hidden information is worth and is "
            "never a player of the game, so these runs join no findings list and no verdict line, whatever their "
            "size; their own parts follow as measurements.")
    return Section(SEEING_TITLE, text=text,
                   items=[(f"{s.run.path.name}: {s.headline()}. Kept out: {s.reasons()}.", (s.label, "")) for s in kept])


def kept_note(s: Standing) -> Section:
    """The first section of a kept-out run's own part: why its figures carry no finding."""
    title = "All-seeing: kept out of the design findings" if s.all_seeing else "Kept out of the design findings"
    return Section(title, text=(
        f"{s.headline()[:1].upper()}{s.headline()[1:]}. Kept out: {s.reasons()}. The sections below are measurements "
        "only: no finding or verdict line rests on them, and a value they suggest (such as a VP to print) is no advice."))
