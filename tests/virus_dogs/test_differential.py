"""Fast kernel vs reference engine under default rules and rule variants, the kernel's layout,
the density table and property tests (what every game shares: tests/test_game_contract.py)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engines import engines_agree
from sim.games.virus_dogs import GAME, play_reference
from sim.games.virus_dogs import kernel as K
from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.reference import Engine
from sim.games.virus_dogs.rules import CHOICE_CODES, OUTCOMES, V, deck_counts, param_vector

TABLES = [
    (4, ["cautious", "random", "aggressive", "cautious"], 1200),
    (2, ["random", "aggressive"], 500),
    (5, ["aggressive", "cautious", "random", "random", "cautious"], 500),
]


def assert_same(cfg, start, count):
    return engines_agree(GAME, cfg, start, count)


@pytest.mark.parametrize("players,bots,count", TABLES)
def test_differential_default_rules(players, bots, count):
    """Both engines give identical tables on 2,200 seeded games with mixed bots."""
    cfg = GAME.make_config(players=players, bots=bots, seed=11)
    fast = assert_same(cfg, 0, count)
    assert len(fast["games"]) == count and len(fast["seats"]) == count * players
    assert fast["games"]["outcome"].isin(range(len(OUTCOMES))).all()


VARIANTS = [
    {"mask_take_mode": "prefix", "draw_count_declared_upfront": True, "first_player": "random"},
    {"bat_counts_as_draw": False, "skip_scope": "after_declaration", "antiseptic_on_cough": False},
    {"ambulance_reactive": True, "exchange_refused_card": "discard", "eliminated_hand_destination": "deck_bottom"},
    {"eliminated_hand_destination": "shuffle_into_deck", "deck_exhaustion_check": "immediate", "hq_target": "choice"},
    {"hq_end": "first_elimination", "hq_stalemate": "all_remaining_shared", "all_eliminated_outcome": "shared_win"},
    {"draw_min": 2, "draw_max": 3, "mask_peek": 3, "black_market_look": 5, "elimination_threshold": 3,
     "doctors_per_cure": 1, "doctor_per_turn": 2, "n_bat": 5, "n_blank": 4, "n_virus_total": 9},
    {"max_turns": 12, "n_toilet": 12, "n_quarantine": 6},
]


@pytest.mark.parametrize("overrides", VARIANTS)
def test_engines_agree_under_rule_variants(overrides):
    """Rule switches and counts: both engines still agree."""
    for players, bots in [(3, ["random", "cautious", "aggressive"]), (5, ["random"] * 5)]:
        cfg = GAME.make_config(players=players, bots=bots, seed=5, overrides=overrides)
        assert_same(cfg, 100, 60)


def test_kernel_layout_is_named_and_fits_every_config():
    """The state buffer is declared once (kernel.LAYOUT) and its blocks fit the largest game."""
    fields = K.LAYOUT.fields
    assert K.SIZE == K.LAYOUT.size == sum(f.size for f in fields.values())
    assert fields["params"].size == len(param_vector(GAME.make_config().params))
    assert K.MAX_SEATS == GAME.max_players
    assert fields["seats"].size == GAME.max_players * K.SEAT.size
    assert K.BOT_PARAM_NAMES == tuple(GAME.bot_param_names())
    assert fields["bot_params"].size == GAME.max_players * len(GAME.bot_param_names())
    assert fields["game_row"].size == tb.NG and fields["seat_rows"].size == GAME.max_players * tb.NS
    biggest = {p.name: p.hi for p in GAME.params if p.name.startswith("n_")}
    biggest["n_virus_in_deck"] = biggest["n_virus_total"]
    cards = sum(deck_counts(biggest)) - biggest["n_virus_in_deck"] + biggest["n_virus_total"]
    assert fields["deck"].size == cards
    peek = max(GAME.param("mask_peek").hi, GAME.param("black_market_look").hi)
    assert fields["peeked"].size == fields["limbo"].size == peek
    assert K.FRESH_STOP == fields["seat_rows"].stop  # setup zeroes the per-game blocks
    assert all(name in K.LAYOUT.describe() for name in fields)


def test_kernel_option_list_holds_the_longest_action_menu():
    """Every legal phase-A option of a full hand fits the ``options`` block (canonical order)."""
    cfg = GAME.make_config(players=5, overrides={"draw_count_declared_upfront": True, "draw_min": 1,
                                                 "draw_max": 4})
    eng = play_reference(cfg, 0)
    me = eng.players[0]
    me.live, me.open = True, 1
    for p in eng.players:
        p.live = True
    me.hand = [1] * len(me.hand)
    eng.deck, eng.docs_this_turn, eng.cards_this_turn = [2], 0, 0
    assert len(eng.action_options(me, "A")) == K.LAYOUT["options"].size


@pytest.mark.parametrize("destination", ["discard", "deck_bottom"])
def test_taker_eliminated_mid_mask_take_keeps_the_other_taken_cards(destination, monkeypatch):
    """VD-19.3, VD-5.5, M-2: a player eliminated while resolving a mask take (declaring a taken
    virus) first gets the other taken cards, a virus among them, into the hand; they then go
    under the deck or to the discard with the rest. Random bots allowed suicidal declarations
    (AD-16) reach this; both engines agree row by row, and card conservation holds throughout."""
    reached = []
    remove, ask = Engine.remove_player, Engine.ask

    def spy_remove(self, p, cause, instigator):
        if p.seat == self.current and not self.in_hq and V in self.limbo:
            reached.append(len(self.limbo))
        remove(self, p, cause, instigator)

    def checked_ask(self, *a, **kw):
        self.check_invariants()
        return ask(self, *a, **kw)

    monkeypatch.setattr(Engine, "remove_player", spy_remove)
    monkeypatch.setattr(Engine, "ask", checked_ask)
    cfg = GAME.make_config(players=4, bots=["random"], seed=3, overrides={
        "bot.random.allow_suicide": 1, "mask_peek": 4, "n_mask": 16, "n_virus_in_deck": 8,
        "n_virus_total": 12, "elimination_threshold": 1, "eliminated_hand_destination": destination})
    engines_agree(GAME, cfg, 0, 200, limited=False)  # the spies watch the reference play
    assert len(reached) >= 5


def test_density_table_sums_and_replay():
    """Density sums are keyed by turn; replay reproduces a game's rows."""
    cfg = GAME.make_config(seed=2)
    out = GAME.run_batch(cfg, 0, 50, "fast")
    d = out["density"]
    assert list(d.columns[:2]) == ["turn", "games"] and d["turn"].is_monotonic_increasing
    assert d.loc[d["turn"] == 0, "games"].item() == 50
    assert (d["viruses_in_deck"] <= d["deck_size"]).all()
    lines, frames = GAME.replay(cfg, 7)
    assert lines and any("turn 0" in x for x in lines)
    row = out["games"].iloc[[7]].reset_index(drop=True)
    pd.testing.assert_frame_equal(frames["games"], row)


