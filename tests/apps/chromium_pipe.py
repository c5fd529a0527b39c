"""A headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
JSON messages separated by NUL bytes, Chromium reads fd 3 and writes fd 4), with the standard
library only. Used by the Browser tasks' fidelity tests to play taskkit's pages in a real browser.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import time
from typing import Any

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_binary() -> str | None:
    """The first Chromium-like browser on PATH (or $TASKKIT_CHROMIUM), else None."""
    wanted = os.environ.get("TASKKIT_CHROMIUM")
    if wanted:
        return shutil.which(wanted) or (wanted if os.access(wanted, os.X_OK) else None)
    return next((found for found in map(shutil.which, CANDIDATES) if found), None)


class Chromium:
    """One headless browser; `open(url)` gives a page session to evaluate script and send input to."""

    def __init__(self, binary: str, timeout: float = 30.0):
        self.timeout = timeout
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # in the child: its fd 3 reads our messages, its fd 4 carries its own
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=800,1400",
                "--allow-file-access-from-files", "--remote-debugging-pipe", "about:blank"]
        self.process = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=wire, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """Send one command and wait for its answer (events in between are dropped)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" not in self._buffer:
                left = deadline - time.monotonic()
                ready, _, _ = select.select([self._from_browser], [], [], max(0.0, left))
                if not ready:
                    raise TimeoutError(f"chromium did not answer {method}")
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise ConnectionError("chromium closed its pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open(self, url: str) -> str:
        """Open `url` in a new tab and wait until it has loaded; the page's session id."""
        target = self.call("Target.createTarget", {"url": url})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        deadline = time.monotonic() + self.timeout
        loaded = f"location.href === {json.dumps(url)} && document.readyState === 'complete'"
        while not self.evaluate(session, loaded):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load")
            time.sleep(0.05)
        return session

    def evaluate(self, session: str, expression: str) -> Any:
        """The JSON value of `expression` evaluated in the page's global scope."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def drag(self, session: str, points: list[tuple[float, float]]) -> None:
        """A mouse drag through `points` (viewport CSS pixels): press, moves, release."""
        mouse = lambda kind, x, y, **more: self.call(  # noqa: E731
            "Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", **more}, session)
        mouse("mousePressed", *points[0], clickCount=1, buttons=1)
        for x, y in points[1:]:
            mouse("mouseMoved", x, y, buttons=1)
        mouse("mouseReleased", *points[-1], clickCount=1, buttons=0)

    def close(self) -> None:
        try:
            self.call("Browser.close")
            self.process.wait(10)
        except (OSError, TimeoutError, RuntimeError, ConnectionError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(10)
        finally:
            os.close(self._to_browser)
            os.close(self._from_browser)
