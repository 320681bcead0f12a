"""reports.build.Images: charts rendered ahead in a forked process equal those rendered here,
and charts the other process has not finished, or failed, are rendered here."""

import multiprocessing
import time

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


def _not_here(fig):
    raise AssertionError("rendered here, not taken from the other process")


def _wait_until_done(images):
    deadline = time.monotonic() + 60
    while not all(a.ready() for a in images._ahead.values()):
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_charts_rendered_ahead_equal_those_rendered_here(monkeypatch):
    figs = _figures(3)
    expected = [build._png_bytes(f) for f in figs]
    images = build.Images()
    with images.rendered_ahead(figs):
        assert len(images._ahead) == 3
        _wait_until_done(images)
        monkeypatch.setattr(build, "_png_bytes", _not_here)  # here only: the fork has its own copy
        assert [images.png(f) for f in figs] == expected


def test_charts_not_done_or_failed_there_are_rendered_here(monkeypatch):
    monkeypatch.setattr(build, "_render_ahead", _lost)
    figs = _figures(2)
    images = build.Images()
    with images.rendered_ahead(figs):
        first = images.png(figs[0])  # not done yet, or failed
        _wait_until_done(images)
        second = images.png(figs[1])  # failed
    assert [first, second] == [build._png_bytes(f) for f in figs]
