"""Findings first: constructed data with a known effect produce exactly that finding; fair
data produce none; q-values are statsmodels' Benjamini-Hochberg on the same p-values."""

from types import SimpleNamespace

import duckdb
import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from analysis import findings as F


class FrameRun:
    """The part of ``analysis.load.Run`` the findings use, over in-memory frames."""

    game = SimpleNamespace(stall_flags={"turn_cap": "the turn cap"})  # a game whose turn cap is a stall
    path = "runs/frames"

    def __init__(self, games: pd.DataFrame, seats: pd.DataFrame):
        self.con = duckdb.connect()
        self.con.register("games", games)
        self.con.register("seats", seats)

    def sql(self, query):
        return self.con.execute(query).df()

    def columns(self, name):
        return {r[0]: r[1] for r in self.con.execute(f"DESCRIBE {name}").fetchall()}


def table(n_games=4000, players=4, seat0_extra=0.0, turn_cap_rate=0.0, alpha_share=0.0):
    """Game g is won by seat (g // players) % players: a perfectly fair table, and with bots
    rotated over seats every bot wins as often;
    seat 0 also wins (a shared win) in the first ``seat0_extra`` share of the other games;
    in the first ``alpha_share`` of the games the alpha bot's seat wins instead (every seat as
    often, when that share is a multiple of players^2 games: seat order stays fair)."""
    g = np.arange(n_games)
    winner = np.where(g < int(alpha_share * n_games), (-g) % players, (g // players) % players)
    games = pd.DataFrame({"game": g, "winner": winner, "turn_cap": g < int(turn_cap_rate * n_games)})
    game = np.repeat(g, players)
    seat = np.tile(np.arange(players), n_games)
    bots = np.array(["alpha", "beta", "gamma", "delta"][:players])
    win = seat == np.repeat(winner, players)
    extra = (seat == 0) & (game < seat0_extra * n_games)
    seats = pd.DataFrame({"game": game, "seat": seat, "bot": bots[(seat + game) % players], "win": win | extra})
    return FrameRun(games, seats)


def test_fair_table_has_no_findings():
    cands = F.candidates([("fair", table())])
    assert len(cands) == 4 + 4 + 1  # seats, bots, turn cap
    assert F.findings(cands) == []


def test_seat_zero_advantage_is_found_first():
    cands = F.candidates([("biased", table(seat0_extra=0.2))])
    found = F.findings(cands)
    assert found and found[0].subject == "seat 0" and found[0].kind == "seat"
    rate = (1000 + 0.2 * 3000 * 1) / 4000  # own quarter + the extra shared wins among the other games
    assert found[0].rate == pytest.approx((1000 + 600) / 4000) and found[0].rate == pytest.approx(rate)
    assert found[0].effect == pytest.approx(0.4 - 0.25) and found[0].q < 0.05
    assert found[0].lo < found[0].rate < found[0].hi
    assert all(f.kind == "seat" for f in found if f.subject != "a shared win")  # bots rotate: no bot stands out
    assert "seat 0 wins 40.0% of games" in found[0].sentence()


def test_turn_cap_above_the_tolerated_rate_is_found():
    found = F.findings(F.candidates([("capped", table(turn_cap_rate=0.05))]))
    assert [f.subject for f in found] == ["the turn cap"]
    assert found[0].sentence().startswith("capped: The turn cap ends 5.0% of games")
    assert found[0].rate == pytest.approx(0.05) and found[0].baseline == F.MAX_STALL_RATE


def test_small_effects_stay_below_the_practical_threshold():
    cands = F.candidates([("biased", table(n_games=400_000, seat0_extra=0.004))])
    assert F.findings(cands, min_effect=0.01) == []
    assert F.findings(F.candidates([("biased", table(n_games=400_000, seat0_extra=0.004))]), min_effect=0.001)


def test_an_effect_that_goes_the_way_its_measure_should_is_listed_last_with_nothing_to_change():
    from analysis.candidate import Candidate

    def law(name, effect, aim):
        return Candidate("df", "Laws", f"law {name} (king retention)", "law", 0.4 + effect, 0.39 + effect,
                         0.41 + effect, 0.4, effect, 1e-9, head=f"with law {name} in force the king stays king in",
                         tail="of rounds", base="without it", aim=aim)

    cands = [law("08 Down", -0.17, -1), law("02 Up", 0.05, -1), law("03 Untargeted", -0.03, 0)]
    design = F.sections_from(cands)[0]
    assert [item[0].split(" in force")[0] for item in design.items] == [
        "df: with law 02 Up", "df: with law 03 Untargeted", "df: with law 08 Down"]
    assert design.items[-1][0].endswith("; lower is the aim: nothing to change.")
    assert "nothing to change" not in design.items[0][0] + design.items[1][0]
    assert "then the effects that go the way their measure should" in design.text
    assert [c.welcome for c in cands] == [True, False, False]


def test_q_values_are_statsmodels_benjamini_hochberg():
    cands = F.adjust(F.candidates([("a", table(seat0_extra=0.03)), ("b", table(turn_cap_rate=0.012))]))
    p = [c.p for c in cands]
    expected = multipletests(p, alpha=0.05, method="fdr_bh")[1]
    assert [c.q for c in cands] == list(expected)


def test_report_opens_with_linked_findings_and_a_table_of_contents(toy, tmp_path):
    import re

    from reports.build import build
    from sim.run import runner

    cfg = toy.make_config(players=2, bots=["plain", "lucky"], seed=5, overrides={"lucky_bonus": 3})
    runner.run(cfg, 2000, tmp_path / "run", runner.RunOptions(batch_size=1000, progress=False))
    html = build([tmp_path / "run"], tmp_path / "rep")[0].read_text()
    ids = set(re.findall(r'id="([^"]+)"', html))
    links = re.findall(r'href="#([^"]+)"', html)
    assert links and set(links) <= ids  # every link of the contents and of the findings resolves
    parts = re.findall(r'<h1 id="[^"]+">([^<]+)</h1>', html)
    assert parts[:3] == ["Verdict", "Findings", "Bot diagnostics"] and parts[-1] == "Appendix"
    lists = re.findall(r'<h2 id="findings-[^"]+">([^<]+)</h2>', html)
    assert lists == ["Design issues", "Bot strength", "Sanity checks"]
    assert re.search(r'<span class="mark (green|amber|red)"', html)  # the verdict lines carry their marks
    bots = re.search(r'id="findings-bot-strength".*?<ol class="findings">(.*?)</ol>', html, re.S).group(1)
    assert "bot lucky wins" in bots and 'href="#high-card-lucky-bonus-3-2-players-win-rate-by-seat-and-by-bot"' in bots
    assert "Benjamini-Hochberg" in html and "Every test of the findings" in html
    diag = re.search(r'<h2 id="bot-diagnostics-high-card-lucky-bonus-3-2-players">.*?<h[12] ', html, re.S)
    assert diag and "None fires" in diag.group(0)  # the toy game has no diagnostics hook


def verdict_of(run):
    """The run's verdict page (rule lines, overall, what to change) and its bot and engine lines."""
    from types import SimpleNamespace

    from analysis import verdict as V

    run.config = SimpleNamespace(game="none")
    cands = F.candidates([("run", run)])
    F.findings(cands)  # fills the q-values
    page, others = V.section("run", run, cands, F.MIN_EFFECT)
    assert others.title == "run: bots and engine"
    return page, others


def test_verdict_marks_a_fair_table_green_and_a_seat_advantage_red():
    fair, others = verdict_of(table())
    assert [lv for lv, _ in fair.marks] == ["green", "green", "green", "green"]
    assert fair.marks[0] == ("green", "Overall, on the rules: fine.")
    assert fair.marks[3] == ("green", "No game has more than one winner (tolerated: 5.0% of games).")
    assert fair.marks[1][1].startswith("Seat order does not matter in practice: the best seat")
    assert fair.text == "No rule issue found."
    assert [lv for lv, _ in others.marks] == ["green"] and others.marks[0][1].startswith("Bots: No strategy dominates")
    biased, _ = verdict_of(table(seat0_extra=0.2))  # seat 0: 40% against an even share of 28.75% (printed 28.7%)
    level, text = biased.marks[1]
    assert level == "red" and text.startswith("Seat order matters: the best seat (seat 0) wins 40.0% of games")
    assert "an even share is 28.7%" in text and biased.marks[0] == ("red", "Overall, on the rules: act on it.")
    capped, _ = verdict_of(table(turn_cap_rate=0.02))  # twice the tolerated 1%: amber, not red
    assert capped.marks[2] == ("amber", "The turn cap ends 2.0% of games (likely 1.6% to 2.5%); tolerated: 1.0%. "
                                        "Prescription: not searched yet (cardlab suggest runs/frames --out DIR, then "
                                        "give DIR to the report).")
    assert capped.marks[0] == ("amber", "Overall, on the rules: worth a look.")
    assert capped.text == "What to change: make fewer games end at the turn cap (2.0% of games; tolerated: 1.0%)."


def test_what_to_change_names_the_uneven_seat_and_by_how_much():
    # seat 0 wins its own 1,000 games and 600 shared ones: 40.0% against 3,000 of 12,000 (25.0%) for the others
    page, _ = verdict_of(table(seat0_extra=0.2))
    assert page.text == ("What to change: even out seat order: seat 0 wins 15.0 percentage points more often than the "
                         "other seats (40.0% of games against 25.0%), so compensate the other seats; if one winner is "
                         "meant, add a tie-break (15.0% of games have more than one winner; tolerated: 5.0%).")


def test_shared_wins_above_the_tolerated_share_are_a_rule_line():
    """600 of 4,000 games (15%) have two winners: three times the tolerated 5%, so red, a rule line
    that cardlab suggest prescribes for; 3% of games (120) stay green."""
    page, _ = verdict_of(table(seat0_extra=0.2))
    lv, text = page.marks[-1]
    assert lv == "red" and text == ("A shared win (more than one winner) ends 15.0% of games (likely 13.9% to 16.1%); "
                                    "tolerated: 5.0%. Prescription: not searched yet (cardlab suggest runs/frames "
                                    "--out DIR, then give DIR to the report).")  # the rule line shared_wins
    found = F.findings(F.candidates([("run", table(seat0_extra=0.2))]))
    assert [c.list for c in found if c.subject == "a shared win"] == ["design"]
    few, _ = verdict_of(table(seat0_extra=0.04))
    assert few.marks[-1][0] == "green" and few.marks[-1][1].startswith("A shared win (more than one winner) ends 3.0%")


def test_overall_ignores_a_dominant_bot():
    # alpha's seat wins the first 1,600 games (every seat 400 times) and a quarter of the rest: 2,200 of 4,000
    page, others = verdict_of(table(alpha_share=0.4))
    bot_level, bot_line = others.marks[0]
    assert bot_level == "red" and bot_line.startswith("Bots: One strategy dominates: the alpha bot wins 55.0% of the games")
    assert page.marks[0] == ("green", "Overall, on the rules: fine.") and page.text == "No rule issue found."
    assert all(not text.startswith(("One strategy", "No strategy")) for _, text in page.marks)


def test_verdict_lines_carry_no_statistics_vocabulary():
    from analysis.verdict import plain

    assert plain("wins 40.0% of games (95% CI 39.1%-40.9%), the worst") == "wins 40.0% of games (likely 39.1% to 40.9%), the worst"
    assert plain("+6.8 plays, 95% CI +6.6 to +6.9 (+12.0%).") == "+6.8 plays, likely between +6.6 and +6.9 (+12.0%)."
    text = " ".join(t for _, t in verdict_of(table(seat0_extra=0.2))[0].marks)
    assert "CI" not in text and " p " not in text and "q-value" not in text
