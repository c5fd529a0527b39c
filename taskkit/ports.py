"""Free TCP ports on the loopback interface, for the servers taskkit, its tests and its benchmarks
start on a port they choose (a private adb server, the OpenEnv server).

A port is free when it is picked; another process may bind it before the server that was to
use it does. `on_free_port` starts the server again on another port when that happens.
"""
from __future__ import annotations

import socket
from typing import Callable, TypeVar

from taskkit.errors import TaskkitError

T = TypeVar("T")
LOOPBACK = "127.0.0.1"
TRIES = 3  # ports tried by on_free_port before its last failure is raised


class PortTaken(TaskkitError, RuntimeError):
    """Raised by a server's start function when its port was taken before it could bind it."""


def free_port() -> int:
    """A TCP port nothing is bound to on the loopback interface now (the kernel's pick)."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def on_free_port(start: Callable[[int], T], tries: int = TRIES) -> T:
    """`start(port)` on a free port; on another one while it raises PortTaken, `tries` ports in
    all (the last PortTaken is raised)."""
    if tries < 1:
        raise ValueError(f"tries must be at least 1, not {tries}")
    for _ in range(tries - 1):
        try:
            return start(free_port())
        except PortTaken:
            pass
    return start(free_port())
