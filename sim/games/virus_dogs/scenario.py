"""Explicit-state scenarios for Virus Dogs in the reference engine (docs/scenarios/virus-dogs.md)."""

from __future__ import annotations

from typing import Any

from sim.kit.config import ConfigError
from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.reference.bots import BOTS, BotAgent, Bots
from sim.games.virus_dogs.reference import Engine
from sim.games.virus_dogs.rules import BAT, CAUSES, CODE_OF, CODES, N_TYPES, OUTCOMES, V, Rules
from sim.kit.rng import Rng
from sim.kit.scenario import Script, parse_envelope

STATE_KEYS = {"deck", "reserve", "discard", "players", "current", "phase", "turn", "doctors_played",
              "cards_played", "known_top", "first", "pending", "unresolved"}
# Spellings accepted on input besides the documented ones (outputs use the documented ones).
MODE_ALIASES = {"normal": "draw", "black_market": "market"}
PLAYER_KEYS = {"hand", "open", "treatment", "live", "suspicion"}
DECISION_FIELDS = {
    "declare": (), "play": ("card", "target"), "mode": ("mode", "count"), "end": (),
    "draw_another": ("value",), "virus": ("response",), "mask_take": ("take",),
    "market_take": ("index",), "cough": ("response",), "cough_virus": ("response",),
    "give": ("card",), "refuse_exchange": ("value",), "hq_target": ("player",),
}


class Waiting(Exception):
    def __init__(self, seat: int, kind: str, legal: list[dict]):
        self.seat, self.kind, self.legal = seat, kind, legal


class Illegal(Exception):
    def __init__(self, index: int, decision: dict, reason: str):
        self.index, self.decision, self.reason = index, decision, reason


def _norm(d: dict) -> dict:
    out = {k: v for k, v in d.items() if k != "by" and (k != "player" or d["type"] == "hq_target")}
    if "take" in out:
        out["take"] = sorted(out["take"])
    if "card" in out:
        out["card"] = out["card"].upper()
    if out.get("mode") in MODE_ALIASES:
        out["mode"] = MODE_ALIASES[out["mode"]]
    return out


def _by(d: dict, default: int) -> int:
    """The seat a decision asserts as its decider: ``by`` (or ``player``, except for hq_target)."""
    if "by" in d:
        return d["by"]
    return d["player"] if "player" in d and d["type"] != "hq_target" else default


def _show(legal: list[dict]) -> str:
    return "; ".join(", ".join(f"{k}={v}" for k, v in o.items()) for o in legal)


