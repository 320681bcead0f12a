"""The kernel's buffers are declared once by name (sim/layout.py) and sized by the rules."""

from sim.games.daifugo import kernel as K
from sim.games.daifugo import rules as R
from sim.games.daifugo import tables as T


def test_state_fields_are_named_and_sized_by_the_rules():
    assert K.S_SIZE == K.STATE.size
    assert (K.STATE["hands"].offset, K.STATE["hands"].size) == (K.H0, R.MAX_PLAYERS)
    assert K.STATE["owner"].size == R.N_RULE_CARDS + 1 and K.STATE["rule_deck"].size == R.N_RULE_CARDS
    assert K.STATE["round_stats"].size == T.R_FIXED
    # the top play's fields are contiguous (a flow and a new round clear them as one range)
    assert [K.STATE[f].offset for f in ("top_kind", "top_wild_ranks")] == [K.TK, K.TJ] and K.TJ - K.TK == 8


def test_move_row_and_scratch_sizes():
    assert K.MOVE_COLS == len(K.MOVE.fields) and K.MOVE["mask"].offset == K.MMASK
    assert K.SCRATCH["deck"].size >= R.BASE_DECK
    assert K.SCRATCH["order"].size >= max(R.N_RULE_CARDS, R.MAX_PLAYERS)
    assert "seatpos" in K.SCRATCH.describe()
