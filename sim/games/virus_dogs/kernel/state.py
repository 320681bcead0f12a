"""Virus Dogs' fast engine: the state buffer's layout and the helpers over it (the module
map and the random-consumption protocol: ``kernel/__init__.py``).

The whole state of one game lives in ONE int64 buffer ``b`` (allocated once per batch, reset
per game), declared field by field in ``LAYOUT`` below (``LAYOUT.describe()`` lists it):
scalars such as the deck size, the rule parameters, one ``SEAT`` record and one hand per
seat, scratch lists for decisions, the result rows, the bot parameters, the generator's
counter and the deck, and what the step contract needs to go on from outside. ``RUN`` is
one run's constant inputs (``kernel.run_vector``); ``KINDS`` and the ``A_*`` / ``R_*`` codes
name the decisions and their options (``kernel.step_legal``).

The helpers are the reference engine's (``Engine.left_of`` .. ``to_discard``, ``draw_event``)
over the buffer. The generator is ``sim.kit.rng``'s, with its counter in the ``rng`` slot of
``b`` (``randbelow_at``/``uniform_at``/``shuffle_at``).
"""

from __future__ import annotations

import numpy as np

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.reference.learned import FEATURES as LEARNED_FEATURES, NFEAT
from sim.games.virus_dogs.rules import (
    ACTION_CARDS, AMB, ANT, BAT, BM, C_CONTROL, C_COUGH, C_DECLARE, C_HQ, C_QUARANTINE, C_VOLUNTARY,
    CGH, COUNT_PARAM, CTL, DOC, EXC, GIVE_ORDER, HQ_FIRST_ELIM, HQ_STALEMATE, LAST_HQ, LAST_NORMAL,
    MSK, N_TYPES, NO_WINNER, P_INDEX, PARAMS, QRN, SHF, TP, TURN_CAP, V,
)
from sim.kit.kernel_util import fn, inl, ix, restore_snapshot, save_snapshot
from sim.kit.layout import Layout
from sim.kit.lead import LeadFields
from sim.kit.rng import randbelow_at, shuffle_at
from sim.kit.search import SearchFields
from sim.kit.step import StepFields


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
BOT_PARAMS = Layout("virus-dogs bot parameters (sim.kit.kernel_util.bot_param_words)")
B_SUICIDE = BOT_PARAMS.scalar("allow_suicide", "random: >= 0.5 keeps suicidal declarations (AD-16)")
B_SKIP = BOT_PARAMS.scalar("skip_density", "cautious")
B_REFUSE = BOT_PARAMS.scalar("refuse_density", "cautious")
B_EXSUS = BOT_PARAMS.scalar("exchange_suspicion", "cautious")
B_DRAW2 = BOT_PARAMS.scalar("draw_two", "aggressive")
B_BLUFF = BOT_PARAMS.scalar("bluff", "aggressive")
B_CTLSUS = BOT_PARAMS.scalar("control_suspicion", "aggressive")
B_QRNSUS = BOT_PARAMS.scalar("quarantine_suspicion", "aggressive")
B_BUDGET = BOT_PARAMS.scalar("budget", "search: rollouts per decision")
B_WORLDS = BOT_PARAMS.scalar("determinizations", "search: re-dealt worlds per decision")
B_ROLLOUT = BOT_PARAMS.scalar("rollout", "search: the rollout bot's policy")
B_OBJECTIVE = BOT_PARAMS.scalar("objective", "search: what a rollout scores")
B_HORIZON = BOT_PARAMS.scalar("horizon", "search: turns a rollout plays")
B_W0 = BOT_PARAMS.size  # the learned bot's feature weights (learned.FEATURES), one after another
for _name in LEARNED_FEATURES:
    BOT_PARAMS.scalar("w_" + _name, "learned: the weight of feature " + _name)
BOT_PARAM_NAMES = tuple(BOT_PARAMS.fields)
NB = BOT_PARAMS.size

