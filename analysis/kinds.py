"""A kind of finding and its items' estimates, as the games' report modules give them to
``analysis.robustness`` (``robustness_kinds(run, use_control)``); kept apart so that the game
modules need not import the robustness part."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass
class Kind:
    """One kind of finding: its items' estimates (``items``: item, est, lo, hi, p; one row per
    item, ``est`` a difference with its 95% interval and the two-sided p of no difference)."""

    key: str
    title: str  # "Seat advantage"
    measure: str  # what an estimate is, in words: "win rate minus the other seats' win rate"
    unit: str  # "share" (shown in percentage points) or the measure's unit ("plays", "VP")
    items: pd.DataFrame
    noun: str = "item"  # what an item is, plural by "s": "seat", "precept", "law", "card"
    short: str = "effect"  # the estimate in a sentence: "seat 0's advantage", "precept 07 ...'s win-rate change"


def frame(rows: list[dict]) -> pd.DataFrame:
    """The items of a kind; an item may give ``ref``, the value its difference is taken from (a
    measure that is not a share has a practical threshold relative to it)."""
    return pd.DataFrame(rows, columns=["item", "est", "lo", "hi", "p"] + (["ref"] if any("ref" in r for r in rows) else []))
