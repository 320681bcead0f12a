"""Report sections build from a stored run in both modes."""

import pytest

from analysis.glossary import header_text
from analysis.load import Run
from sim.run import runner
from analysis.games.daifugo import sections
from sim.games.daifugo import GAME


@pytest.mark.parametrize("params", [{"mode": "madness", "rule_deck": "07,09,14,15,19,21"}, {"rounds": 1}])
def test_report_sections_build_from_a_stored_run(tmp_path, params):
    cfg = GAME.make_config(seed=1, overrides=params)
    runner.run(cfg, 400, tmp_path / "run", runner.RunOptions(batch_size=200, progress=False))
    secs = sections(Run(tmp_path / "run"))
    titles = [s.title for s in secs]
    assert titles[:2] == ["Scorecard per rule card", "Points by seat and by bot"] and any("King" in t for t in titles)
    card = secs[0].tables[0][1]
    assert len(card) == len(cfg.params["rule_deck"]) and ("worth (VP)" in card) == (params.get("mode") == "madness")
    assert "VP to print" not in card  # only the checked advice of cardlab suggest prints VPs
    precepts = next(s for s in secs if s.title == "Rule cards as precepts")
    laws = next(s for s in secs if s.title == "Rule cards as laws")
    if params.get("mode") == "madness":
        holder = precepts.tables[0][1]
        assert [c[:2] for c in holder["card"]] == ["07", "09", "14", "15", "19", "21"] and holder["holders"].sum() > 0
        assert [c for c, _ in precepts.figures] == ["Precepts: holder vs others", "Precept draft picks"]
        assert {c[:2] for c in laws.tables[0][1]["card"]} <= {"07", "09", "14", "15", "19", "21"} and laws.figures
    else:  # normal mode: no precepts; one-round games have a single law each, so no pair of laws
        assert not precepts.tables and "No precepts" in precepts.text
        assert len(laws.tables[0][1]) == 25
        assert next(s for s in secs if s.title == "Pairs of laws").text.startswith("No two laws")
    freq = secs[-1].tables[0][1]
    assert set(freq["event"]) >= {"revolution", "forbidden finish", "play-count guard"}
    assert "rounds_with_event" in freq and header_text("rounds_with_event") == "rounds with the event"
    # no control run: every law table and chart names the other laws' average as its reference
    ref = "against the other laws' average"
    assert all(ref in c for c, _ in laws.tables) and all(ref in c for c, _ in laws.figures)
    assert all(ref in f.axes[0].figure._suptitle.get_text().replace("\n", " ") for _, f in laws.figures)
    assert ref in secs[0].tables[-1][0]  # the scorecard's law table
    sd = laws.tables[-1][1]
    assert list(sd.columns)[2:5] == ["score_sd_with", "score_sd_without", "score_sd_diff"]


def test_madness_laws_measured_against_its_laws_off_control(tmp_path):
    """A madness run and its control run (laws = off, DEC-53: no law, the precepts drafted as usual)
    from stored runs: ``attach_controls`` pairs them, the law figures are measured against the base
    game and name the control; the control's own sections build (no law, precepts)."""
    from analysis.games import attach_controls

    over = {"mode": "madness"}
    options = runner.RunOptions(batch_size=300, progress=False)
    runner.run(GAME.make_config(seed=1, overrides=over), 300, tmp_path / "run", options)
    runner.run(GAME.make_config(seed=1, overrides={**over, "laws": "off"}), 300, tmp_path / "base", options)
    run, base = Run(tmp_path / "run"), Run(tmp_path / "base")
    attach_controls([run, base])
    assert run.control is base and base.control is None
    games = base.table("games")
    assert (games["laws_mask"] == 0).all() and (games.filter(regex=r"^owner_\d+$") >= 0).sum(axis=1).eq(12).all()
    laws = next(s for s in sections(run) if s.title == "Rule cards as laws")
    assert "Reference: the base game" in laws.text and "laws=off" in laws.text and "base" in laws.text
    base_secs = {s.title: s for s in sections(base)}
    assert base_secs["Rule cards as laws"].text.startswith("No rule card was revealed")
    assert base_secs["Rule cards as precepts"].tables
