"""Fast Virus Dogs engine: numba kernels over one flat integer buffer, one call per batch.

The whole state of one game lives in ONE int64 buffer ``b`` (allocated once per batch, reset
per game), declared field by field in ``LAYOUT`` below (``LAYOUT.describe()`` lists it):
scalars such as the deck size, the rule parameters, one ``SEAT`` record and one hand per
seat, scratch lists for decisions, the result rows, the bot parameters, the generator's
counter and the deck, and what the step contract needs to go on from outside (below). Every
function but ``run_games``, ``resume`` and the ``step_*`` entry points is compiled without the
numba runtime (``_nrt=False``): none allocates, and without it no call pays atomic reference
counting, which otherwise took half the run time.

The step contract (``sim.step``, docs/adding-a-game.md): ``step_start``, ``step_pending``,
``step_legal``, ``step_apply``, ``step_play_on`` drive one game a decision at a time from
outside; ``run_games`` plays each game as ``step_start`` + ``step_play_on`` with nothing
applied (``begin_game`` + ``play_game``). Each decision function asks ``ask`` first; in a
game driven through the contract every seat's policy reads STEP, and ``step_policy`` tells
whether the step driver owns the decision (the function then lists its legal options, codes
per kind as in ``step_legal``, and takes ``step_answer``'s) or the seat's bot decides. The
batch pays one compare per decision for it.

The functions follow the reference engine (``reference.py``) phase by phase and carry the
same names (``setup``, ``take_turn``, ``phase_actions``, ``play_card``, ``draw_phase``,
``normal_draw``, ``mask``, ``remove_player``, ``hard_quarantine``, ``hq_pull``, ...), so the
two read side by side. The reference engine's exceptions become flags: ``over`` (GameOver),
``turn_ended`` (TurnEnds), ``start_hq`` (StartHQ), tested by ``interrupted``; its ``limbo``
(taken cards not yet resolved) is the ``limbo`` block.

Each decision is one small function returning the chosen option itself: the heuristic bots
compute it from the state, the random bot picks an index into the legal options in the
canonical order of the reference engine (docs/scenarios/virus-dogs.md) and maps it back, so
only its action choice and the hard-quarantine target choice need an option list. Every
decision function counts itself in the ``decisions`` column (tables.py), as the reference
engine's ``ask`` does. Hot helpers are ``inl`` (LLVM ``forceinline``): numba's array calling
convention makes every call cost about as much as a small decision.

The generator is ``sim.rng``'s, with its counter in the ``rng`` slot of ``b``
(``randbelow_at``/``uniform_at``/``shuffle_at``).

Random-consumption protocol (the reference engine follows the same order):
  1. setup: the deck is built bottom-first in card-code order and shuffled (Fisher-Yates as
     ``sim.rng.shuffle``) over the whole array; then, only with ``first_player = random``,
     one ``randbelow(n)`` picks the first seat;
  2. a bat appends its k viruses on top of the deck, then shuffles the whole deck;
     SHF shuffles the deck; ``eliminated_hand_destination = shuffle_into_deck`` shuffles
     after the eliminated player's cards went to the bottom;
  3. a hard-quarantine pull is one ``randbelow(hand size)``; the card is found by walking
     the target's hand in card-code order;
  4. bots: a decision with one legal option is taken without asking (no draw); ``random``
     draws one ``randbelow(candidates)`` when it has >= 2 candidates (suicidal declarations
     removed unless ``allow_suicide``); ``aggressive`` draws one ``uniform`` at every mask
     decision it is asked (bluff if ``uniform * 1e6 < bluff_ppm``); nothing else in the bots
     draws.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.bots import AGGRESSIVE, CAUTIOUS, RANDOM, ppm
from sim.games.virus_dogs.rules import (
    ACTION_CARDS, AMB, ANT, BAT, BM, C_CONTROL, C_COUGH, C_DECLARE, C_HQ, C_QUARANTINE,
    C_VOLUNTARY, CGH, COUNT_PARAM, CTL, DOC, EXC, GIVE_ORDER, HQ_FIRST_ELIM, HQ_STALEMATE,
    LAST_HQ, LAST_NORMAL, MSK, N_TYPES, NO_WINNER, P_INDEX, PARAMS, QRN, SHF, TP, TURN_CAP, V,
    deck_counts, param_vector,
)
from sim.kernel_util import fn, inl, ix
from sim.layout import Layout
from sim.rng import derive, randbelow_at, shuffle_at, uniform_at

# ---- typed constants ----------------------------------------------------------------------------
# A plain Python int passed as an argument reaches the callee as a Literal type, and numba then
# compiles one specialisation per value (per card code, decision kind, ...). np.int64 constants
# keep a single specialisation per function, which keeps the compile time down.
(V, BAT, TP, CTL, QRN, DOC, ANT, AMB, MSK, BM, SHF, CGH, EXC) = (
    np.int64(c) for c in (V, BAT, TP, CTL, QRN, DOC, ANT, AMB, MSK, BM, SHF, CGH, EXC))
(C_CONTROL, C_COUGH, C_DECLARE, C_HQ, C_QUARANTINE, C_VOLUNTARY) = (
    np.int64(c) for c in (C_CONTROL, C_COUGH, C_DECLARE, C_HQ, C_QUARANTINE, C_VOLUNTARY))
(HQ_FIRST_ELIM, HQ_STALEMATE, LAST_HQ, LAST_NORMAL, NO_WINNER, TURN_CAP) = (
    np.int64(c) for c in (HQ_FIRST_ELIM, HQ_STALEMATE, LAST_HQ, LAST_NORMAL, NO_WINNER, TURN_CAP))
ZERO, ONE, TWO, NOX = np.int64(0), np.int64(1), np.int64(2), np.int64(-1)
X_NORMAL, X_MASK, X_MARKET, X_COUGH = (np.int64(k) for k in (tb.X_NORMAL, tb.X_MASK, tb.X_MARKET, tb.X_COUGH))
YES, NO = np.bool_(True), np.bool_(False)
STEP = np.int64(3)  # the policy of every seat of a game driven through the step contract (``step_policy``)

# ---- parameter slots (offsets inside the ``params`` block) --------------------------------------
P_NVT = P_INDEX["n_virus_total"]
P_NVD = P_INDEX["n_virus_in_deck"]
P_BATADD = P_INDEX["bat_virus_add"]
P_DMIN = P_INDEX["draw_min"]
P_DMAX = P_INDEX["draw_max"]
P_PEEK = P_INDEX["mask_peek"]
P_LOOK = P_INDEX["black_market_look"]
P_DPC = P_INDEX["doctors_per_cure"]
P_DPT = P_INDEX["doctor_per_turn"]
P_THR = P_INDEX["elimination_threshold"]
P_FIRST = P_INDEX["first_player"]
P_UPFRONT = P_INDEX["draw_count_declared_upfront"]
P_BATCOUNT = P_INDEX["bat_counts_as_draw"]
P_SKIPSCOPE = P_INDEX["skip_scope"]
P_PREFIX = P_INDEX["mask_take_mode"]
P_ANTCOUGH = P_INDEX["antiseptic_on_cough"]
P_AMBREACT = P_INDEX["ambulance_reactive"]
P_EXREF = P_INDEX["exchange_refused_card"]
P_ELIMDEST = P_INDEX["eliminated_hand_destination"]
P_IMMEDIATE = P_INDEX["deck_exhaustion_check"]
P_HQCHOICE = P_INDEX["hq_target"]
P_HQFIRST = P_INDEX["hq_end"]
P_HQALL = P_INDEX["hq_stalemate"]
P_HQMAX = P_INDEX["hq_max_steps"]
P_ALLSHARED = P_INDEX["all_eliminated_outcome"]
P_MAXTURNS = P_INDEX["max_turns"]

# ---- sizes ---------------------------------------------------------------------------------------
_BOUND = {p.name: p for p in PARAMS}
NT = N_TYPES
MAX_SEATS = 5  # = VirusDogs.max_players (checked by the tests)
# Legal phase-A options at most: declare, CTL on each other seat, the other action cards, every
# up-front draw count, mask, black market and skip (the canonical order, reference.action_options).
DRAW_COUNTS = int(_BOUND["draw_max"].hi - _BOUND["draw_min"].lo + 1)
MAX_OPTIONS = 1 + (MAX_SEATS - 1) + (len(ACTION_CARDS) - 1) + DRAW_COUNTS + 3
MAX_PEEK = int(max(_BOUND["mask_peek"].hi, _BOUND["black_market_look"].hi))  # cards a mask/BM sees
# Every card of the largest configurable game: all non-virus cards plus every virus (deck + reserve).
MAX_CARDS = int(sum(_BOUND[COUNT_PARAM[c]].hi for c in range(N_TYPES) if c != V) + _BOUND["n_virus_total"].hi)

# ---- one seat's public record ------------------------------------------------------------------
SEAT = Layout("virus-dogs seat record")
F_O = SEAT.scalar("open", "open viruses O (VD-1)")
F_T = SEAT.scalar("treatment", "treatment T (VD-17)")
F_LIVE = SEAT.scalar("live", "1 while the seat is in the game")
F_SUS = SEAT.scalar("suspicion", "cards taken unseen since the hand was last revealed (bots.py)")
F_HS = SEAT.scalar("hand_size", "cards in the hand")
NF = SEAT.size

# ---- one seat's bot parameters, in GAME.bot_param_names() order --------------------------------
BOT_PARAMS = Layout("virus-dogs bot parameters (parts per million, bots.ppm)")
B_SUICIDE = BOT_PARAMS.scalar("allow_suicide", "random: >= 0.5 keeps suicidal declarations (AD-16)")
B_SKIP = BOT_PARAMS.scalar("skip_density", "cautious")
B_REFUSE = BOT_PARAMS.scalar("refuse_density", "cautious")
B_EXSUS = BOT_PARAMS.scalar("exchange_suspicion", "cautious")
B_DRAW2 = BOT_PARAMS.scalar("draw_two", "aggressive")
B_BLUFF = BOT_PARAMS.scalar("bluff", "aggressive")
B_CTLSUS = BOT_PARAMS.scalar("control_suspicion", "aggressive")
B_QRNSUS = BOT_PARAMS.scalar("quarantine_suspicion", "aggressive")
BOT_PARAM_NAMES = tuple(BOT_PARAMS.fields)
NB = BOT_PARAMS.size

# ---- the game state buffer ---------------------------------------------------------------------
LAYOUT = Layout("virus-dogs game state")
# Fresh at every game start (``setup`` zeroes everything up to FRESH_STOP):
S_DSIZE = LAYOUT.scalar("deck_size", "cards in the deck")
S_RES = LAYOUT.scalar("reserve", "viruses in the reserve (VD-3.3)")
S_PEND = LAYOUT.scalar("pending", "antisepticked viruses waiting to go back on top (VD-7.3)")
S_KTOP = LAYOUT.scalar("known_top", "viruses publicly known to lie on top of the deck (VD-7.7)")
S_VDECK = LAYOUT.scalar("viruses_in_deck", "viruses among the deck's cards")
S_NLIVE = LAYOUT.scalar("live_count", "live seats")
S_CUR = LAYOUT.scalar("current", "the seat whose turn it is")
S_TURN = LAYOUT.scalar("turn", "turns started")
S_DOCS = LAYOUT.scalar("docs_this_turn", "DOC cards played this turn (VD-4.6)")
S_CARDS = LAYOUT.scalar("cards_this_turn", "cards played this turn (VD-12.2)")
S_INHQ = LAYOUT.scalar("in_hq", "1 during hard quarantine")
S_OVER = LAYOUT.scalar("over", "1 once the game has ended (reference: GameOver)")
S_TEND = LAYOUT.scalar("turn_ended", "1 once the current player is out (VD-4.8; reference: TurnEnds)")
S_SHQ = LAYOUT.scalar("start_hq", "1: hard quarantine starts now (VD-20.1 immediate; reference: StartHQ)")
S_FIRST = LAYOUT.scalar("first", "the first player")
S_ROUNDS = LAYOUT.scalar("rounds", "completed rounds")
S_LIMBO = LAYOUT.scalar("limbo_size", "cards in the limbo block")
S_DECK0 = LAYOUT.scalar("start_deck", "cards in the deck after setup (the deck_density buckets)")
S_LEADER = LAYOUT.scalar("leader", "game feel: the last sole leader (fewest viruses carried), or -1")
S_LEAD_NOW = LAYOUT.scalar("lead_now", "game feel: the sole leader at the last observation, or -1")
S_LEAD_SINCE = LAYOUT.scalar("lead_since", "game feel: the turn index from which lead_now has led without a break")
O_PL = LAYOUT.block("seats", MAX_SEATS * NF, "seat s's SEAT record at seats + s*NF")
O_H = LAYOUT.block("hands", MAX_SEATS * NT, "copies of card code c in seat s's hand at hands + s*NT + c")
O_GM = LAYOUT.block("game_row", tb.NG, "this game's result row (tables.GAME_COLS)")
O_SM = LAYOUT.block("seat_rows", MAX_SEATS * tb.NS, "seat s's result row at seat_rows + s*NS (tables.SEAT_COLS)")
FRESH_STOP = LAYOUT.size
# Scratch lists, written before they are read:
O_OPT = LAYOUT.block("options", MAX_OPTIONS, "a decision's legal options (random actions, hard-quarantine targets)")
O_PEEK = LAYOUT.block("peeked", MAX_PEEK, "the cards a mask or black market sees, top first")
O_LIMBO = LAYOUT.block("limbo", MAX_PEEK, "taken cards not yet resolved, the next one last")
O_GIVEN = LAYOUT.block("exchange_given", MAX_SEATS, "card code each seat gives in an exchange (-1: none)")
O_REFUSED = LAYOUT.block("exchange_refused", MAX_SEATS, "1 if the seat's exchange card is refused")
O_LOS = LAYOUT.block("losers", MAX_SEATS, "seats eliminated together (one game-end check)")
# Set by ``run_games`` for the batch or for each game:
S_N = LAYOUT.scalar("players", "seats at the table")
O_P = LAYOUT.block("params", len(P_INDEX), "the rule parameters (rules.param_vector)")
O_POL = LAYOUT.block("policies", MAX_SEATS, "seat s's bot policy (bots.RANDOM, ...)")
O_BP = LAYOUT.block("bot_params", MAX_SEATS * NB, "seat s's BOT_PARAMS at bot_params + s*NB")
O_RNG = LAYOUT.scalar("rng", "the game's SplitMix64 counter (the uint64's bits)")
O_DECK = LAYOUT.block("deck", MAX_CARDS, "bottom-first: deck_size cards, the top at deck + deck_size - 1")
# Summed over the batch (zero at allocation, copied out by ``run_games``):
O_DRAWSUM = LAYOUT.block("draw_sums", tb.DRAW_ROWS * tb.NW, "draw_density sums, row r at draw_sums + r*NW")
O_DECKSUM = LAYOUT.block("deck_sums", (tb.DECK_BUCKETS + 1) * tb.NW, "deck_density sums, bucket k at deck_sums + k*NW")
SNAP_STOP = LAYOUT.size
# The step contract (``step_*`` below; docs/adding-a-game.md): what a game in progress needs
# beyond the engine state to go on from outside.
MAX_SCRIPT = 1 << 14  # options applied from outside per game
MAX_PENDING = max(MAX_OPTIONS, 1 << MAX_PEEK, N_TYPES, MAX_SEATS)  # legal options of one decision
S_RNG0 = LAYOUT.scalar("rng_start", "the generator's counter at the game's start (sim.rng.derive)")
S_SCRIPTED = LAYOUT.scalar("applied", "options applied from outside (step_apply), in the script block")
S_HANDLE = LAYOUT.scalar("step_handled", "decisions below this index are the step driver's (0: the bots decide)")
S_PSEAT = LAYOUT.scalar("pending_seat", "the seat of the pending decision, -1 once the game is over")
S_PKIND = LAYOUT.scalar("pending_kind", "the kind of the pending decision (K_*, KINDS)")
S_PN = LAYOUT.scalar("pending_count", "legal options of the pending decision")
O_POPT = LAYOUT.block("pending_options", MAX_PENDING, "the pending decision's legal options, canonical order")
O_SPOL = LAYOUT.block("step_policies", MAX_SEATS, "seat s's bot policy while ``policies`` holds STEP (step contract)")
O_COUNTS = LAYOUT.block("deck_counts", NT, "copies of each card code in the starting deck (rules.deck_counts)")
O_SCRIPT = LAYOUT.block("script", MAX_SCRIPT, "the options applied from outside, in decision order")
O_SNAP = LAYOUT.block("snapshot", SNAP_STOP, "the engine state at the pending decision, while the engine unwinds")
SIZE = LAYOUT.size
NS = tb.NS

# ---- one run's constant inputs (``run_vector``): what ``begin_game`` seats a game from ---------
RUN = Layout("virus-dogs run")
R_N = RUN.scalar("players")
N_PARAMS = len(P_INDEX)
R_P = RUN.block("params", N_PARAMS, "rules.param_vector")
R_COUNTS = RUN.block("deck_counts", NT, "rules.deck_counts")
R_POL = RUN.block("table_policies", MAX_SEATS, "policy of table position j (Game.bot_matrix)")
R_BP = RUN.block("table_bot_params", MAX_SEATS * NB, "BOT_PARAMS of table position j at j*NB (ppm)")

# ---- decision kinds (the reference engine's ``ask`` kinds) and their option codes --------------
KINDS = ("action", "virus", "draw_another", "mask_take", "market_take", "cough", "cough_virus", "give",
         "refuse_exchange", "hq_target")
(K_ACTION, K_VIRUS, K_MORE, K_MASK, K_MARKET, K_COUGH, K_COUGH_VIRUS, K_GIVE, K_REFUSE_EXC,
 K_HQ) = (np.int64(k) for k in range(len(KINDS)))

# ---- option codes ------------------------------------------------------------------------------
A_DECLARE = 0
A_CTL0 = 1  # + target seat
A_QRN = A_CTL0 + MAX_SEATS
A_DOC, A_AMB, A_SHF, A_CGH, A_EXC = A_QRN + 1, A_QRN + 2, A_QRN + 3, A_QRN + 4, A_QRN + 5
A_DRAW = A_EXC + 1  # + declared count (0 = sequential)
A_MASK = A_DRAW + int(_BOUND["draw_max"].hi) + 1
A_MARKET, A_SKIP = A_MASK + 1, A_MASK + 2
A_END = A_SKIP + 1
R_ANT, R_DECLARE, R_HIDE = 0, 1, 2  # virus responses; cough responses: 0 refuse/antiseptic, 1 accept
GIVE_SEQ = np.array((V,) + GIVE_ORDER, dtype=np.int64)  # DP-13: what a heuristic bot gives first
# Exact division by a deck size: floor(x / d) == (x * RECIP[d]) >> RECIP_SHIFT with
# RECIP[d] = ceil(2**RECIP_SHIFT / d) whenever x * d < 2**RECIP_SHIFT (the rounding error
# x * (RECIP[d] * d - 2**RECIP_SHIFT) / 2**RECIP_SHIFT then stays below 1 / d). The dividends
# are a virus density (viruses * 10000) and a deck share (cards used * DECK_BUCKETS).
RECIP_SHIFT = 32
MAX_DIVIDEND = max(int(_BOUND["n_virus_total"].hi) * 10000, MAX_CARDS * tb.DECK_BUCKETS)
assert MAX_DIVIDEND * MAX_CARDS < 1 << RECIP_SHIFT
RECIP = np.array([0] + [-(-(1 << RECIP_SHIFT) // d) for d in range(1, MAX_CARDS + 1)], dtype=np.int64)


# ============================================================================================
# helpers (reference: left_of .. to_discard)
# ============================================================================================
@inl
def left_of(b, n, s):
    """VD-1: the next live seat in turn order."""
    t = s
    for _ in range(n):
        t += 1
        if t == n:
            t = 0
        if b[ix(O_PL + t * NF + F_LIVE)]:
            return t
    return s


@inl
def right_of(b, n, s):
    """VD-1: the previous live seat in turn order."""
    t = s
    for _ in range(n):
        t -= 1
        if t < 0:
            t = n - 1
        if b[ix(O_PL + t * NF + F_LIVE)]:
            return t
    return s


@inl
def take_top(b):
    b[S_DSIZE] -= 1
    c = b[ix(O_DECK + b[S_DSIZE])]
    if b[S_KTOP] > 0:
        b[S_KTOP] -= 1
    if c == V:
        b[S_VDECK] -= 1
    return c


@inl
def put_top(b, c):
    b[ix(O_DECK + b[S_DSIZE])] = c
    b[S_DSIZE] += 1
    if c == V:
        b[S_VDECK] += 1


@fn
def put_bottom(b, c, k):
    """``k`` copies of card ``c`` under the deck."""
    if k <= 0:
        return
    size = b[S_DSIZE]
    for i in range(size - 1, -1, -1):
        b[ix(O_DECK + i + k)] = b[ix(O_DECK + i)]
    for i in range(k):
        b[ix(O_DECK + i)] = c
    b[S_DSIZE] = size + k
    if c == V:
        b[S_VDECK] += k


@fn
def shuffle_deck(b):
    """VD-11.1 / VD-8.2: uniform shuffle; all order knowledge is wiped."""
    shuffle_at(b, O_RNG, b, O_DECK, b[S_DSIZE])
    b[S_KTOP] = 0


@inl
def to_discard(b, s, c):
    """A card leaves seat s's hand for the discard (counted as played for TP..EXC)."""
    b[ix(O_H + s * NT + c)] -= 1
    b[ix(O_PL + s * NF + F_HS)] -= 1
    if c >= TP:
        b[ix(O_SM + s * NS + tb.S_PLAYED0 + c - TP)] += 1


