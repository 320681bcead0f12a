"""Precept power free of draft order and the checked VP advice (``analysis.games.daifugo_power``,
``cardlab.advice``), on a constructed madness draft whose card effects are known.

The constructed game: 4 seats, 3 rounds; each round 4 rule cards are revealed and drafted one
each, round 1 from a random first picker clockwise (DEC-6), later rounds last place first
(DEC-5). Every drafter takes the ``favourite`` card when it is offered. Round places are a random
permutation (rank points 3/2/1/0, DEC-19), so no seat is better than another; a precept adds its
``bonus`` in points at game end, like a VP (§1.5, DEC-20); the winners are the top scores."""

from types import SimpleNamespace

import duckdb
import numpy as np
import pandas as pd
import pytest

from analysis.games import daifugo_power as P
from analysis.games import daifugo_vp as A

SEATS, ROUNDS, CARDS = 4, 3, 25
RANK_POINTS = np.array([3, 2, 1, 0])


def draft_game(n_games: int, seed: int, bonus: dict[int, float], favourite: int = 5,
               rank_points=RANK_POINTS) -> dict[str, pd.DataFrame]:
    """The games and seats tables of ``n_games`` constructed games (see the module docstring)."""
    rng = np.random.default_rng(seed)
    games, seats = [], []
    for g in range(n_games):
        deck = rng.permutation(np.arange(1, CARDS + 1))
        owner, pick, pick_round = np.full(CARDS + 1, -1), np.zeros(CARDS + 1, int), np.zeros(CARDS + 1, int)
        points, place = np.zeros(SEATS), np.zeros(SEATS, int)
        for r in range(ROUNDS):
            offered = list(deck[SEATS * r:SEATS * (r + 1)])
            first = int(rng.integers(SEATS))
            order = [(first + i) % SEATS for i in range(SEATS)] if r == 0 else list(np.argsort(-place, kind="stable"))
            for i, seat in enumerate(order):
                card = favourite if favourite in offered else offered[int(rng.integers(len(offered)))]
                offered.remove(card)
                owner[card], pick[card], pick_round[card] = seat, i + 1, r + 1
            finish = rng.permutation(SEATS)  # finish[k]: the seat placed k + 1
            place[finish] = np.arange(1, SEATS + 1)
            points[finish] += rank_points
        for c, b in bonus.items():
            if owner[c] >= 0:
                points[owner[c]] += b
        top = points == points.max()
        games.append({"game": g, **{f"{k}_{c:02d}": v[c] for c in range(1, CARDS + 1)
                                    for k, v in (("owner", owner), ("pick", pick), ("pick_round", pick_round))}})
        seats += [{"game": g, "seat": s, "bot": "drafter", "points": points[s], "win_share": top[s] / top.sum()}
                  for s in range(SEATS)]
    return {"games": pd.DataFrame(games), "seats": pd.DataFrame(seats)}


class DraftRun:
    """The part of ``analysis.load.Run`` the precept analysis and the advice use."""

    def __init__(self, tables: dict[str, pd.DataFrame], seed: int = 0, params: dict | None = None, path="draft"):
        self.con = duckdb.connect()
        for name, df in tables.items():
            self.con.register(name, df)
        self.games_done = len(tables["games"])
        self.path = path
        params = params or {}
        self.config = SimpleNamespace(game="daifugo", seed=seed, params=params,
                                      digest=lambda: f"{path}-{seed}-{sorted(params.items())}")

    def sql(self, query):
        return self.con.execute(query).df()

    def columns(self, name):
        return {r[0]: r[1] for r in self.con.execute(f"DESCRIBE {name}").fetchall()}


def player(bonus: dict[int, float], games: int, react: dict[int, float] | None = None):
    """``play`` for ``cardlab.advice.suggest`` on the constructed game: a VP change ``d`` on card c
    adds ``d`` to its bonus, plus ``react[c] * d`` more (a reaction of the players to the new VP
    that pushes the other way, as a drafter who weighs VP might)."""
    def play(changes, seed, name):
        b = {c: v + changes.get(c, 0) * (1 + (react or {}).get(c, 0.0)) for c, v in bonus.items()}
        return DraftRun(draft_game(games, seed, b), seed=seed, path=name)
    return play


@pytest.fixture(scope="module")
def favourite_run():
    return DraftRun(draft_game(6000, seed=11, bonus={}))


