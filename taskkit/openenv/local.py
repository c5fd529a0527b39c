"""`local_server(...)`: `python -m taskkit.openenv` in a subprocess on a free loopback port, for
as long as a `with` block runs (examples, tests, a training script on the same machine)."""
from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Iterator

from taskkit.errors import TaskkitError
from taskkit.ports import free_port

#: How often /health is asked, 0.1 s apart, before the server is given up on (it imports first).
HEALTH_TRIES = 600


@contextlib.contextmanager
def local_server(*flags: str) -> Iterator[str]:
    """Serve with `python -m taskkit.openenv --port FREE *flags`; yields its base URL once /health
    answers, stops it after the block. TaskkitError if it exits or never answers."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "taskkit.openenv", "--port", str(port), *flags],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(HEALTH_TRIES):
            if server.poll() is not None:
                raise TaskkitError(f"python -m taskkit.openenv exited: {server.stderr.read().strip()}")
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=5) as answer:
                    if json.load(answer).get("status") == "healthy":
                        break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        else:
            raise TaskkitError(f"python -m taskkit.openenv did not answer on {url}/health")
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stderr.close()
