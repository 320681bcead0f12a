"""Bots (spec §6) for the reference engine; ``kernel/bots.py`` holds their @njit twins.

Every bot answers every decision kind. Only ``random`` draws from the game RNG, one
``randbelow`` per decision with two or more options (trim: one draw for the count, one per
card). Ties always go to the first option in the engine's canonical order.

- random:     uniform over the options.
- greedy:     sheds the weakest legal play, never passes when it can play, trims and gives
              its weakest cards, drafts the first revealed card, names itself start player.
- greedy and strategist, leading, keep a card they may finish on (``keep_finisher``) and
              use the loophole (card 24) only when the discard pile holds such a card.
- strategist: finishes when it legally can; revolts when its hand is weak under the
              current order; otherwise plays the cheapest play where jokers and cards of
              the strongest rank (2, or 3 reversed) are expensive, breaking a set costs a
              little, leaving only forbidden-finish cards costs more; passes instead of
              spending control cards while every opponent still holds many cards; counts
              unseen cards and, with a small hand, leads a play nobody can beat; drafts
              precepts by a scored preference (card value + hand fit); trims and gives
              away its weakest unpaired cards (also to the king under card 08).
- learned:    plays (D8/D9) the option whose features (learned.py) weigh most by its ``w_*``
              weights, fitted to the search's choices (``cardlab train``); every other
              decision as the strategist.
"""

from __future__ import annotations

from sim.kit.config import BotParam, BotSpec
from sim.kit.learned import best_option, default_weights, weight_params
from sim.kit.search_params import SEEING_DOC, WEIGHTED_DOC, search_params

from . import learned
from .. import rules as R
from ..plays import JOKER_SINGLE, SET, value, strength

RANDOM, GREEDY, STRATEGIST = 0, 1, 2
SEEING = 4  # the all-seeing search seat (sim.kit.search_params.SEEING): the search dealt the true hidden cards
SEARCH = 3  # a search seat (sim.kit.search); its rollouts, and the decisions it does not search, by policy ``rollout``
LEARNED = 5  # the learned bot (sim.kit.learned): its plays by weights, every other decision as STRATEGIST
WEIGHTED = 6  # the search with weighted worlds (sim.kit.search_params.WEIGHTED; kernel/search.likelihood)
ROLLOUT_BOTS = {"random": RANDOM, "greedy": GREEDY, "strategist": STRATEGIST, "learned": LEARNED}
WEIGHTS = default_weights(learned.POLICY_FILE, "daifugo", learned.FEATURES)

BOTS = {
    "random": BotSpec("random", RANDOM, {}, "uniform over legal options"),
    "greedy": BotSpec("greedy", GREEDY, {}, "sheds the weakest legal play first, never passes when able; "
                      "leading, keeps a card it may finish on (a 2 or joker goes first)"),
    "strategist": BotSpec(
        "strategist", STRATEGIST,
        {"revolt_below": 5.0, "pass_control_above": 2.0, "boss_hand": 4.0, "pullback_margin": 2.0,
         "draft_card_weight": 10.0, "draft_vp_weight": 10.0, "draft_fit_weight": 1.0,
         "flux_margin": 1.0, "recycle_hand": 3.0},
        "keeps jokers/strongest rank for control, counts cards, avoids forbidden finishes "
        "(leading, keeps a card it may finish on), "
        "revolts when weak (mean strength < revolt_below), passes on control while every "
        "opponent holds > pass_control_above cards, leads unbeatable plays with <= boss_hand cards, "
        "pulls back (card 10) only cards at least pullback_margin steps stronger than a K, "
        "drafts the precept of best score draft_card_weight * card value (bots.DRAFT_PREF) + "
        "draft_vp_weight * its VP + draft_fit_weight * hand fit, "
        "takes the card-18 precept exchange when the hand it receives is at least flux_margin cards smaller, "
        "recycles (card 01) its strongest discard card once it holds <= recycle_hand cards",
    ),
}
BOTS["search"] = BotSpec(
    "search", SEARCH, {"budget": 64.0, "determinizations": 0.0, "rollout": float(STRATEGIST), "objective": 1.0,
                       "horizon": 20.0, **BOTS["strategist"].params, **WEIGHTS},
    "determinized Monte Carlo search (sim.kit.search) over the turns: each play or window option played out by the "
    "rollout bot in re-dealt worlds; the round's setup decisions and decisions with more options than the budget "
    "by the rollout bot",
)
BOTS["seeing"] = BotSpec("seeing", SEEING, dict(BOTS["search"].params), SEEING_DOC)
BOTS["weighted"] = BotSpec("weighted", WEIGHTED, dict(BOTS["search"].params), WEIGHTED_DOC)
BOTS["learned"] = BotSpec("learned", LEARNED, {**BOTS["strategist"].params, **WEIGHTS},
                          "plays the option with the highest weighted sum of features (weights fitted to the "
                          "search's choices); every other decision as strategist")