class ScriptedAgent:
    """Takes decisions from the scenario list in order, then falls back to bots (or waits)."""

    def __init__(self, script: Script, fallback: list | None, stop_early: bool = False,
                 stop_at_forced: bool = False):
        self.script = script
        self.fallback = fallback
        # Once the list is used up: stop before a forced draw from a non-empty deck.
        self.stop_early = stop_early
        # Every forced decision is asked like a real one (envelope ``stop_at_forced``).
        self.stop_at_forced = stop_at_forced
        # The state after the last listed decision was applied, before any forced step that
        # followed it: (state, number of events, forced options taken since). An illegal
        # decision reports this state (docs/scenarios.md: "the state after the last decision
        # applied").
        self.snap: tuple[dict, int, list] | None = None
        self.fresh = True

    @property
    def pos(self) -> int:
        return self.script.pos

    def _query(self, eng) -> None:
        if self.fresh:
            self.snap = (dump_state(eng), len(eng.log or []), [])
            self.fresh = False

    def _take(self, forced: bool = False) -> None:
        self.script.take(forced)
        self.fresh = True

    def _next_matches(self, seat: int, option: dict) -> bool:
        d = self.script.next()
        return d is not None and _norm(d) == option and _by(d, seat) == seat

    def decide(self, eng, seat, kind, legal):
        """The reference engine's bot interface: a single option is a forced step."""
        if len(legal) == 1:
            self.forced(eng, seat, kind, legal[0])
            return legal[0]
        return self.choose(eng, seat, kind, legal)

    def forced(self, eng, seat, kind, option) -> None:
        if self.stop_at_forced and (self.script.next() is not None or self.fallback is None):
            self.choose(eng, seat, kind, [option], forced=True)
            return
        self._query(eng)
        if self._next_matches(seat, option):
            self._take(forced=True)
        elif self.stop_early and self.exhausted() and option["type"] == "mode" and eng.deck:
            raise Waiting(seat, kind, [option])
        else:
            self.snap[2].append(f"P{seat} {kind}: " + _show([option]))

    def waived(self, eng, seat, kind, options) -> None:
        """A listed decision for a choice that cannot arise (e.g. stop after two cards) is consumed."""
        if any(self._next_matches(seat, o) for o in options):
            self._query(eng)
            self._take(forced=True)

    def choose(self, eng, seat, kind, legal, forced: bool = False) -> dict:
        self._query(eng)
        d = self.script.next()
        if d is None:
            if self.fallback is None:
                raise Waiting(seat, kind, legal)
            return self.fallback.decide(eng, seat, kind, legal)
        if _by(d, seat) != seat:
            raise Illegal(self.pos, d, f"P{seat} decides now ({kind}), not P{_by(d, seat)}")
        nd = _norm(d)
        for o in legal:
            if o == nd:
                self._take(forced)
                return o
        reason = f"not legal for P{seat} now ({kind}); legal: {_show(legal)}"
        if self.snap[2]:
            reason += ("; tried after the forced step(s) " + " | ".join(self.snap[2])
                       + ", the state shown is from before them")
        raise Illegal(self.pos, d, reason)

    def exhausted(self) -> bool:
        return self.script.next() is None and self.fallback is None


def _cards(value, where: str) -> list[int]:
    if not isinstance(value, list):
        raise ConfigError(f"{where} must be a list of card codes")
    return [_code(c, where) for c in value]


def _code(c, where: str) -> int:
    """A card code (any letter case) as its integer."""
    if not isinstance(c, str) or c.upper() not in CODE_OF:
        raise ConfigError(f"unknown card code {c!r} in {where}; known: {', '.join(CODES)}")
    return CODE_OF[c.upper()]


