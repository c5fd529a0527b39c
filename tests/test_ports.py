"""taskkit.ports: a free loopback port, and a server started again on another when its port is taken
between the pick and the bind."""
from __future__ import annotations

import errno
import socket

import pytest

from taskkit import ports


def _listen(port: int) -> socket.socket:
    """A listening socket on `port`; PortTaken when another holds it (as a server's start reports)."""
    server = socket.socket()
    try:
        server.bind((ports.LOOPBACK, port))
    except OSError as error:
        server.close()
        if error.errno == errno.EADDRINUSE:
            raise ports.PortTaken(str(error)) from None
        raise
    server.listen()
    return server


def test_a_free_port_can_be_bound() -> None:
    with _listen(ports.free_port()) as server:
        assert server.getsockname()[0] == ports.LOOPBACK


def test_a_port_taken_before_the_bind_is_replaced_by_another(monkeypatch) -> None:
    with _listen(0) as holder:
        taken = holder.getsockname()[1]
        picks = iter([taken, taken])
        real = ports.free_port
        monkeypatch.setattr(ports, "free_port", lambda: next(picks, None) or real())
        with ports.on_free_port(_listen) as server:  # two picks were taken, the third is free
            assert server.getsockname()[1] != taken
        assert next(picks, "used up") == "used up"


def test_the_last_failure_is_raised_when_every_port_is_taken(monkeypatch) -> None:
    with _listen(0) as holder:
        monkeypatch.setattr(ports, "free_port", lambda: holder.getsockname()[1])
        calls = []

        def start(port: int) -> socket.socket:
            calls.append(port)
            return _listen(port)

        with pytest.raises(ports.PortTaken):
            ports.on_free_port(start, tries=2)
        assert calls == [holder.getsockname()[1]] * 2
    with pytest.raises(ValueError, match="at least 1"):
        ports.on_free_port(_listen, tries=0)
