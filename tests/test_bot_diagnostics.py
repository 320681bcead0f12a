"""Bot diagnostics (analysis.bot_diagnostics) on hand-made counts with known answers: each test
fires when the synthetic bot's habit disagrees with what its choice yields, and stays silent
when they agree."""

import numpy as np
import pandas as pd
import pytest

from analysis import bot_diagnostics as bd
from analysis.findings import LISTS
from sim.run.stats import rank_correlation

RUN = "Toy: toy"


def calls(vir_tries, vir_ok):
    return pd.DataFrame({"choice": ["VIR", "FEV", "SNZ"], "tries": [vir_tries, 1000, 800],
                         "successes": [vir_ok, 400, 300]})


def test_futile_choice_fires_on_a_choice_that_never_succeeds():
    (d,) = bd.futile_choices(calls(500, 0), RUN, "random", "calls on {}", "right", of="judged calls")
    assert (d.bot, d.does, d.count, d.n, d.value) == ("random", "calls on VIR", 500, 2300, 0.0)
    assert d.value_hi < bd.MAX_SUCCESS and d.ref_value == pytest.approx(700 / 1800)
    assert d.sentence.startswith("toy: random calls on VIR 500 times (21.7% of all judged calls, every bot's together) and 0 of them are right")


@pytest.mark.parametrize("tries, ok", [(500, 50), (99, 0), (0, 0)])
def test_futile_choice_silent_when_it_succeeds_or_is_rare(tries, ok):
    # succeeding 10% of the time, or too few tries to tell (the bound: >= MIN_TRIES)
    assert bd.futile_choices(calls(tries, ok), RUN, "random", "calls on {}", "right") == []


def cards(rare_used, player_wins, nonplayer_wins):
    """Bot 'shy' plays MSK in ``rare_used`` of 1000 seat-games; bot 'keen' plays it in 500 of
    1000, those seats winning ``player_wins`` of 500 against ``nonplayer_wins`` of the other 500."""
    return pd.DataFrame([
        {"bot": "shy", "card": "MSK", "seats": 1000, "used": rare_used, "used_wins": rare_used // 4,
         "unused_wins": 250},
        {"bot": "keen", "card": "MSK", "seats": 1000, "used": 500, "used_wins": player_wins,
         "unused_wins": nonplayer_wins},
        {"bot": "shy", "card": "TP", "seats": 1000, "used": 600, "used_wins": 150, "unused_wins": 100},
        {"bot": "keen", "card": "TP", "seats": 1000, "used": 20, "used_wins": 5, "unused_wins": 245},
    ])


def test_unused_winner_fires_when_the_card_measurably_wins():
    out = bd.unused_winners(cards(10, 300, 150), RUN)
    assert [(d.bot, d.does, d.count, d.n) for d in out] == [("shy", "plays MSK", 10, 1000)]
    d = out[0]
    assert (d.value, d.ref_value) == (0.6, 0.3) and d.value_lo > d.ref_hi
    assert "keen's seats that play it win 60.0% against 30.0%" in d.sentence


@pytest.mark.parametrize("rare_used, player_wins, nonplayer_wins", [
    (10, 150, 150),   # the card does not win more: the habit agrees with its power
    (10, 140, 160),   # it wins less
    (300, 300, 150),  # the bot plays it often
])
def test_unused_winner_silent_when_habit_agrees(rare_used, player_wins, nonplayer_wins):
    assert bd.unused_winners(cards(rare_used, player_wins, nonplayer_wins), RUN) == []


def test_unused_winner_needs_the_difference_to_survive_bh():
    # a difference of 3 points on 500 vs 500 seats: the interval includes 0
    assert bd.unused_winners(cards(10, 165, 150), RUN) == []


POWER = pd.DataFrame({"card": [f"{c:02d}" for c in range(1, 9)],
                      "win_diff": np.linspace(-0.08, 0.08, 8), "win_diff_lo": np.linspace(-0.09, 0.07, 8),
                      "win_diff_hi": np.linspace(-0.07, 0.09, 8)})


def drafts(rates):
    return pd.DataFrame({"bot": "drafter", "card": POWER["card"], "offered": 400,
                         "chosen": [int(400 * r) for r in rates]})


def test_draft_against_power_fires_when_the_bot_prefers_the_weakest():
    (d,) = bd.order_against_power(drafts(np.linspace(0.6, 0.1, 8)), POWER, RUN)  # weakest card taken most
    assert (d.bot, d.count, d.n, d.value) == ("drafter", 240, 400, pytest.approx(-0.08))
    assert d.ref_value == pytest.approx(0.08)
    assert "rank correlation of its first-pick rate of a card with the holders' win-rate change is -1.00" in d.sentence


@pytest.mark.parametrize("rates", [np.linspace(0.1, 0.6, 8),  # prefers the strongest: agrees
                                   [0.3, 0.2, 0.4, 0.3, 0.2, 0.4, 0.3, 0.3]])  # no order
def test_draft_silent_when_preference_agrees_or_is_flat(rates):
    assert bd.order_against_power(drafts(rates), POWER, RUN) == []


