"""Daifugō with rule cards: parameters (spec §5) and the card layout shared by both engines.

Spec: rules/daifugo-rule-cards.md. Every assumed number or open decision is a ``Param``
row citing its DEC-… id; ``cardlab rules daifugo`` lists them. One row is a study option, not
a rule of the game: ``laws = off`` (DEC-53, source ``study``) puts no law in force, for the
control run the report measures each law against.

Card layout (spec §9): ``id = 4*r + s`` with rank index r (3→0 … K→10, A→11, 2→12) and
suit s (♠0 ♥1 ♦2 ♣3); the jokers are 52 and 53 (53, ``Jk2``, only after card 05).
A hand is a bitmask over these ids.

Rule cards are numbered 1..25; each acts as a law or a precept at its step of the on-play
resolution order (§4.26).
"""

from __future__ import annotations

from sim.kit.config import Param

N_RANKS = 13
N_SUITS = 4
JOKER = 52  # first joker id; the second (card 05) would be 53
BASE_DECK = 53
N_CARD_IDS = 54  # card ids 0..53 (both jokers)
RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUIT_NAMES = ("S", "H", "D", "C")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
R3, R8, R10, RJ, RQ, RK, RA, R2 = 0, 5, 7, 8, 9, 10, 11, 12

# rule cards (spec §1.4)
CARD_NAMES = {
    1: "Recycle", 2: "Fusion Revolution", 3: "Ten Discard", 4: "Taboo Breaking", 5: "Trickster",
    6: "Slip-Through", 7: "Three-Card Revolution", 8: "Metamorphosis", 9: "Eight Cut",
    10: "Pull-Back", 11: "Magician Hunt", 12: "Collusion", 13: "Armed Force", 14: "Suit Lock",
    15: "Number Lock", 16: "Sameness", 17: "Magician Exile", 18: "Flux", 19: "J-Back",
    20: "Descent from Heaven", 21: "Stairs", 22: "Three Return", 23: "Wisdom of Three",
    24: "Loophole", 25: "Purification Words",
}
N_RULE_CARDS = 25
# The rule cards by name, shared by both engines: ``applies(C19_JBACK, p)``, never a bare number.
(C01_RECYCLE, C02_FUSION, C03_TEN_DISCARD, C04_TABOO, C05_TRICKSTER, C06_SLIP, C07_THREE_REV, C08_METAMORPHOSIS,
 C09_EIGHT_CUT, C10_PULL_BACK, C11_HUNT, C12_COLLUSION, C13_ARMED_FORCE, C14_SUIT_LOCK, C15_NUMBER_LOCK,
 C16_SAMENESS, C17_EXILE, C18_FLUX, C19_JBACK, C20_DESCENT, C21_STAIRS, C22_THREE_RETURN, C23_WISDOM,
 C24_LOOPHOLE, C25_DOBON) = range(1, N_RULE_CARDS + 1)
CARD_IDS = tuple(f"{c:02d}" for c in range(1, N_RULE_CARDS + 1))

MODES = ("normal", "madness")
LAW_SWITCH = ("on", "off")  # the ``laws`` study option (DEC-53)
# The decision kinds, by kind code (both engines' names; the step contract's ``Step.kinds``).
DECISION_KINDS = ("draft", "give", "king_give", "collude", "collusion", "collusion_give", "collusion_return", "trim",
                  "start", "play", "revolt", "pull_back", "ten_discard", "flux", "recycle", "loophole", "dobon")
MAX_PLAYERS = 6


