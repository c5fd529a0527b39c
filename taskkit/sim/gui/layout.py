"""Where things go on the simulated screen: the display's metrics, in pixels from dp.

Sizes follow Material's and AOSP's defaults at the device's density (px = dp × density / 160):
a 24 dp status bar, a 48 dp navigation bar, a 64 dp app bar and 72 dp two-line list rows
(`frameworks/base/core/res/res/values/dimens.xml`, the Material list specifications). The
display size is `wm size` (the override, else 1080x2400) and the density `wm density` (the
forced density, else 420), the values the device already stores.
"""
from __future__ import annotations

import dataclasses

from taskkit.device.reference import SCREEN_DENSITY, SCREEN_SIZE
from taskkit.sim.gui.node import Box

TOUCH_SLOP_DP = 8  # ViewConfiguration.TOUCH_SLOP: movement below it is not a drag
LONG_PRESS_MS = 400  # ViewConfiguration.DEFAULT_LONG_PRESS_TIMEOUT (Android 12 and later)
SWIPE_DEFAULT_MS = 300  # `input swipe` without a duration (InputShellCommand)


@dataclasses.dataclass(frozen=True)
class Metrics:
    """The display the screen is laid out for."""

    width: int = SCREEN_SIZE[0]
    height: int = SCREEN_SIZE[1]
    density: int = SCREEN_DENSITY

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

    @property
    def content(self) -> Box:
        """The app window between the system bars."""
        return (0, self.status_bar, self.width, self.content_bottom)

