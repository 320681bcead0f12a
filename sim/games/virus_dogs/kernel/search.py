"""Virus Dogs' part of the search players (``sim.kit.search``): what a seat cannot know, re-dealt.

A driven game goes on from the snapshot of its current unit's start (a turn, or a hard-quarantine
step; ``kernel.resume``), so a world is made there: the cards the seat cannot place (the
opponents' hands and the deck's order, VD-22) are dealt again, the unit is replayed with the
options the driver applied in it, and the world is kept only if the seat then sees what it sees
in the game (``same_view``: the pending decision, its own hand and record, every public count,
zone and event counter, the cards it is peeking at or taking, and the discard through the
hidden cards' composition). What the seat knows is kept where it is:

- the top cards of the unit's starting deck that it saw leave or looked at in the unit (its own
  draws and peeks, face-up cough draws, up to the unit's first shuffle; in another player's
  turn only those before that player's private draw), and the viruses publicly known on top
  (VD-7.7);
- the hand of an opponent shown in the unit (control, quarantine, elimination) with no private
  change before, and otherwise the cards an opponent played or declared in the unit (public)
  and the cards it passed the seat in the unit's exchanges;
- the cards it saw after a shuffle in the unit (its own turn: every card it drew or peeked at;
  another's: the face-up draws): the world's shuffle is followed by putting them where the seat
  saw them, each swapped with a random card of its type below (``kernel.state.shuffled``);
- an opponent never holds more hidden viruses than the cards it took unseen since its hand was
  last shown (``suspicion``): every hidden virus came so.

The hidden cards are counted by type, sorted and shuffled with the search stream, so a world
depends on the seat's observations and the stream alone. Forgotten (a world may contradict
them): hands shown and cards seen in peeks in earlier units, and the cards the seat passed in
earlier units' exchanges. Not placed but checked (a world is kept only if its replay shows the
same): what an opponent drew face up after the owner of the turn drew privately, and cards
seen after ``MAX_SEEN`` others following a shuffle. The honest search does not weigh worlds by
how likely they make the opponents' past decisions (the weighted seat, below, does), and a card
an opponent played in the unit is placed in its hand at the unit's start even if it drew it in
the unit.

The all-seeing seat (``bots.SEEING``, ``sim.kit.search.MODE_SEEING``) searches the true game instead
(``reveal``): every hand as it is, the deck's cards that left it or were looked at in the unit
where they were; only the chance still to come is drawn again from the search stream (the order
of the rest of the deck, the generator of later shuffles), so it sees the hidden cards but not
the future.

The weighted seat (``bots.WEIGHTED``, ``sim.kit.search.MODE_WEIGHTED``) deals its worlds as the
search does and weighs each by ``likelihood``: how likely the world makes the opponents' earlier
decisions not to reveal the viruses it gives them, under the rollout bot's rule softened by
``HIDE_EPSILON``. A cautious player hides a virus it drew only when it must (VD-6: with no
antiseptic, and with no doctor or ambulance while a declaration is safe); a virus a world puts
in an opponent's hand beside a card that would have made that player cure or declare it counts
``HIDE_EPSILON`` (the hand read at the pending decision: cards taken after the virus are not
told apart). Within the unit the replay already keeps only worlds where the opponents' bots
decide as observed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kit.kernel_util import fn, ir_inline, ix, param_int, same_slots
from sim.kit.rng_compiled import mixed_counter, shuffle_at
from sim.kit.search import SearchDriver, SearchParts, decide
from sim.kit.step import GO_RESUME, PLAY_ON, STOP_AT_NEXT

from .. import tables as tb
from ..reference.bots import SEARCH, SEEING, WEIGHTED
from . import STEPS, new_state, run_vector, step_go, step_legal
from .state import (
    AMB, ANT, B_BUDGET, B_HORIZON, B_OBJECTIVE, B_ROLLOUT, B_WORLDS, DOC, FRESH_STOP, F_HS, F_LIVE, F_O, F_SUS,
    K_GIVE, K_MARKET, K_MASK, K_REFUSE_EXC, MAX_CARDS, MAX_PENDING, MAX_SCRIPT, MAX_SEATS, NB, NF, NS, NT, O_BP,
    O_DECK, O_DECKSUM, O_DRAWSUM, O_GIVEN, O_GM, O_H, O_LIMBO, O_P, O_PEEK, O_PL, O_POPT, O_SCRIPT, O_SM, O_SPOL,
    O_SSEAT, O_TURNSUM,
    O_USNAP, O_U_GIFT, O_U_SEEN, O_W_CARDS, P_PREFIX, P_THR, SEARCH_FIELDS, STEP_STOP, S_BAD, S_CARDS, S_CUR,
    S_DOCS, S_DSIZE, S_FIRST, S_HQ_D, S_HQ_STEPS, S_INHQ, S_KTOP, S_LIMBO, S_N, S_NLIVE, S_PEND, S_PKIND, S_PN,
    S_PSEAT, S_REND, S_RES, S_ROUNDS, S_SCRIPTED, S_STOP, S_TURN, S_UNITS, S_U_D0, S_U_GIFTS, S_U_INTACT,
    S_U_PRIVATE, S_U_PUBLIC, S_U_SEEN, S_U_SHOWN, S_VDECK, S_W_FIX, TP, V,
)

OBJ_WIN, OBJ_PLACEMENT = 0, 1
WORLD_SALT = np.uint64(0x77D1DE5EED000002)
HIDE_EPSILON = 0.5  # likelihood: the chance that an opponent hides a virus its rollout rule would cure or declare
U_RNG = O_USNAP + FRESH_STOP  # the unit snapshot's generator counter, then its deck
U_DECK = U_RNG + 1
# public scalars (VD-22: deck and reserve sizes, set-aside and known-top viruses, the turn, ...)
PUBLIC_SCALARS = np.array((S_DSIZE, S_RES, S_PEND, S_KTOP, S_NLIVE, S_CUR, S_TURN, S_DOCS, S_CARDS, S_INHQ,
                           S_FIRST, S_ROUNDS, S_LIMBO, S_HQ_D, S_HQ_STEPS, S_UNITS), dtype=np.int64)
# games columns nobody sees (the deck's virus density, hidden viruses, decisions asked privately, game feel)
_PRIVATE_GAME = ("peak_density_bp", "decisions", "hq_hidden_start", "lead_changes", "leader_from_turn",
                 "winner_max_behind")
PUBLIC_GAME = np.array([tb.GI[c] for c in tb.GAME_COLS if c not in _PRIVATE_GAME], dtype=np.int64)
# seats columns only their seat sees (its private draws, hides and plants, what its peeks showed)
_PRIVATE_SEAT = ("viruses_drawn", "viruses_hidden", "viruses_planted", "mask_peek_virus", "mask_virus_avoided",
                 "market_viruses_seen", "market_forced_virus", "hidden_end")
_NEVER_SEEN = ("max_behind", "first_card")  # game feel, measured on hidden viruses; a record for the card power
PUBLIC_SEAT = np.array([tb.SI[c] for c in tb.SEAT_COLS if c not in _PRIVATE_SEAT + _NEVER_SEEN], dtype=np.int64)
OWN_SEAT = np.array([tb.SI[c] for c in tb.SEAT_COLS if c not in _NEVER_SEEN], dtype=np.int64)


@fn
def snap(x):
    """The unit snapshot's slot of engine-state slot ``x`` (x < FRESH_STOP)."""
    return ix(O_USNAP + x)


