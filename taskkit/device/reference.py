"""Facts of the device AndroidWorld runs its tasks on, in one place: when its clock starts and
the size and density of its screen (a Pixel 6 emulator: 1080x2400 px at 420 dpi).

The simulated device starts from these, every task sets the clock to DEVICE_TIME, and app
models derive every date they generate from DEVICE_EPOCH.
"""
from __future__ import annotations

from datetime import datetime, timezone

# AndroidWorld's fixed device time: 2023-10-15 15:34:00 UTC (a Sunday).
DEVICE_EPOCH = 1697384040
DEVICE_TIME = datetime.fromtimestamp(DEVICE_EPOCH, timezone.utc)
SCREEN_SIZE = (1080, 2400)
SCREEN_DENSITY = 420
