"""Bot behaviour, the call model's use of public information, and the report sections."""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.figure import Figure

from analysis.games.faking_sick import sections as report_sections
from analysis.load import Run
from sim.run import runner
from sim.games.faking_sick import GAME
from sim.games.faking_sick.reference import bots as B
from sim.games.faking_sick.reference import FakingSick
from sim.games.faking_sick.reference.bots import wants_call
from sim.games.faking_sick.rules import FEV, SNZ
from sim.kit.rng import Rng


def test_bluff_probability_grows_as_honest_options_run_out():
    p = B.BOTS["bluffer"].params
    probs = [B.bluff_probability(p, h) for h in (6, 3, 1, 0)]
    assert probs == sorted(probs) and probs[-1] == p["bluff_max"]


def engine(**over) -> FakingSick:
    cfg = GAME.make_config(players=4, overrides=over)
    g = FakingSick(cfg.params, 4, Rng(0, 0), agent=None)
    g.hands = [[0, 2, 2, 1, 0, 0, 0] for _ in range(4)]
    g.slots = [[FEV, SNZ], [FEV, SNZ], [3, 4], [5, 6]]
    return g


def test_call_model_uses_failed_calls_reveals_and_hand_sizes():
    """D3: a failed call clears the type; reveals and own banned cards shrink the estimate."""
    bp = B.BOTS["honest"].params
    g = engine()
    # P2's own banned cards are INJ, HDA: 2 of the 6 unseen pool cards are FEV, P0 has 2 slots
    assert B.ban_probability((2, 8), (0, 2), (0, 0), 2, False, False) > bp["call_threshold"]
    assert wants_call(g, 2, B.HONEST, bp, 0, FEV)
    g.cleared[0][FEV] = True  # a failed call proved FEV not banned for P0 (FS-7.5)
    assert not wants_call(g, 2, B.HONEST, bp, 0, FEV)
    g = engine()
    g.revealed_count[FEV] = 2  # both pool FEVERs already revealed
    assert not wants_call(g, 2, B.HONEST, bp, 0, FEV)
    # a caller holding a FEV banned card itself sees fewer unseen FEVs
    low = B.ban_probability((2, 8), (1, 2), (0, 0), 2, False, False)
    high = B.ban_probability((2, 8), (0, 2), (0, 0), 2, False, False)
    assert low < high
    # hand sizes lower the threshold (urgency and the chance to push out)
    assert B.call_threshold(bp, 1, 10, 2) < B.call_threshold(bp, 8, 10, 2)
    assert B.call_threshold(bp, 8, 2, 2) < B.call_threshold(bp, 8, 10, 2)


def test_going_out_play_is_never_called_by_the_model():
    """With banned_last_card = illegal a last card is never banned (FS-9.4)."""
    g = engine()
    g.hands[0] = [0] * 7
    assert not wants_call(g, 2, B.BLUFFER, B.BOTS["caller"].params, 0, FEV)


def test_honest_never_bluffs_and_bluffers_do():
    cfg = GAME.make_config(players=4, bots=["honest", "bluffer", "caller", "random"], seed=2)
    seats = GAME.run_batch(cfg, 0, 400, "fast")["seats"]
    by_bot = seats.groupby("bot")[["bluffs", "plays", "calls_made", "calls_correct"]].sum()
    assert by_bot.loc["honest", "bluffs"] == 0
    assert by_bot.loc["bluffer", "bluffs"] > by_bot.loc["caller", "bluffs"] > 0
    assert (by_bot["calls_correct"] <= by_bot["calls_made"]).all()


def test_turn_cap_without_bluffers_and_default_table_terminates():
    """Nobody bluffing stalls the game (banned cards shed only by bluffs or pushes)."""
    honest = GAME.make_config(players=4, bots=["honest"], seed=1)
    assert GAME.run_batch(honest, 0, 100, "fast")["games"]["turn_cap"].mean() > 0.8
    default = GAME.make_config(players=4, seed=1)
    assert GAME.run_batch(default, 0, 2000, "fast")["games"]["turn_cap"].mean() < 0.01


@pytest.mark.parametrize("players", [3, 4])
def test_report_sections_build_from_a_stored_run(players, tmp_path):
    cfg = GAME.make_config(players=players, seed=4)
    runner.run(cfg, 300, tmp_path / "run", runner.RunOptions(batch_size=100, progress=False))
    run = Run(tmp_path / "run")
    card, *sections = report_sections(run)
    assert card.title == "Scorecard per banned card" and len(card.tables[0][1]) == 6  # every bannable type dealt
    titles = [s.title for s in sections]
    assert titles == ["Faking-sick call success", "Banned cards and call success by banned type", "Bluffs",
                      "Game end and turn cap", "Game feel"]
    for s in sections:
        for caption, table in s.tables:
            assert isinstance(table, pd.DataFrame) and len(table) > 0, caption
        for caption, fig in s.figures:
            assert isinstance(fig, Figure), caption
    calls = dict(sections[0].tables)["Call success by played card"]
    assert set(calls.columns) >= {"card", "n", "successes", "rate", "lo", "hi"}
    assert calls.loc[calls["card"] == "VIR", "successes"].item() == 0  # VIRUS is never banned
    cap = sections[3].tables[0][1]
    assert cap["turn_cap_rate"].item() == run.table("games")["turn_cap"].mean()


def test_banned_cards_section_equals_the_whole_tables(tmp_path):
    """Banned cards per seat (FS-2.1: two face-down banned cards each at setup) and call
    success by banned type, against the same numbers taken from the whole tables in pandas."""
    cfg = GAME.make_config(players=4, seed=6)
    runner.run(cfg, 300, tmp_path / "run", runner.RunOptions(batch_size=150, progress=False))
    run = Run(tmp_path / "run")
    section = next(s for s in report_sections(run) if s.title.startswith("Banned cards"))
    tables = dict(section.tables)
    per_seat = tables["Banned cards by seat (mean cards per seat-game)"].set_index(["seat", "when"])
    seats = run.table("seats")
    for seat, rows in seats.groupby("seat"):
        for when, label in (("initial", "at setup"), ("final", "at game end")):
            for t in ("FEV", "SNZ", "INJ", "HDA", "MSK", "ICE"):
                assert per_seat.at[(seat, label), t] == pytest.approx(rows[f"{when}_banned_{t.lower()}"].mean())
        assert per_seat.at[(seat, "at setup"), "all types"] == pytest.approx(2.0)  # FS-2.1: two banned cards
        assert per_seat.at[(seat, "at game end"), "all types"] <= 2.0
    calls = run.table("banned_calls")
    by_banned = tables["Call success by banned type of the challenged player"].set_index("banned")
    for code, rows in calls.groupby("banned"):
        name = ("VIR", "FEV", "SNZ", "INJ", "HDA", "MSK", "ICE")[code]
        assert (by_banned.at[name, "n"], by_banned.at[name, "successes"]) == (rows["calls"].sum(), rows["successes"].sum())
    same = calls[calls["banned"] == calls["card"]]
    assert (same["successes"] == same["calls"]).all()  # a call on the banned type itself is always right
    other = tables["Calls on another card than the banned type: share right"].set_index("banned")
    assert other["n"].sum() == calls.loc[calls["banned"] != calls["card"], "calls"].sum()
    assert [c for c, _ in section.figures] == ["Banned cards per seat-game by type", "Call success by banned type",
                                               "Call success by banned type and played card"]