@fn
def bot_param(b, seat, k):
    """Seat ``seat``'s whole-number bot parameter ``k`` (the search bot's B_*)."""
    return param_int(b[ix(O_BP + seat * NB + k)])


@fn
def seen_on_top(b, seat):
    """Cards of the unit's starting deck, from the top, that ``seat`` saw in the unit (module
    docstring) or that are publicly known viruses."""
    seen = b[S_U_D0] - b[S_U_INTACT]
    if seat != b[snap(S_CUR)] and b[S_U_PRIVATE]:
        seen = b[S_U_PUBLIC]
    return min(b[snap(S_DSIZE)], max(seen, b[snap(S_KTOP)]))


@fn
def played_in_unit(b, o, c):
    """Cards of type ``c`` seat ``o`` played (TP..EXC) or declared (V, VD-6.3) in the unit so far."""
    if c == V:
        col = tb.S_VOLUNTARY
    elif c >= TP:
        col = tb.S_PLAYED0 + c - TP
    else:
        return 0
    return b[ix(O_SM + o * NS + col)] - b[snap(O_SM + o * NS + col)]


@ir_inline
def determinize(w, b, seat, key):
    """``w`` (a copy of ``b``) with the unit snapshot's hidden cards dealt again from the stream
    ``key`` and replayed to the pending decision; False unless the seat then sees the same."""
    n = b[S_N]
    d0 = w[snap(S_DSIZE)]
    free_deck = d0 - seen_on_top(b, seat)
    count = np.zeros(NT, dtype=np.int64)
    for i in range(free_deck):
        count[w[ix(U_DECK + i)]] += 1
    redealt = np.zeros(MAX_SEATS, dtype=np.bool_)
    for o in range(n):
        redealt[o] = o != seat and w[snap(O_PL + o * NF + F_LIVE)] == 1 and (b[S_U_SHOWN] >> o) & 1 == 0
        if redealt[o]:
            for c in range(NT):
                count[c] += w[snap(O_H + o * NT + c)]
    kept = np.zeros((MAX_SEATS, NT), dtype=np.int64)
    for o in range(n):
        for c in range(NT):
            kept[o, c] = played_in_unit(b, o, c)
    for i in range(b[S_U_GIFTS]):  # the cards the seat got in the unit's exchanges, from their givers
        if b[ix(O_U_GIFT + 3 * i + 1)] == seat:
            kept[b[ix(O_U_GIFT + 3 * i)], b[ix(O_U_GIFT + 3 * i + 2)]] += 1
    free = np.zeros(MAX_SEATS, dtype=np.int64)
    for o in range(n):
        if redealt[o]:
            free[o] = w[snap(O_PL + o * NF + F_HS)]
            for c in range(NT):
                k = min(kept[o, c], free[o], count[c])
                if c == V:
                    k = min(k, w[snap(O_PL + o * NF + F_SUS)])
                kept[o, c] = max(0, k)
                free[o] -= kept[o, c]
                count[c] -= kept[o, c]
    cards = np.empty(MAX_CARDS, dtype=np.int64)
    m = 0
    for c in range(NT):
        for _ in range(count[c]):
            cards[m] = c
            m += 1
    r = np.empty(1, dtype=np.uint64)
    r[0] = key
    shuffle_at(r, 0, cards, 0, m)
    j = 0
    for o in range(n):
        if not redealt[o]:
            continue
        cap = w[snap(O_PL + o * NF + F_SUS)]  # hidden viruses <= cards taken unseen since last shown
        viruses = kept[o, V]
        for c in range(NT):
            w[snap(O_H + o * NT + c)] = kept[o, c]
        for _ in range(free[o]):
            at = j
            while at < m and cards[at] == V and viruses >= cap:
                at += 1
            if at == m:
                return False
            cards[j], cards[at] = cards[at], cards[j]
            if cards[j] == V:
                viruses += 1
            w[snap(O_H + o * NT + cards[j])] += 1
            j += 1
    if m - j != free_deck:
        return False
    viruses = 0
    for i in range(d0):
        if i < free_deck:
            w[ix(U_DECK + i)] = cards[j]
            j += 1
        if w[ix(U_DECK + i)] == V:
            viruses += 1
    w[snap(S_VDECK)] = viruses
    see_after_shuffles(w, b, seat)
    w[U_RNG] = mixed_counter(np.uint64(key) ^ WORLD_SALT)
    step_go(w, GO_RESUME, STOP_AT_NEXT, np.uint64(0), w)  # ``run`` is not read
    return same_view(w, b, seat)


