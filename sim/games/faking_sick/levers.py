"""What a designer may change in the faking-sick game to move a rule line (``sim.kit.levers``),
nearest the printed rules first: the turn cap (FS-9.6) is hit by tables that stall, seat order
by who starts and how fast hands empty."""

from sim.kit.levers import Lever

CAP, SEATS, LENGTH = "rate:turn_cap", "seat_spread", "mean_turns"

LEVERS = (
    Lever("hand_size", (9, 11, 8), (SEATS, CAP, LENGTH), "cards dealt to each hand (FS-2.4)"),
    Lever("push_count", (1, 3), (SEATS, CAP, LENGTH), "cards a successful caller pushes (FS-7.2)"),
    Lever("call_fail_draw", (1, 3), (SEATS, CAP, LENGTH), "cards a failed caller draws (FS-7.4)"),
    Lever("draw_count", (2,), (CAP, LENGTH), "cards taken by a voluntary draw (FS-3.4)"),
    Lever("banned_per_player", (1, 3), (SEATS, CAP), "banned cards dealt to each player (FS-2.1)"),
)
