"""The PDF report, laid out by ReportLab's page layout engine (platypus): A4 pages with headings,
prose, tables and charts flowing top to bottom, after a cover and the contents (every part and
section with its page number, a link to it).

Text is set in DejaVu Sans, the charts' font (matplotlib's copy of it), embedded as a subset,
so every character of the report prints (Daifugō, Cyrillic card names). Tables fit the page:
cells longer than ``CELL_CHARS`` wrap (narrower, down to the last of ``WRAP_CHARS``, where
that fits the whole table in the width); a table of a few rows that still does not fit prints
on its side (``transposed``); columns that still do not fit go to a continuation table (the
first column repeated); a table longer than the page continues on the next one under its
header. A chart is its PNG, the HTML's pixels, fetched when its page is drawn, printed at its
own size (``chart_size``: a figure inch is a printed inch, as in the HTML), so its text prints
at the point sizes it was drawn with.
"""

from __future__ import annotations

import io
import textwrap
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable
from xml.sax.saxutils import escape

import matplotlib
import pandas as pd
from matplotlib.figure import Figure
from reportlab import rl_config
from reportlab.lib.colors import HexColor, grey
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents

PAGE_W, PAGE_H = A4  # points
MARGIN = 36.0  # points (half an inch)
TEXT_W = PAGE_W - 2 * MARGIN
TABLE_FONT = 6.5  # points
ROW_LEADING = TABLE_FONT * 1.25
COL_PAD = 8.64  # points between columns
CELL_CHARS = 48  # longer cells wrap
MAX_TRANSPOSED_ROWS = 3  # a table of at most this many rows that still needs column groups prints on its side
WRAP_CHARS = (CELL_CHARS, 32, 24)  # a table that needs column groups tries narrower wraps that fit it whole
HEADER_CHARS = 14  # a column name wraps at spaces to its cells' width, but not narrower than this
MAX_ROWS = 400  # longer tables are cut in the PDF (all rows stay in the HTML)
FRAME_H = PAGE_H - 2 * MARGIN - 12  # the page's frame height, less the padding ReportLab's frame keeps
FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"
RULE = HexColor("#888888")

STYLES = {
    "cover": ParagraphStyle("cover", fontName=BOLD, fontSize=22, leading=28, alignment=TA_CENTER, spaceAfter=18),
    "cover_note": ParagraphStyle("cover_note", fontName=FONT, fontSize=9, leading=12, alignment=TA_CENTER,
                                 textColor=grey),
    "part": ParagraphStyle("part", fontName=BOLD, fontSize=16, leading=20, spaceAfter=6),
    "section": ParagraphStyle("section", fontName=BOLD, fontSize=12, leading=15, spaceBefore=8, spaceAfter=4,
                              keepWithNext=1),
    # a caption stays with its table's first rows by a conditional page break (``table_flowables``),
    # not by keepWithNext, which would keep the whole table together and leave the page half empty
    "caption": ParagraphStyle("caption", fontName=BOLD, fontSize=9, leading=11.5, spaceBefore=4, spaceAfter=2),
    "body": ParagraphStyle("body", fontName=FONT, fontSize=9, leading=11.7, spaceAfter=4),
    "toc_part": ParagraphStyle("toc_part", fontName=BOLD, fontSize=10, leading=13, spaceBefore=5),
    "toc_section": ParagraphStyle("toc_section", fontName=FONT, fontSize=9, leading=11.5, leftIndent=14),
}


@lru_cache(maxsize=1)
def register_fonts() -> None:
    ttf = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    for name in (FONT, BOLD):
        pdfmetrics.registerFont(TTFont(name, str(ttf / f"{name}.ttf")))


def paragraph(text: str, style: str) -> Paragraph:
    register_fonts()
    return Paragraph(escape(text).replace("\n", "<br/>"), STYLES[style])


def text_width(s: str, bold: bool = False, size: float = TABLE_FONT) -> float:
    """Width in points of one line of text in the table font."""
    register_fonts()
    return pdfmetrics.stringWidth(s, BOLD if bold else FONT, size)


def _cell_lines(value: str, chars: int = CELL_CHARS) -> list[str]:
    return textwrap.wrap(value, chars, break_long_words=True) or [""]


def _header_lines(name: str, cells: list[list[str]]) -> list[str]:
    """A column name wrapped at spaces to its cells' longest line (at least ``HEADER_CHARS``
    characters), so that a long name does not widen its column."""
    chars = max([HEADER_CHARS] + [len(line) for lines in cells for line in lines])
    return textwrap.wrap(name, chars, break_long_words=False) or [""]


