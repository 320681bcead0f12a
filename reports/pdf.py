"""The PDF report: A4 pages with blocks (headings, prose, tables, charts) stacked top to bottom.

Text is drawn straight onto the page figure (no axes per block) and a table is one text per
column, so a page costs a few dozen artists. Tables fit the page: cells longer than
``CELL_CHARS`` wrap, columns that do not fit the width go to a continuation block (the first
column repeated), and rows that do not fit the height continue on the next page.
"""

from __future__ import annotations

import io
import textwrap
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.image import BboxImage
from matplotlib.lines import Line2D
from matplotlib.transforms import Bbox, TransformedBbox
from PIL import Image

PAGE_W, PAGE_H, MARGIN = 8.27, 11.69, 0.5  # A4, inches
TEXT_W = PAGE_W - 2 * MARGIN
TABLE_FONT = 6.5  # points
LINE_SPACING = 1.25
ROW_H = TABLE_FONT * LINE_SPACING / 72  # inches per table text line
COL_PAD = 0.12  # inches between columns
CELL_CHARS = 48  # longer cells wrap
MAX_ROWS = 400  # longer tables are cut in the PDF (all rows stay in the HTML)


@lru_cache(maxsize=1)
def _renderer() -> RendererAgg:
    return RendererAgg(10, 10, 72)  # 72 dpi: one pixel is one point, as in the PDF


@lru_cache(maxsize=4096)
def text_width(s: str, size: float = TABLE_FONT, weight: str = "normal") -> float:
    """Width in inches of one line of text in the default font, as matplotlib lays it out."""
    w, _, _ = _renderer().get_text_width_height_descent(s, FontProperties(size=size, weight=weight), ismath=False)
    return w / 72


def _cell_lines(value: str) -> list[str]:
    return textwrap.wrap(value, CELL_CHARS, break_long_words=True) or [""]


def _wrap(text: str, size: float, weight: str, chars: int) -> list[str]:
    """Lines of at most ``chars`` characters, fewer where the drawn line would pass the text width."""
    while True:
        lines = textwrap.wrap(text, chars) or [""]
        if chars <= 20 or max(text_width(line, size, weight) for line in lines) <= TEXT_W:
            return lines
        chars -= 5


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


