"""The volume streams Settings' Sound & vibration page shows, and where Android keeps their level.

AudioService persists each stream's index per output device in system settings
(`VolumeStreamState.getSettingNameForDevice`: the stream's `Settings.System.VOLUME_SETTINGS_INT`
name plus `_` and `AudioSystem.getOutputDeviceName(device)`), so `settings get system
volume_music_speaker` reads what the Media slider set. The ranges and defaults are AudioService's
MAX_STREAM_VOLUME / MIN_STREAM_VOLUME and AudioSystem.DEFAULT_STREAM_VOLUME (Android 13); a key not
yet written reads the legacy device-less key the image holds, then the default.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from taskkit.sim.gui import toggles
from taskkit.sim.gui.session import Session


@dataclasses.dataclass(frozen=True)
class Stream:
    title: str  # the slider's preference title (packages/apps/Settings res/values/strings.xml)
    key: str  # the persisted index, system namespace
    legacy: str  # the device-less key
    default: int
    minimum: int
    maximum: int


MEDIA = Stream("Media volume", "volume_music_speaker", "volume_music", 5, 0, 15)
CALL = Stream("Call volume", "volume_voice_earpiece", "volume_voice", 4, 1, 5)
RING = Stream("Ring & notification volume", "volume_ring_speaker", "volume_ring", 5, 0, 7)
ALARM = Stream("Alarm volume", "volume_alarm_speaker", "volume_alarm", 6, 1, 7)
STREAMS = (MEDIA, CALL, RING, ALARM)


def index(ui: Session, stream: Stream) -> int:
    """The stream's index now."""
    for key in (stream.key, stream.legacy):
        value = ui.setting("system", key)
        if value and value.isdigit():
            return int(value)
    return stream.default


def percent(ui: Session, stream: Stream) -> int:
    return round(index(ui, stream) * 100 / stream.maximum)


def slider(stream: Stream) -> Callable[[Session, float], None]:
    """The slider's action: the index at that fraction of the range (AudioService clamps to its minimum)."""
    def slide(ui: Session, fraction: float) -> None:
        level = max(stream.minimum, min(stream.maximum, round(fraction * stream.maximum)))
        toggles.write(ui, "system", stream.key, str(level))
    return slide
