"""Cheaper screenshots (issue #37): the shell hands back the buffers a command wrote into instead of
copying them, and a photo is decoded and scaled once per picture, view size and fit, however
often a screen shows it: a picture file written again with other bytes (its stat left as it
was) is drawn afresh."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from taskkit.apps import media
from taskkit.sim import shell
from taskkit.sim.gui import pictures, render
from taskkit.sim.state import SimState


def test_run_bytes_returns_the_buffers_the_command_wrote_into(tmp_path: Path, monkeypatch) -> None:
    written: list[bytearray] = []
    run_into = shell.run_into

    def recording(state, command, stdin, out, err, env=None):
        written.extend((out, err))
        return run_into(state, command, stdin, out, err, env)

    monkeypatch.setattr(shell, "run_into", recording)
    out, err, status = shell.run_bytes(SimState(tmp_path / "device"), "echo hi; echo oops >&2")
    assert (out, err, status) == (b"hi\n", b"oops\n", 0)
    assert out is written[0] and err is written[1]  # not copied


def _save(path: Path, colour: tuple[int, int, int]) -> None:
    """A 40 x 20 picture of one colour at `path`, its mtime kept where it was (if it was there)."""
    stat = path.stat() if path.exists() else None
    Image.new("RGB", (40, 20), colour).save(path, format="PNG")
    if stat is not None:
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.fixture
def decodes(monkeypatch) -> list[bytes]:
    """Every picture `render` decodes, from here on (its photo cache emptied first)."""
    render._fitted.cache_clear()
    opened: list[bytes] = []
    open_image = Image.open
    monkeypatch.setattr(Image, "open", lambda file, *args: opened.append(file.getvalue()) or open_image(file, *args))
    yield opened
    render._fitted.cache_clear()


@pytest.mark.parametrize("fit", ["fit", "crop"])
def test_a_photo_is_decoded_once_per_content_size_and_fit(tmp_path: Path, decodes: list[bytes], fit: str) -> None:
    path = tmp_path / "photo.png"
    _save(path, (200, 30, 30))
    image = pictures.cropped(str(path)) if fit == "crop" else str(path)
    first = render._photo(image, (30, 30))
    for _ in range(3):
        assert render._photo(image, (30, 30)).tobytes() == first.tobytes()
    assert len(decodes) == 1
    render._photo(image, (60, 30))  # another view size: scaled again
    assert len(decodes) == 2
    _save(path, (30, 30, 200))  # written behind the cache: other bytes, the same name and mtime
    again = render._photo(image, (30, 30))
    assert len(decodes) == 3 and again.tobytes() != first.tobytes()
    assert again.tobytes() == render._fitted.__wrapped__(path.read_bytes(), (30, 30), fit == "crop").tobytes()
    assert again.getpixel((5, 5)) == (30, 30, 200)


def test_a_missing_photo_is_still_an_error_not_a_kept_answer(tmp_path: Path, decodes: list[bytes]) -> None:
    path = tmp_path / "photo.png"
    _save(path, (10, 120, 10))
    render._photo(str(path), (20, 10))
    path.unlink()
    with pytest.raises(OSError):
        render._photo(str(path), (20, 10))


def test_a_videos_frame_is_the_one_at_its_time_and_decoded_once(tmp_path: Path, decodes: list[bytes]) -> None:
    def jpeg(colour: tuple[int, int, int]) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (40, 20), colour).save(out, format="JPEG", quality=95)
        return out.getvalue()

    path = tmp_path / "clip.mp4"
    red_jpeg, blue_jpeg = jpeg((220, 0, 0)), jpeg((0, 0, 220))
    path.write_bytes(media.mp4_bytes([(red_jpeg, 1000), (blue_jpeg, 1000)], 40, 20))
    colours = [render._photo(f"{path}#t={at}", (40, 20)).getpixel((20, 10)) for at in (500, 1500, 500, 9000)]
    red, blue = colours[0], colours[1]
    assert red[0] > 200 > red[2] and blue[2] > 200 > blue[0]  # the first picture, then the second
    assert colours[2:] == [red, blue]  # the same time again; past the end: the last picture
    assert decodes == [red_jpeg, blue_jpeg]  # a picture's decode is kept, whichever time shows it


def test_a_raw_frame_reaches_the_caller_without_a_copy(module_device) -> None:
    """`ui.pixels()` reads the frame in the buffer the shell wrote it into: on a screen drawn
    already, one frame's bytes are allocated (the command's output), where `exec_out`'s bytes
    copy made two. `exec_out` still gives bytes."""
    import tracemalloc

    frame = module_device.ui.pixels()  # the screen drawn (and kept: taskkit/sim/gui/cache.py)
    assert type(module_device.exec_out("screencap")) is bytes
    tracemalloc.start()
    try:
        again = module_device.ui.pixels()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert again.rgba == frame.rgba and again.rgba.readonly
    assert peak < 1.5 * len(frame.rgba), f"{peak} bytes allocated for a frame of {len(frame.rgba)}"