def _column_groups(widths: list[float]) -> list[list[int]]:
    """Split column indices into groups that fit the text width; column 0 starts every group."""
    groups, current, used = [], [0], widths[0]
    for j in range(1, len(widths)):
        if len(current) > 1 and used + COL_PAD + widths[j] > TEXT_W:
            groups.append(current)
            current, used = [0], widths[0]
        current.append(j)
        used += COL_PAD + widths[j]
    groups.append(current)
    return groups


def _table_style(numeric: list[bool]) -> TableStyle:
    style = [("FONT", (0, 0), (-1, -1), FONT, TABLE_FONT, ROW_LEADING),
             ("FONT", (0, 0), (-1, 0), BOLD, TABLE_FONT, ROW_LEADING),
             ("VALIGN", (0, 0), (-1, -1), "TOP"),
             ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), COL_PAD),
             ("RIGHTPADDING", (-1, 0), (-1, -1), 0),
             ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
             ("LINEBELOW", (0, 0), (-1, 0), 0.5, RULE), ("LINEBELOW", (0, -1), (-1, -1), 0.5, RULE)]
    style += [("ALIGN", (j, 0), (j, -1), "RIGHT") for j, num in enumerate(numeric) if num]
    return TableStyle(style)


def _layout(columns, rows, chars: int) -> tuple[list, list, list[float], list[list[int]]]:
    """Cells wrapped at ``chars`` characters, the column names wrapped to them, the columns'
    widths and their groups (``_column_groups``)."""
    wrapped = [[_cell_lines(v, chars) for v in row] for row in rows]
    header = [_header_lines(str(c), [row[j] for row in wrapped]) for j, c in enumerate(columns)]
    widths = [max([text_width(line, bold=True) for line in h] + [text_width(line) for row in wrapped for line in row[j]])
              for j, h in enumerate(header)]
    return wrapped, header, widths, _column_groups(widths)


def _fitting_layout(columns, rows) -> tuple[list, list, list[float], list[list[int]]]:
    """The first ``_layout`` of ``WRAP_CHARS`` that fits the width in one group, else the widest."""
    widest = None
    for chars in WRAP_CHARS:
        layout = _layout(columns, rows, chars)
        if len(layout[3]) == 1:
            return layout
        widest = widest or layout
    return widest


def transposed(df: pd.DataFrame) -> pd.DataFrame:
    """A table of a few rows turned on its side: a row per column, headed by the first column's
    values (every cell as text, so nothing aligns as a number)."""
    t = df.astype(str).set_index(df.columns[0]).T
    return t.rename_axis(str(df.columns[0])).reset_index()


def table_flowables(caption: str, df: pd.DataFrame, cells: pd.DataFrame, turned: bool = False) -> list[Flowable]:
    """A caption and table per group of columns that fits the width (a table of a few rows that
    does not fit: on its side, ``turned``). ``cells``: the table formatted as strings; ``df``: the
    original (its numbers align right); a table without columns gives nothing."""
    if not len(cells.columns):
        return []
    rows = cells.head(MAX_ROWS).to_numpy()
    wrapped, header, widths, groups = _fitting_layout(cells.columns, rows)
    if len(groups) > 1 and 1 <= len(cells) <= MAX_TRANSPOSED_ROWS and not turned:
        return table_flowables(caption, *[transposed(t) for t in (df, cells)], turned=True)
    more = "" if len(cells) <= MAX_ROWS else f" (first {MAX_ROWS} of {len(cells)} rows; all rows in the HTML report)"
    numeric = [pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t) for t in df.dtypes]
    out: list[Flowable] = []
    for g, cols in enumerate(groups):
        part = "" if len(groups) == 1 else f" (columns {g + 1} of {len(groups)})"
        data = [["\n".join(header[j]) for j in cols]] + [["\n".join(row[j]) for j in cols] for row in wrapped]
        col_widths = [widths[j] + COL_PAD for j in cols[:-1]] + [widths[cols[-1]]]
        cap = paragraph(caption + more + part, "caption")
        table = Table(data, colWidths=col_widths, repeatRows=1, hAlign="LEFT",
                      style=_table_style([numeric[j] for j in cols]))
        out += [CondPageBreak(_height(cap) + min(_height(table), FIRST_ROWS)), cap, table, Spacer(1, 7)]
    return out


FIRST_ROWS = 60.0  # points of a table that must fit under its caption, else both start the next page


