"""Cheaper screenshots, second pass (issue #37): a view that draws what a kept frame drew is not
painted again (`render.render_rgba`), and a kept frame is always the one a fresh painting gives."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from taskkit.sim.gui import cache, render
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.screen import View, build
from taskkit.sim.gui.session import Session
from tests.sim.test_screenshot_copies import _save

_PAINT = render.render_image  # (the tests below count its calls)


def _fresh(view: View) -> bytes:
    """`view`'s pixels painted afresh, kept nowhere."""
    return _PAINT(view, 1080, 2400).convert("RGBA").tobytes()


@pytest.fixture
def painted(monkeypatch) -> list[str]:
    """The package of every view `render` paints, from here on (the kept frames forgotten first)."""
    cache.clear()
    render._FRAMES.clear()
    calls: list[str] = []
    monkeypatch.setattr(render, "render_image", lambda view, *args: calls.append(view.package) or _PAINT(view, *args))
    yield calls
    render._FRAMES.clear()


def test_a_screen_seen_again_after_a_change_is_not_painted_again(module_device, painted: list[str]) -> None:
    """Home, Settings, Home again: the device changed between (the GUI cache's frame is gone),
    but the launcher draws what it drew: its frame is kept by what it draws."""
    frames = []
    for command in ("input keyevent KEYCODE_HOME", "am start -a android.settings.DISPLAY_SETTINGS",
                    "input keyevent KEYCODE_HOME"):
        module_device.check(command)
        frames.append(bytes(module_device.ui.pixels().rgba))
    assert frames[0] == frames[2] != frames[1]
    assert len(painted) == 2, painted


def test_kept_frames_are_the_frames_painted_afresh_whatever_changed(module_device, painted: list[str],
                                                                   tmp_path: Path) -> None:
    """Every answer from the kept frames equals a fresh painting of the same view: along a walk of
    screens and back, after a drawn field changes, and after a picture file is written again
    behind the cache's back (other bytes, the same name and stat); a field that only says what
    a node does (its action) draws the same frame."""
    for command in ("input keyevent KEYCODE_HOME", "am start -a android.settings.DISPLAY_SETTINGS",
                    "input keyevent KEYCODE_BACK", "input swipe 540 1800 540 700", "input keyevent KEYCODE_HOME"):
        module_device.check(command)
        view = build(Session(module_device.state), drawn=True)
        assert render.render_rgba(view, 1080, 2400) == _fresh(view)
    photo = tmp_path / "photo.png"
    _save(photo, (200, 30, 30))
    view = build(Session(module_device.state), drawn=True)
    shown = Node(class_name="android.widget.ImageView", bounds=(100, 400, 500, 800), image=str(photo))
    pictured = dataclasses.replace(view, window=dataclasses.replace(
        view.window, children=[*view.window.children, shown]))
    red = render.render_rgba(pictured, 1080, 2400)
    _save(photo, (30, 30, 200))  # written behind the cache: other bytes, the same name and mtime
    blue = render.render_rgba(pictured, 1080, 2400)
    assert red != blue and blue == _fresh(pictured)
    relabelled = dataclasses.replace(shown, text="a caption")
    captioned = dataclasses.replace(pictured, window=dataclasses.replace(
        view.window, children=[*view.window.children, relabelled]))
    assert render.render_rgba(captioned, 1080, 2400) == _fresh(captioned) != blue
    acting = dataclasses.replace(pictured, window=dataclasses.replace(
        view.window, children=[*view.window.children, dataclasses.replace(shown, action=lambda ui: None)]))
    count = len(painted)
    assert render.render_rgba(acting, 1080, 2400) is blue and len(painted) == count


def test_no_frame_is_kept_with_the_gui_cache_off(module_device, painted: list[str], monkeypatch) -> None:
    monkeypatch.setattr(cache, "enabled", False)  # TASKKIT_GUI_CACHE=0
    view = build(Session(module_device.state), drawn=True)
    assert render.render_rgba(view, 1080, 2400) == render.render_rgba(view, 1080, 2400) == _fresh(view)
    assert len(painted) == 2 and not render._FRAMES


def test_the_painter_reads_no_field_the_frame_key_leaves_out() -> None:
    """The kept frames' key leaves out only what a node does (`render._BEHAVIOUR`): the painter
    never reads those fields, so two views differing only there draw the same pixels."""
    source = Path(render.__file__).read_text("utf-8")
    left_out = render._BEHAVIOUR - {"children"}
    assert left_out and all(name in {field.name for field in dataclasses.fields(Node)} for name in left_out)
    assert [name for name in sorted(left_out) if re.search(rf"\.{name}\b", source)] == []
