"""Fast engine, the game state and its queries: the one buffer a game lives in (``LAYOUT``), the
§4.0 predicate ``applies`` and the rule predicates the other parts and the bots ask. The
reference engine's twin: ``reference/state.py``.

The buffer ``b`` (int64, ``SIZE`` slots) holds, field by field as ``LAYOUT`` declares them
(``LAYOUT.describe()`` lists them):

- the engine state, zeroed at the start of every game: the top play, the trick and round
  state, hands and other card zones as 54-bit masks (card id = 4*rank + suit, jokers 52/53),
  placements, points, this round's counters (one slot per ``tables.ROUND_COLS`` column), the
  rule deck, the precept draft record, game-feel folds and the generator's counter (``RNG``);
- the game's result rows (``tables.GAME_ROW``, ``ROUND_ROW`` per round, ``SEAT_ROW`` per seat);
- the run's constants, seated per game by ``driver.begin_game``: players, the rule parameters
  (``rules.param_vector``), the rule deck before its shuffle, each seat's bot policy and bot
  parameters (``sim.kit.kernel_util.bot_param_words``, read with ``bot_param``);
- scratch: the move table (``MOVE`` rows, ``movegen``), the deck and seat orders.

A move-table row is read with ``mv(b, m, column)``; a bot parameter with ``bot_param(b, seat,
B_...)``; a rule parameter is ``b[PV + R.P_...]``; a rule card is named ``R.C19_JBACK``.
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import fn, inl, ix, param_float
from sim.kit.layout import Layout
from sim.kit.search import SearchFields
from sim.kit.step import BOT_ANSWER as STEP_BOT_ANSWER
from sim.kit.step import StepFields

from .. import rules as R
from .. import tables as T
from ..reference.bots import BOT_PARAM_NAMES
from ..reference.learned import FEATURES as LEARNED_FEATURES

MAX_MOVES = 1024  # rows of the move table (legal plays of one decision)
NB = len(BOT_PARAM_NAMES)

LAYOUT = Layout("daifugo game")
# ---- engine state (zeroed at the start of every game) -------------------------------------------
# the top play (cleared together at a flow and a new round)
TK, TC, TL, TH, TS, TO, TM, TN, TJ = LAYOUT.scalars(
    "top_kind", "top_count", "top_low", "top_high", "top_suits", "top_owner", "top_mask",
    "top_ranks", "top_wild_ranks")
# trick and round state (cleared at a new round); card sets are 54-bit masks
REV, JB, SL, NL, GK, HUNT, HUNT_DONE, PASSED, FIELD, DISC, UNDEALT, REMOVED = LAYOUT.scalars(
    "rev", "jback", "suit_lock", "num_lock", "geki_counted", "hunt", "hunt_done", "passed", "field", "discard",
    "undealt", "removed")
TURN, NTOP, NBOT, ROUND, KING, START, TOTAL, LAWS, DECK_PTR, DECK_LEN, DECISIONS = LAYOUT.scalars(
    "turn", "n_top", "n_bottom", "round", "king", "start_player", "total_plays", "laws", "rule_deck_ptr",
    "rule_deck_len", "decisions")
RNG = LAYOUT.scalar("rng", "the game's SplitMix64 counter (sim.kit.rng, the uint64's bits)")
# the top play a play was made on (``resolve.make_play`` keeps it for the steps after S1)
PK, PC, PL, PH, PS, PM = LAYOUT.scalars("prev_kind", "prev_count", "prev_low", "prev_high", "prev_suits", "prev_mask")
H0 = LAYOUT.block("hands", R.MAX_PLAYERS, "card mask per seat")
A0 = LAYOUT.block("active", R.MAX_PLAYERS, "1 while the seat holds cards in the round")
TOP0 = LAYOUT.block("top_list", R.MAX_PLAYERS, "seats placed from 1st down")
BOT0 = LAYOUT.block("bottom_list", R.MAX_PLAYERS, "seats placed at the bottom, last = lowest")
OWN0 = LAYOUT.block("owner", R.N_RULE_CARDS + 1, "precept owner per rule card id (-1 none; 0 unused)")
RP0 = LAYOUT.block("rank_points", R.MAX_PLAYERS)
BP0 = LAYOUT.block("bonus_points", R.MAX_PLAYERS)
VP0 = LAYOUT.block("precept_points", R.MAX_PLAYERS)
REVS0 = LAYOUT.block("revolutions_by_seat", R.MAX_PLAYERS)
FF0 = LAYOUT.block("forbidden_by_seat", R.MAX_PLAYERS)
PREV0 = LAYOUT.block("prev_ranking", R.MAX_PLAYERS, "previous round's ranking, 1st first")
RS0 = LAYOUT.block("round_stats", T.R_FIXED, "this round's counters, tables.ROUND_COLS order")
RB0 = LAYOUT.block("round_bonus", R.MAX_PLAYERS, "capital-fall bonus per seat this round")
DECK0 = LAYOUT.block("rule_deck", R.N_RULE_CARDS, "the shuffled rule deck")
REVEAL0 = LAYOUT.block("revealed", R.MAX_PLAYERS, "precepts revealed for the draft")
NREV = LAYOUT.scalar("n_revealed", "precepts still on offer in the draft")
FIRSTS0 = LAYOUT.block("firsts", R.MAX_PLAYERS, "rounds won per seat")
FINAL0 = LAYOUT.block("final_points", R.MAX_PLAYERS)
WIN0 = LAYOUT.block("win", R.MAX_PLAYERS, "1 for a (shared) winner")
# the precept draft record (games.pick_NN, games.pick_round_NN)
PICK0 = LAYOUT.block("pick", R.N_RULE_CARDS + 1, "pick position of each rule card in its round's draft (0 none)")
PICKR0 = LAYOUT.block("pick_round", R.N_RULE_CARDS + 1, "round each rule card was drafted (0 none)")
# cards 05 and 12 (post-exchange effects)
T5DONE = LAYOUT.scalar("trickster_done", "card 05 has resolved: 54 cards from now on")
GIFT0 = LAYOUT.block("collusion_gift", R.MAX_PLAYERS, "card 12 law: the card each commoner gives, in order")
AF_CLAIM = LAYOUT.scalar("af_claim", "card 13: seat whose armed-force win is pending (-1 none)")
# card 01: seats that recycled this round (mask); the W-flow / W-trim window opens before the next turn
RC_USED, RC_PENDING = LAYOUT.scalars("recycle_used", "recycle_pending")
# game feel (games.lead_changes ...): the standings after each round, folded in as they come
FEEL_LEADER = LAYOUT.scalar("feel_leader", "last sole leader + 1 (0 none)")
FEEL_CHANGES = LAYOUT.scalar("lead_changes")
NOTSOLE0 = LAYOUT.block("feel_not_sole", R.MAX_PLAYERS, "last round after which the seat was not sole leader (0 none)")
BEHIND0 = LAYOUT.block("feel_behind", R.MAX_PLAYERS, "largest deficit of the seat to the top score so far")
WORST0 = LAYOUT.block("feel_worst", R.MAX_PLAYERS, "worst standing place of the seat so far")
# where ``driver.play_game`` goes on from: a round's setup or its turns
IN_ROUND = LAYOUT.scalar("in_round", "1 from a round's setup to its scoring")
UNIT = LAYOUT.scalar("unit", "a driven game's units begun (round setups, passes of the turn loop; kernel/step.py)")
STATE_SIZE = LAYOUT.size  # the engine state is [0, STATE_SIZE)
# ---- the game's result rows (tables.py; zeroed at the start of every game) ----------------------
O_GROW = LAYOUT.block("game_row", T.GAME_ROW.size, "tables.GAME_ROW")
O_RROWS = LAYOUT.block("round_rows", R.MAX_ROUNDS * T.ROUND_ROW.size, "round k's tables.ROUND_ROW at k * its size")
O_SROWS = LAYOUT.block("seat_rows", R.MAX_PLAYERS * T.SEAT_ROW.size, "seat q's tables.SEAT_ROW at q * its size")
ROWS_STOP = LAYOUT.size
# ---- the run's constants, seated per game (driver.begin_game) -----------------------------------
NP = LAYOUT.scalar("players", "seats at the table")
PV = LAYOUT.block("params", R.N_PARAMS, "the rule parameters (rules.param_vector, P_* indices)")
RDECK_LEN = LAYOUT.scalar("rule_deck_size", "rule cards in the deck before the shuffle")
RDECK0 = LAYOUT.block("rule_deck_in", R.N_RULE_CARDS, "rules.rule_deck: the rule deck before the shuffle, ascending")
POL0 = LAYOUT.block("policies", R.MAX_PLAYERS, "seat q's bot policy (bots.RANDOM, ...)")
BP_0 = LAYOUT.block("bot_params", R.MAX_PLAYERS * NB, "seat q's bot parameters (bot_param_words) at q * NB")
# ---- scratch (written before it is read) --------------------------------------------------------
MOVE = Layout("daifugo move row")
MK, MC, ML, MH, MSU, MMASK, MNR, MJR, MJK = MOVE.scalars(
    "kind", "count", "low", "high", "suits", "mask", "natural_ranks", "wild_ranks", "jokers")
MFU = MOVE.scalar("fusion", "card 02: 1 for a fusion (the row holds the added cards)")
MOVE_COLS = MOVE.size
MV0 = LAYOUT.block("moves", MAX_MOVES * MOVE_COLS, "the move table: legal play m at m * MOVE_COLS (MOVE)")
DECK_0 = LAYOUT.block("deck", R.N_CARD_IDS, "card ids shuffled for the deal")
ORDER0 = LAYOUT.block("order", max(R.N_RULE_CARDS, R.MAX_PLAYERS), "rule deck shuffle, seat orders")
LFEAT = LAYOUT.block("learned_features", len(LEARNED_FEATURES), "the features of one play option (kernel/learned.py)")
# ---- the step contract (kernel/step.py, kernel/driven.py): a game driven from outside -----------
(K_DRAFT, K_GIVE, K_KING_GIVE, K_COLLUDE, K_COLLUSION, K_COLLUSION_GIVE, K_COLLUSION_RETURN, K_TRIM, K_START,
 K_PLAY, K_REVOLT, K_PULL_BACK, K_TEN_DISCARD, K_FLUX, K_RECYCLE, K_LOOPHOLE, K_DOBON) = range(len(R.DECISION_KINDS))
MAX_SCRIPT = 256  # options applied in one unit (a round's setup or one pass of the turn loop)
MAX_LISTED = 64  # options of a decision that lists them (cards, seats, rule cards)
STEP_FIELDS = StepFields(LAYOUT, options=MAX_LISTED)  # the fields every game has (sim.kit.step)
DRIVEN, STOP, DRIVER, PSEAT, PKIND, APPLIED, PN = STEP_FIELDS.scalars
# daifugo's own step scalars: where a replayed unit is, and the pending decision beyond a list
CAPTURED = LAYOUT.scalar("captured", "1 once the pending decision is described and its state kept (driven.capture)")
SEEN = LAYOUT.scalar("seen", "the applied options the unit played again has answered so far")
SNAP_UNIT = LAYOUT.scalar("snapshot_unit", "the unit whose start the snapshot holds (0: none yet)")
PPASS = LAYOUT.scalar("pending_may_pass", "a pending play: 1 when the pass (-1) is an option (pending_count: the "
                      "move-table rows)")
PCARDS = LAYOUT.scalar("pending_cards", "a pending trim, pull-back or ten discard: the card mask chosen from")
PLO, PHI, PSTEP = LAYOUT.scalars("pending_smallest", "pending_largest", "pending_size_step")  # its sizes
# a search rollout ends when the round is scored (``round_rollout`` 1) or before the turn-loop unit
# after ``rollout_end`` (one of the search's fields, sim.kit.search.SearchFields)
ROUND_ROLLOUT = LAYOUT.scalar("round_rollout", "1: a search rollout ends when the round is scored "
                              "(kernel/search.rollout)")
SEARCH_FIELDS = SearchFields(LAYOUT)
SEARCH_SEATS, SEEING_SEATS, WEIGHTED_SEATS, ROLLOUT_END = SEARCH_FIELDS.scalars
BOT_ANSWER = np.int64(STEP_BOT_ANSWER)  # an option applied from outside: the seat's own bot answers
# no step_policies: a driven game's seats keep their bots' policies, ``driver_seats`` tells the driver's
POPT, SCRIPT, SNAP, DSNAP = STEP_FIELDS.blocks(
    0, MAX_SCRIPT, STATE_SIZE, "the engine state at the current unit's start (step_apply goes on from it)",
    STATE_SIZE, "0 .. STATE_SIZE")
SIZE = LAYOUT.size


def round_counter(name: str) -> int:
    """The slot of this round's counter of ``tables.ROUND_COLS`` column ``name``."""
    return RS0 + T.ROUND_COLS.index(name)


