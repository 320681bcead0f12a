"""Helpers for faking-sick scenario tests."""

from __future__ import annotations

from collections import Counter

from sim.games.faking_sick import GAME
from sim.games.faking_sick.rules import TYPES

DECK = dict(zip(TYPES, (32, 16, 16, 8, 8, 8, 8)))


def run(state: dict, decisions=(), players: int = 4, params=None, bots=None) -> dict:
    """Run a scenario dict through GAME.scenario (the JSON format of docs/scenarios)."""
    spec = {"game": "faking-sick", "players": players, "params": params or {}, "seed": 0,
            "state": state, "decisions": list(decisions)}
    if bots:
        spec["bots"] = bots
    return GAME.scenario(spec)


def ms(cards) -> Counter:
    """Multiset of card codes."""
    return Counter(cards)


def hand(out: dict, s: int) -> Counter:
    return ms(out["state"]["hands"][s])


def legal(out: dict) -> list[tuple]:
    """The waiting player's legal options as (action, card, bluff) tuples."""
    return [(o.get("action"), o.get("card"), o.get("bluff")) for o in out["waiting"]["legal"]]


def state_cards(state: dict) -> Counter:
    """Every card of an output state, plus the virus marker (FS-1.3)."""
    c = Counter({"VIR": 1})
    for h in state["hands"]:
        c.update(h)
    for b in state["banned"]:
        c.update(x for x in b if x is not None)
    for zone in ("draw", "discard", "unused", "removed"):
        c.update(state[zone])
    if state.get("limbo"):
        c[state["limbo"]] += 1
    return c


def fill_draw(state: dict) -> dict:
    """Append the rest of the 96-card deck below the listed draw pile (for FS-1.3 tests)."""
    have = state_cards({**state, "limbo": None, **{k: state.get(k, []) for k in ("unused", "removed")}})
    rest = []
    for t in TYPES:
        rest += [t] * (DECK[t] - have[t])
    return {**state, "draw": list(state.get("draw", [])) + rest}
