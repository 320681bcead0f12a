"""Every chart of the report has a title and labelled axes, and every table of a real report
(the three games, a sweep, a comparison) fits the PDF page (its width as ReportLab sets it)."""

import matplotlib
import pytest

matplotlib.use("Agg")

from reports import build as B  # noqa: E402
from reports import pdf  # noqa: E402
from sim.run import runner  # noqa: E402
from sim.games import MODULES, get_game  # noqa: E402
from reportlab.platypus import Table  # noqa: E402

from tests.game_cases import case  # noqa: E402
from tests.test_analysis_sql import assert_tables_fit  # noqa: E402
from tests.test_sweep_compare import _sweep  # noqa: E402

# run directory: (game, games, overrides); reference engines, so no kernel compiles. Every
# built-in game (its games: ``chart_games`` in tests/<game>/cases.py), and daifugo's madness mode.
RUNS = {**{g: (g, case(g, "chart_games"), {}) for g in MODULES}, "daifugo-madness": ("daifugo", 20, {"mode": "madness"})}


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    base = tmp_path_factory.mktemp("charts")
    for name, (game, games, overrides) in RUNS.items():
        cfg = get_game(game).make_config(seed=2, overrides=overrides)
        runner.run(cfg, games, base / name, runner.RunOptions(engine="reference", progress=False))
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


def test_what_the_pdf_leaves_out_is_named_without_doubt(parts):
    """A caption the PDF leaves to the HTML names a table or a chart, never both (the other would be
    lost from the PDF), and every section prints something of what it shows."""
    for part, sections in parts:
        for s in sections:
            tables, figures = {c for c, _ in s.tables}, {c for c, _ in s.figures}
            assert not set(s.html_only) & tables & figures, f"{part} / {s.title}"
            assert set(s.html_only) <= tables | figures, f"{part} / {s.title}: {set(s.html_only) - tables - figures}"


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
    # wrapped to the small chart's width
    assert ax.get_xlabel() == "game length (plays)\nnot drawn: 1% of games above 12\n(longest 2000)"


def test_every_chart_prints_its_text_at_7_points_or_more(parts):
    """At the size the PDF prints a chart and the HTML shows it (``pdf.chart_size``: its own
    size, shrunk only to fit the page), no title, label, tick, legend or value is under 7 pt."""
    from analysis import charts

    for name, fig in _figures(parts):
        shown = pdf.chart_size(fig)[0] / (72 * fig.get_size_inches()[0])
        assert fig.get_size_inches()[0] <= charts.CHART_W, name
        assert charts.small_text(fig, shown) == [], name


def test_small_text_finds_text_under_the_least_size_at_the_shown_scale():
    from matplotlib.figure import Figure

    from analysis import charts

    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    ax.set_title("title", fontsize=10)
    ax.set_xticks([0, 1], ["a", "b"], fontsize=7)
    ax.set_yticks([])
    assert charts.small_text(fig) == []
    assert sorted(charts.small_text(fig, 0.5)) == [("a", 3.5), ("b", 3.5), ("title", 5.0)]


def test_no_two_tick_labels_of_a_chart_overlap(parts):
    """Category and value labels along an axis stand apart once drawn: level ones do not overlap,
    slanted ones (long names) lie at least a line height apart across their slant."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    for name, fig in _figures(parts):
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        renderer = canvas.get_renderer()
        for ax in fig.axes:
            for along_x, labels in ((True, ax.get_xticklabels()), (False, ax.get_yticklabels())):
                shown = [t for t in labels if t.get_visible() and t.get_text().strip()]
                for a, b in zip(shown, shown[1:]):
                    angle = np.radians(a.get_rotation() % 180)
                    if angle == 0:
                        assert not a.get_window_extent(renderer).overlaps(b.get_window_extent(renderer)), \
                            f"{name}: tick labels {a.get_text()!r} and {b.get_text()!r} overlap"
                        continue
                    (xa, ya), (xb, yb) = (ax.transData.transform(t.get_position()) for t in (a, b))
                    apart = abs(xb - xa) * np.sin(angle) if along_x else abs(yb - ya) * np.cos(angle)
                    assert apart >= a.get_fontsize() * fig.dpi / 72, f"{name}: slanted tick labels overlap ({apart:.1f} px)"


def test_plain_table_names_columns_and_known_codes_in_words():
    """One place renames every printed table: a column by its name in words (a leading whole name,
    then parts and a trailing lo/hi/p/q), a pivot's column name dropped, and only known codes in
    text cells (virus-dogs' CODE_NAMES), other text kept."""
    import pandas as pd

    from analysis.glossary import header_text, plain_table

    assert header_text("last_round_diff_lo") == "decided only in the last round difference, 95% low"
    assert header_text("shared_q") == "shared win, q-value (BH)"
    assert header_text("score_sd_with") == "score SD with" and header_text("win_diff_p") == "win rate difference, p-value"
    assert header_text("played_tp") == "toilet paper (TP) played" and header_text("already words") == "already words"
    df = pd.DataFrame({"per seat-game": ["mask_take_none", "hq_stalemate", "no_such_code"], "king_lo": [1, 2, 3]})
    df.columns.name = "elim_cause"
    out = plain_table(df)
    assert list(out.columns) == ["per seat-game", "king kept, 95% low"] and out.columns.name is None
    assert out["per seat-game"].tolist() == ["masks taking no card", "hard-quarantine stalemate", "no_such_code"]
    assert out["king kept, 95% low"].tolist() == [1, 2, 3]
