"""Game feel measures (docs/rules/daifugo.md, "Game feel measures"): the definitions on hand-made
standings, the same columns from both engines on real games, and the report section."""

import numpy as np
import pytest

from sim.games.daifugo import GAME
from sim.games.daifugo import game_feel
from sim.games.daifugo.tables import FEEL_COLS


@pytest.mark.parametrize("standings,winners,expected", [
    # wire to wire: seat 0 leads after every round
    ([[3, 2, 1, 0], [6, 4, 2, 0], [9, 6, 3, 0]], [0], [0, 1, 0, 1]),
    # comeback from last: leaders 1, 2, 2, 0 (two changes); seat 0 last (4th) and 3 behind after
    # round 1, 3 behind after round 2, sole leader only after the last round
    ([[0, 3, 2, 1], [2, 4, 5, 1], [5, 5, 6, 1], [8, 6, 6, 2]], [0], [2, 4, 3, 4]),
    # a shared lead in between is no change; the winner is sole leader again only from round 3
    ([[3, 0, 0, 0], [3, 3, 0, 0], [6, 3, 0, 0]], [0], [0, 3, 0, 1]),
    # a shared win: the winner (lowest winning seat) is not the sole leader at the end
    ([[3, 2, 1, 0], [5, 5, 1, 1]], [0, 1], [0, -1, 0, 1]),
    # one round: the round decides
    ([[3, 2, 1, 0]], [0], [0, 1, 0, 1]),
    # A -> B -> A: two changes; tied for 2nd (place 2) behind by 2
    ([[3, 2, 1, 0], [4, 5, 4, 0], [7, 5, 4, 1]], [0], [2, 3, 1, 2]),
])
def test_game_feel_definitions(standings, winners, expected):
    """lead_changes, leader_from_round, winner_max_behind, winner_worst_place (tables.FEEL_COLS)."""
    assert FEEL_COLS == ["lead_changes", "leader_from_round", "winner_max_behind", "winner_worst_place"]
    assert game_feel(standings, winners) == expected


@pytest.mark.parametrize("mode", ["normal", "madness"])
def test_feel_columns_of_real_games(mode):
    """Both engines fill the columns identically (also checked by the differential tests), and
    they agree with the games' own results: a shared win (DEC-21, tiebreak share) has
    leader_from_round -1, a sole win a round in 1..rounds; a wire-to-wire winner had no lead
    change, was never behind and never below 1st."""
    cfg = GAME.make_config(players=4, seed=3, overrides={"mode": mode})
    fast = GAME.run_batch(cfg, 0, 300, "fast")["games"]
    ref = GAME.run_batch(cfg, 0, 60, "reference")["games"]
    for c in FEEL_COLS:
        assert np.array_equal(fast[c].to_numpy()[:60], ref[c].to_numpy()), c
    g = fast
    rounds = int(g["rounds"].iloc[0])
    shared = g["n_winners"] > 1
    assert (g.loc[shared, "leader_from_round"] == -1).all()
    assert g.loc[~shared, "leader_from_round"].between(1, rounds).all()
    w2w = g["leader_from_round"] == 1
    assert (g.loc[w2w, ["lead_changes", "winner_max_behind"]] == 0).all().all()
    assert (g.loc[w2w, "winner_worst_place"] == 1).all()
    assert g["winner_worst_place"].between(1, 4).all() and (g["winner_max_behind"] >= 0).all()
    assert (g["lead_changes"] <= rounds - 1).all()
    assert shared.any() and w2w.any() and (g["leader_from_round"] == rounds).any()


@pytest.mark.parametrize("params", [{"mode": "madness", "precept_vp_timing": "every_round",
                                     "tiebreak": "last_round_rank"}, {"players_six": True}])
def test_feel_columns_agree_in_variants(params):
    """Precept VP every round (DEC-20 variant), the last-round tiebreak (DEC-21 variant) and six
    players: both engines give the same columns; a tiebreak winner without the sole points lead
    has leader_from_round -1 though n_winners is 1."""
    six = params.pop("players_six", False)
    cfg = GAME.make_config(players=6 if six else 4, seed=5, overrides=params)
    fast = GAME.run_batch(cfg, 0, 80, "fast")["games"]
    ref = GAME.run_batch(cfg, 0, 80, "reference")["games"]
    for c in FEEL_COLS:
        assert np.array_equal(fast[c].to_numpy(), ref[c].to_numpy()), c
    if not six:
        assert (fast["n_winners"] == 1).all() and (fast["leader_from_round"] == -1).any()


# ---------------------------------------------------------------- the report section
from analysis.games.daifugo_feel import feel_section, has_feel, law_table, overall_table  # noqa: E402
from analysis.load import Run  # noqa: E402
from sim.run import runner  # noqa: E402


@pytest.fixture(scope="module")
def feel_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("feel")
    cfg = GAME.make_config(seed=1, overrides={"rule_deck": "03,04,08,09,10,11,19,24"})
    runner.run(cfg, 600, base / "run", runner.RunOptions(batch_size=300, progress=False))
    ctl = GAME.make_config(seed=1, overrides={"rule_deck": ""})
    runner.run(ctl, 600, base / "base", runner.RunOptions(batch_size=300, progress=False))
    return Run(base / "run"), Run(base / "base")


