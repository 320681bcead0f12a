"""Daifugō's learned bot (``sim.kit.learned``): the features of a ``play`` option (a pass or a legal
play, D8/D9), reference side; ``kernel/learned.py`` computes the same integers from the move
table. The learned bot weighs its plays; every other decision (draft, gifts, exchanges, trims,
rule-card windows) it makes as the strategist does (bots.py), with its strategist parameters."""

from __future__ import annotations

from pathlib import Path

from .. import rules as R
from ..plays import SET, value

FEATURES = (
    "pass",              # pass instead of playing
    "pass_hand",         # pass * cards in hand
    "pass_opponent",     # pass * the fewest cards an opponent still in the round holds
    "cards",             # cards played
    "strength",          # the play's strength under the current order (plays.value; the Joker single 13)
    "jokers",            # jokers played
    "top_rank",          # cards of the strongest rank played (2, or 3 reversed)
    "breaks_set",        # a set that leaves cards of its rank in hand
    "going_out",         # the play empties the hand
    "forbidden_finish",  # going out by a forbidden finish (§3.7)
    "leaves_forbidden",  # the cards left are all forbidden-finish cards (DEC-50)
    "revolution",        # the play causes a revolution (§3.5)
    "rest_ranks",        # natural ranks left in hand after the option (a pass: the hand's)
    "lead_strength",     # strength when the play leads the trick (no top play), else 0
)
NFEAT = len(FEATURES)
(F_PASS, F_PASS_HAND, F_PASS_OPP, F_CARDS, F_STRENGTH, F_JOKERS, F_TOP_RANK, F_BREAKS_SET, F_GOING_OUT,
 F_FORBIDDEN_FINISH, F_LEAVES_FORBIDDEN, F_REVOLUTION, F_REST_RANKS, F_LEAD_STRENGTH) = range(NFEAT)
KINDS = ("play",)  # the decisions the learned bot weighs (the others: the strategist's rules)
POLICY_FILE = Path(__file__).parents[1] / "learned_policy.json"  # the learned bot's default weights
KERNEL_MODULE = "sim.games.daifugo.kernel.learned"  # features_of: the features at a pending decision


def fewest_opponent_cards(eng, p: int) -> int:
    """The fewest cards an opponent of p still in the round holds (0 with none)."""
    sizes = [len(eng.hands[q]) for q in range(eng.n) if q != p and eng.active[q]]
    return min(sizes) if sizes else 0


def natural_ranks(cards) -> int:
    """The natural ranks among ``cards`` (jokers not counted)."""
    return len({c // 4 for c in cards if c < R.JOKER})


def reference_features(eng, p: int, kind: str, m, ctx=None) -> list[int]:
    """The features of option ``m`` (a play, or None for a pass) of seat p's decision ``kind``
    (``play``, the one kind the learned bot weighs; ``ctx`` unused)."""
    f = [0] * NFEAT
    hand = eng.hands[p]
    if m is None:
        f[F_PASS] = 1
        f[F_PASS_HAND] = len(hand)
        f[F_PASS_OPP] = fewest_opponent_cards(eng, p)
        f[F_REST_RANKS] = natural_ranks(hand)
        return f
    rv = eng.reversed
    strongest = 0 if rv else 12
    f[F_CARDS] = m.count
    f[F_STRENGTH] = value(m, rv)
    f[F_JOKERS] = m.jokers
    f[F_TOP_RANK] = sum(1 for c in m.cards if c < R.JOKER and c // 4 == strongest)
    f[F_BREAKS_SET] = int(m.kind == SET and m.count - m.jokers < sum(
        1 for c in hand if c < R.JOKER and c // 4 == m.low))
    revolts = eng.causes_revolution(p, m)
    rest = hand.difference(m.cards)
    if not rest:
        f[F_GOING_OUT] = 1
        f[F_FORBIDDEN_FINISH] = int(eng.finish_forbidden(p, m, eng.top, rv, eng.rev, revolts))
    elif not eng.taboo(p):
        f[F_LEAVES_FORBIDDEN] = int(all(eng.forbidden_finish_card(p, c) for c in rest))
    f[F_REVOLUTION] = int(revolts)
    f[F_REST_RANKS] = natural_ranks(rest)
    f[F_LEAD_STRENGTH] = f[F_STRENGTH] if eng.top is None else 0
    return f
