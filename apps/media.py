"""Media files as phones hold them: tagged MP3 songs and MP4 videos, written and read back.

An MP3 here is an ID3v2.3 tag (title `TIT2`, artist `TPE1`, album `TALB`, length `TLEN` in ms)
followed by silent MPEG-2 Layer III frames (16 kHz, 8 kbit/s, mono: 36 bytes and 36 ms each),
the first of them an "Info" header counting the frames, so players and Android's media scanner
read the exact duration. Formats: ID3v2.3 (id3.org/id3v2.3.0), the MPEG audio frame header and
the LAME/Xing "Info" tag (as documented at mpgedit.org/mpgedit/mpeg_format/mpeghdr.htm).

An MP4 here is an ISO base media file (ISO/IEC 14496-12: `ftyp`, `mdat`, `moov` with one video
track) whose samples are JPEG pictures (the QuickTime `jpeg` sample entry, Motion JPEG): one
sample per picture, lasting as long as the picture is shown. VLC, FFmpeg and Android players
play it; AndroidWorld draws its videos' frames with OpenCV (mp4v), taskkit with Pillow.
"""
from __future__ import annotations

import dataclasses
import io
import struct

from taskkit.apps.kept import drawn_by, kept

# --- MP3 ---------------------------------------------------------------------------------------
_FRAME_HEADER = bytes((0xFF, 0xF3, 0x18, 0xC4))  # MPEG-2, Layer III, no CRC, 8 kbit/s, 16 kHz, mono
_FRAME_BYTES = 36  # 72 * 8000 / 16000
_FRAME_MS = 36  # 576 samples at 16 kHz
_SIDE_INFO = 9  # MPEG-2 mono side information: all zero is a silent granule


@dataclasses.dataclass(frozen=True)
class SongTags:
    """What a player shows of a song file."""

    title: str
    artist: str = ""
    album: str = ""
    duration_ms: int = 0


def _id3_frame(frame_id: str, value: str) -> bytes:
    body = b"\x01" + value.encode("utf-16")  # encoding 1: UTF-16 with a byte-order mark
    return frame_id.encode("ascii") + struct.pack(">I", len(body)) + b"\x00\x00" + body