SEARCH_PARAMS = search_params(ROLLOUT_BOTS, ("win", "placement"))
BOT_PARAMS = (
    BotParam("revolt_below", 0.0, 13.0, "strategist revolts when the mean strength (0-12) of its natural cards is below this"),
    BotParam("pass_control_above", 0.0, float(R.BASE_DECK),
             "strategist passes instead of spending control cards while every opponent holds more cards than this"),
    BotParam("boss_hand", 0.0, float(R.BASE_DECK), "strategist leads a play nobody can beat once its hand is this small"),
    BotParam("pullback_margin", 0.0, 14.0,
             "strategist pulls back (card 10) only cards at least this many strength steps above a K (joker 13)"),
    BotParam("draft_card_weight", 0.0, 100.0, "strategist's D1 draft: weight of the card's value (bots.DRAFT_PREF, 0-10)"),
    BotParam("draft_vp_weight", 0.0, 100.0, "strategist's D1 draft: weight of the card's precept VP"),
    BotParam("draft_fit_weight", 0.0, 100.0,
             "strategist's D1 draft: weight of the hand fit (cards of the dealt hand the card's effect uses)"),
    BotParam("flux_margin", 0.0, float(R.BASE_DECK),
             "strategist exchanges hands through its card-18 precept when it receives at least this many cards fewer"),
    BotParam("recycle_hand", 0.0, 13.0,
             "strategist recycles (card 01) the strongest discard card once its hand has at most this many cards"),
) + SEARCH_PARAMS + weight_params(learned.FEATURES)
BOT_PARAM_NAMES = tuple(dict.fromkeys(k for spec in BOTS.values() for k in spec.params))  # Game.bot_param_names()
GREEDY_RECYCLE_HAND = 3  # greedy recycles (card 01) at this hand size or smaller (spec §6 D14)

# D1 draft preference of the strategist: how much holding each card as a precept helps its
# holder (0-10), for all 25 cards; the score of a revealed card is
# draft_card_weight * DRAFT_PREF[c] + draft_vp_weight * precept_vp_c + draft_fit_weight * draft_fit(hand, c)
DRAFT_PREF = [0,
              3,  # 01 Recycle: a discard card back once per round
              3,  # 02 Fusion Revolution: revolutions from pairs and triples on the field
              3,  # 03 Ten Discard: sheds cards with every 10
              5,  # 04 Taboo Breaking: the holder may finish on jokers, 2s and effect cards
              6,  # 05 Trickster: the second joker comes to the holder
              4,  # 06 Slip-Through: singles on sets and sets on singles
              3,  # 07 Three-Card Revolution
              2,  # 08 Metamorphosis: any card to the king (only as a commoner)
              4,  # 09 Eight Cut: 8s win tricks
              2,  # 10 Pull-Back
              2,  # 11 Magician Hunt: the holder's single Q forces out jokers
              4,  # 12 Collusion: takes the strongest card of a non-king every round
              4,  # 13 Armed Force: an unanswered revolution wins the round
              2,  # 14 Suit Lock (the holder ignores it)
              2,  # 15 Number Lock (the holder ignores it)
              3,  # 16 Sameness
              2,  # 17 Magician Exile: only the holder revolts with a joker
              1,  # 18 Flux
              3,  # 19 J-Back
              3,  # 20 Descent from Heaven
              5,  # 21 Stairs
              2,  # 22 Three Return
              3,  # 23 Wisdom of Three
              1,  # 24 Loophole
              2,  # 25 Purification Words (dobon)
              ]


def ex_value(c: int) -> int:
    return 13 if c >= R.JOKER else c // 4


