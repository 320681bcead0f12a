"""The faking-sick kernel's state buffer: its layout, the run vector, and the cell addressing.

The whole state of a game in progress is one int64 buffer laid out by ``LAYOUT``
(``LAYOUT.describe()`` lists it), in four parts:

1. the game's constants: the rule parameters (the ``rules.PV`` vector at offset 0, so the
   ``rules.K_*`` offsets index the buffer: ``b[K_PUSH]`` is push_count), each seat's bot
   policy and bot parameters (``sim.kit.kernel_util.bot_param_words``, read with ``bot_param``);
2. the engine state a turn changes (``MUTABLE .. FIXED_STOP``): scalars, hands, the call
   model's public information, this game's result rows and its contributions to the batch
   sums (the batch adds every game's into the same cells; a game driven through the step
   contract starts from zero, so they are that game's alone);
3. the variable-length blocks: the banned pool, the draw pile and the discard pile;
4. the step contract's fields (kernel/__init__.py; ``sim.kit.step.StepFields``, and faking-sick's own): the
   pending decision, the options applied in the current turn and the snapshot of the state at
   that turn's start (``step_turn`` saves it, ``restore_turn`` puts it back, with
   ``sim.kit.kernel_util.save_snapshot`` / ``restore_snapshot``).

The draw pile is ``DRAW .. DRAW + b[ND]`` with its top LAST; the discard pile is
``b[DLO] .. b[DHI]`` bottom -> top inside a block with room for the whole deck below (cards
put at the bottom, FS-7.3/FS-8.2) and above ``DISC_MID``, where each reshuffle restarts it.

``RUN`` is a run's constant input (``run_vector``): the rule parameters and the bots and bot
parameters of each table position, from which ``begin_game`` seats every game.
"""

from __future__ import annotations

import numpy as np

from sim.kit.kernel_util import fn, inl, ix, param_float, restore_snapshot, save_snapshot
from sim.kit.layout import Layout
from sim.kit.lead import LeadFields
from sim.kit.search import SearchFields
from sim.kit.step import BOT_ANSWER as STEP_BOT_ANSWER
from sim.kit.step import StepFields

from .. import tables as T
from ..reference.learned import FEATURES as LEARNED_FEATURES
from ..rules import K_BPP, K_LEN, K_N, MAX_DECK, MAX_PLAYERS, MAX_POOL, MAX_PUSH, NT

# bot parameter columns (order of Game.bot_param_names)
BOT_PARAM_NAMES = ("call_prob", "call_threshold", "call_urgency", "call_win_bonus", "bluff_max", "bluff_k",
                   "budget", "determinizations", "rollout", "objective", "horizon",
                   *("w_" + f for f in LEARNED_FEATURES))  # the learned bot's weights from BP_W0 on
NB = len(BOT_PARAM_NAMES)
(BP_CALL_PROB, BP_TH, BP_URG, BP_WIN, BP_BMAX, BP_BK, BP_BUDGET, BP_WORLDS, BP_ROLLOUT, BP_OBJECTIVE,
 BP_HORIZON, BP_W0) = range(12)

# ---- decisions and their option codes (step contract: ``step_legal``) -------------------------
KINDS = ("turn", "attack", "after_draw", "call", "push")  # reference.KINDS, by kind code
TURN, ATTACK, AFTER_DRAW, CALL, PUSH = (np.int64(k) for k in range(len(KINDS)))
FALLBACK = NT  # the option after the plays of turn / attack / after_draw: DRAW / ACCEPT / END
ALL_TYPES = (1 << NT) - 1
PUSH_BITS = 4  # a push option: the count of type t pushed at bits PUSH_BITS*t (below 2**PUSH_BITS)
PUSH_MASK = (1 << PUSH_BITS) - 1
assert MAX_PUSH < 1 << PUSH_BITS
# decisions of one turn: turn, after-draw, the other players' calls, the push; twice with
# successful_call_turn = play_again (FS-7.3 step 7)
MAX_SCRIPT = 2 * (2 + (MAX_PLAYERS - 1) + 1)
STEP = np.int64(3)  # every seat's policy in a game driven through the step contract (bots.py: 0..2)
PENDING = np.int64(-2)  # a decision's answer when it is the step contract's pending decision
BOT_ANSWER = np.int64(STEP_BOT_ANSWER)  # a script entry: the seat's bot answered this decision (not a driver seat)

