"""adb's RSA public-key authentication, as adbd performs it (device side).

When a connection needs authentication, adbd answers the host's CNXN with AUTH(TOKEN, 0,
20 random bytes). The host signs the token with its private key and sends AUTH(SIGNATURE, 0,
sig); adbd verifies it against every key in its `adb_keys` file and, on a match, completes the
handshake with its own CNXN. Otherwise it sends a new token; a host out of keys sends
AUTH(RSAPUBLICKEY, 0, "base64key user@host\\0"), which a phone shows in its "Allow USB
debugging?" dialog. This server has no dialog: a key not in the file stays unauthorized.

Key format (AOSP `libcrypto_utils/android_pubkey.cpp`): base64 of a little-endian struct
`u32 len` (modulus size in 32-bit words, 64 for RSA-2048), `u32 n0inv`, `u32 n[len]`,
`u32 rr[len]`, `u32 exponent`, the words of `n` and `rr` least significant first. The signature
is PKCS#1 v1.5 over the token as a SHA-1 digest (adb's `RSA_sign(NID_sha1, token, 20, ...)`).
"""
from __future__ import annotations

import base64
import binascii
import dataclasses
import secrets
import struct
from pathlib import Path

from taskkit.errors import TaskkitError

AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3
TOKEN_SIZE = 20
# DER of the DigestInfo prefix for SHA-1 (RFC 8017 §9.2, note 1).
_SHA1_DIGEST_INFO = bytes.fromhex("3021300906052b0e03021a05000414")


class KeyFormatError(TaskkitError, ValueError):
    """An `adb_keys` line that is not an Android RSA public key."""


@dataclasses.dataclass(frozen=True)
class PublicKey:
    """An RSA public key and the comment (`user@host`) it came with."""

    modulus: int
    exponent: int
    comment: str = ""

    @property
    def size(self) -> int:
        return (self.modulus.bit_length() + 7) // 8


def parse_public_key(line: str) -> PublicKey:
    """One `adb_keys` / `adbkey.pub` line: base64 of the key struct, then an optional comment."""
    encoded, _, comment = line.strip().rstrip("\x00").partition(" ")
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise KeyFormatError("not base64") from None
    if len(raw) < 8:
        raise KeyFormatError("too short")
    words = struct.unpack_from("<I", raw)[0]
    expected = 4 + 4 + 4 * words * 2 + 4
    if words == 0 or words > 1024 or len(raw) != expected:
        raise KeyFormatError(f"a key of {words} words must be {expected} bytes, got {len(raw)}")
    modulus = int.from_bytes(raw[8:8 + 4 * words], "little")
    exponent = struct.unpack_from("<I", raw, 8 + 8 * words)[0]
    if modulus < 3 or exponent < 3:
        raise KeyFormatError("not an RSA key")
    return PublicKey(modulus, exponent, comment.strip())


def load_keys(path: str | Path) -> list[PublicKey]:
    """Every key of an `adb_keys` file (blank lines and `#` comments skipped).

    Raises KeyFormatError naming the line of a key that does not parse.
    """
    keys = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            keys.append(parse_public_key(line))
        except KeyFormatError as error:
            raise KeyFormatError(f"{path}:{number}: {error}") from None
    return keys


def new_token() -> bytes:
    """A fresh random token to sign (not task content: it must not be predictable)."""
    return secrets.token_bytes(TOKEN_SIZE)


def verify(key: PublicKey, token: bytes, signature: bytes) -> bool:
    """Whether `signature` is `key`'s PKCS#1 v1.5 signature of `token` taken as a SHA-1 digest."""
    if len(signature) != key.size:
        return False
    value = int.from_bytes(signature, "big")
    if value >= key.modulus:
        return False
    block = pow(value, key.exponent, key.modulus).to_bytes(key.size, "big")
    suffix = b"\x00" + _SHA1_DIGEST_INFO + token
    padding = key.size - 2 - len(suffix)
    return padding >= 8 and block == b"\x00\x01" + b"\xff" * padding + suffix


def authorized(keys: list[PublicKey], token: bytes, signature: bytes) -> bool:
    return any(verify(key, token, signature) for key in keys)
