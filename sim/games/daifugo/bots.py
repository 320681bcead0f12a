"""Bots (spec §6) for the reference engine; ``kernel.py`` holds their @njit twins.

Every bot answers every decision kind. Only ``random`` draws from the game RNG, one
``randbelow`` per decision with two or more options (trim: one draw for the count, one per
card). Ties always go to the first option in the engine's canonical order.

- random:     uniform over the options.
- greedy:     sheds the weakest legal play, never passes when it can play, trims and gives
              its weakest cards, drafts the first revealed card, names itself start player.
- strategist: finishes when it legally can; revolts when its hand is weak under the
              current order; otherwise plays the cheapest play where jokers and cards of
              the strongest rank (2, or 3 reversed) are expensive, breaking a set costs a
              little, leaving only forbidden-finish cards costs more; passes instead of
              spending control cards while every opponent still holds many cards; counts
              unseen cards and, with a small hand, leads a play nobody can beat; drafts
              precepts by a scored preference (card value + hand fit); trims and gives
              away its weakest unpaired cards.
"""

from __future__ import annotations

from sim.config import BotParam, BotSpec

from . import rules as R
from .plays import JOKER_SINGLE, SET, value, strength

RANDOM, GREEDY, STRATEGIST = 0, 1, 2

BOTS = {
    "random": BotSpec("random", RANDOM, {}, "uniform over legal options"),
    "greedy": BotSpec("greedy", GREEDY, {}, "sheds the weakest legal play first, never passes when able"),
    "strategist": BotSpec(
        "strategist", STRATEGIST,
        {"revolt_below": 5.0, "pass_control_above": 2.0, "boss_hand": 4.0, "pullback_margin": 2.0,
         "flux_margin": 1.0},
        "keeps jokers/strongest rank for control, counts cards, avoids forbidden finishes, "
        "revolts when weak (mean strength < revolt_below), passes on control while every "
        "opponent holds > pass_control_above cards, leads unbeatable plays with <= boss_hand cards, "
        "pulls back (card 10) only cards at least pullback_margin steps stronger than a K, "
        "takes the card-18 precept exchange when the hand it receives is at least flux_margin cards smaller",
    ),
}
BOT_PARAMS = (
    BotParam("revolt_below", 0.0, 13.0, "strategist revolts when the mean strength (0-12) of its natural cards is below this"),
    BotParam("pass_control_above", 0.0, float(R.BASE_DECK),
             "strategist passes instead of spending control cards while every opponent holds more cards than this"),
    BotParam("boss_hand", 0.0, float(R.BASE_DECK), "strategist leads a play nobody can beat once its hand is this small"),
    BotParam("pullback_margin", 0.0, 14.0,
             "strategist pulls back (card 10) only cards at least this many strength steps above a K (joker 13)"),
    BotParam("flux_margin", 0.0, float(R.BASE_DECK),
             "strategist exchanges hands through its card-18 precept when it receives at least this many cards fewer"),
)

# D1 draft preference of the strategist (implemented cards; inert cards score 0)
DRAFT_PREF = [0] * (R.N_RULE_CARDS + 1)
DRAFT_PREF[R.C21_STAIRS] = 5
DRAFT_PREF[R.C09_EIGHT_CUT] = 4
DRAFT_PREF[R.C07_THREE_REV] = 3
DRAFT_PREF[R.C19_JBACK] = 3
DRAFT_PREF[R.C14_SUIT_LOCK] = 2
DRAFT_PREF[R.C15_NUMBER_LOCK] = 2


def ex_value(c: int) -> int:
    return 13 if c >= R.JOKER else c // 4