@ir_inline
def reveal(w, b, seat, key):
    """``w`` (a copy of ``b``) as the true game at the unit's start, only the chance still to
    come drawn again from the stream ``key`` (the all-seeing seat, bots.SEEING): every hand stays
    as it is; the cards of the unit's starting deck below those that left it or were looked at
    in the unit (and the viruses publicly known on top) are shuffled; every card drawn or looked
    at after the unit's shuffles is put where it was; the world's generator goes on from the
    stream. Replayed to the pending decision; False unless every hand is then as in ``b`` and
    the seat sees the same (``same_view``)."""
    d0 = w[snap(S_DSIZE)]
    free_deck = d0 - min(d0, max(d0 - b[S_U_INTACT], w[snap(S_KTOP)]))
    r = np.empty(1, dtype=np.uint64)
    r[0] = key
    shuffle_at(r, 0, w, U_DECK, free_deck)
    for i in range(b[S_U_SEEN]):
        for f in range(3):
            w[ix(O_W_CARDS + 3 * i + f)] = b[ix(O_U_SEEN + 4 * i + f)]
    w[S_W_FIX] = b[S_U_SEEN]
    w[U_RNG] = mixed_counter(np.uint64(key) ^ WORLD_SALT)
    step_go(w, GO_RESUME, STOP_AT_NEXT, np.uint64(0), w)  # ``run`` is not read
    return same_hands(w, b) and same_view(w, b, seat)


