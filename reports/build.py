"""Assemble the balance report: one self-contained HTML file and a PDF, from run directories."""

from __future__ import annotations

import base64
import io
from datetime import datetime, timezone
from pathlib import Path

import jinja2
import matplotlib

matplotlib.use("Agg")
import pandas as pd
from matplotlib.figure import Figure

from analysis import common, findings
from analysis.games import sections_for
from analysis.load import Run
from analysis.sections import Section, anchor
from reports import pdf
from sim.config import ConfigError
from sim.store import code_version

TEMPLATES = Path(__file__).parent / "templates"


def run_sections(run: Run) -> list[Section]:
    """Shared sections, then the game's own."""
    own = sections_for(run.config.game)
    return common.sections(run) + (own(run) if own else [])


def build(run_dirs: list[str | Path], out: str | Path, min_effect: float = findings.MIN_EFFECT) -> tuple[Path, Path]:
    """Write ``out/report.html`` and ``out/report.pdf`` covering every run directory, opening
    with the findings (effects of at least ``min_effect`` that stay significant after
    adjusting for every test)."""
    runs = [Run(d) for d in run_dirs]
    if not runs:
        raise ConfigError("report needs at least one run directory")
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot create report directory {out}: {e.strerror}") from None
    labels = [f"{r.game.title}: {r.path.name}" for r in runs]
    parts = [("Findings", [findings.section(list(zip(labels, runs)), min_effect)])]
    parts += [(label, run_sections(r)) for label, r in zip(labels, runs)]
    html = out / "report.html"
    pdf = out / "report.pdf"
    images = Images()
    html.write_text(render_html(parts, images))
    render_pdf(parts, pdf, images)
    return html, pdf


def _fmt_table(df: pd.DataFrame) -> pd.DataFrame:
    df = df.copy()
    for c in df.columns:
        if pd.api.types.is_float_dtype(df[c]):
            df[c] = df[c].map(lambda v: "" if pd.isna(v) else f"{v:.4f}")
    return df


FIGURE_DPI = 120


class Images:
    """Each chart rendered to PNG once, shared by the HTML and the PDF."""

    def __init__(self):
        self._png: dict[int, tuple[Figure, bytes]] = {}

    def png(self, fig: Figure) -> bytes:
        if id(fig) not in self._png:
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=FIGURE_DPI)
            self._png[id(fig)] = (fig, buf.getvalue())
        return self._png[id(fig)][1]

    def base64(self, fig: Figure) -> str:
        return base64.b64encode(self.png(fig)).decode()


def render_html(parts: list[tuple[str, list[Section]]], images: Images | None = None) -> str:
    images = images or Images()
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    data = []
    for title, sections in parts:
        data.append(
            {
                "title": title,
                "anchor": anchor(title),
                "sections": [
                    {
                        "title": s.title,
                        "anchor": anchor(title, s.title),
                        "text": s.text,
                        "findings": [(text, anchor(*target)) for text, target in s.items],
                        "tables": [(c, _fmt_table(t).to_html(index=False, classes="data", border=0)) for c, t in s.tables],
                        "figures": [(c, images.base64(f)) for c, f in s.figures],
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


def render_pdf(parts: list[tuple[str, list[Section]]], path: Path, images: Images | None = None) -> None:
    pdf.render_pdf(parts, path, (images or Images()).png, _fmt_table, [f"cardlab {code_version()}"])
