"""The kernel's buffer is declared once by name (sim/kit/layout.py) and sized by the rules and tables."""

from sim.games.daifugo import kernel as K
from sim.games.daifugo import rules as R
from sim.games.daifugo import tables as T
from sim.games.daifugo.kernel import state as S
from sim.games.daifugo.reference.learned import FEATURES


def test_state_fields_are_named_and_sized_by_the_rules():
    assert K.SIZE == K.LAYOUT.size
    assert (K.LAYOUT["hands"].offset, K.LAYOUT["hands"].size) == (S.H0, R.MAX_PLAYERS)
    assert K.LAYOUT["owner"].size == R.N_RULE_CARDS + 1 and K.LAYOUT["rule_deck"].size == R.N_RULE_CARDS
    assert K.LAYOUT["round_stats"].size == T.R_FIXED
    # the top play's fields are contiguous (a flow and a new round clear them as one range)
    assert [K.LAYOUT[f].offset for f in ("top_kind", "top_wild_ranks")] == [S.TK, S.TJ] and S.TJ - S.TK == 8
    # the engine state comes first (zeroed per game), the rng counter inside it
    assert S.RNG < S.STATE_SIZE and K.LAYOUT["game_row"].offset == S.STATE_SIZE


def test_result_rows_follow_the_tables():
    assert K.LAYOUT["game_row"].size == T.GAME_ROW.size
    assert K.LAYOUT["round_rows"].size == R.MAX_ROUNDS * T.ROUND_ROW.size
    assert K.LAYOUT["seat_rows"].size == R.MAX_PLAYERS * T.SEAT_ROW.size
    # one round counter per rounds column, at the column's place in the row
    for c in T.ROUND_COLS:
        assert S.round_counter(c) - S.RS0 == T.ROUND_ROW[c].offset


def test_move_rows_and_scratch():
    assert K.MOVE_COLS == len(K.MOVE.fields) and K.MOVE["mask"].offset == S.MMASK
    assert K.LAYOUT["moves"].size == K.MAX_MOVES * K.MOVE_COLS
    assert K.LAYOUT["deck"].size >= R.N_CARD_IDS
    assert K.LAYOUT["order"].size >= max(R.N_RULE_CARDS, R.MAX_PLAYERS)
    assert K.LAYOUT["learned_features"].size == len(FEATURES)  # one play option's (kernel/learned.py)


def test_run_vector_and_bot_parameter_columns():
    from sim.games.daifugo import GAME
    from sim.games.daifugo.reference.bots import BOT_PARAM_NAMES

    assert tuple(GAME.bot_param_names()) == BOT_PARAM_NAMES
    assert [S.B_REVOLT_BELOW, S.B_RECYCLE_HAND] == [BOT_PARAM_NAMES.index("revolt_below"),
                                                     BOT_PARAM_NAMES.index("recycle_hand")]
    cfg = GAME.make_config(players=5, bots=["strategist", "random", "greedy", "greedy", "random"], seed=3,
                           overrides={"bot.strategist.revolt_below": 4.25})
    run = K.run_vector(GAME, cfg)
    assert run.shape == (K.RUN.size,) and run[K.RUN["players"].offset] == 5
    bp = K.RUN.view(run, "table_bot_params").view("float64").reshape(R.MAX_PLAYERS, S.NB)
    assert bp[0, S.B_REVOLT_BELOW] == 4.25 and bp[1, S.B_REVOLT_BELOW] == 0.0
