"""Report sections build from a stored run (figures, tables, intervals), computed in DuckDB."""

import matplotlib

matplotlib.use("Agg")

from analysis.games.virus_dogs import CARDS, sections  # noqa: E402
from analysis.load import Run  # noqa: E402
from sim.run.stats import wilson  # noqa: E402
from sim.run import runner  # noqa: E402
from sim.games.virus_dogs import GAME  # noqa: E402


def test_report_sections_build_from_a_stored_run(tmp_path):
    cfg = GAME.make_config(seed=3)
    runner.run(cfg, 3000, tmp_path / "run", runner.RunOptions(batch_size=1000, progress=False))
    run = Run(tmp_path / "run")
    card, *secs = sections(run)
    assert card.title == "Scorecard per action card" and len(card.tables[0][1]) == len(CARDS)  # every card dealt first
    titles = [s.title for s in secs]
    assert titles == ["Outcome types", "Virus density over turns", "Virus density over the deck",
                      "Elimination causes", "State at elimination", "Action-card usage", "Card contexts",
                      "Hard quarantine", "Game feel"]
    for s in secs:
        assert s.tables and all(len(t) for _, t in s.tables)
        for _, fig in s.figures:
            assert fig.axes
    outcome = secs[0].tables[0][1]
    assert outcome["count"].sum() == 3000
    assert ((outcome["lo"] <= outcome["share"]) & (outcome["share"] <= outcome["hi"])).all()
    dens = secs[1].tables[0][1]
    assert dens["mean density"].between(0, 1).all()
    # the SQL aggregates equal the same counts taken from the whole table in pandas
    seats = run.table("seats")
    cond = secs[5].tables[1][1].set_index(["card", "group"])
    for c in CARDS:
        used = seats[seats[f"played_{c}"] > 0]
        assert cond.at[(c.upper(), "used"), "n"] == len(used)
        assert cond.at[(c.upper(), "used"), "wins"] == used["win"].sum()
        assert cond.at[(c.upper(), "not used"), "n"] == len(seats) - len(used)
    lo, hi = wilson(int(used["win"].sum()), len(used))
    assert cond.at[(CARDS[-1].upper(), "used"), "lo"] == float(lo)
    games = run.table("games")
    hq = secs[7].tables[0][1].set_index("measure")
    assert hq.at["games reaching hard quarantine", "count"] == games["hq"].sum()
    assert hq.at["HQ ended in stalemate", "count"] == (games["hq"] & games["hq_stalemate"]).sum()
    elim = secs[3].tables[0][1].set_index("cause")
    assert elim["count"].sum() == seats["eliminated"].sum()
    # M-2 over the deck: the draw events equal the games' total; M-1 state means from the seats
    deck = secs[2].tables[0][1]
    assert deck["draw events"].sum() <= games["draw_events"].sum() and deck["mean density"].between(0, 1).all()
    state = secs[4].tables[0][1].set_index("bot")
    out = seats[seats["eliminated"]]
    assert state["eliminations"].sum() == len(out)
    assert abs(state["mean O"].mul(state["eliminations"]).sum() - out["elim_open"].sum()) < 0.01 * len(out)
    ctx = secs[6].tables[0][1].set_index("per seat-game")
    assert list(ctx.index)[:2] == ["mask_peek_virus", "mask_virus_avoided"]
    # as printed: every code of every table in words (columns, cells), one place for all tables
    from reports.build import _fmt_table

    usage = _fmt_table(secs[5].tables[0][1])
    assert usage["per seat-game"].tolist()[:2] == ["toilet paper (TP) played", "control (CTL) played"]
    assert "masks taking no card" in usage["per seat-game"].tolist()
    printed = [_fmt_table(t) for s in secs for _, t in s.tables]
    codes = {c for t in printed for c in list(t.columns) + [v for col in t for v in t[col] if isinstance(v, str)]
             if "_" in str(c) and " " not in str(c)}
    assert codes == set()
    assert _fmt_table(secs[0].tables[0][1])["outcome"].tolist()[2] == "hard-quarantine stalemate"
    # game length: turns, said beside the figure not to count hard-quarantine steps
    from analysis.common import game_length

    length = game_length(run)
    assert "hard-quarantine steps not counted" in length.text and "hard-quarantine steps not counted" in length.figures[0][0]
