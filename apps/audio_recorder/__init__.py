"""Audio Recorder (Dimowner/AudioRecorder, `com.dimowner.audiorecorder`): recordings as files.

Records land in the app's external files folder, `Android/data/com.dimowner.audiorecorder/files/
Music/records` (AndroidWorld's AUDIORECORDER_DATA), named as the app's default naming names them:
`Record-N.m4a` (AppConstants.BASE_RECORD_NAME "Record-" plus a counter, the M4a format). A
simulated recording is an MPEG-4 file holding an `ftyp` box (brand "M4A ") and an `mdat` box of
silence sized by the recording's length; it has no `moov` box, so players cannot play it (a
difference: the simulator records no sound). The name's counter is the highest `Record-N` on disk
plus one; the app counts in its preferences instead, and so does the simulated one: each
recording adds one to the long `record_counter` of `shared_prefs/com.dimowner.audiorecorder.data.
PrefsImpl.xml` (PrefsImpl.PREF_NAME and PREF_KEY_RECORD_COUNTER; FileRepositoryImpl.
provideRecordFile calls PrefsImpl.incrementRecordCounter for every new recording).
"""
from __future__ import annotations

import posixpath
import re
import struct

from taskkit.apps.base import App
from taskkit.device.base import Device
from taskkit.device.services import shared_prefs
from taskkit.rng import TaskRng

PACKAGE = "com.dimowner.audiorecorder"
RECORDS_DIR = "/storage/emulated/0/Android/data/com.dimowner.audiorecorder/files/Music/records"
EXTENSION = ".m4a"
BYTES_PER_SECOND = 16_000  # 128 kbps, the app's default bitrate
_COUNTED = re.compile(r"^Record-(\d+)\.[A-Za-z0-9]+$")
PREFS_FILE = "com.dimowner.audiorecorder.data.PrefsImpl"  # PrefsImpl.PREF_NAME
PREFS_PATH = shared_prefs.path(PACKAGE, PREFS_FILE)
RECORD_COUNTER = "record_counter"  # PrefsImpl.PREF_KEY_RECORD_COUNTER, a long


def m4a_bytes(seconds: int) -> bytes:
    """An MPEG-4 audio file's `ftyp` box and an `mdat` box of `seconds` of zero bytes."""
    brands = b"M4A " + struct.pack(">I", 0) + b"M4A isommp42"
    ftyp = struct.pack(">I", 8 + len(brands)) + b"ftyp" + brands
    payload = bytes(max(1, seconds) * BYTES_PER_SECOND)
    return ftyp + struct.pack(">I", 8 + len(payload)) + b"mdat" + payload


def next_record_name(existing: list[str]) -> str:
    """`Record-N.m4a` with N one above the highest counted name among `existing`."""
    numbers = [int(match.group(1)) for name in existing if (match := _COUNTED.match(name))]
    return f"Record-{max(numbers, default=0) + 1}{EXTENSION}"


def recordings(device: Device) -> list[str]:
    """The names of the files in the records folder, sorted."""
    return sorted(device.files.listdir(RECORDS_DIR)) if device.files.is_dir(RECORDS_DIR) else []


def counted(prefs: str | None) -> str:
    """The preferences file's text (None: no file yet) after one more recording."""
    entries = shared_prefs.parse(prefs) if prefs else {}
    before = entries[RECORD_COUNTER].value if RECORD_COUNTER in entries else 0
    return shared_prefs.put(prefs, RECORD_COUNTER, shared_prefs.Pref("long", before + 1))


def save_recording(device: Device, seconds: int, name: str | None = None) -> str:
    """Write a recording of `seconds` under `name` (default: the next `Record-N.m4a`) and count
    it in the app's preferences; its path."""
    path = posixpath.join(RECORDS_DIR, name or next_record_name(recordings(device)))
    device.files.write_bytes(path, m4a_bytes(seconds))
    try:
        prefs: str | None = device.files.read_text(PREFS_PATH)
    except FileNotFoundError:
        prefs = None
    device.files.write_text(PREFS_PATH, counted(prefs))
    return path


def random_recording_name(rng: TaskRng) -> str:
    """A name people give a recording: "Team standup 2023-10-12", "Guitar idea 3"."""
    subject = rng.choice(("Team standup", "Lecture notes", "Guitar idea", "Interview", "Voice memo",
                          "Podcast draft", "Meeting with Sam", "Bird song", "Rehearsal", "Lesson"))
    return f"{subject} {rng.randint(1, 9)}" if rng.random() < 0.5 else f"{subject} 2023-10-{rng.randint(1, 14):02d}"


def reset(device: Device) -> None:
    """No recordings (the folder itself stays)."""
    device.files.remove(RECORDS_DIR, recursive=True)
    device.files.mkdir(RECORDS_DIR)


APP = App(name="audio recorder", package=PACKAGE, data_paths=(RECORDS_DIR, PREFS_PATH), reset=reset)
