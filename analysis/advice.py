"""The advice file of ``cardlab suggest`` (``OUT/advice.json``): found beside runs, opened for the
report, and matched to the run it was made from (``analysis.games.attach_advice``).

Fields: ``game``, ``source`` and ``source_digest`` (the run), ``lines`` (each rule line on the run:
``line`` the metric name, ``words``, ``band``, ``value``/``lo``/``hi``, ``status`` in/out/unclear)
and ``prescriptions``: per line searched, ``line``, ``status`` (``prescribed``, ``closest`` or
``none``), ``set`` ({param: value} as ``cardlab simulate --set`` takes them), ``before``/``after``
(value, lo, hi), ``side_effects`` (every other line before -> after), ``populations`` ({name:
{before, after, change, in_band, better, worse}}) and ``holds_for``. A game may add its own
fields (daifugo: ``precepts``, the VP check rounds).
"""

from __future__ import annotations

import json
from pathlib import Path

from sim.kit.config import ConfigError

ADVICE_FILE = "advice.json"  # what ``cardlab suggest`` writes in its output directory
FIELDS = {"game", "source", "source_digest", "lines", "prescriptions"}


def is_advice(path) -> bool:
    """Whether ``path`` is an advice directory of ``cardlab suggest``."""
    return (Path(path) / ADVICE_FILE).is_file()


def load_advice(path) -> dict:
    """The advice of an advice directory; a missing, unreadable or damaged file is a one-line
    ConfigError."""
    f = Path(path) / ADVICE_FILE
    try:
        advice = json.loads(f.read_text())
    except (OSError, ValueError) as e:
        raise ConfigError(f"cannot read the advice {f}: {e}") from None
    if not isinstance(advice, dict) or not FIELDS <= advice.keys():
        raise ConfigError(f"{f} is not an advice file of cardlab suggest (fields {', '.join(sorted(FIELDS))})")
    return advice


def for_line(advice: dict | None, line: str) -> dict | None:
    """The prescription of ``line`` in ``advice``, or None."""
    return next((p for p in (advice or {}).get("prescriptions", []) if p["line"] == line), None)