# ---- the game state buffer ---------------------------------------------------------------------
LAYOUT = Layout("virus-dogs game state")
# Fresh at every game start (``kernel.turn.setup`` zeroes everything up to FRESH_STOP):
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
O_LEAD = LeadFields(LAYOUT, MAX_SEATS, "viruses carried", "turn index").at  # game feel (sim.kit.lead)
S_HQ_D = LAYOUT.scalar("hq_drawer", "the drawer of the next hard-quarantine step (VD-20.5)")
S_HQ_STEPS = LAYOUT.scalar("hq_step", "hard-quarantine steps taken (VD-20.11)")
# What a driven game notes about the current unit (a turn, or a hard-quarantine step), kept with the
# engine state so that the unit's snapshot and the pending decision's state hold it too
# (``unit_start``; read by kernel.search.determinize). A batch game leaves them at 0. They are
# virus-dogs' own (its search deals its worlds from them), not fields of the step contract.
S_UNITS = LAYOUT.scalar("units", "driven: units started (turns and hard-quarantine steps)")
S_U_D0 = LAYOUT.scalar("unit_deck", "driven: deck size at the unit's start")
S_U_INTACT = LAYOUT.scalar("unit_intact", "driven: cards of the unit's starting deck (from the bottom) no card "
                           "left or was peeked at from, before the unit's first shuffle")
S_U_BOTTOM = LAYOUT.scalar("unit_bottom", "driven: cards put under the deck in the unit before its first shuffle")
S_U_SHUFFLED = LAYOUT.scalar("unit_shuffled", "driven: 1 once the deck was shuffled in the unit")
S_U_PRIVATE = LAYOUT.scalar("unit_private", "driven: 1 once a player drew or peeked privately in the unit")
S_U_PUBLIC = LAYOUT.scalar("unit_public", "driven: cards of the unit's starting deck seen face up (from the top) "
                           "before its first private draw or peek")
S_U_CHANGED = LAYOUT.scalar("unit_changed", "driven: bit s, seat s's hand changed privately in the unit "
                            "(an unseen card taken, an exchange card given)")
S_U_SHOWN = LAYOUT.scalar("unit_shown", "driven: bit s, seat s's hand was shown in the unit (control, quarantine, "
                          "elimination) with no private change before")
S_U_GIFTS = LAYOUT.scalar("unit_gifts", "driven: exchange cards passed in the unit (in unit_gift)")
S_U_SHUFFLES = LAYOUT.scalar("unit_shuffles", "driven: shuffles in the unit so far")
S_U_SEG_INTACT = LAYOUT.scalar("unit_seg_intact", "driven: cards of the deck as the last shuffle left it (from the "
                               "bottom) no card left or was peeked at from")
S_U_SEG_BOTTOM = LAYOUT.scalar("unit_seg_bottom", "driven: cards put under the deck since the last shuffle")
S_U_SEEN = LAYOUT.scalar("unit_seen", "driven: cards noted in unit_seen_cards")
S_BAD = LAYOUT.scalar("replay_off", "driven: 1 once a replayed option did not fit its decision (a re-dealt "
                      "world that left the game's path; kernel.search)")
O_PL = LAYOUT.block("seats", MAX_SEATS * NF, "seat s's SEAT record at seats + s*NF")
O_H = LAYOUT.block("hands", MAX_SEATS * NT, "copies of card code c in seat s's hand at hands + s*NT + c")
MAX_GIFTS = 4 * MAX_SEATS  # exchange cards a unit notes (later ones are not noted)
O_U_GIFT = LAYOUT.block("unit_gift", 3 * MAX_GIFTS, "driven: giver, receiver and card of each exchange card "
                        "passed in the unit")