def rank_count(hand, c: int) -> int:
    return sum(1 for x in hand if x < R.JOKER and x // 4 == c // 4)


def weakest_key(c: int):
    """greedy: weakest first in the normal order (Joker strongest)."""
    return (ex_value(c), c)


def unpaired_key(hand):
    """strategist: unpaired cards first, then by rank; jokers last."""
    return lambda c: (2, 0, c) if c >= R.JOKER else (int(rank_count(hand, c) >= 2), c // 4, c)


class BotAgent:
    """Agent that seats bots: ``names[p]`` plays seat p with parameters ``params[p]``."""

    def __init__(self, names, params):
        self.names = list(names)
        self.params = list(params)

    def decide(self, eng, p, kind, options):
        pol = BOTS[self.names[p]].policy
        return DECIDERS[kind](eng, p, options, pol, self.params[p])


def _random_index(eng, n):
    return eng.rng.randbelow(n) if n >= 2 else 0


def decide_play(eng, p, options, pol, prm):
    if pol == RANDOM:
        return options[_random_index(eng, len(options))]
    moves = [m for m in options if m is not None]
    if not moves:
        return None
    if pol == GREEDY:
        rv = eng.reversed
        return min(moves, key=lambda m: m.jokers * 1000 + value(m, rv) * 16 + (15 - m.count))
    return strategist_play(eng, p, options[0] is None, moves, prm)


def strategist_play(eng, p, can_pass, moves, prm):
    hand = eng.hands[p]
    n = len(hand)
    rv = eng.reversed
    for m in moves:  # finish when legal
        if m.count == n and not eng.is_forbidden(p, m, eng.top, rv, eng.rev, eng.causes_revolution(p, m)):
            return m
    nat = [c for c in hand if c < R.JOKER]
    if nat and float(sum(strength(c // 4, rv) for c in nat)) < prm["revolt_below"] * float(len(nat)):
        for m in moves:
            if eng.causes_revolution(p, m):
                return m
    strongest = 0 if rv else 12
    a9, a19 = eng.applies(R.C09_EIGHT_CUT, p), eng.applies(R.C19_JBACK, p)

    def ff_card(c):
        r = c // 4
        return c >= R.JOKER or r == strongest or (a9 and r == R.R8) or (a19 and r == R.RJ)

    leading = not can_pass
    boss_check = leading and n <= prm["boss_hand"]
    if boss_check:
        unseen_n = [4] * 13
        jk_unseen = 1
        for c in hand | eng.discard | eng.field:
            if c >= R.JOKER:
                jk_unseen -= 1
            else:
                unseen_n[c // 4] -= 1
    opp = [len(eng.hands[q]) for q in range(eng.n) if q != p and eng.active[q]]
    min_opp = min(opp) if opp else 0
    best, best_cost = None, 1 << 30
    for m in moves:
        cost = value(m, rv) * 16 + (15 - m.count) + 200 * m.jokers
        if any(c < R.JOKER and c // 4 == strongest for c in m.cards):
            cost += 100
        if m.kind == SET and m.count - m.jokers < rank_count(hand, 4 * m.low):
            cost += 8
        rest = [c for c in hand if c not in m.cards]
        if rest:
            if all(ff_card(c) for c in rest):
                cost += 60
            if boss_check and _is_boss(m, rv, unseen_n, jk_unseen):
                cost -= 300
        elif eng.is_forbidden(p, m, eng.top, rv, eng.rev, eng.causes_revolution(p, m)):
            cost += 1000
        if cost < best_cost:
            best, best_cost = m, cost
    if can_pass and (best_cost >= 1000 or (best_cost >= 100 and float(min_opp) > prm["pass_control_above"])):
        return None
    return best


def _is_boss(m, rv, unseen_n, jk_unseen):
    """No unseen cards could beat m (sets and singles; the Joker single always)."""
    if m.kind == JOKER_SINGLE:
        return True
    if m.kind != SET:
        return False
    if m.count == 1 and jk_unseen > 0:
        return False
    v = value(m, rv)
    for r in range(13):
        if strength(r, rv) > v and unseen_n[r] + jk_unseen >= m.count:
            return False
    return True


def decide_draft(eng, p, options, pol, prm):
    if pol == RANDOM:
        return options[_random_index(eng, len(options))]
    if pol == GREEDY:
        return options[0]
    hand = eng.hands[p]
    best, best_score = options[0], -(1 << 30)
    for c in options:
        score = DRAFT_PREF[c] * 10 + eng.pv[R.P_VP + c] * 10 + draft_fit(hand, c)
        if score > best_score:
            best, best_score = c, score
    return best


def draft_fit(hand, c: int) -> int:
    """Hand fit of a precept for the strategist (D1)."""
    counts = [sum(1 for s in range(4) if 4 * r + s in hand) for r in range(13)]
    if c == R.C09_EIGHT_CUT:
        return 3 * counts[R.R8]
    if c == R.C19_JBACK:
        return 3 * counts[R.RJ]
    if c == R.C07_THREE_REV:
        return 4 * sum(1 for r in range(13) if counts[r] >= 3)
    if c == R.C21_STAIRS:
        return 4 * sum(1 for s in range(4) for r in range(11)
                       if all(4 * (r + i) + s in hand for i in range(3)))
    return 0


def decide_give(eng, p, options, pol, prm):
    return options[_random_index(eng, len(options))] if pol == RANDOM else options[0]


def decide_king_give(eng, p, options, pol, prm):
    if pol == RANDOM:
        return options[_random_index(eng, len(options))]
    if pol == GREEDY:
        return min(options, key=weakest_key)
    return min(options, key=unpaired_key(eng.hands[p]))


def decide_trim(eng, p, most, pol, prm):
    hand = eng.hands[p]
    all_or_nothing = eng.pv[R.P_TRIM_ALL]
    if pol == RANDOM:
        k = most * eng.rng.randbelow(2) if all_or_nothing else eng.rng.randbelow(most + 1)
        rest = sorted(hand)
        out = []
        for _ in range(k):
            out.append(rest.pop(eng.rng.randbelow(len(rest))))
        return out
    key = weakest_key if pol == GREEDY else unpaired_key(hand)
    return sorted(hand, key=key)[:most]


def decide_start(eng, p, options, pol, prm):
    return options[_random_index(eng, len(options))] if pol == RANDOM else p


def decide_revolt(eng, p, options, pol, prm):
    if pol == RANDOM:
        return options[_random_index(eng, 2)]
    if pol == GREEDY:
        return True
    nat = [c for c in eng.hands[p] if c < R.JOKER]
    rv = eng.reversed
    return bool(nat) and float(sum(strength(c // 4, rv) for c in nat)) < prm["revolt_below"] * float(len(nat))


def decide_flux(eng, p, options, pol, prm):
    """D13 (card 18 precept): random either way; greedy always exchanges; strategist when the
    hand it would receive is at least ``flux_margin`` cards smaller than its own."""
    if pol == RANDOM:
        return options[_random_index(eng, 2)]
    if pol == GREEDY:
        return True
    return float(len(eng.hands[eng.flux_source(p)])) + prm["flux_margin"] <= float(len(eng.hands[p]))


def card_strength(c: int, rv: bool) -> int:
    """Strength of a card in hand under the current order (a joker 13)."""
    return 13 if c >= R.JOKER else strength(c // 4, rv)


def decide_pull_back(eng, p, options, pol, prm):
    """D11 (card 10): random count then random cards (the trim protocol over the previous play's
    cards); greedy takes the cards stronger than a K, strategist those at least
    ``pullback_margin`` steps stronger, strongest first. Neither takes back a K, so K-on-K
    pull-backs under card 16 never loop by their choice (QA-16.1)."""
    most, cards = options
    if pol == RANDOM:
        return _random_cards(eng, cards, eng.rng.randbelow(most + 1))
    rv = eng.reversed
    margin = 1 if pol == GREEDY else prm["pullback_margin"]
    bar = strength(R.RK, rv) + margin
    good = sorted((c for c in cards if card_strength(c, rv) >= bar), key=lambda c: (-card_strength(c, rv), c))
    return good[:most]


def decide_ten_discard(eng, p, most, pol, prm):
    """D12 (card 03): random as a trim; greedy sheds its weakest cards, strategist its weakest
    unpaired ones, never the last card unless the discard is mandatory."""
    hand = eng.hands[p]
    mandatory = eng.pv[R.P_03_MANDATORY]
    if pol == RANDOM:
        return _random_cards(eng, sorted(hand), most if mandatory else eng.rng.randbelow(most + 1))
    k = most if mandatory else min(most, len(hand) - 1)
    key = weakest_key if pol == GREEDY else unpaired_key(hand)
    return sorted(hand, key=key)[:k]


def _random_cards(eng, cards, k):
    """k cards drawn one ``randbelow`` each from the remaining cards in ascending id order."""
    rest = sorted(cards)
    return [rest.pop(eng.rng.randbelow(len(rest))) for _ in range(k)]


DECIDERS = {
    "pull_back": decide_pull_back,
    "ten_discard": decide_ten_discard,
    "play": decide_play,
    "draft": decide_draft,
    "give": decide_give,
    "king_give": decide_king_give,
    "trim": decide_trim,
    "start": decide_start,
    "revolt": decide_revolt,
    "flux": decide_flux,
}
