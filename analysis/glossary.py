"""Table headers in words, and the glossary of the codes a report uses.

Report tables are built from query results whose columns have code names (``win_diff_lo``,
``king_p``); ``header_text`` turns such a name into words for the reader. Each game's report
module may define ``GLOSSARY`` (code -> meaning, e.g. virus-dogs' card codes); ``section``
gathers those of the games in a report into one appendix table.
"""

from __future__ import annotations

import pandas as pd

from analysis.sections import Section

# whole names that read better said differently
NAMES = {
    "n": "count", "lo": "95% low", "hi": "95% high", "p": "p-value", "rate": "rate",
    "holder_win": "holder's win rate", "others_win": "other players' win rate",
    "holder_points": "holder's mean points", "others_points": "other players' mean points",
    "win_share": "win share (shared wins split)", "games_with": "games with the law",
    "rounds_with": "rounds with the law", "precept_vp": "VP now",
    "holdings": "times held", "mean_pick": "mean pick position",
    "first_pick_rate": "taken first in its draft round", "draft_rate": "drafted (share of games)",
    "win_rate": "win rate", "holder_lo": "holder's win rate, 95% low", "holder_hi": "holder's win rate, 95% high",
    "offset_lo": "VP offset, 95% low", "offset_hi": "VP offset, 95% high",
}
# name parts, in order of appearance: a trailing lo/hi/p qualifies what comes before it
PARTS = {
    "diff": "difference", "sd": "SD", "var": "score variance", "king": "king kept", "spread": "seat spread",
    "plays": "round length (plays)", "win": "win rate", "pts": "points", "m": "mean", "first": "first pick",
    "pick": "pick position", "draft": "drafted",
}
SUFFIX = {"lo": ", 95% low", "hi": ", 95% high", "p": ", p-value", "q": ", q-value (BH)"}


def header_text(name) -> str:
    """A column name in words: ``win_diff_lo`` -> ``win rate difference, 95% low``; names with
    spaces (already words) are kept."""
    text = str(name)
    if text in NAMES:
        return NAMES[text]
    if " " in text or "_" not in text:
        return text
    parts = text.split("_")
    tail = SUFFIX.get(parts[-1], "")
    if tail:
        parts = parts[:-1]
    return " ".join(PARTS.get(p, p) for p in parts) + tail


TITLE = "Glossary"


def section(glossaries: dict[str, dict[str, str]]) -> Section | None:
    """One table of every code of the report's games (``glossaries``: game title -> GLOSSARY)."""
    rows = [{"game": game, "code": code, "meaning": meaning}
            for game, codes in glossaries.items() for code, meaning in codes.items()]
    if not rows:
        return None
    return Section(TITLE, text="The codes that tables and charts of this report use, by game.",
                   tables=[("Codes", pd.DataFrame(rows))])