PARAMS: tuple[Param, ...] = (
    Param("mode", "normal", "choice", "seed", "§2.2", "normal: laws only; madness: laws and precepts, precept VP",
          choices=MODES),
    Param("rounds", 5, "int", "seed", "§2.2", "rounds per game in normal mode", lo=1, hi=25),
    Param("madness_rounds", 3, "int", "seed", "§2.2", "rounds per game in madness mode", lo=1, hi=25),
    Param("rule_deck", CARD_IDS, "set", "seed", "§1.1",
          "rule cards in the rule deck (ids 01-25)",
          choices=CARD_IDS),
    Param("laws", "on", "choice", "study", "DEC-53",
          "study option, not a printed rule (the control run of the law effects): off puts no law in force; "
          "each round's law card is still drawn and set aside face up, the precepts are drafted as usual",
          choices=LAW_SWITCH),
    Param("hand_size", 10, "int", "seed", "§2.4", "cards dealt per player (3-5 players)", lo=1, hi=13),
    Param("hand_size_six", 8, "int", "seed", "§2.4", "cards dealt per player with 6 players", lo=1, hi=8),
    Param("trim_to", 7, "int", "seed", "§2.9", "trim phase: players may discard down to this many cards", lo=0, hi=13),
    Param("trim_mode", "any", "choice", "assumed", "DEC-9", "any: discard any number down to trim_to; "
          "all_or_nothing: exactly down to trim_to or nothing", choices=("any", "all_or_nothing")),
    Param("rank_points_1", 3, "int", "seed", "DEC-19", "points for 1st place", lo=-100, hi=100),
    Param("rank_points_2", 2, "int", "seed", "DEC-19", "points for 2nd place", lo=-100, hi=100),
    Param("rank_points_3", 1, "int", "seed", "DEC-19", "points for 3rd place (also when 3rd is last)", lo=-100, hi=100),
    Param("rank_points_4", 0, "int", "seed", "DEC-19", "points for 4th place", lo=-100, hi=100),
    Param("rank_points_5", 0, "int", "seed", "DEC-19", "points for 5th place", lo=-100, hi=100),
    Param("rank_points_6", 0, "int", "seed", "DEC-19", "points for 6th place", lo=-100, hi=100),
    Param("capital_fall_bonus", 1, "int", "seed", "§3.8", "points to every other player per capital fall",
          lo=-100, hi=100),
    Param("precept_vp_timing", "game_end", "choice", "assumed", "DEC-20",
          "when precept VP are added", choices=("game_end", "every_round")),
    *(Param(f"precept_vp_{c:02d}", 1, "int", "assumed", "§1.5",
            f"VP of card {c:02d} ({CARD_NAMES[c]}) held as a precept (printed values unknown)", lo=-100, hi=100)
      for c in range(1, N_RULE_CARDS + 1)),
    Param("tiebreak", "share", "choice", "assumed", "DEC-21",
          "tied final scores: share the win, or better rank in the last round wins",
          choices=("share", "last_round_rank")),
    Param("draft_order", "by_rank", "choice", "seed-weak", "DEC-5",
          "precept draft order from round 2: by_rank (last place first, ascending rank) or "
          "clockwise_from_last", choices=("by_rank", "clockwise_from_last")),
    Param("pass_locks_out", True, "bool", "found", "DEC-11", "a player who passed may not play again in the trick"),
    Param("bottom_order", "latest_lowest", "choice", "seed-weak", "DEC-14",
          "order among bottom placements", choices=("latest_lowest", "earliest_lowest")),
    Param("forbidden_finish_flows", False, "bool", "assumed", "DEC-15", "a forbidden finish flows the field"),
    Param("exited_hand_to_discard", True, "bool", "assumed", "DEC-16",
          "a fallen king's remaining hand goes face up to the discard pile (else removed from the round)"),
    Param("max_plays_per_round", 1000, "int", "assumed", "DEC-18",
          "play-count guard: a round reaching this many plays ranks the remaining players randomly",
          lo=1, hi=100000),
    Param("lone_joker_wild", True, "bool", "seed-weak", "DEC-23", "a lone joker may be played as a wild single"),
    Param("wild_triggers_rank_effects", True, "bool", "assumed", "DEC-24",
          "wild jokers count as their represented rank for effects and forbidden finish"),
    Param("revolution_finish_forbidden", False, "bool", "assumed", "DEC-26", "finishing with a revolution is forbidden"),
    Param("forbidden_effect_cards", ("03", "09", "10", "11", "19", "22", "23"), "set", "found", "DEC-27",
          "rank-effect cards whose trigger makes a finish forbidden", choices=("03", "09", "10", "11", "19", "22", "23")),
    Param("strongest_uses_effective_order", True, "bool", "found", "DEC-27",
          "the forbidden 'strongest rank' follows revolution XOR J-back (else revolution only)"),
    Param("capital_fall_if_king_already_placed", True, "bool", "assumed", "DEC-28",
          "capital fall (and bonus) also when the king was already placed at the bottom"),
    Param("three_card_revolution_optional", False, "bool", "assumed", "DEC-35",
          "card 07: the 3-card revolution is the player's choice (else automatic)"),
    Param("suit_lock_tightens", False, "bool", "assumed", "DEC-41",
          "card 14: a later shared suit adds to the locked suits"),
    Param("joker_single_ignores_number_lock", True, "bool", "assumed", "DEC-43",
          "card 15: a Joker single is exempt from the number lock"),
    Param("jback_toggles", False, "bool", "assumed", "DEC-46", "card 19: a second J in the trick toggles J-back off"),
    Param("precept21_followers_may_play_stairs", True, "bool", "assumed", "DEC-47",
          "card 21 precept: others may follow the holder's stairs"),
    # decisions the spec leaves open for cards 01, 02, 05, 12, 13, 17, 18, 24, 25
    Param("discard_public", True, "bool", "assumed", "DEC-2",
          "the discard pile is face up (card 01 chooses from it; only true is implemented)"),
    Param("post_exchange_order", "05,12law,12precept", "choice", "assumed", "DEC-4",
          "order of post-exchange effects (card 05, card 12 law, card 12 precept)", choices=("05,12law,12precept",)),
    Param("collusion_round1", True, "bool", "assumed", "DEC-8",
          "card 12 acts in round 1 (law: every player is a commoner, from the start player; precept: any other player)"),
    Param("dobon_flows", True, "bool", "assumed", "DEC-13",
          "card 25: a dobon flows the field, the next player from the caller leads (else the trick goes on)"),
    Param("fusion_respects_locks", False, "bool", "assumed", "DEC-30", "card 02: no fusion while a suit or number lock binds the player (else fusion ignores locks)"),
    Param("ten_discard_mandatory", False, "bool", "assumed", "DEC-32",
          "card 03: the 10 discard is mandatory (exactly min(10s played, hand) cards)"),
    Param("trickster_precept_timing", "after_exchange", "choice", "assumed", "DEC-33",
          "when the 05 precept joker arrives: after the exchange (so it is not given away in it), "
          "or when drafted", choices=("after_exchange", "on_draft")),
    Param("pullback_count", "kings", "choice", "assumed", "DEC-36",
          "card 10: cards taken by pull-back, up to one per K played or one per card played",
          choices=("kings", "cards_played")),
    Param("armed_force_resolution", "trick_end", "choice", "assumed", "DEC-39",
          "card 13: when an unanswered revolution's claim wins the round", choices=("trick_end", "immediate", "round_end")),
    Param("exile_mode", "no_revolution", "choice", "assumed", "DEC-44",
          "card 17: a revolution-size play with a joker by a restricted player causes no revolution, "
          "or is illegal", choices=("no_revolution", "illegal")),
    Param("flux_mode", "swap_with_next", "choice", "assumed", "DEC-45",
          "card 18: the revolution maker swaps hands with the next active player, or every active "
          "player passes the hand to the next", choices=("swap_with_next", "rotate_all")),
    Param("loophole_uses_per_turn", 1, "int", "assumed", "DEC-50", "card 24 uses per turn", lo=0, hi=10),
    Param("taboo_law_scope", "everyone", "choice", "variant", "DEC-54",
          "card 04 as a law lifts the forbidden finish for everyone (the printed rule) or for the commoners only "
          "(a variant: the reigning king stays bound)", choices=("everyone", "commoners")),
    Param("dobon_on_stairs", False, "bool", "assumed", "DEC-51",
          "card 25: a dobon may target stairs (the value of their highest card)"),
)
MAX_ROUNDS = int(max(p.hi for p in PARAMS if p.name in ("rounds", "madness_rounds")))  # the raw rows' round blocks

