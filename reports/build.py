"""Assemble the balance report: one self-contained HTML file and a PDF, from run directories."""

from __future__ import annotations

import base64
import io
import multiprocessing
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import jinja2
import matplotlib

matplotlib.use("Agg")
import pandas as pd
from matplotlib.figure import Figure

from analysis import bot_diagnostics, common, eligibility, findings, hidden_info, skill, sweep, verdict
from sim.run import stats
from analysis import compare as compare_runs
from analysis import robustness as robust
from analysis.games import attach_advice, attach_controls, hook, sections_for, supporting
from analysis.glossary import in_words, plain_table, run_titles, section as glossary_section
from analysis.load import Run, cores
from analysis.advice import is_advice, load_advice
from analysis.sections import Section, anchor
from analysis.sweep import Sweep, is_sweep
from reports import pdf
from sim.kit.config import ConfigError
from sim.run.store import code_version

TEMPLATES = Path(__file__).parent / "templates"


def run_sections(run: Run) -> list[Section]:
    """Shared sections, then the game's own. The game's are computed first: their queries need
    no statistics, so they run while the statistics libraries still import (``stats.preload``)."""
    own = sections_for(run.config.game)
    game_sections = own(run) if own else []
    return common.sections(run) + game_sections


COMPARE_PART = "Comparison of A and B"


def build(run_dirs: list[str | Path], out: str | Path, min_effect: float = findings.MIN_EFFECT,
          compare: bool = False, robustness: tuple[str | Path, str | Path] | None = None) -> tuple[Path, Path]:
    """Write ``out/report.html`` and ``out/report.pdf`` covering every run directory, opening
    with the findings (effects of at least ``min_effect`` that stay significant after
    adjusting for every test). A sweep directory (``cardlab sweep``) adds its metrics against
    the swept value; ``compare`` (exactly two run directories) adds an A-vs-B part;
    ``robustness`` (a search run and a scripted run, among ``run_dirs``) the robustness part."""
    preloading = stats.preload()
    parts = report_parts(run_dirs, min_effect, compare, robustness)
    preloading.join()  # no import may be under way in another thread when rendered_ahead forks
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot create report directory {out}: {e.strerror}") from None
    html = out / "report.html"
    pdf = out / "report.pdf"
    images = Images()
    with images.rendered_ahead([f for _, sections in parts for s in sections for _, f in s.figures]):
        render_pdf(parts, pdf, images)  # first: it asks for the charts in order (see Images)
        html.write_text(render_html(parts, images))
    return html, pdf


def _pair(items: list, run_dirs: list, pair) -> tuple[Run, Run]:
    """The opened runs of a robustness pair (each a directory among ``run_dirs``)."""
    where = {Path(d).resolve(): i for d, i in zip(run_dirs, items)}
    runs = []
    for d in pair:
        item = where.get(Path(d).resolve())
        if not isinstance(item, Run):
            raise ConfigError(f"--robustness: {d} is not one of the report's run directories")
        runs.append(item)
    if runs[0] is runs[1]:
        raise ConfigError(f"--robustness needs two different runs, got {pair[0]} twice")
    return runs[0], runs[1]


