"""adb's shell protocol (v2) framing, shared by the adb transport and the simulator's adbd.

A packet is `[id: u8][length: u32 little-endian][data]` inside a stream's bytes; one packet may
span several adb messages and one message may hold several packets (adb-and-shell.md §3).
"""
from __future__ import annotations

import struct

from taskkit.errors import TaskkitError

STDIN, STDOUT, STDERR, EXIT, CLOSE_STDIN, WINDOW_SIZE = range(6)
HEADER = struct.Struct("<BI")
MAX_PACKET = 16 * 1024 * 1024


class ShellProtocolError(TaskkitError, ValueError):
    """A malformed shell-protocol stream."""


def encode_packet(kind: int, data: bytes = b"") -> bytes:
    """One packet: id, length, data."""
    return HEADER.pack(kind, len(data)) + data


class PacketDecoder:
    """Packets from a byte stream cut anywhere: `feed` returns the ones it completed.

    With `last_kind` set, decoding stops after the first packet of that kind (the device's
    exit packet): whatever follows it is ignored.
    """

    def __init__(self, max_length: int = MAX_PACKET, last_kind: int | None = None):
        self._buf = bytearray()
        self._max = max_length
        self._last_kind = last_kind
        self._finished = False

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        if self._finished:
            return []
        self._buf += data
        packets = []
        while len(self._buf) >= HEADER.size and not self._finished:
            kind, length = HEADER.unpack_from(self._buf)
            if length > self._max:
                raise ShellProtocolError(f"shell packet of {length} bytes")
            end = HEADER.size + length
            if len(self._buf) < end:
                break
            packets.append((kind, bytes(self._buf[HEADER.size:end])))
            del self._buf[:end]
            self._finished = kind == self._last_kind
        return packets
