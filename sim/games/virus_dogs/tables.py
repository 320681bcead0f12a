"""Result tables of virus-dogs (Metrics M-1..M-3) and their construction from integer matrices.

Both engines fill the same raw layout: column-major int32 matrices, one column per game
(``GAME_COLS``) and one per seat per game (``SEAT_COLS``), and the int64 per-turn sum matrix
(``DENSITY_COLS``, row = turn index; the last row, ``TURN_ROWS - 1``, also holds every later
turn, as ``max_turns`` may exceed it). ``build`` turns them into DataFrames (int32 metric
columns, int64 keys and sums, bool flags), so the two engines produce identical frames
whenever their raw numbers agree.

``decisions`` (games table) counts the decisions players were asked for in the game: every
time the rules give a player a choice among the legal options (reference engine:
``Engine.ask``), including those with a single legal option, which are taken without
consulting the player. They are: an action in phase A or C (one per card played or
declaration made, plus the final draw mode or turn end), whether to draw another card, a
privately drawn virus (antiseptic / declare / hide), a mask take, a black-market take, a
cough (refuse with TP, asked only of a TP holder), a face-up cough virus (antiseptic, asked
only with ANT held and ``antiseptic_on_cough``), the card given in an exchange (asked of each
live player holding a card), refusing an exchange card (asked only of a TP holder whose
giver gave a card) and a hard-quarantine target (with ``hq_target = choice``, when some
player has cards). A further draw that cannot happen (``draw_max`` reached, empty deck) is
not asked and not counted.

Seat columns of M-1 and M-3 (``seats`` table):

- ``elim_open``, ``elim_hidden``, ``elim_treatment``: the eliminated seat's ``O``, ``HV``
  and ``T`` at its elimination, before its cards leave (M-1); -1 for a seat never eliminated.
- ``mask_peek_virus``: masks whose peek held a virus; ``mask_virus_avoided``: viruses seen
  in a mask peek and not taken.
- ``market_viruses_seen``: viruses among the cards a black market showed;
  ``market_forced_virus``: black markets that showed only viruses (a virus had to be taken).
- ``ant_normal``, ``ant_mask``, ``ant_market``, ``ant_cough``: antiseptics used on a virus
  drawn by that kind of draw event (their sum per game is the games column ``antiseptics``).
- ``bat_normal``, ``bat_mask``, ``bat_market``, ``bat_cough``: bats the seat drew, by kind
  of draw event (their sum per game is the games column ``bats``).
- ``doctors_wasted``: treatment progress (``T``) the seat lost without a cure, to an
  ambulance (anyone's) or to its elimination.
- ``amb_cured_own``, ``amb_cured_others``: open viruses the seat's ambulances (played or
  reactive) sent under the deck, its own and the other players'.
- ``first_card``: the code (``rules.CODES``) of the first card the seat drew from the deck, by
  any draw event (normal, mask, black-market or cough draw; in practice a normal or cough draw,
  the top card, which nobody chose); -1 for a seat that never drew. No hands are dealt (VD-3.3),
  so this is the seat's starting card: what the deck's shuffle dealt it, whoever plays the seat
  (the card power of ``analysis/games/virus_dogs.py``). No seat's view holds it
  (``kernel.search``).

Game feel (docs/rules/virus-dogs.md, "Game feel measures"): a live seat's danger is the
viruses it carries, ``O + HV``; the leader is the one live seat carrying strictly the fewest
(a tie: no leader), observed at the end of every turn (turn index ``turns - 1`` as in
``elim_turn``) and at the game's end (the index of the last turn, or ``turns`` after hard
quarantine, again as ``elim_turn``). games: ``lead_changes`` (times the leader became another
seat than the previous leader), ``leader_from_turn`` (the turn index from whose observation on
the single winner was the leader at every observation; -1 unless ``n_winners = 1``),
``winner_max_behind`` (the single winner's largest excess of viruses over the fewest carried
by a live seat, -1 unless ``n_winners = 1``). seats: ``max_behind`` (the same excess of the
seat, over the observations while it was live). How long an eliminated seat waits is not a
column: ``max(0, turns - 1 - elim_turn)`` turns are played after the one in which it fell (0
for a seat that fell in the last turn or in hard quarantine, whose ``elim_turn`` is ``turns``).

Draw-event series (M-2): after every draw event (a card leaving the deck for a player: normal,
mask, black-market or cough draw; before that card is resolved) the deck size and the viruses
in it are summed into two sum tables with the same columns (``DRAW_COLS``): ``draw_density``
by the draw event's index in the game (0-based; the last row, ``DRAW_ROWS - 1``, also holds
every later draw) and ``deck_density`` by ``deck_used_pct``, the share of the starting deck
consumed, ``max(0, start - deck) / start`` in 5% buckets (the bucket's lower bound: 0, 5,
..., 100; 100 is an empty deck, where the density is undefined).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.games.base import SEAT_KEYS, Table, seat_keys

GAME_COLS = (
    "winner", "n_winners", "outcome", "turns", "rounds", "first_player",
    "draw_events", "drawn_normal", "drawn_mask", "drawn_market", "drawn_cough",
    "bats", "bat_viruses_added", "cures", "ambulance_cured", "antiseptics",
    "elim_declare_on_draw", "elim_voluntary_declare", "elim_control", "elim_quarantine",
    "elim_cough", "elim_hard_quarantine", "first_elim_turn",
    "hq", "hq_live_start", "hq_hidden_start", "hq_steps", "hq_eliminations", "hq_stalemate",
    "turn_cap", "peak_density_bp", "decisions",
    "lead_changes", "leader_from_turn", "winner_max_behind",
)
GAME_BOOL = ("hq", "hq_stalemate", "turn_cap")
SEAT_COLS = (
    "win", "eliminated", "elim_cause", "elim_turn", "elim_instigator",
    "played_tp", "played_ctl", "played_qrn", "played_doc", "played_ant", "played_amb",
    "played_msk", "played_bm", "played_shf", "played_cgh", "played_exc",
    "tp_skip", "tp_cough", "tp_exchange",
    "viruses_drawn", "viruses_hidden", "viruses_declared", "voluntary_declares",
    "mask_taken", "mask_take_none", "viruses_planted", "exchange_refusals", "cures",
    "viruses_exposed", "kills", "hand_end", "hidden_end", "open_end", "tp_held_end",
    "elim_open", "elim_hidden", "elim_treatment",
    "mask_peek_virus", "mask_virus_avoided", "market_viruses_seen", "market_forced_virus",
    "ant_normal", "ant_mask", "ant_market", "ant_cough",
    "bat_normal", "bat_mask", "bat_market", "bat_cough",
    "doctors_wasted", "amb_cured_own", "amb_cured_others", "max_behind", "first_card",
)
SEAT_BOOL = ("win", "eliminated")
DENSITY_COLS = (
    "games", "deck_size", "deck_size_sq", "viruses_in_deck", "viruses_in_deck_sq",
    "viruses_hidden", "viruses_hidden_sq", "viruses_open", "viruses_open_sq",
    "density_games", "density_bp", "density_bp_sq",
)
DRAW_COLS = ("draws", "deck_size", "viruses_in_deck", "density_draws", "density_bp", "density_bp_sq")
TURN_ROWS = 1024  # rows of density (>= the default max_turns); later turns are summed into the last row
DRAW_ROWS = 512  # rows of draw_density; later draws are summed into the last row
DECK_BUCKETS = 20  # deck_density: 5% buckets of the starting deck consumed, plus the empty deck
NG, NS, ND, NW = len(GAME_COLS), len(SEAT_COLS), len(DENSITY_COLS), len(DRAW_COLS)
GI = {c: i for i, c in enumerate(GAME_COLS)}
SI = {c: i for i, c in enumerate(SEAT_COLS)}
DI = {c: i for i, c in enumerate(DENSITY_COLS)}

# Column indices as plain module constants (numba reads them as compile-time constants).
G_WINNER, G_NWIN, G_OUTCOME, G_TURNS, G_ROUNDS, G_FIRST = (GI[c] for c in GAME_COLS[:6])
G_DRAWS, G_DR_NORMAL, G_DR_MASK, G_DR_MARKET, G_DR_COUGH = (GI[c] for c in GAME_COLS[6:11])
G_BATS, G_BAT_ADDED, G_CURES, G_AMB_CURED, G_ANTISEPTICS = (GI[c] for c in GAME_COLS[11:16])
G_ELIM0 = GI["elim_declare_on_draw"]  # + cause code
G_FIRST_ELIM = GI["first_elim_turn"]
G_HQ, G_HQ_LIVE, G_HQ_HIDDEN, G_HQ_STEPS, G_HQ_ELIMS, G_HQ_STALE = (GI[c] for c in GAME_COLS[23:29])
G_TURN_CAP, G_PEAK, G_DECISIONS = GI["turn_cap"], GI["peak_density_bp"], GI["decisions"]
G_LEAD_CHANGES, G_LEAD_FROM, G_WIN_BEHIND = GI["lead_changes"], GI["leader_from_turn"], GI["winner_max_behind"]

S_WIN, S_ELIM, S_CAUSE, S_ELIM_TURN, S_INSTIGATOR = range(5)
S_PLAYED0 = SI["played_tp"]  # + (card code - TP) for TP..EXC
S_TP_SKIP, S_TP_COUGH, S_TP_EXCHANGE = SI["tp_skip"], SI["tp_cough"], SI["tp_exchange"]
S_V_DRAWN, S_V_HIDDEN, S_V_DECLARED, S_VOLUNTARY = (SI[c] for c in SEAT_COLS[19:23])
S_MASK_TAKEN, S_MASK_NONE, S_PLANTED, S_REFUSALS, S_CURES = (SI[c] for c in SEAT_COLS[23:28])
S_EXPOSED, S_KILLS, S_HAND_END, S_HIDDEN_END, S_OPEN_END, S_TP_END = (SI[c] for c in SEAT_COLS[28:34])
S_ELIM_OPEN, S_ELIM_HIDDEN, S_ELIM_T = SI["elim_open"], SI["elim_hidden"], SI["elim_treatment"]
S_MASK_PEEK_V, S_MASK_AVOIDED = SI["mask_peek_virus"], SI["mask_virus_avoided"]
S_MARKET_SEEN, S_MARKET_FORCED = SI["market_viruses_seen"], SI["market_forced_virus"]
# Draw-event kinds (X_*) are offsets from drawn_normal in GAME_COLS and from ant_normal/bat_normal.
X_NORMAL, X_MASK, X_MARKET, X_COUGH = (GI[c] - GI["drawn_normal"] for c in GAME_COLS[7:11])
S_ANT0, S_BAT0 = SI["ant_normal"], SI["bat_normal"]
S_DOC_WASTED, S_AMB_OWN, S_AMB_OTHERS = SI["doctors_wasted"], SI["amb_cured_own"], SI["amb_cured_others"]
S_MAX_BEHIND = SI["max_behind"]
S_FIRST_CARD = SI["first_card"]

D_GAMES, D_DECK, D_DECK_SQ, D_VDECK, D_VDECK_SQ, D_HID, D_HID_SQ, D_OPEN, D_OPEN_SQ, D_DGAMES, D_BP, D_BP_SQ = range(ND)
W_DRAWS, W_DECK, W_VDECK, W_DDRAWS, W_BP, W_BP_SQ = range(NW)

def _typed(cols: tuple, bools: tuple, dtype: str) -> tuple:
    return tuple((c, "bool" if c in bools else dtype) for c in cols)


TABLES = {
    "games": Table("game", "one row per game: outcome, length, draws by kind, eliminations by cause, hard quarantine",
                   columns=(("game", "int64"), *_typed(GAME_COLS, GAME_BOOL, "int32"))),
    "seats": Table("seat", "one row per seat per game: bot, result, elimination, cards played by type, virus handling",
                   columns=SEAT_KEYS + _typed(SEAT_COLS, SEAT_BOOL, "int32")),
    "density": Table("sum", "sums per turn index, recorded at every turn end: deck size, viruses in deck/hidden/open"
                     f" (with squares) and virus density in basis points (turn {TURN_ROWS - 1} also holds every"
                     " later turn)", ("turn",),
                     columns=(("turn", "int64"), *_typed(DENSITY_COLS, (), "int64"))),
    "draw_density": Table("sum", "sums per draw event index in the game, recorded after every draw event: deck size,"
                          " viruses in deck and virus density in basis points (M-2)", ("draw",),
                          columns=(("draw", "int64"), *_typed(DRAW_COLS, (), "int64"))),
    "deck_density": Table("sum", "the same sums per 5% bucket of the starting deck consumed (deck_used_pct, lower"
                          " bound; 100 = empty deck) (M-2)", ("deck_used_pct",),
                          columns=(("deck_used_pct", "int64"), *_typed(DRAW_COLS, (), "int64"))),
}


def new_game_row() -> list[int]:
    row = [0] * NG
    row[G_WINNER] = -1
    row[G_FIRST_ELIM] = -1
    row[G_LEAD_FROM] = row[G_WIN_BEHIND] = -1
    return row


def new_seat_row() -> list[int]:
    row = [0] * NS
    row[S_CAUSE] = -1
    row[S_ELIM_TURN] = -1
    row[S_INSTIGATOR] = -1
    row[S_ELIM_OPEN] = row[S_ELIM_HIDDEN] = row[S_ELIM_T] = -1
    row[S_FIRST_CARD] = -1
    return row


def deck_bucket(deck_size: int, start_size: int) -> int:
    """The 5% bucket (0..DECK_BUCKETS) of the starting deck consumed at ``deck_size`` cards."""
    return max(0, start_size - deck_size) * DECK_BUCKETS // start_size


def draw_row(acc, row: int, deck_size: int, vdeck: int) -> None:
    """Add one draw-event observation to row ``row`` of a DRAW_COLS sum matrix (M-2)."""
    acc[row, W_DRAWS] += 1
    acc[row, W_DECK] += deck_size
    acc[row, W_VDECK] += vdeck
    if deck_size > 0:
        bp = vdeck * 10000 // deck_size
        acc[row, W_DDRAWS] += 1
        acc[row, W_BP] += bp
        acc[row, W_BP_SQ] += bp * bp


def density_row(acc, turn: int, deck_size: int, vdeck: int, hidden: int, opened: int) -> None:
    """Add one turn-end observation to the sum matrix ``acc`` (M-2; turns past the last row into it)."""
    turn = min(turn, TURN_ROWS - 1)
    acc[turn, D_GAMES] += 1
    acc[turn, D_DECK] += deck_size
    acc[turn, D_DECK_SQ] += deck_size * deck_size
    acc[turn, D_VDECK] += vdeck
    acc[turn, D_VDECK_SQ] += vdeck * vdeck
    acc[turn, D_HID] += hidden
    acc[turn, D_HID_SQ] += hidden * hidden
    acc[turn, D_OPEN] += opened
    acc[turn, D_OPEN_SQ] += opened * opened
    if deck_size > 0:
        bp = vdeck * 10000 // deck_size
        acc[turn, D_DGAMES] += 1
        acc[turn, D_BP] += bp
        acc[turn, D_BP_SQ] += bp * bp


def new_sums() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Zeroed int64 sum matrices of ``density``, ``draw_density`` and ``deck_density`` (row = key)."""
    return (np.zeros((TURN_ROWS, ND), dtype=np.int64), np.zeros((DRAW_ROWS, NW), dtype=np.int64),
            np.zeros((DECK_BUCKETS + 1, NW), dtype=np.int64))


