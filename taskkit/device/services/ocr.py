"""The words of a screenshot, read with Debian's tesseract-ocr (`apt-get install tesseract-ocr`).

SPA-Bench judges key components on the screen's text; where words are pixels (a picture of a
receipt, a web canvas) only OCR finds them. `screen_words(png)` runs `tesseract FILE stdout
--psm 11` (sparse text: a screen is not a page) on the host with a time limit and returns the
words it read, joined by single spaces.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from taskkit.errors import TaskkitError

TIMEOUT_S = 60.0


class OcrUnavailable(TaskkitError, RuntimeError):
    """tesseract is not installed, failed or took too long."""


def screen_words(png: bytes, timeout: float = TIMEOUT_S) -> str:
    """The words tesseract reads in the PNG screenshot `png`, joined by single spaces."""
    binary = shutil.which("tesseract")
    if binary is None:
        raise OcrUnavailable("reading the screenshot's words needs Debian's tesseract-ocr: apt-get install tesseract-ocr")
    with tempfile.TemporaryDirectory(prefix="taskkit-ocr-") as folder:
        image = Path(folder) / "screen.png"
        image.write_bytes(png)
        try:
            done = subprocess.run([binary, str(image), "stdout", "--psm", "11"], capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise OcrUnavailable(f"tesseract read no words within {timeout:g} s") from None
    if done.returncode != 0:
        raise OcrUnavailable(f"tesseract failed: {done.stderr.decode(errors='replace').strip()[:200]}")
    return " ".join(done.stdout.decode(errors="replace").split())