_COUNTERS = ("law", "king", "start_player", "king_kept", "capital_falls", "revolutions", "jbacks", "eight_cuts",
             "suit_locks", "number_locks", "geki", "forbidden", "tricks", "plays", "passes", "trimmed", "guard_hit",
             "slip_throughs", "equal_plays", "three_returns", "three_threes", "magician_hunts", "forced_jokers",
             "pull_backs", "pulled_cards", "ten_discards", "ten_discarded", "substitutions", "exiled_revolutions",
             "free_gifts", "second_joker", "collusion_swaps", "collusion_takes", "af_claims", "af_fizzles",
             "af_promotions", "af_promotions_from_bottom", "af_capital_falls", "flux_swaps", "fusions",
             "counter_revolutions", "taboo_breaks", "recycles", "loopholes", "dobons")
assert sorted(_COUNTERS) == sorted(T.ROUND_COLS)  # one counter per column
(RC_LAW, RC_KING, RC_START, RC_KEPT, RC_CAPITAL_FALLS, RC_REVOLUTIONS, RC_JBACKS, RC_EIGHT_CUTS, RC_SUIT_LOCKS,
 RC_NUMBER_LOCKS, RC_GEKI, RC_FORBIDDEN, RC_TRICKS, RC_PLAYS, RC_PASSES, RC_TRIMMED, RC_GUARD_HIT, RC_SLIPS,
 RC_EQUAL_PLAYS, RC_THREE_RETURNS, RC_THREE_THREES, RC_HUNTS, RC_FORCED_JOKERS, RC_PULL_BACKS, RC_PULLED,
 RC_TEN_DISCARDS, RC_TEN_DISCARDED, RC_SUBSTITUTIONS, RC_EXILED, RC_FREE_GIFTS, RC_SECOND_JOKER,
 RC_COLLUSION_SWAPS, RC_COLLUSION_TAKES, RC_AF_CLAIMS, RC_AF_FIZZLES, RC_AF_PROMOTIONS, RC_AF_FROM_BOTTOM,
 RC_AF_CAPITAL_FALLS, RC_FLUX_SWAPS, RC_FUSIONS, RC_COUNTER_REVOLUTIONS, RC_TABOO_BREAKS, RC_RECYCLES,
 RC_LOOPHOLES, RC_DOBONS) = (round_counter(c) for c in _COUNTERS)

