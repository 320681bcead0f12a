"""Table headers and known codes in words, and the glossary of the codes a report uses.

Report tables are built from query results whose columns have code names (``win_diff_lo``,
``king_p``) and whose cells can hold codes (``played_tp``, ``hq_stalemate``); ``plain_table``
is the one place that turns both into words for the reader (the report renders every table
through it; charts name their categories with ``cell_text``): ``header_text`` for a column,
``cell_text`` for a cell. Each game's report module may define ``CODE_NAMES`` (code -> plain
name, for its codes that tables show) and ``GLOSSARY`` (code -> meaning, e.g. virus-dogs' card
codes); ``section`` gathers the glossaries of the games in a report into one appendix table.
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from analysis.hooks import hook
from analysis.sections import Section
from sim.games import available

# whole names that read better said differently
NAMES = {
    "n": "count", "lo": "95% low", "hi": "95% high", "p": "p-value", "rate": "rate",
    "holder_win": "holder's win rate", "others_win": "other players' win rate",
    "holder_points": "holder's mean points", "others_points": "other players' mean points",
    "win_share": "win share (shared wins split)", "games_with": "games with the law",
    "rounds_with": "rounds with the law", "rounds_without": "rounds without the law",
    "games_without": "games without the law", "rounds_with_event": "rounds with the event", "precept_vp": "VP now",
    "holdings": "times held", "mean_pick": "mean pick position",
    "first_pick_rate": "taken first in its draft round", "draft_rate": "drafted (share of games)",
    "win_rate": "win rate", "holder_lo": "holder's win rate, 95% low", "holder_hi": "holder's win rate, 95% high",
    "diff": "difference", "sd": "SD", "base": "base game", "spread": "seat spread",
    "excess_spread": "seat spread beyond chance", "leader_from_round": "winner sole leader from round (-1: never)",
    "last_round": "decided only in the last round", "from_last": "winner was last after some round",
    "shared": "shared win",
}
# name parts, in order of appearance: a trailing lo/hi/p qualifies what comes before it
PARTS = {
    "diff": "difference", "sd": "SD", "var": "score variance", "king": "king kept", "spread": "seat spread",
    "plays": "round length (plays)", "win": "win rate", "pts": "points", "m": "mean", "first": "first pick",
    "pick": "pick position", "draft": "drafted",
}
SUFFIX = {"lo": ", 95% low", "hi": ", 95% high", "p": ", p-value", "q": ", q-value (BH)"}


@lru_cache(maxsize=1)
def code_names() -> dict[str, str]:
    """Every game's ``CODE_NAMES`` (its report module's codes in words), in one mapping."""
    out: dict[str, str] = {}
    for game in available():
        out.update(hook(game, "CODE_NAMES") or {})
    return out


def cell_text(value):
    """A table cell or chart category in words: a known code (``code_names``) by its plain name,
    anything else as it is."""
    return code_names().get(value, value) if isinstance(value, str) else value


def plain_table(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` as the reader sees it: column headers in words (``header_text``) and known codes
    in its text cells by their plain names (``cell_text``)."""
    out = df.copy()
    out.columns.name = None  # a pivot's column name (a code) would head the index column
    for c in out.columns:
        if not pd.api.types.is_numeric_dtype(out[c]):
            out[c] = out[c].map(cell_text)
    return out.rename(columns=header_text)


def header_text(name) -> str:
    """A column name in words: ``win_diff_lo`` -> ``win rate difference, 95% low``; a known code
    by its plain name; names with spaces (already words) are kept."""
    text = str(name)
    if text in NAMES:
        return NAMES[text]
    if text in code_names():
        return code_names()[text]
    if " " in text or "_" not in text:
        return text
    parts = text.split("_")
    tail = SUFFIX.get(parts[-1], "")
    if tail:
        parts = parts[:-1]
    for k in range(len(parts), 0, -1):  # a leading whole name in words: last_round_diff_lo, shared_q
        stem = "_".join(parts[:k])
        if len(stem) > 1 and (stem in NAMES or stem in code_names()):
            head = NAMES.get(stem) or code_names()[stem]
            return " ".join([head] + [PARTS.get(p, p) for p in parts[k:]]) + tail
    return " ".join(PARTS.get(p, p) for p in parts) + tail