def report_parts(run_dirs: list[str | Path], min_effect: float = findings.MIN_EFFECT,
                 compare: bool = False, robustness=None) -> list[tuple[str, list[Section]]]:
    """The report's parts (title, sections): verdict, findings, the A-vs-B comparison, the
    robustness part, each sweep, each ladder, each run. Only runs that can carry design findings
    (``analysis.eligibility``) get a verdict page and join the findings; the others are listed
    as kept out, or shown in the robustness part alone when they are one of its pair."""
    ladders = [skill.Ladder.open(d) for d in run_dirs if skill.is_ladder(d)]
    advices = [load_advice(d) for d in run_dirs if is_advice(d)]
    run_dirs = [d for d in run_dirs if not skill.is_ladder(d) and not is_advice(d)]
    items = [Sweep.open(d) if is_sweep(d) else Run(d) for d in run_dirs]
    if not items and not ladders:
        raise ConfigError("report needs at least one run directory")
    if compare and (len(items) != 2 or any(isinstance(i, Sweep) for i in items)):
        raise ConfigError(f"--compare needs exactly two run directories (A and B), got {len(run_dirs)} paths")
    attach_controls([r for i in items for r in (i.runs if isinstance(i, Sweep) else [i])])
    attach_advice([i for i in items if isinstance(i, Run)], advices)
    labelled, extra, texts, pending = [], [], [], []  # pending: (part title, sections builder)
    if compare:
        table = compare_runs.compare(*items)
        cands = compare_runs.candidates(table, COMPARE_PART)
        extra += cands
        texts.append(compare_runs.TESTS_TEXT)
        names = f"A = {items[0].path}, B = {items[1].path}"
        pending.append((COMPARE_PART, lambda n, t=table, c=cands: [compare_runs.section(t, c, n, names)]))
    pair = ()
    if robustness is not None:
        strong, scripted = _pair(items, run_dirs, robustness)
        pair = (strong, scripted)
        results = robust.robustness(strong, scripted)
        standing = eligibility.standing(strong.path.name, strong, ladders)
        pending.append((robust.part_title(standing),
                        lambda n, a=strong, b=scripted, r=results, st=standing: robust.sections(a, b, r, st)))
    controls = supporting([i for i in items if isinstance(i, Run)])
    parts_runs = [i for i in items if isinstance(i, Run) and id(i) not in controls]  # a control run serves, not a part
    titles = dict(zip(map(id, parts_runs), run_titles(parts_runs)))
    for item in items:
        if isinstance(item, Run):
            if id(item) in titles:
                labelled.append((titles[id(item)], item))
            continue
        table = sweep.metrics(item)
        cands = sweep.candidates(item, table)
        extra += cands
        pending.append((item.title, lambda n, s=item, t=table, c=cands: sweep.sections(s, t, c, n)))
        labelled += [(f"{r.game.title}: {item.path.name}/{r.path.name}", r) for r in item.runs]
    if any(isinstance(i, Sweep) for i in items):
        texts.append(sweep.TESTS_TEXT)
    standings = [eligibility.standing(label, run, ladders) for label, run in labelled]
    designed = [(s.label, s.run) for s in standings if s.eligible]
    kept = [s for s in standings if not s.eligible and not any(s.run is r for r in pair)]
    shown = [s for s in standings if s.eligible or any(s is k for k in kept)]  # a kept-out pair run: robustness only
    runs = [(s.label, ([] if s.eligible else [eligibility.kept_note(s)]) + run_sections(s.run))
            for s in shown]  # before the findings: see run_sections
    shown = [(s.label, s.run) for s in shown]
    cands = findings.candidates(designed) + extra
    lists = findings.sections_from(cands, min_effect, extra_text=" ".join(texts))  # fills the q-values
    page = verdict.sections(designed, cands, min_effect, kept_out=bool(kept)) + [skill.verdict_section(ld) for ld in ladders]
    parts = [(VERDICT_PART, page + eligibility.kept_sections(kept)),
             ("Findings", lists),
             (bot_diagnostics.PART, bot_diagnostics.sections(shown, diagnostics(shown)))]  # apart from the findings
    parts += [(title, make(len(cands))) for title, make in pending]
    parts += [(ladder.title, skill.sections(ladder) + hidden_info.sections(ladder)) for ladder in ladders]
    glossary = glossary_section({r.game.title: hook(r.config.game, "GLOSSARY") or {} for _, r in shown})
    appendix = [findings.appendix(cands, min_effect, extra_text=" ".join(texts))] + ([glossary] if glossary else [])
    return [(title, [said(s) for s in sections]) for title, sections in parts + runs] + [("Appendix", appendix)]


def said(s: Section) -> Section:
    """A section whose prose, verdict lines and findings say the glossary's codes in words
    (``analysis.glossary.in_words``); its tables and the glossary keep the codes."""
    s.text = in_words(s.text)
    s.marks = [(level, in_words(text)) for level, text in s.marks]
    s.items = [(in_words(text), target) for text, target in s.items]
    return s


def diagnostics(labelled: list[tuple[str, Run]]) -> list[bot_diagnostics.Diagnostic]:
    """Every bot diagnostic of the runs (part title, run), from each game's ``bot_diagnostics(run, label)``."""
    out = []
    for label, run in labelled:
        make = hook(run.config.game, "bot_diagnostics")
        out += make(run, label) if make else []
    return out


def _fmt_table(df: pd.DataFrame) -> pd.DataFrame:
    """Table cells as text: numbers by ``number_text``; headers and known codes in words
    (``analysis.glossary.plain_table``)."""
    df = df.copy()
    for c in df.columns:
        if pd.api.types.is_float_dtype(df[c]) or pd.api.types.is_integer_dtype(df[c]):
            df[c] = df[c].map(number_text)
    return plain_table(df)


def number_text(v) -> str:
    """A number as a reader writes it: whole numbers as integers with thousands separators,
    others to four significant digits, tiny ones (p-values) in scientific notation."""
    if pd.isna(v):
        return ""
    v = float(v)
    if v.is_integer() and abs(v) < 1e15:
        return f"{int(v):,}"
    a = abs(v)
    if a >= 1000:
        return f"{v:,.1f}"
    return f"{v:.4g}" if a >= 1e-3 else f"{v:.2e}"


FIGURE_DPI = 120


def _png_bytes(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=FIGURE_DPI)
    return buf.getvalue()


_AHEAD: list[Figure] = []  # the charts a forked process renders (it inherits this list)


def _render_ahead(i: int) -> bytes:
    return _png_bytes(_AHEAD[i])


