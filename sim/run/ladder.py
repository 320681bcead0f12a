"""A skill ladder: players from random through the scripted bots to search at doubling budgets,
played on shared deals.

Each pairing is one ordinary run: one seat of the challenger against ``players - 1`` seats of
the opponent, the bots rotated over the seats game by game (``sim.kit.kernel_util.seat_bot``), with
the same seed in every pairing, so every pairing plays the same deals. A game seats one search
bot at most (its budget is a parameter of the run), so two search budgets never meet at the
table: the ladder puts every player against one reference (the game's strongest scripted bot),
and the top rung against the bottom rung; the ratings (``analysis.skill``) connect them all.

The all-seeing search (``seeing@B``, ``sim.kit.search_params.SEEING``) can be a rung too: a yardstick
of what hidden information is worth (``analysis.hidden_info``), never the top rung of the skill
index (``top_honest``), and its pairings' runs are marked ``all_seeing``.

The ladder directory holds ``ladder.json`` (the game, the players in rung order, the reference
and each pairing's run directory) and one run directory per pairing. Rerunning the same command
resumes every pairing; another ladder into the same directory is refused.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from sim.kit.config import ConfigError, RunConfig, RunOptions
from sim.kit.search_params import SEARCH_BOTS, SEEING

LADDER_FILE = "ladder.json"
DEFAULT_BUDGETS = (16, 32, 64, 128)
SEARCH = "search"


@dataclass(frozen=True)
class Player:
    """A rung: a bot, and for the search bot its budget (rollouts a decision) and, when not its
    default one, the bot that plays its rollouts (``rollout``, whose policy code is ``rollout_code``)."""

    bot: str
    budget: int | None = None
    rollout: str | None = None
    rollout_code: int | None = None

    @property
    def name(self) -> str:
        if self.budget is None:
            return self.bot
        return f"{self.bot}@{self.budget}" + (f":{self.rollout}" if self.rollout else "")

    @classmethod
    def parse(cls, game, text: str) -> "Player":
        """``bot``, ``search@budget``, ``seeing@budget`` or ``search@budget:rollout-bot``; an
        unknown bot or a bad budget is a ConfigError."""
        bot, _, budget = text.strip().partition("@")
        if bot not in game.bots:
            raise ConfigError(f"unknown player {text!r} for {game.name}; bots: {', '.join(game.bots)}")
        if bot in SEARCH_BOTS:
            budget, _, rollout = budget.partition(":")
            if not budget.isdigit() or int(budget) < 1:
                raise ConfigError(f"player {text!r}: give the search budget as {bot}@N with N >= 1")
            if not rollout:
                return cls(bot, int(budget))
            if rollout not in game.bots or rollout in SEARCH_BOTS:
                raise ConfigError(f"player {text!r}: unknown rollout bot {rollout!r}")
            return cls(bot, int(budget), rollout, game.bots[rollout].policy)
        if budget:
            raise ConfigError(f"player {text!r}: only the search bot takes a budget (@N), as does the all-seeing one")
        return cls(bot)


@dataclass(frozen=True)
class Pairing:
    """One run of the ladder: the challenger's seat against the opponent's other seats."""

    challenger: Player
    opponent: Player

    @property
    def name(self) -> str:
        return f"{self.challenger.name}-vs-{self.opponent.name}"


def default_players(game, budgets=DEFAULT_BUDGETS) -> list[Player]:
    """Random, every scripted bot in the game's order, then search at ``budgets``."""
    scripted = [Player(b) for b in game.bots if b not in ("random", *SEARCH_BOTS)]
    search = [Player(SEARCH, b) for b in budgets] if SEARCH in game.bots else []
    return ([Player("random")] if "random" in game.bots else []) + scripted + search


def players_from(game, text: str | None, budgets_text: str | None) -> list[Player]:
    """The rungs of ``--rungs`` (comma-separated) or the default ladder with ``--budgets``."""
    if text:
        players = [Player.parse(game, t) for t in text.split(",") if t.strip()]
    else:
        players = default_players(game, parse_budgets(budgets_text) if budgets_text else DEFAULT_BUDGETS)
    names = [p.name for p in players]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigError(f"--rungs lists {', '.join(twice)} more than once")
    if len(players) < 2:
        raise ConfigError("a ladder needs at least two players")
    return players


def parse_budgets(text: str) -> tuple[int, ...]:
    items = [t.strip() for t in text.split(",")]
    if not all(t.isdigit() and int(t) >= 1 for t in items):
        raise ConfigError(f"--budgets {text!r}: give whole numbers >= 1 separated by commas")
    return tuple(int(t) for t in items)


def reference_player(game, players: list[Player], name: str | None) -> Player:
    """The opponent of every pairing: ``name``, or the game's strongest scripted bot."""
    if name is None:
        step = getattr(game, "step", None)
        name = step.search_opponents[0] if step is not None and step.search_opponents else players[0].name
    ref = Player.parse(game, name)
    if ref.bot in SEARCH_BOTS:
        raise ConfigError("the reference must be a scripted bot (a game seats one search bot at most)")
    if ref not in players:
        raise ConfigError(f"the reference {ref.name} is not one of the rungs ({', '.join(p.name for p in players)}); "
                          f"add it to --rungs or name one of them with --reference")
    return ref