def _syncsafe(n: int) -> bytes:
    return bytes(((n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F))


def mp3_length_ms(duration_ms: int) -> int:
    """How long the MP3 `mp3_bytes` writes for `duration_ms` lasts (whole 36 ms frames)."""
    return max(1, round(duration_ms / _FRAME_MS)) * _FRAME_MS


def mp3_bytes(tags: SongTags) -> bytes:
    """A silent MP3 of `tags.duration_ms` (to the nearest 36 ms frame) tagged with `tags`: the
    Info frame (itself silent and not counted, as LAME writes it), then the audio frames."""
    frames = mp3_length_ms(tags.duration_ms) // _FRAME_MS
    body = b"".join(_id3_frame(fid, value) for fid, value in (
        ("TIT2", tags.title), ("TPE1", tags.artist), ("TALB", tags.album),
        ("TLEN", str(frames * _FRAME_MS))) if value)
    tag = b"ID3\x03\x00\x00" + _syncsafe(len(body)) + body
    info = (_FRAME_HEADER + bytes(_SIDE_INFO) + b"Info" + struct.pack(">III", 3, frames, (frames + 1) * _FRAME_BYTES))
    silent = _FRAME_HEADER + bytes(_FRAME_BYTES - len(_FRAME_HEADER))
    return tag + info.ljust(_FRAME_BYTES, b"\x00") + silent * frames


def _unsync(data: bytes) -> int:
    return (data[0] << 21) | (data[1] << 14) | (data[2] << 7) | data[3]


def _decode_text(body: bytes) -> str:
    encoding, raw = body[:1], body[1:]
    if encoding in (b"\x01", b"\x02"):
        return raw.decode("utf-16" if encoding == b"\x01" else "utf-16-be", errors="replace").rstrip("\x00")
    return raw.decode("utf-8" if encoding == b"\x03" else "latin-1", errors="replace").rstrip("\x00")


def mp3_tags(data: bytes) -> SongTags | None:
    """The tags and duration of an MP3 as `mp3_bytes` writes it (ID3v2.3/2.4 text frames; the
    duration from the Info/Xing frame count, else from TLEN); None when it is not such a file."""
    fields: dict[str, str] = {}
    audio = 0
    if data[:3] == b"ID3" and len(data) >= 10:
        audio, at = 10 + _unsync(data[6:10]), 10
        while at + 10 <= audio and data[at:at + 4].strip(b"\x00"):
            frame_id = data[at:at + 4].decode("latin-1")
            length = _unsync(data[at + 4:at + 8]) if data[3] == 4 else struct.unpack(">I", data[at + 4:at + 8])[0]
            if frame_id.startswith("T"):
                fields[frame_id] = _decode_text(data[at + 10:at + 10 + length])
            at += 10 + length
    if data[audio:audio + 1] != b"\xff" and "TIT2" not in fields:
        return None
    duration = 0
    marker = data.find(b"Info", audio, audio + 64)
    if marker < 0:
        marker = data.find(b"Xing", audio, audio + 64)
    if marker >= 0:
        flags, count = struct.unpack(">II", data[marker + 4:marker + 12])
        duration = count * _FRAME_MS if flags & 1 else 0
    if not duration and fields.get("TLEN", "").isdigit():
        duration = int(fields["TLEN"])
    return SongTags(fields.get("TIT2", ""), fields.get("TPE1", ""), fields.get("TALB", ""), duration)


# --- MP4 (Motion JPEG) ---------------------------------------------------------------------------
_TIMESCALE = 1000  # ms
_MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def _box(kind: bytes, *parts: bytes) -> bytes:
    body = b"".join(parts)
    return struct.pack(">I", 8 + len(body)) + kind + body


def _full_box(kind: bytes, version_flags: int, *parts: bytes) -> bytes:
    return _box(kind, struct.pack(">I", version_flags), *parts)


def _moov(width: int, height: int, sizes: list[int], durations_ms: list[int], first_offset: int) -> bytes:
    total = sum(durations_ms)
    offsets, at = [], first_offset
    for size in sizes:
        offsets.append(at)
        at += size
    sample_entry = _box(b"jpeg", bytes(6), struct.pack(">H", 1), bytes(16), struct.pack(">HH", width, height),
                        struct.pack(">II", 0x480000, 0x480000), bytes(4), struct.pack(">H", 1),
                        bytes([10]) + b"Photo JPEG".ljust(31, b"\x00"), struct.pack(">Hh", 0x18, -1))
    stbl = _box(b"stbl",
                _full_box(b"stsd", 0, struct.pack(">I", 1), sample_entry),
                _full_box(b"stts", 0, struct.pack(">I", len(durations_ms)),
                          *(struct.pack(">II", 1, d) for d in durations_ms)),
                _full_box(b"stsc", 0, struct.pack(">IIII", 1, 1, 1, 1)),
                _full_box(b"stsz", 0, struct.pack(">II", 0, len(sizes)), *(struct.pack(">I", s) for s in sizes)),
                _full_box(b"stco", 0, struct.pack(">I", len(offsets)), *(struct.pack(">I", o) for o in offsets)))
    minf = _box(b"minf", _full_box(b"vmhd", 1, bytes(8)),
                _box(b"dinf", _full_box(b"dref", 0, struct.pack(">I", 1), _full_box(b"url ", 1))), stbl)
    mdia = _box(b"mdia",
                _full_box(b"mdhd", 0, struct.pack(">IIIIHH", 0, 0, _TIMESCALE, total, 0x55C4, 0)),
                _full_box(b"hdlr", 0, bytes(4), b"vide", bytes(12), b"VideoHandler\x00"), minf)
    tkhd = _full_box(b"tkhd", 3, struct.pack(">IIIII", 0, 0, 1, 0, total), bytes(8),
                     struct.pack(">hhhH", 0, 0, 0, 0), _MATRIX, struct.pack(">II", width << 16, height << 16))
    mvhd = _full_box(b"mvhd", 0, struct.pack(">IIII", 0, 0, _TIMESCALE, total), struct.pack(">IH", 0x10000, 0x100),
                     bytes(10), _MATRIX, bytes(24), struct.pack(">I", 2))
    return _box(b"moov", mvhd, _box(b"trak", tkhd, mdia))


def mp4_bytes(pictures: list[tuple[bytes, int]], width: int, height: int) -> bytes:
    """An MP4 showing each JPEG picture of `pictures` for its milliseconds, in order."""
    if not pictures:
        raise ValueError("a video needs at least one picture")
    ftyp = _box(b"ftyp", b"isom", struct.pack(">I", 0x200), b"isomiso2mp41")
    payload = b"".join(jpeg for jpeg, _ in pictures)
    mdat = struct.pack(">I", 8 + len(payload)) + b"mdat" + payload
    moov = _moov(width, height, [len(jpeg) for jpeg, _ in pictures], [ms for _, ms in pictures], len(ftyp) + 8)
    return ftyp + mdat + moov


def _children(data: bytes, start: int, end: int) -> dict[bytes, tuple[int, int]]:
    """The boxes between `start` and `end` by type: where each one's body starts and ends."""
    found: dict[bytes, tuple[int, int]] = {}
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        if size < 8 or start + size > end:
            break
        found.setdefault(kind, (start + 8, start + size))
        start += size
    return found


def _box_body(data: bytes, *path: bytes) -> bytes | None:
    """The body of the box at `path` (b"moov", b"mvhd"), None when the file has no such box."""
    start, end = 0, len(data)
    for kind in path:
        where = _children(data, start, end).get(kind)
        if where is None:
            return None
        start, end = where
    return data[start:end]


def mp4_duration_ms(data: bytes) -> int | None:
    """The movie's duration from its `mvhd` box (None when there is none)."""
    mvhd = _box_body(data, b"moov", b"mvhd")
    if mvhd is None or len(mvhd) < 20:
        return None
    timescale, duration = struct.unpack(">II", mvhd[12:20])
    return duration * 1000 // max(1, timescale)


VIDEO_SIZE = (320, 240)  # AndroidWorld's videos' frame size


@kept(version=drawn_by(__file__))
def message_video(messages: list[str], seconds_each: int) -> bytes:
    """A video showing each message, white on black and centred, for `seconds_each` seconds (kept
    by its inputs, once per machine)."""
    from PIL import Image, ImageDraw, ImageFont  # the simulator's imaging library (a dependency)

    width, height = VIDEO_SIZE
    font = ImageFont.load_default(size=28)
    pictures = []
    for message in messages:
        image = Image.new("RGB", VIDEO_SIZE, (0, 0, 0))
        pen = ImageDraw.Draw(image)
        left, top, right, bottom = pen.textbbox((0, 0), message, font=font)
        pen.text(((width - (right - left)) // 2 - left, (height - (bottom - top)) // 2 - top), message,
                 fill=(255, 255, 255), font=font)
        out = io.BytesIO()
        image.save(out, format="JPEG", quality=85)
        pictures.append((out.getvalue(), seconds_each * 1000))
    return mp4_bytes(pictures, width, height)


def video_frames(data: bytes) -> list[tuple[bytes, int]]:
    """The JPEG pictures of a video `mp4_bytes` wrote, each with its milliseconds (for screens
    that show a frame); [] for any other file."""
    stbl = (b"moov", b"trak", b"mdia", b"minf", b"stbl")
    stsd, stsz, stts, stco = (_box_body(data, *stbl, kind) for kind in (b"stsd", b"stsz", b"stts", b"stco"))
    if stsd is None or stsz is None or stts is None or stco is None or stsd[12:16] != b"jpeg":
        return []
    count = struct.unpack(">I", stsz[8:12])[0]
    sizes = struct.unpack(f">{count}I", stsz[12:12 + 4 * count])
    offsets = struct.unpack(f">{count}I", stco[8:8 + 4 * count])
    durations: list[int] = []
    for i in range(struct.unpack(">I", stts[4:8])[0]):
        n, delta = struct.unpack(">II", stts[8 + 8 * i:16 + 8 * i])
        durations += [delta] * n
    return [(data[o:o + s], d) for o, s, d in zip(offsets, sizes, durations)]