# bot parameter columns by name (the plug-in's bot_param_names order)
(B_REVOLT_BELOW, B_PASS_CONTROL_ABOVE, B_BOSS_HAND, B_PULLBACK_MARGIN, B_DRAFT_CARD, B_DRAFT_VP, B_DRAFT_FIT,
 B_FLUX_MARGIN, B_RECYCLE_HAND) = (BOT_PARAM_NAMES.index(k) for k in (
    "revolt_below", "pass_control_above", "boss_hand", "pullback_margin", "draft_card_weight",
    "draft_vp_weight", "draft_fit_weight", "flux_margin", "recycle_hand"))
BP_BUDGET, BP_WORLDS, BP_ROLLOUT, BP_OBJECTIVE, BP_HORIZON = (BOT_PARAM_NAMES.index(k) for k in (
    "budget", "determinizations", "rollout", "objective", "horizon"))  # the search bot's (sim.kit.search_params)

NONE = -1
SETK, STAIRS, JOKERK = 0, 1, 2  # plays.SET, STAIRS, JOKER_SINGLE
JOKER_BITS = np.int64(3) << np.int64(52)
M1, M2, M4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F


# ---- buffer access --------------------------------------------------------------------------------
@inl
def mv(b, m, col):
    """Column ``col`` of move-table row ``m``."""
    return b[ix(MV0 + m * MOVE_COLS + col)]


