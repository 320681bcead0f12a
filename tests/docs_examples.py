"""The fenced examples of README.md and docs/*.md, run in order in one folder with the game counts
scaled down, as a new user would copy them (``tests/test_docs_examples.py``).

Which blocks run: ```sh, ```bash and ```python, in the order of README.md and then docs/*.md by
name. A block preceded by the line ``<!-- fragment -->`` is not meant to run (``make demo``, a
command that needs what a long study may not write); a block preceded by ``<!-- file: NAME -->`` is written into the folder as NAME (a
config or scenario file the commands below it read). In a shell block, a line (with its ``\\``
continuations; ``#`` starts a comment) that starts with ``cardlab`` runs in this process through
the console entry point, any other line through ``bash``; a Python block runs as a script,
``python example.py``, in its own process, as a user's script does.

The scale-down (``scale_cli``, ``scale_python``): game counts (``--games``, ``--report-games``,
``--race-games``, ``--confirm-games``; ``games=`` in Python) at most ``CARDLAB_EXAMPLE_GAMES``
(default 100; 10 for ``cardlab train``), written or the command's default; ``--trials`` at most
3, ``--search-games`` 2, ``--reference-games`` 3, ``--repeat`` 1, ``--workers`` 1 (a pool's
start costs more than 100 games; the Python examples keep theirs, so a missing ``__main__``
guard fails); search budgets (``--budget``, ``bot.<bot>.budget=``, ``@N`` rungs, ``--budgets``)
divided by 16 (at least 1). The examples see the built-in games only (``users_view``).

``python -m tests.docs_examples [DIR]`` runs them all in DIR (default: a new temporary folder)
and prints each example with its outcome; the test runs each section in a folder of its own
(no two examples write the same output: ``outputs``).
"""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import traceback
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
FRAGMENT = "<!-- fragment -->"
FILE_MARK = re.compile(r"^<!-- file: (\S+) -->$")
FENCE = re.compile(r"^```(\w*)\s*$")
SHELL, PYTHON = ("sh", "bash"), ("python",)
GAMES_ENV = "CARDLAB_EXAMPLE_GAMES"
GAME_OPTIONS = ("--games", "--report-games", "--race-games", "--confirm-games")
SMALL = {"--trials": 3, "--search-games": 2, "--reference-games": 3, "--repeat": 1, "--workers": 1}
TRAIN_GAMES = 10  # cardlab train replays every search decision to fit the learned bot: the slowest games
BUDGET_DIVISOR = 16


@dataclass
class Block:
    """One fenced block: where it is, its language and text, and how it is marked."""

    doc: str
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    file: str | None = None  # <!-- file: NAME -->
    fragment: bool = False
    section: str = ""  # the heading it is under

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def runs(self) -> bool:
        return not self.fragment and (self.file is not None or self.lang in SHELL + PYTHON)


@dataclass
class Outcome:
    """What one example did: where, what (a command or a script), its exit code, seconds, output."""

    where: str
    what: str
    code: int
    seconds: float
    output: str = ""

    @property
    def ok(self) -> bool:
        return self.code == 0

    def line(self) -> str:
        status = "ok" if self.ok else f"FAILED (exit {self.code})"
        return f"{self.where}  {status}  {self.seconds:5.1f} s  {self.what}"


def documents(root: Path = ROOT) -> list[Path]:
    """README.md, then docs/*.md by name."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def blocks(path: Path, root: Path = ROOT) -> list[Block]:
    """The fenced blocks of one Markdown file, with the marker on the line before each fence."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out, i, section = [], 0, ""
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            section = lines[i].lstrip("#").strip() if lines[i].startswith("#") else section
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        mark = lines[i - 1].strip() if i else ""
        file = FILE_MARK.match(mark)
        out.append(Block(str(path.relative_to(root)), i + 1, m.group(1), "\n".join(lines[i + 1:end]) + "\n",
                         file.group(1) if file else None, mark == FRAGMENT, section))
        i = end + 1
    return out


