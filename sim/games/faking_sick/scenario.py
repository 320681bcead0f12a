"""Explicit-state scenarios for faking-sick (format: docs/scenarios/faking-sick.md).

The reference engine runs from the given state (always at the start of ``to_move``'s
turn); decisions come from the scenario list, then from ``bots`` (one name per seat), and
otherwise the run stops with ``waiting``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sim.kit.config import ConfigError
from sim.kit.rng import Rng
from sim.kit.scenario import Script, parse_envelope

from .reference import bots as B
from .reference import FakingSick, banned_counts
from .reference.bots import bot_decide
from .rules import FEV, NAME, NT, SNZ, TYPES, VIR, type_code
from .tables import WIN_METHODS

STATE_KEYS = {"hands", "banned", "draw", "discard", "unused", "removed", "to_move", "turns", "attack", "ban"}


class _Stop(Exception):
    def __init__(self, kind: str, payload: dict):
        super().__init__(kind)
        self.kind, self.payload = kind, payload


def card(name: Any, where: str) -> int:
    """A card type from its code (``FEV``), English or Japanese name (rules.ALIASES) or
    integer code 0..6; ConfigError otherwise."""
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < NT:
        return name
    code = type_code(name)
    if code is None:
        raise ConfigError(f"unknown card code {name!r} in {where}; known: {', '.join(TYPES)}")
    return code


def cards(items: Any, where: str) -> list[int]:
    if not isinstance(items, list):
        raise ConfigError(f"{where} must be a list of card codes")
    return [card(x, where) for x in items]


def seat(value: Any, n: int, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ConfigError(f"{where} must be a seat 0..{n - 1}, got {value!r}")
    return value


def load_state(g: FakingSick, state: dict) -> None:
    """Override the set-up engine with the fields of a scenario ``state`` (ConfigError on
    malformed input); fields left out keep their setup values."""
    if not isinstance(state, dict):
        raise ConfigError("state must be an object")
    bad = set(state) - STATE_KEYS - {"limbo", "virus_marker"}
    if bad:
        raise ConfigError(f"unknown state field(s): {', '.join(sorted(bad))}")
    n = g.n
    if "hands" in state:
        hands = state["hands"]
        if not isinstance(hands, list) or len(hands) != n:
            raise ConfigError(f"state.hands must list {n} hands")
        g.hands = [[0] * NT for _ in range(n)]
        for s in range(n):
            for t in cards(hands[s], f"state.hands[{s}]"):
                g.hands[s][t] += 1
    if "banned" in state:
        banned = state["banned"]
        if not isinstance(banned, list) or len(banned) != n or not all(isinstance(b, list) for b in banned):
            raise ConfigError(f"state.banned must list {n} banned-slot lists")
        g.slots = [[None if x is None else card(x, f"state.banned[{s}]") for x in banned[s]] for s in range(n)]
        if any(t == VIR for sl in g.slots for t in sl):
            raise ConfigError("state.banned may not hold VIR (FS-2.1, FS-8.2: viruses are never banned)")
    if "draw" in state:
        g.draw_pile = list(reversed(cards(state["draw"], "state.draw")))
    for zone in ("discard", "unused", "removed"):
        if zone in state:
            setattr(g, zone, cards(state[zone], f"state.{zone}"))
    if state.get("limbo") is not None:
        raise ConfigError("state.limbo must be null: scenarios start at the beginning of a turn")
    if "virus_marker" in state and cards(state["virus_marker"], "state.virus_marker") != [VIR]:
        raise ConfigError('state.virus_marker is always ["VIR"] (FS-2.2)')
    if "to_move" in state:
        g.to_move = seat(state["to_move"], n, "state.to_move")
    if "turns" in state:
        turns = state["turns"]
        if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
            raise ConfigError(f"state.turns must be a non-negative integer, got {turns!r}")
        g.turns = turns
    if "attack" in state:
        attack = state["attack"]
        g.attack, g.attack_target = None, -1
        if attack is not None:
            if not isinstance(attack, dict) or set(attack) != {"kind", "target"}:
                raise ConfigError('state.attack must be null or {"kind": "FEV"|"SNZ", "target": seat}')
            kind = card(attack["kind"], "state.attack.kind")
            if kind not in (FEV, SNZ):
                raise ConfigError("state.attack.kind must be FEV or SNZ")
            g.attack, g.attack_target = kind, seat(attack["target"], n, "state.attack.target")
            if g.p["effects_profile"] != "reconstructed":
                g.attack, g.attack_target = None, -1  # FS-5.1: vanilla has no attacks (T-17)
    if "ban" in state:
        ban = state["ban"]
        g.ban_owner = None
        if ban is not None:
            if not isinstance(ban, dict) or set(ban) != {"owner"}:
                raise ConfigError('state.ban must be null or {"owner": seat}')
            g.ban_owner = seat(ban["owner"], n, "state.ban.owner")
    initial_effect(g, "attack" in state, "ban" in state)
    g.total = g.zone_counts()


def initial_effect(g: FakingSick, has_attack: bool, has_ban: bool) -> None:
    """Attack and ban the state leaves out are none (not the seeded setup's), except that
    when both are left out, with ``initial_card_effect = apply`` and ``turns = 0`` (the
    game's start), the top of the given discard pile acts as played by the seat before
    ``first_player`` (FS-2.6)."""
    if not has_attack:
        g.attack, g.attack_target = None, -1
    if not has_ban:
        g.ban_owner = None
    if not (has_attack or has_ban) and g.p["initial_card_effect"] == "apply" and g.turns == 0 and g.discard:
        g.resolve_effect((g.p["first_player"] - 1) % g.n, g.discard[-1])


def dump_state(g: FakingSick) -> dict:
    """The complete state in the input schema, plus ``limbo`` (the played card being judged)
    and ``virus_marker`` (the set-aside VIR, FS-2.2), so that all list zones sum to the deck."""
    names = lambda xs: [TYPES[t] for t in xs]  # noqa: E731
    return {
        "hands": [names(t for t in range(NT) for _ in range(g.hands[s][t])) for s in range(g.n)],
        "banned": [[None if t is None else TYPES[t] for t in g.slots[s]] for s in range(g.n)],
        "draw": names(reversed(g.draw_pile)),
        "discard": names(g.discard),
        "unused": names(g.unused),
        "removed": names(g.removed),
        "to_move": g.to_move,
        "turns": g.turns,
        "attack": None if g.attack is None else {"kind": TYPES[g.attack], "target": g.attack_target},
        "ban": None if g.ban_owner is None else {"owner": g.ban_owner},
        "limbo": None if g.limbo is None else TYPES[g.limbo],
        "virus_marker": [TYPES[VIR]],
    }


# input synonyms of a decision kind's actions (the canonical form is what ``legal`` lists)
SYNONYMS = {"attack": {"play": "counter", "draw": "accept"}, "after_draw": {"pass": "end"}}


def _same(decision: dict, option: dict, kind: str) -> bool:
    if "call" in option:
        return decision.get("call") is option["call"]
    if "push" in option:
        got = decision.get("push")
        return isinstance(got, list) and Counter(card(x, "push") for x in got) == Counter(
            card(x, "push") for x in option["push"])
    action = decision.get("action")
    action = SYNONYMS.get(kind, {}).get(action, action)
    if action != option["action"]:
        return False
    return "card" not in option or card(decision.get("card"), "card") == card(option["card"], "card")


def _check_codes(d: dict, index: int) -> None:
    """Malformed decisions (not merely illegal ones) are ConfigErrors."""
    known = {"player", "action", "card", "bluff", "call", "calls", "push"}
    if set(d) - known:
        raise ConfigError(f"decision {index}: unknown field(s) {', '.join(sorted(set(d) - known))}")
    if "player" in d and (not isinstance(d["player"], int) or isinstance(d["player"], bool)):
        raise ConfigError(f"decision {index}: player must be a seat number, got {d['player']!r}")
    if "card" in d:
        card(d["card"], f"decision {index}")
    if "bluff" in d and not isinstance(d["bluff"], bool):
        raise ConfigError(f"decision {index}: bluff must be true or false")
    if "push" in d:
        cards(d["push"], f"decision {index}.push")
    if "action" in d and d["action"] not in ("play", "draw", "counter", "accept", "end", "pass"):
        raise ConfigError(f"decision {index}: unknown action {d['action']!r}")


class ScriptAgent:
    """Decisions from the scenario list, then bots, else stop with ``waiting``."""

    def __init__(self, script: Script, bot_names: list[str] | None, cfg):
        self.script = script
        self.bots = None
        if bot_names:
            specs = [B.BOTS[b] for b in bot_names]
            self.bots = [(sp.policy, {k: cfg.bot_param(sp.name, k, sp.params) for k in sp.params}) for sp in specs]

    def _next(self) -> dict | None:
        return self.script.next()

    def _illegal(self, d: dict, reason: str):
        raise _Stop("illegal", {"index": self.script.pos, "decision": d, "reason": reason})

    def window(self, g: FakingSick, s: int, t: int, eligible: list[int]) -> list[int]:
        """FS-6.2 from the list: one ``{"calls": [...]}``, or ``{"call": bool}`` answers (with
        ``player``: in any order; without: the next unanswered player clockwise from ``s``).
        Players left unanswered pass when the list goes on with another decision (an action,
        or a push after at least one answer), and are asked (bots / ``waiting``) when the list
        has run out."""
        d = self._next()
        if d is not None and "calls" in d:
            callers = d["calls"]
            if not isinstance(callers, list) or any(not isinstance(q, int) or isinstance(q, bool) for q in callers):
                raise ConfigError(f"decision {self.script.pos}: calls must be a list of seats")
            for q in callers:
                if q not in eligible:
                    self._illegal(d, f"P{q} may not call this play (FS-6.1)")
            self.script.take()
            return [q for q in eligible if q in callers]
        answers: dict[int, bool] = {}
        while True:
            pending = [q for q in eligible if q not in answers]
            d = self._next()
            if not pending:
                break
            if d is None:
                opts = [{"call": False}, {"call": True}]
                for q in pending:
                    answers[q] = self.decide(g, q, "call", opts)["call"]
                break
            if "call" not in d:
                if "action" in d or answers:
                    break  # the list moves on (an action, or the push after an answer): the others pass
                self._illegal(d, f"expected a call decision of P{pending[0]}")
            q = d.get("player", pending[0])
            if q in answers:
                self._illegal(d, f"P{q} already answered this call window")
            if q not in eligible:
                self._illegal(d, f"P{q} may not call this play (FS-6.1)")
            if not isinstance(d["call"], bool):
                self._illegal(d, "call must be true or false")
            answers[q] = d["call"]
            self.script.take()
        return [q for q in eligible if answers.get(q)]

    def decide(self, g: FakingSick, s: int, kind: str, legal: list[dict]) -> dict:
        d = self._next()
        if d is None:
            if self.bots is None:
                raise _Stop("waiting", {"player": s, "decision": kind, "legal": legal})
            policy, params = self.bots[s]
            return bot_decide(g, s, policy, params, kind, legal, **g.ctx)
        if "player" in d and d["player"] != s:
            self._illegal(d, f"the next decision is P{s}'s ({kind}), not P{d['player']}'s")
        expected = {"call": "call", "push": "push"}.get(kind, "action")
        if expected not in d:
            self._illegal(d, f"expected a {kind} decision of P{s}")
        for option in legal:
            if _same(d, option, kind):
                if "bluff" in d and "card" not in option:
                    self._illegal(d, f"a {option['action']} is no play: bluff does not apply")
                if "bluff" in d and d["bluff"] != option.get("bluff"):
                    self._illegal(d, f"{option['card']} is {'' if option['bluff'] else 'not '}a bluff for P{s}")
                self.script.take()
                return option
        self._illegal(d, f"not a legal {kind} decision for P{s}")
        raise AssertionError  # unreachable


def _players_in_state(state: dict) -> int | None:
    """One player per listed hand (else the game default)."""
    hands = state.get("hands")
    return len(hands) if isinstance(hands, list) and hands else None


def run_scenario(game, spec: dict) -> dict:
    env = parse_envelope(game, spec, _players_in_state)
    players, cfg, seed = env.players, env.config, env.seed
    for i, d in enumerate(env.decisions):
        _check_codes(d, i)
    script = Script(env.decisions)
    agent = ScriptAgent(script, env.bots, cfg)
    log: list[str] = []
    g = FakingSick(cfg.params, players, Rng(seed, 0), agent, log)
    g.setup()
    g.log.clear()
    g.stats = dict.fromkeys(g.stats, 0)
    load_state(g, env.state)
    g.initial_banned = [g.banned_types(s) for s in range(players)]  # the scenario's start
    g.check = True
    out = {"game": NAME, "illegal": None, "waiting": None, "finished": False, "result": None}
    try:
        g.play_game()
    except _Stop as stop:
        out[stop.kind] = stop.payload
    out["state"] = dump_state(g)
    out["events"] = log
    out["finished"] = g.over
    if g.over:
        out["result"] = {
            "winner": g.winner,
            "winner_seat": g.winner,
            "win_method": WIN_METHODS[g.win_method],
            "end_reason": "turn_cap" if g.turn_cap else "winner",
            "turns": g.turns,
            "winner_banned": [] if g.winner < 0 else [TYPES[t] for t in g.banned_types(g.winner)],
        }
    out["stats"] = stats(g)
    out.update(script.report())
    return out


def stats(g: FakingSick) -> dict:
    """The ``games`` table counters (game feel included), the same under the spec's Metrics
    names, and per seat."""
    c = g.stats
    spec_names = {
        "turns": g.turns, "bluffs_attempted": c["bluffs"], "bluffs_uncalled": c["bluffs"] - c["calls_succeeded"],
        "banned_reveals": c["reveals"], "duplicate_banned_reveals": c["duplicate_reveals"],
        "replacement_viruses_skipped": c["viruses_skipped"], "draws_voluntary": c["draws"],
        "draws_penalty": c["penalty_draws"], "cards_drawn_total": c["cards_drawn"],
        "virus_plays_blocked": c["virus_blocked"],
    }
    seats = []
    for s in range(g.n):
        x = g.seat[s]
        seats.append({**x, "final_hand": g.hand_size(s), "final_hand_size": g.hand_size(s), "honest_plays": x["plays"] - x["bluffs"],
                      "calls_succeeded": x["calls_correct"], "calls_failed": x["calls_made"] - x["calls_correct"],
                      "cards_received_by_push": x["cards_received"],
                      "draws_voluntary": x["draws"], "max_behind": g.lead.max_behind[s],
                      **banned_counts("initial", g.initial_banned[s]), **banned_counts("final", g.banned_types(s))})
    banned_calls = [{"banned": TYPES[y], "card": TYPES[t], "calls": v[0], "successes": v[1]}
                    for y, row in enumerate(g.banned_call_sums) for t, v in enumerate(row) if v[0]]
    return {**c, **spec_names, **g.lead.columns(g.winner), "seats": seats, "banned_calls": banned_calls}