@inl
def policy(b, q):
    """Seat q's bot policy (bots.RANDOM, GREEDY, STRATEGIST)."""
    return b[ix(POL0 + q)]


@inl
def bot_param(b, q, col):
    """Seat q's bot parameter ``col`` (B_*), a float."""
    return param_float(b[ix(BP_0 + q * NB + col)])


@inl
def bit(c):
    return np.int64(1) << np.int64(c)


@inl
def popcount(x):
    """SWAR popcount of a non-negative int64."""
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@fn
def nth_card(mask, idx):
    """The idx-th card (ascending ids) of a mask; -1 if there are fewer cards."""
    for r in range(14):
        nib = (mask >> (4 * r)) & 15
        c = popcount(nib)
        if idx >= c:
            idx -= c
            continue
        for s in range(4):
            if (nib >> s) & 1:
                if idx == 0:
                    return 4 * r + s
                idx -= 1
    return -1


# ---- the state's queries --------------------------------------------------------------------------
@inl
def strength(r, rv):
    return 12 - r if rv else r


@inl
def reversed_(b):
    """§3.2 / DEC-25: effective reversal R = rev XOR jback."""
    return b[REV] != b[JB]


@inl
def applies(b, c, p):
    """§4.0 A(c, p): c is a law, or a precept owned by p."""
    return ((b[LAWS] >> c) & 1) == 1 or b[ix(OWN0 + c)] == p