# Integer parameter vector shared by both engines (index constants below).
P_MADNESS, P_ROUNDS, P_HAND, P_TRIM_TO, P_TRIM_ALL, P_VP_EVERY_ROUND, P_TIE_LAST = range(7)
P_DRAFT_CW, P_LOCKOUT, P_EARLIEST_LOWEST, P_FF_FLOWS, P_EXIT_DISCARD, P_MAX_PLAYS = range(7, 13)
P_LONE_WILD, P_WILD_EFFECTS, P_REV_FF, P_FF_09, P_FF_19, P_STRONG_EFF, P_CF_PLACED = range(13, 20)
P_07_OPTIONAL, P_LOCK_TIGHTEN, P_JOKER_NUMLOCK, P_JBACK_TOGGLE, P_21_FOLLOW, P_CF_BONUS = range(20, 26)
P_RANK_POINTS = 26  # 6 entries
P_VP = 32  # 26 entries, index = card id (0 unused)
P_FF_03, P_FF_10, P_FF_11, P_FF_22, P_FF_23, P_03_MANDATORY, P_PULL_PLAYED = range(58, 65)
P_EXILE_ILLEGAL = 65  # card 17
P_AF_MODE = 66  # card 13: AF_TRICK_END, AF_IMMEDIATE, AF_ROUND_END
AF_TRICK_END, AF_IMMEDIATE, AF_ROUND_END = 0, 1, 2
P_05_ON_DRAFT, P_12_ROUND1 = 67, 68  # cards 05, 12
P_FLUX_ROTATE = 69  # card 18
P_FUSION_LOCKS = 70  # card 02
P_LOOPHOLE_USES, P_DOBON_FLOWS, P_DOBON_STAIRS = range(71, 74)  # cards 24, 25
P_LAWS_OFF = 74  # DEC-53: the study option ``laws = off``
P_TABOO_COMMONERS = 75  # DEC-54: card 04 as a law spares not the reigning king
N_PARAMS = 76