@inl
def to_hand(b, s, c, unseen):
    """Card ``c`` joins seat s's hand (``unseen``: taken privately, so suspicion grows)."""
    b[ix(O_H + s * NT + c)] += 1
    b[ix(O_PL + s * NF + F_HS)] += 1
    if unseen:
        b[ix(O_PL + s * NF + F_SUS)] += 1


@inl
def ask(b, seat):
    """``seat`` is asked for a decision (reference: ``Engine.ask``): counted in the
    ``decisions`` column; returns the seat's bot policy (STEP for every seat of a game driven
    through the step contract: then ``step_policy``)."""
    b[O_GM + tb.G_DECISIONS] += 1
    return b[ix(O_POL + seat)]


@fn
def step_policy(b, seat):
    """In a game driven through the step contract: STEP if the step driver answers this
    decision (``step_answer``), else the seat's bot policy."""
    if b[O_GM + tb.G_DECISIONS] - 1 < b[S_HANDLE]:
        return STEP
    return b[ix(O_SPOL + seat)]


@fn
def step_answer(b, seat, kind, nopt):
    """A decision the step driver answers, its ``nopt`` legal options at ``pending_options``:
    an applied option, or (the first decision past them) the pending decision. Then the
    state is saved to ``snapshot`` and the engine unwinds as at a game end (any decision on
    the way is the bots'); ``resume`` restores the snapshot afterwards."""
    i = b[O_GM + tb.G_DECISIONS] - 1
    if i < b[S_SCRIPTED]:
        return b[ix(O_SCRIPT + i)]
    b[S_PSEAT] = seat
    b[S_PKIND] = kind
    b[S_PN] = nopt
    b[S_HANDLE] = 0
    for j in range(SNAP_STOP):
        b[ix(O_SNAP + j)] = b[ix(j)]
    b[S_OVER] = 1
    return b[O_POPT]