MAX_SEEN = 16  # cards seen after the unit's shuffles that a unit notes (later ones are not noted)
O_U_SEEN = LAYOUT.block("unit_seen_cards", 4 * MAX_SEEN, "driven: each card that left the deck or was peeked "
                        "at after a shuffle of the unit: the shuffle's number, its place in the deck that "
                        "shuffle made (from the bottom), its code, 1 if seen face up")
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
# Set by ``kernel.run_games`` for the batch or for each game:
S_N = LAYOUT.scalar("players", "seats at the table")
O_P = LAYOUT.block("params", len(P_INDEX), "the rule parameters (rules.param_vector)")
O_POL = LAYOUT.block("policies", MAX_SEATS, "seat s's bot policy (bots.RANDOM, ...)")
O_BP = LAYOUT.block("bot_params", MAX_SEATS * NB, "seat s's BOT_PARAMS at bot_params + s*NB")
O_RNG = LAYOUT.scalar("rng", "the game's SplitMix64 counter (the uint64's bits)")
O_DECK = LAYOUT.block("deck", MAX_CARDS, "bottom-first: deck_size cards, the top at deck + deck_size - 1")
DECK_STOP = LAYOUT.size
assert O_DECK == O_RNG + 1  # a snapshot copies the counter and the deck's used part in one run
# Summed over the batch (zero at allocation, copied out by ``kernel.run_games``):
O_DRAWSUM = LAYOUT.block("draw_sums", tb.DRAW_ROWS * tb.NW, "draw_density sums, row r at draw_sums + r*NW")
O_DECKSUM = LAYOUT.block("deck_sums", (tb.DECK_BUCKETS + 1) * tb.NW, "deck_density sums, bucket k at deck_sums + k*NW")
O_COUNTS = LAYOUT.block("deck_counts", NT, "copies of each card code in the starting deck (rules.deck_counts)")
# The step contract (``kernel.step_*``; docs/adding-a-game.md): what a game in progress needs
# beyond the engine state to go on from outside. A driven game goes on from units, each pass of
# the turn loop and each hard-quarantine step (``kernel.turn.play`` and ``hq_steps``, resumable at
# either): the engine state at the current unit's start (``snapshot``: the per-game part and
# the generator's counter and the deck) and the driver's options applied since (``script``).
# The fields every game has are declared by ``sim.kit.step.StepFields``, virus-dogs' own around them.
MAX_SCRIPT = 1 << 10  # driver options applied in one unit (a turn holds far fewer decisions)
MAX_PENDING = max(MAX_OPTIONS, 1 << MAX_PEEK, N_TYPES, MAX_SEATS)  # legal options of one decision
PENDING = np.int64(-2)  # ``driver_option`` of the decision that becomes the pending one
COUNTED_ALL = np.int64(1 << 62)  # ``draws_counted`` while the engine unwinds from a pending decision
STEP_FIELDS = StepFields(LAYOUT, options=MAX_PENDING)
S_STEPPED, S_STOP, S_DRIVER, S_PSEAT, S_PKIND, S_SCRIPTED, S_PN = STEP_FIELDS.scalars
# the search's fields (sim.kit.search.SearchFields): ``step_start`` marks the search seats (and plays
# them by their rollout bots unless a search driver takes them)
SEARCH_FIELDS = SearchFields(LAYOUT)
S_SEARCH, S_SEEING, S_WEIGHTED, S_REND = SEARCH_FIELDS.scalars
# virus-dogs' own step scalars (with the shared ones from ``stop`` on, what a copy of a driven game
# goes on from: kernel.search.resume_copy copies S_STOP .. STEP_STOP):
S_RESUMING = LAYOUT.scalar("resuming", "1 while the engine goes on from the unit snapshot, up to its unit's start")
S_UDRV = LAYOUT.scalar("driver_asked", "the driver's decisions asked in this pass of the unit (the script index)")
S_DRIVEN = LAYOUT.scalar("driver_option", "the option of the driver's decision being asked, or PENDING")
S_COUNTED = LAYOUT.scalar("draws_counted", "draw events already summed into draw_sums / deck_sums "
                          "(a unit played again sums only the later ones)")
S_W_FIX = LAYOUT.scalar("world_fixed", "a re-dealt world (kernel.search): cards in world_cards, put in place "
                        "after the unit's shuffles as the seat saw them")
STEP_STOP = LAYOUT.size
USNAP_SIZE = FRESH_STOP + 1 + MAX_CARDS
O_POPT, O_SPOL, O_SCRIPT, O_USNAP, O_PSNAP = STEP_FIELDS.blocks(
    MAX_SEATS, MAX_SCRIPT, USNAP_SIZE,
    "the engine state at the current unit's start: the per-game state (0 .. FRESH_STOP), then the "
    "generator's counter and the deck's used part",
    DECK_STOP, "0 .. the deck's top")
# virus-dogs' own step blocks:
O_SSEAT = LAYOUT.block("script_seats", MAX_SCRIPT, "the seat of each applied option")
O_W_CARDS = LAYOUT.block("world_cards", 3 * MAX_SEEN, "a re-dealt world: the shuffle's number, the place and the "
                         "code of each card the seat saw after a shuffle of the unit (unit_seen_cards)")
