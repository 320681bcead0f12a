"""Metrics M-1..M-3 columns (tables.py): exact values on constructed scenarios, and how the new
columns add up over seeded batches of both engines."""

import pytest

from sim.games.virus_dogs import GAME
from sim.games.virus_dogs import tables as tb
from tests.virus_dogs.test_rule_audit import take
from tests.virus_dogs.test_scenarios import (
    ANTISEPTIC, DECLARE_DRAWN, DRAW, END, HIDE, MARKET, MASK, MORE, STOP, P, ok, play, run,
)


def seat(out, s):
    return out["metrics"]["seats"][s]


def counters(out, s, *cols):
    return tuple(seat(out, s)[c] for c in cols)


def market(index):
    return {"type": "market_take", "index": index}


# ---- M-1: O, HV and T at each elimination -------------------------------------------------------
def test_elimination_records_open_hidden_and_treatment():
    """M-1, VD-6.4, VD-19: P0 (O=1, T=1, one hidden V) declares a drawn V: out with O=2, HV=1, T=1;
    the lost treatment counts as a wasted doctor (M-3)."""
    out = ok(run(n=3, decisions=[DRAW, DECLARE_DRAWN], deck=["V", "DOC"],
                 players=[P(["V", "SHF"], open=1, treatment=1), P(), P()]))
    assert not out["finished"]  # the game goes on with P1 and P2
    assert counters(out, 0, "elim_open", "elim_hidden", "elim_treatment", "doctors_wasted") == (2, 1, 1, 1)
    assert counters(out, 1, "elim_open", "elim_hidden", "elim_treatment") == (-1, -1, -1)


def test_control_elimination_counts_the_exposed_viruses_as_open():
    """M-1, TS-21 (VD-13, VD-17.5): CTL exposes P1's hidden V during treatment: O=2, HV=0, T=1."""
    out = ok(run(n=3, decisions=[play("CTL", 1)], deck=["DOC"],
                 players=[P(["CTL", "SHF"]), P(["V", "DOC"], open=1, treatment=1), P()]))
    assert counters(out, 1, "elim_open", "elim_hidden", "elim_treatment", "doctors_wasted") == (2, 0, 1, 1)


def test_result_eliminations_carry_the_counters():
    """M-1, TS-35 (VD-14): the quarantined P1 falls with both viruses open, none hidden, no treatment."""
    out = ok(run(n=2, decisions=[play("QRN")], deck=["DOC"], players=[P(["QRN", "SHF"]), P(["V", "V"])]))
    assert out["result"]["eliminations"] == [
        {"player": 1, "cause": "quarantine", "instigator": 0, "open": 2, "hidden": 0, "treatment": 0}]


# ---- M-3: mask and black market ----------------------------------------------------------------
@pytest.mark.parametrize("taken,decisions,expected", [
    ([1], [], (1, 1)),            # the V on top is seen and left: avoided
    ([0, 1], [HIDE], (1, 0)),     # both taken, the V hidden: seen, not avoided
    ([], [], (1, 1)),             # nothing taken
])
def test_mask_peek_virus_and_avoided(taken, decisions, expected):
    """M-3 MSK, VD-9.3: a peek holding a virus counts once; every seen virus not taken is avoided."""
    out = ok(run(decisions=[MASK, take(*taken), *decisions, END], turns=1, deck=["V", "DOC", "SHF"],
                 players=[P(["MSK"]), P()]))
    assert counters(out, 0, "mask_peek_virus", "mask_virus_avoided") == expected


def test_mask_peek_without_virus():
    """M-3 MSK: a clean peek counts nothing."""
    out = ok(run(decisions=[MASK, take(0), END], turns=1, deck=["DOC", "SHF", "V"], players=[P(["MSK"]), P()]))
    assert counters(out, 0, "mask_peek_virus", "mask_virus_avoided") == (0, 0)


def test_black_market_forced_virus_take():
    """M-3 BM, TS-16 (VD-10.2): three viruses seen, all viruses: a forced take."""
    out = ok(run(decisions=[MARKET, market(0), HIDE, END], turns=1, deck=["V", "V", "V", "DOC"],
                 players=[P(["BM"], open=1), P()]))
    assert counters(out, 0, "market_viruses_seen", "market_forced_virus") == (3, 1)