@fn
def step_listed(b, seat, kind, nopt):
    """``step_answer`` for a decision whose options the engine listed at ``options``."""
    for j in range(nopt):
        b[ix(O_POPT + j)] = b[ix(O_OPT + j)]
    return step_answer(b, seat, kind, nopt)


@fn
def step_action(b, p, phase_a):
    """``step_answer`` for the phase-A/C ``action`` decision (options: ``action_options``)."""
    return step_listed(b, p, K_ACTION, action_options(b, p, phase_a))


@fn
def step_virus(b, seat, has_ant):
    """``step_answer`` for a private virus: [R_ANT,] R_DECLARE, R_HIDE."""
    k = ZERO
    if has_ant:
        b[O_POPT] = R_ANT
        k = ONE
    b[ix(O_POPT + k)] = R_DECLARE
    b[ix(O_POPT + k + 1)] = R_HIDE
    return step_answer(b, seat, K_VIRUS, k + 2)


@fn
def step_mask(b, seat, nopt, prefix):
    """``step_answer`` for a mask take: the bit sets in order, or (prefix) the prefixes by length."""
    for i in range(nopt):
        b[ix(O_POPT + i)] = (ONE << i) - ONE if prefix else i
    return step_answer(b, seat, K_MASK, nopt)


@fn
def step_market(b, seat, m):
    """``step_answer`` for a black-market take: the peeked indices."""
    for i in range(m):
        b[ix(O_POPT + i)] = i
    return step_answer(b, seat, K_MARKET, m)


@fn
def step_give(b, seat):
    """``step_answer`` for an exchange gift: the held card codes in code order."""
    k = ZERO
    for c in range(N_TYPES):
        if b[ix(O_H + seat * NT + c)] > 0:
            b[ix(O_POPT + k)] = c
            k += 1
    return step_answer(b, seat, K_GIVE, k)


@fn
def step_yes_no(b, seat, kind):
    """``step_answer`` for a yes/no decision, listed as the reference lists it: 1 (yes), 0 (no)."""
    b[O_POPT] = 1
    b[O_POPT + 1] = 0
    return step_answer(b, seat, kind, TWO) == 1


@inl
def draw_event(b, kind):
    """A card has left the deck for a player (kind: tables.X_*; reference: ``draw_event``):
    counted, and the deck's size and viruses summed for the M-2 draw series (branch-free and
    without a hardware division: this runs at every draw)."""
    i = b[O_GM + tb.G_DRAWS]
    b[O_GM + tb.G_DRAWS] = i + 1
    b[ix(O_GM + tb.G_DR_NORMAL + kind)] += 1
    ds = b[S_DSIZE]
    vd = b[S_VDECK]
    deck0 = b[S_DECK0]
    bucket = div_small(max(deck0 - ds, ZERO) * tb.DECK_BUCKETS, deck0)
    bp = div_small(vd * 10000, ds)  # 0 for an empty deck, which counts no density draw
    dense = np.int64(ds > 0)
    add_draw(b, O_DRAWSUM + min(i, tb.DRAW_ROWS - 1) * tb.NW, ds, vd, dense, bp)
    add_draw(b, O_DECKSUM + bucket * tb.NW, ds, vd, dense, bp)


@inl
def add_draw(b, row, ds, vd, dense, bp):
    """One draw observation into the DRAW_COLS sums at ``row`` (tables.draw_row; ``dense``:
    1 if the deck holds cards, ``bp`` its virus density in basis points, else 0)."""
    b[ix(row + tb.W_DRAWS)] += 1
    b[ix(row + tb.W_DECK)] += ds
    b[ix(row + tb.W_VDECK)] += vd
    b[ix(row + tb.W_DDRAWS)] += dense
    b[ix(row + tb.W_BP)] += bp
    b[ix(row + tb.W_BP_SQ)] += bp * bp


@inl
def div_small(x, d):
    """``x // d`` for ``0 <= x <= MAX_DIVIDEND`` and ``0 <= d <= MAX_CARDS`` by a multiply and
    a shift (RECIP; 0 for ``d == 0``)."""
    return (x * RECIP[ix(d)]) >> RECIP_SHIFT


# ============================================================================================
# setup (VD-3) and the game loop (VD-4, VD-20.1)
# ============================================================================================
@fn
def begin_game(b, seed, game_index, run):
    """Seat game ``game_index`` of a run (``run``: ``run_vector``): players, rules, deck counts,
    the rotated bots and their parameters (``seat_bot``), the generator's counter. The engine
    state itself is made fresh by ``setup``; the batch sums are left as they are."""
    n = run[R_N]
    b[S_N] = n
    for i in range(N_PARAMS):
        b[ix(O_P + i)] = run[ix(R_P + i)]
    for c in range(N_TYPES):
        b[ix(O_COUNTS + c)] = run[ix(R_COUNTS + c)]
    r0 = np.int64(derive(np.uint64(seed), np.uint64(game_index)))
    b[O_RNG] = r0
    b[S_RNG0] = r0
    for s in range(n):
        j = (s + game_index) % n
        b[ix(O_POL + s)] = run[ix(R_POL + j)]
        for q in range(NB):
            b[ix(O_BP + s * NB + q)] = run[ix(R_BP + j * NB + q)]


@fn
def setup(b):
    """VD-3.1..3.5: fresh state, shuffled deck with its viruses, the reserve, first player."""
    n = b[S_N]
    for i in range(FRESH_STOP):
        b[ix(i)] = 0
    size = 0
    for c in range(N_TYPES):
        for _ in range(b[ix(O_COUNTS + c)]):
            b[ix(O_DECK + size)] = c
            size += 1
    b[S_DSIZE] = size
    b[S_DECK0] = size
    b[S_VDECK] = b[O_COUNTS + V]
    b[S_RES] = b[O_P + P_NVT] - b[O_P + P_NVD]
    b[S_NLIVE] = n
    for s in range(n):
        b[ix(O_PL + s * NF + F_LIVE)] = 1
        b[ix(O_SM + s * NS + tb.S_CAUSE)] = -1
        b[ix(O_SM + s * NS + tb.S_ELIM_TURN)] = -1
        b[ix(O_SM + s * NS + tb.S_INSTIGATOR)] = -1
        b[ix(O_SM + s * NS + tb.S_ELIM_OPEN)] = -1
        b[ix(O_SM + s * NS + tb.S_ELIM_HIDDEN)] = -1
        b[ix(O_SM + s * NS + tb.S_ELIM_T)] = -1
    b[O_GM + tb.G_WINNER] = -1
    b[O_GM + tb.G_FIRST_ELIM] = -1
    b[S_LEADER] = -1
    b[S_LEAD_NOW] = -1
    b[S_LEAD_SINCE] = -1
    shuffle_at(b, O_RNG, b, O_DECK, size)
    first = 0
    if b[O_P + P_FIRST] == 1:
        first = randbelow_at(b, O_RNG, n)
    b[S_FIRST] = first
    b[S_CUR] = first
    b[O_GM + tb.G_FIRST] = first


@fn
def play(b, dens):
    """Turns until the game ends (VD-4, VD-20, VD-21) or the turn cap; M-2 sums in ``dens``."""
    n = b[S_N]
    while True:
        if b[S_TURN] >= b[O_P + P_MAXTURNS]:
            b[O_GM + tb.G_TURN_CAP] = 1
            b[O_GM + tb.G_OUTCOME] = TURN_CAP
            break
        cur = b[S_CUR]
        b[S_TEND] = 0
        take_turn(b, cur)
        if b[S_OVER]:
            break
        record_density(b, dens)
        observe_lead(b, b[S_TURN] - 1)
        if b[S_SHQ] or (b[S_DSIZE] == 0 and b[S_NLIVE] >= 2):
            hard_quarantine(b, left_of(b, n, cur))
            break
        advance(b, n, cur)
    finalize(b)