@inl
def taboo(b, p):
    """Card 04 lifts the forbidden finish for p (§4.4): its precept held by p, or its law, which
    under ``taboo_law_scope = commoners`` spares not the reigning king (DEC-54)."""
    if b[ix(OWN0 + R.C04_TABOO)] == p:
        return True
    return ((b[LAWS] >> R.C04_TABOO) & 1) == 1 and not (b[PV + R.P_TABOO_COMMONERS] == 1 and b[KING] == p)


@inl
def holder(b, c, p):
    """Precept-only privileges (§4.0): p holds c as a precept."""
    return b[ix(OWN0 + c)] == p and ((b[LAWS] >> c) & 1) == 0


@inl
def in_play(b, c):
    """Card c is a law or somebody's precept (its windows are open to someone)."""
    return ((b[LAWS] >> c) & 1) == 1 or b[ix(OWN0 + c)] >= 0


@inl
def n_active(b, n):
    k = 0
    for q in range(n):
        k += b[ix(A0 + q)]
    return k


@inl
def next_active(b, n, seat):
    """Next seat clockwise after ``seat`` whose player still holds cards (-1 if none)."""
    for i in range(1, n + 1):
        q = (seat + i) % n
        if b[ix(A0 + q)]:
            return q
    return -1


@inl
def mvalue(kind, low, high, rv):
    """``plays.value``: a play's strength under the order ``rv`` (the Joker single 13)."""
    if kind == JOKERK:
        return 13
    if kind == STAIRS and rv:
        return 12 - high
    return strength(low, rv)


@inl
def one_step(kind, low, high, tkind, tlow, thigh, rv):
    """``plays.one_step``: exactly one rank stronger than the top play (§4.15)."""
    if kind != tkind or kind == JOKERK:
        return False
    if kind == STAIRS:
        return high == tlow - 1 if rv else low == thigh + 1
    return mvalue(kind, low, high, rv) == mvalue(tkind, tlow, thigh, rv) + 1


@inl
def contains_rank(nr, jr, rank, wild):
    """DEC-24: represented rank, wild jokers included when ``wild`` (rank masks nr, jr)."""
    return ((nr >> rank) & 1) == 1 or (wild and ((jr >> rank) & 1) == 1)


@inl
def rank_count(kind, count, low, nr, jr, nj, rank, wild):
    """Cards of a play that represent ``rank`` (DEC-24: wild jokers when they trigger effects)."""
    if kind == SETK:
        if low != rank:
            return 0
        return count if wild else count - nj
    if kind == STAIRS:
        return ((nr >> rank) & 1) + (1 if wild and (jr >> rank) & 1 else 0)
    return 0


@inl
def exile_restricts(b, p):
    """§4.0 / §4.17: card 17 restricts p as a law, or as a precept of another player."""
    own = b[ix(OWN0 + R.C17_EXILE)]
    return ((b[LAWS] >> R.C17_EXILE) & 1) == 1 or (own >= 0 and own != p)


@inl
def revolution_size(b, p, kind, count):
    """§3.5: 4-card sets, stairs of 4+, and 3-card sets/stairs where card 07 applies (§4.7)."""
    if kind == JOKERK:
        return False
    if count >= 4:
        return True
    return count == 3 and applies(b, R.C07_THREE_REV, p)


@inl
def move_revolts(b, m, p):
    """Whether move m would toggle ``rev`` when p plays it (§3.5, card 17 included; a fusion always)."""
    if mv(b, m, MFU):
        return True
    if not revolution_size(b, p, mv(b, m, MK), mv(b, m, MC)):
        return False
    return mv(b, m, MJK) == 0 or not exile_restricts(b, p)


@inl
def is_hunt_trigger(b, p, kind, count, nr, jr, wild):
    """§4.11: a single of represented rank Q (DEC-24 for a wild joker) by a player 11 applies to."""
    return kind == SETK and count == 1 and contains_rank(nr, jr, R.RQ, wild) and applies(b, R.C11_HUNT, p)


