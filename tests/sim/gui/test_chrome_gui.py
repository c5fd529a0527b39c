"""The simulated Chrome: task.html opened from the Files app, what each game page shows and what
it does on a wrong move (the Browser tasks' reference scripts are in test_gui_references.py)."""
from __future__ import annotations

from taskkit.apps import chrome, files
from taskkit.apps.files import DOWNLOAD_DIR
from taskkit.device.services.ui import build_dump
from tests.sim.gui.helpers import by, find, tap, texts

def _window_dump(device) -> str:
    return device.check(build_dump())


def _open_page(device, kind: str, seed: int) -> None:
    device.files.write_text(chrome.TASK_FILE, chrome.page_html(kind, seed))
    device.check("am start -n com.google.android.documentsui/com.android.documentsui.files.FilesActivity")
    tap(device, "Download")
    tap(device, "task.html")


def test_files_offers_chrome_for_the_page_and_chrome_shows_its_address(device) -> None:
    _open_page(device, "maze", 7)
    assert {"Open with", "Chrome", "Just once", "Always"} <= set(texts(device))
    tap(device, "Just once")
    assert device.activity.foreground_package() == chrome.PACKAGE
    assert find(device, "url_bar").text == files.document_uri(chrome.TASK_FILE)
    assert 'text="Maze" resource-id="" class="android.webkit.WebView"' in _window_dump(device)
    assert "Maze" in texts(device)


def test_a_wall_stops_the_x_and_the_goal_replaces_the_page_by_success(device) -> None:
    seed = next(s for s in range(100) if chrome.maze(s)[0][1] == "#" or chrome.maze(s)[1][0] == "#")
    layout = chrome.maze(seed)
    _open_page(device, "maze", seed)
    tap(device, "Just once")
    blocked = "Right" if layout[0][1] == "#" else "Down"
    tap(device, blocked)
    tap(device, "Up")  # the edge
    cells = [e for e in device.ui.screen().elements if e.content_description in ("Wall", "Open", "Goal")]
    assert [c.text for c in cells].index("X") == 0
    assert "".join("#" if c.content_description == "Wall" else "." for c in cells) == "".join(layout)
    for move in chrome.maze_solution(seed):
        assert chrome.SUCCESS not in texts(device)
        tap(device, move)
    assert texts(device)[-1] == chrome.SUCCESS and not any(e.content_description == "Wall"
                                                           for e in device.ui.screen().elements)


def test_the_numbers_show_one_by_one_and_a_wrong_product_shows_nothing(device) -> None:
    seed = 11
    _open_page(device, "multiply", seed)
    tap(device, "Just once")
    seen = []
    for _ in range(chrome.NUMBER_COUNT):
        seen.append(int(next(t for t in texts(device) if t.isdigit())))
        tap(device, "Next")
    assert seen == chrome.numbers(seed) and "Next" not in texts(device)
    tap(device, "Product")
    device.check(f"input text {chrome.product(seed) + 1}")
    tap(device, "Submit")
    assert chrome.SUCCESS not in texts(device)
    device.check("input keycombination 113 29 && input keyevent DEL")  # select all, delete
    device.check(f"input text {chrome.product(seed)}")
    tap(device, "Submit")
    assert chrome.SUCCESS in texts(device)


def test_the_canvas_counts_the_colours_drawn_since_clear(device) -> None:
    seed = 5
    targets = chrome.target_colours(seed)
    _open_page(device, "draw", seed)
    tap(device, "Just once")
    box = find(device, chrome.CANVAS_LABEL).bbox
    for index, colour in enumerate(targets):
        tap(device, by(chrome.COLOUR_NAMES[colour]))
        y = box.y_min + (index + 1) * box.height // 4
        device.check(f"input swipe {box.x_min + 40} {y} {box.x_max - 40} {y} 300")
    tap(device, "Clear")
    tap(device, "Submit")
    assert chrome.SUCCESS not in texts(device)
    for colour in targets[:2]:
        tap(device, by(chrome.COLOUR_NAMES[colour]))
        device.check(f"input swipe {box.x_min + 40} {box.center[1]} {box.x_max - 40} {box.center[1]} 300")
    device.check(f"input tap {box.center[0]} {box.center[1]}")  # a tap draws nothing
    tap(device, "Submit")
    assert chrome.SUCCESS not in texts(device)
    tap(device, by(chrome.COLOUR_NAMES[targets[2]]))
    device.check(f"input swipe {box.center[0]} {box.y_min + 40} {box.center[0]} {box.y_max - 40} 300")
    tap(device, "Submit")
    assert chrome.SUCCESS in texts(device)


def test_a_page_the_simulator_does_not_know_shows_its_title_and_text(device) -> None:
    device.files.write_text(f"{DOWNLOAD_DIR}/other.html",
                            "<html><head><title>Notes &amp; more</title></head>"
                            "<body><p>Hello <b>there</b></p></body></html>")
    device.check("am start -a android.intent.action.VIEW -d file:///sdcard/Download/other.html -t text/html "
                 "-n com.android.chrome/com.google.android.apps.chrome.Main")
    assert 'text="Notes &amp; more" resource-id="" class="android.webkit.WebView"' in _window_dump(device)
    assert "Hello there" in texts(device)
    device.check("am start -a android.intent.action.VIEW -d file:///sdcard/Download/gone.html -t text/html "
                 "-n com.android.chrome/com.google.android.apps.chrome.Main")
    assert "Your file couldn\u2019t be accessed" in texts(device)