@inl
def advance(b, n, cur):
    """VD-4.5: the left neighbour of the seat that just played takes the next turn."""
    first = b[S_FIRST]
    nxt = left_of(b, n, cur)
    rn = nxt - first if nxt >= first else nxt - first + n  # seats relative to the first player
    rc = cur - first if cur >= first else cur - first + n
    if rn <= rc:
        b[S_ROUNDS] += 1
    b[S_CUR] = nxt


@inl
def record_density(b, dens):
    """M-2 series at a turn end (the sums of tables.density_row)."""
    n = b[S_N]
    t = b[S_TURN] - 1
    ds = b[S_DSIZE]
    vd = b[S_VDECK]
    hid = 0
    opn = 0
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            hid += b[ix(O_H + s * NT + V)]
            opn += b[ix(O_PL + s * NF + F_O)]
    dens[t, tb.D_GAMES] += 1
    dens[t, tb.D_DECK] += ds
    dens[t, tb.D_DECK_SQ] += ds * ds
    dens[t, tb.D_VDECK] += vd
    dens[t, tb.D_VDECK_SQ] += vd * vd
    dens[t, tb.D_HID] += hid
    dens[t, tb.D_HID_SQ] += hid * hid
    dens[t, tb.D_OPEN] += opn
    dens[t, tb.D_OPEN_SQ] += opn * opn
    if ds > 0:
        bp = vd * 10000 // ds
        dens[t, tb.D_DGAMES] += 1
        dens[t, tb.D_BP] += bp
        dens[t, tb.D_BP_SQ] += bp * bp
        if bp > b[O_GM + tb.G_PEAK]:
            b[O_GM + tb.G_PEAK] = bp


@inl
def take_turn(b, p):
    """VD-4.1: phases A (actions), B (draw mode), C (actions), D (end)."""
    b[S_TURN] += 1
    b[S_DOCS] = 0
    b[S_CARDS] = 0
    mode = phase_actions(b, p, YES)
    if mode < 0:
        return
    if mode == A_SKIP:
        skip(b, p)
        return
    draw_phase(b, p, mode)
    if interrupted(b):
        return
    phase_actions(b, p, NO)


@inl
def interrupted(b):
    """Game over, current player out, or (``immediate``) an empty deck starting hard quarantine
    (the reference engine's GameOver, TurnEnds and check_immediate / StartHQ)."""
    if b[S_OVER] or b[S_TEND]:
        return True
    if b[O_P + P_IMMEDIATE] and b[S_DSIZE] == 0 and b[S_NLIVE] >= 2:
        b[S_SHQ] = 1
        return True
    return False


# ============================================================================================
# phases A and C (VD-4.2, VD-4.4)
# ============================================================================================
@inl
def action_options(b, p, phase_a):
    """Legal phase-A/C options at O_OPT in canonical order (DP-1, DP-2, DP-8); their count."""
    n = b[S_N]
    nopt = 0
    if b[ix(O_H + p * NT + V)] > 0:
        b[ix(O_OPT + nopt)] = A_DECLARE
        nopt += 1
    if b[ix(O_H + p * NT + CTL)] > 0:
        for t in range(n):
            if t != p and b[ix(O_PL + t * NF + F_LIVE)]:
                b[ix(O_OPT + nopt)] = A_CTL0 + t
                nopt += 1
    if b[ix(O_H + p * NT + QRN)] > 0:
        b[ix(O_OPT + nopt)] = A_QRN
        nopt += 1
    if b[ix(O_H + p * NT + DOC)] > 0 and b[ix(O_PL + p * NF + F_O)] >= 1 and b[S_DOCS] < b[O_P + P_DPT]:
        b[ix(O_OPT + nopt)] = A_DOC
        nopt += 1
    if b[ix(O_H + p * NT + AMB)] > 0:
        b[ix(O_OPT + nopt)] = A_AMB
        nopt += 1
    if b[ix(O_H + p * NT + SHF)] > 0:
        b[ix(O_OPT + nopt)] = A_SHF
        nopt += 1
    if b[ix(O_H + p * NT + CGH)] > 0 and b[ix(O_PL + p * NF + F_O)] >= 1:
        b[ix(O_OPT + nopt)] = A_CGH
        nopt += 1
    if b[ix(O_H + p * NT + EXC)] > 0:
        b[ix(O_OPT + nopt)] = A_EXC
        nopt += 1
    if not phase_a:
        b[ix(O_OPT + nopt)] = A_END
        return nopt + 1
    if b[O_P + P_UPFRONT]:
        for k in range(b[O_P + P_DMIN], b[O_P + P_DMAX] + 1):
            b[ix(O_OPT + nopt)] = A_DRAW + k
            nopt += 1
    else:
        b[ix(O_OPT + nopt)] = A_DRAW
        nopt += 1
    if b[ix(O_H + p * NT + MSK)] > 0 and b[S_DSIZE] > 0:
        b[ix(O_OPT + nopt)] = A_MASK
        nopt += 1
    if b[ix(O_H + p * NT + BM)] > 0 and b[S_DSIZE] > 0:
        b[ix(O_OPT + nopt)] = A_MARKET
        nopt += 1
    if b[ix(O_H + p * NT + TP)] > 0 and (b[O_P + P_SKIPSCOPE] == 1 or b[S_CARDS] == 0):
        b[ix(O_OPT + nopt)] = A_SKIP
        nopt += 1
    return nopt


@inl
def phase_actions(b, p, phase_a):
    """Play cards and declare until the player picks a draw mode (A) or ends the turn (C);
    returns that mode/end code, or -1 if interrupted."""
    while True:
        a = choose_action(b, p, phase_a)
        if a >= A_DRAW:
            return a
        if a == A_DECLARE:
            declare_voluntary(b, p)
        else:
            play_card(b, p, a)
        if interrupted(b):
            return -1


@inl
def play_card(b, p, a):
    """An action card from the hand: discard it, then its effect (VD-13..VD-18)."""
    b[S_CARDS] += 1
    if a < A_QRN:
        to_discard(b, p, CTL)
        control(b, p, a - A_CTL0)
    elif a == A_QRN:
        to_discard(b, p, QRN)
        quarantine(b, p)
    elif a == A_DOC:
        to_discard(b, p, DOC)
        doctor(b, p)
    elif a == A_AMB:
        to_discard(b, p, AMB)
        ambulance_effect(b, b[S_N], p)
    elif a == A_SHF:
        to_discard(b, p, SHF)
        shuffle_deck(b)
    elif a == A_CGH:
        to_discard(b, p, CGH)
        cough(b, p)
    else:
        to_discard(b, p, EXC)
        exchange(b, p)


# ============================================================================================
# phase B (VD-5, VD-9, VD-10, VD-12)
# ============================================================================================
@inl
def draw_phase(b, p, mode):
    if mode == A_MASK:
        mask(b, p)
    elif mode == A_MARKET:
        black_market(b, p)
    else:
        normal_draw(b, p, mode - A_DRAW)


@inl
def skip(b, p):
    """VD-12.2: TP as the draw mode; nothing drawn, no phase C."""
    to_discard(b, p, TP)
    b[ix(O_SM + p * NS + tb.S_TP_SKIP)] += 1


@inl
def normal_draw(b, p, upfront):
    """VD-5.1..5.5: draw 1..2 cards one at a time; pending viruses go on top at the end."""
    drawn = 0
    while b[S_DSIZE] > 0 and drawn < b[O_P + P_DMAX]:
        if drawn >= b[O_P + P_DMIN]:
            if b[O_P + P_UPFRONT]:
                if drawn >= upfront:
                    break
            else:
                if not wants_more(b, p):
                    break
        c = take_top(b)
        draw_event(b, X_NORMAL)
        if c != BAT or b[O_P + P_BATCOUNT]:
            drawn += 1
        receive_private(b, p, c, X_NORMAL)
        if b[S_OVER] or b[S_TEND]:
            return
    return_pending(b)


@inl
def peek(b, m):
    """The top ``m`` cards into the ``peeked`` block, top first (they stay in the deck)."""
    for i in range(m):
        b[ix(O_PEEK + i)] = b[ix(O_DECK + b[S_DSIZE] - 1 - i)]


@fn
def mask(b, p):
    """VD-9: peek at the top cards, take any subset (or a prefix); the rest stay in order."""
    to_discard(b, p, MSK)
    m = min(b[O_P + P_PEEK], b[S_DSIZE])
    peek(b, m)
    take = mask_take(b, p, m)
    cnt = 0
    seen = 0
    avoided = 0
    for i in range(m):
        cnt += (take >> i) & 1
        if b[ix(O_PEEK + i)] == V:
            seen += 1
            avoided += 1 - ((take >> i) & 1)
    b[ix(O_SM + p * NS + tb.S_MASK_TAKEN)] += cnt
    if cnt == 0:
        b[ix(O_SM + p * NS + tb.S_MASK_NONE)] += 1
    if seen > 0:
        b[ix(O_SM + p * NS + tb.S_MASK_PEEK_V)] += 1
    b[ix(O_SM + p * NS + tb.S_MASK_AVOIDED)] += avoided
    take_peeked(b, p, m, take, X_MASK)


@fn
def black_market(b, p):
    """VD-10: look at the top cards, take exactly one; the others stay in order."""
    to_discard(b, p, BM)
    m = min(b[O_P + P_LOOK], b[S_DSIZE])
    peek(b, m)
    k = market_take(b, p, m)
    b[S_KTOP] = 0
    seen = 0
    for i in range(m):
        if b[ix(O_PEEK + i)] == V:
            seen += 1
    b[ix(O_SM + p * NS + tb.S_MARKET_SEEN)] += seen
    if seen == m:
        b[ix(O_SM + p * NS + tb.S_MARKET_FORCED)] += 1
    take_peeked(b, p, m, ONE << k, X_MARKET)


