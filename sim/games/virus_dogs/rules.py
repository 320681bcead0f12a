"""Virus Dogs rule parameters (spec VD-P) and the layout constants both engines share.

Card codes are small integers in the order of the spec's VD-1 table. The deck is an
ordered pile stored bottom-first: index 0 is the bottom card and the last index is the top
(the next card drawn). A shuffle is ``sim.kit.rng.shuffle`` over that array, so both engines
must keep this orientation.
"""

from __future__ import annotations

from sim.kit.config import Param

# ---- card codes (VD-1) -------------------------------------------------------------------
V, BAT, TP, CTL, QRN, DOC, ANT, AMB, MSK, BM, SHF, CGH, EXC, BLANK = range(14)
N_TYPES = 14
CODES = ("V", "BAT", "TP", "CTL", "QRN", "DOC", "ANT", "AMB", "MSK", "BM", "SHF", "CGH", "EXC", "BLANK")
CODE_OF = {c: i for i, c in enumerate(CODES)}
# Action cards playable in phases A and C, in the canonical option order (VD-4.2).
ACTION_CARDS = (CTL, QRN, DOC, AMB, SHF, CGH, EXC)
# Card-count parameter per code (the starting deck is built in code order, then shuffled).
COUNT_PARAM = {
    V: "n_virus_in_deck", BAT: "n_bat", TP: "n_toilet", CTL: "n_control", QRN: "n_quarantine",
    DOC: "n_doctor", ANT: "n_antiseptic", AMB: "n_ambulance", MSK: "n_mask",
    BM: "n_black_market", SHF: "n_shuffle", CGH: "n_cough", EXC: "n_exchange", BLANK: "n_blank",
}
# Cards a bot gives away first in an exchange when it holds no hidden virus (DP-13).
GIVE_ORDER = (BLANK, EXC, SHF, QRN, CGH, CTL, BM, MSK, AMB, DOC, ANT, TP)

# ---- outcome codes (M-1) and elimination causes (VD-19.2) ---------------------------------
OUTCOMES = ("last_standing_normal", "last_standing_hq", "hq_stalemate", "hq_first_elimination",
            "no_winner", "turn_cap")
LAST_NORMAL, LAST_HQ, HQ_STALEMATE, HQ_FIRST_ELIM, NO_WINNER, TURN_CAP = range(6)
CAUSES = ("declare_on_draw", "voluntary_declare", "control", "quarantine", "cough", "hard_quarantine")
C_DECLARE, C_VOLUNTARY, C_CONTROL, C_QUARANTINE, C_COUGH, C_HQ = range(6)

# ---- choice-parameter codes (the kernel sees integers) ------------------------------------
CHOICE_CODES = {
    "first_player": (0, "random"),
    "skip_scope": ("whole_turn", "after_declaration"),
    "mask_take_mode": ("any_subset", "prefix"),
    "exchange_refused_card": ("return_to_giver", "discard"),
    "eliminated_hand_destination": ("discard", "deck_bottom", "shuffle_into_deck"),
    "deck_exhaustion_check": ("end_of_turn", "immediate"),
    "hq_target": ("left_neighbour", "choice"),
    "hq_end": ("last_standing", "first_elimination"),
    "hq_stalemate": ("fewest_open_shared", "all_remaining_shared"),
    "all_eliminated_outcome": ("no_winner", "shared_win"),
}


def _count(name, default, source, doc="", hi=40):
    return Param(name, default, "int", source, "VD-P.1", doc, lo=0, hi=hi)


def _choice(name, rule, doc):
    choices = CHOICE_CODES[name]
    return Param(name, choices[0], "choice", "assumed", rule, doc, choices=choices)


