"""Parsed spec files, cached on disk by content: a spec seen before is neither tokenized nor parsed.

Parsing a text-format spec is protobuf's pure-Python tokenizer at work, the larger part of what
listing a spec folder would cost. The parsed message is a function of the file's bytes and the
spec schema alone, so it is kept, serialized, in a user cache folder (`$TASKKIT_CACHE_DIR`, else
`$XDG_CACHE_HOME/taskkit`, else `~/.cache/taskkit`) under a key hashing the bytes, taskkit's
and protobuf's versions and the schema: a changed file or schema is a new key, never a stale
answer. Only a file that parsed is cached; a cache that cannot be read or written is skipped.
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from google import protobuf
from google.protobuf.message import DecodeError

import taskkit
from taskkit import user_cache
from taskkit.specs import positions
from taskkit.task_protos import task_spec_pb2

FORMAT = 1  # bump when what is cached changes


def cache_dir() -> Path:
    """The folder the parsed specs are cached in."""
    return user_cache.folder() / "parsed-specs"


@functools.lru_cache(maxsize=1)
def _salt() -> bytes:
    """Everything besides the file's bytes that the parsed message depends on."""
    version = taskkit.__version__
    schema = hashlib.sha256(task_spec_pb2.DESCRIPTOR.serialized_pb).hexdigest()
    return f"{FORMAT}|{version}|{protobuf.__version__}|{schema}|{positions.MAX_DEPTH}|".encode()


def key(data: bytes) -> str:
    """The cache key of a spec file's bytes."""
    return hashlib.sha256(_salt() + data).hexdigest()


def cached(data: bytes) -> Any | None:
    """The `TaskSpec` parsed from these bytes before, if the cache has it."""
    try:
        return task_spec_pb2.TaskSpec.FromString((cache_dir() / key(data)).read_bytes())
    except (OSError, DecodeError):
        return None


def remember(data: bytes, spec: Any) -> None:
    """Cache `spec`, parsed from these bytes (whole or not at all; a folder that cannot be written
    is skipped)."""
    user_cache.write(cache_dir() / key(data), spec.SerializeToString(deterministic=True))