@fn
def take_peeked(b, p, m, take, kind):
    """Shared tail of mask and black market: the peeked cards leave the deck, the untaken ones
    go back on top in their order, the taken ones (bit set ``take``) enter the limbo and are
    resolved one by one, top first. If the taker is eliminated meanwhile, ``remove_player``
    puts the rest of the limbo in the hand first (VD-19.3)."""
    b[S_DSIZE] -= m
    for i in range(m):
        if b[ix(O_PEEK + i)] == V:
            b[S_VDECK] -= 1
    k = 0
    for i in range(m - 1, -1, -1):
        if (take >> i) & 1:
            b[ix(O_LIMBO + k)] = b[ix(O_PEEK + i)]
            k += 1
        else:
            put_top(b, b[ix(O_PEEK + i)])
    b[S_LIMBO] = k
    if take:
        b[S_KTOP] = 0
    while b[S_LIMBO] > 0:
        b[S_LIMBO] -= 1
        draw_event(b, kind)
        receive_private(b, p, b[ix(O_LIMBO + b[S_LIMBO])], kind)
        if b[S_OVER] or b[S_TEND]:
            return
    return_pending(b)


@inl
def return_pending(b):
    """VD-5.5 / VD-7.3 / VD-7.4: pending viruses go back on top, publicly known."""
    while b[S_PEND] > 0:
        b[S_PEND] -= 1
        put_top(b, V)
        b[S_KTOP] += 1


@inl
def receive_private(b, p, c, kind):
    """VD-5.3: a privately drawn card (``kind``: the draw kind, tables.X_*): bat, virus, or
    into the hand."""
    if c == BAT:
        bat(b, p, kind)
    elif c == V:
        private_virus(b, p, kind)
    else:
        to_hand(b, p, c, YES)


@inl
def private_virus(b, p, kind):
    """VD-6.1 / VD-7: antiseptic, declare or hide a privately drawn virus."""
    b[ix(O_SM + p * NS + tb.S_V_DRAWN)] += 1
    r = virus_response(b, p)
    if r == R_ANT:
        to_discard(b, p, ANT)
        b[O_GM + tb.G_ANTISEPTICS] += 1
        b[ix(O_SM + p * NS + tb.S_ANT0 + kind)] += 1
        b[S_PEND] += 1
    elif r == R_DECLARE:
        b[ix(O_SM + p * NS + tb.S_V_DECLARED)] += 1
        open_viruses(b, b[S_N], p, ONE, C_DECLARE, p)
    else:
        b[ix(O_SM + p * NS + tb.S_V_HIDDEN)] += 1
        to_hand(b, p, V, YES)


@fn
def bat(b, p, kind):
    """VD-8: up to ``bat_virus_add`` reserve viruses on top, shuffle (seat p drew it by a draw
    of ``kind``, tables.X_*)."""
    b[ix(O_SM + p * NS + tb.S_BAT0 + kind)] += 1
    k = min(b[O_P + P_BATADD], b[S_RES])
    b[S_RES] -= k
    for _ in range(k):
        put_top(b, V)
    shuffle_deck(b)
    b[O_GM + tb.G_BATS] += 1
    b[O_GM + tb.G_BAT_ADDED] += k


# ============================================================================================
# viruses and elimination (VD-6, VD-18.4, VD-19, VD-21)
# ============================================================================================
@inl
def declare_voluntary(b, p):
    """VD-6.3: move one hidden virus to the open area."""
    b[ix(O_H + p * NT + V)] -= 1
    b[ix(O_PL + p * NF + F_HS)] -= 1
    b[ix(O_SM + p * NS + tb.S_VOLUNTARY)] += 1
    open_viruses(b, b[S_N], p, ONE, C_VOLUNTARY, p)


@fn
def open_viruses(b, n, p, k, cause, inst):
    """VD-6.6 / VD-19.1: O += k, then the elimination check."""
    b[ix(O_PL + p * NF + F_O)] += k
    if b[ix(O_PL + p * NF + F_O)] >= b[O_P + P_THR] and not reactive_ambulance(b, n, p):
        b[O_LOS + 0] = p
        eliminate(b, n, ONE, cause, inst)


@fn
def reactive_ambulance(b, n, p):
    """VD-18.4: with ``ambulance_reactive``, a held AMB is played before the elimination check."""
    if b[O_P + P_AMBREACT] and b[ix(O_H + p * NT + AMB)] > 0:
        to_discard(b, p, AMB)
        ambulance_effect(b, n, p)
        return True
    return False


@fn
def eliminate(b, n, nl, cause, inst):
    """VD-19.3 for the ``nl`` seats in ``losers`` (simultaneously), then the game-end check
    (VD-21) and VD-4.8 (the current player is out: the turn ends)."""
    for i in range(nl):
        remove_player(b, b[ix(O_LOS + i)], cause, inst)
    if b[S_NLIVE] == 1:
        finish(b, n, LAST_HQ if b[S_INHQ] else LAST_NORMAL, NO)
        return
    if b[S_NLIVE] == 0:
        if b[O_P + P_ALLSHARED] == 1:
            finish_losers(b, nl)
        else:
            b[O_GM + tb.G_WINNER] = -1
            b[O_GM + tb.G_NWIN] = 0
            b[O_GM + tb.G_OUTCOME] = NO_WINNER
            b[S_OVER] = 1
        return
    if not b[S_INHQ]:
        for i in range(nl):
            if b[ix(O_LOS + i)] == b[S_CUR]:
                b[S_TEND] = 1


@fn
def remove_player(b, p, cause, inst):
    """VD-19.3: every virus to the deck bottom, other cards per ``eliminated_hand_destination``
    (no game-end check)."""
    turn = b[S_TURN] if b[S_INHQ] else b[S_TURN] - 1
    b[ix(O_SM + p * NS + tb.S_ELIM_OPEN)] = b[ix(O_PL + p * NF + F_O)]
    b[ix(O_SM + p * NS + tb.S_ELIM_HIDDEN)] = b[ix(O_H + p * NT + V)]
    b[ix(O_SM + p * NS + tb.S_ELIM_T)] = b[ix(O_PL + p * NF + F_T)]
    b[ix(O_SM + p * NS + tb.S_DOC_WASTED)] += b[ix(O_PL + p * NF + F_T)]
    b[ix(O_SM + p * NS + tb.S_ELIM)] = 1
    b[ix(O_SM + p * NS + tb.S_CAUSE)] = cause
    b[ix(O_SM + p * NS + tb.S_ELIM_TURN)] = turn
    b[ix(O_SM + p * NS + tb.S_INSTIGATOR)] = inst
    if inst != p:
        b[ix(O_SM + inst * NS + tb.S_KILLS)] += 1
    b[ix(O_GM + tb.G_ELIM0 + cause)] += 1
    if b[S_INHQ]:
        b[O_GM + tb.G_HQ_ELIMS] += 1
    if b[O_GM + tb.G_FIRST_ELIM] < 0:
        b[O_GM + tb.G_FIRST_ELIM] = turn
    b[ix(O_PL + p * NF + F_LIVE)] = 0
    b[S_NLIVE] -= 1
    if p == b[S_CUR] and not b[S_INHQ]:
        # Eliminated mid-draw: the draw phase ends (VD-5.5); cards still being taken join the hand.
        return_pending(b)
        limbo_to_hand(b, p)
    put_bottom(b, V, b[ix(O_PL + p * NF + F_O)] + b[ix(O_H + p * NT + V)])
    b[ix(O_PL + p * NF + F_O)] = 0
    b[ix(O_PL + p * NF + F_T)] = 0
    b[ix(O_H + p * NT + V)] = 0
    dest = b[O_P + P_ELIMDEST]
    for c in range(N_TYPES):
        if dest != 0:
            for _ in range(b[ix(O_H + p * NT + c)]):
                put_bottom(b, c, ONE)
        b[ix(O_H + p * NT + c)] = 0
    b[ix(O_PL + p * NF + F_HS)] = 0
    if dest == 2:
        shuffle_deck(b)


@inl
def limbo_to_hand(b, p):
    """The taken cards not yet resolved join seat p's hand (a bat goes to the discard)."""
    for i in range(b[S_LIMBO]):
        c = b[ix(O_LIMBO + i)]
        if c != BAT:
            to_hand(b, p, c, NO)
    b[S_LIMBO] = 0


@fn
def finish(b, n, outcome, fewest_open_only):
    """VD-21: every live seat wins (or, with ``fewest_open_only``, those with the fewest open
    viruses); the game is over."""
    least = 1 << 30
    if fewest_open_only:
        for s in range(n):
            if b[ix(O_PL + s * NF + F_LIVE)] and b[ix(O_PL + s * NF + F_O)] < least:
                least = b[ix(O_PL + s * NF + F_O)]
    cnt = 0
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)] and (not fewest_open_only or b[ix(O_PL + s * NF + F_O)] == least):
            if cnt == 0:
                b[O_GM + tb.G_WINNER] = s
            cnt += 1
            b[ix(O_SM + s * NS + tb.S_WIN)] = 1
    b[O_GM + tb.G_NWIN] = cnt
    b[O_GM + tb.G_OUTCOME] = outcome
    b[S_OVER] = 1


@fn
def finish_losers(b, nl):
    """VD-21.3 ``shared_win``: the last players, fallen together, share the win."""
    b[O_GM + tb.G_WINNER] = b[O_LOS + 0]
    for i in range(nl):
        b[ix(O_SM + b[ix(O_LOS + i)] * NS + tb.S_WIN)] = 1
        b[O_GM + tb.G_WINNER] = min(b[O_GM + tb.G_WINNER], b[ix(O_LOS + i)])
    b[O_GM + tb.G_NWIN] = nl
    b[O_GM + tb.G_OUTCOME] = LAST_NORMAL
    b[S_OVER] = 1


# ============================================================================================
# action cards (VD-13..VD-18)
# ============================================================================================
@fn
def control(b, p, t):
    """VD-13: the target reveals the hand; every virus in it becomes open."""
    k = b[ix(O_H + t * NT + V)]
    b[ix(O_H + t * NT + V)] = 0
    b[ix(O_PL + t * NF + F_HS)] -= k
    b[ix(O_PL + t * NF + F_SUS)] = 0
    b[ix(O_SM + p * NS + tb.S_EXPOSED)] += k
    if k:
        open_viruses(b, b[S_N], t, k, C_CONTROL, p)