# codes the report's own sentences may carry (rule parameters, rule IDs, the hidden-information
# measures), each with the words sentences say instead and what it means; ``in_words`` puts the words
# in, and the glossary table lists them
TERMS = {
    "max_plays_per_round": ("the play limit of a round", "daifugo's safety stop: a round reaching this many plays "
                            "ranks the remaining players randomly (rule decision DEC-18)"),
    "DEC-18": ("the loop-guard decision", "daifugo rules page, decision 18: the play limit of a round and the random "
               "ranking after it"),
    "hq_end": ("how a hard quarantine ends", "virus-dogs parameter: with the last player standing, or at its first "
               "elimination (VD-20.9)"),
    "banned_last_card": ("going out on a banned card", "faking-sick parameter: never offered (illegal), or allowed and "
                         "voided when revealed (void; FS-9.4)"),
    "G_0": ("the random bot's win share", "hidden information: the random bot's win share against the reference"),
    "G_m": ("the honest search's win share", "hidden information: the search's win share against the reference"),
    "G_u": ("the all-seeing search's win share", "hidden information: the win share of the search dealt the true "
            "hidden cards"),
}


def in_words(text: str) -> str:
    """``text`` with every code of ``TERMS`` said in words (a code in "name = value" or "name=value"
    form keeps its value: "hq_end = first_elimination" reads "how a hard quarantine ends: first_elimination")."""
    import re

    for code, (words, _) in TERMS.items():
        text = re.sub(rf"(?<![\w-]){re.escape(code)}\s*=\s*", f"{words}: ", text)
        text = re.sub(rf"(?<![\w-]){re.escape(code)}(?![\w-])", words, text)
    return text


def weight_words(name: str) -> str:
    """A bot's weight parameter in words: ``w_breaks_set`` -> "weight of breaks set"."""
    return f"weight of {name[2:].replace('_', ' ')}" if name.startswith("w_") else name.replace("_", " ")


TITLE = "Glossary"


def section(glossaries: dict[str, dict[str, str]]) -> Section | None:
    """One table of every code of the report's games (``glossaries``: game title -> GLOSSARY)."""
    rows = [{"game": game, "code": code, "meaning": meaning}
            for game, codes in glossaries.items() for code, meaning in codes.items()]
    rows += [{"game": "report words", "code": code, "meaning": f"{words}: {meaning}"}
             for code, (words, meaning) in TERMS.items()]
    if not rows:
        return None
    return Section(TITLE, text="The codes that tables and charts of this report use, by game.",
                   tables=[("Codes", pd.DataFrame(rows))])


def _param_words(name: str, value) -> str:
    """A changed rule parameter in a few words: "madness", "laws off", "no rule deck"."""
    words = name.replace("_", " ")
    if name == "mode":
        return str(value)
    if isinstance(value, tuple) and not value:
        return f"no {words}"
    if isinstance(value, bool):
        return f"{words} {'on' if value else 'off'}"
    return f"{words} {','.join(map(str, value)) if isinstance(value, tuple) else value}"


MAX_PARAM_WORDS = 2  # changed parameters a run's title names; more are counted


def rules_title(run) -> str:
    """A run's game and rules in a few words: the game's short name and the rule parameters
    changed from the defaults ("Daifugō, madness")."""
    game, cfg = run.game, run.config
    words = [game.title.split(" (")[0].split(" with ")[0]]
    changed = [k for k, v in cfg.params.items() if game.param(k).default != v]
    words += [_param_words(k, cfg.params[k]) for k in changed[:MAX_PARAM_WORDS]]
    if len(changed) > MAX_PARAM_WORDS:
        words.append(f"{len(changed) - MAX_PARAM_WORDS} more rule changes")
    return ", ".join(words)


def run_title(run) -> str:
    """A run's title in a designer's words: ``rules_title``, the players when not the default
    number, and the bots when not the default table ("Daifugō, madness, learned bots")."""
    game, cfg = run.game, run.config
    words = [rules_title(run)]
    if cfg.players != getattr(game, "default_players", cfg.players):
        words.append(f"{cfg.players} players")
    bots = list(dict.fromkeys(cfg.bots))
    if tuple(cfg.bots) != tuple(getattr(game, "default_bots", ()))[:len(cfg.bots)]:
        words.append(f"{bots[0]} bots" if len(bots) == 1 else " and ".join([", ".join(bots[:-1]), bots[-1]]) + " bots")
    return ", ".join(words)


def run_titles(runs: list) -> list[str]:
    """``run_title`` of each run, with the run's directory after a title two runs share."""
    titles = [run_title(r) for r in runs]
    return [f"{t}: {r.path.name}" if titles.count(t) > 1 else t for t, r in zip(titles, runs)]