def all_blocks(root: Path = ROOT) -> list[Block]:
    return [b for doc in documents(root) for b in blocks(doc, root)]


def sections(root: Path = ROOT) -> list[tuple[str, str]]:
    """(document, heading) of every section with a block that runs, in order."""
    return list(dict.fromkeys((b.doc, b.section) for b in all_blocks(root) if b.runs))


def outputs(block: Block) -> list[str]:
    """What an example writes: the ``--out``, ``-o`` and ``--report`` of its commands, ``out=`` in Python."""
    if block.lang in PYTHON:
        return re.findall(r"\bout=[\"']([^\"']+)", block.text)
    return [argv[i + 1] for argv in shell_commands(block.text) for i, a in enumerate(argv[:-1])
            if a in ("--out", "-o", "--report") and not argv[i + 1].startswith("-")]


def shell_commands(text: str) -> list[list[str]]:
    """A shell block's commands as argument lists: ``\\`` continuations joined, comments and
    blank lines dropped."""
    joined = re.sub(r"\\\n", " ", text)
    return [argv for line in joined.splitlines() if (argv := shlex.split(line, comments=True))]


# ---- the scale-down ----------------------------------------------------------------------------

def example_games() -> int:
    return int(os.environ.get(GAMES_ENV, "100"))


def small_budget(n: int) -> int:
    return max(1, n // BUDGET_DIVISOR)


def _budgets_text(text: str) -> str:
    """``search@64,search@64:learned`` -> ``search@4,search@4:learned`` (any ``@N``)."""
    return re.sub(r"@(\d+)", lambda m: f"@{small_budget(int(m.group(1)))}", text)


def _option_names(command: str) -> set[str]:
    """The long options of a ``cardlab`` command (none for an unknown command)."""
    import typer.main

    from cardlab.cli import app

    cmd = typer.main.get_command(app).commands.get(command)
    return {o for p in getattr(cmd, "params", []) for o in p.opts if o.startswith("--")}


def scale_cli(argv: list[str], games: int | None = None) -> list[str]:
    """A ``cardlab`` command with its game counts, trials and search budgets scaled down; an
    option the command has but the example leaves at its default is added, scaled."""
    games = example_games() if games is None else games
    command = argv[1] if len(argv) > 1 else ""
    caps = {**{o: games for o in GAME_OPTIONS}, **SMALL}
    if command == "train":
        caps["--games"] = min(games, TRAIN_GAMES)
    argv = list(argv)
    for i, arg in enumerate(argv[:-1]):
        value = argv[i + 1]
        if arg in caps and value.isdigit():
            argv[i + 1] = str(min(int(value), caps[arg]))
        elif arg == "--budget" and value.isdigit():
            argv[i + 1] = str(small_budget(int(value)))
        elif arg == "--budgets":
            argv[i + 1] = ",".join(str(small_budget(int(b))) for b in value.split(","))
        elif arg in ("--rungs", "--pairing"):
            argv[i + 1] = _budgets_text(value)
        elif arg == "--set" and re.match(r"bot\.\w+\.budget=\d+$", value):
            key, n = value.split("=")
            argv[i + 1] = f"{key}={small_budget(int(n))}"
    known = _option_names(command)
    for option, cap in caps.items():
        if option in known and option not in argv:
            argv += [option, str(cap)]
    if command == "ladder" and "--rungs" not in argv and "--budgets" not in argv:
        from sim.run.ladder import DEFAULT_BUDGETS

        argv += ["--budgets", ",".join(str(small_budget(b)) for b in DEFAULT_BUDGETS)]
    return argv


def scale_python(text: str, games: int | None = None) -> str:
    """A Python example with ``games=N`` at most the example games and ``trials=N`` at most 3."""
    games = example_games() if games is None else games
    caps = {"games": games, "trials": SMALL["--trials"]}
    return re.sub(r"\b(games|trials)=([\d_]+)",
                  lambda m: f"{m.group(1)}={min(int(m.group(2).replace('_', '')), caps[m.group(1)])}", text)


# ---- running -------------------------------------------------------------------------------------

def run_cardlab(argv: list[str]) -> tuple[int, str]:
    """``cardlab ARGS`` through the console entry point in this process: exit code and output."""
    from cardlab.cli import main

    out = io.StringIO()
    saved = sys.argv
    sys.argv = ["cardlab", *argv[1:]]
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(out):
            main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception:  # a crash, as a user's shell would show it
        code = 1
        out.write(traceback.format_exc())
    finally:
        sys.argv = saved
    return code, out.getvalue()


def _environment() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    bindir = str(Path(sys.executable).parent)  # `cardlab` and `python` of this environment
    return dict(os.environ, PYTHONPATH=path, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))