class Pages:
    """Flow layout: blocks stacked top to bottom, a new page when one is full."""

    def __init__(self, pdf: PdfPages | None, png):
        self.pdf = pdf
        self.png = png  # Figure -> PNG bytes (rendered once, shared with the HTML)
        self.fig: Figure | None = None
        self.y = 0.0  # inches used on the current page
        self.done: list[Figure] = []  # pages kept when there is no PdfPages (tests)

    def _room(self, h: float) -> None:
        if self.fig is None or self.y + h > PAGE_H - 2 * MARGIN:
            self.new_page()

    def new_page(self) -> None:
        self.flush()
        self.fig = Figure(figsize=(PAGE_W, PAGE_H))
        self.y = 0.0

    def _left(self) -> float:
        return PAGE_H - 2 * MARGIN - self.y

    def _put(self, x: float, y: float, s: str, **kw) -> None:
        """Text at (x, y) inches from the top-left corner of the text area."""
        self.fig.text((MARGIN + x) / PAGE_W, (PAGE_H - MARGIN - y) / PAGE_H, s, va="top", parse_math=False, **kw)

    def text(self, text: str, size: float = 9, weight: str = "normal", wrap: int = 105) -> None:
        lines = _wrap(text, size, weight, wrap)
        h = 0.05 + size / 72 * 1.45 * len(lines)
        self._room(h)
        self._put(0, self.y, "\n".join(lines), fontsize=size, weight=weight, linespacing=1.3)
        self.y += h

    def table(self, caption: str, df: pd.DataFrame, cells: pd.DataFrame) -> None:
        """``cells``: the table formatted as strings; ``df``: the original (numbers align right)."""
        header = [str(c) for c in cells.columns]
        rows = cells.head(MAX_ROWS).to_numpy()
        more = "" if len(cells) <= MAX_ROWS else f" (first {MAX_ROWS} of {len(cells)} rows; all rows in the HTML report)"
        wrapped = [[_cell_lines(v) for v in row] for row in rows]
        widths = [max([text_width(h, weight="bold")] + [text_width(max((l for c in wrapped for l in c[j]), key=len, default=""))])
                  for j, h in enumerate(header)]
        numeric = [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in df.columns]
        groups = _column_groups(widths)
        for g, cols in enumerate(groups):
            part = "" if len(groups) == 1 else f" (columns {g + 1} of {len(groups)})"
            self.text(caption + more + part, size=9, weight="bold")
            self._table_rows([header[j] for j in cols], [[r[j] for j in cols] for r in wrapped],
                             [widths[j] for j in cols], [numeric[j] for j in cols])

    def _table_rows(self, header, wrapped, widths, numeric) -> None:
        """Draw rows, continuing on new pages (header repeated) while rows remain."""
        heights = [max(len(c) for c in row) for row in wrapped]
        start = 0
        while True:
            if self._left() < 3 * ROW_H:
                self.new_page()
            fit, used = 0, ROW_H  # the header line
            while start + fit < len(wrapped) and used + heights[start + fit] * ROW_H <= self._left() - 0.1:
                used += heights[start + fit] * ROW_H
                fit += 1
            if fit == 0 and wrapped:
                self.new_page()
                continue
            self._draw_block(header, wrapped[start:start + fit], heights[start:start + fit], widths, numeric)
            start += fit
            if start >= len(wrapped):
                return
            self.new_page()

    def _draw_block(self, header, rows, heights, widths, numeric) -> None:
        x, top = 0.0, self.y
        total = sum(widths) + COL_PAD * (len(widths) - 1)
        for j, w in enumerate(widths):
            lines = []
            for row, h in zip(rows, heights):
                lines += row[j] + [""] * (h - len(row[j]))
            ha, at = ("right", x + w) if numeric[j] else ("left", x)
            self._put(at, top, header[j], fontsize=TABLE_FONT, weight="bold", ha=ha)
            if lines:
                self._put(at, top + ROW_H, "\n".join(lines), fontsize=TABLE_FONT, ha=ha, linespacing=LINE_SPACING)
            x += w + COL_PAD
        n_lines = sum(heights)
        for y in (top + ROW_H * 1.02, top + ROW_H * (1.15 + n_lines)):
            yy = (PAGE_H - MARGIN - y) / PAGE_H
            self.fig.add_artist(Line2D([MARGIN / PAGE_W, (MARGIN + total) / PAGE_W], [yy, yy], lw=0.5, color="#888"))
        self.y += ROW_H * (1.4 + n_lines) + 0.1

    def figure(self, caption: str, fig: Figure) -> None:
        """The chart's PNG (the HTML's pixels), placed as one image: no axes, no alpha channel
        (the charts are opaque), not resampled."""
        img = np.asarray(Image.open(io.BytesIO(self.png(fig))).convert("RGB"))
        w = min(TEXT_W, 6.4)
        h = w * img.shape[0] / img.shape[1]
        self._room(h + 0.1)
        top = PAGE_H - MARGIN - self.y
        box = TransformedBbox(Bbox.from_bounds(MARGIN, top - h, w, h), self.fig.dpi_scale_trans)
        image = BboxImage(box, interpolation="none")
        image.set_data(img)
        self.fig.add_artist(image)
        self.y += h + 0.1

    def flush(self) -> None:
        if self.fig is not None:
            if self.pdf is not None:
                self.pdf.savefig(self.fig)
            else:
                self.done.append(self.fig)
            self.fig = None


def render_pdf(parts, path: Path, png, fmt, cover_lines: list[str]) -> None:
    """Write the PDF: a cover, then per part its title and sections (``fmt`` formats a table's cells)."""
    with PdfPages(path) as pdf:
        cover = Figure(figsize=(PAGE_W, PAGE_H))
        cover.text(0.5, 0.6, "cardlab balance report", ha="center", fontsize=22, weight="bold")
        cover.text(0.5, 0.55, "\n".join(t for t, _ in parts), ha="center", va="top", fontsize=12)
        cover.text(0.5, 0.1, "\n".join(cover_lines), ha="center", fontsize=9, color="grey")
        pdf.savefig(cover)
        pages = Pages(pdf, png)
        for title, sections in parts:
            pages.new_page()
            pages.text(title, size=16, weight="bold", wrap=60)
            for s in sections:
                pages.text(s.title, size=12, weight="bold", wrap=80)
                if s.text:
                    pages.text(s.text)
                for i, (item, _) in enumerate(s.items, 1):
                    pages.text(f"{i}. {item}")
                for caption, table in s.tables:
                    pages.table(caption, table, fmt(table).astype(str))
                for caption, fig in s.figures:
                    pages.figure(caption, fig)
        pages.flush()
