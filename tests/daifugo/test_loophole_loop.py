"""The play-guard hits of the default game (DEC-18): a leader holding only forbidden-finish
cards takes a card by the loophole (§4.24, DEC-50) and, if it leads that card and keeps the
forbidden one, is back where it started on its next turn. The rules always offer the way out
(lead the forbidden card while another card is left, then finish legally, §3.7 / §2.12.2);
greedy and strategist take it (``bots.keep_finisher``, ``kernel.keep_finisher``)."""

import pytest

from sim.games.daifugo import rules as R

from .test_scenarios import legal, run

# no 2, no K, no joker: the drawn card is never itself a forbidden-finish card
PILE = ["S4", "H4", "D4", "C4", "S5", "H5", "D5", "C5", "S6", "H6"]


def _endgame(bot, card, laws):
    """Seats 1 and 3 are out; P0 (``bot``) leads holding only ``card``; P2 (random) holds two
    3s, which beat no single, so every pass of P2 is forced and P0 keeps the lead."""
    hands = [[card], [], ["S3", "C3"], []]
    return legal(run(hands, [], laws=laws, turn=0, top_list=[1, 3], discard=PILE,
                     bots=[bot, "greedy", "random", "strategist"]))


@pytest.mark.parametrize("bot", ["strategist", "greedy"])
@pytest.mark.parametrize("card,laws", [("C2", [24]), ("CK", [10, 24])])
def test_loophole_leader_leads_the_forbidden_card_first(bot, card, laws):
    """§4.24 / DEC-50 / §3.7 / DEC-18 (the loop of game 932 of seed 1, round 1): P0 reveals its
    lone forbidden-finish card (♣2, the strongest rank; ♣K under law 10, DEC-27) and draws one
    discard card; it then leads the forbidden card (no finish: a card is left), P2 cannot beat
    it, and P0 goes out on the drawn card, 3rd, P2 last. Before the fix P0 led the drawn card
    every turn and kept the forbidden one (one loophole draw per play) until the play guard
    ranked P0 and P2 at random after 1000 plays."""
    out = _endgame(bot, card, laws)
    ev = out["events"]
    assert out["finished"] and not any(e.startswith("play-count guard") for e in ev)
    draws = [k for k, e in enumerate(ev) if e.endswith("(card 24)")]
    assert len(draws) == 1
    assert ev[draws[0] + 1] == f"P0 plays [{R.pretty(R.parse_card(card))}]"
    assert "P0 goes out, place 3" in ev
    assert out["result"]["ranking"] == [1, 3, 0, 2]


@pytest.mark.parametrize("bot", ["strategist", "greedy"])
def test_loophole_declined_when_the_pile_cannot_give_a_finish(bot):
    """§4.24 / DEC-50 / D15 / §2.12.3: P0 holds only ♣2 and the discard pile only ♦2 and the
    joker, both forbidden-finish cards: greedy and strategist decline the loophole and lead the
    ♣2, a forbidden finish (last place). Taking a card, P0 would hold two 2s (or a 2 and the
    joker), lead one, draw the other back and so on until the play guard."""
    hands = [["C2"], [], ["S3", "C3"], []]
    out = legal(run(hands, [], laws=[24], turn=0, top_list=[1, 3], discard=["D2", "Jk"],
                    bots=[bot, "greedy", "random", "strategist"]))
    ev = out["events"]
    assert not any(e.endswith("(card 24)") or e.startswith("play-count guard") for e in ev)
    assert ev[:2] == ["P0 plays [♣2]", "P0 forbidden finish -> bottom"]
    assert out["result"]["ranking"] == [1, 3, 2, 0]