@fn
def quarantine(b, p):
    """VD-14: every live hand is revealed at once; the threshold check runs for all together."""
    n = b[S_N]
    thr = b[O_P + P_THR]
    nl = 0
    for j in range(n):
        s = p + j - n if p + j >= n else p + j
        if not b[ix(O_PL + s * NF + F_LIVE)]:
            continue
        k = b[ix(O_H + s * NT + V)]
        b[ix(O_H + s * NT + V)] = 0
        b[ix(O_PL + s * NF + F_HS)] -= k
        b[ix(O_PL + s * NF + F_O)] += k
        b[ix(O_PL + s * NF + F_SUS)] = 0
        b[ix(O_SM + p * NS + tb.S_EXPOSED)] += k
        if b[ix(O_PL + s * NF + F_O)] >= thr:
            b[ix(O_LOS + nl)] = s
            nl += 1
    if nl == 0:
        return
    for i in range(nl):
        if reactive_ambulance(b, n, b[ix(O_LOS + i)]):
            return
    eliminate(b, n, nl, C_QUARANTINE, p)


@fn
def doctor(b, p):
    """VD-17: one treatment step; at ``doctors_per_cure`` an open virus goes to the deck bottom."""
    b[S_DOCS] += 1
    b[ix(O_PL + p * NF + F_T)] += 1
    if b[ix(O_PL + p * NF + F_T)] >= b[O_P + P_DPC]:
        b[ix(O_PL + p * NF + F_O)] -= 1
        b[ix(O_PL + p * NF + F_T)] = 0
        put_bottom(b, V, ONE)
        b[O_GM + tb.G_CURES] += 1
        b[ix(O_SM + p * NS + tb.S_CURES)] += 1


@fn
def ambulance_effect(b, n, p):
    """VD-18.2: every open virus goes to the deck bottom; every T resets (p: the player)."""
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            o = b[ix(O_PL + s * NF + F_O)]
            put_bottom(b, V, o)
            b[O_GM + tb.G_AMB_CURED] += o
            b[ix(O_SM + p * NS + (tb.S_AMB_OWN if s == p else tb.S_AMB_OTHERS))] += o
            b[ix(O_SM + s * NS + tb.S_DOC_WASTED)] += b[ix(O_PL + s * NF + F_T)]
            b[ix(O_PL + s * NF + F_O)] = 0
            b[ix(O_PL + s * NF + F_T)] = 0


@fn
def cough(b, p):
    """VD-15: each other live player, from the caster's left, draws one card face up."""
    n = b[S_N]
    for j in range(1, n):
        q = p + j - n if p + j >= n else p + j
        if not b[ix(O_PL + q * NF + F_LIVE)]:
            continue
        if b[ix(O_H + q * NT + TP)] > 0:
            if refuses_cough(b, q):
                to_discard(b, q, TP)
                b[ix(O_SM + q * NS + tb.S_TP_COUGH)] += 1
                continue
        if b[S_DSIZE] == 0:
            continue
        c = take_top(b)
        draw_event(b, X_COUGH)
        if c == BAT:
            bat(b, q, X_COUGH)
        elif c == V:
            if b[O_P + P_ANTCOUGH] and b[ix(O_H + q * NT + ANT)] > 0:
                if antisepticks_cough(b, q):
                    to_discard(b, q, ANT)
                    b[O_GM + tb.G_ANTISEPTICS] += 1
                    b[ix(O_SM + q * NS + tb.S_ANT0 + X_COUGH)] += 1
                    put_top(b, V)
                    b[S_KTOP] += 1
                    continue
            open_viruses(b, n, q, ONE, C_COUGH, p)
            if b[S_OVER]:
                return
        else:
            to_hand(b, q, c, NO)


@fn
def exchange(b, p):
    """VD-16: select (secretly), refuse with TP (in turn order from the caster), transfer left."""
    n = b[S_N]
    for s in range(n):
        b[ix(O_GIVEN + s)] = -1
        b[ix(O_REFUSED + s)] = 0
    for j in range(n):
        s = p + j - n if p + j >= n else p + j
        if not b[ix(O_PL + s * NF + F_LIVE)] or b[ix(O_PL + s * NF + F_HS)] == 0:
            continue
        c = give_card(b, s)
        b[ix(O_H + s * NT + c)] -= 1
        b[ix(O_PL + s * NF + F_HS)] -= 1
        b[ix(O_GIVEN + s)] = c
    for j in range(n):
        s = p + j - n if p + j >= n else p + j
        if not b[ix(O_PL + s * NF + F_LIVE)]:
            continue
        giver = right_of(b, n, s)
        if giver != s and b[ix(O_GIVEN + giver)] >= 0 and b[ix(O_H + s * NT + TP)] > 0:
            if refuses_exchange(b, s, giver):
                to_discard(b, s, TP)
                b[ix(O_SM + s * NS + tb.S_TP_EXCHANGE)] += 1
                b[ix(O_SM + s * NS + tb.S_REFUSALS)] += 1
                b[ix(O_REFUSED + giver)] = 1
    for j in range(n):
        s = p + j - n if p + j >= n else p + j
        c = b[ix(O_GIVEN + s)]
        if c < 0:
            continue
        if b[ix(O_REFUSED + s)]:
            if b[O_P + P_EXREF] == 0:
                to_hand(b, s, c, NO)
            continue
        to = left_of(b, n, s)
        to_hand(b, to, c, YES)
        if c == V:
            b[ix(O_SM + s * NS + tb.S_PLANTED)] += 1


# ============================================================================================
# hard quarantine (VD-20)
# ============================================================================================
@fn
def hard_quarantine(b, first):
    """VD-20.4..20.11: drawers pull one random card from a target until a decision."""
    n = b[S_N]
    b[S_INHQ] = 1
    b[O_GM + tb.G_HQ] = 1
    b[O_GM + tb.G_HQ_LIVE] = b[S_NLIVE]
    b[O_GM + tb.G_HQ_HIDDEN] = hidden_total(b, n)
    if hq_check(b, n):
        return
    d = first
    steps = 0
    while True:
        x = hq_target(b, n, d)
        steps += 1
        b[O_GM + tb.G_HQ_STEPS] += 1
        if x >= 0 and b[ix(O_PL + x * NF + F_HS)] > 0:
            hq_pull(b, n, d, x)
            if b[S_OVER]:
                return
        if hq_check(b, n):
            return
        if steps >= b[O_P + P_HQMAX]:
            stalemate(b, n)
            return
        d = left_of(b, n, d)


@inl
def hq_target(b, n, d):
    """VD-20.6: the left neighbour, or a chosen live player with cards (DP-19); -1 if none."""
    if not b[O_P + P_HQCHOICE]:
        return left_of(b, n, d)
    nopt = 0
    for s in range(n):
        if s != d and b[ix(O_PL + s * NF + F_LIVE)] and b[ix(O_PL + s * NF + F_HS)] > 0:
            b[ix(O_OPT + nopt)] = s
            nopt += 1
    if nopt == 0:
        return NOX
    return b[ix(O_OPT + hq_choice(b, d, nopt))]


@fn
def hq_pull(b, n, d, x):
    """VD-20.6: a uniformly random card of X's hand (code order) is shown; a virus becomes open."""
    r = randbelow_at(b, O_RNG, b[ix(O_PL + x * NF + F_HS)])
    c = 0
    while r >= b[ix(O_H + x * NT + c)]:
        r -= b[ix(O_H + x * NT + c)]
        c += 1
    if c == V:
        b[ix(O_H + x * NT + V)] -= 1
        b[ix(O_PL + x * NF + F_HS)] -= 1
        before = b[S_NLIVE]
        open_viruses(b, n, x, ONE, C_HQ, d)
        if not b[S_OVER] and b[O_P + P_HQFIRST] and b[S_NLIVE] < before:
            finish(b, n, HQ_FIRST_ELIM, NO)


@inl
def hidden_total(b, n):
    hid = 0
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            hid += b[ix(O_H + s * NT + V)]
    return hid


@fn
def hq_check(b, n):
    """VD-20.8: a stalemate when no live player holds a hidden virus; true if so."""
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)] and b[ix(O_H + s * NT + V)] > 0:
            return False
    stalemate(b, n)
    return True


@fn
def stalemate(b, n):
    """VD-20.10."""
    b[O_GM + tb.G_HQ_STALE] = 1
    finish(b, n, HQ_STALEMATE, b[O_P + P_HQALL] == ZERO)


# ============================================================================================
# results
# ============================================================================================
@inl
def observe_lead(b, turn):
    """Game feel (reference ``Lead.observe``): the live seat carrying strictly the fewest
    viruses, ``O + HV``, leads; lead changes, the current leader's start and each seat's
    largest deficit."""
    n = b[S_N]
    least, lead = np.int64(1 << 40), NOX
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            d = b[ix(O_PL + s * NF + F_O)] + b[ix(O_H + s * NT + V)]
            if d < least:
                least, lead = d, np.int64(s)
            elif d == least:
                lead = NOX
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            d = b[ix(O_PL + s * NF + F_O)] + b[ix(O_H + s * NT + V)] - least
            if d > b[ix(O_SM + s * NS + tb.S_MAX_BEHIND)]:
                b[ix(O_SM + s * NS + tb.S_MAX_BEHIND)] = d
    if lead != b[S_LEAD_NOW]:
        b[S_LEAD_NOW] = lead
        if lead >= 0:
            b[S_LEAD_SINCE] = turn
            if b[S_LEADER] >= 0 and lead != b[S_LEADER]:
                b[O_GM + tb.G_LEAD_CHANGES] += 1
            b[S_LEADER] = lead


@fn
def record_lead(b):
    """The game-feel columns, after the observation at the game's end (reference ``record_lead``)."""
    observe_lead(b, b[S_TURN] if b[S_INHQ] else b[S_TURN] - 1)
    w = b[O_GM + tb.G_WINNER]
    single = b[O_GM + tb.G_NWIN] == 1
    b[O_GM + tb.G_LEAD_FROM] = b[S_LEAD_SINCE] if single and b[S_LEAD_NOW] == w else NOX
    b[O_GM + tb.G_WIN_BEHIND] = b[ix(O_SM + w * NS + tb.S_MAX_BEHIND)] if single else NOX


@fn
def finalize(b):
    n = b[S_N]
    record_lead(b)
    b[O_GM + tb.G_TURNS] = b[S_TURN]
    b[O_GM + tb.G_ROUNDS] = b[S_ROUNDS]
    for s in range(n):
        b[ix(O_SM + s * NS + tb.S_HAND_END)] = b[ix(O_PL + s * NF + F_HS)]
        b[ix(O_SM + s * NS + tb.S_HIDDEN_END)] = b[ix(O_H + s * NT + V)]
        b[ix(O_SM + s * NS + tb.S_OPEN_END)] = b[ix(O_PL + s * NF + F_O)]
        b[ix(O_SM + s * NS + tb.S_TP_END)] = b[ix(O_H + s * NT + TP)]


