"""`screencap` renders the screen: a PNG (or raw RGBA with its header) at the display size whose
pixels follow what is on the screen, the same bytes for the same state."""
from __future__ import annotations

import io
import struct

from PIL import Image, ImageChops

from tests.sim.gui.helpers import find, tap

PNG = b"\x89PNG\r\n\x1a\n"


def shot(device) -> Image.Image:
    data = device.exec_out("screencap -p")
    assert data.startswith(PNG)
    return Image.open(io.BytesIO(data)).convert("RGB")


def differ(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ."""
    histogram = ImageChops.difference(a, b).convert("L").histogram()
    return sum(histogram) - histogram[0]


def test_screens_of_different_apps_differ_and_the_same_screen_is_the_same_bytes(device) -> None:
    home = device.exec_out("screencap -p")
    device.check("am start -n com.android.settings/.Settings")
    settings = device.exec_out("screencap -p")
    device.check("am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity")
    messages = device.exec_out("screencap -p")
    assert len({home, settings, messages}) == 3
    assert Image.open(io.BytesIO(settings)).size == (1080, 2400)
    assert device.exec_out("screencap -p") == messages  # the same state, the same bytes
    a, b = (Image.open(io.BytesIO(x)).convert("RGB") for x in (settings, messages))
    assert differ(a, b) > 10_000


def test_what_changes_on_the_screen_changes_the_pixels(device) -> None:
    device.check("am start -a android.settings.DISPLAY_SETTINGS")
    before = shot(device)
    tap(device, "Dark theme")  # the switch and the whole theme
    after = shot(device)
    assert differ(before, after) > 1_000_000
    assert sum(after.getpixel((540, 1200))) < sum(before.getpixel((540, 1200)))  # a dark background
    device.check("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact")
    empty = shot(device)
    device.check("input text Ada")
    typed = shot(device)
    field = find(device, "Ada").bbox
    changed = [(x, y) for x in range(field.x_min, field.x_max, 2) for y in range(field.y_min, field.y_max, 2)
               if empty.getpixel((x, y)) != typed.getpixel((x, y))]
    assert changed  # the typed text is drawn where the field is


def test_the_shade_draws_over_the_dimmed_app(device) -> None:
    device.check("am start -n com.android.settings/.Settings")
    before = shot(device)
    device.check("input swipe 540 5 540 1500")
    after = shot(device)
    low = (540, 2200)  # below the panel: the app, dimmed
    assert sum(after.getpixel(low)) < sum(before.getpixel(low))


def test_raw_form_and_size_follow_wm_size(device) -> None:
    device.check("wm size 720x1280")
    raw = device.exec_out("screencap")
    width, height, fmt, _ = struct.unpack("<IIII", raw[:16])
    assert (width, height, fmt) == (720, 1280, 1) and len(raw) == 16 + 720 * 1280 * 4
    assert Image.open(io.BytesIO(device.exec_out("screencap -p"))).size == (720, 1280)
    assert max(e.bbox.x_max for e in device.ui.screen().elements) <= 720  # the layout follows too
    device.check("screencap /sdcard/s.png")
    assert device.pull("/sdcard/s.png").startswith(PNG)


def test_the_navigation_bar_draws_back_home_overview_and_its_back_and_home_act(device) -> None:
    device.check("am start -a android.settings.DISPLAY_SETTINGS")
    image = shot(device)
    bar = image.crop((0, 2274, 1080, 2400))
    assert len(bar.getcolors()) >= 2  # glyphs on the bar's fill
    device.check("input tap 180 2337")  # Back, in the first third
    assert device.activity.foreground_package() != "com.android.settings" or "Display" not in [
        e.text for e in device.ui.screen().elements]
    device.check("am start -n com.android.settings/.Settings")
    device.check("input tap 540 2337")  # Home
    assert device.activity.foreground_package() == "com.google.android.apps.nexuslauncher"
