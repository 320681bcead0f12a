"""Assemble the balance report: one self-contained HTML file and a PDF, from run directories."""

from __future__ import annotations

import base64
import io
import re
from datetime import datetime, timezone
from pathlib import Path

import jinja2
import matplotlib

matplotlib.use("Agg")
import pandas as pd
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from analysis import common
from analysis.games import sections_for
from analysis.load import Run
from analysis.sections import Section
from sim.config import ConfigError
from sim.store import code_version

TEMPLATES = Path(__file__).parent / "templates"


def run_sections(run: Run) -> list[Section]:
    """Shared sections, then the game's own."""
    own = sections_for(run.config.game)
    return common.sections(run) + (own(run) if own else [])


def build(run_dirs: list[str | Path], out: str | Path) -> tuple[Path, Path]:
    """Write ``out/report.html`` and ``out/report.pdf`` covering every run directory."""
    runs = [Run(d) for d in run_dirs]
    if not runs:
        raise ConfigError("report needs at least one run directory")
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot create report directory {out}: {e.strerror}") from None
    parts = [(f"{r.game.title}: {r.path.name}", run_sections(r)) for r in runs]
    html = out / "report.html"
    pdf = out / "report.pdf"
    html.write_text(render_html(parts))
    render_pdf(parts, pdf)
    return html, pdf


def _fmt_table(df: pd.DataFrame) -> pd.DataFrame:
    df = df.copy()
    for c in df.columns:
        if pd.api.types.is_float_dtype(df[c]):
            df[c] = df[c].map(lambda v: "" if pd.isna(v) else f"{v:.4f}")
    return df


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96)
    return base64.b64encode(buf.getvalue()).decode()


def render_html(parts: list[tuple[str, list[Section]]]) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    data = []
    for title, sections in parts:
        data.append(
            {
                "title": title,
                "anchor": re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-"),
                "sections": [
                    {
                        "title": s.title,
                        "text": s.text,
                        "tables": [(c, _fmt_table(t).to_html(index=False, classes="data", border=0)) for c, t in s.tables],
                        "figures": [(c, _png(f)) for c, f in s.figures],
                    }
                    for s in sections
                ],
            }
        )
    return env.get_template("report.html").render(
        title="cardlab balance report",
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        version=code_version(),
        parts=data,
    )


PAGE_W, PAGE_H, MARGIN = 8.27, 11.69, 0.5  # A4, inches
MAX_ROWS = 35


class _Pages:
    """Flow layout for the PDF: blocks stacked top to bottom, a new page when one is full."""

    def __init__(self, pdf: PdfPages):
        self.pdf = pdf
        self.fig: Figure | None = None
        self.y = 0.0  # inches used on the current page

    def _room(self, h: float) -> None:
        if self.fig is None or self.y + h > PAGE_H - 2 * MARGIN:
            self.flush()
            self.fig = Figure(figsize=(PAGE_W, PAGE_H))
            self.y = 0.0

    def _axes(self, h: float, w: float = PAGE_W - 2 * MARGIN):
        self._room(h)
        top = PAGE_H - MARGIN - self.y
        self.y += h
        return self.fig.add_axes([MARGIN / PAGE_W, (top - h) / PAGE_H, w / PAGE_W, h / PAGE_H])

    def text(self, text: str, size: float = 9, weight: str = "normal", wrap: int = 105) -> None:
        import textwrap

        lines = textwrap.wrap(text, wrap) or [""]
        ax = self._axes(0.05 + size / 72 * 1.45 * len(lines))
        ax.axis("off")
        ax.text(0, 1, "\n".join(lines), va="top", fontsize=size, weight=weight, transform=ax.transAxes)

    def table(self, caption: str, df: pd.DataFrame) -> None:
        df = _fmt_table(df).astype(str)
        rows = min(len(df), MAX_ROWS)
        more = "" if rows == len(df) else f" (first {rows} of {len(df)} rows; all rows in the HTML report)"
        self.text(caption + more, size=9, weight="bold")
        if not rows:
            return
        ax = self._axes(0.2 * (rows + 1) + 0.15)
        ax.axis("off")
        tbl = ax.table(cellText=df.head(rows).to_numpy(), colLabels=list(df.columns), loc="upper left",
                       bbox=[0, 0.15 / (0.2 * (rows + 1) + 0.15), 1, 1 - 0.15 / (0.2 * (rows + 1) + 0.15)])
        tbl.auto_set_font_size(False)
        tbl.set_fontsize(6.5)

    def figure(self, caption: str, fig: Figure) -> None:
        import matplotlib.image as mpimg

        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=150)
        buf.seek(0)
        img = mpimg.imread(buf)
        w = min(PAGE_W - 2 * MARGIN, 6.4)
        h = w * img.shape[0] / img.shape[1]
        ax = self._axes(h + 0.1, w)
        ax.imshow(img)
        ax.axis("off")

    def flush(self) -> None:
        if self.fig is not None:
            self.pdf.savefig(self.fig)
            self.fig = None


def render_pdf(parts: list[tuple[str, list[Section]]], path: Path) -> None:
    with PdfPages(path) as pdf:
        cover = Figure(figsize=(PAGE_W, PAGE_H))
        cover.text(0.5, 0.6, "cardlab balance report", ha="center", fontsize=22, weight="bold")
        cover.text(0.5, 0.55, "\n".join(t for t, _ in parts), ha="center", va="top", fontsize=12)
        cover.text(0.5, 0.1, f"cardlab {code_version()}", ha="center", fontsize=9, color="grey")
        pdf.savefig(cover)
        pages = _Pages(pdf)
        for title, sections in parts:
            pages.flush()
            pages.text(title, size=16, weight="bold", wrap=60)
            for s in sections:
                pages.text(s.title, size=12, weight="bold", wrap=80)
                if s.text:
                    pages.text(s.text)
                for caption, table in s.tables:
                    pages.table(caption, table)
                for caption, fig in s.figures:
                    pages.figure(caption, fig)
        pages.flush()
