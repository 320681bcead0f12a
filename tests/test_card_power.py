"""Card power (``analysis.card_power``) through the virus-dogs and faking-sick report modules, on
constructed tables whose card effects are known.

The constructed games: 4 seats, the first player random (virus-dogs) or seat 0 (faking-sick), bots
rotated over the seats as ``sim.games.base.seat_keys`` does. Each seat wins on its own draw with
chance ``BASE`` + its position's edge + its bot's edge + the edge of every card it was dealt, so
the power of a card (its edge less the average edge of the dealt cards) is known exactly.
virus-dogs deals each seat one first card from the default deck's counts; faking-sick deals the
default banned pool (2 FEV, 2 SNZ, INJ, HDA, MSK, ICE) two cards a seat."""

from types import SimpleNamespace

import duckdb
import numpy as np
import pandas as pd
import pytest

from analysis import card_power
from analysis.games import faking_sick as FS
from analysis.games import virus_dogs as VD
from sim.games.virus_dogs.rules import CODE_OF

SEATS, BASE = 4, 0.25
BOTS = ("strong", "weak", "weak", "weak")
VD_DECK = {"v": 1, "bat": 3, "tp": 6, "ctl": 4, "qrn": 2, "doc": 6, "ant": 4, "amb": 1, "msk": 5, "bm": 4,
           "shf": 4, "cgh": 4, "exc": 4}
FS_POOL = ("fev", "fev", "snz", "snz", "inj", "hda", "msk", "ice")


class TableRun:
    """The part of ``analysis.load.Run`` the card power reads."""

    def __init__(self, game: str, games: pd.DataFrame, seats: pd.DataFrame, params: dict | None = None):
        self.con = duckdb.connect()
        self.con.register("games", games)
        self.con.register("seats", seats)
        self.config = SimpleNamespace(game=game, players=SEATS, bots=BOTS, params=params or {})

    def sql(self, query):
        return self.con.execute(query).df()

    def columns(self, name):
        return {r[0]: r[1] for r in self.con.execute(f"DESCRIBE {name}").fetchall()}


def _seat_frame(n_games: int, rng, first: np.ndarray, pos_edge, bot_edge, card_edge: np.ndarray) -> pd.DataFrame:
    """Seat rows: game, seat, the rotated bot and a win drawn from the seat's summed edges."""
    game = np.repeat(np.arange(n_games), SEATS)
    seat = np.tile(np.arange(SEATS), n_games)
    bot = np.array(BOTS)[(seat + game) % SEATS]
    pos = (seat - np.repeat(first, SEATS)) % SEATS
    chance = BASE + np.asarray(pos_edge)[pos] + np.where(bot == "strong", bot_edge, 0.0) + card_edge
    return pd.DataFrame({"game": game, "seat": seat, "bot": bot, "win": rng.random(len(game)) < chance})


def virus_dogs_run(n_games: int, seed: int, edge: dict[str, float], pos_edge=(0, 0, 0, 0), bot_edge=0.0,
                   favoured: str | None = None) -> TableRun:
    """Constructed virus-dogs tables: each seat's ``first_card`` drawn from ``VD_DECK``; with
    ``favoured``, the seat first in turn order and the strong bot's seats get that card first
    half the time (a card dealt more often to the stronger seat and bot)."""
    rng = np.random.default_rng(seed)
    names = list(VD_DECK)
    p = np.array([VD_DECK[c] for c in names], float)
    cards = rng.choice(len(names), size=n_games * SEATS, p=p / p.sum())
    first = rng.integers(SEATS, size=n_games)
    if favoured:
        pos = (np.tile(np.arange(SEATS), n_games) - np.repeat(first, SEATS)) % SEATS
        strong = np.array(BOTS)[(np.tile(np.arange(SEATS), n_games) + np.repeat(np.arange(n_games), SEATS)) % SEATS]
        lucky = ((pos == 0) | (strong == "strong")) & (rng.random(len(cards)) < 0.5)
        cards[lucky] = names.index(favoured)
    card_edge = np.array([edge.get(names[c], 0.0) for c in cards])
    seats = _seat_frame(n_games, rng, first, pos_edge, bot_edge, card_edge)
    seats["first_card"] = [CODE_OF[names[c].upper()] for c in cards]
    games = pd.DataFrame({"game": np.arange(n_games), "first_player": first})
    return TableRun("virus-dogs", games, seats)


def faking_sick_run(n_games: int, seed: int, edge: dict[str, float], pos_edge=(0, 0, 0, 0)) -> TableRun:
    """Constructed faking-sick tables: the banned pool shuffled and dealt two cards a seat."""
    rng = np.random.default_rng(seed)
    dealt = np.array([rng.permutation(len(FS_POOL)) for _ in range(n_games)]).reshape(n_games * SEATS, 2)
    kinds = np.array(FS_POOL)[dealt]
    card_edge = np.array([edge.get(a, 0.0) + edge.get(b, 0.0) for a, b in kinds])
    seats = _seat_frame(n_games, rng, np.zeros(n_games, int), pos_edge, 0.0, card_edge)
    for t in dict.fromkeys(FS_POOL):
        seats[f"initial_banned_{t}"] = (kinds == t).sum(1)
    return TableRun("faking-sick", pd.DataFrame({"game": np.arange(n_games)}), seats, {"first_player": 0})


def true_power(edge: dict[str, float], copies: dict[str, float]) -> dict[str, float]:
    """A card's edge less the average edge of the dealt cards, weighted by their copies."""
    mean = sum(edge.get(c, 0.0) * n for c, n in copies.items()) / sum(copies.values())
    return {c: edge.get(c, 0.0) - mean for c in copies}


