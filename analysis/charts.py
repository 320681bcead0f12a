"""Small chart builders on matplotlib's object API (no pyplot state, safe in workers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure


def rate_bars(table: pd.DataFrame, label: str, title: str, ylabel: str = "rate", ref: float | None = None) -> Figure:
    """Bars of ``rate`` per ``label`` with Wilson whiskers (from ``analysis.stats.rate_table``)."""
    fig = Figure(figsize=(6.4, 3.4), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(table))
    rate = table["rate"].to_numpy(float)
    err = np.vstack([rate - table["lo"].to_numpy(float), table["hi"].to_numpy(float) - rate])
    ax.bar(x, rate, yerr=err, capsize=4, color="#4C78A8")
    ax.set_xticks(x, [str(v) for v in table[label]], rotation=30 if len(table) > 6 else 0, ha="right" if len(table) > 6 else "center")
    if ref is not None:
        ax.axhline(ref, color="grey", ls="--", lw=1, label=f"even share {ref:.3f}")
        ax.legend(loc="best", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    return fig


def histogram(counts: pd.Series, title: str, xlabel: str) -> Figure:
    """Integer-valued distribution as a bar histogram, from counts indexed by value."""
    fig = Figure(figsize=(6.4, 3.2), layout="constrained")
    ax = fig.add_subplot()
    counts = counts.sort_index()
    ax.bar(counts.index.to_numpy(), counts.to_numpy() / counts.sum(), width=1.0, color="#72B7B2")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    ax.set_title(title, fontsize=10)
    return fig


def band(x, mean, lo, hi, title: str, xlabel: str, ylabel: str, label: str | None = None, fig: Figure | None = None) -> Figure:
    """A mean curve with a shaded band (call again with ``fig`` to overlay curves)."""
    if fig is None:
        fig = Figure(figsize=(6.4, 3.4), layout="constrained")
        fig.add_subplot()
    ax = fig.axes[0]
    line = ax.plot(x, mean, lw=1.6, label=label)[0]
    ax.fill_between(x, lo, hi, alpha=0.25, color=line.get_color())
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    if label:
        ax.legend(loc="best", fontsize=8)
    return fig


def shares(counts: pd.Series, title: str) -> Figure:
    """Horizontal bars of category shares."""
    fig = Figure(figsize=(6.4, 0.5 + 0.35 * max(1, len(counts))), layout="constrained")
    ax = fig.add_subplot()
    total = counts.sum()
    s = counts / total if total else counts
    ax.barh([str(i) for i in s.index], s.to_numpy(), color="#F58518")
    ax.invert_yaxis()
    ax.set_xlabel("share")
    ax.set_title(title, fontsize=10)
    return fig
