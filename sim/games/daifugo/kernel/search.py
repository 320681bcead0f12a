"""Daifugō's part of the search players (``sim.kit.search``): what a seat cannot know, re-dealt.

A driven game goes on from the snapshot of its current unit (a pass of the turn loop,
``kernel/step.py``), so a world is made there: the hidden cards of the snapshot (the opponents'
hands, the cards set aside at the deal and the cards removed face down, §2.4, DEC-1, DEC-16)
are dealt again from the cards the seat cannot place, the undrawn rule cards are shuffled, the
unit is replayed with the options already applied in it, and the world is kept only if the
seat then sees what it sees in the game (``same_view``: the pending decision and its options,
its own hand, every hand's size, the field, the discard pile, the laws, precepts and rule-card
reveals, every public counter). The cards an opponent put face up on the field or the
discard pile in the unit so far stay in that opponent's hand at the snapshot.

What the re-deal forgets (so the seat knows less, never more): the cards it gave or received
in the round's exchange and collusion swaps, the hand an opponent revealed for card 24, and
the second joker's way into the king's hand (card 05). The honest search does not weigh worlds
by how likely they make the opponents' past plays (the weighted seat, below, does).

The all-seeing seat (``bots.SEEING``, ``sim.kit.search.MODE_SEEING``) searches the true game instead
(``reveal``): every hand, the set-aside and the removed cards as they are; only the chance still
to come is drawn again from the search stream (the order of the undrawn rule cards, the
generator of later deals), so it sees the hidden cards but not the future.

The weighted seat (``bots.WEIGHTED``, ``sim.kit.search.MODE_WEIGHTED``) deals its worlds as the
search does and weighs each by ``likelihood``: how likely the world makes the opponents'
decisions in the current trick under the strategist's rule (the rollout bot's), softened by
``MISPLAY_EPSILON``. The strategist never passes while it holds a cheap play (no joker, a cost
below the one from which it may keep its control cards, ``CONTROL_COST``), and greedy never
passes while it can play; and both answer with the weakest set that beats the top play. So
each opponent that passed in the trick though the world gives it a cheap legal play against the
top play counts ``MISPLAY_EPSILON``, and so does the top play's owner if the world gives it a
weaker set of as many natural cards that would have beaten the play it answered (when it led:
any weaker natural card). The hands are read at the pending decision (the passes of earlier
tops in the trick are judged against the current one), and a top play under a lock or one that
turned the order is not judged. Earlier tricks are not read: the state does not keep them.
Within the unit (the seat's own turn) the replay already keeps only worlds where the
opponents' bots decide as observed.

The search answers the decisions of the turns (plays, revolts, pull-backs, ten discards,
flux, the recycle, loophole and dobon windows). The round's setup decisions (draft, gifts,
collusion, trim, start player) are made before any turn, where a re-deal would have to undo
the deal itself; they, and decisions with more options than the budget (a large pull-back or
ten discard), are the rollout bot's (``BOT_ANSWER``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import fn, ir_inline, ix, same_slots
from sim.kit.rng_compiled import mixed_counter, shuffle_at
from sim.kit.search import BOT_ANSWER, NOT_FORCED, SearchDriver, SearchParts, decide
from sim.kit.step import GO_RESUME, PLAY_ON, STOP_AT_NEXT

from .. import rules as R
from ..reference.bots import BOTS, SEARCH, SEEING, WEIGHTED
from .driver import GW, RW, SW, run_vector
from .movegen import legal_plays
from .state import (A0, APPLIED, BOT0, BP_BUDGET, BP_HORIZON, BP_OBJECTIVE, BP_ROLLOUT, BP_WORLDS, DECISIONS,
                    DECK0, DECK_LEN, DECK_PTR, DISC, DRIVEN, FIELD, H0, IN_ROUND, JOKER_BITS, K_PLAY, K_PULL_BACK,
                    K_TEN_DISCARD, K_TRIM, MC, MH, MJK, MK, ML, MMASK, NBOT, NL, NONE, NP, NTOP, O_GROW, O_RROWS, O_SROWS,
                    PASSED, PC, PCARDS, PH, PHI, PK, PKIND, PL, PLO, PN, POL0, POPT, PPASS, PSEAT, PSTEP, REMOVED,
                    RNG, ROLLOUT_END, ROUND_ROLLOUT, SCRIPT, SEARCH_FIELDS, SETK, SL, SNAP, STATE_SIZE, T5DONE, TC, TK,
                    TL, TM, TO, TOP0, UNDEALT, UNIT, WIN0, applies, bit, bot_param, mv, mvalue,
                    nth_card, popcount, reversed_, revolution_size, strength, taboo)
from .step import MAX_OPTIONS, STEPS, new_state, step_go, step_legal

OBJ_WIN, OBJ_PLACEMENT = 0, 1
WORLD_SALT = np.uint64(0x77D1DE5EED000002)
# likelihood: the chance that an opponent passes though it holds a cheap play, or plays a set though it
# holds a weaker one that would do (each such decision the world implies counts once)
MISPLAY_EPSILON = 0.25
# kernel/bots.strategist_play: a play's cost is 16 per strength step, 15 less its cards, 8 more for a broken
# set, 60 more if it leaves only control cards; from CONTROL_COST on (a 9 or stronger as a single) it may
# pass instead, below it never does; leading with at most ``boss_hand`` cards it may lead a strong play
CONTROL_COST = 100
STEP_COST, BREAK_COST, STRANDED_COST = 16, 8, 60
BOSS_HAND = int(BOTS["strategist"].params["boss_hand"])


def _public_slots() -> np.ndarray:
    """1 for each engine-state slot every seat sees; the hidden ones (hands, the set-aside and
    removed cards, the generator, the rule deck's order) are compared apart in ``same_view``."""
    public = np.ones(STATE_SIZE, dtype=np.int64)
    public[H0:H0 + R.MAX_PLAYERS] = 0
    public[DECK0:DECK0 + R.N_RULE_CARDS] = 0
    public[[UNDEALT, REMOVED, RNG]] = 0
    return public


PUBLIC = _public_slots()


@fn
def snap(x):
    """The snapshot slot of engine-state slot ``x``."""
    return ix(SNAP + x)


@ir_inline
def determinize(w, b, seat, key):
    """``w`` (a copy of ``b``) with the snapshot's hidden cards dealt again from the stream
    ``key`` and replayed to the pending decision; False unless the seat then sees the same."""
    n = b[NP]
    public_then = w[snap(FIELD)] | w[snap(DISC)]
    shown = (b[FIELD] | b[DISC]) & ~public_then  # put face up in the unit so far
    pool = ((np.int64(1) << np.int64(R.BASE_DECK + w[snap(T5DONE)])) - 1) & ~w[snap(H0 + seat)] & ~public_then
    kept = np.zeros(R.MAX_PLAYERS, dtype=np.int64)
    free = np.zeros(R.MAX_PLAYERS, dtype=np.int64)
    need = popcount(w[snap(UNDEALT)]) + popcount(w[snap(REMOVED)])
    for o in range(n):
        if o != seat:
            kept[o] = w[snap(H0 + o)] & shown
            free[o] = popcount(w[snap(H0 + o)]) - popcount(kept[o])
            pool &= ~kept[o]
            need += free[o]
    m = popcount(pool)
    if m != need:
        return False
    cards = np.empty(max(m, 1), dtype=np.int64)
    for j in range(m):
        cards[j] = nth_card(pool, j)
    r = np.empty(1, dtype=np.uint64)
    r[0] = key
    shuffle_at(r, 0, cards, 0, m)
    j = 0
    for o in range(n):
        if o != seat:
            hand = kept[o]
            for _ in range(free[o]):
                hand |= bit(cards[j])
                j += 1
            w[snap(H0 + o)] = hand
    for zone in (UNDEALT, REMOVED):
        mask = np.int64(0)
        for _ in range(popcount(w[snap(zone)])):
            mask |= bit(cards[j])
            j += 1
        w[snap(zone)] = mask
    drawn = w[snap(DECK_PTR)]
    shuffle_at(r, 0, w, snap(DECK0 + drawn), w[snap(DECK_LEN)] - drawn)
    w[snap(RNG)] = mixed_counter(np.uint64(key) ^ WORLD_SALT)
    step_go(w, GO_RESUME, STOP_AT_NEXT, np.uint64(0), w)  # ``run`` is not read
    return same_view(w, b, seat)


@ir_inline
def reveal(w, b, seat, key):
    """``w`` (a copy of ``b``) as the true game at the unit's start, only the chance still to
    come drawn again from the stream ``key`` (the all-seeing seat, bots.SEEING): every hand, the
    set-aside and the removed cards stay as they are, the undrawn rule cards are shuffled, the
    world's generator goes on from the stream. Replayed to the pending decision; False unless
    every hand and hidden zone is then as in ``b`` and the seat sees the same."""
    r = np.empty(1, dtype=np.uint64)
    r[0] = key
    drawn = w[snap(DECK_PTR)]
    shuffle_at(r, 0, w, snap(DECK0 + drawn), w[snap(DECK_LEN)] - drawn)
    w[snap(RNG)] = mixed_counter(np.uint64(key) ^ WORLD_SALT)
    step_go(w, GO_RESUME, STOP_AT_NEXT, np.uint64(0), w)  # ``run`` is not read
    return same_cards(w, b) and same_view(w, b, seat)


@fn
def same_cards(w, b):
    """Does every seat hold in ``w`` the cards it holds in ``b``, and are the set-aside and the
    removed cards the same?"""
    return same_slots(w, b, H0, b[NP]) and w[UNDEALT] == b[UNDEALT] and w[REMOVED] == b[REMOVED]


@fn
def same_view(w, b, seat):
    """Does ``seat`` see the same in ``w`` as in ``b``: the pending decision and its options, its
    own hand, every hand's and hidden zone's size, the drawn rule cards, every public slot?"""
    for x in (PSEAT, PKIND, PN, PPASS, PCARDS, PLO, PHI, PSTEP):
        if w[x] != b[x]:
            return False
    kind = b[PKIND]
    if kind != K_PLAY and kind != K_TRIM and kind != K_PULL_BACK and kind != K_TEN_DISCARD:  # a listed decision
        if not same_slots(w, b, POPT, b[PN]):
            return False
    for i in range(STATE_SIZE):
        if PUBLIC[i] and w[ix(i)] != b[ix(i)]:
            return False
    if w[ix(H0 + seat)] != b[ix(H0 + seat)]:
        return False
    for o in range(b[NP]):
        if popcount(w[ix(H0 + o)]) != popcount(b[ix(H0 + o)]):
            return False
    if popcount(w[UNDEALT]) != popcount(b[UNDEALT]) or popcount(w[REMOVED]) != popcount(b[REMOVED]):
        return False
    return same_slots(w, b, DECK0, b[DECK_PTR])


@njit(cache=True, error_model="numpy")
def resume_copy(dst, src):
    """Copy into ``dst`` (a copy of the same game) what play goes on from: the step fields, the
    options applied in the unit and the unit's snapshot (``resume`` rebuilds the engine state)."""
    for i in range(DRIVEN, SCRIPT + src[APPLIED]):
        dst[ix(i)] = src[ix(i)]
    for i in range(STATE_SIZE):
        dst[ix(SNAP + i)] = src[ix(SNAP + i)]


@ir_inline
def rollout(w, option):
    """Answer the pending decision with ``option`` and let the bots, the search seat's rollout
    bot included, play on: to the round's scoring (objective placement) or the game's end (win),
    or with the seat's ``horizon`` that many passes of the turn loop; ``w`` needs only what
    ``resume_copy`` copies. Returns the decisions played from the unit's start."""
    seat = w[PSEAT]
    horizon = np.int64(bot_param(w, seat, BP_HORIZON))
    w[ROUND_ROLLOUT] = 1 if np.int64(bot_param(w, seat, BP_OBJECTIVE)) == OBJ_PLACEMENT else 0
    w[ROLLOUT_END] = w[snap(UNIT)] + 1 + horizon if horizon > 0 else 0
    w[ix(SCRIPT + w[APPLIED])] = option
    w[APPLIED] += 1
    step_go(w, GO_RESUME, PLAY_ON, np.uint64(0), w)
    return w[DECISIONS] - w[snap(DECISIONS)]


@fn
def round_place(w, seat):
    """The seat's place in the round (0 first): as ranked, or while it still holds cards, after
    the placed seats and by hand size among the others (ties half)."""
    n = w[NP]
    for i in range(w[NTOP]):
        if w[ix(TOP0 + i)] == seat:
            return float(i)
    for i in range(w[NBOT]):
        if w[ix(BOT0 + i)] == seat:
            return float(n - w[NBOT] + i)
    place = float(w[NTOP])
    mine = popcount(w[ix(H0 + seat)])
    for q in range(n):
        if q != seat and w[ix(A0 + q)]:
            theirs = popcount(w[ix(H0 + q)])
            place += 1.0 if theirs < mine else (0.5 if theirs == mine else 0.0)
    return place


@njit(cache=True, error_model="numpy")
def score(w, seat, objective):
    """Win: 1 for a (shared) win of the game; placement: the share of the others placed below
    the seat in the round (``round_place``). A rollout stopped by its horizon scores the place."""
    n = w[NP]
    if objective == OBJ_WIN and w[PSEAT] < 0 and w[IN_ROUND] == 0 and w[ROLLOUT_END] == 0:
        return float(w[ix(WIN0 + seat)])
    if w[IN_ROUND] == 0 and w[NTOP] == n:
        for i in range(n):
            if w[ix(TOP0 + i)] == seat:
                return (n - 1 - i) / (n - 1)
    return (n - 1 - round_place(w, seat)) / (n - 1)


@fn
def control_cards(w, o):
    """The cards of seat ``o`` the strategist keeps for control: its jokers, the strongest rank,
    the 8s under card 09 and the Js under card 19 (none under card 04)."""
    if taboo(w, o):
        return np.int64(0)
    mask = JOKER_BITS | (np.int64(15) << np.int64(4 * (R.R3 if reversed_(w) else R.R2)))
    if applies(w, R.C09_EIGHT_CUT, o):
        mask |= np.int64(15) << np.int64(4 * R.R8)
    if applies(w, R.C19_JBACK, o):
        mask |= np.int64(15) << np.int64(4 * R.RJ)
    return w[ix(H0 + o)] & mask


@fn
def cheap(w, m, rv, hand, control):
    """Is move ``m`` of ``w``'s move table one the strategist holding ``hand`` makes rather
    than pass, whatever the others hold: no joker, and its cost (a broken set included, and
    leaving only ``control`` cards) below ``CONTROL_COST``?"""
    cost = mvalue(mv(w, m, MK), mv(w, m, ML), mv(w, m, MH), rv) * STEP_COST + 15 - mv(w, m, MC) + BREAK_COST
    rest = hand & ~mv(w, m, MMASK)
    if rest != 0 and rest & ~control == 0:
        cost += STRANDED_COST
    return mv(w, m, MJK) == 0 and cost < CONTROL_COST


@fn
def unlikely_pass(w, o):
    """Did seat ``o``, which passed in the current trick, hold in world ``w`` a cheap play
    (``cheap``) against the top play? Its legal plays go to ``w``'s move table (scratch: play
    goes on from the snapshot)."""
    rv = reversed_(w)
    hand = w[ix(H0 + o)]
    control = control_cards(w, o)
    for m in range(legal_plays(w, o)):
        if cheap(w, m, rv, hand, control):
            return True
    return False


@fn
def unlikely_top(w, o):
    """Did seat ``o``, owner of the top play (a set of natural cards), hold in world ``w`` a
    weaker set that would have done: as many natural cards of a rank between the play it answered
    and its own (one card of any weaker rank when it led)? Greedy and the strategist play the
    weakest such set. Not judged under a suit or number lock, when the play turned the order (a
    revolution, a J-back), or for a lead from ``BOSS_HAND`` cards or fewer (the strategist's
    strong lead)."""
    if w[TK] != SETK or w[TM] & JOKER_BITS or w[SL] or w[NL]:
        return False
    count, rank = w[TC], w[TL]
    if revolution_size(w, o, SETK, count) or (rank == R.RJ and applies(w, R.C19_JBACK, o)):
        return False
    hand = w[ix(H0 + o)]
    led = w[PK] == NONE
    if led and popcount(hand) + count <= BOSS_HAND:
        return False
    if not led and (w[PK] != SETK or w[PC] != count):
        return False
    rv = reversed_(w)
    low = -1 if led else mvalue(w[PK], w[PL], w[PH], rv)
    need = 1 if led else count
    for r in range(13):
        v = strength(r, rv)
        if low < v < strength(rank, rv) and popcount((hand >> (4 * r)) & 15) >= need:
            return True
    return False


@njit(cache=True, error_model="numpy")
def likelihood(w, b, seat):
    """How likely world ``w`` (replayed to the pending decision) makes the opponents' decisions
    in the current trick under the strategist's rule: ``MISPLAY_EPSILON`` to the power of the
    opponents that passed in it holding a cheap play (``unlikely_pass``), and one more if the
    top play's owner held a weaker set that would have done (``unlikely_top``). Reads only the
    world: its public state is the seat's (``same_view``)."""
    unlikely = 0
    if w[TK] != NONE:
        for o in range(w[NP]):
            if o != seat and w[ix(A0 + o)] and (w[PASSED] >> o) & 1 and unlikely_pass(w, o):
                unlikely += 1
        if w[TO] >= 0 and w[TO] != seat and unlikely_top(w, w[TO]):
            unlikely += 1
    return MISPLAY_EPSILON ** unlikely


@njit(cache=True, error_model="numpy")
def unsearched(b, opts):
    """The option of the pending decision when the search does not weigh it: its only option,
    or ``BOT_ANSWER`` for a setup decision or one with more options than the budget; else
    ``NOT_FORCED`` (the pending decision's options are in ``opts``)."""
    n = step_legal(b, opts)
    if n <= 1:
        return opts[0]
    if b[SNAP + IN_ROUND] == 0 or n > np.int64(bot_param(b, b[PSEAT], BP_BUDGET)):
        return BOT_ANSWER
    return NOT_FORCED


def collect(b, k, raw):
    """Game ``k``'s rows into ``run_kernel``'s raw rows ``raw`` (games, rounds, seats)."""
    g, r, s = raw
    n, rounds = int(b[NP]), r.shape[1]
    g[k] = b[O_GROW:O_GROW + GW]
    r[k] = b[O_RROWS:O_RROWS + rounds * RW].reshape(rounds, RW)
    s[k] = b[O_SROWS:O_SROWS + n * SW].reshape(n, SW)


PARTS = SearchParts(step_legal, resume_copy, determinize, reveal, likelihood, rollout, score)


@njit(cache=True)
def search_decide(b, seat, key, plan, opts, stats):
    """``sim.kit.search.decide`` with daifugo's parts, honest, all-seeing or weighted by ``plan.mode``."""
    return decide(b, seat, key, plan, opts, PARTS, stats)


DRIVER = SearchDriver(
    steps=STEPS, search_decide=search_decide, fields=SEARCH_FIELDS, new_state=new_state, run_vector=run_vector,
    pending_seat=PSEAT, max_options=MAX_OPTIONS, bot_param=bot_param,
    param_codes=(BP_BUDGET, BP_WORLDS, BP_ROLLOUT, BP_OBJECTIVE), decision_number=lambda b, seat: b[DECISIONS],
    collect=collect, unsearched=unsearched, policies=POL0, players=NP, search_policies=(SEARCH, SEEING, WEIGHTED))
search_option, advance, start_search_game, run_search_games, search_batch, world_mode = DRIVER.functions()
