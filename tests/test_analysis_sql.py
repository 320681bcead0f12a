"""The DuckDB analysis layer: run views, queries equal to the pandas computations, polars,
`cardlab sql`, and the PDF/HTML layout rules."""

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy import stats as sps

from analysis import queries
from analysis.compare import compare, summary
from analysis.load import Run
from sim.run.stats import rate_table
from sim.run import runner
from sim.kit.config import ConfigError
from tests.test_cli import cardlab, one_line_error


@pytest.fixture(scope="module")
def toy_runs(tmp_path_factory):
    from sim.games import get_game

    toy = get_game("toy")
    base = tmp_path_factory.mktemp("runs")
    runner.run(toy.make_config(players=3, seed=21), 1500, base / "a", runner.RunOptions(batch_size=400, progress=False))
    runner.run(toy.make_config(players=3, seed=22, overrides={"lucky_bonus": 2}), 1200, base / "b",
               runner.RunOptions(batch_size=500, progress=False))
    return base / "a", base / "b"


def test_views_cover_every_batch_and_sum_tables_are_summed(toy_runs):
    run = Run(toy_runs[0])
    assert run.sql("SELECT count(*) AS n FROM games")["n"].item() == 1500
    assert run.sql("SELECT count(*) AS n FROM seats")["n"].item() == 4500
    cards = run.sql("SELECT * FROM cards ORDER BY card")
    assert cards["card"].is_unique and cards["count"].sum() == 4500  # 4 batch files, one row per card
    pd.testing.assert_frame_equal(cards, run.table("cards"), check_dtype=False)
    assert set(run.columns("seats")) >= {"game", "seat", "bot", "win"}


def test_query_errors_are_one_line(toy_runs):
    run = Run(toy_runs[0])
    with pytest.raises(ConfigError, match=r"^Catalog Error: .*nope.* \(run "):
        run.sql("SELECT * FROM nope")
    with pytest.raises(ConfigError, match="syntax error"):
        run.sql("SELEC 1")


def test_rates_and_distribution_equal_pandas(toy_runs):
    run = Run(toy_runs[0])
    seats, games = run.table("seats"), run.table("games")
    for by in ("seat", "bot"):
        pd.testing.assert_frame_equal(queries.rates(run, "seats", by, "win"), rate_table(seats, by, "win"),
                                      check_dtype=False)
    counts, d = queries.distribution(run, "games", "turns")
    assert counts.to_dict() == games["turns"].value_counts().to_dict()
    assert d["mean"] == pytest.approx(games["turns"].mean(), rel=1e-12)
    assert d["std"] == pytest.approx(games["turns"].std(), rel=1e-12)
    assert d["quantiles"] == pytest.approx(list(games["turns"].quantile([0.05, 0.25, 0.5, 0.75, 0.95])))
    m, lo, hi = queries.mean_ci(run, "seats", "card")
    ref = sps.t.interval(0.95, len(seats) - 1, loc=seats["card"].mean(), scale=sps.sem(seats["card"]))
    assert (m, lo, hi) == pytest.approx((seats["card"].mean(), *ref), rel=1e-12)


def test_compare_and_summary_equal_whole_table_tests(toy_runs):
    a, b = Run(toy_runs[0]), Run(toy_runs[1])
    c = compare(a, b).set_index("metric")
    ga, gb = a.table("games"), b.table("games")
    t = sps.ttest_ind(ga["turns"].to_numpy(float), gb["turns"].to_numpy(float), equal_var=False)
    assert c.at["mean turns", "p"] == pytest.approx(t.pvalue, rel=1e-9)
    assert c.at["mean turns", "A-B"] == pytest.approx(ga["turns"].mean() - gb["turns"].mean(), rel=1e-12)
    sa = a.table("seats")
    assert c.at["win rate, bot lucky", "A"] == pytest.approx(sa.loc[sa["bot"] == "lucky", "win"].mean(), rel=1e-12)
    s = summary(b)
    sb = b.table("seats")
    rates = sb.groupby("seat")["win"].mean()
    assert s["games"] == 1200 and s["seat_spread"] == pytest.approx(rates.max() - rates.min(), rel=1e-12)
    assert s["no_winner"] == 0.0


def test_polars_reads_the_run_files(toy_runs):
    """The run's files are plain Parquet: polars computes the same win rates as DuckDB."""
    path = toy_runs[0]
    by_seat = (pl.scan_parquet(str(path / "seats" / "*.parquet")).group_by("seat")
               .agg(pl.len().alias("n"), pl.col("win").sum().alias("wins")).sort("seat").collect())
    ref = Run(path).sql("SELECT seat, count(*) AS n, sum(win::INT) AS wins FROM seats GROUP BY seat ORDER BY seat")
    assert by_seat["n"].to_list() == ref["n"].tolist() and by_seat["wins"].to_list() == ref["wins"].tolist()