def param_vector(cfg) -> list[int]:
    """The configuration as the integer vector both engines read (layout: P_* constants)."""
    p = cfg.params
    madness = p["mode"] == "madness"
    v = [0] * N_PARAMS
    v[P_MADNESS] = int(madness)
    v[P_ROUNDS] = p["madness_rounds"] if madness else p["rounds"]
    v[P_HAND] = p["hand_size_six"] if cfg.players == 6 else p["hand_size"]
    v[P_TRIM_TO] = p["trim_to"]
    v[P_TRIM_ALL] = int(p["trim_mode"] == "all_or_nothing")
    v[P_VP_EVERY_ROUND] = int(p["precept_vp_timing"] == "every_round")
    v[P_TIE_LAST] = int(p["tiebreak"] == "last_round_rank")
    v[P_DRAFT_CW] = int(p["draft_order"] == "clockwise_from_last")
    v[P_LOCKOUT] = int(p["pass_locks_out"])
    v[P_EARLIEST_LOWEST] = int(p["bottom_order"] == "earliest_lowest")
    v[P_FF_FLOWS] = int(p["forbidden_finish_flows"])
    v[P_EXIT_DISCARD] = int(p["exited_hand_to_discard"])
    v[P_MAX_PLAYS] = p["max_plays_per_round"]
    v[P_LONE_WILD] = int(p["lone_joker_wild"])
    v[P_WILD_EFFECTS] = int(p["wild_triggers_rank_effects"])
    v[P_REV_FF] = int(p["revolution_finish_forbidden"])
    v[P_FF_09] = int("09" in p["forbidden_effect_cards"])
    v[P_FF_19] = int("19" in p["forbidden_effect_cards"])
    v[P_FF_03], v[P_FF_10], v[P_FF_11], v[P_FF_22], v[P_FF_23] = (
        int(c in p["forbidden_effect_cards"]) for c in ("03", "10", "11", "22", "23"))
    v[P_03_MANDATORY] = int(p["ten_discard_mandatory"])
    v[P_PULL_PLAYED] = int(p["pullback_count"] == "cards_played")
    v[P_05_ON_DRAFT] = int(p["trickster_precept_timing"] == "on_draft")
    v[P_12_ROUND1] = int(p["collusion_round1"])
    v[P_TABOO_COMMONERS] = int(p.get("taboo_law_scope", "everyone") == "commoners")  # runs from before DEC-54: the printed rule
    v[P_STRONG_EFF] = int(p["strongest_uses_effective_order"])
    v[P_CF_PLACED] = int(p["capital_fall_if_king_already_placed"])
    v[P_07_OPTIONAL] = int(p["three_card_revolution_optional"])
    v[P_LOCK_TIGHTEN] = int(p["suit_lock_tightens"])
    v[P_JOKER_NUMLOCK] = int(p["joker_single_ignores_number_lock"])
    v[P_JBACK_TOGGLE] = int(p["jback_toggles"])
    v[P_21_FOLLOW] = int(p["precept21_followers_may_play_stairs"])
    v[P_CF_BONUS] = p["capital_fall_bonus"]
    v[P_EXILE_ILLEGAL] = int(p["exile_mode"] == "illegal")
    v[P_AF_MODE] = ("trick_end", "immediate", "round_end").index(p["armed_force_resolution"])
    v[P_FLUX_ROTATE] = int(p["flux_mode"] == "rotate_all")
    v[P_FUSION_LOCKS] = int(p["fusion_respects_locks"])
    v[P_LOOPHOLE_USES] = p["loophole_uses_per_turn"]
    v[P_DOBON_FLOWS] = int(p["dobon_flows"])
    v[P_DOBON_STAIRS] = int(p["dobon_on_stairs"])
    v[P_LAWS_OFF] = int(p["laws"] == "off")
    for i in range(6):
        v[P_RANK_POINTS + i] = p[f"rank_points_{i + 1}"]
    for c in range(1, N_RULE_CARDS + 1):
        v[P_VP + c] = p[f"precept_vp_{c:02d}"]
    return v


