"""Per-card daifugo analysis (spec §7 "Per rule card") on constructed runs with known effects:
a precept whose holder wins more, laws that shift the seat spread or lengthen rounds, a pair
of laws that interacts, a precept worth a known number of extra points. Each must show in the
forest data and as a finding; a fair run must show none."""

from types import SimpleNamespace

import duckdb
import numpy as np
import pandas as pd
import pytest

from analysis import findings as F
from analysis.games import daifugo_rule_cards as rc
from analysis.games import daifugo as D

PLAYERS, ROUNDS, CARDS = 4, 3, 25


class FrameRun:
    """The part of ``analysis.load.Run`` the analysis uses, over in-memory frames."""

    def __init__(self, tables: dict[str, pd.DataFrame], params: dict | None = None):
        self.con = duckdb.connect()
        for name, df in tables.items():
            self.con.register(name, df)
        self.config = SimpleNamespace(game="daifugo", players=PLAYERS, params=params or {})

    def sql(self, query):
        return self.con.execute(query).df()

    def columns(self, name):
        return {r[0]: r[1] for r in self.con.execute(f"DESCRIBE {name}").fetchall()}


def constructed(n_games=3000, seed=0, holder_card=0, holder_win=0.0, bonus_card=0, bonus=0,
                spread_law=0, length_law=0, pair=(), picks=False, noise=True, laws=True, length_effects=None,
                king_law=0, precepts=True, precept_plays=0):
    """A madness-like run: per round one law and one precept per seat, from a shuffled deck.

    Round positions are a random permutation; with ``spread_law`` in force seat 0 is moved to
    1st in half the rounds; ``length_law`` in force adds 5 plays, both laws of ``pair`` together
    8 plays, each card of ``length_effects`` its number of plays; with ``king_law`` in force the
    king keeps the crown in half the rounds more. ``laws=False``: the base game (no law revealed;
    the law card still set aside, as with ``laws = off``, DEC-53); ``precepts=False``: no precept
    drafted (an empty rule deck); every round with precepts in play ``precept_plays`` longer. Final points: random rank points 3/2/1/0 (0 when ``noise`` is off) plus ``bonus``
    for the holder of ``bonus_card``; a win is the top rank, and the holder of ``holder_card``
    also shares the win in a ``holder_win`` share of the games."""
    rng = np.random.default_rng(seed)
    games, rounds, seats = [], [], []
    for g in range(n_games):
        deck = rng.permutation(np.arange(1, CARDS + 1))
        owner = np.full(CARDS + 1, -1)
        pick = np.zeros(CARDS + 1, int)
        mask = np.zeros(PLAYERS, np.int64)
        laws_mask, in_force, king = 0, 0, -1
        for r in range(ROUNDS):
            law, prec = (deck[5 * r] if laws else 0), (deck[5 * r + 1:5 * r + 5] if precepts else [])
            if laws:
                laws_mask |= 1 << (law - 1)
                in_force |= 1 << (law - 1)
            for i, c in enumerate(prec):
                seat = (i + g + r) % PLAYERS
                owner[c], pick[c] = seat, i + 1
                mask[seat] |= 1 << (c - 1)
            order = rng.permutation(PLAYERS)  # order[k] = seat finishing k+1
            if spread_law and in_force >> (spread_law - 1) & 1 and rng.random() < 0.5:
                order = np.concatenate([[0], order[order != 0]])
            if king_law and king >= 0 and in_force >> (king_law - 1) & 1 and rng.random() < 0.5:
                order = np.concatenate([[king], order[order != king]])
            pos = np.empty(PLAYERS, int)
            pos[order] = np.arange(1, PLAYERS + 1)
            plays = 20 + int(rng.integers(-3, 4))
            if length_law and in_force >> (length_law - 1) & 1:
                plays += 5
            if pair and all(in_force >> (c - 1) & 1 for c in pair):
                plays += 8
            plays += sum(v for c, v in (length_effects or {}).items() if in_force >> (c - 1) & 1)
            plays += precept_plays if precepts else 0
            rounds.append({"game": g, "round": r + 1, "law": law, "king": king,
                           "king_kept": king >= 0 and pos[king] == 1, "plays": plays,
                           **{f"pos_s{q}": pos[q] for q in range(PLAYERS)}})
            king = int(order[0])
        rank = rng.permutation(PLAYERS)
        points = (3 - rank) * noise + bonus * ((mask >> (bonus_card - 1)) & 1 if bonus_card else 0)
        win = rank == 0
        if holder_card and rng.random() < holder_win:
            win |= ((mask >> (holder_card - 1)) & 1) == 1
        for q in range(PLAYERS):
            seats.append({"game": g, "seat": q, "bot": "b", "points": int(points[q]), "win": bool(win[q]),
                          "win_share": float(win[q]) / win.sum(), "precepts_mask": int(mask[q])})
        row = {"game": g, "laws_mask": laws_mask, **{f"owner_{c:02d}": owner[c] for c in range(1, CARDS + 1)},
               **{f"points_s{q}": int(points[q]) for q in range(PLAYERS)}}
        if picks:
            row.update({f"pick_{c:02d}": pick[c] for c in range(1, CARDS + 1)})
        games.append(row)
    return FrameRun({"games": pd.DataFrame(games), "rounds": pd.DataFrame(rounds), "seats": pd.DataFrame(seats)},
                    params={f"precept_vp_{c:02d}": 1 for c in range(1, CARDS + 1)})


