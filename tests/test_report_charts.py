"""Every chart of the report has a title and labelled axes, and every table of a real report
(the three games, a sweep, a comparison) fits the PDF page (its width as ReportLab sets it)."""

import matplotlib
import pytest

matplotlib.use("Agg")

from reports import build as B  # noqa: E402
from reports import pdf  # noqa: E402
from sim import runner  # noqa: E402
from sim.games import MODULES, get_game  # noqa: E402
from reportlab.platypus import Table  # noqa: E402

from tests.game_cases import case  # noqa: E402
from tests.test_analysis_sql import assert_tables_fit  # noqa: E402
from tests.test_sweep_compare import _sweep  # noqa: E402

# run directory: (game, games, overrides); reference engines, so no kernel compiles. Every
# built-in game (its games: ``chart_games`` in tests/game_cases.py), and daifugo's madness mode.
RUNS = {**{g: (g, case(g, "chart_games"), {}) for g in MODULES}, "daifugo-madness": ("daifugo", 20, {"mode": "madness"})}


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    base = tmp_path_factory.mktemp("charts")
    for name, (game, games, overrides) in RUNS.items():
        cfg = get_game(game).make_config(seed=2, overrides=overrides)
        runner.run(cfg, games, base / name, engine="reference", progress=False)
    sweep = _sweep(get_game("toy"), base / "sweep", "lucky_bonus", [0, 2], 300)
    return (B.report_parts([base / name for name in RUNS]) + B.report_parts([sweep])
            + B.report_parts([sweep / "lucky_bonus=0", sweep / "lucky_bonus=2"], compare=True))


def _figures(parts):
    return [(f"{part} / {s.title} / {caption}", fig) for part, sections in parts for s in sections
            for caption, fig in s.figures]


def test_every_chart_has_a_title_and_labelled_axes(parts):
    figures = _figures(parts)
    assert len(figures) >= 30
    for name, fig in figures:
        assert fig.axes, name
        for ax in fig.axes:
            if getattr(ax, "_colorbar", None) is not None:
                assert ax.get_ylabel() or ax.get_xlabel(), f"{name}: colour bar without a label"
                continue
            assert ax.get_title() or (fig._suptitle and fig._suptitle.get_text()), f"{name}: no title"
            assert ax.get_xlabel(), f"{name}: no x-axis label"
            # panels side by side sharing one y axis: the label is on the first of them
            assert any(a.get_ylabel() for a in ax.get_shared_y_axes().get_siblings(ax)), f"{name}: no y-axis label"


def test_every_report_table_fits_the_pdf_page(parts):
    flowables = [f for _, sections in parts for s in sections for caption, table in s.tables
                 for f in pdf.table_flowables(caption, table, B._fmt_table(table).astype(str))]
    assert len([f for f in flowables if isinstance(f, Table)]) >= 40
    assert_tables_fit(flowables)


def test_no_chart_title_or_axis_label_is_clipped(parts):
    """Every title, suptitle and axis label lies inside its figure once drawn (the layout engine
    shrinks the axes; a title longer than the figure is cut at its edges)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    for name, fig in _figures(parts):
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        renderer = canvas.get_renderer()
        frame = fig.bbox
        texts = [fig._suptitle] if fig._suptitle else []
        texts += [t for ax in fig.axes for t in (ax.title, ax.xaxis.label, ax.yaxis.label) if t.get_text()]
        for t in texts:
            box = t.get_window_extent(renderer)
            inside = box.x0 >= frame.x0 - 1 and box.x1 <= frame.x1 + 1 and box.y0 >= frame.y0 - 1 and box.y1 <= frame.y1 + 1
            assert inside, f"{name}: '{t.get_text()}' is clipped ({box} outside {frame})"


def test_histogram_stops_at_the_99th_percentile_and_states_the_overflow():
    import pandas as pd

    from analysis import charts

    counts = pd.Series([500, 480, 10, 5, 5], index=[10, 11, 12, 400, 2000])  # 1,000 games, 1% above 12
    assert charts.tail_cut(counts, 0.99) == 12
    ax = charts.histogram(counts, "Game length (plays)", "game length (plays)").axes[0]
    assert ax.get_xlim()[1] < 20  # the 2,000-play games do not squash the chart
    assert ax.get_xlabel() == "game length (plays)\nnot drawn: 1% of games above 12 (longest 2000)"