# ============================================================================================
# decisions: the bots (twins of bots.BotAgent)
# ============================================================================================
# Each decision below returns the chosen option itself (the heuristic bots' rule, or the random
# bot's pick mapped through the canonical option order), so no option list is written; each
# starts with ``ask``, which counts the decision as the reference engine's ``ask`` does.
@inl
def choose_action(b, p, phase_a):
    """The phase-A/C ``action`` decision (DP-1, DP-2, DP-8)."""
    pol = ask(b, p)
    if pol == STEP:
        pol = step_policy(b, p)
        if pol == STEP:
            return step_action(b, p, phase_a)
    if pol == RANDOM:
        nopt = action_options(b, p, phase_a)
        suicide = b[O_OPT + 0] == A_DECLARE and b[ix(O_PL + p * NF + F_O)] + 1 >= b[O_P + P_THR]
        return b[ix(O_OPT + pick(b, nopt, ZERO if suicide and not allows_suicide(b, p) else NOX))]
    return bot_action(b, b[S_N], p, phase_a, pol)


@inl
def allows_suicide(b, seat):
    """The random bot's ``allow_suicide`` parameter (AD-16: off by default)."""
    return b[ix(O_BP + seat * NB + B_SUICIDE)] >= 500000


@inl
def density_at_least(b, n, seat, ppm):
    """Estimated virus density (see bots.py) >= ppm / 1e6, in exact integer arithmetic."""
    opened = 0
    pool = b[S_DSIZE]
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)]:
            opened += b[ix(O_PL + s * NF + F_O)]
            if s != seat:
                pool += b[ix(O_PL + s * NF + F_HS)]
    unknown = b[O_P + P_NVT] - b[S_RES] - opened - b[ix(O_H + seat * NT + V)] - b[S_PEND]
    if pool <= 0:
        return ppm <= 0
    return unknown * 1000000 >= ppm * pool


@inl
def ctl_target(b, n, seat, use_min, min_sus_ppm):
    thr = b[O_P + P_THR]
    best = -1
    best_sus = -1
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)] and s != seat and b[ix(O_PL + s * NF + F_O)] >= thr - 1 and b[ix(O_PL + s * NF + F_HS)] >= 1 and b[ix(O_PL + s * NF + F_SUS)] > best_sus:
            best = s
            best_sus = b[ix(O_PL + s * NF + F_SUS)]
    if best >= 0 or not use_min:
        return best
    for s in range(n):
        if b[ix(O_PL + s * NF + F_LIVE)] and s != seat and b[ix(O_PL + s * NF + F_SUS)] * 1000000 >= min_sus_ppm and b[ix(O_PL + s * NF + F_SUS)] > best_sus:
            best = s
            best_sus = b[ix(O_PL + s * NF + F_SUS)]
    return best


@inl
def bot_action(b, n, seat, phase_a, pol):
    """DP-1, DP-2, DP-8 for the heuristic bots (see bots.BotAgent.on_action): the chosen action
    code, computed from the state without listing the options. Every branch checks the
    legality of what it returns, and the last resort (draw / end) is always legal, so when
    only one option is legal this returns exactly that option."""
    h = O_H + seat * NT
    thr = b[O_P + P_THR]
    o = b[ix(O_PL + seat * NF + F_O)]
    topv = b[S_KTOP] > 0
    hv = b[ix(h + V)]
    can_doc = b[ix(h + DOC)] > 0 and b[S_DOCS] < b[O_P + P_DPT]
    deck = b[S_DSIZE] > 0
    if pol == CAUTIOUS:
        if hv > 0 and o + 1 < thr and (can_doc or b[ix(h + AMB)] > 0):
            return A_DECLARE
        if b[ix(h + AMB)] > 0 and o >= 1 and b[ix(h + DOC)] < b[O_P + P_DPC] - b[ix(O_PL + seat * NF + F_T)]:
            return A_AMB
        if can_doc and o >= 1:
            return A_DOC
        if b[ix(h + CTL)] > 0:
            t = ctl_target(b, n, seat, NO, ZERO)
            if t >= 0:
                return A_CTL0 + t
        if b[ix(h + QRN)] > 0 and hv == 0:
            for s in range(n):
                if b[ix(O_PL + s * NF + F_LIVE)] and s != seat and b[ix(O_PL + s * NF + F_O)] >= thr - 1 and b[ix(O_PL + s * NF + F_SUS)] >= 1:
                    return A_QRN
        if b[ix(h + CGH)] > 0 and o >= 1 and topv:
            return A_CGH
        if b[ix(h + EXC)] > 0 and hv >= 1:
            return A_EXC
        if phase_a and b[ix(h + SHF)] > 0 and topv and b[ix(h + MSK)] == 0 and b[ix(h + BM)] == 0:
            return A_SHF
        if not phase_a:
            return A_END
        if b[ix(h + MSK)] > 0 and deck:
            return A_MASK
        if b[ix(h + BM)] > 0 and deck:
            return A_MARKET
        if skip_legal(b, h) and (topv or density_at_least(b, n, seat, b[ix(O_BP + seat * NB + B_SKIP)])):
            return A_SKIP
        return A_DRAW + (b[O_P + P_DMIN] if b[O_P + P_UPFRONT] else 0)
    # aggressive
    if hv > 0 and o == 0 and o + 1 < thr and b[ix(h + CGH)] > 0:
        return A_DECLARE
    if b[ix(h + CGH)] > 0 and o >= 1:
        return A_CGH
    if b[ix(h + CTL)] > 0:
        t = ctl_target(b, n, seat, YES, b[ix(O_BP + seat * NB + B_CTLSUS)])
        if t >= 0:
            return A_CTL0 + t
    if b[ix(h + QRN)] > 0 and hv == 0:
        tot = 0
        for s in range(n):
            if b[ix(O_PL + s * NF + F_LIVE)] and s != seat:
                tot += b[ix(O_PL + s * NF + F_SUS)]
        if tot * 1000000 >= b[ix(O_BP + seat * NB + B_QRNSUS)]:
            return A_QRN
    if b[ix(h + EXC)] > 0 and hv >= 1:
        return A_EXC
    if can_doc and o >= 1:
        return A_DOC
    if b[ix(h + AMB)] > 0 and o >= 1:
        return A_AMB
    if phase_a and b[ix(h + SHF)] > 0 and topv:
        return A_SHF
    if not phase_a:
        return A_END
    if topv:
        if b[ix(h + BM)] > 0 and deck:
            return A_MARKET
        if b[ix(h + MSK)] > 0 and deck:
            return A_MASK
        if skip_legal(b, h):
            return A_SKIP
    cnt = 0
    if b[O_P + P_UPFRONT]:
        cnt = b[O_P + P_DMAX] if b[ix(O_BP + seat * NB + B_DRAW2)] >= 500000 else b[O_P + P_DMIN]
    return A_DRAW + cnt


@inl
def skip_legal(b, h):
    """VD-12.2: TP skip needs a TP and, under ``whole_turn``, no card played this turn."""
    return b[ix(h + TP)] > 0 and (b[O_P + P_SKIPSCOPE] == 1 or b[S_CARDS] == 0)


@inl
def pick(b, nopt, excl):
    """The random bot: uniform over ``nopt`` options without index ``excl`` (-1: none); one
    ``randbelow`` when two or more candidates remain, none for a single legal option."""
    if nopt == 1:
        return ZERO
    cands = nopt - 1 if excl >= 0 else nopt
    r = randbelow_at(b, O_RNG, cands) if cands > 1 else ZERO
    if excl >= 0 and r >= excl:
        r += 1
    return r


@inl
def virus_response(b, seat):
    """DP-4, private virus: R_ANT / R_DECLARE / R_HIDE (options: [antiseptic,] declare, hide)."""
    p = ask(b, seat)
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            return step_virus(b, seat, b[ix(O_H + seat * NT + ANT)] > 0)
    h = O_H + seat * NT
    has_ant = b[ix(h + ANT)] > 0
    safe = b[ix(O_PL + seat * NF + F_O)] + 1 < b[O_P + P_THR]
    if p == RANDOM:
        first = R_ANT if has_ant else R_DECLARE
        return first + pick(b, R_HIDE - first + 1, NOX if safe or allows_suicide(b, seat) else R_DECLARE - first)
    if has_ant and (p == CAUTIOUS or not safe):
        return R_ANT
    if safe and ((p == CAUTIOUS and (b[ix(h + DOC)] > 0 or b[ix(h + AMB)] > 0)) or (p == AGGRESSIVE and b[ix(h + CGH)] > 0)):
        return R_DECLARE
    return R_HIDE


@inl
def wants_more(b, seat):
    """DP-3 / DP-5: draw another card (options: more, stop)."""
    p = ask(b, seat)
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            return step_yes_no(b, seat, K_MORE)
    if p == RANDOM:
        return pick(b, TWO, NOX) == 0
    return p == AGGRESSIVE and b[ix(O_BP + seat * NB + B_DRAW2)] >= 500000 and b[S_KTOP] == 0


@inl
def mask_take(b, seat, m):
    """DP-6: the bit set of the ``m`` peeked cards (b[ix(O_PEEK + i)], top first) to take. Options are
    every subset in bit order, or (prefix mode) the prefixes by length."""
    p = ask(b, seat)
    prefix = b[O_P + P_PREFIX]
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            return step_mask(b, seat, m + 1 if prefix else ONE << m, prefix)
    nopt = m + 1 if prefix else ONE << m
    if nopt == 1:
        return ZERO
    if p == RANDOM:
        i = pick(b, nopt, NOX)
        return (ONE << i) - ONE if prefix else i
    if p == AGGRESSIVE and uniform_at(b, O_RNG) * 1000000.0 < b[ix(O_BP + seat * NB + B_BLUFF)]:
        return ZERO
    want = ZERO
    for i in range(m):
        if wanted(p, b[ix(O_PEEK + i)]):
            want |= ONE << i
        elif prefix:
            break
    return want


@inl
def wanted(p, c):
    """DP-6 / DP-7: a seen card a heuristic bot takes: never a virus, a bat only if aggressive."""
    return c != V and (c != BAT or p == AGGRESSIVE)


