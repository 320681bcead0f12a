"""Scripted Virus Dogs policies (reference side); ``kernel/bots.py`` holds their @njit twins.

A bot is asked only when a decision has two or more legal options, and it sees only its
own hand and public facts (VD-22): every ``O``, ``T`` and hand size, deck and reserve sizes,
``known_top`` (viruses publicly known to lie on top after an antiseptic) and each player's
*suspicion* (cards taken into the hand unseen since the hand was last revealed).

Shared estimates, identical in both engines:
  unknown = viruses in the game - reserve - open viruses of live players - own hidden - pending
  pool    = deck size + hand sizes of the other live players
  density = unknown / pool: the chance a random unseen card is a virus. Thresholds are bot
  parameters; both engines compare them in parts per million with integer arithmetic.

``random``: uniform over the legal options, except declarations that would eliminate the
  bot itself (AD-16) unless ``allow_suicide >= 0.5`` (then uniform over every legal option);
  one ``randbelow`` per decision with >= 2 candidates.
``cautious``: masks and black markets before drawing, draws 1, skips on a known or dense
  top, declares a virus only when it can start a cure, cures early, antisepticks always,
  refuses coughs when at risk and exchange cards from suspicious givers.
``aggressive``: draws 2 to run the deck down, declares to enable coughs, coughs whenever
  legal, controls likely carriers (``O = thr-1`` first, else the most suspicious player),
  quarantines when it is clean, plants hidden viruses by exchange, bluffs with empty mask
  takes (one ``uniform`` per mask decision).
"""

from __future__ import annotations

from sim.kit.config import BotParam, BotSpec
from sim.kit.learned import best_option, default_weights, weight_params
from sim.kit.search_params import SEEING_DOC, WEIGHTED_DOC, search_params
from sim.games.virus_dogs.reference.learned import FEATURES, POLICY_FILE, reference_features
from sim.games.virus_dogs.rules import AMB, ANT, BAT, BM, CGH, CODES, CTL, DOC, EXC, GIVE_ORDER, MSK, QRN, SHF, V

RANDOM, CAUTIOUS, AGGRESSIVE = 0, 1, 2
LEARNED = 4  # the learned bot (sim.kit.learned; 3 is the kernel's STEP)
SEARCH = 9  # a search seat (sim.kit.search); its rollouts, and its play without a search driver, are policy ``rollout``
SEEING = 10  # the all-seeing search seat (sim.kit.search_params.SEEING): the search dealt the true hidden cards
WEIGHTED = 11  # the search with weighted worlds (sim.kit.search_params.WEIGHTED; kernel.search.likelihood)
SEARCH_PARAMS = search_params({"random": RANDOM, "cautious": CAUTIOUS, "aggressive": AGGRESSIVE, "learned": LEARNED},
                              ("win", "placement"))
BOTS = {
    "random": BotSpec("random", RANDOM, {"allow_suicide": 0.0},
                      "uniform over legal decisions (never a suicidal declaration unless allow_suicide >= 0.5)"),
    "cautious": BotSpec("cautious", CAUTIOUS, {"skip_density": 0.22, "refuse_density": 0.3, "exchange_suspicion": 3.0},
                        "masks/black markets first, draws 1, hides only when it must, cures early"),
    "aggressive": BotSpec("aggressive", AGGRESSIVE, {"draw_two": 1.0, "bluff": 0.25, "control_suspicion": 2.0,
                                                     "quarantine_suspicion": 4.0},
                          "draws 2, coughs and controls likely carriers, plants viruses, bluffs"),
}

WEIGHTS = default_weights(POLICY_FILE, "virus-dogs", FEATURES)

# the search seat carries every scripted bot's parameters, so that any ``rollout`` bot plays as it does seated
_SCRIPTED = {k: v for name in ("random", "cautious", "aggressive") for k, v in BOTS[name].params.items()}
BOTS["search"] = BotSpec(
    "search", SEARCH, {"budget": 64.0, "determinizations": 0.0, "rollout": float(CAUTIOUS), "objective": 1.0,
                       "horizon": 16.0, **_SCRIPTED, **WEIGHTS},
    "determinized Monte Carlo search (sim.kit.search): each option played out by the rollout bot in re-dealt worlds",
)
BOTS["learned"] = BotSpec("learned", LEARNED, dict(WEIGHTS),
                          "the option with the highest weighted sum of features (weights fitted to the search's choices)")