# ---- the state buffer ------------------------------------------------------------------------
LAYOUT = Layout("faking-sick game state")
RULES = LAYOUT.block("rules", K_LEN, "the rule parameters (rules.encode): rules.K_* index the buffer")
assert RULES == 0
POLICY = LAYOUT.block("policies", MAX_PLAYERS, "seat s's bot policy (bots.RANDOM ..; STEP when driven)")
BOT_PARAMS = LAYOUT.block("bot_params", MAX_PLAYERS * NB, "seat s's BOT_PARAM_NAMES at s*NB (bot_param_words)")
LFEAT = LAYOUT.block("learned_features", len(LEARNED_FEATURES), "the features of one option (kernel.learned)")
MUTABLE = LAYOUT.size
RNG = LAYOUT.scalar("rng", "generator counter (sim.kit.rng *_at)")
ND = LAYOUT.scalar("draw_size", "cards in the draw pile")
DLO = LAYOUT.scalar("discard_lo", "offset of the discard pile's bottom card")
DHI = LAYOUT.scalar("discard_hi", "one past the discard pile's top card")
BAN = LAYOUT.scalar("ban_owner", "seat whose HEADACHE ban on VIRUS is active, or -1 (FS-5.4)")
ATK = LAYOUT.scalar("attack", "pending attack FEV / SNZ, or -1 (FS-5.2)")
ATK_T = LAYOUT.scalar("attack_target", "seat the attack is pending on, or -1")
TO_MOVE = LAYOUT.scalar("to_move", "the seat whose turn it is (or starts next)")
TURNS = LAYOUT.scalar("turns", "turns started (FS-3.2)")
LIMBO = LAYOUT.scalar("limbo", "the played card while its call window and judgement are open (FS-4.6), or -1")
LIMBO_SEAT = LAYOUT.scalar("limbo_seat", "the seat that played the card in limbo (the learned bot's call features)")
REV_ALL = LAYOUT.scalar("revealed_total", "banned cards revealed so far")
POOL_SIZE = LAYOUT.scalar("pool_size", "cards in the banned pool (FS-2.1)")
REVEALING = LAYOUT.scalar("revealing", "banned-block index (p*k + slot) of the card being revealed "
                          "(FS-7.3 steps 1-4), or -1")
LEAD = LeadFields(LAYOUT, MAX_PLAYERS, "cards held").at  # game feel (sim.kit.lead, tables.py)
HAND = LAYOUT.block("hands", MAX_PLAYERS * NT, "cards of type t in seat p's hand at p*NT + t")
HS = LAYOUT.block("hand_sizes", MAX_PLAYERS, "cards in each seat's hand")
CLEARED = LAYOUT.block("cleared", MAX_PLAYERS * NT, "1 at p*NT + t: a failed call proved t not "
                       "banned for p since p's last replacement (call model)")
REVEALED = LAYOUT.block("revealed", NT, "banned cards of each type revealed so far")
CALLERS = LAYOUT.block("callers", MAX_PLAYERS - 1, "the players calling in a call window, clockwise")
GAME_ROW = LAYOUT.block("game_row", T.NG, "this game's games row (tables.GAME_FIELDS): its counters, and "
                        "the winner (-1 until there is one), win method and turn cap as they are decided")
SEAT_ROWS = LAYOUT.block("seat_rows", MAX_PLAYERS * T.NS, "seat s's seats row at s*NS (tables.SEAT_FIELDS)")
CALL_SUMS = LAYOUT.block("call_sums", NT * MAX_PLAYERS * MAX_PLAYERS * len(T.CALL_SUMS),
                         "calls[t, d, c, k] at ((t*MAX_PLAYERS + d)*MAX_PLAYERS + c)*2 + k (tables.py)")