def card_findings(run):
    return F.findings(D.candidates(run, "run"))


@pytest.fixture(scope="module")
def fair():
    return constructed(seed=1)


def test_fair_run_has_every_card_and_no_finding(fair):
    prec, laws = rc.precept_effects(fair), rc.law_effects(fair)
    assert list(prec["id"]) == list(range(1, 26)) and list(laws["id"]) == list(range(1, 26))
    assert len(D.candidates(fair, "run")) == 25 + 25 * 4
    assert card_findings(fair) == []
    assert rc.pair_effects(fair)["flag"].eq("").all()


def test_precept_holder_who_wins_more_is_in_the_forest_data_and_a_finding():
    run = constructed(seed=2, holder_card=7, holder_win=0.25)
    prec = rc.precept_effects(run).set_index("id")
    # holder: own quarter of top ranks plus the shared wins in a quarter of the other games
    assert prec.loc[7, "win_diff"] == pytest.approx(0.25 + 0.75 * 0.25 - 0.25, abs=0.04)
    assert prec.loc[7, "win_diff_lo"] > 0.1
    others = prec.drop(index=7)
    assert (others["win_diff_lo"] < 0.02).all()
    found = card_findings(run)
    assert found[0].subject == "precept 07 " + rc.CARD_NAMES[7] and found[0].q < 1e-6
    assert found[0].sentence().startswith(f"run: the holder of precept 07 {rc.CARD_NAMES[7]} wins ")
    assert found[0].section == D.PRECEPT_TITLE
    # the other holders meet 07's holder among their opponents: at most slightly worse off
    assert all(f.kind == "precept" and -0.08 < f.effect < 0 for f in found[1:])


def test_laws_that_shift_seat_spread_and_round_length_are_findings():
    run = constructed(seed=3, spread_law=14, length_law=9)
    laws = rc.law_effects(run).set_index("id")
    # seat 0 first in half the rounds plus a quarter of the rest: 5/8 - 1/8 spread beyond the others
    assert laws.loc[14, "spread_diff"] > 0.4 and laws.loc[14, "spread_lo"] > 0.3
    assert laws.loc[9, "plays_diff"] == pytest.approx(5, abs=0.3)
    assert laws.drop(index=[14, 9])["plays_lo"].lt(0.5).all()
    found = card_findings(run)
    assert [f.subject for f in found[:2]] == [f"law 14 {rc.CARD_NAMES[14]} (seat spread)",
                                                f"law 09 {rc.CARD_NAMES[9]} (round length)"]
    assert found[0].effect == pytest.approx(laws.loc[14, "spread_diff"]) and found[1].effect == pytest.approx(0.25, abs=0.02)
    # seat 0, first more often, keeps the crown more often: a true consequence; against the other laws
    # (no control run) law 14 in their baseline pushes their spreads down a little; nothing else is large
    others = [f for f in found[2:] if f.subject != f"law 14 {rc.CARD_NAMES[14]} (king retention)"]
    assert all(abs(f.effect) < 0.08 for f in others) and all(f.effect < 0 for f in others if "(seat spread)" in f.subject)


def test_an_interacting_pair_of_laws_is_flagged():
    run = constructed(n_games=4000, seed=4, pair=(10, 16))
    pairs = rc.pair_effects(run)
    flagged = pairs[pairs["flag"] != ""]
    assert list(flagged["pair"]) == ["10 x 16"] and "round length" in flagged["flag"].iloc[0]
    m = rc.pair_matrix(pairs, "plays")
    assert m[9, 15] == m[15, 9] == pytest.approx(pairs.set_index("pair").loc["10 x 16", "plays"])
    assert np.isnan(m[0, 0])