def _height(f: Flowable) -> float:
    """The height a flowable takes in the text width, with its space before and after."""
    _, h = f.wrap(TEXT_W, FRAME_H)
    return h + f.getSpaceBefore() + f.getSpaceAfter()


def chart_size(fig: Figure) -> tuple[float, float]:
    """Width and height (points) a chart prints at: its own size, shrunk only to fit the text
    width and the page (the charts are drawn for ``analysis.charts.CHART_W`` inches, which fits)."""
    w, h = (72.0 * v for v in fig.get_size_inches())
    scale = min(1.0, TEXT_W / w, (FRAME_H - 7) / h)
    return w * scale, h * scale


class Chart(Flowable):
    """A chart's PNG at its own size (``chart_size``); the PNG is asked for only when its page is drawn."""

    def __init__(self, fig: Figure, png: Callable[[Figure], bytes]):
        super().__init__()
        self.fig, self.png = fig, png
        self.width, self.height = chart_size(fig)

    def wrap(self, avail_width, avail_height):
        return self.width, self.height + 7

    def draw(self):
        image = ImageReader(io.BytesIO(self.png(self.fig)))
        self.canv.drawImage(image, 0, 7, self.width, self.height)


MARK_COLOURS = {"green": "#2e9d4b", "amber": "#e0a800", "red": "#c62828"}


class Heading(Paragraph):
    """A part or section heading that is also a PDF bookmark (outline entry) at its level."""

    def __init__(self, text: str, style: str, level: int):
        register_fonts()
        super().__init__(escape(text), STYLES[style])
        self.title, self.level = text, level

    @property
    def key(self) -> str:
        """The name of its bookmark: the target of its outline entry and of its contents line."""
        return f"h{id(self)}"

    def split(self, availWidth, availHeight):
        """A heading is never split: one that does not fit starts the next page."""
        return []

    def draw(self):
        self.canv.bookmarkPage(self.key)
        self.canv.addOutlineEntry(self.title, self.key, level=self.level, closed=self.level > 0)
        super().draw()


def mark_paragraph(level: str, text: str) -> Paragraph:
    """A verdict line: a coloured dot, the level in words, the sentence."""
    register_fonts()
    dot = f'<font color="{MARK_COLOURS[level]}">● {level}</font>'
    return Paragraph(f"{dot} {escape(text)}", STYLES["body"])


def section_flowables(s, png, fmt) -> list[Flowable]:
    """A section's heading, lines, text, tables and charts; the heading and text stay on the page
    of what follows them (no heading stranded at a page's foot)."""
    head = [Heading(s.title, "section", 1)] + ([paragraph(s.text, "body")] if s.text and not s.marks else [])
    body = [mark_paragraph(level, text) for level, text in s.marks]
    if s.text and s.marks:
        body.append(paragraph(s.text, "body"))
    body += [paragraph(f"{i}. {item}", "body") for i, (item, _) in enumerate(s.items, 1)]
    for caption, table in s.tables:
        if caption not in s.html_only:
            body += table_flowables(caption, table, fmt(table).astype(str))
    body = side_by_side(body, [Chart(fig, png) for caption, fig in s.figures if caption not in s.html_only])
    if body and isinstance(body[0], CondPageBreak):  # the heading stays with the table's caption and first rows
        return [CondPageBreak(sum(map(_height, head)) + body[0].height)] + head + body[1:]
    return [KeepTogether(head + body[:1])] + body[1:] if body else head


GUTTER = 10.0  # points between two things printed side by side


def _row(cells: list) -> Table:
    """Flowables (or lists of them) in one row of cells, left aligned, without padding."""
    return Table([cells], hAlign="LEFT", style=TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), GUTTER), ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))


def _narrow(f: Flowable) -> bool:
    return isinstance(f, Chart) and f.width <= (TEXT_W - GUTTER) / 2


def side_by_side(body: list[Flowable], charts: list[Chart]) -> list[Flowable]:
    """``body`` then ``charts``, small charts two to a row; a small chart left alone goes beside
    the table before it when both fit the width and the table is short (a cell does not split
    across pages)."""
    out = list(body)
    i = 0
    while i < len(charts):
        if i + 1 < len(charts) and _narrow(charts[i]) and _narrow(charts[i + 1]):
            out.append(_row([charts[i], charts[i + 1]]))
            i += 2
            continue
        c = charts[i]
        beside = _table_beside(out, c) if _narrow(c) else None
        if beside is None:
            out.append(c)
        else:  # the row is kept whole: its page break asks for all of its height
            row = _row([out[beside:beside + 3], c])
            out[beside - 1:beside + 3] = [CondPageBreak(_height(row)), row]
        i += 1
    return out