PLAY_SUMS = LAYOUT.block("play_sums", NT * MAX_PLAYERS * T.NP, "plays[t, s, k] at (t*MAX_PLAYERS + s)*NP + k")
CALL_MASKS = LAYOUT.block("call_masks", (1 << NT) * NT, "judged calls by (the challenged player's banned-type "
                          "mask m, played type t) at m*NT + t (expanded by add_banned_calls)")
FIXED_STOP = LAYOUT.size
SUMS = CALL_SUMS  # the batch sums: call_sums .. call_masks, up to FIXED_STOP
assert LAYOUT["call_masks"].stop == FIXED_STOP
BANNED = LAYOUT.block("banned", MAX_POOL, "the shuffled banned pool: seat p's slot i at p*k + i "
                      "(k = banned_per_player; -1 = empty), then the unused pool")
DRAW = LAYOUT.block("draw_pile", MAX_DECK, "draw pile, bottom -> top")
DISC = LAYOUT.block("discard_pile", 2 * MAX_DECK + 1, "discard pile within, restarted at DISC_MID")
DISC_MID = DISC + MAX_DECK
# The step contract (kernel/__init__.py, sim.kit.step.StepFields): a game driven from outside replays its
# current turn from the snapshot taken at the turn's start, the options applied in the turn
# answering its decisions.
STEP_FIELDS = StepFields(LAYOUT)
STEPPED, STOP, DRIVER, PSEAT, PKIND, APPLIED = STEP_FIELDS.scalars
# faking-sick's own step scalars:
TURN_DEC = LAYOUT.scalar("turn_decisions", "decisions asked before the current turn (the script is this turn's)")
SNAP_TURNS = LAYOUT.scalar("snapshot_turns", "turns started at the snapshot (-1: none yet)")
DRIVEN = LAYOUT.scalar("driver_option", "the step driver's option of the decision being asked, or PENDING")
SEARCH_FIELDS = SearchFields(LAYOUT)  # the search's fields (sim.kit.search)
SEARCH_SEATS, SEEING_SEATS, WEIGHTED_SEATS, ROLLOUT_END = SEARCH_FIELDS.scalars
STEP_POLICY, SCRIPT, SNAP = STEP_FIELDS.blocks(
    MAX_PLAYERS, MAX_SCRIPT, FIXED_STOP - MUTABLE + MAX_POOL + MAX_DECK,
    "the state at the current turn's start: MUTABLE .. FIXED_STOP, the banned pool, the draw pile and "
    "the discard pile (bottom -> top) one after the other")
SIZE = LAYOUT.size

# ---- one run's constant inputs (``run_vector``) ----------------------------------------------
RUN = Layout("faking-sick run")
R_RULES = RUN.block("rules", K_LEN, "rules.encode")
assert R_RULES == 0
R_POL = RUN.block("table_policies", MAX_PLAYERS, "policy of table position j (Game.bot_matrix)")
R_BP = RUN.block("table_bot_params", MAX_PLAYERS * NB, "BOT_PARAM_NAMES of table position j at j*NB (bot_param_words)")

# ---- result columns (tables.py) --------------------------------------------------------------
G_WINNER, G_TURNS, G_METHOD, G_CAP = (T.G[k] for k in ("winner", "turns", "win_method", "turn_cap"))
(G_PLAYS, G_BLUFFS, G_CAUGHT, G_REQ, G_MADE, G_SUCC, G_FAIL, G_PUSHED, G_REVEALS, G_DUP, G_SKIP,
 G_RESHUF, G_DRAWS, G_PEN, G_DRAWN, G_ATK, G_CTRD, G_ACC, G_HDA, G_VBLOCK, G_VOID, G_DECISIONS) = (
    T.G[k] for k in T.GAME_STATS)