def test_draft_needs_enough_offers_and_cards():
    few = drafts(np.linspace(0.6, 0.1, 8)).assign(offered=bd.MIN_OFFERED - 1, chosen=5)
    assert bd.order_against_power(few, POWER, RUN) == []
    assert bd.order_against_power(drafts(np.linspace(0.6, 0.1, 8)).head(bd.MIN_CARDS - 1), POWER, RUN) == []


def test_rank_correlation_interval_and_test():
    r = rank_correlation([1, 2, 3, 4, 5, 6, 7, 8], [2, 1, 4, 3, 6, 5, 8, 7])
    assert r["rho"] == pytest.approx(0.904762, abs=1e-6) and r["n"] == 8
    assert r["lo"] == pytest.approx(0.42789, abs=1e-4) and r["hi"] == pytest.approx(0.98760, abs=1e-4)
    assert r["p"] < 0.05 and r["lo"] > 0
    assert np.isnan(rank_correlation([1, 2, 3], [1, 2, 3])["rho"])


def test_diagnostics_are_a_part_of_their_own_not_a_findings_list():
    assert bd.PART not in {title for title, _ in LISTS.values()}
    table = bd.table(bd.futile_choices(calls(500, 0), RUN, "random", "calls on {}", "right"))
    assert list(table.columns) == list(bd.COLUMNS) and len(table) == 1
    row = table.iloc[0]
    assert (row["times"], row["reference (95% CI)"][:6]) == ("500 of 2,300", "38.9% ")


DECK = [f"{c:02d}" for c in range(1, 26)]
ORDER = ["05", "21", "04", "12", "09", *[c for c in DECK if c not in ("05", "21", "04", "12", "09")][::-1]]
FOLLOWS = "Its first cards go to whoever picks first."


def offers(bot, rounds, choose, seed=7):
    """``rounds`` drafts of four cards dealt from the 25: the bot makes every pick (4, 3, 2 and 1
    cards on offer), choosing with ``choose(offered, rng)``; one row per (decision, card on offer)."""
    rng = np.random.default_rng(seed)
    rows, decision = [], 0
    for _ in range(rounds):
        left = list(rng.choice(DECK, 4, replace=False))
        while left:
            took = choose(left, rng)
            rows += [(bot, decision, c, c == took) for c in left]
            left.remove(took)
            decision += 1
    return pd.DataFrame(rows, columns=["bot", "decision", "card", "chosen"])


def by_order(left, rng):
    return min(left, key=ORDER.index)


def at_random(left, rng):
    return left[rng.integers(len(left))]


def test_fixed_draft_fires_on_a_fixed_order_and_recovers_it():
    table = offers("fixed", 600, by_order)
    assert list(bd.preference_order(table).index) == ORDER
    assert list(bd.preference_order(table, fit_max=900).index) == ORDER  # fitted on 900 of the 1,800, evenly spread
    (d,) = bd.fixed_draft(table, RUN, FOLLOWS)
    assert (d.bot, d.count, d.n, d.rate) == ("fixed", 1800, 1800, 1.0)  # three decisions a draft have a choice
    assert d.does == "drafts by one fixed order (05, 21, 04 first)" and d.lo >= bd.MIN_FIXED
    assert (d.value, d.ref_value, d.ref_lo, d.ref_hi) == (1.0, 0.25, 0.25, 0.25)  # 05 is taken at its first offer, of 4
    assert d.sentence.startswith("toy: fixed drafts by one fixed order: in 1,800 of its 1,800 draft decisions")
    assert d.sentence.endswith(FOLLOWS)
    row = bd.table([d]).iloc[0]
    assert (row["times"], row["rate (95% CI)"], row["reference (95% CI)"]) == ("1,800 of 1,800", "100.0% (99.8% to 100.0%)",
                                                                               "25.0% (25.0% to 25.0%)")


def test_fixed_draft_silent_on_a_random_drafter():
    table = offers("random", 600, at_random)
    assert bd.fixed_draft(table, RUN, FOLLOWS) == []
    firsts = bd.first_choices(table, bd.preference_order(table))
    assert len(firsts) == 1800 and firsts["took_first"].mean() < 0.5  # about one in the cards on offer


def test_fixed_draft_needs_enough_decisions_and_a_high_share():
    assert bd.fixed_draft(offers("fixed", 33, by_order), RUN, FOLLOWS) == []  # 99 decisions with a choice
    (d,) = bd.fixed_draft(offers("fixed", 34, by_order), RUN, FOLLOWS)
    assert d.n == 102 and d.lo == pytest.approx(0.9637, abs=1e-4)  # Wilson lower bound of 102 of 102

    def mostly(left, rng):  # the fixed order nine times in ten: its share's lower bound stays below 95%
        return by_order(left, rng) if rng.random() < 0.9 else at_random(left, rng)

    assert bd.fixed_draft(offers("mostly", 600, mostly), RUN, FOLLOWS) == []


def test_fixed_draft_judges_each_bot_on_its_own_decisions():
    table = pd.concat([offers("fixed", 300, by_order), offers("random", 300, at_random, seed=8)])
    table["decision"] = table["bot"].map({"fixed": 0, "random": 10_000}) + table["decision"]
    assert [d.bot for d in bd.fixed_draft(table, RUN, FOLLOWS)] == ["fixed"]
