"""The report model: a ``Section`` is one block of a report (heading, prose, tables, figures).

Sections are built from a loaded run (``analysis.load.Run``) by the shared builders in
``analysis.common`` and by each game's module ``analysis.games.<game>``, found by game name
through ``analysis.games.sections_for``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd


@dataclass
class Section:
    """One block of a report: a heading, prose, tables and matplotlib figures."""

    title: str
    text: str = ""
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[tuple[str, Any]] = field(default_factory=list)
