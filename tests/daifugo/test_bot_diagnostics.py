"""The fixed-draft bot diagnostic (analysis.bot_diagnostics.fixed_draft) on real madness runs,
its decisions rebuilt from the draft record (§2.6, DEC-5, DEC-6: games.pick_NN, pick_round_NN)."""

import pytest

from analysis import bot_diagnostics as bd
from analysis.games import daifugo
from analysis.load import Run
from sim.run import runner
from sim.games.daifugo import GAME

BOTS = ["random", "strategist", "random", "strategist"]
BY_VP = {"bot.strategist.draft_card_weight": 0, "bot.strategist.draft_fit_weight": 0,
         **{f"precept_vp_{c:02d}": c for c in range(1, 26)}}  # score = 10 x VP: one strict order, 25 first


def played(tmp_path, games, overrides):
    cfg = GAME.make_config(bots=BOTS, seed=3, overrides={"mode": "madness", **overrides})
    runner.run(cfg, games, tmp_path / "run", runner.RunOptions(batch_size=games // 2, progress=False))
    return Run(tmp_path / "run")


def shares(offers):
    """Per bot: its fitted order and the share of decisions taking that order's first card on offer."""
    out = {}
    for bot, g in offers.groupby("bot"):
        order = bd.preference_order(g)
        out[bot] = (list(order.index), bd.first_choices(g, order)["took_first"].mean())
    return out


def test_draft_decisions_rebuilt_from_the_pick_record(tmp_path):
    """Per round: four decisions on 4, 3, 2 and 1 cards (pick >= p still on offer), one card chosen each."""
    offers = daifugo.draft_offers(played(tmp_path, 100, {"madness_rounds": 3}))
    per = offers.groupby("decision").agg(k=("card", "size"), chosen=("chosen", "sum"))
    assert offers["decision"].nunique() == 100 * 3 * 4 and (per["chosen"] == 1).all()
    assert per["k"].value_counts().to_dict() == {4: 300, 3: 300, 2: 300, 1: 300}


def test_default_strategist_follows_no_single_order_but_its_first_pick_is_fixed(tmp_path):
    """D1: strategist scores 10 x DRAFT_PREF + 10 x VP (1 each) + hand fit. DRAFT_PREF holds
    ties (eight cards at 2, eight at 3) that the fit of the dealt hand breaks, and a fit above
    10 overturns one step of preference: it follows no single order (92% here), but it takes
    05 Trickster whenever it is offered, so it is flagged for that; random follows no order
    (about one in the cards on offer) and is not."""
    offers = daifugo.draft_offers(played(tmp_path, 2000, {}))
    got = shares(offers)
    assert got["strategist"][0][0] == "05 Trickster" and 0.85 < got["strategist"][1] < 0.95
    assert 0.3 < got["random"][1] < 0.42
    (d,) = bd.fixed_draft(offers, "Run: run", daifugo.DRAFT_FOLLOWS)
    assert d.bot == "strategist" and d.lo < bd.MIN_FIXED <= d.value_lo and d.yields == "takes 05 Trickster when offered"


def test_strategist_drafting_by_distinct_vp_is_flagged(tmp_path):
    """With the card value and hand fit weighted 0 and card c worth c VP, strategist's score is
    10 x c: one strict order, 25 first. It is flagged with that order; random is not."""
    run = played(tmp_path, 1000, BY_VP)
    offers = daifugo.draft_offers(run)
    order, share = shares(offers)["strategist"]
    assert [o[:2] for o in order] == [f"{c:02d}" for c in range(25, 0, -1)]
    assert share == 1.0
    (d,) = bd.fixed_draft(offers, "Run: run", daifugo.DRAFT_FOLLOWS)
    assert d.bot == "strategist" and d.does == "drafts by one fixed order (25 Purification Words, 24 Loophole, 23 Wisdom of Three first)"
    assert d in daifugo.bot_diagnostics(run, "Run: run")