def test_sql_command_prints_and_writes(toy_runs, tmp_path):
    run = toy_runs[0]
    res = cardlab("sql", run, "SELECT seat, count(*) AS n FROM seats GROUP BY seat ORDER BY seat")
    assert res.returncode == 0, res.stderr
    assert "1500" in res.stdout and "seat" in res.stdout
    res = cardlab("sql", run, "SELECT * FROM games WHERE turns > 2", "--out", tmp_path / "g.parquet")
    assert res.returncode == 0, res.stderr
    written = pd.read_parquet(tmp_path / "g.parquet")
    assert len(written) == (Run(run).table("games")["turns"] > 2).sum() and f"wrote {len(written):,} rows" in res.stdout
    res = cardlab("sql", run, "SELECT card, count FROM cards", "--out", tmp_path / "c.csv")
    assert res.returncode == 0 and pd.read_csv(tmp_path / "c.csv")["count"].sum() == 4500
    assert one_line_error(cardlab("sql", run, "SELECT nope FROM seats")).startswith("error: Binder Error")
    assert "must end in .csv or .parquet" in one_line_error(cardlab("sql", run, "SELECT 1", "--out", tmp_path / "x.txt"))
    assert "no run.json" in one_line_error(cardlab("sql", tmp_path, "SELECT 1"))


def test_sql_prints_whole_numbers_as_integers(toy_runs):
    # a HUGEINT sum and a DOUBLE sum of whole numbers print as integers, also in a column that
    # holds a mean; the mean prints as DuckDB returns it, unrounded
    run = toy_runs[0]
    turns = int(Run(run).table("games")["turns"].sum())
    mean = float(Run(run).sql("SELECT avg(turns) AS m FROM games")["m"].iloc[0])
    res = cardlab("sql", run, "SELECT 'a_sum' AS what, sum(turns) AS v FROM games "
                  "UNION ALL SELECT 'b_double', sum(turns::DOUBLE) FROM games "
                  "UNION ALL SELECT 'c_mean', avg(turns) FROM games "
                  "UNION ALL SELECT 'd_big', 12345678901 ORDER BY what")
    assert res.returncode == 0, res.stderr
    rows = [[c.strip() for c in line.split("\u2502")[1:-1]] for line in res.stdout.splitlines()]
    cells = {r[0]: r[1] for r in rows if len(r) == 2 and r[0] != "what"}
    assert cells == {"a_sum": str(turns), "b_double": str(turns), "c_mean": repr(mean), "d_big": "12345678901"}
    assert mean != int(mean) and len(repr(mean)) > 6  # more places than the four other tables print


def test_pdf_tables_fit_the_page(tmp_path):
    """A wide, long table with long cells: split by columns, continued over pages, every
    table within the text width and every cell line within its column."""
    from reportlab.platypus import SimpleDocTemplate, Table

    from reports import pdf

    rng = np.random.default_rng(0)
    df = pd.DataFrame({f"a rather long column name {j}": rng.random(120) for j in range(14)})
    df.insert(0, "label", [f"row {i} " + "with a long description " * (i % 4) for i in range(120)])
    flowables = pdf.table_flowables("A wide table", df, df.astype(str))
    assert len([f for f in flowables if isinstance(f, Table)]) >= 2  # column groups
    assert_tables_fit(flowables)
    doc = SimpleDocTemplate(str(tmp_path / "t.pdf"), pagesize=pdf.A4)
    doc.build(flowables)
    assert doc.page >= 3  # each column group continues on a second page


def test_long_column_names_wrap_instead_of_widening_the_table():
    """Eight columns of short numbers under long names fit one table: each name wraps at spaces
    to its cells' width (at least ``HEADER_CHARS``); a name without spaces stays whole."""
    from reportlab.platypus import Table

    from reports import pdf

    names = [f"checked: the holder's edge with the VPs to print, measure {j} (pp)" for j in range(7)]
    df = pd.DataFrame({"card": ["01 Recycle", "02 Fusion"], **{n: [1.5, -2.25] for n in names}})
    tables = [f for f in pdf.table_flowables("Precepts", df, df.astype(str)) if isinstance(f, Table)]
    assert len(tables) == 1
    header = tables[0]._cellvalues[0]
    assert header[0] == "card" and all(len(line) <= pdf.HEADER_CHARS for h in header[1:] for line in h.split("\n"))
    assert header[1].replace("\n", " ") == names[0]
    assert_tables_fit(tables)
    assert pdf._header_lines("holder_edge_free_of_draft_order", [["1.0"]]) == ["holder_edge_free_of_draft_order"]


def test_a_table_of_long_texts_wraps_narrower_to_stay_whole():
    """Text cells that would split the table into column groups at ``CELL_CHARS`` wrap at a
    narrower width of ``WRAP_CHARS`` when that fits the whole table on the page."""
    from reportlab.platypus import Table

    from reports import pdf

    text = "a rule that reads over several words"  # 36 characters: one line at CELL_CHARS
    df = pd.DataFrame({f"column {j}": [text, "short"] for j in range(6)})
    assert len(pdf._layout(df.columns, df.to_numpy(), pdf.CELL_CHARS)[3]) > 1  # too wide unwrapped
    tables = [f for f in pdf.table_flowables("Rules", df, df) if isinstance(f, Table)]
    assert len(tables) == 1 and tables[0]._cellvalues[1][0].count("\n") >= 1
    assert_tables_fit(tables)


