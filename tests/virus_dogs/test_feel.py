"""Game feel (docs/rules/virus-dogs.md, "Game feel measures"): the live seat carrying the fewest
viruses (O + HV) leads; lead changes, the turn from which the winner leads for good and the
winner's largest deficit in hand-built scenarios whose values follow from the rules, and the
report section (their consistency over simulated games: tests/test_game_contract.py)."""

import pytest

from sim.games.virus_dogs import GAME
from tests.virus_dogs.test_scenarios import DRAW, END, HIDE, MORE, STOP, P, ok, play, run

FEEL = ("lead_changes", "leader_from_turn", "winner_max_behind")


def feel(out: dict) -> tuple[int, ...]:
    return tuple(out["metrics"]["game"][c] for c in FEEL)


def behind(out: dict) -> list[int]:
    return [s["max_behind"] for s in out["metrics"]["seats"]]


def test_comeback_by_control():
    """Turn 0: P0 (O = 1) draws TP; P1, clean, leads and P0 is 1 behind. Turn 1: P1 hides two
    drawn viruses (VD-6.1), so P0 (1) leads P1 (2): one lead change. Turn 2: P0's control opens
    them (VD-13), P1 is out (VD-19.1) and P0 wins (VD-21.1), leading for good from turn 1."""
    out = ok(run(decisions=[DRAW, STOP, END, DRAW, HIDE, MORE, HIDE, END, play("CTL", 1)],
                 deck=["TP", "V", "V", "DOC", "SHF"], players=[P(["CTL"], open=1), P()]))
    assert out["result"]["winners"] == [0] and out["metrics"]["game"]["turns"] == 3
    assert feel(out) == (1, 1, 1)
    assert behind(out) == [1, 1]


def test_a_tie_is_no_lead():
    """Three players: P0's control opens P1's hidden V (O = 2: out, VD-13, VD-19.1); after turn 0
    P0 and P2 carry nothing, a tie, so nobody leads; P2 hides a drawn virus in turn 1 (VD-6.1) and
    P0 leads alone, the first lead (no change). P1 was never observed in play (deficit 0); the
    game goes on, so there is no winner (-1)."""
    out = ok(run(n=3, turns=2, decisions=[play("CTL", 1), DRAW, STOP, END, DRAW, HIDE, STOP, END],
                 deck=["SHF", "V", "DOC"], players=[P(["CTL"]), P(["V"], open=1), P()]))
    assert not out["finished"] and out["state"]["players"][2]["hand"] == ["V"]
    assert feel(out) == (0, -1, -1)
    assert behind(out) == [0, 0, 1]


def test_hard_quarantine_lead_counts_at_turns():
    """TS-42 (VD-20.6, VD-21.1): P0 pulls P1's hidden V in hard quarantine; P1 is out and P0
    wins there. Before it both carry 2 viruses (no leader); the lead is taken in hard
    quarantine, which counts as turn index ``turns`` (as ``elim_turn``)."""
    out = ok(run(phase="hq", turn=5, players=[P(["V", "SHF"], open=1), P(["V"], open=1)]))
    assert out["result"]["outcome"] == "last_standing_hq"
    assert feel(out) == (0, 5, 0)


def test_shared_win_has_no_single_winner_measures():
    """TS-44 (VD-20.8, VD-20.10): a stalemate shared by all live players (all_remaining_shared):
    no single winner, so leader_from_turn and winner_max_behind are -1; P1 led (O = 0 vs 1)."""
    out = ok(GAME.scenario({"game": "virus-dogs", "players": 2, "params": {"hq_stalemate": "all_remaining_shared"},
                            "state": {"phase": "hq", "players": [P(["SHF"], open=1), P(["DOC"])]}}))
    assert out["result"]["winners"] == [0, 1]
    assert feel(out) == (0, -1, -1) and behind(out) == [1, 0]


def test_feel_section_figures_match_the_tables(tmp_path):
    """The Game feel section's figures equal the same counts taken in pandas, each inside its 95%
    interval; the chart counts the games with one winner by the tenth of the game in which the winner took the
    lead for good."""
    import matplotlib

    matplotlib.use("Agg")
    from analysis.games.virus_dogs import feel_section
    from analysis.load import Run
    from sim import runner

    runner.run(GAME.make_config(seed=4), 3000, tmp_path / "run", runner.RunOptions(batch_size=1000, progress=False))
    run = Run(tmp_path / "run")
    sec = feel_section(run)
    t = sec.tables[0][1].set_index("measure")
    g, s = run.table("games"), run.table("seats")
    single = g[g["n_winners"] == 1]
    assert t.at["lead changes per game", "value"] == pytest.approx(g["lead_changes"].mean())
    assert t.at["winner was 1+ virus behind at some point", "value"] == pytest.approx(
        (single["winner_max_behind"] >= 1).mean())
    assert t.at["shared wins", "value"] == pytest.approx((g["n_winners"] > 1).mean())
    out = s[s["eliminated"]].merge(g[["game", "turns"]], on="game")
    wait = (out["turns"] - 1 - out["elim_turn"]).clip(lower=0)
    assert t.at["turns an eliminated player waits", "value"] == pytest.approx(wait.mean())
    shown = t.dropna(subset=["lo"])
    assert ((shown["lo"] <= shown["value"] + 1e-12) & (shown["value"] <= shown["hi"] + 1e-12)).all()
    cut = int(g["turns"].quantile(0.99, interpolation="higher"))
    longer = int((g["turns"] > cut).sum())
    assert t.at[f"games longer than {cut} turns", "value"] == pytest.approx(longer / len(g))
    tenth = (10 * (single["leader_from_turn"] + 1).clip(upper=single["turns"]) + single["turns"] - 1) // single["turns"]
    drawn = sec.figures[0][1].axes[0].patches[0].get_path().vertices[:, 1]
    assert tenth.between(1, 10).all() and drawn.max() == pytest.approx(tenth.value_counts(normalize=True).max())
