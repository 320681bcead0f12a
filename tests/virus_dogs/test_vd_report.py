"""Report sections build from a batch of results (figures, tables, intervals)."""

import matplotlib

matplotlib.use("Agg")

from analysis.games.virus_dogs import sections  # noqa: E402
from sim.games.virus_dogs import GAME  # noqa: E402


class FakeRun:
    def __init__(self, frames, cfg):
        self.frames = frames
        self.config = cfg

    def table(self, name, columns=None):
        df = self.frames[name]
        return df if columns is None else df[columns]


def test_report_sections_build():
    cfg = GAME.make_config(seed=3)
    run = FakeRun(GAME.run_batch(cfg, 0, 3000, "fast"), cfg)
    secs = sections(run)
    titles = [s.title for s in secs]
    assert titles == ["Outcome types", "Virus density over turns", "Elimination causes", "Action-card usage",
                      "Hard quarantine"]
    for s in secs:
        assert s.tables and all(len(t) for _, t in s.tables)
        for _, fig in s.figures:
            assert fig.axes
    outcome = secs[0].tables[0][1]
    assert outcome["count"].sum() == 3000
    assert ((outcome["lo"] <= outcome["share"]) & (outcome["share"] <= outcome["hi"])).all()
    dens = secs[1].tables[0][1]
    assert dens["mean density"].between(0, 1).all()