def test_a_wide_table_of_one_or_two_rows_prints_on_its_side():
    """A table of at most ``MAX_TRANSPOSED_ROWS`` rows that needs column groups even wrapped
    narrow prints as one table with a row per column, headed by the first column's values (equal
    labels included); a longer table keeps its column groups."""
    from reportlab.platypus import Table

    from reports import pdf

    text = "a diagnostic that reads over quite a few words"
    df = pd.DataFrame({"bot": ["strategist", "strategist"], **{f"measure {j}": [text, 0.5] for j in range(9)}})
    tables = [f for f in pdf.table_flowables("Diagnostics", df, df.astype(str)) if isinstance(f, Table)]
    assert len(tables) == 1
    cells = tables[0]._cellvalues
    assert cells[0] == ["bot", "strategist", "strategist"] and len(cells) == 10
    assert cells[1][0] == "measure 0" and cells[1][2] == "0.5"
    assert_tables_fit(tables)
    long = pd.concat([df] * 2, ignore_index=True)  # four rows: column groups
    assert len([f for f in pdf.table_flowables("Diagnostics", long, long.astype(str)) if isinstance(f, Table)]) > 1


def assert_tables_fit(flowables) -> None:
    """Every table lies within the PDF's text width and every line of a cell within its
    column (widths as ReportLab sets the table font)."""
    from reportlab.platypus import Table

    from reports import pdf

    tables = [f for f in flowables if isinstance(f, Table)]
    assert tables
    for t in tables:
        width, _ = t.wrap(pdf.TEXT_W, pdf.PAGE_H)
        assert width <= pdf.TEXT_W + 1e-6, t._cellvalues[0]
        for row in t._cellvalues:
            for j, (cell, col_w) in enumerate(zip(row, t._colWidths)):
                pad = 0 if j == len(row) - 1 else pdf.COL_PAD
                for line in cell.split("\n"):
                    assert pdf.text_width(line, bold=row is t._cellvalues[0]) <= col_w - pad + 1e-6, line


def test_pdf_sets_every_character_in_an_embedded_font(tmp_path):
    """Latin, ō and Cyrillic text: the PDF embeds the charts' font, DejaVu Sans (regular and
    bold), as subsets, so no character is left to a viewer's substitute font."""
    from analysis.sections import Section
    from reports import pdf

    s = Section(title="Daifugō", text="Картка ЖОРСТКИЙ КАРАНТИН, ≥ 5 games")
    pages = pdf.render_pdf([("Part", [s])], tmp_path / "r.pdf", png=None, fmt=lambda t: t, cover_lines=["cardlab"])
    data = (tmp_path / "r.pdf").read_bytes()
    assert pages == 3  # cover, contents, the part
    assert b"/FontFile2" in data and b"+DejaVuSans " in data and b"+DejaVuSans-Bold " in data


def test_pdf_contents_give_each_heading_its_page(tmp_path, monkeypatch):
    """The contents list every part and section with the page its heading is set on (the
    second pass's numbers), each a link to that heading."""
    from analysis.sections import Section
    from reports import pdf

    tocs, set_on = [], {}
    make = pdf.contents
    monkeypatch.setattr(pdf, "contents", lambda headings: tocs.append(make(headings)) or tocs[-1])
    after = pdf.ReportDoc.afterFlowable

    def record(doc, flowable):
        if isinstance(flowable, pdf.Heading):
            set_on[flowable.title] = doc.page
        after(doc, flowable)

    monkeypatch.setattr(pdf.ReportDoc, "afterFlowable", record)
    long_text = "word " * 3000  # about three pages
    parts = [("First part", [Section("Alpha", text=long_text), Section("Beta", text="short")]),
             ("Second part", [Section("Gamma & delta", text=long_text)])]
    pages = pdf.render_pdf(parts, tmp_path / "r.pdf", png=None, fmt=lambda t: t, cover_lines=["cardlab"])
    entries = [(level, text, page) for level, text, page, _ in tocs[0]._entries]
    assert entries == [(0, "First part", 3), (1, "Alpha", set_on["Alpha"]), (1, "Beta", set_on["Beta"]),
                       (0, "Second part", set_on["Second part"]), (1, "Gamma &amp; delta", set_on["Gamma & delta"])]
    assert 3 < set_on["Beta"] < set_on["Gamma & delta"] <= pages
    assert b"/Subtype /Link" in (tmp_path / "r.pdf").read_bytes()


def test_html_references_no_external_resource(toy_runs, tmp_path):
    import re

    from reports.build import build

    html, _ = build([toy_runs[0]], tmp_path / "rep")
    text = html.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert not re.search(r"url\((?!['\"]?data:)", text) and "@import" not in text  # only embedded data
