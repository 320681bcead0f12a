"""Faking-sick rule parameters (spec §2) and the card/array layout shared by both engines.

Card type codes (spec §1): 0 VIR, 1 FEV, 2 SNZ, 3 INJ, 4 HDA, 5 MSK, 6 ICE.
``encode(cfg)`` flattens a validated config into the int64 vector the kernel reads; the
reference engine reads ``cfg.params`` by name instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from sim.kit.config import ConfigError, Param, RunConfig
from sim.kit.layout import Layout

NAME = "faking-sick"
TYPES = ("VIR", "FEV", "SNZ", "INJ", "HDA", "MSK", "ICE")
LONG = ("VIRUS", "FEVER", "SNEEZE", "INJECTION", "HEADACHE", "MASK", "ICE PACK")
NT = 7
VIR, FEV, SNZ, INJ, HDA, MSK, ICE = range(NT)
CODE = {t: i for i, t in enumerate(TYPES)}
JAPANESE = ("ウイルス", "発熱", "くしゃみ", "注射", "頭痛", "マスク", "氷枕")
# accepted spellings of each type on input: code, English name (any case; spaces, "_" and
# "-" ignored: "ice pack", "ICE_PACK") or Japanese name
ALIASES = {
    **CODE,
    **{name.replace(" ", ""): i for i, name in enumerate(LONG)},
    **{name: i for i, name in enumerate(JAPANESE)},
}


def type_code(name: Any) -> int | None:
    """The type code of an input spelling (see ``ALIASES``), or None."""
    if not isinstance(name, str):
        return None
    return ALIASES.get(name.strip().upper().replace(" ", "").replace("_", "").replace("-", ""))


@dataclass(frozen=True)
class CountsParam(Param):
    """A count per card type, written ``VIR=32,FEV=16,...`` (missing types are 0) or as a
    list of 7 integers in code order."""

    def allowed(self) -> str:
        return "counts per type, e.g. " + ",".join(f"{t}=n" for t in TYPES)

    def coerce(self, value: Any) -> tuple[int, ...]:
        bad = ConfigError(f"bad value {value!r} for '{self.name}': expected {self.allowed()}")
        if isinstance(value, dict):
            items = list(value.items())
        elif isinstance(value, str):
            items = []
            for part in value.split(","):
                k, sep, v = part.partition("=")
                if not sep:
                    raise bad
                items.append((k.strip(), v.strip()))
        elif isinstance(value, (list, tuple)) and len(value) == NT:
            items = list(zip(TYPES, value))
        else:
            raise bad
        out = [0] * NT
        for k, v in items:
            code = type_code(k)
            if code is None:
                raise bad
            try:
                if isinstance(v, bool) or (isinstance(v, float) and not v.is_integer()):
                    raise ValueError
                n = int(v)
            except (TypeError, ValueError):
                raise bad from None
            if n < 0 or (self.hi is not None and n > self.hi):
                raise bad
            out[code] = n
        return tuple(out)


@dataclass(frozen=True)
class TypesParam(Param):
    """A set of card types; items may be spelled as in ``ALIASES`` (``ice``, ``ICE PACK``)."""

    def coerce(self, value: Any) -> tuple[str, ...]:
        items = value.split(",") if isinstance(value, str) else value
        if isinstance(items, (list, tuple)):
            items = [TYPES[type_code(x)] if type_code(x) is not None else x for x in items]
        return super().coerce(items)


MAX_PLAYERS = 4  # FakingSick.max_players; the kernel's state buffer holds this many seats


def _p(name, default, kind, source, rule, doc, **kw):
    return Param(name, default, kind, source, rule, doc, **kw)


PARAMS: tuple[Param, ...] = (
    CountsParam("deck_counts", (32, 16, 16, 8, 8, 8, 8), "counts", "found", "FS-1.1",
                "cards per type in the full deck (sub-rule 0005_06)", hi=500),
    CountsParam("banned_pool", (0, 2, 2, 1, 1, 1, 1), "counts", "seed", "FS-2.1",
                "cards per type taken out as the banned pool (no VIR)", hi=100),
    _p("banned_per_player", 2, "int", "seed", "FS-2.1", "banned cards dealt to each player", lo=1, hi=100),
    _p("hand_size", 10, "int", "seed", "FS-2.4", "cards dealt to each hand", lo=1, hi=60),
    _p("first_player", 0, "int", "assumed", "FS-2.8", "seat that takes the first turn", lo=0, hi=MAX_PLAYERS - 1),
    _p("initial_card_effect", "none", "choice", "assumed", "FS-2.6",
       "apply: the first face-up card acts as played by the seat before the first player",
       choices=("none", "apply")),
    _p("draw_count", 1, "int", "assumed", "FS-3.4", "cards taken by a voluntary draw", lo=1, hi=10),
    _p("voluntary_draw", True, "bool", "assumed", "FS-3.4",
       "false: a player may draw only without an honest legal play"),
    _p("play_after_draw", False, "bool", "found", "FS-3.4", "a player who drew may still play (0005_04: not in the main rule)"),
    _p("effects_profile", "reconstructed", "choice", "assumed", "FS-5.1",
       "vanilla: no attacks/counters, only HEADACHE acts", choices=("reconstructed", "vanilla")),
    TypesParam("fever_counters", ("INJ", "ICE"), "set", "assumed", "FS-5.3", "types that counter FEVER", choices=TYPES),
    TypesParam("sneeze_counters", ("INJ", "MSK"), "set", "assumed", "FS-5.3", "types that counter SNEEZE", choices=TYPES),
    _p("fever_penalty_draw", 1, "int", "assumed", "FS-5.2", "cards drawn when accepting FEVER", lo=0, hi=10),
    _p("sneeze_penalty_draw", 1, "int", "assumed", "FS-5.2", "cards drawn when accepting SNEEZE", lo=0, hi=10),
    _p("headache_ban_scope", "until_owner_next_turn", "choice", "assumed", "FS-5.4",
       "how long a HEADACHE ban on VIRUS lasts", choices=("until_owner_next_turn", "next_player_turn")),
    _p("call_priority", "clockwise", "choice", "seed-weak", "FS-6.3",
       "which of several callers is judged", choices=("clockwise", "random")),
    _p("push_count", 2, "int", "seed", "FS-7.2", "cards a successful caller pushes", lo=0, hi=10),
    _p("push_short_hand", "push_all", "choice", "assumed", "FS-7.2",
       "caller holding fewer than push_count cards", choices=("push_all", "forbid_call")),
    _p("call_fail_draw", 2, "int", "seed", "FS-7.4", "cards a failed caller draws", lo=0, hi=10),
    _p("successful_call_turn", "ends", "choice", "assumed", "FS-7.3",
       "challenged player's turn after a successful call", choices=("ends", "play_again")),
    _p("failed_counter_penalty", True, "bool", "assumed", "FS-7.3",
       "a successfully called counter still suffers the attack penalty"),
    _p("revealed_banned_destination", "discard_bottom", "choice", "assumed", "FS-7.3",
       "where a revealed banned card goes", choices=("discard_bottom", "removed", "owner_hand")),
    _p("banned_last_card", "illegal", "choice", "seed-weak", "FS-9.4",
       "going out on a banned card: never offered, or allowed and voided at the reveal",
       choices=("illegal", "void")),
    TypesParam("last_card_forbidden_types", (), "set", "seed-weak", "FS-4.4",
       "types that may never be the last card (MASK not allowed)", choices=TYPES),
    _p("reshuffle", "discard_except_top", "choice", "assumed", "FS-10.1",
       "empty draw pile: reshuffle the discard pile below its top, or no more cards",
       choices=("discard_except_top", "none")),
    _p("pushed_cards_public", False, "bool", "assumed", "FS-11.2",
       "pushed cards are shown to the table (the bundled bots do not use pushed faces)"),
    _p("max_turns", 2000, "int", "assumed", "FS-9.6", "turn cap; a capped game is a draw", lo=1, hi=10**7),
)


def check(cfg: RunConfig) -> None:
    """Cross-parameter checks (one-line ConfigError)."""
    p, n = cfg.params, cfg.players
    deck, pool, k = p["deck_counts"], p["banned_pool"], p["banned_per_player"]
    if pool[VIR]:
        raise ConfigError("banned_pool may not contain VIR (FS-2.1: viruses are never banned)")
    if k * n > sum(pool):
        raise ConfigError(
            f"banned_per_player x players = {k} x {n} = {k * n} exceeds the banned pool of {sum(pool)} cards"
        )
    for t in range(NT):
        if pool[t] > deck[t]:
            raise ConfigError(f"banned_pool has {pool[t]} {TYPES[t]} but deck_counts only {deck[t]}")
    if deck[VIR] < 1:
        raise ConfigError("deck_counts needs at least 1 VIR for the virus marker (FS-2.2)")
    left = sum(deck) - sum(pool) - 1
    if left < n * p["hand_size"] + 1:
        raise ConfigError(
            f"draw pile of {left} cards cannot deal {n} hands of {p['hand_size']} plus the first face-up card"
        )
    if "MSK" in p["last_card_forbidden_types"]:
        raise ConfigError("last_card_forbidden_types may not contain MSK (FS-4.4: MASK may be the last card)")
    if p["first_player"] >= n:
        raise ConfigError(f"first_player {p['first_player']} is not a seat of a {n}-player game")


# ---- kernel parameter vector ----------------------------------------------------------
# ``encode`` fills it; it is the first block of the kernel's state buffer (kernel.state.LAYOUT),
# so the ``K_*`` offsets index the buffer too.
PV = Layout("faking-sick kernel parameters")
K_N = PV.scalar("players")
K_BPP = PV.scalar("banned_per_player")
K_HAND = PV.scalar("hand_size")
K_FIRST = PV.scalar("first_player")
K_INIT_APPLY = PV.scalar("initial_apply", "initial_card_effect = apply")
K_DRAW = PV.scalar("draw_count")
K_VOLUNTARY = PV.scalar("voluntary_draw")
K_PLAY_AFTER = PV.scalar("play_after_draw")
K_EFFECTS = PV.scalar("attacks", "effects_profile = reconstructed")
K_FEV_CTR = PV.scalar("fever_counters", "type mask (type_mask)")
K_SNZ_CTR = PV.scalar("sneeze_counters", "type mask")
K_FEV_PEN = PV.scalar("fever_penalty_draw")
K_SNZ_PEN = PV.scalar("sneeze_penalty_draw")
K_BAN_NEXT = PV.scalar("ban_next_player", "headache_ban_scope = next_player_turn")
K_PRIO_RANDOM = PV.scalar("random_priority", "call_priority = random")
K_PUSH = PV.scalar("push_count")
K_FORBID_CALL = PV.scalar("forbid_short_call", "push_short_hand = forbid_call")
K_FAIL_DRAW = PV.scalar("call_fail_draw")
K_PLAY_AGAIN = PV.scalar("play_again", "successful_call_turn = play_again")
K_CTR_PENALTY = PV.scalar("failed_counter_penalty")
K_DEST = PV.scalar("revealed_destination", "DEST_* code of revealed_banned_destination")
K_VOID = PV.scalar("void_last_card", "banned_last_card = void")
K_LAST_FORBID = PV.scalar("last_card_forbidden", "type mask of last_card_forbidden_types")
K_RESHUFFLE = PV.scalar("reshuffle", "reshuffle = discard_except_top")
K_MAX_TURNS = PV.scalar("max_turns")
K_DECK = PV.block("deck_counts", NT, "cards per type code")
K_POOL = PV.block("banned_pool", NT, "cards per type code")
K_LEN = PV.size

# ---- sizes the kernel's state buffer is laid out for (the parameters' upper bounds) ----
_HI = {p.name: p.hi for p in PARAMS}
MAX_DECK = NT * _HI["deck_counts"]
MAX_POOL = NT * _HI["banned_pool"]
MAX_PUSH = _HI["push_count"]
# the most legal options of one decision (step contract): a play decision's types and its
# fallback, or every multiset of push_count cards of the 7 types
MAX_OPTIONS = max(NT + 1, comb(MAX_PUSH + NT - 1, NT - 1))
DEST_DISCARD, DEST_REMOVED, DEST_HAND = 0, 1, 2


def type_mask(names) -> int:
    """Bit mask (bit t = type t) of a tuple of short type names."""
    m = 0
    for name in names:
        m |= 1 << CODE[name]
    return m


def encode(cfg: RunConfig) -> np.ndarray:
    """The int64 parameter vector of the kernel (indices ``K_*``)."""
    p = cfg.params
    v = np.zeros(K_LEN, dtype=np.int64)
    v[K_N] = cfg.players
    v[K_BPP] = p["banned_per_player"]
    v[K_HAND] = p["hand_size"]
    v[K_FIRST] = p["first_player"]
    v[K_INIT_APPLY] = p["initial_card_effect"] == "apply"
    v[K_DRAW] = p["draw_count"]
    v[K_VOLUNTARY] = p["voluntary_draw"]
    v[K_PLAY_AFTER] = p["play_after_draw"]
    v[K_EFFECTS] = p["effects_profile"] == "reconstructed"
    v[K_FEV_CTR] = type_mask(p["fever_counters"])
    v[K_SNZ_CTR] = type_mask(p["sneeze_counters"])
    v[K_FEV_PEN] = p["fever_penalty_draw"]
    v[K_SNZ_PEN] = p["sneeze_penalty_draw"]
    v[K_BAN_NEXT] = p["headache_ban_scope"] == "next_player_turn"
    v[K_PRIO_RANDOM] = p["call_priority"] == "random"
    v[K_PUSH] = p["push_count"]
    v[K_FORBID_CALL] = p["push_short_hand"] == "forbid_call"
    v[K_FAIL_DRAW] = p["call_fail_draw"]
    v[K_PLAY_AGAIN] = p["successful_call_turn"] == "play_again"
    v[K_CTR_PENALTY] = p["failed_counter_penalty"]
    v[K_DEST] = ("discard_bottom", "removed", "owner_hand").index(p["revealed_banned_destination"])
    v[K_VOID] = p["banned_last_card"] == "void"
    v[K_LAST_FORBID] = type_mask(p["last_card_forbidden_types"])
    v[K_RESHUFFLE] = p["reshuffle"] == "discard_except_top"
    v[K_MAX_TURNS] = p["max_turns"]
    v[K_DECK:K_DECK + NT] = p["deck_counts"]
    v[K_POOL:K_POOL + NT] = p["banned_pool"]
    return v