@contextmanager
def users_view(folder: Path):
    """``folder`` the working directory, and only the built-in games registered (the test
    suite's own plug-ins, ``CARDLAB_GAMES``, are no user's)."""
    saved_dir, saved_games = Path.cwd(), os.environ.pop("CARDLAB_GAMES", None)
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(saved_dir)
        if saved_games is not None:
            os.environ["CARDLAB_GAMES"] = saved_games


def run_shell(argv: list[str], folder: Path) -> tuple[int, str]:
    """A command that is not ``cardlab``, through bash in ``folder``."""
    res = subprocess.run(["bash", "-c", shlex.join(argv)], cwd=folder, capture_output=True, text=True,
                         env=_environment(), timeout=600)
    return res.returncode, res.stdout + res.stderr


def run_python(block: Block, folder: Path, games: int | None = None) -> tuple[int, str]:
    """A Python block as a script in ``folder``, in its own process."""
    script = folder / f"example_{Path(block.doc).stem}_{block.line}.py"
    script.write_text(scale_python(block.text, games), encoding="utf-8")
    res = subprocess.run([sys.executable, script.name], cwd=folder, capture_output=True, text=True,
                         env=_environment(), timeout=600)
    return res.returncode, res.stdout + res.stderr


def run_block(block: Block, folder: Path, games: int | None = None) -> Iterator[Outcome]:
    """Run (or write) one block in ``folder``, which must be the working directory for the
    in-process ``cardlab`` commands; one outcome per command (a script is one), the first
    failure the last (what follows in a block needs what came before)."""
    if block.file is not None:
        (folder / block.file).write_text(block.text, encoding="utf-8")
        yield Outcome(block.where, f"wrote {block.file}", 0, 0.0)
        return
    if block.lang in PYTHON:
        t = time.perf_counter()
        code, output = run_python(block, folder, games)
        first = block.text.strip().splitlines()[0]
        yield Outcome(block.where, f"python script ({first} ...)", code, time.perf_counter() - t, output)
        return
    for argv in shell_commands(block.text):
        t = time.perf_counter()
        if argv[0] == "cardlab":
            argv = scale_cli(argv, games)
            code, output = run_cardlab(argv)
        else:
            code, output = run_shell(argv, folder)
        yield Outcome(block.where, shlex.join(argv), code, time.perf_counter() - t, output)
        if code != 0:
            return


def run_all(folder: Path, select=lambda block: True, games: int | None = None,
            echo=lambda outcome: None) -> list[Outcome]:
    """Every runnable block that ``select`` keeps, in order, in ``folder`` (``users_view``)."""
    folder.mkdir(parents=True, exist_ok=True)
    outcomes = []
    with users_view(folder):
        for block in all_blocks():
            if block.runs and select(block):
                for outcome in run_block(block, folder, games):
                    echo(outcome)
                    outcomes.append(outcome)
    return outcomes


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="cardlab-examples-"))
    print(f"examples in {folder} ({example_games()} games at most a run)")
    outcomes = run_all(folder.resolve(), echo=lambda o: print(o.line(), flush=True))
    failed = [o for o in outcomes if not o.ok]
    for o in failed:
        print(f"\n--- {o.where}: {o.what}\n{o.output[-3000:]}")
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} examples ran")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
