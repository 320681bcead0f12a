"""Explicit-state scenarios in the reference engine (format: docs/scenarios/daifugo.md)."""

from __future__ import annotations

from typing import Any

from sim.kit.config import ConfigError
from sim.kit.rng import Rng
from sim.kit.scenario import Script, parse_envelope

from . import rules as R
from .reference.bots import BOTS, BotAgent
from .plays import JOKER_SINGLE, SET, STAIRS, SUBSTITUTE, Fusion, Play, sets_of, stairs_of
from .reference import Engine, RoundStats, StopRun


def _card(code) -> int:
    try:
        return R.parse_card(code)
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _cards(codes, what: str) -> list[int]:
    if not isinstance(codes, (list, tuple)):
        raise ConfigError(f"'{what}' must be a list of card codes")
    return [_card(c) for c in codes]


def _seat(v, n: int, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
        raise ConfigError(f"'{what}' must be a seat 0..{n - 1}, got {v!r}")
    return v


def _flag(v, what: str) -> bool:
    if not isinstance(v, bool):
        raise ConfigError(f"'{what}' must be true or false, got {v!r}")
    return v


def _list(st: dict, name: str, default: list | None = None) -> list:
    """A list-valued state field (default: empty)."""
    v = st.get(name, [] if default is None else default)
    if not isinstance(v, list):
        raise ConfigError(f"'{name}' must be a list, got {v!r}")
    return v


def _points(st: dict, name: str, n: int) -> list:
    """A per-seat points field: n integers (default zeros)."""
    v = _list(st, name, [0] * n)
    if len(v) != n or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
        raise ConfigError(f"'{name}' must list {n} integers, got {v!r}")
    return list(v)


def _suits(v) -> int:
    """Locked suits: letters, names or symbols, e.g. ["S"], ["spades"] or ["♠", "H"]."""
    if not isinstance(v, (list, tuple)):
        raise ConfigError("'suit_lock' must be a list of suits, e.g. [\"S\"]")
    mask = 0
    for x in v:
        t = str(x).strip().upper()[:1]  # "S", "spades", "♠"
        t = R.SUIT_NAMES[R.SUIT_SYMBOLS.index(t)] if t and t in R.SUIT_SYMBOLS else t
        if not t or t not in R.SUIT_NAMES:
            raise ConfigError(f"'suit_lock': unknown suit {x!r} (S, H, D, C)")
        mask |= 1 << R.SUIT_NAMES.index(t)
    return mask


def _rule_card(v, what: str) -> int:
    try:
        c = int(v)
    except (TypeError, ValueError):
        raise ConfigError(f"'{what}': unknown rule card {v!r}") from None
    if not 1 <= c <= R.N_RULE_CARDS:
        raise ConfigError(f"'{what}': unknown rule card {v!r} (ids 1-25)")
    return c


class NotACombination(ConfigError):
    """The cards form no single, set or stairs (an illegal decision; malformed as a ``top``)."""


def build_play(cards: list[int], reps: list[int] | None) -> Play:
    """A play from cards and what they represent (``as``: one entry per joker, or one per card in
    the order given, for card-20 substitutes); kind is inferred."""
    given = list(cards)
    cards = sorted(cards)
    jokers = [c for c in cards if c >= R.JOKER]
    if len(cards) == 1 and jokers and not reps:
        return Play(JOKER_SINGLE, tuple(cards), (R.JOKER,), 1, -1, -1, 0)
    if reps is None:
        reps = []
    if len(reps) == len(cards):
        pairs = list(zip(given, reps))
    elif len(reps) == len(jokers):
        it = iter(reps)
        pairs = [(c, next(it) if c >= R.JOKER else c) for c in cards]
    else:
        raise ConfigError("'as' must give the represented card of every joker (or of every card)")
    for c, r in pairs:
        if c < R.JOKER and c != r and not (r < R.JOKER and SUBSTITUTE.get(r // 4) == c // 4 and r % 4 == c % 4):
            raise NotACombination(f"{R.card_code(c)} cannot stand for {R.card_code(r)}: only jokers are wild, "
                                  "and card 20 plays an A as J, a 2 as Q, a 3 as K of the same suit")
        if r >= R.JOKER:
            raise ConfigError("a joker in a combination must represent a card")
    pairs.sort()
    rp = [r for _, r in pairs]
    ranks = sorted(r // 4 for r in rp)
    suits = 0
    for r in rp:
        suits |= 1 << (r % 4)
    if len(set(ranks)) == 1 and len(rp) <= 4 and len(set(rp)) == len(rp):
        return Play(SET, tuple(c for c, _ in pairs), tuple(rp), len(rp), ranks[0], ranks[0], suits)
    if len(rp) >= 3 and bin(suits).count("1") == 1 and ranks == list(range(ranks[0], ranks[0] + len(rp))):
        return Play(STAIRS, tuple(c for c, _ in pairs), tuple(rp), len(rp), ranks[0], ranks[-1], suits)
    raise NotACombination("cards do not form a single, set or stairs: " + " ".join(R.card_code(c) for c in cards))


def readings(eng, cards: list[int]) -> list[Play]:
    """Every play the cards form when no ``as`` is given, in canonical order: a lone joker is
    the Joker single; other jokers take the canonical representation of each set or stairs
    reading (missing locked suits first, then the lowest missing suits; stairs gaps in order)."""
    hand = set(cards)
    if len(cards) == 1 and cards[0] >= R.JOKER:
        return [Play(JOKER_SINGLE, (cards[0],), (R.JOKER,), 1, -1, -1, 0)]
    mask = sum(1 << c for c in hand)
    out = [x for x in sets_of(hand, (len(cards),), eng.suit_lock, True) if x.mask == mask]
    out += [x for x in stairs_of(hand, len(cards)) if x.mask == mask]
    return sorted(out, key=Play.key)


def play_json(x: Play) -> dict:
    if isinstance(x, Fusion):  # card 02: the cards added to the top play
        d = {"fuse": [R.card_code(c) for c in x.cards]}
        if x.jokers:
            d["as"] = [R.card_code(r) for c, r in zip(x.cards, x.reps) if c >= R.JOKER]
        return d
    d = {"play": [R.card_code(c) for c in x.cards]}
    if x.substitutes:  # card 20: what every card stands for
        d["as"] = [R.card_code(r) for r in x.reps]
    elif x.jokers and x.kind != JOKER_SINGLE:
        d["as"] = [R.card_code(r) for c, r in zip(x.cards, x.reps) if c >= R.JOKER]
    return d


class ScriptAgent:
    """Takes decisions from the list; then bots (if given) or stops with ``waiting``."""

    def __init__(self, script: Script, bots: BotAgent | None, events: list, stop_at_forced: bool = False):
        self.script = script
        self.bots = bots
        self.events = events
        # Every forced decision is asked like a real one (envelope ``stop_at_forced``).
        self.stop_at_forced = stop_at_forced

    def forced(self, eng, p, kind, choice):
        """A decision with one option is applied without asking; the next scripted decision is
        taken as that decision when it names this very choice and either names this player
        (e.g. the pass of a player who cannot beat the top play) or names cards only this
        player holds (a forced gift, a lone card led, the last precept on offer). With
        ``stop_at_forced`` the decision is asked like any other (the list, else bots, else
        ``waiting``)."""
        d = self.script.next()
        if self.stop_at_forced and (d is not None or self.bots is None):
            self._forced_as_decision(eng, p, kind, choice, d)
            return
        if d is None:
            return
        own_cards = kind in CARD_KINDS or kind == "draft" or (kind == "play" and "play" in d)
        if d.get("player", None if own_cards else -1) not in (p, None):
            return
        if self._names(eng, p, kind, choice, d):
            self.script.take(forced=True)

    def _names(self, eng, p, kind, choice, d) -> bool:
        """Whether scripted decision ``d`` names ``choice``, p's only option."""
        return self._mismatch(eng, p, kind, choice, d) is None

    @staticmethod
    def _mismatch(eng, p, kind, choice, d) -> str | None:
        """Why ``d`` does not name ``choice``, p's only option (None if it does)."""
        if d.get("player", p) != p:
            return f"P{p} decides now ({kind}), not P{d['player']}"
        if kind == "trim":
            return None if d.get("trim") == [] else (
                f"P{p} holds {len(eng.hands[p])} cards, at most trim_to = {eng.pv[R.P_TRIM_TO]}: the only trim is []")
        if kind == "ten_discard":  # mandatory discard of the whole hand (DEC-32 variant)
            named = d.get("ten_discard")
            ok = isinstance(named, list) and sorted(_cards(named, "ten_discard")) == sorted(choice)
            return None if ok else f"P{p} must discard the whole hand: " + " ".join(R.card_code(c) for c in choice)
        try:
            if match(eng, p, kind, [choice], d) == choice:
                return None
        except (_Illegal, ConfigError) as e:
            return f"{e}; P{p}'s only option: {legal_json(kind, [choice])[0]}"
        return f"P{p}'s only option: {legal_json(kind, [choice])[0]}"

    def _forced_as_decision(self, eng, p, kind, choice, d):
        if kind == "ten_discard":
            legal = [{"ten_discard": [R.card_code(c) for c in choice]}]
        else:
            legal = [{"trim": []}] if kind == "trim" else legal_json(kind, [choice])
        if d is None:
            raise StopRun("waiting", {"player": p, "decision": kind, "legal": legal})
        reason = self._mismatch(eng, p, kind, choice, d)
        if reason is not None:
            raise StopRun("illegal", {"index": self.script.pos, "decision": d, "reason": reason})
        self.script.take(forced=True)

    def decide(self, eng, p, kind, options):
        if isinstance(options, list) and len(options) == 1:  # a forced step
            self.forced(eng, p, kind, options[0])
            return options[0]
        d = self.script.next()
        if d is None:
            if self.bots is not None:
                return self.bots.decide(eng, p, kind, options)
            raise StopRun("waiting", {"player": p, "decision": kind, "legal": legal_json(kind, options)})
        try:
            choice = match(eng, p, kind, options, d)
        except _Illegal as e:
            raise StopRun("illegal", {"index": self.script.pos, "decision": d, "reason": str(e)}) from None
        self.script.take()
        return choice


class _Illegal(Exception):
    pass


# decisions naming one card of the decider's hand (gifts; card 12 collusion)
CARD_KINDS = ("give", "king_give", "collude", "collusion_give", "collusion_return")


def legal_json(kind: str, options) -> list:
    if kind == "play":
        return [{"pass": True} if o is None else play_json(o) for o in options]
    if kind == "trim":
        return [{"trim": f"0..{options.most} cards"}]
    if kind == "ten_discard":
        return [{"ten_discard": f"0..{options.most} cards of the hand"}]
    if kind == "pull_back":
        return [{"pull_back": f"0..{options.most} of " + " ".join(R.card_code(c) for c in options.cards)}]
    if kind in CARD_KINDS:
        return [{kind: R.card_code(c)} for c in options]
    if kind == "recycle":
        return [{kind: None if c is None else R.card_code(c)} for c in options]
    return [{kind: o} for o in options]


def match(eng, p, kind, options, d):
    """The option a scripted decision names, or _Illegal with the reason."""
    if "player" in d and d["player"] != p:
        raise _Illegal(f"P{p} decides now ({kind}), not P{d['player']}")
    if kind == "play":
        if d.get("pass"):
            if options and options[0] is None:
                return None
            if eng.top is not None:
                raise _Illegal("magician hunt: a joker must be played as the Joker (card 11)")
            raise _Illegal("the leader cannot pass")
        if "fuse" in d:
            return match_fusion(eng, p, options, d)
        if "play" not in d:
            raise _Illegal(f"expected a play or pass for P{p}")
        return match_play(eng, p, options, d)
    if kind == "pull_back":
        most, avail = options.most, options.cards
        cards = _cards(d.get("pull_back", []), "pull_back") if "pull_back" in d else None
        if cards is None:
            raise _Illegal(f"expected a pull_back for P{p} (cards of the previous play: "
                           f"{' '.join(R.card_code(c) for c in avail)}, at most {most})")
        if len(set(cards)) != len(cards) or any(c not in avail for c in cards) or len(cards) > most:
            raise _Illegal(f"may pull back at most {most} distinct card(s) of the previous play: "
                           + " ".join(R.card_code(c) for c in avail))
        return cards
    if kind == "ten_discard":
        if "ten_discard" not in d:
            raise _Illegal(f"expected a ten_discard for P{p} (at most {options.most} card(s))")
        cards = _cards(d["ten_discard"], "ten_discard")
        if len(set(cards)) != len(cards) or any(c not in eng.hands[p] for c in cards):
            raise _Illegal("discarded cards must be distinct cards in hand")
        if len(cards) > options.most or (eng.pv[R.P_03_MANDATORY] and len(cards) != options.most):
            raise _Illegal(f"must discard {'exactly' if eng.pv[R.P_03_MANDATORY] else 'at most'} {options.most} card(s)")
        return cards
    if kind == "recycle":
        return match_recycle(p, options, d)
    if kind == "trim":
        if "trim" not in d:
            raise _Illegal(f"expected a trim for P{p}")
        cards = _cards(d["trim"], "trim")
        if len(set(cards)) != len(cards) or any(c not in eng.hands[p] for c in cards):
            raise _Illegal("trimmed cards must be distinct cards in hand")
        if len(cards) > options.most or (eng.pv[R.P_TRIM_ALL] and len(cards) not in (0, options.most)):
            raise _Illegal(f"may trim {'0 or ' if eng.pv[R.P_TRIM_ALL] else 'at most '}{options.most} cards")
        return cards
    if kind not in d:
        raise _Illegal(f"expected a '{kind}' decision for P{p}")
    v = d[kind]
    if kind == "flux" and not isinstance(v, bool):
        raise _Illegal("'flux' must be true or false (card 18 precept: exchange hands or not)")
    if kind in CARD_KINDS:
        v = _card(v)
    elif kind == "draft":
        v = _rule_card(v, "draft")
    if v not in options:
        raise _Illegal(f"{kind} {d[kind]!r} is not allowed; options: {legal_json(kind, options)}")
    return options[options.index(v)]


def match_recycle(p, options, d):
    """Card 01 (D14): ``{"recycle": "Jk"}`` takes a discard card, ``null`` / ``false`` declines."""
    if "recycle" not in d:
        raise _Illegal(f"expected a recycle for P{p} (card 01; null declines): discard pile "
                       + " ".join(R.card_code(c) for c in options[1:]))
    v = d["recycle"]
    if v is None or v is False:
        return None
    c = _card(v)
    if c not in options:
        raise _Illegal(f"{R.card_code(c)} is not in the discard pile: only discard cards can be recycled (QA-01.1)")
    return c


def _fusion_options(options, cards: list[int], reps: list[int] | None) -> list[Fusion]:
    """Legal card-02 fusions adding exactly these cards (with ``as``: these joker representations)."""
    want = sorted(cards)
    out = [o for o in options if isinstance(o, Fusion) and list(o.cards) == want]
    if reps is not None:
        out = [o for o in out if [r for c, r in zip(o.cards, o.reps) if c >= R.JOKER] == reps]
    return out


def match_fusion(eng, p, options, d):
    """A ``fuse`` decision (card 02): the first legal fusion adding these cards (``as``: with
    these joker representations)."""
    codes = [d["fuse"]] if isinstance(d["fuse"], str) else d["fuse"]
    cards = _cards(codes, "fuse")
    missing = [c for c in cards if c not in eng.hands[p]]
    if missing:
        raise _Illegal("not in hand: " + " ".join(R.card_code(c) for c in missing))
    reps = [_card(c) for c in d["as"]] if isinstance(d.get("as"), list) else None
    found = _fusion_options(options, cards, reps)
    if found:
        return found[0]
    if not eng.applies(R.C02_FUSION, p):
        raise _Illegal("fusion needs card 02 (law, or the holder's precept)")
    if any(c >= R.JOKER for c in cards) and eng.exile_restricts(p):
        raise _Illegal("magician exile: no fusion with a joker (card 17, QA-02.3)")
    raise _Illegal("these cards added to the top play make no revolution-size set or stairs (card 02)")


def match_play(eng, p, options, d):
    """The play a scripted decision names: with ``as`` exactly that representation, without
    it the first legal reading of the cards (``readings``). Any legal representation is
    accepted, not only the canonical one listed in ``waiting.legal``."""
    codes = [d["play"]] if isinstance(d["play"], str) else d["play"]  # one card may be given bare
    cards = _cards(codes, "play")
    if len(set(cards)) != len(cards):
        raise _Illegal("a card is listed twice")
    missing = [c for c in cards if c not in eng.hands[p]]
    if missing:
        raise _Illegal("not in hand: " + " ".join(R.card_code(c) for c in missing))
    fused = _fusion_options(options, cards, None) if "as" not in d else []  # card 02
    try:
        if "as" in d:
            if not isinstance(d["as"], (list, tuple)):
                raise ConfigError("'as' must be a list of card codes")
            cands = [build_play(cards, [_card(c) for c in d["as"]])]
        else:
            cands = readings(eng, cards)
    except NotACombination as e:
        if fused:
            return fused[0]
        raise _Illegal(str(e)) from None
    if not cands and fused:
        return fused[0]
    if not cands:
        raise _Illegal("cards do not form a single, set or stairs: " + " ".join(R.card_code(c) for c in cards))
    for x in cands:
        for o in options:
            if o is not None and o.mask == x.mask and o.kind == x.kind and o.reps == x.reps:
                return o
        if eng.is_legal(p, x):
            return x
    if fused:  # card 02: the cards complete the top play
        return fused[0]
    raise _Illegal(eng.why_illegal(p, cands[0]))


# ---------------------------------------------------------------- state <-> engine
def load_state(eng: Engine, st: dict) -> None:
    n = eng.n
    known = {"round", "phase", "hands", "laws", "precepts", "rule_deck", "revealed", "draft_left", "exchange_left",
             "king_give_left", "trim_left", "prev_ranking", "rank_points", "bonus_points", "precept_points",
             "top", "field", "rev", "jback", "suit_lock", "num_lock", "passed", "turn", "top_list", "bottom_list",
             "discard", "removed", "undealt", "start_player", "jokers", "hunt", "hunt_done"}
    known |= {"precept_rounds", "precept_picks"}  # the draft record (D1)
    known |= {"trickster_done"}  # card 05
    known |= {"af_claim"}  # card 13
    known |= {"recycle_used"}  # card 01
    unknown = set(st) - known
    if unknown:
        raise ConfigError(f"unknown state field(s): {', '.join(sorted(unknown))}")
    eng._clear_round()
    eng.round_no = st.get("round", 1)
    if isinstance(eng.round_no, bool) or not isinstance(eng.round_no, int) or not 1 <= eng.round_no <= eng.rounds:
        raise ConfigError(f"'round' must be an integer 1..{eng.rounds}, got {eng.round_no!r}")
    eng.phase = st.get("phase", "play")
    if eng.phase not in Engine.PHASES or eng.phase == "over":
        raise ConfigError(f"unknown phase {eng.phase!r}")
    hands = st.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise ConfigError(f"'hands' must list {n} hands")
    eng.hands = [set(_cards(h, "hands")) for h in hands]
    eng.laws = [_rule_card(c, "laws") for c in _list(st, "laws")]
    if eng.laws and eng.pv[R.P_LAWS_OFF]:
        raise ConfigError("'laws' must be empty with laws = off (DEC-53: no law is in force)")
    precepts = st.get("precepts", {})
    if not isinstance(precepts, dict):
        raise ConfigError("'precepts' must be an object: rule card -> owning seat, e.g. {\"14\": 1}")
    for c, p in precepts.items():
        c = _rule_card(c, "precepts")
        if c in eng.laws:
            raise ConfigError(f"rule card {c:02d} cannot be both a law and a precept (spec §4.0)")
        eng.owner[c] = _seat(p, n, "precepts")
    load_draft_record(eng, st, precepts)
    eng.rule_deck = [_rule_card(c, "rule_deck") for c in _list(st, "rule_deck")]
    eng.revealed = [_rule_card(c, "revealed") for c in _list(st, "revealed")]
    prev = st.get("prev_ranking")
    if prev is not None:
        if not isinstance(prev, list) or sorted(_seat(q, n, "prev_ranking") for q in prev) != list(range(n)):
            raise ConfigError("'prev_ranking' must order all seats")
        eng.prev_ranking = list(prev)
    elif eng.round_no > 1:
        raise ConfigError("round >= 2 needs 'prev_ranking' (the king is its first seat)")
    for name, attr in (("rank_points", "rank_pts"), ("bonus_points", "bonus_pts"), ("precept_points", "vp_pts")):
        setattr(eng, attr, _points(st, name, n))
    eng.stats = RoundStats(bonus=[0] * n, king=eng.king, round=eng.round_no)
    default_left = {
        "draft_left": [] if not eng.revealed else (eng.draft_order() if eng.prev_ranking else list(range(n))),
        "exchange_left": [(eng.king + i) % n for i in range(1, n)] if eng.round_no > 1 else [],
        "king_give_left": [(eng.king + i) % n for i in range(1, n)] if eng.round_no > 1 else [],
        "trim_left": list(range(n)),
    }
    for name, dflt in default_left.items():
        setattr(eng, name, [_seat(q, n, name) for q in _list(st, name, dflt)])
    eng.start_player = _seat(st.get("start_player", 0), n, "start_player")
    eng.rev = _flag(st.get("rev", False), "rev")
    eng.jback = _flag(st.get("jback", False), "jback")
    eng.suit_lock = _suits(st.get("suit_lock", []))
    eng.num_lock = _flag(st.get("num_lock", False), "num_lock")
    if "top" in st and st["top"] is not None:
        t = st["top"]
        if not isinstance(t, dict):
            raise ConfigError("'top' must be an object {\"cards\": [...], \"owner\": seat}")
        cards = _cards(t.get("cards", []), "top.cards")
        if "as" in t or not any(c >= R.JOKER for c in cards):
            eng.top = build_play(cards, [_card(c) for c in t["as"]] if "as" in t else None)
        else:  # jokers without 'as': the canonical reading, as for a play
            tops = readings(eng, cards)
            if not tops:
                raise NotACombination("'top': cards do not form a single, set or stairs")
            eng.top = tops[0]
        eng.top_owner = _seat(t.get("owner"), n, "top.owner")
        eng.field = set(eng.top.cards) | set(_cards(st.get("field", []), "field"))
    eng.passed = {_seat(q, n, "passed") for q in _list(st, "passed")}
    eng.hunt = _flag(st.get("hunt", False), "hunt")
    eng.hunt_done = {_seat(q, n, "hunt_done") for q in _list(st, "hunt_done")}
    af = st.get("af_claim")  # card 13: the pending armed-force claim
    eng.af_claim = -1 if af is None else _seat(af, n, "af_claim")
    eng.recycle_used = {_seat(q, n, "recycle_used") for q in _list(st, "recycle_used")}
    eng.top_list = [_seat(q, n, "top_list") for q in _list(st, "top_list")]
    eng.bottom_list = [_seat(q, n, "bottom_list") for q in _list(st, "bottom_list")]
    placed = set(eng.top_list) | set(eng.bottom_list)
    if len(placed) != len(eng.top_list) + len(eng.bottom_list):
        raise ConfigError("a seat is placed twice in 'top_list'/'bottom_list'")
    if eng.phase == "play":
        for q in range(n):
            if q in placed and eng.hands[q]:
                raise ConfigError(f"P{q} is placed but still holds cards")
            if q not in placed and not eng.hands[q]:
                raise ConfigError(f"P{q} holds no cards but is not placed: list P{q} in 'top_list' or 'bottom_list'")
    eng.active = [q not in placed and (bool(eng.hands[q]) or eng.phase != "play") for q in range(n)]
    eng.discard = set(_cards(st.get("discard", []), "discard"))
    eng.removed = set(_cards(st.get("removed", []), "removed"))
    used = set().union(*eng.hands, eng.field, eng.discard, eng.removed)
    count = sum(len(h) for h in eng.hands) + len(eng.field) + len(eng.discard) + len(eng.removed)
    if count != len(used):
        zones = [*eng.hands, eng.field, eng.discard, eng.removed]
        twice = sorted(c for c in used if sum(c in z for z in zones) > 1)
        raise ConfigError("card(s) in more than one place: " + " ".join(R.card_code(c) for c in twice))
    eng.jokers = st.get("jokers", 1)
    if eng.jokers not in (1, 2) or isinstance(eng.jokers, bool):
        raise ConfigError(f"'jokers' must be 1 or 2 (2: card 05 added the second joker), got {eng.jokers!r}")
    eng.trickster_done = _flag(st.get("trickster_done", eng.jokers == 2), "trickster_done")
    if eng.trickster_done != (eng.jokers == 2):
        raise ConfigError("'trickster_done' (card 05 has resolved) goes with 'jokers': 2, and only with it")
    eng.undealt = set(range(eng.card_total())) - used
    if not used <= set(range(eng.card_total())):
        raise ConfigError("the second joker (Jk2) is not in this game (give \"jokers\": 2)")
    eng.turn = _seat(st.get("turn", eng.start_player), n, "turn")
    if eng.phase == "deal":  # 'round' is the round about to be dealt
        eng.round_no -= 1
    if eng.phase == "play" and not eng.active[eng.turn] and eng.n_active() > 1:
        raise ConfigError(f"P{eng.turn} is to act but holds no cards")


def load_draft_record(eng: Engine, st: dict, precepts: dict) -> None:
    """``precept_rounds`` / ``precept_picks``: {"14": 2}: round drafted and pick position of a precept."""
    for name, attr in (("precept_rounds", "precept_round"), ("precept_picks", "precept_pick")):
        v = st.get(name, {})
        if not isinstance(v, dict):
            raise ConfigError(f"'{name}' must be an object: rule card -> number, e.g. {{\"14\": 1}}")
        for c, x in v.items():
            c = _rule_card(c, name)
            if eng.owner[c] < 0:
                raise ConfigError(f"'{name}': rule card {c:02d} is not a precept")
            if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= max(eng.rounds, eng.n):
                raise ConfigError(f"'{name}': card {c:02d} needs a positive integer, got {x!r}")
            getattr(eng, attr)[c] = x


def dump_state(eng: Engine) -> dict:
    codes = lambda cs: [R.card_code(c) for c in sorted(cs)]  # noqa: E731
    st = {
        "round": eng.round_no, "phase": eng.phase,
        "hands": [codes(h) for h in eng.hands],
        "laws": list(eng.laws),
        "precepts": {f"{c:02d}": eng.owner[c] for c in range(1, R.N_RULE_CARDS + 1) if eng.owner[c] >= 0},
        "rule_deck": list(eng.rule_deck), "revealed": list(eng.revealed),
        "draft_left": list(eng.draft_left), "exchange_left": list(eng.exchange_left),
        "king_give_left": list(eng.king_give_left), "trim_left": list(eng.trim_left),
        "prev_ranking": list(eng.prev_ranking) if eng.prev_ranking else None,
        "rank_points": list(eng.rank_pts), "bonus_points": list(eng.bonus_pts), "precept_points": list(eng.vp_pts),
        "top": None if eng.top is None else {**_top_json(eng.top), "owner": eng.top_owner},
        "field": codes(eng.field),
        "rev": eng.rev, "jback": eng.jback,
        "suit_lock": [R.SUIT_NAMES[s] for s in range(4) if eng.suit_lock >> s & 1],
        "num_lock": eng.num_lock, "hunt": eng.hunt, "hunt_done": sorted(eng.hunt_done),
        "passed": sorted(eng.passed), "turn": eng.turn,
        "top_list": list(eng.top_list), "bottom_list": list(eng.bottom_list),
        "discard": codes(eng.discard), "removed": codes(eng.removed), "undealt": codes(eng.undealt),
        "start_player": eng.start_player, "jokers": eng.jokers, "trickster_done": eng.trickster_done,
        "precept_rounds": {f"{c:02d}": eng.precept_round[c] for c in range(1, R.N_RULE_CARDS + 1)
                           if eng.owner[c] >= 0 and eng.precept_round[c]},
        "precept_picks": {f"{c:02d}": eng.precept_pick[c] for c in range(1, R.N_RULE_CARDS + 1)
                          if eng.owner[c] >= 0 and eng.precept_pick[c]},
        "af_claim": eng.af_claim if eng.af_claim >= 0 else None,
        "recycle_used": sorted(eng.recycle_used),
    }
    if st["prev_ranking"] is None:
        del st["prev_ranking"]
    return st


def _top_json(x: Play) -> dict:
    d = play_json(x)
    return {"cards": d["play"], **({"as": d["as"]} if "as" in d else {})}


def _players_in_state(state: dict) -> int | None:
    """One player per listed hand (else the game default)."""
    hands = state.get("hands")
    return len(hands) if isinstance(hands, list) and hands else None


def run_scenario(game, spec: dict[str, Any]) -> dict[str, Any]:
    env = parse_envelope(game, spec, _players_in_state)
    cfg = env.config
    agent_bots = None
    if env.bots is not None:
        agent_bots = BotAgent(env.bots, [{k: cfg.bot_param(b, k, BOTS[b].params) for k in BOTS[b].params}
                                         for b in env.bots])
    events: list[str] = []
    script = Script(env.decisions)
    agent = ScriptAgent(script, agent_bots, events, env.stop_at_forced)
    eng = Engine(cfg, Rng(cfg.seed, 0), agent, events)
    load_state(eng, env.state)
    out = {"game": game.name, "events": events, "illegal": None, "waiting": None, "finished": False, "result": None}
    eng.stop_after_round = eng.round_no if eng.phase != "deal" else eng.round_no + 1
    try:
        eng.run()
        out["finished"] = True
        h = eng.history[-1]
        out["result"] = {"round": h.round, "ranking": h.ranking, "round_rank_points": h.points,
                         "round_bonus_points": h.bonus, "rank_points": eng.rank_pts,
                         "bonus_points": eng.bonus_pts, "precept_points": eng.vp_pts,
                         "game_over": eng.phase == "over"}
        if eng.phase == "over":
            out["result"].update({"scores": eng.scores, "winners": eng.winners, "winner": min(eng.winners),
                                  "n_winners": len(eng.winners)})
    except StopRun as stop:
        out[stop.kind] = stop.info
    out["state"] = dump_state(eng)
    out["rounds"] = [{"round": h.round, "ranking": h.ranking, "points": h.points,
                      "bonus": h.bonus, "revolutions": h.revolutions, "forbidden": h.forbidden,
                      "capital_falls": h.capital_falls} for h in eng.history]
    out.update(script.report())
    return out
