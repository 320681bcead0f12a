"""What a designer may change in Daifugō with rule cards to move a rule line (``sim.kit.levers``),
nearest the printed rules first: each precept's VP (§1.5; the game's report module proposes a
set of VP changes from the cards' power and checks it), who drafts first (DEC-5), and the strength of the laws with a strength parameter or variant."""

from sim.games.daifugo.rules import N_RULE_CARDS
from sim.kit.levers import Lever

SEATS, PRECEPTS, LENGTH = "seat_spread", "precept_imbalance", "mean_plays"

LEVERS = (
    Lever("draft_order", ("clockwise_from_last",), (SEATS, PRECEPTS), "precept draft order from round 2 (DEC-5)"),
    Lever("capital_fall_bonus", (0, 2), (SEATS,), "points to every other player per capital fall (§3.8)"),
    Lever("tiebreak", ("last_round_rank",), ("shared_wins",), "tied final scores: the better rank in the last round "
                                                             "wins (DEC-21)"),
    Lever("taboo_law_scope", ("commoners",), ("law:04:king", "law:04:spread"),
          "card 04 (Taboo Breaking) as a law spares not the reigning king (a variant, DEC-54)"),
    Lever("loophole_uses_per_turn", (0, 2), ("law:24:king", "law:24:spread", LENGTH),
          "card 24 (Loophole) uses per turn as a law (DEC-50); 0: the law does nothing"),
    *(Lever(f"precept_vp_{c:02d}", (0, 2, 3, -1), (PRECEPTS,), f"VP of card {c:02d} held as a precept (§1.5)")
      for c in range(1, N_RULE_CARDS + 1)),
)