def by_card(power: pd.DataFrame) -> dict[str, dict]:
    return {r["id"]: r for r in power.to_dict("records")}


VD_ACTION = {c: n for c, n in VD_DECK.items() if c not in ("v", "bat")}


def test_virus_dogs_recovers_known_card_power():
    """EXC adds 6 points to its holder's chance, TP takes 5 away: both found, within their
    intervals, and every other card's (small) true power lies within its interval too."""
    edge = {"exc": 0.06, "tp": -0.05}
    power = by_card(VD.power(virus_dogs_run(20000, 1, edge)))
    truth = true_power(edge, VD_ACTION)
    assert set(power) == set(VD_ACTION)
    assert all(power[c]["lo"] <= truth[c] <= power[c]["hi"] for c in truth)
    assert {c: r["verdict"] for c, r in power.items() if r["verdict"] != "even"} == {"exc": "too strong",
                                                                                     "tp": "too weak"}


def test_virus_dogs_finds_nothing_on_fair_cards():
    power = VD.power(virus_dogs_run(20000, 2, {}, pos_edge=(0.05, 0, 0, -0.03), bot_edge=0.04))
    assert (power["verdict"] == "even").all()
    assert ((power["lo"] < 0) & (power["hi"] > 0)).sum() >= 10


def test_a_card_dealt_to_the_stronger_seat_and_bot_does_not_look_strong():
    """ANT goes half the time to the first seat in turn order (+10 points) and to the strong bot
    (+10 points): its holders win far more often, yet its power is even and holds 0."""
    run = virus_dogs_run(20000, 3, {}, pos_edge=(0.10, 0, 0, 0), bot_edge=0.10, favoured="ant")
    power = by_card(VD.power(run))
    others = run.sql("SELECT avg(win::DOUBLE) AS w FROM seats WHERE first_card != 6")["w"].iloc[0]
    assert power["ant"]["win"] - others > 0.05  # the naive comparison: ANT looks strong
    assert power["ant"]["lo"] < 0 < power["ant"]["hi"] and power["ant"]["verdict"] == "even"


def test_faking_sick_recovers_banned_card_power_per_copy():
    """A banned FEV costs its holder 5 points a copy; the pool's two FEV make the average banned
    card cost 1.25, so FEV's power is -3.75 and every other type's +1.25, each within its interval,
    though a FEV holder's other banned card is less often a FEV."""
    edge = {"fev": -0.05}
    power = by_card(FS.power(faking_sick_run(20000, 4, edge, pos_edge=(0.04, 0, 0, -0.02))))
    truth = true_power(edge, {t: FS_POOL.count(t) for t in dict.fromkeys(FS_POOL)})
    assert truth["fev"] == pytest.approx(-0.0375) and truth["inj"] == pytest.approx(0.0125)
    assert all(power[c]["lo"] <= truth[c] <= power[c]["hi"] for c in truth)
    assert power["fev"]["verdict"] == "too weak"
    assert FS.power(faking_sick_run(20000, 5, {}))["verdict"].eq("even").all()


def test_findings_verdict_lines_and_what_to_change_name_the_uneven_cards():
    run = virus_dogs_run(20000, 1, {"exc": 0.06, "tp": -0.05})
    cands = VD.candidates(run, "vd")
    assert {c.kind for c in cands} == {"card"} and len(cands) == len(VD_ACTION)
    for c in cands:
        c.q = c.p * len(cands)  # stand-in for the report's adjustment
    marks = VD.verdict_marks(run, cands, 0.01)
    assert [m.text.split(":")[0] for m in marks] == ["The strongest action card is EXC (exchange)",
                                                     "The weakest action card is TP (toilet paper)"]
    assert [m.level for m in marks] == ["red", "red"] and all(m.line == "" and m.group == "design" for m in marks)
    assert marks[0].text.startswith("The strongest action card is EXC (exchange): a seat that draws it first wins ")
    change = VD.what_to_change(run, cands, 0.01)
    assert change.startswith("What to change: make action card EXC (exchange) weaker (+")
    assert change.endswith("pp to a seat that draws it first); make action card TP (toilet paper) stronger ("
                           + f"{100 * min(c.effect for c in cands):+.1f} pp to a seat that draws it first).")
    section = VD.scorecard_section(run)
    assert list(section.tables[0][1]["card"])[:2] == ["TP (toilet paper)", "CTL (control)"]


def test_banned_cards_read_as_mild_and_harsh_bans():
    run = faking_sick_run(20000, 4, {"fev": -0.05})
    cands = FS.candidates(run, "fs")
    for c in cands:
        c.q = c.p * len(cands)
    weakest = FS.verdict_marks(run, cands, 0.01)[1].text
    assert weakest.startswith("The harshest banned card is FEV (fever): a player dealt it as a banned card wins ")
    assert "make the ban on FEV (fever) milder (-" in FS.what_to_change(run, cands, 0.01)
    run = faking_sick_run(20000, 7, {"fev": -0.05, "snz": -0.05})  # every type uneven: four named
    cands = FS.candidates(run, "fs")
    for c in cands:
        c.q = c.p * len(cands)
    change = FS.what_to_change(run, cands, 0.01)
    assert change.count("make the ban on") == 4 and change.endswith("; 2 more uneven cards (the scorecard lists every card).")


def test_a_run_without_the_first_card_column_has_no_card_power():
    run = virus_dogs_run(500, 6, {})
    run.con.register("seats", run.sql("SELECT * EXCLUDE (first_card) FROM seats"))
    assert VD.power(run).empty and VD.candidates(run, "vd") == []
    assert "Too few games" in card_power.section(VD.power(run), "t", "it", "x").text
