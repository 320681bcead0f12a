"""The PDF's page economy: small charts two to a row or beside a short table of their section, a
table's caption kept with its first rows by a conditional page break (never the whole table kept
together), and the charts a table already carries left to the HTML."""

import matplotlib
import pandas as pd

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from reportlab.platypus import CondPageBreak, Paragraph, Spacer, Table  # noqa: E402

from analysis.charts import CHART_W, HALF_W  # noqa: E402
from analysis.sections import Section  # noqa: E402
from reports import pdf  # noqa: E402
from reports.build import _fmt_table  # noqa: E402


def fig(width: float) -> Figure:
    f = Figure(figsize=(width, 3.0))
    f.add_subplot().set_title("t")
    return f


def flow(section: Section) -> list:
    return pdf._flat(pdf.section_flowables(section, lambda f: b"", _fmt_table))


def items(cell) -> list:
    """A table cell's flowables (ReportLab keeps a list of them as a tuple)."""
    return list(cell) if isinstance(cell, (list, tuple)) else [cell]


def rows(n: int, wide: bool = False) -> pd.DataFrame:
    t = pd.DataFrame({"measure": [f"m{k}" for k in range(n)], "value": range(n)})
    if wide:
        for k in range(12):
            t[f"a rather long column name {k}"] = 0.123456
    return t


def test_two_small_charts_share_a_row_and_a_wide_one_stands_alone():
    out = flow(Section("s", figures=[("a", fig(HALF_W)), ("b", fig(HALF_W)), ("c", fig(CHART_W))]))
    row, alone = out[-2:]
    assert isinstance(row, Table) and [type(c).__name__ for c in row._cellvalues[0]] == ["Chart", "Chart"]
    assert isinstance(alone, pdf.Chart) and alone.fig.get_size_inches()[0] == CHART_W


def test_a_lone_small_chart_goes_beside_a_short_narrow_table_only():
    out = flow(Section("s", tables=[("short", rows(8))], figures=[("a", fig(HALF_W))]))
    rows_ = [f for f in out if isinstance(f, Table) and any(isinstance(x, pdf.Chart) for x in items(f._cellvalues[0][-1]))]
    assert len(rows_) == 1 and isinstance(out[0], CondPageBreak)  # the heading asks room for the whole row
    caption, table, gap = items(rows_[0]._cellvalues[0][0])
    assert isinstance(caption, Paragraph) and isinstance(table, Table) and isinstance(gap, Spacer)
    wide = flow(Section("s", tables=[("wide", rows(8, wide=True))], figures=[("a", fig(HALF_W))]))
    assert isinstance(wide[-1], pdf.Chart)  # no room beside it: the chart follows the table
    long = flow(Section("s", tables=[("long", rows(80))], figures=[("a", fig(HALF_W))]))
    assert isinstance(long[-1], pdf.Chart)  # a cell does not split across pages: not beside a long table


def test_a_caption_stays_with_its_first_rows_not_with_the_whole_table():
    t = rows(120)
    cond, caption, table, _ = pdf.table_flowables("A long table", t, _fmt_table(t).astype(str))
    assert isinstance(cond, CondPageBreak) and not getattr(caption.style, "keepWithNext", 0)
    assert cond.height == pdf._height(caption) + pdf.FIRST_ROWS < pdf._height(table)
    short = rows(3)
    cond, caption, table, _ = pdf.table_flowables("A short table", short, _fmt_table(short).astype(str))
    assert cond.height == pdf._height(caption) + pdf._height(table)
    heading = flow(Section("Heading", text="Some words.", tables=[("A long table", t)]))
    assert isinstance(heading[0], CondPageBreak) and heading[0].height > pdf.FIRST_ROWS  # heading, words, caption, rows
    assert isinstance(heading[1], pdf.Heading)


def test_a_chart_the_pdf_leaves_to_the_html_is_not_printed():
    out = flow(Section("s", figures=[("kept", fig(CHART_W)), ("html", fig(CHART_W))], html_only=("html",)))
    assert [f.fig.axes[0].get_title() for f in out if isinstance(f, pdf.Chart)] == ["t"] and \
        sum(isinstance(f, pdf.Chart) for f in out) == 1