# ---- property tests -------------------------------------------------------------------------
configs = st.fixed_dictionaries(
    {name: st.sampled_from(choices) for name, choices in CHOICE_CODES.items()}
    | {"draw_count_declared_upfront": st.booleans(), "bat_counts_as_draw": st.booleans(),
       "antiseptic_on_cough": st.booleans(), "ambulance_reactive": st.booleans(),
       "n_bat": st.integers(0, 5), "n_blank": st.integers(0, 4), "n_quarantine": st.integers(0, 4),
       "elimination_threshold": st.integers(2, 3), "mask_peek": st.integers(1, 3)})
bot_names = st.lists(st.sampled_from(["random", "cautious", "aggressive"]), min_size=2, max_size=5)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(overrides=configs, bots=bot_names, seed=st.integers(0, 2**32), index=st.integers(0, 10**6))
def test_conservation_termination_and_consistency(overrides, bots, seed, index):
    """Card conservation (incl. the virus total) before every decision, termination, O/HV sanity."""
    cfg = GAME.make_config(players=len(bots), bots=bots, seed=seed, overrides=overrides)
    from sim.games.virus_dogs.reference import Engine

    original = Engine.ask

    def checked(self, *a, **kw):
        self.check_invariants()
        return original(self, *a, **kw)

    Engine.ask = checked
    try:
        eng = play_reference(cfg, index)
    finally:
        Engine.ask = original
    eng.check_invariants()
    assert eng.finished and eng.turn <= cfg.params["max_turns"]
    thr = cfg.params["elimination_threshold"]
    for p in eng.players:
        assert p.live or (p.open == 0 and p.hand_size() == 0)
        assert p.open < thr or not p.live
    hidden = sum(p.hand[0] for p in eng.players)
    g = eng.g
    assert g[tb.G_NWIN] == len(eng.winners)
    assert all(eng.players[w].live or g[tb.G_OUTCOME] == 0 for w in eng.winners)
    for turn, deck, vdeck, hid, opened in eng.density:
        assert 0 <= vdeck <= deck and hid >= 0 and opened >= 0
        assert vdeck + hid + opened <= cfg.params["n_virus_total"]
    assert hidden >= 0


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(overrides=configs, bots=bot_names, seed=st.integers(0, 2**32))
def test_engines_agree_on_random_configs(overrides, bots, seed):
    cfg = GAME.make_config(players=len(bots), bots=bots, seed=seed, overrides=overrides)
    assert_same(cfg, 0, 8)


def test_kernel_bots_read_their_parameters_in_ppm_as_the_reference_bots():
    """The run vector holds bot parameters as float64 bits (sim.kit.kernel_util.bot_param_words);
    the kernel's bots read each in parts per million exactly as ``bots.ppm`` rounds it (ties to
    even), so both engines compare the same integer thresholds."""
    from sim.games.virus_dogs.reference.bots import ppm
    from sim.games.virus_dogs.kernel.bots import bot_ppm
    from sim.games.virus_dogs.kernel.state import B_BLUFF, B_SKIP, NB, O_BP, SIZE

    values = [0.0, 0.25, 2.5e-6, 3.5e-6, 0.1234565, 0.7, 1.0, 99.9999995]
    b = np.zeros(SIZE, dtype=np.int64)
    got = []
    for x in values:
        b[O_BP + 2 * NB + B_SKIP] = np.float64(x).view(np.int64)  # seat 2's parameters
        b[O_BP + 2 * NB + B_BLUFF] = np.float64(-x).view(np.int64)
        got.append((bot_ppm(b, 2, B_SKIP), bot_ppm(b, 2, B_BLUFF)))
    assert got == [(ppm(x), ppm(-x)) for x in values]
    assert got[2] == (2, -2) and got[3] == (4, -4)  # 2.5 and 3.5 ppm: ties go to the even neighbour