@inl
def is_three_return(b, p, kind, count, low, tk):
    """§4.22: a single of represented rank 3 onto a Joker single."""
    return tk == JOKERK and kind == SETK and count == 1 and low == R.R3 and applies(b, R.C22_THREE_RETURN, p)


@inl
def is_three_threes(b, p, kind, count, low):
    """§4.23: exactly three cards of represented rank 3 (jokers wild, QA-23.2)."""
    return kind == SETK and count == 3 and low == R.R3 and applies(b, R.C23_WISDOM, p)


@inl
def is_forbidden(b, p, m, tk, r_before, rev_before, revolted):
    """§3.7 / DEC-27 for move m played onto a top play of kind tk: a joker; the currently
    strongest rank; a rank effect applying to p; (DEC-26) a revolution."""
    if mv(b, m, MJK) > 0:
        return True
    nr, jr = mv(b, m, MNR), mv(b, m, MJR)
    strong_rev = r_before if b[PV + R.P_STRONG_EFF] else rev_before
    if contains_rank(nr, jr, R.R3 if strong_rev else R.R2, True):
        return True
    wild = b[PV + R.P_WILD_EFFECTS] == 1
    if b[PV + R.P_FF_09] and applies(b, R.C09_EIGHT_CUT, p) and contains_rank(nr, jr, R.R8, wild):
        return True
    if b[PV + R.P_FF_19] and applies(b, R.C19_JBACK, p) and contains_rank(nr, jr, R.RJ, wild):
        return True
    if b[PV + R.P_FF_03] and applies(b, R.C03_TEN_DISCARD, p) and contains_rank(nr, jr, R.R10, wild):
        return True
    if b[PV + R.P_FF_10] and applies(b, R.C10_PULL_BACK, p) and contains_rank(nr, jr, R.RK, wild):
        return True
    kind, count = mv(b, m, MK), mv(b, m, MC)
    if b[PV + R.P_FF_11] and mv(b, m, MFU) == 0 and is_hunt_trigger(b, p, kind, count, nr, jr, wild):
        return True
    if b[PV + R.P_FF_22] and is_three_return(b, p, kind, count, mv(b, m, ML), tk):
        return True
    if b[PV + R.P_FF_23] and mv(b, m, MFU) == 0 and is_three_threes(b, p, kind, count, mv(b, m, ML)):
        return True
    return b[PV + R.P_REV_FF] == 1 and revolted


@inl
def finish_forbidden(b, p, m, tk, r_before, rev_before, revolted):
    """Finishing with move m is forbidden for p: §3.7 unless card 04 applies (§4.4)."""
    return not taboo(b, p) and is_forbidden(b, p, m, tk, r_before, rev_before, revolted)


@inl
def forbidden_finish_cards(b, p):
    """DEC-50: the mask of cards p could lead alone now only as a forbidden finish (§3.7: a
    joker, the strongest rank, the ranks of the effect cards that apply to p; under card 20
    an A, 2 or 3 only if its J, Q or K lead is forbidden too); 0 when card 04 applies to p
    (``forbidden_finish_card`` of the reference, as one mask)."""
    if taboo(b, p):
        return np.int64(0)
    strong_rev = reversed_(b) if b[PV + R.P_STRONG_EFF] else b[REV] == 1
    fr = bit(R.R3 if strong_rev else R.R2)  # ranks whose lead is forbidden
    if b[PV + R.P_FF_09] and applies(b, R.C09_EIGHT_CUT, p):
        fr |= bit(R.R8)
    if b[PV + R.P_FF_19] and applies(b, R.C19_JBACK, p):
        fr |= bit(R.RJ)
    if b[PV + R.P_FF_03] and applies(b, R.C03_TEN_DISCARD, p):
        fr |= bit(R.R10)
    if b[PV + R.P_FF_10] and applies(b, R.C10_PULL_BACK, p):
        fr |= bit(R.RK)
    if b[PV + R.P_FF_11] and applies(b, R.C11_HUNT, p):
        fr |= bit(R.RQ)
    if applies(b, R.C20_DESCENT, p):  # an A, 2, 3 may also be led as J, Q, K
        if not (fr >> R.RJ) & 1:
            fr &= ~bit(R.RA)
        if not (fr >> R.RQ) & 1:
            fr &= ~bit(R.R2)
        if not (fr >> R.RK) & 1:
            fr &= ~bit(R.R3)
    mask = JOKER_BITS
    for r in range(13):
        if (fr >> r) & 1:
            mask |= np.int64(15) << np.int64(4 * r)
    return mask
