"""The geometry of the report's two kinds of plot, in SVG user units; the template draws it.

Nothing here writes markup: labels stay plain strings so the template escapes them.
"""
from __future__ import annotations

import dataclasses
from typing import Sequence

LABEL_WIDTH, BAR_WIDTH, ROW_HEIGHT, PAD = 190, 360, 22, 6
HIST_WIDTH, HIST_HEIGHT, HIST_BOTTOM = 420, 160, 36


@dataclasses.dataclass(frozen=True)
class IntervalBar:
    """One group's success rate as a bar, and its 95 % interval as a whisker."""

    label: str
    caption: str  # "3/4 · 75% (30–95%)"
    y: float
    width: float  # the bar (success rate)
    low_x: float  # the interval's ends
    high_x: float


@dataclasses.dataclass(frozen=True)
class IntervalChart:
    bars: tuple[IntervalBar, ...]
    width: float
    height: float
    bar_x: float = LABEL_WIDTH
    bar_span: float = BAR_WIDTH
    row_height: float = ROW_HEIGHT


def interval_chart(groups: Sequence[tuple[str, int, int, float, float]]) -> IntervalChart:
    """Bars for `(label, successes, trials, low, high)` groups (the report's trials: every episode,
    an error counted as a failure); a group with no trial has no bar and its whole [0, 1] interval."""
    bars = []
    for index, (label, successes, trials, low, high) in enumerate(groups):
        rate = successes / trials if trials else 0.0
        caption = (f"{successes}/{trials} · {rate:.0%} ({low:.0%}–{high:.0%})" if trials else "no episode")
        bars.append(IntervalBar(label, caption, PAD + index * ROW_HEIGHT, rate * BAR_WIDTH,
                                LABEL_WIDTH + low * BAR_WIDTH, LABEL_WIDTH + high * BAR_WIDTH))
    return IntervalChart(tuple(bars), LABEL_WIDTH + BAR_WIDTH + 190, 2 * PAD + max(len(bars), 1) * ROW_HEIGHT)


@dataclasses.dataclass(frozen=True)
class Bin:
    label: str
    count: int
    x: float
    y: float
    width: float
    height: float


@dataclasses.dataclass(frozen=True)
class Histogram:
    bins: tuple[Bin, ...]
    total: int
    width: float = HIST_WIDTH
    height: float = HIST_HEIGHT + HIST_BOTTOM
    baseline: float = HIST_HEIGHT


def bin_counts(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """How many values fall in each [edges[i], edges[i+1]); values below the first edge count in
    the first bin and values at or past the last edge in the last (so a score of 1.0 is in [0.9, 1])."""
    counts = [0] * (len(edges) - 1)
    for value in values:
        counts[next((i for i in range(len(counts)) if value < edges[i + 1]), len(counts) - 1)] += 1
    return counts


def histogram(values: Sequence[float], edges: Sequence[float], labels: Sequence[str]) -> Histogram:
    """Bars of `bin_counts(values, edges)`, scaled to the fullest bin, labelled with `labels`."""
    counts = bin_counts(values, edges)
    if len(labels) != len(counts):
        raise ValueError(f"{len(counts)} bins need {len(counts)} labels, got {len(labels)}")
    slot = HIST_WIDTH / len(counts)
    top = max(counts + [1])
    heights = [(HIST_HEIGHT - 14) * count / top for count in counts]  # 14: room for the count above
    bins = tuple(Bin(label, count, i * slot + 2, HIST_HEIGHT - height, slot - 4, height)
                 for i, (label, count, height) in enumerate(zip(labels, counts, heights)))
    return Histogram(bins, len(values))


SCORE_EDGES = [i / 10 for i in range(11)]
SCORE_LABELS = [f"{i / 10:.1f}" for i in range(10)]
RATIO_EDGES = [0.0, 1.0, 1.25, 1.5, 2.0, 3.0, 5.0, float("inf")]
RATIO_LABELS = ["<1", "1–1.25", "1.25–1.5", "1.5–2", "2–3", "3–5", "≥5"]