def test_a_card_the_trailing_player_drafts_first_looks_weak_raw_but_is_even_free_of_draft_order(favourite_run):
    power = P.card_power(favourite_run).set_index("id")
    fav = power.loc[5]
    assert fav["first_pick"] > 0.9  # every first picker takes it: from round 2 the last placed (DEC-5)
    raw = favourite_run.sql("""WITH h AS (SELECT g.game, s.win_share - (1 - s.win_share) / 3 AS d FROM games g
                               JOIN seats s ON s.game = g.game AND s.seat = g.owner_05 WHERE g.owner_05 >= 0)
                               SELECT avg(d) AS m, stddev_samp(d) / sqrt(count(*)) AS se FROM h""").iloc[0]
    assert fav["raw_edge"] == pytest.approx(raw["m"]) and raw["m"] + 2 * raw["se"] < -0.02  # looks weak raw
    assert fav["edge_lo"] <= 0 <= fav["edge_hi"] and fav["verdict"] == "even"  # has no power
    assert (power["verdict"] == "even").all()  # no card has power in this game
    corr = P.first_pick_correlation(power.reset_index())
    assert corr["raw_edge"]["rho"] < corr["edge"]["rho"]


def test_the_vp_change_is_the_known_offset_and_its_worth_brackets_it():
    run = DraftRun(draft_game(6000, seed=3, bonus={12: 2}))
    power = P.card_power(run).set_index("id")
    assert power.loc[12, "verdict"] == "too strong"
    assert power.loc[12, "worth_vp_lo"] <= 2 <= power.loc[12, "worth_vp_hi"]  # worth 2 points of final score
    assert abs(power.loc[12, "edge_-2"]) < 0.01 < abs(power.loc[12, "edge_-1"])  # 2 VP less undoes the bonus
    assert P.vp_changes(power.reset_index()) == {12: -2}  # print 1 - 2 = -1 VP (§1.5)


def test_checked_advice_lands_on_the_known_offset_and_the_imbalance_falls():
    bonus = {12: 2, 20: -2}
    source = DraftRun(draft_game(4000, seed=1, bonus=bonus), seed=1, params={"precept_vp_12": 1})
    result = A.suggest(source, player(bonus, 4000))
    answer = result["answer"]
    assert answer["changes"] == {"12": -1, "20": 3}  # 1 - 2 and 1 + 2: the bonuses undone
    assert len(result["rounds"]) == 1 and result["rounds"][0]["seed"] == 1 + A.SEED_OFFSET + 1
    imb = answer["imbalance"]
    assert imb["change"]["hi"] < 0 and imb["after"]["value"] < imb["before"]["value"]
    rows = {r["card"][:2]: r for r in answer["rows"]}
    assert rows["12"]["what to do"] == "print -1 VP" and rows["20"]["what to do"] == "print 3 VP"
    assert answer["sentence"].startswith("Print 12 Collusion at -1 VP (now 1); 20 Descent from Heaven at 3 VP")


def test_a_change_the_check_makes_worse_is_revised_away_and_named_for_a_text_change():
    bonus = {12: 2, 7: 1}
    source = DraftRun(draft_game(4000, seed=2, bonus=bonus), seed=2)
    result = A.suggest(source, player(bonus, 4000, react={7: -4.0}))  # 1 VP less on 07 makes it 3 points stronger
    assert result["rounds"][0]["changes"] == {12: -2, 7: -1} and result["rounds"][0]["worse"] == [7]
    assert result["rounds"][1]["changes"] == {12: -2} and result["dropped"] == [7]
    answer = result["answer"]
    assert answer["changes"] == {"12": -1} and 7 in answer["text_changes"]
    rows = {r["card"][:2]: r for r in answer["rows"]}
    assert rows["07"]["what to do"].startswith("change the text: a VP change left it further from even")
    assert "change its text" in answer["sentence"] and "07 Three-Card Revolution" in answer["sentence"]


def test_advice_its_own_check_makes_worse_is_never_given():
    bonus = {7: 1}
    source = DraftRun(draft_game(4000, seed=4, bonus=bonus), seed=4)
    result = A.suggest(source, player(bonus, 4000, react={7: -4.0}), rounds=3)
    assert result["answer"]["changes"] == {} and result["answer"]["imbalance"] is None
    assert result["answer"]["sentence"].startswith("No VP change is advised: the changes tried")
    assert [r["changes"] for r in result["rounds"]] == [{7: -1}]


def test_revise_steps_a_change_one_vp_back_and_drops_a_one_vp_change():
    assert A.revise({1: -2, 2: 1, 3: 3}, {1, 2}) == ({1: -1, 3: 3}, {2})