def rule_deck(cfg) -> list[int]:
    """Rule card ids in the deck before the shuffle, ascending."""
    return sorted(int(c) for c in cfg.params["rule_deck"])


def n_rounds(cfg) -> int:
    return cfg.params["madness_rounds"] if cfg.params["mode"] == "madness" else cfg.params["rounds"]


# ---- card codes ---------------------------------------------------------------------
def card_code(c: int) -> str:
    """'S10', 'HQ', 'Jk' (52), 'Jk2' (53)."""
    if c >= JOKER:
        return "Jk" if c == JOKER else "Jk2"
    return SUIT_NAMES[c % 4] + RANK_NAMES[c // 4]


_CODES = {card_code(c): c for c in range(54)}
_SYM = dict(zip(SUIT_SYMBOLS, SUIT_NAMES))


def parse_card(code) -> int:
    """Card id of a code ('S10', '♠10', 'h9', 'Jk'; rank first too: '10S', '9♥'); raises ValueError."""
    s = "".join(_SYM.get(ch, ch) for ch in str(code).strip()).upper()
    if s in ("JK", "JOKER", "JK1"):
        return JOKER
    if s == "JK2":
        return JOKER + 1
    if len(s) >= 2 and s[0] not in SUIT_NAMES and s[-1] in SUIT_NAMES:
        s = s[-1] + s[:-1]  # rank first
    if s.endswith("T"):
        s = s[:-1] + "10"
    if len(s) >= 2 and s[0] in SUIT_NAMES and s[1:] in RANK_NAMES:
        return SUIT_NAMES.index(s[0]) + 4 * RANK_NAMES.index(s[1:])
    raise ValueError(f"unknown card code {code!r}")


def pretty(c: int) -> str:
    if c >= JOKER:
        return "Jk"
    return SUIT_SYMBOLS[c % 4] + RANK_NAMES[c // 4]