def test_black_market_virus_seen_not_forced():
    """M-3 BM, TS-15 (VD-10): two viruses among three seen, the TP taken: not forced."""
    out = ok(run(decisions=[MARKET, market(2), END], turns=1, deck=["V", "V", "TP", "SHF"],
                 players=[P(["BM"]), P()]))
    assert counters(out, 0, "market_viruses_seen", "market_forced_virus") == (2, 0)


# ---- M-3: antiseptic and bat by context ---------------------------------------------------------
CONTEXTS = ("normal", "mask", "market", "cough")


def by_context(out, s, prefix):
    return [seat(out, s)[f"{prefix}_{c}"] for c in CONTEXTS]


def test_antiseptic_on_a_normal_draw():
    """M-3 ANT, TS-5 (VD-7.3): one antiseptic in the normal-draw context."""
    out = ok(run(decisions=[ANTISEPTIC, MORE], turns=1, deck=["V", "DOC", "SHF", "CTL"], players=[P(["ANT"]), P()]))
    assert by_context(out, 0, "ant") == [1, 0, 0, 0]


def test_antiseptic_on_a_mask_take_and_a_market_take():
    """M-3 ANT, VD-7.4: an antisepticked virus taken by a mask / by a black market."""
    out = ok(run(decisions=[MASK, take(0), ANTISEPTIC, END], turns=1, deck=["V", "DOC"],
                 players=[P(["MSK", "ANT"]), P()]))
    assert by_context(out, 0, "ant") == [0, 1, 0, 0]
    out = ok(run(decisions=[MARKET, market(0), ANTISEPTIC], turns=1, deck=["V", "V", "V", "DOC"],
                 players=[P(["BM", "ANT"], open=1), P()]))
    assert by_context(out, 0, "ant") == [0, 0, 1, 0]


def test_antiseptic_on_a_cough_draw():
    """M-3 ANT, TS-22 (VD-7.5): P1's antiseptic on the coughed-up virus."""
    out = ok(run(n=3, decisions=[play("CGH"), {"type": "cough_virus", "response": "antiseptic"}],
                 deck=["V", "DOC", "SHF"], players=[P(["CGH", "SHF"], open=1), P(["ANT"], open=1), P()]))
    assert by_context(out, 1, "ant") == [0, 0, 0, 1] and by_context(out, 2, "ant") == [0, 0, 0, 0]


def test_bats_by_context():
    """M-3 BAT: TS-8 (normal draw), TS-17 (black market) and TS-24 (cough, P1 draws it)."""
    out = run(decisions=[DRAW], deck=["BAT", "SHF", "DOC"], reserve=6)
    assert by_context(out, 0, "bat") == [1, 0, 0, 0]
    out = ok(run(decisions=[MARKET, market(0)], turns=1, deck=["BAT", "V", "SHF"], reserve=6,
                 players=[P(["BM"]), P()]))
    assert by_context(out, 0, "bat") == [0, 0, 1, 0]
    out = ok(run(n=3, decisions=[play("CGH")], deck=["BAT", "SHF", "DOC"], reserve=6,
                 players=[P(["CGH", "SHF"], open=1), P(), P()]))
    assert by_context(out, 1, "bat") == [0, 0, 0, 1] and by_context(out, 0, "bat") == [0, 0, 0, 0]


# ---- M-3: doctors wasted, ambulance own vs others ------------------------------------------------
def test_ambulance_cures_own_and_others_and_wastes_treatment():
    """M-3 AMB/DOC, TS-33 (VD-18): P0 (O=1, T=1) cures its own V and P1's; P0's treatment is lost."""
    out = ok(run(n=3, decisions=[play("AMB")], deck=["DOC"],
                 players=[P(["AMB", "SHF"], open=1, treatment=1), P(open=1), P(["V"])]))
    assert counters(out, 0, "amb_cured_own", "amb_cured_others", "doctors_wasted") == (1, 1, 1)
    assert counters(out, 1, "amb_cured_own", "amb_cured_others", "doctors_wasted") == (0, 0, 0)