@pytest.mark.parametrize("picks", [False, True])
def test_pick_stats_with_and_without_pick_columns(picks):
    run = constructed(n_games=300, seed=6, picks=picks)
    games = run.sql("SELECT * FROM games")
    stats = rc.pick_stats(run).set_index("id")
    for c in (1, 13, 25):
        drafted = games[f"owner_{c:02d}"] >= 0
        assert stats.loc[c, "drafted"] == drafted.sum() and stats.loc[c, "draft_rate"] == drafted.mean()
        if picks:
            p = games.loc[drafted, f"pick_{c:02d}"]
            assert stats.loc[c, "first_pick_rate"] == pytest.approx((p == 1).mean())
            assert stats.loc[c, "mean_pick"] == pytest.approx(p.mean())
            assert stats.loc[c, "pick_lo"] < p.mean() < stats.loc[c, "pick_hi"]
    assert ("mean_pick" in stats) == picks
    section = D.precept_section(run)
    assert len(section.figures) == (2 if picks else 1)  # holder edges; with the draft record, its picks


def test_every_card_chart_has_a_title_and_labelled_axes():
    run = constructed(n_games=600, seed=7, picks=True, pair=(2, 21))
    figs = [f for sec in (D.precept_section(run), D.law_section(run), D.pair_section(run)) for _, f in sec.figures]
    assert len(figs) == 2 + 2 + 2
    for fig in figs:
        title = fig._suptitle.get_text() if fig._suptitle else fig.axes[0].get_title()
        assert title
        plots = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
        assert all(ax.get_xlabel() for ax in plots) and plots[0].get_ylabel()
        units = " ".join(ax.get_xlabel() for ax in fig.axes) + " ".join(ax.get_ylabel() for ax in fig.axes)
        assert any(u in units for u in ("percentage points", "plays", "VP", "%", "position")), units


def test_joint_law_model_recovers_effects_against_the_base_game():
    # two strong laws (+10 plays each), a law that keeps the king on the throne, one that favours
    # seat 0; every other law does nothing. Against the other laws' average (the stratified
    # comparison) every other law looks like it shortens rounds; against the base game it does not.
    run = constructed(n_games=6000, seed=11, length_effects={4: 10, 24: 10}, king_law=6, spread_law=14)
    control = constructed(n_games=3000, seed=12, laws=False)
    joint = rc.law_effects(run, control).set_index("id")
    assert set(joint["reference"]) == {rc.REF_BASE}
    for c in (4, 24):
        assert joint.loc[c, "plays_lo"] < 10 < joint.loc[c, "plays_hi"]
        assert joint.loc[c, "plays_diff"] == pytest.approx(10, abs=0.3)
    quiet = joint.drop(index=[4, 24])
    assert quiet["plays_diff"].abs().max() < 0.4
    assert ((quiet["plays_lo"] < 0) & (quiet["plays_hi"] > 0)).mean() > 0.8  # 95% intervals cover the true 0
    assert quiet["plays_without"].sub(quiet["plays_with"] - quiet["plays_diff"]).abs().max() < 1e-9
    # king: kept in 1/4 of rounds by chance, plus half of the other 3/4 with law 06: +3/8
    assert joint.loc[6, "king_diff"] == pytest.approx(0.375, abs=0.05) and joint.loc[6, "king_p"] < 1e-6
    assert joint.drop(index=[6, 14])["king_diff"].abs().max() < 0.08
    assert joint.loc[14, "spread_diff"] > 0.35 and joint.loc[14, "spread_lo"] > 0.25 and joint.loc[14, "spread_p"] <= 0.002
    # the king law makes seat wins persist across a game's rounds (clustered, so the per-round seat model's
    # errors are too small); without it no other law's seat effect is significant after adjusting
    seats_only = rc.law_effects(constructed(n_games=6000, seed=11, spread_law=14), control).set_index("id")
    assert (F.bh(seats_only["spread_p"])[seats_only.index != 14] >= 0.05).all()
    assert seats_only.loc[14, "spread_lo"] > 0.4
    stratified = rc.law_effects(run).set_index("id")
    assert set(stratified["reference"]) == {rc.REF_OTHERS}
    assert stratified.drop(index=[4, 24])["plays_diff"].max() < -0.3  # the side effect the base game removes


def test_madness_control_keeps_the_precepts_out_of_the_law_effects():
    """Every round with precepts in play is 4 plays longer, no law does anything. Against a control
    that keeps its precepts (laws = off, DEC-53) the precepts are part of the base game and no law
    takes their effect; against a control without precepts (an empty rule deck) every law seems
    to lengthen rounds."""
    run = constructed(n_games=3000, seed=21, precept_plays=4)
    keeps = rc.law_effects(run, constructed(n_games=3000, seed=22, laws=False, precept_plays=4))
    assert len(keeps) == CARDS and set(keeps["reference"]) == {rc.REF_BASE}
    assert keeps["plays_diff"].abs().max() < 0.4
    assert ((keeps["plays_lo"] < 0) & (keeps["plays_hi"] > 0)).mean() > 0.8  # 95% intervals cover the true 0
    drops = rc.law_effects(run, constructed(n_games=3000, seed=22, laws=False, precepts=False, precept_plays=4))
    assert drops["plays_diff"].min() > 1 and (drops["plays_lo"] > 0).all()