class Images:
    """Each chart rendered to PNG once, shared by the HTML and the PDF.

    Within ``rendered_ahead`` a forked process renders the charts from the last one back, while
    this process renders them from the first on as the PDF asks for them, taking each one the
    other process has finished: the two meet in the middle, and nothing waits on the other."""

    def __init__(self):
        self._png: dict[int, tuple[Figure, bytes]] = {}
        self._ahead: dict = {}  # id(fig) -> the forked process's pending result

    @contextmanager
    def rendered_ahead(self, figs: list[Figure]):
        """Render ``figs`` from the last back in a forked process while the caller goes on. With
        one core or without fork, ``png`` renders each chart itself."""
        if len(figs) < 2 or cores() < 2 or "fork" not in multiprocessing.get_all_start_methods():
            yield
            return
        _AHEAD[:] = figs
        try:
            with multiprocessing.get_context("fork").Pool(1) as pool:
                self._ahead = {id(f): pool.apply_async(_render_ahead, (i,)) for i, f in reversed(list(enumerate(figs)))}
                yield
        finally:
            self._ahead = {}
            _AHEAD.clear()

    def png(self, fig: Figure) -> bytes:
        if id(fig) not in self._png:
            self._png[id(fig)] = (fig, self._from_ahead(fig) or _png_bytes(fig))
        return self._png[id(fig)][1]

    def _from_ahead(self, fig: Figure) -> bytes | None:
        """The forked process's PNG of ``fig`` if it is done; None (render it here) if it is not
        done yet or failed."""
        ahead = self._ahead.get(id(fig))
        if ahead is None or not ahead.ready():
            return None
        try:
            return ahead.get(0)
        except Exception:
            return None

    def base64(self, fig: Figure) -> str:
        return base64.b64encode(self.png(fig)).decode()


PRESCRIPTION_STARTS = (" Prescription", " No lever", " Not advised", " Checked for", " Not the same reference")
VERDICT_PART, OTHERS_SUFFIX = "Verdict", verdict.OTHERS_SUFFIX


def split_line(text: str) -> tuple[str, str]:
    """A verdict line as (what was measured, what to do about it): the second part starts at its
    prescription (or at why there is none); empty when the line has none."""
    at = min((i for i in (text.find(p) for p in PRESCRIPTION_STARTS) if i > 0), default=len(text))
    return text[:at], text[at:].strip()


def verdict_cards(part: str, sections: list[Section]) -> list[dict]:
    """The verdict part as one card per run: its rule lines with their prescriptions, what to
    change, and its bot and engine lines (its section ``<run>: bots and engine``)."""
    if part != VERDICT_PART:
        return []
    cards: dict[str, dict] = {}
    for s in sections:
        if not s.marks:
            continue
        run = s.title.removesuffix(OTHERS_SUFFIX)
        card = cards.setdefault(run, {"title": run, "anchor": anchor(part, run), "lines": [], "change": "",
                                      "others": [], "others_anchor": anchor(part, run + OTHERS_SUFFIX)})
        lines = [(level, *split_line(text)) for level, text in s.marks]
        if s.title.endswith(OTHERS_SUFFIX):
            card["others"] = lines
        else:
            card["lines"], card["change"] = lines, s.text
    return list(cards.values())


def render_html(parts: list[tuple[str, list[Section]]], images: Images | None = None) -> str:
    images = images or Images()
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    data = []
    for title, sections in parts:
        cards = verdict_cards(title, sections)
        in_cards = {c["anchor"] for c in cards} | {c["others_anchor"] for c in cards}
        data.append(
            {
                "title": title,
                "anchor": anchor(title),
                "cards": cards,
                "sections": [
                    {
                        "title": s.title,
                        "anchor": anchor(title, s.title),
                        "in_card": anchor(title, s.title) in in_cards,
                        "text": s.text,
                        "findings": [(text, anchor(*target)) for text, target in s.items],
                        "marks": s.marks,
                        "tables": [(c, _fmt_table(t).to_html(index=False, classes="data", border=0)) for c, t in s.tables],
                        "figures": [(c, images.base64(f), f"{pdf.chart_size(f)[0] / 72:.2f}") for c, f in s.figures],
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
        sortable=sortable_tables(),
    )


def sortable_tables() -> dict[str, str]:
    """The DataTables bundle that ``itables`` ships (its offline mode's files), embedded in the
    page: its CSS, and its ES module as a base64 data address the page imports, so every table
    sorts by a click on a header with no network."""
    import base64
    from importlib.resources import files

    bundle = files("itables") / "html"
    js = base64.b64encode((bundle / "dt_bundle.js").read_bytes()).decode()
    return {"css": (bundle / "dt_bundle.css").read_text(), "module": f"data:text/javascript;base64,{js}"}


def render_pdf(parts: list[tuple[str, list[Section]]], path: Path, images: Images | None = None) -> None:
    pdf.render_pdf(parts, path, (images or Images()).png, _fmt_table, [f"cardlab {code_version()}"])
