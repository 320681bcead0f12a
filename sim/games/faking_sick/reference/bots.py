"""Faking-sick bots: specs and the reference-side policies (kernel twins in ``kernel/bots.py``).

Decision points (spec "Decisions a player makes"): D1 turn action, D2 turn under attack,
after-draw play (``play_after_draw``), D3 call, D4 push. Every option list is ordered
canonically: plays/counters by type code ascending, then the fallback (DRAW, ACCEPT, END).

Policies
- ``random`` (0): a uniform option (``randbelow(len(options))``); calls when
  ``uniform() < call_prob``; pushes ``m`` cards one at a time, each ``randbelow(hand)``
  over the remaining hand in type order.
- ``honest`` (1): never plays its own banned types knowingly: plays the honest legal type it
  holds most of (ties: lowest code), else the fallback. No random draw.
- ``bluffer`` (2): if a bluff is available, bluffs with probability
  ``bluff_max * bluff_k / (bluff_k + h)`` where ``h`` = honest playable cards in hand (one
  ``uniform()``), so the bluff rate grows as honest options run out; the bluff type is
  the banned type held most. Otherwise plays as ``honest``.
- ``caller`` is policy 2 with an aggressive call threshold and moderate bluffing.

Call model (policies 1 and 2, no random draw): the estimated probability that the played
type ``t`` is banned for the challenged player ``P`` uses what the caller has seen:
0 if P is going out on it (``banned_last_card = illegal``) or a failed call proved ``t``
not banned since P's last replacement; otherwise, with ``r`` = unseen pool cards of ``t``
(pool minus the caller's own banned ``t`` minus revealed ``t``) over all unseen pool
cards, ``p = 1 - (1 - r) ** k`` for P's ``k`` filled banned slots. The caller calls when
``p > 0`` and ``p > call_threshold - call_urgency*[P's hand <= 2]
- call_win_bonus*[own hand <= push_count]``.
Push (policies 1 and 2): own banned types first (slot order), then the type held most.
- ``learned`` (4): plays and calls by its weights (``learned.py``, ``sim.kit.learned``); pushes as
  ``honest``.
"""

from __future__ import annotations

from sim.kit.config import BotParam, BotSpec
from sim.kit.learned import best_option, default_weights, weight_params
from sim.kit.search_params import SEEING_DOC, WEIGHTED_DOC, search_params

from . import learned
from .learned import FEATURES, POLICY_FILE
from ..rules import NT, TYPES

RANDOM, HONEST, BLUFFER = 0, 1, 2
CALL_OPTIONS = ({"call": False}, {"call": True})  # the legal options of a call question (D3)
LEARNED = 4  # the learned bot (sim.kit.learned; 3 is the kernel's STEP): plays and calls by weights, pushes as HONEST
SEEING = 10  # the all-seeing search seat (sim.kit.search_params.SEEING): the search dealt the true hidden cards
WEIGHTED = 11  # the search with weighted worlds (sim.kit.search_params.WEIGHTED; kernel.search.likelihood)
SEARCH = 9  # a search seat (sim.kit.search); its rollouts are played by policy ``rollout`` with its call/bluff values

SEARCH_PARAMS = search_params({"random": RANDOM, "honest": HONEST, "bluffer": BLUFFER, "learned": LEARNED},
                              ("win", "placement"))
WEIGHTS = default_weights(POLICY_FILE, "faking-sick", FEATURES)
_CALL = {"call_threshold": 0.5, "call_urgency": 0.2, "call_win_bonus": 0.25}

BOTS: dict[str, BotSpec] = {
    "random": BotSpec("random", RANDOM, {"call_prob": 0.1}, "uniform legal option; calls with call_prob"),
    "honest": BotSpec("honest", HONEST, dict(_CALL), "never bluffs; sheds its most-held honest type; model caller"),
    "bluffer": BotSpec(
        "bluffer", BLUFFER, {**_CALL, "bluff_max": 0.9, "bluff_k": 2.0},
        "bluffs more as honest options run out; model caller",
    ),
    "caller": BotSpec(
        "caller", BLUFFER,
        {"call_threshold": 0.3, "call_urgency": 0.15, "call_win_bonus": 0.2, "bluff_max": 0.5, "bluff_k": 1.0},
        "aggressive model caller; bluffs moderately",
    ),
}
BOTS["search"] = BotSpec(
    "search", SEARCH, {"budget": 64.0, "determinizations": 0.0, "rollout": float(BLUFFER), "objective": 1.0,
                       "horizon": 16.0, **_CALL, "bluff_max": 0.9, "bluff_k": 2.0, **WEIGHTS},
    "determinized Monte Carlo search (sim.kit.search): each option played out by the rollout bot in re-dealt worlds",
)
BOTS["learned"] = BotSpec("learned", LEARNED, dict(WEIGHTS),
                          "plays and calls by the option with the highest weighted sum of features (weights fitted "
                          "to the search's choices); pushes as honest")
BOTS["seeing"] = BotSpec("seeing", SEEING, dict(BOTS["search"].params), SEEING_DOC)
BOTS["weighted"] = BotSpec("weighted", WEIGHTED, dict(BOTS["search"].params), WEIGHTED_DOC)
DEFAULT_BOTS = ("bluffer", "caller", "honest", "random")
BOT_PARAMS = (
    BotParam("call_prob", 0.0, 1.0, "random calls a play with this probability"),
    BotParam("call_threshold", 0.0, 1.0, "model callers call when the estimated ban probability exceeds this"),
    BotParam("call_urgency", 0.0, 1.0, "threshold cut when the challenged player holds 2 cards or fewer"),
    BotParam("call_win_bonus", 0.0, 1.0, "threshold cut when the caller's own hand is at most push_count"),
    BotParam("bluff_max", 0.0, 1.0, "bluff probability with no honest playable card"),
    BotParam("bluff_k", 0.01, 100.0, "honest cards in hand at which the bluff probability halves"),
    *SEARCH_PARAMS,
    *weight_params(FEATURES),
)