def test_feel_section_figures_match_the_games_table(feel_runs):
    """Every figure of the section is the games table's own share or mean, inside its 95% interval."""
    run, _ = feel_runs
    g = run.table("games")
    sec = feel_section(run)
    assert sec.tables[0][1]["this run"].iloc[0].startswith(f"{g['lead_changes'].mean():.3g} (")  # the PDF's compact form
    overall = sec.tables[1][1].set_index("measure")
    assert overall.loc["lead changes per game", "estimate"] == pytest.approx(g["lead_changes"].mean())
    assert overall.loc["winner's largest deficit (points)", "estimate"] == pytest.approx(g["winner_max_behind"].mean())
    assert overall.loc["decided only in the last round", "estimate"] == pytest.approx((g["leader_from_round"] == 5).mean())
    assert overall.loc["winner was last after some round", "estimate"] == pytest.approx(
        (g["winner_worst_place"] == 4).mean())
    assert overall.loc["shared win", "estimate"] == pytest.approx((g["n_winners"] > 1).mean())
    assert ((overall["lo"] <= overall["estimate"]) & (overall["estimate"] <= overall["hi"])).all()
    decided = sec.tables[2][1]
    assert decided["successes"].sum() == len(g) and decided["rate"].sum() == pytest.approx(1.0)
    assert set(decided["leader_from_round"]) <= {-1, 1, 2, 3, 4, 5}
    behind = sec.tables[3][1]
    assert behind["successes"].tolist() == [int((g["winner_max_behind"] >= k).sum()) for k in range(1, 7)]
    laws = law_table(run)
    assert [c[:2] for c in laws["card"]] == ["03", "04", "08", "09", "10", "11", "19", "24"]
    with4 = g[(g["laws_mask"].to_numpy() >> 3) & 1 == 1]
    row = laws.set_index("id").loc[4]
    assert row["games_with"] == len(with4) and row["shared"] == pytest.approx((with4["n_winners"] > 1).mean())
    assert row["lead_changes_diff"] == pytest.approx(
        with4["lead_changes"].mean() - g.loc[g.index.difference(with4.index), "lead_changes"].mean())
    assert laws.filter(like="_q").stack().between(0, 1).all()
    assert [c for c, _ in sec.figures] == [
        "Round from which the winner leads for good",
        "Game feel per law against the other laws' average: lead changes and last-round decisions",
        "Game feel per law against the other laws' average: comebacks from last and shared wins"]
    assert all(len(f.axes) == 2 for _, f in sec.figures[1:])  # two panels a chart: labels print at 7 pt
    compact = sec.tables[4][1].set_index("card")  # the PDF's per-law table: each difference with its interval
    assert compact.loc[row["card"], "lead changes per game"] == (
        f"{row['lead_changes_diff']:+.2f} ({row['lead_changes_diff_lo']:+.2f} to {row['lead_changes_diff_hi']:+.2f})")
    assert compact.loc[row["card"], "shared win (pp)"].startswith(f"{100 * row['shared_diff']:+.1f} (")
    # the PDF: the two compact tables and the chart of the winner's round; the law charts in the HTML only
    assert set(sec.html_only) == {c for c, _ in sec.tables[1:4] + sec.tables[5:]} | {c for c, _ in sec.figures[1:]}


def test_feel_section_against_the_base_game(feel_runs):
    """With the control run (empty rule deck) the overall table adds the base game's values and
    the run-minus-base difference with its interval; the base game has no law rows."""
    run, base = feel_runs
    t = overall_table(run, base).set_index("measure")
    b = base.table("games")
    assert t.loc["shared win", "base"] == pytest.approx((b["n_winners"] > 1).mean())
    assert np.allclose(t["diff"], t["estimate"] - t["base"])
    assert ((t["diff_lo"] <= t["diff"]) & (t["diff"] <= t["diff_hi"])).all()
    run.control = base
    try:
        sec = feel_section(run)
        assert "base game is the control run" in sec.text
        assert f"Per law (reference: the base game (control run {base.path.name})" in sec.text
        assert [c for c, _ in sec.figures[1:]][0].startswith("Game feel per law against the base game:")
    finally:
        del run.control
    laws = law_table(run, base).set_index("id")  # the one reference of law effects: the whole base game
    with4 = run.table("games")[(run.table("games")["laws_mask"].to_numpy() >> 3) & 1 == 1]
    assert laws.loc[4, "lead_changes_diff"] == pytest.approx(with4["lead_changes"].mean() - b["lead_changes"].mean())
    assert laws.loc[4, "games_without"] == len(b)
    assert law_table(base).empty and len(feel_section(base).tables) == 4


def test_feel_section_of_a_run_without_the_columns():
    class OldRun:
        def columns(self, name):
            return {"game": "BIGINT", "winner": "BIGINT"}
    assert not has_feel(OldRun())
    sec = feel_section(OldRun())
    assert not sec.tables and "no game-feel columns" in sec.text