def build(cfg, start: int, count: int, games: np.ndarray, seats: np.ndarray, density: np.ndarray,
          draws: np.ndarray, deck: np.ndarray) -> dict:
    """DataFrames for games ``start..start+count-1`` from the raw column-major int32 matrices
    (``games[col, game]``, ``seats[col, game * n + seat]``) and the int64 sums (row = key)."""
    gidx = np.arange(start, start + count, dtype=np.int64)
    gdf = _frame({"game": gidx}, games, GAME_COLS, GAME_BOOL)
    sdf = _frame(seat_keys(cfg, start, count), seats, SEAT_COLS, SEAT_BOOL)
    return {"games": gdf, "seats": sdf, "density": _sums("turn", density, D_GAMES, DENSITY_COLS),
            "draw_density": _sums("draw", draws, W_DRAWS, DRAW_COLS),
            "deck_density": _sums("deck_used_pct", deck, W_DRAWS, DRAW_COLS, 100 // DECK_BUCKETS)}


def _sums(key: str, acc: np.ndarray, count_col: int, cols: tuple, step: int = 1) -> pd.DataFrame:
    """The rows of a sum matrix with at least one observation, keyed by ``row * step``."""
    rows = np.nonzero(acc[:, count_col])[0]
    return _frame({key: rows.astype(np.int64) * step}, np.ascontiguousarray(acc[rows].T), cols, ())


def _frame(keys: dict, raw: np.ndarray, cols: tuple, bools: tuple) -> pd.DataFrame:
    """One integer block straight from ``raw`` (no copy), bool columns converted, keys in front."""
    df = pd.DataFrame(raw.T, columns=list(cols), copy=False)
    for c in bools:
        df[c] = df[c].to_numpy() != 0
    for i, (name, values) in enumerate(keys.items()):
        df.insert(i, name, values)
    return df
