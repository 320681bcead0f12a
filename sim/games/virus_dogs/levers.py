"""What a designer may change in Virus Dogs to move a rule line (``sim.kit.levers``), nearest the
printed rules first. Hard-quarantine stalemates (VD-20.8) come from tables where no live player
holds a hidden virus when the deck runs out: more viruses in play, or fewer ways to hide or
cure them, make them rarer. Seat order comes from who starts (VD-3.5)."""

from sim.kit.levers import Lever

STALEMATE, SEATS, LENGTH = "rate:hq_stalemate", "seat_spread", "mean_turns"

LEVERS = (
    Lever("first_player", ("random",), (SEATS,), "a uniformly random seat starts instead of seat 0 (VD-3.5)"),
    Lever("n_virus_in_deck", (2, 3, 4), (STALEMATE, SEATS, LENGTH), "viruses shuffled into the starting deck (VD-P.1)"),
    Lever("n_bat", (4, 2), (STALEMATE, LENGTH), "bats in the deck: each brings viruses from the reserve (VD-8.2)"),
    Lever("bat_virus_add", (3, 1), (STALEMATE, LENGTH), "viruses a bat moves from the reserve (VD-8.2)"),
    Lever("n_antiseptic", (3, 2), (STALEMATE, LENGTH), "antiseptics, which stop a drawn virus (VD-7.1)"),
    Lever("n_doctor", (5, 4), (STALEMATE, LENGTH), "doctors, which cure open viruses (VD-17.2)"),
    Lever("n_mask", (4, 3), (STALEMATE, SEATS), "masks, which look ahead in the deck (VD-9.2)"),
)