BOTS["seeing"] = BotSpec("seeing", SEEING, dict(BOTS["search"].params), SEEING_DOC)
BOTS["weighted"] = BotSpec("weighted", WEIGHTED, dict(BOTS["search"].params), WEIGHTED_DOC)

# suspicion (module docstring): cards a player took into the hand unseen since it was last revealed
BOT_PARAMS = (
    BotParam("allow_suicide", 0.0, 1.0,
             "random also picks declarations that eliminate itself (AD-16) when this is >= 0.5"),
    BotParam("skip_density", 0.0, 1.0, "cautious skips the draw when the estimated virus density is at least this"),
    BotParam("refuse_density", 0.0, 1.0, "cautious refuses a cough when the estimated virus density is at least this"),
    BotParam("exchange_suspicion", 0.0, 100.0,
             "cautious refuses an exchange from a giver whose suspicion (unseen cards taken) is at least this"),
    BotParam("draw_two", 0.0, 1.0, "aggressive draws draw_max cards when this is >= 0.5, else draw_min"),
    BotParam("bluff", 0.0, 1.0, "chance that aggressive bluffs with an empty mask take"),
    BotParam("control_suspicion", 0.0, 100.0,
             "aggressive controls the most suspicious opponent whose suspicion is at least this"),
    BotParam("quarantine_suspicion", 0.0, 100.0,
             "aggressive quarantines when the opponents' suspicion adds up to at least this"),
    *SEARCH_PARAMS,
    *weight_params(FEATURES),
)


def ppm(x: float) -> int:
    """A bot parameter in parts per million: both engines compare thresholds in integers."""
    return int(round(x * 1_000_000))


def density_at_least(eng, seat: int, threshold_ppm: int) -> bool:
    """Is the estimated chance that an unseen card is a virus (seat's view) >= threshold?"""
    me = eng.players[seat]
    opened = sum(p.open for p in eng.players if p.live)
    unknown = eng.r.n_virus_total - eng.reserve - opened - me.hand[V] - eng.pending
    pool = len(eng.deck) + sum(p.hand_size() for p in eng.players if p.live and p.seat != seat)
    if pool <= 0:
        return threshold_ppm <= 0
    return unknown * 1_000_000 >= threshold_ppm * pool


def suicidal(eng, seat: int, o: dict) -> bool:
    """A declaration that would reach the elimination threshold (AD-16)."""
    declaring = o["type"] == "declare" or (o["type"] == "virus" and o["response"] == "declare")
    return declaring and eng.players[seat].open + 1 >= eng.r.elimination_threshold


def find(legal: list[dict], **want) -> int:
    for i, o in enumerate(legal):
        if all(o.get(k) == v for k, v in want.items()):
            return i
    return -1


def ctl_target(eng, seat: int, min_sus_ppm: int | None) -> int:
    """DP-9: a live opponent with ``O = thr-1`` and cards (most suspicious first), else (if
    ``min_sus_ppm`` is given) the most suspicious opponent with suspicion >= it; ties to the
    lowest seat; -1 if none."""
    thr = eng.r.elimination_threshold
    best, best_sus = -1, -1
    for p in eng.players:
        if p.live and p.seat != seat and p.open >= thr - 1 and p.hand_size() >= 1 and p.suspicion > best_sus:
            best, best_sus = p.seat, p.suspicion
    if best >= 0 or min_sus_ppm is None:
        return best
    for p in eng.players:
        if p.live and p.seat != seat and p.suspicion * 1_000_000 >= min_sus_ppm and p.suspicion > best_sus:
            best, best_sus = p.seat, p.suspicion
    return best


class Bots:
    """The seats' bots (``BotAgent`` per seat) in the reference engine's bot interface
    ``decide(engine, seat, kind, legal) -> option``; a single option is taken without a draw."""

    def __init__(self, seats: list[BotAgent]):
        self.seats = seats
        self.decides = [bot.decide for bot in seats]  # bound once: asked at every decision

    def decide(self, eng, seat: int, kind: str, legal: list[dict]) -> dict:
        return legal[0] if len(legal) == 1 else legal[self.decides[seat](eng, seat, kind, legal, eng.ctx)]


