"""Where things go on the simulated screen: system bars and lists, in pixels from dp.

Sizes follow Material's and AOSP's defaults at the device's density (dp × density / 160): a
24 dp status bar, a 48 dp navigation bar, a 64 dp app bar and 72 dp two-line list rows
(`frameworks/base/core/res/res/values/dimens.xml`, Material list specs).
"""
from __future__ import annotations

import dataclasses

from taskkit.sim.gui.node import Node

SYSTEMUI = "com.android.systemui"


@dataclasses.dataclass(frozen=True)
class Metrics:
    """The display the screen is laid out for."""

    width: int = 1080
    height: int = 2400
    density: int = 420

    def dp(self, value: float) -> int:
        return round(value * self.density / 160)

    @property
    def status_bar(self) -> int:
        return self.dp(24)

    @property
    def navigation_bar(self) -> int:
        return self.dp(48)

    @property
    def content_bottom(self) -> int:
        return self.height - self.navigation_bar


def system_bars(metrics: Metrics, clock: str) -> list[Node]:
    """The status bar (clock) and the navigation bar (gesture handle), as SystemUI draws them."""
    top = Node("android.widget.FrameLayout", package=SYSTEMUI, resource_id="com.android.systemui:id/status_bar",
               bounds=(0, 0, metrics.width, metrics.status_bar),
               children=[Node("android.widget.TextView", text=clock, package=SYSTEMUI,
                              resource_id="com.android.systemui:id/clock", content_desc=clock,
                              bounds=(metrics.dp(16), 0, metrics.dp(72), metrics.status_bar))])
    bottom = Node("android.widget.FrameLayout", package=SYSTEMUI,
                  resource_id="com.android.systemui:id/navigation_bar_frame",
                  bounds=(0, metrics.content_bottom, metrics.width, metrics.height))
    return [top, bottom]


class Column:
    """Lays out rows top to bottom inside the content area."""

    def __init__(self, metrics: Metrics, top: int):
        self.metrics, self.y = metrics, top

    def take(self, height_dp: float) -> tuple[int, int, int, int]:
        top = self.y
        self.y += self.metrics.dp(height_dp)
        return (0, top, self.metrics.width, min(self.y, self.metrics.content_bottom))
