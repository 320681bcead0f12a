"""The search bot's parameters (``sim.kit.search``), declared once for every game (no numba here)."""

from __future__ import annotations

from sim.kit.config import BotParam

MAX_BUDGET = 1_000_000


def search_params(rollout_bots: dict[str, int], objectives: tuple[str, ...]) -> tuple[BotParam, ...]:
    """The ``BotParam`` rows of a game's search bot: ``rollout_bots`` maps the scripted bots
    that can play its rollouts to their policy codes; ``objectives`` names the objective codes
    0, 1, ... the game scores."""
    bots = ", ".join(f"{code} {name}" for name, code in rollout_bots.items())
    goals = ", ".join(f"{i} {name}" for i, name in enumerate(objectives))
    return (
        BotParam("budget", 1.0, float(MAX_BUDGET), "search: rollouts per decision, spread over the legal options"),
        BotParam("determinizations", 0.0, float(MAX_BUDGET),
                 "search: re-dealt worlds per decision (0: one per rollout of each option)"),
        BotParam("rollout", float(min(rollout_bots.values())), float(max(rollout_bots.values())),
                 f"search: the scripted bot that plays the rollouts ({bots})"),
        BotParam("objective", 0.0, float(len(objectives) - 1), f"search: what a rollout scores ({goals})"),
        BotParam("horizon", 0.0, 1e6, "search: turns a rollout plays before it is scored on the position "
                 "(0: until what it scores is decided)"),
    )


SEARCH = "search"
SEEING = "seeing"
"""The all-seeing search bot: the same search, its worlds the true game (every hidden card where
it is); only the chance still to come (the deck's order below the cards already seen, later
shuffles and draws) is drawn again from the search stream. A yardstick of what hidden
information is worth, never a player of a design run (``analysis.eligibility``)."""
WEIGHTED = "weighted"
"""The search with weighted worlds (``sim.kit.search.decide``, ``MODE_WEIGHTED``): each re-dealt world weighed
by how likely it makes the opponents' observed plays (faking-sick), hidden viruses (virus-dogs) or
plays and passes (daifugo). An honest player."""
SEARCH_BOTS = (SEARCH, SEEING, WEIGHTED)
HONEST_SEARCH = (SEARCH, WEIGHTED)


def seats_search(bots) -> bool:
    """Does a table of ``bots`` seat a search bot (honest or all-seeing)?"""
    return any(b in SEARCH_BOTS for b in bots)


def seats_seeing(bots) -> bool:
    """Does a table of ``bots`` seat the all-seeing bot (its run is marked ``all_seeing``)?"""
    return SEEING in bots


WEIGHTED_DOC = ("search with weighted worlds (sim.kit.search.decide): each re-dealt world counts as likely as it "
                "makes the opponents' observed plays")
SEEING_DOC = ("all-seeing search (sim.kit.search): the search bot dealt the true hidden cards, only the chance "
              "still to come re-drawn; a yardstick, never a design-run player")