@fn
def same_hands(w, b):
    """Does every seat hold in ``w`` the cards it holds in ``b``?"""
    return same_slots(w, b, O_H, b[S_N] * NT)


@fn
def see_after_shuffles(w, b, seat):
    """The cards ``seat`` saw after the unit's shuffles in ``b`` (its own turn: all it drew or
    peeked at; another's: those drawn face up), to be put in place when ``w`` shuffles."""
    own = seat == b[snap(S_CUR)]
    k = 0
    for i in range(b[S_U_SEEN]):
        if own or b[ix(O_U_SEEN + 4 * i + 3)]:
            for f in range(3):
                w[ix(O_W_CARDS + 3 * k + f)] = b[ix(O_U_SEEN + 4 * i + f)]
            k += 1
    w[S_W_FIX] = k


@fn
def same_view(w, b, seat):
    """Does ``seat`` see the same in ``w`` as in ``b`` (VD-22: the public state and record, its
    own hand and record, the cards it peeks at or takes, the discard)?"""
    if w[S_BAD] or w[S_PSEAT] != b[S_PSEAT] or w[S_PKIND] != b[S_PKIND] or w[S_PN] != b[S_PN]:
        return False
    if not same_slots(w, b, O_POPT, b[S_PN]):
        return False
    for x in PUBLIC_SCALARS:
        if w[x] != b[x]:
            return False
    for c in PUBLIC_GAME:
        if w[ix(O_GM + c)] != b[ix(O_GM + c)]:
            return False
    n = b[S_N]
    for s in range(n):
        for f in range(NF):
            if w[ix(O_PL + s * NF + f)] != b[ix(O_PL + s * NF + f)]:
                return False
        for c in OWN_SEAT if s == seat else PUBLIC_SEAT:
            if w[ix(O_SM + s * NS + c)] != b[ix(O_SM + s * NS + c)]:
                return False
    for c in range(NT):
        if w[ix(O_H + seat * NT + c)] != b[ix(O_H + seat * NT + c)]:
            return False
        if hidden_count(w, seat, c) != hidden_count(b, seat, c):
            return False
    if not same_slots(w, b, O_PEEK, peeked(b)):
        return False
    return b[S_CUR] != seat or same_slots(w, b, O_LIMBO, b[S_LIMBO])