def test_paired_imbalance_of_a_run_with_itself_changes_by_exactly_nothing(favourite_run):
    change = P.paired_change(favourite_run, favourite_run)
    assert change["change"] == pytest.approx({"value": 0.0, "lo": 0.0, "hi": 0.0}, abs=1e-12)
    single = P.imbalance(favourite_run)
    assert single["value"] == pytest.approx(change["before"]["value"])
    assert single["lo"] < single["value"] and single["lo"] < single["hi"]  # noise alone: the basic interval reaches lower


def test_an_advice_needs_its_run_and_a_damaged_advice_file_is_a_one_line_error(tmp_path):
    from analysis.games import attach_advice
    from sim.kit.config import ConfigError

    source = DraftRun(draft_game(50, seed=1, bonus={}), seed=1, path="src")
    advice = {"source": "runs/src", "source_digest": source.config.digest(), "answer": {}}
    attach_advice([source], [advice])
    assert source.advice is advice
    with pytest.raises(ConfigError, match="the advice made from runs/src needs that run in the report too"):
        attach_advice([DraftRun(draft_game(50, seed=2, bonus={}), seed=2)], [advice])
    from analysis import advice as files

    (tmp_path / files.ADVICE_FILE).write_text("{not json")
    assert files.is_advice(tmp_path)
    with pytest.raises(ConfigError, match="cannot read the advice"):
        files.load_advice(tmp_path)
    (tmp_path / files.ADVICE_FILE).write_text('{"source": "x"}')
    with pytest.raises(ConfigError, match="is not an advice file of cardlab suggest"):
        files.load_advice(tmp_path)


def test_on_a_finer_point_scale_a_card_worth_half_a_vp_gets_a_printable_change():
    """Card 12 adds half a point: a whole VP less overshoots, one VP on the doubled scale undoes it."""
    from sim.kit.config import RunConfig
    from sim.games import get_game

    run = DraftRun(draft_game(6000, seed=5, bonus={12: 0.5}), seed=5, params={"precept_vp_12": 1})
    power = P.card_power(run, scale=2).set_index("id")
    whole = P.card_power(run).set_index("id")
    assert power.loc[12, "edge"] == pytest.approx(whole.loc[12, "edge"])  # the scale changes no edge
    assert abs(power.loc[12, "edge_-1"]) < 0.01 < 0.03 < abs(whole.loc[12, "edge_-1"])
    assert power.loc[12, "worth_vp_lo"] <= 1 <= power.loc[12, "worth_vp_hi"]  # one VP on the doubled scale
    assert P.vp_changes(power.reset_index()) == {12: -1}
    run.game = get_game("daifugo")
    run.config = RunConfig("daifugo", 4, ("strategist",) * 4, 5, {"mode": "madness", "precept_vp_12": 1})

    def play(changes, seed, name):  # the constructed game on the doubled scale: card 12 adds 1 point there
        return DraftRun(draft_game(6000, seed, {12: 1 + changes.get(12, 0)}, rank_points=2 * RANK_POINTS),
                        seed=seed, path=name)

    result = A.suggest(run, play, scale=2)
    assert result["answer"]["changes"] == {"12": 1}  # 2 - 1 on the doubled scale: half a VP now
    assert result["answer"]["imbalance"]["change"]["hi"] < 0
    assert result["scale"] == 2 and result["points"]["rank_points_1"] == 6 and result["points"]["capital_fall_bonus"] == 2
    assert result["answer"]["sentence"].startswith(
        "On a point scale 2 times finer (rank points 6/4/2/0, capital-fall bonus 2, every precept VP times 2): "
        "print 12 Collusion at 1 VP (now 2)")


def test_the_finer_scale_is_the_same_game_with_every_point_and_vp_weight_scaled():
    from sim.kit.config import RunConfig
    from sim.games import get_game

    game = get_game("daifugo")
    cfg = RunConfig("daifugo", 4, ("strategist", "greedy", "strategist", "random"), 1,
                    {"mode": "madness", "rank_points_1": 4, "precept_vp_06": 2},
                    {"strategist": {"draft_vp_weight": 6.0}})
    params, bots = A.scaled(SimpleNamespace(game=game, config=cfg), 3)
    assert [params[f"rank_points_{i}"] for i in range(1, 7)] == [12, 6, 3, 0, 0, 0]
    assert params["capital_fall_bonus"] == 3 and params["precept_vp_06"] == 6 and params["precept_vp_07"] == 3
    assert params["mode"] == "madness" and params["hand_size"] == 10  # nothing else changes
    assert bots == {"strategist": {"draft_vp_weight": 2.0}}  # greedy and random do not weigh VP
    assert cfg.bot_params == {"strategist": {"draft_vp_weight": 6.0}} and cfg.params["precept_vp_06"] == 2