@inl
def market_take(b, seat, m):
    """DP-7: index of the peeked card a black market takes."""
    p = ask(b, seat)
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            return step_market(b, seat, m)
    if m == 1:
        return ZERO
    if p == RANDOM:
        return pick(b, m, NOX)
    for i in range(m):
        if wanted(p, b[ix(O_PEEK + i)]):
            return i
    if p == CAUTIOUS:
        for i in range(m):
            if b[ix(O_PEEK + i)] == BAT:
                return i
    return ZERO


@inl
def refuses_cough(b, seat):
    """DP-11: answer a cough with TP (options: refuse, accept)."""
    p = ask(b, seat)
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            return step_yes_no(b, seat, K_COUGH)
    if p == RANDOM:
        return pick(b, TWO, NOX) == 0
    refuse = b[ix(O_PL + seat * NF + F_O)] + 1 >= b[O_P + P_THR] and b[ix(O_H + seat * NT + ANT)] == 0
    if p == CAUTIOUS:
        refuse = refuse or b[S_KTOP] > 0 or density_at_least(b, b[S_N], seat, b[ix(O_BP + seat * NB + B_REFUSE)])
    return refuse


@inl
def antisepticks_cough(b, seat):
    """DP-12: antiseptic on a face-up cough virus (options: antiseptic, accept)."""
    p = ask(b, seat)
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            return step_yes_no(b, seat, K_COUGH_VIRUS)
    if p == RANDOM:
        return pick(b, TWO, NOX) == 0
    return p == CAUTIOUS or b[ix(O_PL + seat * NF + F_O)] + 1 >= b[O_P + P_THR]


@inl
def give_card(b, seat):
    """DP-13: the card code given in an exchange (options: held codes in code order)."""
    p = ask(b, seat)
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            return step_give(b, seat)
    h = O_H + seat * NT
    if p != RANDOM:
        for j in range(GIVE_SEQ.shape[0]):
            c = GIVE_SEQ[j]
            if b[ix(h + c)] > 0:
                return c
    nopt = ZERO
    for c in range(N_TYPES):
        if b[ix(h + c)] > 0:
            nopt += 1
    i = pick(b, nopt, NOX) if p == RANDOM else ZERO
    for c in range(N_TYPES):
        if b[ix(h + c)] > 0:
            if i == 0:
                return np.int64(c)
            i -= 1
    return ZERO


@inl
def refuses_exchange(b, seat, giver):
    """DP-14: refuse the giver's card with TP (options: refuse, accept)."""
    p = ask(b, seat)
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            return step_yes_no(b, seat, K_REFUSE_EXC)
    if p == RANDOM:
        return pick(b, TWO, NOX) == 0
    return p == CAUTIOUS and b[ix(O_PL + giver * NF + F_SUS)] * 1000000 >= b[ix(O_BP + seat * NB + B_EXSUS)]


@fn
def hq_choice(b, seat, nopt):
    """DP-19: index of the hard-quarantine target among the seats listed at O_OPT."""
    p = ask(b, seat)
    if p == STEP:
        p = step_policy(b, seat)
        if p == STEP:
            t = step_listed(b, seat, K_HQ, nopt)
            for i in range(nopt):
                if b[ix(O_OPT + i)] == t:
                    return np.int64(i)
    if p == RANDOM:
        return pick(b, nopt, NOX)
    best = ZERO
    for i in range(1, nopt):
        s = b[ix(O_OPT + i)]
        w = b[ix(O_OPT + best)]
        so, wo = b[ix(O_PL + s * NF + F_O)], b[ix(O_PL + w * NF + F_O)]
        if so > wo or (so == wo and b[ix(O_PL + s * NF + F_HS)] < b[ix(O_PL + w * NF + F_HS)]):
            best = i
    return best




# ============================================================================================
# the step contract (docs/adding-a-game.md) and the batches
# ============================================================================================
# A game in progress is its buffer: the engine state at the pending decision, the options
# applied from outside (``script``) and the pending decision's seat, kind and legal options.
# The engine is written as nested calls (a decision is asked in the middle of a rule), so
# ``step_apply`` and ``step_play_on`` go on by playing the game again from its start with the
# applied options answering their decisions (``resume``): the same draws, so the same game.
@fn
def play_game(b, dens):
    """One game from setup (VD-3) to its end; results in the game_row/seat_rows blocks."""
    setup(b)
    play(b, dens)


@njit(cache=True, error_model="numpy")
def resume(b, stop):
    """Play the game from its start, the applied options answering the first decisions; with
    ``stop``, up to the decision after them (the state restored to it), else to the end."""
    b[S_HANDLE] = b[S_SCRIPTED] + (1 if stop else 0)
    b[S_PSEAT] = NOX
    b[S_PKIND] = NOX
    b[S_PN] = 0
    b[O_RNG] = b[S_RNG0]
    for i in range(O_DRAWSUM, SNAP_STOP):  # the draw sums of this game only
        b[ix(i)] = 0
    dens = np.zeros((max(b[O_P + P_MAXTURNS], ONE), tb.ND), dtype=np.int64)
    play_game(b, dens)
    b[S_HANDLE] = 0
    if b[S_PSEAT] >= 0:
        for i in range(SNAP_STOP):
            b[ix(i)] = b[ix(O_SNAP + i)]


@njit(cache=True, error_model="numpy")
def step_start(b, seed, game_index, run):
    """Game ``game_index`` of the run with seed ``seed`` (``run``: ``run_vector``) into ``b``
    (any contents; SIZE slots), up to its first decision."""
    b[:] = 0
    begin_game(b, seed, game_index, run)
    for s in range(b[S_N]):
        b[ix(O_SPOL + s)] = b[ix(O_POL + s)]
        b[ix(O_POL + s)] = STEP
    resume(b, True)


@njit(cache=True)
def step_pending(b):
    """The pending decision: (seat, kind: K_* / KINDS), or (-1, -1) once the game is over."""
    return b[S_PSEAT], b[S_PKIND]


@njit(cache=True)
def step_legal(b, out):
    """The pending decision's legal options into ``out`` (canonical order: the reference
    engine's list); their count (0 once the game is over). Codes by kind: ``action`` A_*
    (A_CTL0 + target, A_DRAW + declared count, A_END in phase C); ``virus`` R_ANT, R_DECLARE,
    R_HIDE; ``mask_take`` the bit set of peeked cards taken; ``market_take`` the peeked
    index; ``give`` the card code; ``hq_target`` the seat; the yes/no kinds (``draw_another``,
    ``cough``: refuse, ``cough_virus``: antiseptic, ``refuse_exchange``) 1 then 0."""
    n = b[S_PN] if b[S_PSEAT] >= 0 else 0
    for j in range(n):
        out[j] = b[ix(O_POPT + j)]
    return n


@njit(cache=True, error_model="numpy")
def step_apply(b, option):
    """Answer the pending decision with ``option`` (one of ``step_legal``'s), up to the next
    decision or the game's end. Returns 0, or (``b`` unchanged) -1 if the game is over,
    -2 for an option that is not legal, -3 once MAX_SCRIPT options were applied."""
    if b[S_PSEAT] < 0:
        return -1
    legal = False
    for j in range(b[S_PN]):
        if b[ix(O_POPT + j)] == option:
            legal = True
    if not legal:
        return -2
    if b[S_SCRIPTED] >= MAX_SCRIPT:
        return -3
    b[ix(O_SCRIPT + b[S_SCRIPTED])] = option
    b[S_SCRIPTED] += 1
    resume(b, True)
    return 0


@njit(cache=True, error_model="numpy")
def step_play_on(b):
    """The seated bots play the game on from the pending decision to its end (results in the
    game_row/seat_rows/draw_sums blocks)."""
    if b[S_PSEAT] >= 0:
        resume(b, False)


@njit(cache=True, error_model="numpy")
def run_games(seed, start, count, run, games, seats, dens, draws, deck):
    """Play games ``start .. start+count-1`` into ``games``/``seats``/``dens`` (zeroed by the caller);
    the draw-series sums into ``draws`` and ``deck``. Each game is ``step_start`` and
    ``step_play_on`` with nothing applied: ``begin_game`` and ``play_game``, with no replay."""
    b = np.zeros(SIZE, dtype=np.int64)
    for k in range(count):
        begin_game(b, seed, start + k, run)
        play_game(b, dens)
        for j in range(tb.NG):
            games[j, k] = b[ix(O_GM + j)]
        for j in range(NS):  # each column's n cells are adjacent in ``seats``
            for s in range(run[R_N]):
                seats[j, k * run[R_N] + s] = b[ix(O_SM + s * NS + j)]
    for r in range(draws.shape[0]):
        for j in range(tb.NW):
            draws[r, j] = b[ix(O_DRAWSUM + r * tb.NW + j)]
    for r in range(deck.shape[0]):
        for j in range(tb.NW):
            deck[r, j] = b[ix(O_DECKSUM + r * tb.NW + j)]


def run_vector(game, cfg) -> np.ndarray:
    """The ``RUN`` vector of a configuration: what ``begin_game`` seats every game from."""
    assert tuple(game.bot_param_names()) == BOT_PARAM_NAMES
    prm = np.array(param_vector(cfg.params), dtype=np.int64)
    counts = np.array(deck_counts(cfg.params), dtype=np.int64)
    assert len(prm) == RUN["params"].size and cfg.players <= MAX_SEATS
    assert sum(counts) - counts[V] + cfg.params["n_virus_total"] <= MAX_CARDS
    pol, par = game.bot_matrix(cfg)
    run = np.zeros(RUN.size, dtype=np.int64)
    run[R_N] = cfg.players
    RUN.view(run, "params")[:] = prm
    RUN.view(run, "deck_counts")[:] = counts
    RUN.view(run, "table_policies")[:cfg.players] = pol
    ppm_rows = RUN.view(run, "table_bot_params").reshape(MAX_SEATS, NB)
    ppm_rows[:cfg.players] = [[ppm(x) for x in row] for row in par]
    return run


def run_fast(game, cfg, start: int, count: int):
    """Raw result matrices for a batch from the kernel."""
    run = run_vector(game, cfg)
    n = cfg.players
    games = np.empty((tb.NG, count), dtype=np.int32)  # column-major; every cell is written
    seats = np.empty((tb.NS, count * n), dtype=np.int32)
    dens = np.zeros((cfg.params["max_turns"], tb.ND), dtype=np.int64)
    draws, deck = tb.new_draw_sums()
    run_games(np.int64(cfg.seed), np.int64(start), np.int64(count), run, games, seats, dens, draws, deck)
    return games, seats, dens, draws, deck