def _int(value, where: str, lo: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise ConfigError(f"{where} must be an integer >= {lo}, got {value!r}")
    return value


def _check_decision(i: int, d) -> None:
    if not isinstance(d.get("type"), str) or d["type"] not in DECISION_FIELDS:
        raise ConfigError(f"decision {i}: unknown or missing type in {d!r}")
    allowed = set(DECISION_FIELDS[d["type"]]) | {"type", "by", "player"}
    extra = set(d) - allowed
    if extra:
        raise ConfigError(f"decision {i}: unknown field(s) {', '.join(sorted(extra))} for type {d['type']}")
    if "card" in d:
        _code(d["card"], f"decision {i}")
    for key in ("target", "player", "index", "count", "by"):
        if key in d and (isinstance(d[key], bool) or not isinstance(d[key], int)):
            raise ConfigError(f"decision {i}: {key} must be an integer, got {d[key]!r}")
    if "value" in d and not isinstance(d["value"], bool):
        raise ConfigError(f"decision {i}: value must be true or false, got {d['value']!r}")
    if "take" in d and (not isinstance(d["take"], list)
                        or any(isinstance(k, bool) or not isinstance(k, int) for k in d["take"])):
        raise ConfigError(f"decision {i}: take must be a list of peeked positions (0 = top), got {d['take']!r}")
    for key in ("mode", "response"):
        if key in d and not isinstance(d[key], str):
            raise ConfigError(f"decision {i}: {key} must be a string, got {d[key]!r}")


def load_state(eng: Engine, state: dict, n: int) -> str:
    """Fill ``eng`` from a scenario state; returns the phase to start in."""
    extra = set(state) - STATE_KEYS
    if extra:
        raise ConfigError(f"unknown state field(s): {', '.join(sorted(extra))}")
    if "deck" in state:
        eng.deck = list(reversed(_cards(state["deck"], "state.deck")))
    else:  # the setup deck (VD-3.1), shuffled with the scenario's generator
        eng.deck = [c for c in range(N_TYPES) for _ in range(eng.r.counts[c])]
        eng.rng.shuffle(eng.deck)
    eng.start_deck = len(eng.deck)
    for c in _cards(state.get("discard", []), "state.discard"):
        if c == V and eng.r.exchange_refused_card != "discard":
            raise ConfigError("state.discard cannot hold viruses (only a refused exchange card "
                              "with exchange_refused_card = discard puts one there)")
        eng.discard[c] += 1
    players = state.get("players", [])
    if not isinstance(players, list) or len(players) > n:
        raise ConfigError(f"state.players must be a list of at most {n} players")
    for s, pd_ in enumerate(players):
        if not isinstance(pd_, dict) or set(pd_) - PLAYER_KEYS:
            raise ConfigError(f"state.players[{s}] must be an object with fields {', '.join(sorted(PLAYER_KEYS))}")
        p = eng.players[s]
        for c in _cards(pd_.get("hand", []), f"state.players[{s}].hand"):
            if c == BAT:
                raise ConfigError(f"state.players[{s}].hand cannot hold a BAT (it resolves when drawn, VD-8.1)")
            p.hand[c] += 1
        p.open = _int(pd_.get("open", 0), f"state.players[{s}].open")
        p.treatment = _int(pd_.get("treatment", 0), f"state.players[{s}].treatment")
        p.suspicion = _int(pd_.get("suspicion", 0), f"state.players[{s}].suspicion")
        p.live = bool(pd_.get("live", True))
        if not p.live and (p.hand_size() or p.open or p.treatment):
            raise ConfigError(f"state.players[{s}] is not live but holds cards, open viruses or treatment")
        if p.live and p.open >= eng.r.elimination_threshold:
            raise ConfigError(f"state.players[{s}] has open {p.open} >= elimination_threshold "
                              f"{eng.r.elimination_threshold} but is live (VD-19.1)")
        if p.treatment and not p.open:
            raise ConfigError(f"state.players[{s}] has treatment without an open virus (VD-17.4)")
        if p.treatment >= eng.r.doctors_per_cure:
            raise ConfigError(f"state.players[{s}].treatment must be below doctors_per_cure "
                              f"{eng.r.doctors_per_cure} (VD-17.2)")
    elsewhere = eng.deck.count(V) + sum(p.hand[V] + p.open for p in eng.players)
    eng.reserve = _int(state.get("reserve", max(0, eng.r.n_virus_total - elsewhere)), "state.reserve")
    eng.current = _int(state.get("current", 0), "state.current")
    eng.first = _int(state.get("first", 0), "state.first")
    eng.turn = _int(state.get("turn", 0), "state.turn")
    eng.docs_this_turn = _int(state.get("doctors_played", 0), "state.doctors_played")
    eng.cards_this_turn = _int(state.get("cards_played", 0), "state.cards_played")
    eng.known_top = _int(state.get("known_top", 0), "state.known_top")
    top_viruses = next((i for i, c in enumerate(reversed(eng.deck)) if c != V), len(eng.deck))
    if eng.known_top > top_viruses:
        raise ConfigError(f"state.known_top is {eng.known_top} but the deck starts with {top_viruses} V")
    if eng.first >= n:
        raise ConfigError(f"state.first must be a seat below {n}")
    if eng.current >= n or not eng.players[eng.current].live:
        raise ConfigError(f"state.current must be a live seat below {n}")
    for key in ("pending", "unresolved"):  # output-only fields: accepted back when empty
        if state.get(key) not in (None, 0, []):
            raise ConfigError(f"state.{key} is output only (a draw in progress); give it as 0/[] or leave it out")
    phase = state.get("phase", "A")
    if phase not in ("A", "C", "hq"):
        raise ConfigError(f"state.phase must be A, C or hq (B and over are output only), got {phase!r}")
    if len([p for p in eng.players if p.live]) < 2:
        raise ConfigError("a scenario needs at least 2 live players")
    return phase


def dump_state(eng: Engine) -> dict:
    return {
        "deck": [CODES[c] for c in reversed(eng.deck)],
        "reserve": eng.reserve,
        "discard": [CODES[c] for c in range(N_TYPES) for _ in range(eng.discard[c])],
        "players": [
            {"hand": [CODES[c] for c in range(N_TYPES) for _ in range(p.hand[c])], "open": p.open,
             "treatment": p.treatment, "live": p.live, "suspicion": p.suspicion}
            for p in eng.players
        ],
        "current": eng.current,
        "phase": eng.phase,
        "turn": eng.turn,
        "doctors_played": eng.docs_this_turn,
        "cards_played": eng.cards_this_turn,
        "known_top": eng.known_top,
        "pending": eng.pending,
        "unresolved": [CODES[c] for c in eng.limbo],
        "first": eng.first,
    }


def _players_in_state(state: dict) -> int | None:
    """One seat per listed player (at least 2), else the game default."""
    listed = state.get("players")
    return len(listed) if isinstance(listed, list) and len(listed) >= 2 else None


def run_scenario(game, spec: dict[str, Any]) -> dict[str, Any]:
    env = parse_envelope(game, spec, _players_in_state, extra_fields=("turns",))
    n, cfg = env.players, env.config
    for i, d in enumerate(env.decisions):
        _check_decision(i, d)
    rng = Rng(cfg.seed, 0)
    fallback = None
    if env.bots:
        fallback = Bots([BotAgent(b, {**BOTS[b].params, **cfg.bot_params.get(b, {})}, rng) for b in env.bots])
    limit = env.extra.get("turns")
    if limit is not None:
        limit = _int(limit, "turns", 1)
    script = Script(env.decisions)
    agent = ScriptedAgent(script, fallback, stop_early=limit is None, stop_at_forced=env.stop_at_forced)
    log: list[str] = []
    eng = Engine(Rules(cfg.params), n, rng, agent, log)
    start = load_state(eng, env.state, n)
    eng.check_every_step = True
    out = {"game": game.name, "illegal": None, "waiting": None, "finished": False, "result": None}
    # Without a turn limit or bots, the run stops before a new turn once the list is used up
    # (the next player's first decision is reported, even a forced one).
    pause = agent.exhausted if limit is None else None
    try:
        eng.play(start, limit, pause)
        eng.check_invariants()
        if not eng.finished and limit is None and agent.exhausted():
            eng.docs_this_turn = eng.cards_this_turn = 0
            p = eng.players[eng.current]
            out["waiting"] = {"player": eng.current, "decision": "action", "legal": eng.action_options(p, "A")}
    except Waiting as w:
        out["waiting"] = {"player": w.seat, "decision": w.kind, "legal": w.legal}
    except Illegal as e:
        out["illegal"] = {"index": e.index, "decision": e.decision, "reason": e.reason}
    out["state"] = dump_state(eng)
    out["events"] = log
    if out["illegal"] is not None and agent.snap is not None:
        out["state"], out["events"] = agent.snap[0], log[:agent.snap[1]]
    if eng.finished:
        out["finished"] = True
        seats = eng.s
        out["result"] = {
            "outcome": OUTCOMES[eng.outcome],
            "winners": eng.winners,
            "winner": eng.winners[0] if eng.winners else -1,
            "eliminations": [
                {"player": s, "cause": CAUSES[row[tb.S_CAUSE]], "instigator": row[tb.S_INSTIGATOR],
                 "open": row[tb.S_ELIM_OPEN], "hidden": row[tb.S_ELIM_HIDDEN], "treatment": row[tb.S_ELIM_T]}
                for s, row in enumerate(seats) if row[tb.S_ELIM]
            ],
            "elimination_order": list(eng.elim_order),
        }
    out["metrics"] = {"game": dict(zip(tb.GAME_COLS, eng.g)),
                      "seats": [dict(zip(tb.SEAT_COLS, row)) for row in eng.s],
                      "draw_series": [list(x) for x in eng.draw_series]}
    out["decisions_used"] = agent.pos
    out.update(script.report())
    return out
