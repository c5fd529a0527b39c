"""Simple Calendar Pro's month view as its canvas paints it (MonthView.onDraw): the screenshot
shows the weekday letters, each day's number (other months' dimmed, today's on a circle in the
primary colour) and each event as a bar with its title in its day's cell, while the dump keeps
only the empty cells (a canvas is not in uiautomator's dump)."""
from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageOps

from taskkit.apps import calendar
from taskkit.rng import TaskRng
from taskkit.sim.gui.layout import Metrics
from tests.sim.gui.helpers import find
from tests.sim.gui.test_legibility import tesseract

MAIN = "am start -n com.simplemobiletools.calendar.pro/.activities.MainActivity"
PRIMARY = (245, 124, 0)  # Simple-Commons' color_primary #F57C00, the regular event type's colour
BAND = Metrics().dp(16)  # a cell's top: its day number (14sp) or most of today's circle, above any event
TODAY = 3 * 7  # the device's day, Sunday October 15 2023: the first cell of the fourth row


@pytest.fixture
def month(device):
    """The month view of October 2023 with "Yoga" on the 20th and "Swim" on the (past) 3rd:
    (the device, its screenshot, the 42 cells' boxes)."""
    calendar.EVENTS.insert(device, [calendar.random_event(TaskRng(day), day=day, hour=10, title=title)
                                    for day, title in ((20, "Yoga"), (3, "Swim"))])
    device.check(MAIN)
    shot = Image.open(io.BytesIO(device.exec_out("screencap -p"))).convert("RGB")
    cells = [e.bbox for e in device.ui.screen().elements
             if (e.resource_name or "").endswith(":id/month_view_background")]
    assert len(cells) == 42
    return device, shot, [(b.x_min, b.y_min, b.x_max, b.y_max) for b in cells]


def _primary(image: Image.Image) -> Image.Image:
    """A mask of the pixels in the primary colour."""
    difference = ImageChops.difference(image, Image.new("RGB", image.size, PRIMARY)).convert("L")
    return difference.point(lambda v: 255 if v < 40 else 0)


def _ocr(images: list[Image.Image], workdir: Path, psm: int = 7) -> list[list[str]]:
    """The words tesseract reads in each image (one line each)."""
    assert shutil.which("tesseract"), "tesseract-ocr is a test dependency (tests/setup_and_run.sh installs it)"
    return [page.split() for page in tesseract(images, workdir, psm)]


def test_the_day_numbers_are_read_row_by_row_in_their_cells(month, tmp_path) -> None:
    _, shot, cells = month
    rows = [shot.convert("L").crop((0, cells[r * 7][1], shot.width, cells[r * 7][1] + BAND)) for r in range(6)]
    read = _ocr(rows, tmp_path)
    assert read[0] == ["24", "25", "26", "27", "28", "29", "30"]  # September's last days, before the 1st
    assert read[1] == [str(d) for d in range(1, 8)]
    assert read[5] == ["29", "30", "31", "1", "2", "3", "4"]
    numbers = [w for row in read for w in row]
    assert all(str(d) in numbers for d in range(1, 32) if d != 15)  # the 15th is white on today's circle
    # each number sits in its own column: the ink of row 2's band lies in all seven cells
    band = shot.convert("L").crop((0, cells[7][1], shot.width, cells[7][1] + BAND))
    assert all(ImageOps.invert(band.crop((c[0], 0, c[2], BAND))).getbbox() for c in cells[7:14])


def test_other_months_days_are_dimmed(month) -> None:
    _, shot, cells = month
    gray = shot.convert("L")

    def darkest(cell: tuple[int, int, int, int]) -> int:
        return gray.crop((cell[0], cell[1], cell[2], cell[1] + BAND)).getextrema()[0]
    assert darkest(cells[0]) > darkest(cells[7]) + 40  # September 24 lighter than October 1
    assert darkest(cells[41]) > darkest(cells[37]) + 40  # November 4 lighter than October 31


def test_today_is_on_a_circle_in_the_primary_colour(month) -> None:
    _, shot, cells = month
    tops = [_primary(shot.crop((c[0], c[1], c[2], c[1] + BAND))).histogram()[255] for c in cells]
    radius = Metrics().dp(14) * 4 // 5
    assert tops[TODAY] > 1.5 * radius * radius  # most of a circle (pi r^2, less the number and its bottom)
    assert all(count == 0 for i, count in enumerate(tops) if i != TODAY)
    letters = shot.crop((0, cells[0][1] - Metrics().dp(28), shot.width, cells[0][1]))
    sunday = _primary(letters).getbbox()
    assert sunday is not None and sunday[2] <= cells[0][2]  # today's weekday letter, the Sunday's


