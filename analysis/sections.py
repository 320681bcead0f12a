"""The report model: a ``Section`` is one block of a report (heading, prose, tables, figures).

Sections are built from a loaded run (``analysis.load.Run``) by the shared builders in
``analysis.common`` and by each game's module ``analysis.games.<game>``, found by game name
through ``analysis.games.sections_for``.
"""

from __future__ import annotations

import re
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
    # numbered sentences, each with the (part title, section title) it refers to ("" = none)
    items: list[tuple[str, tuple[str, str]]] = field(default_factory=list)
    # verdict lines: (green | amber | red, plain sentence)
    marks: list[tuple[str, str]] = field(default_factory=list)
    html_only: tuple[str, ...] = ()  # captions of tables and figures shown in the HTML only (not in the PDF)


def anchor(*titles: str) -> str:
    """The HTML id of a part or of a section within a part."""
    return "-".join(re.sub(r"[^a-z0-9]+", "-", t.lower()).strip("-") for t in titles if t)