def test_completed_cure_wastes_nothing():
    """M-3 DOC, TS-31 (VD-17.2): the second doctor completes the cure; nothing is wasted."""
    out = ok(run(decisions=[play("DOC"), STOP, END], turns=1, deck=["SHF", "CTL"],
                 players=[P(["DOC"], open=1, treatment=1), P()]))
    assert counters(out, 0, "cures", "doctors_wasted") == (1, 0)


# ---- M-2: the draw series ----------------------------------------------------------------------
def test_draw_series_after_every_draw_event():
    """M-2: deck size and viruses in it right after each card leaves the deck (before a bat acts)."""
    out = ok(run(decisions=[DRAW, STOP], turns=1, deck=["DOC", "V", "SHF"], players=[P(), P()]))
    assert out["metrics"]["draw_series"] == [[2, 1]]
    out = ok(run(decisions=[DRAW, MORE], turns=1, deck=["BAT", "SHF", "DOC"], reserve=6, players=[P(), P()]))
    first, second = out["metrics"]["draw_series"]
    assert first == [2, 0] and second == [3, 2]  # the bat added two viruses before the second draw


def test_deck_bucket():
    """M-2: 5% buckets of the starting deck consumed; a grown deck counts as nothing consumed."""
    assert [tb.deck_bucket(d, 48) for d in (48, 50, 46, 45, 24, 1, 0)] == [0, 0, 0, 1, 10, 19, 20]


def test_turns_past_the_last_density_row_are_summed_into_it():
    """M-2: the per-turn sums have TURN_ROWS rows (>= the default max_turns); a later turn's end is
    added to the last row, as a later draw to draw_density's."""
    acc = tb.new_sums()[0]
    assert acc.shape == (tb.TURN_ROWS, tb.ND) and tb.TURN_ROWS >= GAME.param("max_turns").default
    for turn in (3, tb.TURN_ROWS - 1, tb.TURN_ROWS, 5000):
        tb.density_row(acc, turn, 10, 2, 1, 4)
    assert acc[3].tolist() == [1, 10, 100, 2, 4, 1, 1, 4, 16, 1, 2000, 4_000_000]
    assert acc[tb.TURN_ROWS - 1].tolist() == [3, 30, 300, 6, 12, 3, 3, 12, 48, 3, 6000, 12_000_000]
    assert acc.sum(axis=0)[tb.D_GAMES] == 4


# ---- sums over seeded batches (both engines: test_differential compares them row by row) ---------
def test_new_columns_add_up_to_the_game_totals():
    """M-2/M-3: per-seat bats and antiseptics by context, ambulance cures and draw observations sum
    to the games-table totals; deck_used_pct keys are the 5% buckets."""
    cfg = GAME.make_config(players=4, bots=["random", "cautious", "aggressive", "random"], seed=7)
    t = GAME.run_batch(cfg, 0, 300, "fast")
    g, s = t["games"], t["seats"]
    assert s[[f"bat_{c}" for c in CONTEXTS]].to_numpy().sum() == g["bats"].sum()
    assert s[[f"ant_{c}" for c in CONTEXTS]].to_numpy().sum() == g["antiseptics"].sum()
    assert (s["amb_cured_own"] + s["amb_cured_others"]).sum() == g["ambulance_cured"].sum()
    assert t["draw_density"]["draws"].sum() == t["deck_density"]["draws"].sum() == g["draw_events"].sum()
    assert t["draw_density"].loc[0, "draws"] == 300
    assert set(t["deck_density"]["deck_used_pct"]) <= set(range(0, 101, 5))
    out = s[~s["eliminated"]]
    assert (out[["elim_open", "elim_hidden", "elim_treatment"]] == -1).all().all()
    elim = s[s["eliminated"]]
    assert (elim["elim_open"] >= cfg.params["elimination_threshold"]).all()
    assert elim["elim_treatment"].between(0, 1).all()
    assert (s["mask_virus_avoided"] >= 0).all() and (s["market_forced_virus"] <= s["played_bm"]).all()
