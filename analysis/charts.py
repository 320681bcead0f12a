"""Small chart builders on matplotlib's object API (no pyplot state, safe in workers).

Charts are drawn at the size they are shown: at most ``CHART_W`` inches wide, the width the
PDF prints and the HTML shows them at (a figure inch is a shown inch), with no text under
``MIN_FONT`` points (``small_text`` finds any)."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from analysis.glossary import cell_text

CHART_W = 6.4  # inches: the widest chart, as printed and shown
HALF_W = 3.5  # inches: a small chart, two of which print side by side (``reports.pdf``)
MIN_FONT = 7.0  # points: the smallest text a chart may show at its printed size


def wrapped(text: str, width_in: float, size: float = 10) -> str:
    """``text`` broken into lines that fit ``width_in`` inches at ``size`` points (its own line
    breaks kept)."""
    chars = max(20, int(width_in * 72 / (0.55 * size)))
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def in_words(values) -> list[str]:
    """Category labels as the reader reads them: known codes in words (``glossary.cell_text``)."""
    return [str(cell_text(v)) for v in values]


def _slanted(names: list[str], room: float = CHART_W - 1.0) -> tuple[bool, float]:
    """Whether category names under an axis of ``room`` inches slant (many, or too long to stand
    side by side at 10 pt), and the height in inches they then take below it (at 30 degrees)."""
    inch = 0.55 * 10 / 72  # a character at 10 pt
    slant = len(names) > 6 or sum(map(len, names)) * inch > 0.9 * room
    return slant, (0.5 * max(map(len, names), default=0) * inch if slant else 0.0)


def rate_bars(table: pd.DataFrame, label: str, title: str, ylabel: str = "rate (share)", ref: float | None = None,
              xlabel: str | None = None) -> Figure:
    """Bars of ``rate`` per ``label`` with Wilson whiskers (from ``sim.run.stats.rate_table``);
    the x axis is labelled ``xlabel`` (default: the column name). Many or long category names
    are slanted, and the chart grows by the height they take."""
    names = in_words(table[label])
    slant, below = _slanted(names)
    narrow = not slant and len(names) <= 5 and not _slanted(names, HALF_W - 1.0)[0]
    fig = Figure(figsize=(HALF_W if narrow else CHART_W, 3.4 + below), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(table))
    rate = table["rate"].to_numpy(float)
    # clipped at 0: at a rate of 0 or 1 the interval's end can differ from the rate by rounding
    err = np.maximum(np.vstack([rate - table["lo"].to_numpy(float), table["hi"].to_numpy(float) - rate]), 0)
    ax.bar(x, rate, yerr=err, capsize=4, color="#4C78A8")
    ax.set_xticks(x, names, rotation=30 if slant else 0, ha="right" if slant else "center")
    if ref is not None:
        ax.axhline(ref, color="grey", ls="--", lw=1, label=f"even share {ref:.3f}")
        ax.legend(loc="best", fontsize=8)
    ax.set_xlabel(xlabel or label.replace("_", " "))
    ax.set_ylabel(wrapped(ylabel, fig.get_size_inches()[1] - 0.8))
    ax.set_title(wrapped(title, fig.get_size_inches()[0] - 0.9), fontsize=10)
    return fig


def histogram(counts: pd.Series, title: str, xlabel: str, ylabel: str = "share of games",
              cut: float = 0.99) -> Figure:
    """Integer-valued distribution as a filled step histogram, from counts indexed by value; drawn
    up to the ``cut`` quantile, with the share and the largest value beyond it stated on the chart."""
    fig = Figure(figsize=(HALF_W, 3.6), layout="constrained")  # room for the overflow line under the axis
    ax = fig.add_subplot()
    counts = counts.sort_index()
    if len(counts):
        top = tail_cut(counts, cut)
        shown = counts[counts.index <= top]
        # one filled step outline (not one bar per value): values without games get 0
        values = np.arange(int(shown.index.min()), int(top) + 1)
        share = shown.reindex(values, fill_value=0).to_numpy() / counts.sum()
        ax.stairs(share, np.append(values, values[-1] + 1) - 0.5, fill=True, color="#72B7B2")
        beyond = counts[counts.index > top]
        if beyond.sum():  # said under the axis, where no bar can hide it
            xlabel += (f"\nnot drawn: {100 * beyond.sum() / counts.sum():.2g}% of games above {int(top)} "
                       f"(longest {int(counts.index.max())})")
    ax.set_xlabel(wrapped(xlabel, HALF_W - 0.9))
    ax.set_ylabel(wrapped(ylabel, fig.get_size_inches()[1] - 0.8))
    ax.set_title(wrapped(title, HALF_W - 0.9), fontsize=10)
    return fig


def tail_cut(counts: pd.Series, q: float) -> float:
    """The smallest value at or below which at least a ``q`` share of the counted games lie."""
    cum = counts.sort_index().cumsum() / counts.sum()
    return float(cum.index[np.searchsorted(cum.to_numpy(), q - 1e-12)])


def band(x, curve: tuple, title: str, xlabel: str, ylabel: str, label: str | None = None, fig: Figure | None = None,
         marker: str | None = None) -> Figure:
    """A mean curve with a shaded band, ``curve`` = ``(mean, lo, hi)`` over ``x`` (call again with
    ``fig`` to overlay curves); a single curve (no ``label``) is a small chart."""
    mean, lo, hi = curve
    if fig is None:
        fig = Figure(figsize=(CHART_W if label else HALF_W, 3.4), layout="constrained")
        fig.add_subplot()
    ax = fig.axes[0]
    width = fig.get_size_inches()[0]
    line = ax.plot(x, mean, lw=1.6, label=label, marker=marker, ms=4)[0]
    ax.fill_between(x, lo, hi, alpha=0.25, color=line.get_color())
    ax.set_xlabel(wrapped(xlabel, width - 0.9))
    ax.set_ylabel(wrapped(ylabel, fig.get_size_inches()[1] - 0.8))
    ax.set_title(wrapped(title, width - 0.9), fontsize=10)
    if label:
        ax.legend(loc="best", fontsize=8)
    return fig


def shares(counts: pd.Series, title: str, ylabel: str = "category", xlabel: str = "share of the total") -> Figure:
    """Horizontal bars of category shares."""
    narrow = len(counts) <= 8 and max(map(len, in_words(counts.index)), default=0) <= 24
    fig = Figure(figsize=(HALF_W if narrow else CHART_W, 0.8 + 0.35 * max(1, len(counts))), layout="constrained")
    ax = fig.add_subplot()
    total = counts.sum()
    s = counts / total if total else counts
    ax.barh(in_words(s.index), s.to_numpy(), color="#F58518")
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(wrapped(ylabel, fig.get_size_inches()[1] - 0.8))
    ax.set_title(wrapped(title, fig.get_size_inches()[0] - 0.9), fontsize=10)
    return fig


def forest(labels, panels, title: str, ylabel: str = "rule card") -> Figure:
    """A forest plot: one row per label, one panel per measure.

    ``panels`` is a list of ``(estimate, lo, hi, xlabel, ref)``: arrays of the row estimates
    and their 95% interval, the axis label (with units) and a reference value drawn as a
    dashed line (None for none). Rows without an estimate stay empty.
    """
    labels = in_words(labels)
    width = min(CHART_W, 3.2 * len(panels) + 1.6)
    fig = Figure(figsize=(width, 1.0 + 0.24 * max(1, len(labels))), layout="constrained")
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    y = np.arange(len(labels))
    for ax, (est, lo, hi, xlabel, ref) in zip(axes, panels):
        est, lo, hi = (np.asarray(v, float) for v in (est, lo, hi))
        err = np.vstack([np.clip(est - lo, 0, None), np.clip(hi - est, 0, None)])
        ax.errorbar(est, y, xerr=np.nan_to_num(err), fmt="o", ms=3.5, color="#4C78A8", ecolor="#4C78A8", capsize=2, lw=1)
        if ref is not None:
            ax.axvline(ref, color="grey", ls="--", lw=1)
        ax.set_xlabel(wrapped(xlabel, (width - 1.6) / len(panels), 8), fontsize=8)  # wraps to its panel
        ax.tick_params(labelsize=MIN_FONT)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(y, labels)
    axes[0].set_ylabel(ylabel, fontsize=8)
    axes[0].invert_yaxis()
    fig.suptitle(wrapped(title, width), fontsize=10)
    return fig


def heatmap(matrix, labels, title: str, cbar_label: str, axis_label: str = "rule card", marks=(),
            centre: float | None = None) -> Figure:
    """A square matrix as a colour map (NaN cells blank), with ``marks`` (row, column) cells
    outlined; with ``centre`` a diverging map symmetric around that value."""
    m = np.ma.masked_invalid(np.asarray(matrix, float))
    fig = Figure(figsize=(6.4, 4.9), layout="constrained")  # two fit on a PDF page
    ax = fig.add_subplot()
    if centre is not None and m.count():
        half = float(np.abs(m - centre).max()) or 1.0
        im = ax.imshow(m, cmap="RdBu_r", vmin=centre - half, vmax=centre + half, interpolation="nearest")
    else:
        im = ax.imshow(m, cmap="viridis", interpolation="nearest")
    ticks = np.arange(len(labels))
    ax.set_xticks(ticks, in_words(labels), rotation=90, fontsize=MIN_FONT)
    ax.set_yticks(ticks, in_words(labels), fontsize=MIN_FONT)
    for i, j in marks:
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, ec="red", lw=1.5))
    ax.set_xlabel(axis_label)
    ax.set_ylabel(axis_label)
    fig.colorbar(im, ax=ax, shrink=0.8, label=cbar_label)
    ax.set_title(title, fontsize=10)
    return fig


def grouped_bars(groups: list[str], series: list[tuple[str, np.ndarray, np.ndarray, np.ndarray]], title: str,
                 xlabel: str, ylabel: str) -> Figure:
    """Bars per group, one bar per series (label, values, lo, hi) side by side, with whiskers;
    group names slant as in ``rate_bars``."""
    names = in_words(groups)
    slant, below = _slanted(names)
    fig = Figure(figsize=(CHART_W, 3.4 + below), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(groups))
    width = 0.8 / max(1, len(series))
    for i, (label, v, lo, hi) in enumerate(series):
        v, lo, hi = (np.asarray(a, dtype=float) for a in (v, lo, hi))
        err = np.vstack([np.maximum(v - lo, 0), np.maximum(hi - v, 0)])
        ax.bar(x + (i - (len(series) - 1) / 2) * width, v, width, yerr=err, capsize=3, label=label)
    ax.set_xticks(x, names, rotation=30 if slant else 0, ha="right" if slant else "center")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(wrapped(ylabel, fig.get_size_inches()[1] - 0.8))
    ax.set_title(title, fontsize=10)
    ax.legend(loc="best", fontsize=8)
    return fig


def value_heatmap(values: pd.DataFrame, title: str, xlabel: str, ylabel: str, unit: str, fmt: str = "{:.2f}") -> Figure:
    """A rectangular matrix (rows x columns of ``values``, labelled by its index and columns) as
    coloured cells with their values written in (``heatmap``: a square matrix of rule cards);
    long column names slant as in ``rate_bars``."""
    columns = in_words(values.columns)
    slant, below = _slanted(columns, CHART_W - 2.2)  # less the row names and the colour bar
    fig = Figure(figsize=(CHART_W, 0.9 + 0.42 * max(1, len(values)) + below), layout="constrained")
    ax = fig.add_subplot()
    m = values.to_numpy(float)
    image = ax.imshow(np.ma.masked_invalid(m), cmap="viridis", aspect="auto", vmin=np.nanmin(m) if np.isfinite(m).any() else 0)
    ax.set_xticks(np.arange(m.shape[1]), columns, rotation=30 if slant else 0, ha="right" if slant else "center")
    ax.set_yticks(np.arange(m.shape[0]), in_words(values.index))
    for (i, j), v in np.ndenumerate(m):
        if np.isfinite(v):
            ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=MIN_FONT, color="white" if v < np.nanmean(m) else "black")
    fig.colorbar(image, ax=ax, label=unit)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(wrapped(ylabel, fig.get_size_inches()[1] - 0.8))
    ax.set_title(title, fontsize=10)
    return fig


def paired_forest(labels, first, second, names: tuple[str, str], title: str, xlabel: str, ylabel: str = "item") -> Figure:
    """Two estimates per row on one axis, each ``(estimate, lo, hi)`` arrays with 95% intervals,
    drawn just above (``first``) and below (``second``) the row, with a dashed line at zero."""
    labels = in_words(labels)
    fig = Figure(figsize=(CHART_W, 1.2 + 0.3 * max(1, len(labels))), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(labels))
    for (est, lo, hi), name, dy, colour in zip((first, second), names, (-0.17, 0.17), ("#E45756", "#4C78A8")):
        est, lo, hi = (np.asarray(v, float) for v in (est, lo, hi))
        err = np.vstack([np.clip(est - lo, 0, None), np.clip(hi - est, 0, None)])
        ax.errorbar(est, y + dy, xerr=np.nan_to_num(err), fmt="o", ms=3.5, color=colour, ecolor=colour, capsize=2,
                    lw=1, label=name)
    ax.axvline(0, color="grey", ls="--", lw=1)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(wrapped(xlabel, CHART_W - 1.6, 8), fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(labelsize=MIN_FONT)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=MIN_FONT, loc="best")
    ax.set_title(wrapped(title, CHART_W - 0.6), fontsize=10)
    return fig


def small_text(fig: Figure, scale: float = 1.0, least: float = MIN_FONT) -> list[tuple[str, float]]:
    """The visible texts of ``fig`` (titles, labels, ticks, legends, annotations) smaller than
    ``least`` points when the chart is shown at ``scale`` times its size: (text, shown size)."""
    return [(t.get_text(), round(t.get_fontsize() * scale, 2)) for t in fig.findobj(Text)
            if t.get_visible() and t.get_text().strip() and t.get_fontsize() * scale < least - 1e-9]
