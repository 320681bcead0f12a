"""Cached kernels never outlive an edit of their game package (sim/kit/jit_cache.py)."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.kit import jit_cache

ROOT = Path(__file__).resolve().parent.parent
GAME = "faking_sick"
COPY = "cardlab_copy_of_game"

# a small kernel added to the copy's kernel package (kernel/__init__.py): it compiles in constants of rules.py and tables.py
PROBE = """

from sim.kit.kernel_util import fn as _fn, ix as _ix

from ..rules import PROBE_RULE
from ..tables import PROBE_TABLE


@_fn
def probe_kernel():
    return PROBE_RULE * 100 + PROBE_TABLE


@_fn
def probe_index(a, i):
    return a[_ix(i)]
"""

CALL = f"""
import json
import numpy as np
from {COPY}.kernel import probe_index, probe_kernel
value = probe_kernel()
try:
    probe_index(np.zeros(3, np.int64), 3)
    checked = False
except IndexError:
    checked = True
print(json.dumps({{"value": int(value), "hits": sum(probe_kernel.stats.cache_hits.values()), "checked": checked}}))
"""


def copy_game(dest: Path) -> Path:
    """The game package under another module name, plus the probe kernel."""
    pkg = dest / COPY
    shutil.copytree(ROOT / "sim" / "games" / GAME, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for f in pkg.rglob("*.py"):
        f.write_text(f.read_text().replace(f"sim.games.{GAME}", COPY))
    (pkg / "rules.py").write_text((pkg / "rules.py").read_text() + "\nPROBE_RULE = 3\n")
    (pkg / "tables.py").write_text((pkg / "tables.py").read_text() + "\nPROBE_TABLE = 4\n")
    kernel = pkg / "kernel" / "__init__.py"
    kernel.write_text(kernel.read_text() + PROBE)
    return pkg


def edit_constant(file: Path, name: str, value: int) -> None:
    text, n = re.subn(rf"^{name} = \d+$", f"{name} = {value}", file.read_text(), flags=re.M)
    assert n == 1
    file.write_text(text)


def call_probe(where: Path, env_extra=None) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(where), str(ROOT)]), **(env_extra or {}))
    env.pop("NUMBA_CACHE_DIR", None)
    res = subprocess.run([sys.executable, "-c", CALL], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_editing_rules_or_tables_recompiles_the_kernel(tmp_path):
    pkg = copy_game(tmp_path)
    assert call_probe(tmp_path) == {"value": 304, "hits": 0, "checked": False}
    assert call_probe(tmp_path)["hits"] == 1  # unchanged package: the cache serves
    edit_constant(pkg / "rules.py", "PROBE_RULE", 5)
    assert call_probe(tmp_path) == {"value": 504, "hits": 0, "checked": False}
    edit_constant(pkg / "tables.py", "PROBE_TABLE", 6)
    assert call_probe(tmp_path) == {"value": 506, "hits": 0, "checked": False}


def test_boundscheck_mode_checks_and_keeps_its_own_cache(tmp_path):
    copy_game(tmp_path)
    assert call_probe(tmp_path) == {"value": 304, "hits": 0, "checked": False}
    # code compiled without bounds checks is never handed to the bounds-check mode
    assert call_probe(tmp_path, {"NUMBA_BOUNDSCHECK": "1"}) == {"value": 304, "hits": 0, "checked": True}
    assert call_probe(tmp_path, {"NUMBA_BOUNDSCHECK": "1"}) == {"value": 304, "hits": 1, "checked": True}
    assert call_probe(tmp_path) == {"value": 304, "hits": 1, "checked": False}
    assert list((tmp_path / COPY / "kernel" / "__pycache__" / "boundscheck1").glob("__init__.probe_kernel-*.nbi"))


@pytest.mark.parametrize("rel, root", [
    ("sim/games/daifugo/kernel/state.py", "sim/games/daifugo"),
    ("sim/kit/rng.py", None),
    ("sim/games/base.py", None),
    ("tests/toy_game.py", "tests"),
])
def test_package_root(rel, root):
    assert jit_cache.package_root(ROOT / rel) == (ROOT / root if root else None)


def test_locators_are_installed_first():
    import sim.kit.kernel_util  # noqa: F401  (every kernel imports it before compiling)
    from numba.core import caching

    assert tuple(caching.CacheImpl._locator_classes[:3]) == jit_cache.LOCATORS


def test_reading_results_does_not_import_numba():
    """The report path (CLI, report builder, the built-in games and their tables) loads no
    kernel; a reference engine's first draw does."""
    code = ("import sys, cardlab, cardlab.cli, reports.build, analysis.load, sim.kit.rng, sim.games.base\n"
            "from sim.games import MODULES, get_game\n"
            "[get_game(g).tables for g in MODULES]\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n"
            "sim.kit.rng.Rng(1, 2).randbelow(5)\n"
            "assert 'numba' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
