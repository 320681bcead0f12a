"""Numba cache entries that go stale with every source file a kernel reads its constants from.

numba's ``cache=True`` checks only the source file of the compiled function, but a kernel
also compiles in the constants of its game's ``rules.py`` and ``tables.py`` and the shared
helpers. ``install()`` puts cache locators in front of numba's own (numba looks them up in
``CacheImpl._locator_classes``) whose source stamp also holds a digest of:

- every ``*.py`` file of the function's package: the outermost directory above the file
  that still has an ``__init__.py``, below ``sim/``, ``sim/kit/`` and ``sim/games/`` (for a built-in game,
  ``sim/games/<game>/``; for a plug-in package, that package), and
- the shared kernel files: ``SHARED_FILES`` of ``sim/kit/`` and every ``*.py`` of ``sim/games/``
  (``base.py``: the game skeleton and its compiled helpers).

numba compares the stamp when it loads a function's cache index; any edit to those files
makes it compile afresh and overwrite the stale entry. Files of installed packages (under
``sys.prefix``) keep numba's own locators.

Bounds-check mode: ``NUMBA_BOUNDSCHECK=1`` makes numba compile every kernel with bounds
checks, but numba's cache key does not record that flag, so a cache filled without checks
would hand back unchecked code. The locators therefore keep the entries of each
``NUMBA_BOUNDSCHECK`` setting in their own subdirectory (``__pycache__/boundscheck1/``), and
those of an optimisation level other than the default (``NUMBA_OPT``) apart as well
(``__pycache__/opt0/``, ``__pycache__/boundscheck1-opt0/``).
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import lru_cache
from pathlib import Path

from numba.core import caching, config

KIT_DIR = Path(__file__).resolve().parent
SIM_DIR = KIT_DIR.parent
SHARED_DIRS = (SIM_DIR, KIT_DIR, SIM_DIR / "games")
SHARED_FILES = ("rng.py", "rng_compiled.py", "kernel_util.py", "layout.py", "lead.py", "search.py", "step.py", "vector.py",
                "jit_cache.py")


def package_root(py_file: str | Path) -> Path | None:
    """The game (or plug-in) package a source file belongs to; None for the shared files."""
    d = Path(py_file).resolve().parent
    root = None
    while (d / "__init__.py").exists() and d not in SHARED_DIRS:
        root = d
        d = d.parent
    return root


@lru_cache(maxsize=None)
def _package_digest(root: Path | None) -> str:
    files = sorted(root.rglob("*.py")) if root is not None else []
    files += [KIT_DIR / f for f in SHARED_FILES] + sorted((SIM_DIR / "games").glob("*.py"))
    h = hashlib.sha256()
    for f in files:
        h.update(str(f.relative_to(root) if root is not None and f.is_relative_to(root) else f.name).encode())
        h.update(b"\0")
        try:
            h.update(f.read_bytes())
        except OSError:
            h.update(b"missing")
        h.update(b"\0")
    return h.hexdigest()


def source_digest(py_file: str | Path) -> str:
    """Digest of everything a kernel in ``py_file`` may compile in (see the module doc)."""
    return _package_digest(package_root(py_file))


def _installed(py_file: str) -> bool:
    path = os.path.realpath(py_file)
    return any(path.startswith(os.path.realpath(p) + os.sep) for p in {sys.prefix, sys.base_prefix})


def compile_mode() -> str:
    """The cache subdirectory of this process's numba settings that numba's cache key leaves
    out: ``boundscheck<0|1>`` when NUMBA_BOUNDSCHECK is set, ``opt<n>`` for an optimisation
    level other than numba's default 3 (joined by ``-``); "" for the default compile."""
    parts = [f"boundscheck{config.BOUNDSCHECK}"] if config.BOUNDSCHECK is not None else []
    if int(config.OPT) != 3:
        parts.append(f"opt{int(config.OPT)}")
    return "-".join(parts)


class _PackageStamp:
    """Mixin over a numba source-file locator: package digest in the stamp, one cache
    subdirectory per ``compile_mode``."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        mode = compile_mode()
        if mode:
            self._cache_path = os.path.join(self._cache_path, mode)

    def get_source_stamp(self):
        return super().get_source_stamp(), source_digest(self._py_file)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not os.path.exists(py_file) or _installed(py_file):
            return None
        return super().from_function(py_func, py_file)


class UserProvidedLocator(_PackageStamp, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR`` set: entries there."""


class InTreeLocator(_PackageStamp, caching.InTreeCacheLocator):
    """Entries in the ``__pycache__`` next to the source file."""


class UserWideLocator(_PackageStamp, caching.UserWideCacheLocator):
    """``__pycache__`` not writable: entries in the user's cache directory."""


LOCATORS = (UserProvidedLocator, InTreeLocator, UserWideLocator)


def install() -> None:
    """Put the package-aware locators first (idempotent); call before any ``@njit(cache=True)``."""
    classes = caching.CacheImpl._locator_classes
    for cls in reversed(LOCATORS):
        if cls not in classes:
            classes.insert(0, cls)
