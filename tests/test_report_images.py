"""reports.build.Images: charts rendered ahead in a forked process equal those rendered here,
and a failed renderer falls back to rendering here."""

import multiprocessing

import pytest
from matplotlib.figure import Figure

from analysis.load import cores
from reports import build

pytestmark = pytest.mark.skipif(cores() < 2 or "fork" not in multiprocessing.get_all_start_methods(),
                                reason="charts are rendered ahead only with fork and two cores")


def _figures(n):
    figs = []
    for i in range(n):
        fig = Figure(figsize=(3, 2))
        fig.add_subplot().plot([0, 1, 2], [i, 2 * i, i])
        figs.append(fig)
    return figs


def _lost(i):
    raise RuntimeError("renderer lost")


def test_charts_rendered_ahead_equal_those_rendered_here():
    figs = _figures(3)
    images = build.Images()
    with images.rendered_ahead(figs):
        assert len(images._ahead) == 3
        ahead = [images.png(f) for f in figs]
    assert ahead == [build._png_bytes(f) for f in figs]


def test_a_failed_renderer_falls_back_to_rendering_here(monkeypatch):
    monkeypatch.setattr(build, "_render_ahead", _lost)
    figs = _figures(2)
    images = build.Images()
    with images.rendered_ahead(figs):
        first = images.png(figs[0])
        assert images._ahead == {}  # no more waiting on the failed process
        second = images.png(figs[1])
    assert [first, second] == [build._png_bytes(f) for f in figs]
