"""Screenshots without the PNG round trip (issue #37): the simulator draws raw `screencap` straight
to RGBA, the same pixels its PNG holds, on every kind of screen; `device.ui.pixels()` reads them raw
where the transport says raw frames are cheap and decodes `screencap -p` where it does not (a
phone); the gym's screenshot observation is built from them, and a gym step on the simulated
device encodes and decodes no PNG. A screen drawn again sets none of its text or icons again."""
from __future__ import annotations

import io
import json
import struct
from typing import Iterator

import pytest
from PIL import Image, ImageFont, PngImagePlugin

from taskkit.connect import sim_device
from taskkit.device.base import Device
from taskkit.device.services import ui
from taskkit.sim.device import SimDevice
from taskkit.sim.gui import render
from taskkit.sim.gui.screen import build
from taskkit.sim.gui.session import Session
from tests.sim.gui.helpers import tap

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium", reason="taskkit.gym needs the gym extra (pip install 'taskkit[gym]')")

import taskkit.gym  # noqa: E402,F401 - registers taskkit/Task-v0


@pytest.fixture(scope="module")
def device() -> Iterator[SimDevice]:
    phone = sim_device()
    yield phone
    phone.close()


def _png_rgba(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGBA").tobytes()


def _go_to(device: SimDevice, screen: str) -> str:
    """Bring up `screen`; the PNG's colour mode it is drawn in."""
    steps = {
        "launcher": ["input keyevent KEYCODE_HOME"],
        "a Settings page": ["am start -a android.settings.DISPLAY_SETTINGS"],
        "the app drawer": ["input keyevent KEYCODE_HOME", "input swipe 540 1800 540 700"],
        "a dialog (a full-colour frame)": ["am start -n net.gsantner.markor/.activity.MainActivity"],
        "dark theme": ["settings put secure ui_night_mode 2", "am start -a android.settings.DISPLAY_SETTINGS"],
        "right to left": ["settings put secure ui_night_mode 1", "setprop persist.sys.locale ar-EG",
                          "am start -n com.android.settings/.Settings"],
    }[screen]
    for command in steps:
        device.check(command)
    if screen.startswith("a dialog"):
        tap(device, "fab_add_new_item")
    with Image.open(io.BytesIO(device.ui.screenshot())) as image:
        return image.mode


SCREENS = ("launcher", "a Settings page", "the app drawer", "a dialog (a full-colour frame)", "dark theme",
           "right to left")


def test_raw_screencap_is_the_pngs_pixels_on_every_kind_of_screen(device: SimDevice) -> None:
    modes, frames = set(), set()
    for screen in SCREENS:
        modes.add(_go_to(device, screen))
        raw = device.exec_out("screencap")
        width, height = device.ui.size()
        assert raw[:16] == struct.pack("<IIII", width, height, 1, 0), screen  # RGBA_8888, dataspace unknown
        assert raw[16:] == _png_rgba(device.exec_out("screencap -p")), screen
        frame = device.ui.pixels()
        assert (frame.width, frame.height, bytes(frame.rgba)) == (width, height, raw[16:]), screen
        frames.add(raw)
    assert modes == {"P", "RGB"} and len(frames) == len(SCREENS)  # both drawing modes; six different screens


@pytest.mark.parametrize("mode", ["RGBA", "RGB", "P", "L", "1"])
@pytest.mark.parametrize("size", [(1, 1), (3, 2), (1080, 2400)])
def test_raw_bytes_are_what_tobytes_gives(mode: str, size: tuple[int, int]) -> None:
    # render.raw_bytes encodes in one call what Image.tobytes encodes 64 KB at a time
    image = Image.radial_gradient("L").resize(size).convert(mode)
    assert render.raw_bytes(image) == image.tobytes()


def test_a_device_without_cheap_raw_frames_reads_the_same_pixels_from_screencap_p(
        device: SimDevice, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    exec_out = device._exec_out
    monkeypatch.setattr(device, "_exec_out", lambda command: asked.append(command) or exec_out(command))
    raw = device.ui.pixels()
    monkeypatch.setattr(device, "raw_screenshots", False)  # a phone over USB
    decoded = device.ui.pixels()
    assert asked == ["screencap", "screencap -p"] and not Device.raw_screenshots
    assert (decoded.width, decoded.height, decoded.rgba) == (raw.width, raw.height, bytes(raw.rgba))


def test_a_screen_drawn_again_sets_no_text_or_icon_again(device: SimDevice, monkeypatch: pytest.MonkeyPatch) -> None:
    """The glyphs of the bars and the app bar, like the labels, are set once and kept (render._mask)."""
    _go_to(device, "a Settings page")
    view = build(Session(device.state), drawn=True)
    first = render.render_rgba(view, 1080, 2400)
    rasterized: list[str] = []
    getmask2 = ImageFont.FreeTypeFont.getmask2
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2",
                        lambda font, text, *args, **kwargs: rasterized.append(text) or getmask2(font, text, *args, **kwargs))
    again = render.render_rgba(view, 1080, 2400)
    assert rasterized == [] and again == first


def test_a_raw_frame_that_is_not_rgba_of_its_size_is_refused() -> None:
    header = struct.pack("<IIII", 2, 1, 4, 0)  # RGB_565
    with pytest.raises(ui.UIError, match="pixel format 4"):
        ui.parse_raw(header + bytes(4))
    with pytest.raises(ui.UIError, match="7 bytes of pixels for 2x1, not 8"):
        ui.parse_raw(struct.pack("<IIII", 2, 1, 1, 0) + bytes(7))
    with pytest.raises(ui.UIError, match="no raw header"):
        ui.parse_raw(b"\x89PNG")


class _Counts:
    """PNG encodes and decodes (Pillow's PNG writer and reader), and the device's binary commands."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, device: Device):
        self.encoded = self.decoded = 0
        self.commands: list[str] = []
        save, load = Image.SAVE["PNG"], PngImagePlugin.PngImageFile._open
        exec_out = device._exec_out

        def counted_save(*args):
            self.encoded += 1
            return save(*args)

        def counted_open(image):
            self.decoded += 1
            return load(image)

        monkeypatch.setitem(Image.SAVE, "PNG", counted_save)
        monkeypatch.setattr(PngImagePlugin.PngImageFile, "_open", counted_open)
        monkeypatch.setattr(device, "_exec_out", lambda command: self.commands.append(command) or exec_out(command))


@pytest.fixture(scope="module")
def env() -> Iterator[taskkit.gym.PhoneEnv]:
    environment = gymnasium.make("taskkit/Task-v0", task="SystemWifiTurnOn", screenshot=True,
                                 render_mode="rgb_array").unwrapped
    environment.reset(seed=30)
    yield environment
    environment.close()


def test_a_gym_step_with_screenshots_on_the_simulator_encodes_no_png(
        env: taskkit.gym.PhoneEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = _Counts(monkeypatch, env.device)
    observation, *_ = env.step(json.dumps({"action_type": "open_app", "app_name": "Settings"}))
    assert (counts.encoded, counts.decoded, counts.commands) == (0, 0, ["screencap"])
    monkeypatch.undo()
    shown = observation["screenshot"]
    png = np.asarray(Image.open(io.BytesIO(env.device.ui.screenshot())).convert("RGB"))
    assert shown.dtype == np.uint8 and shown.shape == png.shape == env.observation_space["screenshot"].shape
    assert np.array_equal(shown, png) and env.observation_space.contains(observation)
    assert env.render() is shown


def test_a_gym_step_on_a_phone_transport_still_asks_for_screencap_p(
        env: taskkit.gym.PhoneEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    before, *_ = env.step(json.dumps({"action_type": "wait"}))
    counts = _Counts(monkeypatch, env.device)
    monkeypatch.setattr(env.device, "raw_screenshots", False)  # as an AdbDevice over USB
    after, *_ = env.step(json.dumps({"action_type": "wait"}))
    assert counts.commands == ["screencap -p"] and counts.decoded == 1
    assert np.array_equal(before["screenshot"], after["screenshot"])  # the same screen, the same pixels