PARAMS: tuple[Param, ...] = (
    _count("n_virus_total", 7, "seed", "viruses in the game (deck + reserve)"),
    _count("n_virus_in_deck", 1, "seed", "viruses shuffled into the starting deck"),
    _count("n_bat", 3, "seed", "bats in the deck"),
    Param("bat_virus_add", 2, "int", "seed", "VD-8.2", "viruses a bat moves from the reserve", lo=0, hi=10),
    _count("n_toilet", 6, "assumed", "copies of TP (toilet paper)"),
    _count("n_control", 4, "assumed", "copies of CTL (control)"),
    _count("n_quarantine", 2, "assumed", "copies of QRN (quarantine)"),
    _count("n_doctor", 6, "assumed", "copies of DOC (doctor)"),
    _count("n_antiseptic", 4, "assumed", "copies of ANT (antiseptic)"),
    _count("n_ambulance", 1, "seed-weak", "copies of AMB (ambulance); AD-2"),
    _count("n_mask", 5, "assumed", "copies of MSK (mask)"),
    _count("n_black_market", 4, "assumed", "copies of BM (black market)"),
    _count("n_shuffle", 4, "assumed", "copies of SHF (shuffle)"),
    _count("n_cough", 4, "assumed", "copies of CGH (cough)"),
    _count("n_exchange", 4, "assumed", "copies of EXC (exchange)"),
    _count("n_blank", 0, "assumed", "no-effect cards (extension)"),
    Param("draw_min", 1, "int", "seed", "VD-5.1", "fewest cards in a normal draw", lo=1, hi=4),
    Param("draw_max", 2, "int", "seed", "VD-5.1", "most cards in a normal draw", lo=1, hi=4),
    Param("mask_peek", 2, "int", "seed", "VD-9.2", "cards a mask looks at", lo=1, hi=4),
    Param("black_market_look", 3, "int", "seed", "VD-10.2", "cards a black market looks at", lo=1, hi=6),
    Param("doctors_per_cure", 2, "int", "seed", "VD-17.2", "DOC cards that cure one open virus", lo=1, hi=4),
    Param("doctor_per_turn", 1, "int", "seed", "VD-4.6", "DOC cards playable per turn", lo=1, hi=4),
    Param("elimination_threshold", 2, "int", "seed", "VD-19.1", "open viruses that eliminate", lo=1, hi=4),
    _choice("first_player", "VD-3.5", "seat 0 starts, or a uniformly random seat"),
    Param("draw_count_declared_upfront", False, "bool", "assumed", "VD-5.2", "declare 1 or 2 before drawing (AD-5)"),
    Param("bat_counts_as_draw", True, "bool", "assumed", "VD-8.4", "a bat counts as a drawn card (AD-6)"),
    _choice("skip_scope", "VD-12.2", "a TP skip bans all card play that turn, or only after it (AD-8)"),
    _choice("mask_take_mode", "VD-9.3", "mask takes any subset or a prefix of the peeked cards (AD-10)"),
    Param("antiseptic_on_cough", True, "bool", "assumed", "VD-7.1", "ANT works on a face-up cough draw (AD-12)"),
    Param("ambulance_reactive", False, "bool", "assumed", "VD-18.4", "AMB may be played when O reaches the threshold (AD-17)"),
    _choice("exchange_refused_card", "VD-16.4", "where a refused exchange card goes (AD-22)"),
    _choice("eliminated_hand_destination", "VD-19.3", "where an eliminated player's other cards go (AD-18)"),
    _choice("deck_exhaustion_check", "VD-20.1", "when an empty deck starts hard quarantine (AD-26)"),
    _choice("hq_target", "VD-20.6", "whom a hard-quarantine drawer pulls from (AD-28)"),
    _choice("hq_end", "VD-20.9", "hard quarantine runs to the last player or stops at its first elimination (AD-29)"),
    _choice("hq_stalemate", "VD-20.10", "who wins a hard-quarantine stalemate (AD-30)"),
    Param("hq_max_steps", 10_000, "int", "assumed", "VD-20.11", "hard-quarantine step cap (then stalemate)", lo=1, hi=10**9),
    _choice("all_eliminated_outcome", "VD-21.3", "result when the last players fall together (AD-20)"),
    Param("max_turns", 1000, "int", "assumed", "VD-24", "turn cap; a capped game ends with outcome turn_cap, no winner", lo=1, hi=100_000),
)

PARAM_NAMES = tuple(p.name for p in PARAMS)
# Integer vector layout handed to the kernel: one slot per parameter, in PARAMS order.
P_INDEX = {name: i for i, name in enumerate(PARAM_NAMES)}


def param_vector(values: dict) -> list[int]:
    """Parameters as integers (bools 0/1, choices by position) in ``PARAMS`` order."""
    out = []
    for p in PARAMS:
        v = values[p.name]
        if p.kind == "choice":
            out.append(CHOICE_CODES[p.name].index(v))
        else:
            out.append(int(v))
    return out


def deck_counts(values: dict) -> list[int]:
    """Starting-deck copies per card code (VD-3.1)."""
    return [int(values[COUNT_PARAM[c]]) for c in range(N_TYPES)]


class Rules:
    """Attribute view of a parameter dict with choice values kept as strings (reference engine)."""

    def __init__(self, values: dict):
        for p in PARAMS:
            setattr(self, p.name, values.get(p.name, p.default))
        self.counts = deck_counts(self.__dict__)

    @property
    def reserve_start(self) -> int:
        return self.n_virus_total - self.n_virus_in_deck