O_LOPT = LAYOUT.block("learned_options", MAX_PENDING, "the learned bot's legal options (kernel.learned)")
O_LFEAT = LAYOUT.block("learned_features", NFEAT, "the features of one option (kernel.learned)")
# The per-turn density sums (copied out by ``kernel.run_games``), last: ``step_start`` clears the
# buffer before them, and a driven game clears each row as its turn starts (``turn.fresh_turn_row``).
TURN_SUMS = LAYOUT.size
O_TURNSUM = LAYOUT.block("turn_sums", tb.TURN_ROWS * tb.ND,
                         "density sums, row t at turn_sums + t*ND (the last row also every later turn): a batch's "
                         "over its games; a driven game's own in rows 0 .. turns - 1")
SIZE = LAYOUT.size
NS = tb.NS

# ---- one run's constant inputs (``kernel.run_vector``): what ``kernel.begin_game`` seats a game from
RUN = Layout("virus-dogs run")
R_N = RUN.scalar("players")
N_PARAMS = len(P_INDEX)
R_P = RUN.block("params", N_PARAMS, "rules.param_vector")
R_COUNTS = RUN.block("deck_counts", NT, "rules.deck_counts")
R_POL = RUN.block("table_policies", MAX_SEATS, "policy of table position j (Game.bot_matrix)")
R_BP = RUN.block("table_bot_params", MAX_SEATS * NB, "BOT_PARAMS of table position j at j*NB (bot_param_words)")

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
# helpers (reference: left_of .. to_discard, draw_event)
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
def first_draw(b, p, c):
    """Card ``c`` is the first seat ``p`` draws from the deck unless it drew before (the seats
    column ``first_card``; reference: ``Engine.first_draw``)."""
    if b[ix(O_SM + p * NS + tb.S_FIRST_CARD)] < 0:
        b[ix(O_SM + p * NS + tb.S_FIRST_CARD)] = c


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
    if b[S_STEPPED]:
        if b[S_U_SHUFFLED]:
            b[S_U_SEG_BOTTOM] += k
        else:
            b[S_U_BOTTOM] += k


@fn
def shuffle_deck(b):
    """VD-11.1 / VD-8.2: uniform shuffle; all order knowledge is wiped."""
    shuffle_at(b, O_RNG, b, O_DECK, b[S_DSIZE])
    b[S_KTOP] = 0
    if b[S_STEPPED]:
        shuffled(b)


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
        if b[S_STEPPED]:
            b[S_U_CHANGED] |= ONE << s


@inl
def draw_event(b, kind):
    """A card has left the deck for a player (kind: tables.X_*; reference: ``draw_event``):
    counted, and the deck's size and viruses summed for the M-2 draw series (without a hardware
    division: this runs at every draw), once per draw event of a driven game (``draws_counted``)."""
    i = b[O_GM + tb.G_DRAWS]
    b[O_GM + tb.G_DRAWS] = i + 1
    b[ix(O_GM + tb.G_DR_NORMAL + kind)] += 1
    if i < b[S_COUNTED]:  # a driven game's unit played again: this draw is summed already
        return
    if b[S_STEPPED]:
        b[S_COUNTED] = i + 1
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
# a driven game's units (the step contract: kernel.resume, kernel.search.determinize)
# ============================================================================================
@fn
def unit_start(b):
    """A unit starts (a pass of the turn loop, a hard-quarantine step) in a driven game: no
    driver option applied in it yet, nothing noted about it; while the engine stops for the
    driver, the state at its start is saved. Going on from that snapshot (``resuming``), the
    unit has started already."""
    if b[S_RESUMING]:
        b[S_RESUMING] = 0
        return
    b[S_UDRV] = 0
    b[S_SCRIPTED] = 0
    b[S_UNITS] += 1
    b[S_U_D0] = b[S_DSIZE]
    b[S_U_INTACT] = b[S_DSIZE]
    b[S_U_BOTTOM] = 0
    b[S_U_SHUFFLED] = 0
    b[S_U_PRIVATE] = 0
    b[S_U_PUBLIC] = 0
    b[S_U_CHANGED] = 0
    b[S_U_SHOWN] = 0
    b[S_U_GIFTS] = 0
    b[S_U_SHUFFLES] = 0
    b[S_U_SEEN] = 0
    b[S_W_FIX] = 0  # a re-dealt world's cards were the unit's it was dealt in
    if b[S_STOP]:
        k = save_snapshot(b, O_USNAP, ZERO, FRESH_STOP)
        save_snapshot(b, k, O_RNG, 1 + b[S_DSIZE])