@fn
def hidden_count(b, seat, c):
    """Cards of type ``c`` out of ``seat``'s sight: the other hands, the deck, another player's
    limbo, the other players' exchange cards selected so far. With every public zone and count
    equal, equal counts mean an equal discard."""
    k = 0
    for o in range(b[S_N]):
        if o != seat:
            k += b[ix(O_H + o * NT + c)]
    for i in range(b[S_DSIZE]):
        if b[ix(O_DECK + i)] == c:
            k += 1
    if b[S_CUR] != seat:
        for i in range(b[S_LIMBO]):
            if b[ix(O_LIMBO + i)] == c:
                k += 1
    if b[S_PKIND] == K_GIVE or b[S_PKIND] == K_REFUSE_EXC:  # an exchange under way: the cards given so far
        for o in range(b[S_N]):
            if o != seat and b[ix(O_GIVEN + o)] == c:
                k += 1
    return k


@fn
def peeked(b):
    """Cards the pending decision shows its seat (a mask or black-market take: the peeked ones)."""
    if b[S_PKIND] == K_MARKET:
        return b[S_PN]
    if b[S_PKIND] != K_MASK:
        return 0
    if b[O_P + P_PREFIX]:
        return b[S_PN] - 1
    m = 0
    while (1 << m) < b[S_PN]:
        m += 1
    return m


@njit(cache=True, error_model="numpy")
def resume_copy(dst, src):
    """Copy into ``dst`` (a copy of the same game) what play goes on from: the step scalars,
    the options applied in the unit and the used part of the unit snapshot."""
    for i in range(S_STOP, STEP_STOP):
        dst[i] = src[i]
    for i in range(src[S_SCRIPTED]):
        dst[ix(O_SCRIPT + i)] = src[ix(O_SCRIPT + i)]
        dst[ix(O_SSEAT + i)] = src[ix(O_SSEAT + i)]
    for i in range(3 * src[S_W_FIX]):
        dst[ix(O_W_CARDS + i)] = src[ix(O_W_CARDS + i)]
    for i in range(O_USNAP, U_DECK + src[snap(S_DSIZE)]):
        dst[ix(i)] = src[ix(i)]


@ir_inline
def rollout(w, option):
    """Answer the pending decision with ``option`` and let the bots, the search seat's rollout
    bot included, play to the end (or, with the seat's ``horizon``, that many turns from the
    unit's on, then end as at the turn cap); ``w`` needs only what ``resume_copy`` copies.
    Returns the decisions played from the unit's start."""
    seat = w[S_PSEAT]
    horizon = bot_param(w, seat, B_HORIZON)
    w[S_REND] = w[snap(S_TURN)] + horizon if horizon > 0 else 0
    k = w[S_SCRIPTED]
    w[ix(O_SCRIPT + k)] = option
    w[ix(O_SSEAT + k)] = seat
    w[S_SCRIPTED] = k + 1
    step_go(w, GO_RESUME, PLAY_ON, np.uint64(0), w)
    return w[O_GM + tb.G_DECISIONS] - w[snap(O_GM + tb.G_DECISIONS)]


@njit(cache=True, error_model="numpy")
def score(w, seat, objective):
    """``win``: 1 for a win (shared ones included, VD-20.10, VD-21.3), else 0. ``placement``: the
    share of opponents the seat does better than (``versus``)."""
    if objective == OBJ_WIN:
        return 1.0 if w[ix(O_SM + seat * NS + tb.S_WIN)] else 0.0
    n = w[S_N]
    total = 0.0
    for o in range(n):
        if o != seat:
            total += versus(w, seat, o)
    return total / (n - 1)


@njit(cache=True, error_model="numpy")
def must_hide(w, o):
    """Would a cautious seat ``o`` of ``w`` hide a virus it drew, holding what it holds (VD-6)?
    Not with an antiseptic, nor with a doctor or an ambulance while a declaration is safe."""
    h = O_H + o * NT
    if w[ix(h + ANT)] > 0:
        return False
    safe = w[ix(O_PL + o * NF + F_O)] + 1 < w[O_P + P_THR]
    return not (safe and (w[ix(h + DOC)] > 0 or w[ix(h + AMB)] > 0))