def argmax_type(counts, allowed) -> int:
    """Type held most among ``allowed`` (ties: lowest code), or -1."""
    best, best_n = -1, 0
    for t in range(NT):
        if allowed[t] and counts[t] > best_n:
            best, best_n = t, counts[t]
    return best


def ban_probability(pool, own_banned, revealed, p_slots: int, cleared: bool, going_out_safe: bool) -> float:
    """The call model's estimate that the played type is banned for the challenged player.

    ``pool``/``own_banned``/``revealed`` are (count of the played type, total) pairs.
    """
    if going_out_safe or cleared:
        return 0.0
    unseen_t = max(0, pool[0] - own_banned[0] - revealed[0])
    unseen_all = max(1, pool[1] - own_banned[1] - revealed[1])
    r = min(1.0, unseen_t / unseen_all)
    miss = 1.0
    for _ in range(p_slots):
        miss *= 1.0 - r
    return 1.0 - miss


def call_threshold(params: dict, p_hand: int, own_hand: int, push_count: int) -> float:
    th = params["call_threshold"]
    if p_hand <= 2:
        th -= params["call_urgency"]
    if own_hand <= push_count:
        th -= params["call_win_bonus"]
    return th


def bluff_probability(params: dict, honest_cards: int) -> float:
    return params["bluff_max"] * params["bluff_k"] / (params["bluff_k"] + honest_cards)


# ---- agents -------------------------------------------------------------------------
class BotAgent:
    """Seats played by the bundled policies (bots.py), reading the engine state."""

    def __init__(self, specs: list, params: list[dict]):
        self.specs = specs  # BotSpec per seat
        self.params = params  # resolved parameters per seat

    def decide(self, g, s: int, kind: str, legal: list[dict]) -> dict:
        return bot_decide(g, s, self.specs[s].policy, self.params[s], kind, legal, **g.ctx)


def bot_decide(g, s: int, policy: int, bp: dict, kind: str, legal: list[dict], **ctx) -> dict:
    """The policies of bots.py; same random draws as the kernel twins."""
    if kind == "call":
        return {"call": wants_call(g, s, policy, bp, ctx["target"], ctx["played"])}
    if kind == "push":
        return {"push": [TYPES[t] for t in choose_push(g, s, policy)]}
    if policy == RANDOM:
        return legal[g.rng.randbelow(len(legal))]
    if policy == LEARNED:
        weights = [bp["w_" + f] for f in learned.FEATURES]
        return legal[best_option(weights, [learned.reference_features(g, s, kind, o, ctx) for o in legal])]
    plays = [o for o in legal if "card" in o]
    honest = [0] * NT
    bluff = [0] * NT
    for o in plays:
        (bluff if o["bluff"] else honest)[TYPES.index(o["card"])] = 1
    hand = g.hands[s]
    if policy == BLUFFER and any(bluff):
        h = sum(hand[t] for t in range(NT) if honest[t])
        if g.rng.uniform() < bluff_probability(bp, h):
            return _option(plays, argmax_type(hand, bluff))
    if any(honest):
        return _option(plays, argmax_type(hand, honest))
    return legal[-1]


def _option(plays: list[dict], t: int) -> dict:
    return next(o for o in plays if o["card"] == TYPES[t])


def ban_estimate(g, q: int, s: int, t: int) -> float:
    """The call model's estimate, as seen by q, that s's played type t is banned for s
    (``ban_probability``)."""
    pool = g.p["banned_pool"]
    own = [x for x in g.slots[q] if x is not None]
    safe = g.hand_size(s) == 0 and g.p["banned_last_card"] == "illegal"
    p_slots = sum(1 for x in g.slots[s] if x is not None)
    return ban_probability(
        (pool[t], sum(pool)), (own.count(t), len(own)), (g.revealed_count[t], sum(g.revealed_count)),
        p_slots, g.cleared[s][t], safe,
    )


def wants_call(g, q: int, policy: int, bp: dict, s: int, t: int) -> bool:
    """D3 for the bundled policies (bots.py docstring)."""
    if policy == RANDOM:
        return g.rng.uniform() < bp["call_prob"]
    if policy == LEARNED:
        weights = [bp["w_" + f] for f in FEATURES]
        ctx = {"target": s, "played": t}
        return best_option(weights, [learned.reference_features(g, q, "call", o, ctx) for o in CALL_OPTIONS]) == 1
    p = ban_estimate(g, q, s, t)
    th = call_threshold(bp, g.hand_size(s), g.hand_size(q), g.p["push_count"])
    return p > 0.0 and p > th


def choose_push(g, q: int, policy: int) -> list[int]:
    """D4 for the bundled policies: one card at a time from the remaining hand."""
    hand = list(g.hands[q])
    m = min(g.p["push_count"], sum(hand))
    out = []
    for _ in range(m):
        if policy == RANDOM:
            i = g.rng.randbelow(sum(hand))
            t = 0
            while i >= hand[t]:
                i -= hand[t]
                t += 1
        else:
            t = next((x for x in g.slots[q] if x is not None and hand[x] > 0), None)
            if t is None:
                t = argmax_type(hand, [1] * NT)
        hand[t] -= 1
        out.append(t)
    return out
