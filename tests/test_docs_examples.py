"""Every fenced example of README.md and docs/*.md runs as written, in order, in one fresh folder
(game counts scaled down: ``tests/docs_examples.py``); a broken example fails here."""

import textwrap

import pytest

from tests import docs_examples as ex


def _failures(outcomes) -> str:
    return "\n\n".join(f"{o.where}: {o.what} (exit {o.code})\n{o.output[-2000:]}" for o in outcomes if not o.ok)


def test_every_block_runs_or_is_marked():
    """Shell and Python blocks run unless marked a fragment; every fence names its language, so
    that no command escapes the test in an unlabelled block."""
    blocks = ex.all_blocks()
    assert {b.doc for b in blocks} >= {"README.md", "docs/reinforcement-learning.md"}
    assert [b.where for b in blocks if not b.lang] == []
    assert all(b.runs != b.fragment for b in blocks if b.lang in ex.SHELL + ex.PYTHON)
    assert {b.file for b in blocks if b.file} >= {"study.toml", "case.json"}


def test_shell_commands_join_continuations_and_drop_comments():
    text = "cardlab simulate x \\\n    --out runs/a   # a comment\n    # only a comment\n\nrm -f 'a b'\n"
    assert ex.shell_commands(text) == [["cardlab", "simulate", "x", "--out", "runs/a"], ["rm", "-f", "a b"]]


def test_scale_down_caps_counts_and_budgets():
    argv = ex.scale_cli(["cardlab", "simulate", "daifugo", "--games", "2000", "--set", "bot.search.budget=256",
                         "--out", "r"], games=50)
    assert argv == ["cardlab", "simulate", "daifugo", "--games", "50", "--set", "bot.search.budget=16", "--out", "r",
                    "--workers", "1"]
    # a default game count is capped too; a small one is kept
    assert ex.scale_cli(["cardlab", "verify", "toy"], games=50)[-2:] == ["--games", "50"]
    assert ex.scale_cli(["cardlab", "verify", "toy", "--games", "20"], games=50) == \
        ["cardlab", "verify", "toy", "--games", "20"]
    ladder = ex.scale_cli(["cardlab", "ladder", "virus-dogs", "--rungs", "random,search@64,search@8:learned",
                           "--out", "l"], games=50)
    assert "random,search@4,search@1:learned" in ladder and "--budgets" not in ladder
    assert ex.scale_cli(["cardlab", "ladder", "virus-dogs", "--out", "l"], games=50)[-2:] == ["--budgets", "1,2,4,8"]
    assert ex.scale_cli(["cardlab", "bench", "toy", "--search"], games=50)[4:] == [
        "--games", "50", "--report-games", "50", "--search-games", "2", "--reference-games", "3", "--repeat", "1"]
    workers = ex.scale_cli(["cardlab", "simulate", "toy", "--workers", "2", "--out", "r"], games=50)
    assert workers[3:5] == ["--workers", "1"]
    assert ex.scale_cli(["cardlab", "train", "virus-dogs", "--games", "400", "--budget", "64", "--out", "p"],
                        games=50)[3:7] == ["--games", "10", "--budget", "4"]
    assert ex.scale_python("run(games=10_000, trials=30)\nrun(games=20)", games=50) == \
        "run(games=50, trials=3)\nrun(games=20)"


def test_a_broken_example_fails(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = "cardlab games\ncardlab simulate toy --games 10 --nope 1 --out r\ncardlab games\n"
    block = ex.Block("x.md", 1, "sh", text)
    outcomes = list(ex.run_block(block, tmp_path))
    assert [o.ok for o in outcomes] == [True, False]  # the rest of a block waits for what failed
    assert "No such option: --nope" in outcomes[1].output


def test_a_script_that_plays_with_workers_needs_the_main_guard(tmp_path):
    """Workers import the script again (spawn): without the guard it fails and says why (the
    README's scripts, which have it, run in the Python API section)."""
    bare = ex.Block("x.md", 1, "python", 'import cardlab\ncardlab.run("toy", games=40, out="runs/x", options=cardlab.RunOptions(workers=2))\n')
    code, output = ex.run_python(bare, tmp_path)
    assert code != 0 and "put the script's calls under `if __name__ == \"__main__\":`" in output, output


def test_every_example_writes_its_own_output():
    """No two examples write the same output (so that running them section by section, in folders
    of their own, hides no clash that one folder would show)."""
    seen: dict[str, str] = {}
    for block in ex.all_blocks():
        for out in ex.outputs(block) if block.runs else []:
            key = out.rstrip("/")
            assert key not in seen, f"{block.where} writes {out}, as {seen[key]} does"
            seen[key] = block.where
    assert {"runs/vd", "runs/vd2", "runs/x", "tune/vd", "tune/vd-api"} <= set(seen)


@pytest.mark.parametrize("doc, section", ex.sections(), ids=lambda v: v.replace(" ", "-"))
def test_the_examples_run_in_order(doc, section, tmp_path):
    """The examples of one section, in order, in a fresh folder; every one must succeed."""
    outcomes = ex.run_all(tmp_path / "examples", select=lambda b: (b.doc, b.section) == (doc, section))
    assert outcomes and all(o.ok for o in outcomes), _failures(outcomes)