@njit(cache=True, error_model="numpy")
def likelihood(w, b, seat):
    """How likely world ``w`` (replayed to the pending decision) makes the opponents' keeping
    their viruses hidden: ``HIDE_EPSILON`` to the power of the viruses it puts in the hands of
    live opponents that would not have had to hide them (``must_hide``)."""
    unlikely = 0
    for o in range(b[S_N]):
        if o != seat and w[ix(O_PL + o * NF + F_LIVE)] == 1 and not must_hide(w, o):
            unlikely += w[ix(O_H + o * NT + V)]
    return HIDE_EPSILON ** unlikely


PARTS = SearchParts(step_legal, resume_copy, determinize, reveal, likelihood, rollout, score)


@njit(cache=True)
def search_decide(b, seat, key, plan, opts, stats):
    """``sim.kit.search.decide`` with virus-dogs' parts, honest, all-seeing or weighted by ``plan.mode``."""
    return decide(b, seat, key, plan, opts, PARTS, stats)


@fn
def versus(w, s, o):
    """1 if seat ``s`` ends better placed than ``o``, 0.5 if as well, else 0: a winner over a
    non-winner, then a live seat over an eliminated one, a later elimination over an earlier
    one, and between live seats (a rollout ended at its horizon) fewer viruses carried, O + HV."""
    ws, wo = w[ix(O_SM + s * NS + tb.S_WIN)], w[ix(O_SM + o * NS + tb.S_WIN)]
    if ws != wo:
        return 1.0 if ws else 0.0
    if ws:
        return 0.5
    es, eo = w[ix(O_SM + s * NS + tb.S_ELIM)], w[ix(O_SM + o * NS + tb.S_ELIM)]
    if es != eo:
        return 0.0 if es else 1.0
    if es:
        a, c = w[ix(O_SM + s * NS + tb.S_ELIM_TURN)], w[ix(O_SM + o * NS + tb.S_ELIM_TURN)]
    else:
        a = w[ix(O_SM + o * NS + tb.S_OPEN_END)] + w[ix(O_SM + o * NS + tb.S_HIDDEN_END)]
        c = w[ix(O_SM + s * NS + tb.S_OPEN_END)] + w[ix(O_SM + s * NS + tb.S_HIDDEN_END)]
    return 1.0 if a > c else (0.5 if a == c else 0.0)


@njit(cache=True, error_model="numpy")
def decision_number(b, seat):
    """The pending decision's number in the search stream: the units started and the seat's own
    options applied in the current one, both known to the seat (the game's ``decisions`` count
    also holds decisions asked privately of others)."""
    k = 0
    for i in range(b[S_SCRIPTED]):
        if b[ix(O_SSEAT + i)] == seat:
            k += 1
    return b[S_UNITS] * MAX_SCRIPT + k


def collect(g, k, raw):
    """Game ``k``'s rows and its sums into ``kernel.run_fast``'s raw matrices ``raw`` (its per-turn
    sums: the rows of its turns, ``turn.fresh_turn_row``)."""
    games, seats, density, draws, deck = raw
    n = int(g[S_N])
    games[:, k] = g[O_GM:O_GM + tb.NG]
    seats[:, k * n:(k + 1) * n] = g[O_SM:O_SM + n * tb.NS].reshape(n, tb.NS).T
    turns = min(int(g[O_GM + tb.G_TURNS]), tb.TURN_ROWS)
    density[:turns] += g[O_TURNSUM:O_TURNSUM + turns * tb.ND].reshape(turns, tb.ND)
    draws += g[O_DRAWSUM:O_DRAWSUM + draws.size].reshape(draws.shape)
    deck += g[O_DECKSUM:O_DECKSUM + deck.size].reshape(deck.shape)


DRIVER = SearchDriver(
    steps=STEPS, search_decide=search_decide, fields=SEARCH_FIELDS, new_state=new_state, run_vector=run_vector,
    pending_seat=S_PSEAT, max_options=MAX_PENDING, bot_param=bot_param,
    param_codes=(B_BUDGET, B_WORLDS, B_ROLLOUT, B_OBJECTIVE), decision_number=decision_number, collect=collect,
    policies=O_SPOL, players=S_N, search_policies=(SEARCH, SEEING, WEIGHTED))
search_option, advance, start_search_game, run_search_games, search_batch, world_mode = DRIVER.functions()
