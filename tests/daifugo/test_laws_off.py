"""The study option ``laws = off`` (DEC-53): no law in force in any round (§2.5), each round's
law card drawn and set aside, the madness precepts revealed and drafted as with the laws on
(§2.6, DEC-3); both engines play such games alike."""

import pandas as pd
import pytest

from sim.kit.config import ConfigError
from sim.games.daifugo import GAME
from tests.engines import engines_agree

from .test_scenarios import run

MIXED = ["strategist", "greedy", "random", "strategist", "random", "greedy"]
N_CARDS = 25


def config(laws, players=4, seed=31, **over):
    return GAME.make_config(players=players, bots=MIXED[:players], seed=seed, overrides={"laws": laws, **over})


def draft_record(games: pd.DataFrame) -> pd.DataFrame:
    """Per game the round each rule card was drafted in (``pick_round_NN``, 0: never)."""
    return games[[f"pick_round_{c:02d}" for c in range(1, N_CARDS + 1)]].reset_index(drop=True)


def drafts_per_round(games: pd.DataFrame, rounds: int) -> pd.DataFrame:
    """Per game, the number of precepts drafted in each round."""
    rec = draft_record(games)
    return pd.DataFrame({r: (rec == r).sum(axis=1) for r in range(1, rounds + 1)})


@pytest.mark.parametrize("mode,players", [("normal", 4), ("madness", 5)])
def test_no_law_in_force_and_both_engines_agree(mode, players):
    """DEC-53 / §2.5: with laws off no round has a law (rounds.law, games.law_k, games.laws_mask
    all 0) and the engines play 300 games move for move alike."""
    t = engines_agree(GAME, config("off", players, mode=mode), 0, 300)
    games = t["games"]
    assert len(t["rounds"]) == 300 * (3 if mode == "madness" else 5)
    assert (t["rounds"]["law"] == 0).all() and (games["laws_mask"] == 0).all()
    assert (games.filter(regex=r"^law_\d+$") == 0).all().all()


def test_madness_precepts_drafted_as_with_laws_on():
    """§2.6 / DEC-53: laws off keeps the draft: the same seed deals the same rule deck, the law
    card of each round is set aside, so every game drafts the same cards in the same rounds
    (pick_round_NN) as with the laws on, n per round, and no card that is a law of the laws-on
    game is ever a precept with the laws off."""
    over = {"mode": "madness"}
    on = GAME.run_batch(config("on", **over), 0, 300, "fast")["games"]
    off = engines_agree(GAME, config("off", **over), 0, 300)["games"]
    pd.testing.assert_frame_equal(draft_record(off), draft_record(on))
    assert (drafts_per_round(off, 3) == 4).all().all()
    assert (on["laws_mask"].to_numpy() != 0).all()
    owned = off[[f"owner_{c:02d}" for c in range(1, N_CARDS + 1)]].to_numpy() >= 0
    laws_on = ((on["laws_mask"].to_numpy()[:, None] >> range(N_CARDS)) & 1) == 1
    assert not (owned & laws_on).any()


def test_short_deck_runs_out_in_the_same_round():
    """DEC-3 / DEC-53: six players, four rounds, 25 cards: 7 cards a round, so round 4 has its
    law and 3 precepts; with the laws off the law card is still drawn, so round 4 drafts 3 too
    (not 4), exactly as with the laws on."""
    over = {"mode": "madness", "madness_rounds": 4}
    on = GAME.run_batch(config("on", 6, **over), 0, 200, "fast")["games"]
    off = engines_agree(GAME, config("off", 6, **over), 0, 200)["games"]
    per_round = drafts_per_round(off, 4)
    assert (per_round[[1, 2, 3]] == 6).all().all() and (per_round[4] == 3).all()
    pd.testing.assert_frame_equal(per_round, drafts_per_round(on, 4))
    assert (off["laws_mask"] == 0).all()


def test_scenario_deal_sets_the_law_card_aside():
    """§2.5 / DEC-53 in a scenario: the deal draws the top rule card (09) and sets it aside,
    no law; madness then reveals the next four for the draft (§2.6)."""
    out = run([[]] * 4, [], phase="deal", rule_deck=[9, 7, 14, 15, 19, 21],
              params={"mode": "madness", "laws": "off"})
    st = out["state"]
    assert st["laws"] == [] and st["rule_deck"] == [21] and st["revealed"] == [7, 14, 15, 19]
    assert out["waiting"]["decision"] == "draft"
    assert any("09" in e and "set aside" in e for e in out["events"])
    on = run([[]] * 4, [], phase="deal", rule_deck=[9, 7, 14, 15, 19, 21], params={"mode": "madness"})
    assert on["state"]["laws"] == [9] and on["state"]["revealed"] == st["revealed"]


def test_scenario_with_laws_off_refuses_laws_in_force():
    """DEC-53: a state with laws in force contradicts laws = off (malformed input)."""
    with pytest.raises(ConfigError, match="laws = off"):
        run([["S3"], ["S4"], ["S5"], ["S6"]], [], laws=[9], params={"laws": "off"})