@fn
def restore_unit(b):
    """The engine state at the current unit's start back from its snapshot."""
    k = restore_snapshot(b, O_USNAP, ZERO, FRESH_STOP)  # the deck's size first
    restore_snapshot(b, k, O_RNG, 1 + b[S_DSIZE])


@fn
def touch_top(b, m, public):
    """Driven: the top ``m`` cards are about to be taken or peeked at (``public``: face up).
    Before the unit's first shuffle, the cards of its starting deck left intact shrink to those
    below them; after a shuffle, the cards of the deck it made that are touched for the first
    time are noted with their places."""
    if b[S_U_SHUFFLED] == 0:
        b[S_U_INTACT] = max(ZERO, min(b[S_U_INTACT], b[S_DSIZE] - m - b[S_U_BOTTOM]))
        return
    low = max(ZERO, b[S_DSIZE] - m - b[S_U_SEG_BOTTOM])
    for place in range(b[S_U_SEG_INTACT] - 1, low - 1, -1):
        k = b[S_U_SEEN]
        if k < MAX_SEEN:
            b[ix(O_U_SEEN + 4 * k)] = b[S_U_SHUFFLES]
            b[ix(O_U_SEEN + 4 * k + 1)] = place
            b[ix(O_U_SEEN + 4 * k + 2)] = b[ix(O_DECK + place + b[S_U_SEG_BOTTOM])]
            b[ix(O_U_SEEN + 4 * k + 3)] = public
            b[S_U_SEEN] = k + 1
    b[S_U_SEG_INTACT] = min(b[S_U_SEG_INTACT], low)


@fn
def shuffled(b):
    """Driven: the deck was shuffled; in a re-dealt world, the cards the seat saw after this
    shuffle in the game are put where it saw them, each swapped with a random card of its type
    below (the deck stays uniform given what the seat saw)."""
    b[S_U_SHUFFLED] = 1
    b[S_U_SHUFFLES] += 1
    b[S_U_SEG_INTACT] = b[S_DSIZE]
    b[S_U_SEG_BOTTOM] = 0
    for k in range(b[S_W_FIX]):
        if b[ix(O_W_CARDS + 3 * k)] != b[S_U_SHUFFLES]:
            continue
        place, c = b[ix(O_W_CARDS + 3 * k + 1)], b[ix(O_W_CARDS + 3 * k + 2)]
        if place >= b[S_DSIZE] or not swap_in(b, place, c):
            b[S_BAD] = 1
            return


@fn
def swap_in(b, place, c):
    """Card ``c`` to deck slot ``place`` from a random slot at or below it holding one; False if none."""
    start = randbelow_at(b, O_RNG, place + 1)
    for i in range(place + 1):
        j = start + i
        if j > place:
            j -= place + 1
        if b[ix(O_DECK + j)] == c:
            b[ix(O_DECK + j)] = b[ix(O_DECK + place)]
            b[ix(O_DECK + place)] = c
            return True
    return False


@fn
def private_touch(b):
    """Driven: the current player draws or peeks privately (a normal draw, a mask, a black
    market): what the unit showed face up so far is noted."""
    if b[S_U_PRIVATE] == 0:
        b[S_U_PRIVATE] = 1
        b[S_U_PUBLIC] = b[S_U_D0] - b[S_U_INTACT]


@fn
def hand_shown(b, s):
    """Driven: seat s's hand is shown to everyone (VD-13.2, VD-14.1, VD-19.3)."""
    if (b[S_U_CHANGED] >> s) & 1 == 0:
        b[S_U_SHOWN] |= ONE << s


@fn
def exchange_gift(b, giver, receiver, c):
    """Driven: ``giver``'s exchange card ``c`` goes to ``receiver`` (VD-16.4; both know it)."""
    k = b[S_U_GIFTS]
    if k < MAX_GIFTS:
        b[ix(O_U_GIFT + 3 * k)] = giver
        b[ix(O_U_GIFT + 3 * k + 1)] = receiver
        b[ix(O_U_GIFT + 3 * k + 2)] = c
        b[S_U_GIFTS] = k + 1