def _table_beside(body: list[Flowable], chart: Chart) -> int | None:
    """Where in ``body`` a table (its caption, table and spacer after its page break,
    ``table_flowables``) starts that ``chart`` fits beside: the table short and narrow enough;
    None when there is none."""
    for k in range(1, len(body) - 2):
        cap, table, gap = body[k:k + 3]
        if (isinstance(body[k - 1], CondPageBreak) and isinstance(cap, Paragraph) and type(table) is Table
                and isinstance(gap, Spacer)):
            w, h = table.wrap(TEXT_W, FRAME_H)
            if w + GUTTER + chart.width <= TEXT_W and h < FRAME_H / 2:
                return k
    return None


def cover_flowables(cover_lines: list[str]) -> list[Flowable]:
    return [Spacer(1, PAGE_H * 0.35), paragraph("cardlab balance report", "cover"), Spacer(1, PAGE_H * 0.3),
            paragraph("\n".join(cover_lines), "cover_note")]


CONTENTS = "Contents"


def contents(headings: list[Heading]) -> TableOfContents:
    """The contents pages: every part and section with its page number (a link to it). Filled
    with the headings before the first pass, so that pass lays out contents pages of their final
    length and the second pass only puts in the page numbers (``ReportDoc.afterFlowable``)."""
    register_fonts()
    toc = TableOfContents(levelStyles=[STYLES["toc_part"], STYLES["toc_section"]], dotsMinLevel=0,
                          rightColumnWidth=36)
    toc.addEntries([_toc_entry(h, 0) for h in headings])
    return toc


def _toc_entry(h: Heading, page: int) -> tuple[int, str, int, str]:
    return h.level, escape(h.title), page, h.key


class ReportDoc(SimpleDocTemplate):
    """The report's page layout; each heading it sets tells the contents its page."""

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading) and flowable.title != CONTENTS:
            self.notify("TOCEntry", _toc_entry(flowable, self.page))


def render_pdf(parts, path: Path, png, fmt, cover_lines: list[str]) -> int:
    """Write the PDF: a cover, the contents with page numbers, then per part its title and
    sections (``fmt`` formats a table's cells, ``png`` gives a chart's PNG); the number of pages.
    Two passes (ReportLab's ``multiBuild``): the first finds each heading's page."""
    body: list[Flowable] = []
    for i, (title, sections) in enumerate(parts):
        heading = ([Spacer(1, 18)] if i else []) + [Heading(title, "part", 0)]  # parts flow on: no half-empty pages
        for j, s in enumerate(sections):
            flow = section_flowables(s, png, fmt)
            if j == 0 and isinstance(flow[0], KeepTogether):  # a part's title stays with its first section
                flow[0] = KeepTogether(heading + flow[0]._content)
            elif j == 0 and isinstance(flow[0], CondPageBreak):
                flow = [CondPageBreak(flow[0].height + sum(map(_height, heading)))] + heading + flow[1:]
            elif j == 0:
                flow = heading + flow
            body += flow
    headings = [f for f in _flat(body) if isinstance(f, Heading)]
    story = (cover_flowables(cover_lines) + [PageBreak(), Heading(CONTENTS, "part", 0),
             contents(headings), PageBreak()] + body)
    doc = ReportDoc(str(path), pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                    bottomMargin=MARGIN, title="cardlab balance report", creator=cover_lines[0], invariant=True)
    with binary_streams():
        doc.multiBuild(story, onLaterPages=_page_number)
    return doc.page


@contextmanager
def binary_streams():
    """Page and image streams compressed but not ASCII85-encoded: ReportLab's ASCII85 encoder is
    pure Python without its optional C accelerator, and took a fifth of the report's time."""
    saved, rl_config.useA85 = rl_config.useA85, 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def _flat(flowables: list[Flowable]) -> list[Flowable]:
    """The flowables with those inside a ``KeepTogether`` in their place."""
    out = []
    for f in flowables:
        out += _flat(f._content) if isinstance(f, KeepTogether) else [f]
    return out


def _page_number(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont(FONT, 7)
    canvas.setFillColor(grey)
    canvas.drawRightString(PAGE_W - MARGIN, MARGIN / 2, f"page {doc.page}")
    canvas.restoreState()
