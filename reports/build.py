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
from analysis.load import Run
from sim.config import ConfigError
from sim.games.base import Section
from sim.store import code_version

TEMPLATES = Path(__file__).parent / "templates"


def run_sections(run: Run) -> list[Section]:
    """Shared sections, then the game's own."""
    return common.sections(run) + run.game.report_sections(run)


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


def _table_page(title: str, caption: str, df: pd.DataFrame, text: str = "") -> Figure:
    df = _fmt_table(df).astype(str)
    rows = min(len(df), 40)
    fig = Figure(figsize=(8.27, 11.69))
    fig.text(0.05, 0.96, title, fontsize=14, weight="bold")
    fig.text(0.05, 0.93, caption + ("" if rows == len(df) else f" (first {rows} of {len(df)} rows)"), fontsize=10)
    if text:
        import textwrap

        fig.text(0.05, 0.90, "\n".join(textwrap.wrap(text, 110)), fontsize=8, va="top")
    ax = fig.add_axes([0.05, 0.05, 0.9, 0.78])
    ax.axis("off")
    if rows:
        tbl = ax.table(cellText=df.head(rows).to_numpy(), colLabels=list(df.columns), loc="upper center")
        tbl.auto_set_font_size(False)
        tbl.set_fontsize(7)
        tbl.scale(1, 1.2)
    return fig


def render_pdf(parts: list[tuple[str, list[Section]]], path: Path) -> None:
    with PdfPages(path) as pdf:
        cover = Figure(figsize=(8.27, 11.69))
        cover.text(0.5, 0.6, "cardlab balance report", ha="center", fontsize=22, weight="bold")
        cover.text(0.5, 0.55, "\n".join(t for t, _ in parts), ha="center", va="top", fontsize=12)
        cover.text(0.5, 0.1, f"cardlab {code_version()}", ha="center", fontsize=9, color="grey")
        pdf.savefig(cover)
        for title, sections in parts:
            for s in sections:
                for i, (caption, table) in enumerate(s.tables):
                    pdf.savefig(_table_page(f"{title} — {s.title}", caption, table, s.text if i == 0 else ""))
                if not s.tables and s.text:
                    pdf.savefig(_table_page(f"{title} — {s.title}", "", pd.DataFrame(), s.text))
                for caption, fig in s.figures:
                    fig.suptitle(f"{title} — {caption}", fontsize=9)
                    pdf.savefig(fig)