def rank_count(hand, c: int) -> int:
    return sum(1 for x in hand if x < R.JOKER and x // 4 == c // 4)


def rank_counts(hand) -> list[int]:
    """Natural cards of the hand per rank (``rank_count`` of every rank at once)."""
    counts = [0] * 13
    for x in hand:
        if x < R.JOKER:
            counts[x // 4] += 1
    return counts


def weakest_key(c: int):
    """greedy: weakest first in the normal order (Joker strongest)."""
    return (ex_value(c), c)


def unpaired_key(hand):
    """strategist: unpaired cards first, then by rank; jokers last."""
    held = rank_counts(hand)
    return lambda c: (2, 0, c) if c >= R.JOKER else (int(held[c // 4] >= 2), c // 4, c)


class BotAgent:
    """Agent that seats bots: ``names[p]`` plays seat p with parameters ``params[p]``."""

    def __init__(self, names, params):
        self.names = list(names)
        self.params = list(params)
        self.policies = [BOTS[name].policy for name in self.names]

    def decide(self, eng, p, kind, options):
        """The reference engine's bot interface: a single option (a list of one) is taken as it is."""
        if isinstance(options, list) and len(options) == 1:
            return options[0]
        return DECIDERS[kind](eng, p, options, self.policies[p], self.params[p])


def _random_index(eng, n):
    return eng.rng.randbelow(n) if n >= 2 else 0


def _random_option(eng, options):
    return options[_random_index(eng, len(options))]


def decide_play(eng, p, options, pol, prm):
    if pol == RANDOM:
        return _random_option(eng, options)
    if pol == LEARNED:
        weights = [prm["w_" + f] for f in learned.FEATURES]
        return options[best_option(weights, [learned.reference_features(eng, p, "play", m) for m in options])]
    moves = options[1:] if options and options[0] is None else options  # [None (= pass)] + plays, or plays
    if not moves:
        return None
    if options[0] is not None:  # leading (§2.11.1)
        moves = keep_finisher(eng, p, moves)
    if pol == GREEDY:
        rv = eng.reversed
        return min(moves, key=lambda m: m.jokers * 1000 + value(m, rv) * 16 + (15 - m.count))
    return strategist_play(eng, p, options[0] is None, moves, prm)


def keep_finisher(eng, p, moves):
    """Greedy and strategist, leading: when some play leaves a card p may finish on, the plays
    that would leave only forbidden-finish cards (§3.7; the cards of §4.24 / DEC-50:
    ``forbidden_finish_card``, none when card 04 applies to p) are not made. Leading the last
    card it may finish on and keeping a 2 or a joker strands the hand; with card 24 the
    loophole then refills it with one random discard card per turn, and a leader that always
    led the drawn card kept the round going until the play guard (DEC-18). A revolution is
    never dropped (it changes which cards are forbidden, §3.5)."""
    if eng.taboo(p):
        return moves
    hand = eng.hands[p]
    ff = forbidden_finish_cards(eng, p, hand)
    if not ff:
        return moves
    finishers = hand - ff  # a play leaves one of them unless it plays them all
    leaves_finisher = [len(m.cards) < len(finishers) or not finishers.issubset(m.cards) for m in moves]
    if not any(leaves_finisher):  # no play leaves a card p may finish on
        return moves
    return [m for m, keeps in zip(moves, leaves_finisher) if len(m.cards) == len(hand) or keeps
            or eng.causes_revolution(p, m)]


def forbidden_finish_cards(eng, p, cards) -> set[int]:
    """The ``cards`` p may not finish on (``forbidden_finish_card``, asked once per rank: the
    answer is the same for every card of a rank, and for both jokers)."""
    forbidden = {}  # rank (13: the jokers) -> the answer
    out = set()
    for c in cards:
        r = ex_value(c)
        if r not in forbidden:
            forbidden[r] = eng.forbidden_finish_card(p, c)
        if forbidden[r]:
            out.add(c)
    return out


def strategist_play(eng, p, can_pass, moves, prm):
    hand = eng.hands[p]
    n = len(hand)
    rv = eng.reversed
    for m in moves:  # finish when legal
        if m.count == n and not eng.finish_forbidden(p, m, eng.top, rv, eng.rev, eng.causes_revolution(p, m)):
            return m
    if weak_hand(hand, rv, prm):
        for m in moves:
            if eng.causes_revolution(p, m):
                return m
    strongest = 0 if rv else 12
    # ranks p may not finish on (jokers neither); none when card 04 applies to p
    ff_ranks = {strongest}
    if eng.applies(R.C09_EIGHT_CUT, p):
        ff_ranks.add(R.R8)
    if eng.applies(R.C19_JBACK, p):
        ff_ranks.add(R.RJ)
    taboo = eng.taboo(p)
    leading = not can_pass
    boss_check = leading and n <= prm["boss_hand"]
    if boss_check:
        unseen_n = [4] * 13
        jk_unseen = eng.jokers  # 2 once card 05 has resolved
        for c in hand | eng.discard | eng.field:
            if c >= R.JOKER:
                jk_unseen -= 1
            else:
                unseen_n[c // 4] -= 1
    held = rank_counts(hand)
    finishers = set(hand) if taboo else {c for c in hand if c < R.JOKER and c // 4 not in ff_ranks}  # p may finish on
    strongest_cards = hand.intersection(range(4 * strongest, 4 * strongest + 4))
    best, best_cost = None, 1 << 30
    for m in moves:
        cost = value(m, rv) * 16 + (15 - m.count) + 200 * m.jokers
        if not strongest_cards.isdisjoint(m.cards):
            cost += 100
        if m.kind == SET and m.count - m.jokers < held[m.low]:
            cost += 8
        if len(m.cards) < n:  # cards remain
            if len(m.cards) >= len(finishers) and finishers.issubset(m.cards):  # only forbidden-finish cards remain
                cost += 60
            if boss_check and _is_boss(m, rv, unseen_n, jk_unseen):
                cost -= 300
        elif eng.finish_forbidden(p, m, eng.top, rv, eng.rev, eng.causes_revolution(p, m)):
            cost += 1000
        if cost < best_cost:
            best, best_cost = m, cost
    if can_pass and best_cost >= 100:  # pass on a forbidden finish, or on control cards while opponents hold many
        if best_cost >= 1000 or float(learned.fewest_opponent_cards(eng, p)) > prm["pass_control_above"]:
            return None
    return best


def weak_hand(hand, rv, prm) -> bool:
    """Strategist: the mean strength of the natural cards under the current order is below
    ``revolt_below`` (then a revolution helps)."""
    ranks = [c // 4 for c in hand if c < R.JOKER]
    if not ranks:
        return False
    total = 12 * len(ranks) - sum(ranks) if rv else sum(ranks)  # strength: the rank, reversed 12 - rank (§3.2)
    return float(total) < prm["revolt_below"] * float(len(ranks))


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
        return _random_option(eng, options)
    if pol == GREEDY:
        return options[0]
    hand = eng.hands[p]
    best, best_score = options[0], -float("inf")
    for c in options:
        score = (prm["draft_card_weight"] * DRAFT_PREF[c] + prm["draft_vp_weight"] * eng.pv[R.P_VP + c]
                 + prm["draft_fit_weight"] * draft_fit(hand, c))
        if score > best_score:
            best, best_score = c, score
    return best


# D1 hand fit: cards whose effect acts on one rank count 3 per card of that rank in hand
DRAFT_FIT_RANK = {3: R.R10, 9: R.R8, 10: R.RK, 11: R.RQ, 19: R.RJ, 22: R.R3}


def draft_fit(hand, c: int) -> int:
    """Hand fit of a precept for the strategist (D1): how many cards of the dealt hand the
    card's effect uses (the ranks it acts on, sets it makes, runs it needs)."""
    counts = rank_counts(hand)
    jokers = sum(1 for x in hand if x >= R.JOKER)
    if c in DRAFT_FIT_RANK:
        return 3 * counts[DRAFT_FIT_RANK[c]]
    if c == 2:
        return 2 * sum(1 for r in range(13) if counts[r] >= 2)
    if c == 4:
        return 3 * (jokers + counts[R.R2])
    if c == R.C07_THREE_REV:
        return 4 * sum(1 for r in range(13) if counts[r] >= 3)
    if c == 13:
        return 4 * sum(1 for r in range(13) if counts[r] + jokers >= 4)
    if c == R.C20_DESCENT:
        return 2 * (counts[R.RA] + counts[R.R2] + counts[R.R3])
    if c == R.C21_STAIRS:
        return 4 * sum(1 for s in range(4) for r in range(11)
                       if all(4 * (r + i) + s in hand for i in range(3)))
    if c == R.C23_WISDOM:
        return 4 if counts[R.R3] + jokers >= 3 else 0
    return 0


def decide_give(eng, p, options, pol, prm):
    """D2: the tied strongest cards as ``decide_first``; under card 08 (any card: the whole hand)
    as ``decide_weakest_card``."""
    decide = decide_weakest_card if eng.applies(R.C08_METAMORPHOSIS, p) else decide_first
    return decide(eng, p, options, pol, prm)


def decide_weakest_card(eng, p, options, pol, prm):
    """A card of p's hand (``options``, ascending) to give away: D3 ``king_give``, D4 ``collude``
    (card 12 law: to the partner), D5 ``collusion_return`` (from the new hand), D2 under card 08:
    random uniform; greedy its weakest card, strategist its weakest unpaired card."""
    if pol == RANDOM:
        return _random_option(eng, options)
    return min(options, key=weakest_key if pol == GREEDY else unpaired_key(options))


def decide_first(eng, p, options, pol, prm):
    """D5 ``collusion_give``, the target's strongest card among ties (the giver chooses, DEC-38),
    and D2 without card 08: random uniform, else the first."""
    return _random_option(eng, options) if pol == RANDOM else options[0]


def decide_trim(eng, p, options, pol, prm):
    most, hand = options.most, eng.hands[p]
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
    return _random_option(eng, options) if pol == RANDOM else p


def decide_revolt(eng, p, options, pol, prm):
    if pol == RANDOM:
        return options[_random_index(eng, 2)]
    if pol == GREEDY:
        return True
    return weak_hand(eng.hands[p], eng.reversed, prm)


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
    most, cards = options.most, options.cards
    if pol == RANDOM:
        return _random_cards(eng, cards, eng.rng.randbelow(most + 1))
    rv = eng.reversed
    margin = 1 if pol == GREEDY else prm["pullback_margin"]
    bar = strength(R.RK, rv) + margin
    good = sorted((c for c in cards if card_strength(c, rv) >= bar), key=lambda c: (-card_strength(c, rv), c))
    return good[:most]


def decide_ten_discard(eng, p, options, pol, prm):
    """D12 (card 03): random as a trim; greedy sheds its weakest cards, strategist its weakest
    unpaired ones, never the last card unless the discard is mandatory."""
    most, hand = options.most, eng.hands[p]
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


def decide_recycle(eng, p, options, pol, prm):
    """D14 (card 01): random uniform over [no, each discard card]; greedy (hand <= 3) and
    strategist (hand <= ``recycle_hand``) take the strongest card under the current order
    (a joker first; lowest id among equals), else decline."""
    if pol == RANDOM:
        return _random_option(eng, options)
    bar = GREEDY_RECYCLE_HAND if pol == GREEDY else prm["recycle_hand"]
    if float(len(eng.hands[p])) > bar:
        return None
    rv = eng.reversed
    return max(options[1:], key=lambda c: (card_strength(c, rv), -c))


def decide_yes(eng, p, options, pol, prm):
    """D16 dobon (card 25): random uniform, greedy and strategist always."""
    return options[_random_index(eng, 2)] if pol == RANDOM else True


def decide_loophole(eng, p, options, pol, prm):
    """D15 loophole (card 24): random uniform; greedy and strategist whenever the discard pile
    holds a card that is not a forbidden-finish card for them (from a pile of 2s and jokers
    the draw can only give back another card they may not finish on)."""
    if pol == RANDOM:
        return options[_random_index(eng, 2)]
    return any(not eng.forbidden_finish_card(p, c) for c in eng.discard)


def decide_collusion(eng, p, options, pol, prm):
    """D5 (card 12 precept): the target ([None] = decline, then the seats clockwise): random
    uniform; greedy the first seat; strategist the player holding the most cards (first of ties)."""
    if pol == RANDOM:
        return _random_option(eng, options)
    if pol == GREEDY:
        return options[1]
    seats = options[1:]
    return max(seats, key=lambda q: (len(eng.hands[q]), -seats.index(q)))


DECIDERS = {
    "collude": decide_weakest_card,
    "collusion": decide_collusion,
    "collusion_give": decide_first,
    "collusion_return": decide_weakest_card,
    "recycle": decide_recycle,
    "loophole": decide_loophole,
    "dobon": decide_yes,
    "pull_back": decide_pull_back,
    "ten_discard": decide_ten_discard,
    "play": decide_play,
    "draft": decide_draft,
    "give": decide_give,
    "king_give": decide_weakest_card,
    "trim": decide_trim,
    "start": decide_start,
    "revolt": decide_revolt,
    "flux": decide_flux,
}