def plan(players: list[Player], reference: Player) -> list[Pairing]:
    """Every other player against the reference, then the top rung (``top_honest``) against the bottom rung."""
    pairings = [Pairing(p, reference) for p in players if p != reference]
    top, bottom = top_honest(players), players[0]
    if top.bot not in SEARCH_BOTS or bottom.bot not in SEARCH_BOTS:  # two search bots never share a table
        if Pairing(top, bottom) not in pairings:
            pairings.append(Pairing(top, bottom))
    return pairings


def pairing_config(make_config: Callable[[list[str], dict], RunConfig], players: int, pairing: Pairing) -> RunConfig:
    """The run config of a pairing: ``make_config(bots, overrides)`` with the challenger first."""
    bots = [pairing.challenger.bot] + [pairing.opponent.bot] * (players - 1)
    searcher = pairing.challenger if pairing.challenger.budget is not None else pairing.opponent
    if searcher.budget is None:
        return make_config(bots, {})
    rollout = {} if searcher.rollout_code is None else {f"bot.{searcher.bot}.rollout": searcher.rollout_code}
    return make_config(bots, {f"bot.{searcher.bot}.budget": searcher.budget, **rollout})


def top_honest(players: list[Player]) -> Player:
    """The top rung of the skill index: the last player that is not the all-seeing search."""
    return next(p for p in reversed(players) if p.bot != SEEING)


def is_seeing(name: str) -> bool:
    """Is the rung ``name`` (``Player.name``) the all-seeing search?"""
    return name.partition("@")[0] == SEEING


@dataclass(frozen=True)
class Rungs:
    """A ladder's players: ``rungs`` (``--rungs``, from the weakest up; default: random, each
    scripted bot and the learned bot, then search at ``budgets``) and the ``reference`` every
    player meets (default: the game's strongest scripted bot)."""

    rungs: str | None = None
    budgets: str | None = None
    reference: str | None = None

    def players(self, game) -> tuple[list[Player], Player]:
        """The players from the weakest up, and the reference."""
        players = players_from(game, self.rungs, self.budgets)
        return players, reference_player(game, players, self.reference)


def games_per_pairing(games: int, pairings: int) -> int:
    if games < pairings:
        raise ConfigError(f"--games {games} is fewer than the ladder's {pairings} pairings")
    return -(-games // pairings)


def manifest(game: str, players: list[Player], reference: Player, pairings: list[Pairing]) -> dict:
    return {"game": game, "players": [p.name for p in players], "reference": reference.name,
            "pairings": [{"run": p.name, "challenger": p.challenger.name, "opponent": p.opponent.name}
                         for p in pairings]}


def write_manifest(out: Path, doc: dict) -> None:
    """Write ``ladder.json``; a different ladder already in ``out`` is refused (its runs are kept)."""
    path = out / LADDER_FILE
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except (OSError, ValueError):
            raise ConfigError(f"{path} is damaged: not a cardlab ladder manifest") from None
        if old != doc:
            raise ConfigError(f"{out} holds another ladder ({', '.join(old.get('players', []))}); "
                              "use a new --out or the same players, reference and game")
        return
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    tmp.replace(path)


def run_ladder(game, players: list[Player], reference: Player, games: int, out: str | Path,
               make_config: Callable[[list[str], dict], RunConfig], options: RunOptions = RunOptions(),
               notes: Callable[[RunConfig], dict | None] = lambda cfg: None) -> list[tuple[Pairing, object]]:
    """Play (or resume) every pairing of the ladder into ``out``, ``games`` in all, split evenly
    over the pairings (each the cap of its stopping rule when ``options`` has one: its precision on
    the challenger's win share); ``options.notify`` gets a line for each pairing played; returns
    (pairing, run summary). ``notes(cfg)``: further run.json keys of a pairing's run."""
    from sim.run import runner
    from sim.run.stopping import StoppingRule
    from sim.run.store import writer_lock

    out = Path(out)
    pairings = plan(players, reference)
    n = make_config([players[0].bot], {}).players
    configs = [pairing_config(make_config, n, p) for p in pairings]  # every config checked before a game is played
    each = games_per_pairing(games, len(pairings))
    done = []
    with writer_lock(out, f"{game.name} ladder"):
        write_manifest(out, manifest(game.name, players, reference, pairings))
        for pairing, cfg in zip(pairings, configs):
            rule = options.stopping and StoppingRule(options.stopping.precision, f"bot_win:{pairing.challenger.bot}")
            run = dataclasses.replace(options, progress=False, notify=None, stopping=rule, notes=notes(cfg))
            summary = runner.run(cfg, each, out / pairing.name, run)
            if options.notify:
                options.notify(f"{pairing.name}: {summary.games:,} games ({summary.seconds:.1f} s)")
            done.append((pairing, summary))
    return done