def test_an_events_title_is_drawn_on_a_bar_in_its_days_cell(month, tmp_path) -> None:
    _, shot, cells = month
    cell = shot.crop(cells[3 * 7 + 5])  # the 20th: the Friday of the fourth row
    bar = _primary(cell).getbbox()
    assert bar is not None and bar[1] >= BAND  # under the day number
    # under the numbers of the first five rows (the FAB covers the last; today's circle pokes a
    # few px over its cell's top, as MonthView draws it): today's circle's bottom and the bar only
    below = {i for i, c in enumerate(cells[:35])
             if _primary(shot.crop((c[0], c[1] + BAND, c[2], c[3] - BAND // 4))).getbbox()}
    assert below == {TODAY, 3 * 7 + 5}
    inside = (bar[0] + Metrics().dp(3), bar[1], bar[2] - Metrics().dp(3), bar[3])  # off its rounded corners
    white_on_bar = ImageOps.expand(cell.crop(inside).convert("L").point(lambda v: 0 if v > 200 else 255), 10, fill=255)
    assert _ocr([white_on_bar], tmp_path) == [["Yoga"]]
    # the past event (October 3) is dimmed: its bar is the primary colour at half alpha
    third = shot.crop(cells[7 + 2])
    assert not _primary(third).getbbox() and third.getcolors(1 << 16) is not None
    assert any(abs(r - 250) < 6 and abs(g - 190) < 6 and abs(b - 128) < 6 for _, (r, g, b) in third.getcolors(1 << 16))


def test_the_dump_has_no_node_for_what_the_canvas_paints(month) -> None:
    device, _, _ = month
    dump = device.check("uiautomator dump /dev/tty")
    assert "Yoga" not in dump and "Swim" not in dump and 'text="20"' not in dump and 'text="S"' not in dump
    view = find(device, "month_view")
    assert not view.text and not view.content_description
    assert dump.count('resource-id="com.simplemobiletools.calendar.pro:id/month_view"') == 1


def test_only_a_screenshot_lays_out_the_events(month, monkeypatch: pytest.MonkeyPatch) -> None:
    """The events' bars are the canvas's alone: a dump or a tap builds the month without reading
    or laying them out (a calendar with dozens of events made every dump of it four times dearer)."""
    from taskkit.sim.gui.apps import calendar as screens

    device, _, _ = month
    painted: list[object] = []
    paint = screens._month_paint
    monkeypatch.setattr(screens, "_month_paint", lambda *args: painted.append(args) or paint(*args))
    device.check("input swipe 540 1200 100 1200")  # the next month, then back: two new screens
    device.check("input swipe 100 1200 540 1200")
    device.check("uiautomator dump /dev/tty")
    assert painted == []
    device.exec_out("screencap -p")
    assert len(painted) == 1


def test_the_pickers_paint_their_month_title_weekday_letters_and_clock_hand(device, tmp_path) -> None:
    device.check(MAIN)
    for rid in ("calendar_fab", "fab_event_label", "event_start_date"):
        x, y = find(device, rid).bbox.center
        device.check(f"input tap {x} {y}")
    shot = Image.open(io.BytesIO(device.exec_out("screencap -p"))).convert("L")
    prev, after = find(device, "prev").bbox, find(device, "next").bbox
    title = shot.crop((prev.x_max, prev.y_min, after.x_min, prev.y_max))
    first = find(device, "01 October 2023").bbox  # a Sunday: the first column
    letters = shot.crop((first.x_min, prev.y_max, after.x_max, first.y_min))
    read = [["".join(filter(str.isalnum, w)) for w in row] for row in _ocr([title, letters], tmp_path)]
    assert read == [["October", "2023"], ["S", "M", "T", "W", "T", "F", "S"]]
    assert '"October 2023"' not in device.check("uiautomator dump /dev/tty")  # painted, not a node
    device.check("input keyevent KEYCODE_BACK")
    x, y = find(device, "event_start_time").bbox.center
    device.check(f"input tap {x} {y}")
    top, bottom, picked = (find(device, f"{h} hours").bbox.center for h in (12, 6, 16))
    shot = Image.open(io.BytesIO(device.exec_out("screencap -p"))).convert("RGB")
    accent = shot.getpixel(picked)  # the picked number's fill
    # the hand: the accent colour on the way from the face's centre (between 12 and 6) to the picked number
    (cx, cy), (px, py) = ((top[0] + bottom[0]) // 2, (top[1] + bottom[1]) // 2), picked
    assert all(shot.getpixel((cx + (px - cx) * k // 4, cy + (py - cy) * k // 4)) == accent for k in range(4))