S_FINAL = T.S["final_hand"]
(S_PLAYS, S_BLUFFS, S_CAUGHT, S_REQ, S_MADE, S_CORRECT, S_CALLED, S_PUSHED, S_RECV, S_DRAWN,
 S_DRAWS, S_SUFFER) = (T.S[k] for k in T.SEAT_STATS)
P_PLAYS, P_BLUFFS, P_CALLED, P_CAUGHT = (T.P[k] for k in T.PLAY_SUMS)
S_INITIAL_BANNED0, S_FINAL_BANNED0 = T.S_INITIAL_BANNED0, T.S_FINAL_BANNED0
G_LEAD_CHANGES, G_LEAD_FROM, G_WIN_BEHIND = (T.G[k] for k in T.GAME_FEEL)
S_BEHIND = T.S["max_behind"]
BANNED_COL = np.array(T.BANNED_COL, dtype=np.int64)
C_CALLS, C_SUCCESSES = (T.C[k] for k in T.CALL_SUMS)
PLAY_OUT, PUSH_OUT = T.WIN_METHODS.index("play_out"), T.WIN_METHODS.index("push_out")
NS, NP, NC = T.NS, T.NP, len(T.CALL_SUMS)


# ---- buffer addressing -----------------------------------------------------------------------
@inl
def hand_at(p, t):
    return ix(HAND + p * NT + t)


@inl
def size_at(p):
    return ix(HS + p)


@inl
def slot_at(b, p, i):
    return ix(BANNED + p * b[K_BPP] + i)


@inl
def cleared_at(p, t):
    return ix(CLEARED + p * NT + t)


@inl
def game_col(c):
    """Column ``c`` of this game's games row."""
    return GAME_ROW + c


@inl
def seat_col(p, c):
    """Column ``c`` of seat p's seats row."""
    return ix(SEAT_ROWS + p * NS + c)


@inl
def play_sum(t, p, c):
    """``plays[t, p, c]``."""
    return ix(PLAY_SUMS + (t * MAX_PLAYERS + p) * NP + c)


@inl
def call_sum(t, d, caller, c):
    """``calls[t, d, caller, c]``."""
    return ix(CALL_SUMS + ((t * MAX_PLAYERS + d) * MAX_PLAYERS + caller) * NC + c)


@inl
def call_mask(m, t):
    """Judged calls with banned-type mask ``m`` on played type ``t``."""
    return ix(CALL_MASKS + m * NT + t)


@inl
def bot_param(b, p, k):
    """Seat p's bot parameter ``k`` (BP_*), a float (``sim.kit.kernel_util.bot_param_words``)."""
    return param_float(b[ix(BOT_PARAMS + p * NB + k)])


@inl
def next_seat(b, p):
    return p + 1 if p + 1 < b[K_N] else 0


@inl
def top(b):
    return b[ix(b[DHI] - 1)] if b[DHI] > b[DLO] else -1


# ---- the turn snapshot (step contract, kernel/__init__.py) --------------------------------------------
@fn
def step_turn(b):
    """A new turn of a driven game: no options applied in it yet; while the driver answers,
    the state at its start is saved (``snapshot``)."""
    b[APPLIED] = 0
    b[TURN_DEC] = b[game_col(G_DECISIONS)]
    b[SNAP_TURNS] = b[TURNS]
    if b[STOP]:
        k = save_snapshot(b, SNAP, MUTABLE, FIXED_STOP - MUTABLE)
        k = save_snapshot(b, k, BANNED, b[POOL_SIZE])
        k = save_snapshot(b, k, DRAW, b[ND])
        save_snapshot(b, k, b[DLO], b[DHI] - b[DLO])


@fn
def restore_turn(b):
    """The state at the current turn's start back from the snapshot."""
    k = restore_snapshot(b, SNAP, MUTABLE, FIXED_STOP - MUTABLE)  # pool size and pile bounds first
    k = restore_snapshot(b, k, BANNED, b[POOL_SIZE])
    k = restore_snapshot(b, k, DRAW, b[ND])
    restore_snapshot(b, k, b[DLO], b[DHI] - b[DLO])