class BotAgent:
    """Plays one seat with a named policy; parameters as in ``BOTS``."""

    def __init__(self, name: str, params: dict[str, float], rng):
        self.name = name
        self.policy = BOTS[name].policy
        if self.policy in (SEARCH, SEEING, WEIGHTED):  # without a search driver (sim.kit.search_twin) a search seat plays its rollout bot
            self.policy = int(params["rollout"])
        self.p = {k: ppm(v) for k, v in params.items()}
        self.rng = rng
        self.weights = [params.get("w_" + f, 0.0) for f in FEATURES]

    def decide(self, eng, seat: int, kind: str, legal: list[dict], ctx: dict) -> int:
        """The position of this seat's choice in ``legal`` (two or more options)."""
        if self.policy == LEARNED:
            return best_option(self.weights, [reference_features(eng, seat, kind, o, ctx) for o in legal])
        if self.policy == RANDOM:
            keep_all = self.p["allow_suicide"] >= 500_000
            cands = [i for i, o in enumerate(legal) if keep_all or not suicidal(eng, seat, o)]
            return cands[self.rng.randbelow(len(cands))] if len(cands) > 1 else cands[0]
        i = getattr(self, "on_" + kind)(eng, seat, legal, ctx)
        assert i >= 0, (self.name, kind, legal)
        return i

    # ---- DP-1, DP-2, DP-8, DP-9, DP-10, DP-15..DP-18 ------------------------------------
    def on_action(self, eng, seat, legal, ctx) -> int:
        me = eng.players[seat]
        h, thr = me.hand, eng.r.elimination_threshold
        phase_a = find(legal, type="end") < 0
        topv = eng.known_top > 0
        can_doc = h[DOC] > 0 and eng.docs_this_turn < eng.r.doctor_per_turn
        others = [p for p in eng.players if p.live and p.seat != seat]
        if self.policy == CAUTIOUS:
            if h[V] > 0 and me.open + 1 < thr and (can_doc or h[AMB] > 0):
                return find(legal, type="declare")
            if h[AMB] > 0 and me.open >= 1 and h[DOC] < eng.r.doctors_per_cure - me.treatment:
                return find(legal, type="play", card="AMB")
            if find(legal, card="DOC") >= 0:
                return find(legal, card="DOC")
            t = ctl_target(eng, seat, None) if h[CTL] else -1
            if t >= 0:
                return find(legal, card="CTL", target=t)
            if h[QRN] and h[V] == 0 and any(p.open >= thr - 1 and p.suspicion >= 1 for p in others):
                return find(legal, card="QRN")
            if h[CGH] and me.open >= 1 and topv:
                return find(legal, card="CGH")
            if h[EXC] and h[V] >= 1:
                return find(legal, card="EXC")
            if phase_a and h[SHF] and topv and h[MSK] == 0 and h[BM] == 0:
                return find(legal, card="SHF")
            if not phase_a:
                return find(legal, type="end")
            for mode in ("mask", "market"):
                if find(legal, mode=mode) >= 0:
                    return find(legal, mode=mode)
            if find(legal, mode="skip") >= 0 and (topv or density_at_least(eng, seat, self.p["skip_density"])):
                return find(legal, mode="skip")
            return self.draw_mode(eng, legal, eng.r.draw_min)
        # aggressive
        if h[V] > 0 and me.open == 0 and me.open + 1 < thr and h[CGH] > 0:
            return find(legal, type="declare")
        if h[CGH] and me.open >= 1:
            return find(legal, card="CGH")
        t = ctl_target(eng, seat, self.p["control_suspicion"]) if h[CTL] else -1
        if t >= 0:
            return find(legal, card="CTL", target=t)
        if h[QRN] and h[V] == 0 and sum(p.suspicion for p in others) * 1_000_000 >= self.p["quarantine_suspicion"]:
            return find(legal, card="QRN")
        if h[EXC] and h[V] >= 1:
            return find(legal, card="EXC")
        if find(legal, card="DOC") >= 0:
            return find(legal, card="DOC")
        if h[AMB] and me.open >= 1:
            return find(legal, card="AMB")
        if phase_a and h[SHF] and topv:
            return find(legal, card="SHF")
        if not phase_a:
            return find(legal, type="end")
        if topv:
            for mode in ("market", "mask", "skip"):
                if find(legal, mode=mode) >= 0:
                    return find(legal, mode=mode)
        return self.draw_mode(eng, legal, eng.r.draw_max if self.p["draw_two"] >= 500_000 else eng.r.draw_min)

    @staticmethod
    def draw_mode(eng, legal, count) -> int:
        if eng.r.draw_count_declared_upfront:
            return find(legal, mode="draw", count=count)
        return find(legal, mode="draw")

    # ---- DP-3, DP-5 -----------------------------------------------------------------------
    def on_draw_another(self, eng, seat, legal, ctx) -> int:
        more = self.policy == AGGRESSIVE and self.p["draw_two"] >= 500_000 and eng.known_top == 0
        return find(legal, value=more)

    # ---- DP-4 ---------------------------------------------------------------------------------
    def on_virus(self, eng, seat, legal, ctx) -> int:
        me = eng.players[seat]
        h, safe = me.hand, me.open + 1 < eng.r.elimination_threshold
        if h[ANT] and (self.policy == CAUTIOUS or not safe):
            return find(legal, response="antiseptic")
        if safe and ((self.policy == CAUTIOUS and (h[DOC] or h[AMB])) or (self.policy == AGGRESSIVE and h[CGH])):
            return find(legal, response="declare")
        return find(legal, response="hide")

    # ---- DP-6, DP-7 ---------------------------------------------------------------------------
    def on_mask_take(self, eng, seat, legal, ctx) -> int:
        peek = ctx["peek"]
        if self.policy == AGGRESSIVE and self.rng.uniform() * 1000000.0 < self.p["bluff"]:
            return find(legal, take=[])
        bad = (V, BAT) if self.policy == CAUTIOUS else (V,)
        good = [i for i, c in enumerate(peek) if c not in bad]
        if eng.r.mask_take_mode == "prefix":
            k = 0
            while k < len(peek) and peek[k] not in bad:
                k += 1
            good = list(range(k))
        return find(legal, take=good)

    def on_market_take(self, eng, seat, legal, ctx) -> int:
        seen = ctx["seen"]
        for i, c in enumerate(seen):
            if c != V and (c != BAT or self.policy == AGGRESSIVE):
                return i
        if self.policy == CAUTIOUS and BAT in seen:
            return seen.index(BAT)
        return 0

    # ---- DP-11..DP-14, DP-19 ---------------------------------------------------------------
    def on_cough(self, eng, seat, legal, ctx) -> int:
        me = eng.players[seat]
        at_risk = me.open + 1 >= eng.r.elimination_threshold and me.hand[ANT] == 0
        refuse = at_risk
        if self.policy == CAUTIOUS:
            refuse = at_risk or eng.known_top > 0 or density_at_least(eng, seat, self.p["refuse_density"])
        return find(legal, response="refuse" if refuse else "accept")

    def on_cough_virus(self, eng, seat, legal, ctx) -> int:
        me = eng.players[seat]
        use = self.policy == CAUTIOUS or me.open + 1 >= eng.r.elimination_threshold
        return find(legal, response="antiseptic" if use else "accept")

    def on_give(self, eng, seat, legal, ctx) -> int:
        h = eng.players[seat].hand
        for c in (V,) + GIVE_ORDER:
            if h[c]:
                return find(legal, card=CODES[c])
        return 0

    def on_refuse_exchange(self, eng, seat, legal, ctx) -> int:
        refuse = self.policy == CAUTIOUS and eng.players[ctx["giver"]].suspicion * 1_000_000 >= self.p["exchange_suspicion"]
        return find(legal, value=refuse)

    def on_hq_target(self, eng, seat, legal, ctx) -> int:
        best, key = 0, None
        for i, o in enumerate(legal):
            p = eng.players[o["player"]]
            k = (-p.open, p.hand_size())
            if key is None or k < key:
                best, key = i, k
        return best