def test_grouped_ols_equals_unit_level_ols():
    import statsmodels.api as sm

    from sim.run.stats import grouped_ols

    rng = np.random.default_rng(3)
    groups = rng.integers(0, 6, 2000)
    x_groups = np.column_stack([np.ones(6), np.arange(6) % 2, np.arange(6) // 3])
    y = x_groups[groups] @ [1.0, 2.0, -0.5] + rng.normal(0, 1, 2000)
    unit = sm.OLS(y, x_groups[groups]).fit()
    n = np.bincount(groups, minlength=6).astype(float)
    means = np.bincount(groups, y, 6) / n
    within = sum(((y[groups == g] - means[g]) ** 2).sum() for g in range(6))
    fit = grouped_ols(x_groups, means, n, np.array([[within]]))
    assert fit.coef[:, 0] == pytest.approx(unit.params, abs=1e-9)
    assert np.sqrt(np.diag(fit.xtx_inv) * fit.sigma[0, 0]) == pytest.approx(unit.bse, rel=1e-9)


def test_control_run_is_the_same_config_without_laws():
    """The control run of the law effects (the base game): madness switches the laws off and keeps
    its precepts (DEC-53), normal mode empties the rule deck; a run is matched to it by config
    (a madness run with an empty rule deck, no precepts, is not its control), and the command
    the report prints plays exactly that config."""
    import re
    from pathlib import Path

    from analysis.games import attach_controls, supporting
    from sim.games.daifugo import GAME

    def cfg(**over):
        return GAME.make_config(seed=1, overrides={k: str(v) for k, v in over.items()})

    mad, normal = cfg(mode="madness", precept_vp_12=-1), cfg()
    assert D.control_config(mad).params == {**mad.params, "laws": "off"}
    assert D.control_config(normal).params == {**normal.params, "rule_deck": ()}
    for no_laws in (cfg(mode="madness", laws="off"), cfg(rule_deck=""), cfg(laws="off")):
        assert D.control_config(no_laws) is None
    runs = [SimpleNamespace(config=c) for c in (
        mad, normal, cfg(mode="madness", precept_vp_12=-1, rule_deck=""), cfg(mode="madness", precept_vp_12=-1, laws="off"),
        cfg(rule_deck=""))]
    attach_controls(runs)
    assert runs[0].control is runs[3] and runs[1].control is runs[4] and runs[2].control is None
    assert supporting(runs) == {id(runs[3]), id(runs[4])}
    for run, change in ((mad, "--set laws=off"), (normal, "--set rule_deck=")):
        cmd = D.control_command(SimpleNamespace(config=run, game=GAME, games_done=10, path=Path("runs/x")))
        assert f"{change} --out runs/x-base" in cmd
        sets = dict(s.split("=", 1) for s in re.findall(r"--set (\S+)", cmd))
        assert GAME.make_config(seed=1, overrides=sets).digest() == D.control_config(run).digest()
    assert D.control_command(SimpleNamespace(config=mad)).endswith("--set laws=off --out BASE")


def test_score_spread_is_a_standard_deviation_in_vp_with_the_variance_interval_carried_over():
    """var_with 4 VP², var_without 1 VP²: SDs 2 and 1 VP, difference +1 VP. The variance
    difference's interval [lo, hi] maps through d -> sqrt(4) - sqrt(4 - d): [1, 5] -> [2 - sqrt 3,
    2] (4 - 5 < 0 reads as no spread left), [-1, 3.75] -> [2 - sqrt 5, 1.5], which holds zero as
    the variance interval does; p is the variance test's."""
    eff = pd.DataFrame({"var_with": [4.0, 4.0], "var_with_lo": [3.0, -0.5], "var_with_hi": [5.0, 9.0],
                        "var_without": [1.0, 1.0], "var_diff": [3.0, 3.0], "var_lo": [1.0, -1.0],
                        "var_hi": [5.0, 3.75], "var_p": [0.01, 0.2]})
    sd = rc.with_score_sd(eff)
    assert sd["score_sd_with"].tolist() == [2.0, 2.0] and sd["score_sd_without"].tolist() == [1.0, 1.0]
    assert sd["score_sd_diff"].tolist() == [1.0, 1.0] and sd["score_sd_p"].tolist() == [0.01, 0.2]
    assert sd["score_sd_lo"].tolist() == pytest.approx([2 - np.sqrt(3), 2 - np.sqrt(5)])
    assert sd["score_sd_hi"].tolist() == pytest.approx([2.0, 1.5])
    assert sd["score_sd_with_lo"].tolist() == pytest.approx([np.sqrt(3), 0.0])
    assert sd["score_sd_with_hi"].tolist() == pytest.approx([np.sqrt(5), 3.0])
