"""taskkit.apps.chrome and the Browser tasks: the pages' puzzles, the tasks' lifecycle on the
simulator, and the pages played in a real headless Chromium, whose puzzles must be the Python
model's and whose "Success!" must come exactly where the model says."""
from __future__ import annotations

import json

import pytest

from taskkit.apps import chrome, files
from taskkit.apps.chrome.tasks import BrowserDraw, BrowserMaze, BrowserMultiply
from taskkit.env import Env
from taskkit.rng import TaskRng
from tests.apps.chromium_pipe import Chromium, find_binary

SEEDS = (0, 1, 30, 4242, 123456789, chrome.SEED_MAX)
TASKS = (BrowserMaze, BrowserMultiply, BrowserDraw)


# --- the model --------------------------------------------------------------------------------
def test_the_generator_is_a_fixed_sequence() -> None:
    """Pinned (the pages' script gives the same numbers: the fidelity tests below)."""
    rng = chrome.PageRng(0)
    assert [rng.next_u32() for _ in range(3)] == [2462723854, 1020716019, 454327756]
    rng = chrome.PageRng(chrome.SEED_MAX)
    assert [rng.next_u32() for _ in range(2)] == [920564995, 4230986166]
    assert sorted({rng.below(7) for _ in range(200)}) == list(range(7))


@pytest.mark.parametrize("seed", range(60))
def test_each_maze_has_a_path_and_its_solution_walks_it(seed: int) -> None:
    layout = chrome.maze(seed)
    assert len(layout) == chrome.MAZE_SIZE and all(len(row) == chrome.MAZE_SIZE for row in layout)
    assert layout[0][0] == "." and layout[-1][-1] == "." and "#" in "".join(layout)
    at = (0, 0)
    for button in chrome.maze_solution(seed):
        moved = chrome.maze_step(layout, at, button)
        assert moved != at  # never into a wall
        at = moved
    assert at == (chrome.MAZE_SIZE - 1, chrome.MAZE_SIZE - 1)


def test_walls_and_edges_stop_the_x() -> None:
    layout = ("..##", "#..#", "##..", "###.")
    assert chrome.maze_step(layout, (0, 0), "Up") == (0, 0)
    assert chrome.maze_step(layout, (0, 0), "Down") == (0, 0)
    assert chrome.maze_step(layout, (0, 0), "Right") == (0, 1)
    assert chrome.maze_step(layout, (3, 3), "Right") == (3, 3)


def test_numbers_colours_and_answers() -> None:
    for seed in SEEDS:
        values = chrome.numbers(seed)
        assert len(values) == chrome.NUMBER_COUNT and all(1 <= v <= 10 for v in values)
        assert chrome.product(seed) == values[0] * values[1] * values[2] * values[3] * values[4]
        targets = chrome.target_colours(seed)
        assert len(set(targets)) == 3 and set(targets) <= set(chrome.COLOUR_NAMES)
        assert chrome.drawing_succeeds(seed, [*targets, "#000000"])
        assert not chrome.drawing_succeeds(seed, targets[:2] * 3)
    assert [chrome.numbers(s) for s in SEEDS] == [chrome.numbers(s) for s in SEEDS]
    assert len({tuple(chrome.numbers(s)) for s in range(50)}) > 40
    assert chrome.answer_value(" 120 ") == 120
    assert [chrome.answer_value(text) for text in ("120abc", "", "-4", "1 2")] == [None] * 4


def test_pages_name_their_game_and_seed_and_nothing_else_is_taken_for_one() -> None:
    for kind in chrome.KINDS:
        page = chrome.page_html(kind, 77)
        assert chrome.parse_page(page) == (kind, 77)
        assert "http" not in page.replace('name="viewport"', "")  # nothing fetched
    assert chrome.parse_page("<html><title>Maze</title></html>") is None
    assert chrome.parse_page('<meta name="taskkit-page" content="chess"><meta name="taskkit-seed" content="1">') is None
    with pytest.raises(ValueError):
        chrome.page_html("maze", 2**32)


def test_uris_map_back_to_the_file() -> None:
    uri = files.document_uri(chrome.TASK_FILE)
    assert uri == "content://com.android.externalstorage.documents/document/primary%3ADownload%2Ftask.html"
    assert files.path_of_uri(uri) == files.path_of_uri("file:///sdcard/Download/task.html") == chrome.TASK_FILE
    assert files.path_of_uri("https://example.com/task.html") is None


# --- the tasks on the simulator ---------------------------------------------------------------
def test_params_goal_and_metadata() -> None:
    for task_cls in TASKS:
        params = task_cls.generate_random_params(TaskRng(3))
        assert params == task_cls.generate_random_params(TaskRng(3))
        assert 0 <= params["browser_task_seed"] <= chrome.SEED_MAX
        goal = task_cls(params).goal
        assert goal.startswith("Open the file task.html in Downloads in the file manager; when prompted open it "
                               "with Chrome. Then ")
    assert (BrowserMaze.complexity, BrowserMultiply.complexity, BrowserDraw.complexity) == (2, 2.2, 2)


@pytest.mark.parametrize("task_cls", TASKS, ids=lambda c: c.__name__)
def test_lifecycle_writes_the_page_reads_success_from_the_screen_and_cleans_up(sim_device, task_cls) -> None:
    env = Env(sim_device)
    task = task_cls({"browser_task_seed": 987654})
    task.initialize_state(env)
    assert chrome.parse_page(sim_device.files.read_text(chrome.TASK_FILE)) == (task_cls.kind, 987654)
    assert task.is_successful(env) == 0.0
    task.solve(env)
    assert task.is_successful(env) == 1.0
    sim_device.check("input keyevent HOME")  # Chrome no longer in front
    assert task.is_successful(env) == 0.0
    task.teardown(env)
    assert not sim_device.files.exists(chrome.TASK_FILE)


def test_success_typed_into_the_answer_field_does_not_pass(sim_device) -> None:
    env = Env(sim_device)
    task = BrowserMultiply({"browser_task_seed": 5})
    task.initialize_state(env)
    sim_device.check("am start -a android.intent.action.VIEW -d file:///sdcard/Download/task.html -t text/html "
                     "-n com.android.chrome/com.google.android.apps.chrome.Main")
    for _ in range(chrome.NUMBER_COUNT):
        element = next(e for e in sim_device.ui.screen().elements if e.text == "Next")
        sim_device.check("input tap {} {}".format(*element.bbox.center))
    field = next(e for e in sim_device.ui.screen().elements if e.text == "Product")
    sim_device.check("input tap {} {}".format(*field.bbox.center))
    sim_device.check("input text Success!")
    assert any(e.text == chrome.SUCCESS and e.is_editable for e in sim_device.ui.screen().elements)
    assert task.is_successful(env) == 0.0
    task.teardown(env)


# --- fidelity: the same pages in a real Chromium ----------------------------------------------
@pytest.fixture(scope="module")
def browser():
    binary = find_binary()
    if binary is None:
        print("no chromium on PATH: the fidelity tests of the Browser pages are skipped")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    chromium = Chromium(binary)
    yield chromium
    chromium.close()


def _load(browser: Chromium, tmp_path, kind: str, seed: int) -> str:
    page = tmp_path / f"{kind}-{seed}.html"
    page.write_text(chrome.page_html(kind, seed))
    return browser.open(page.as_uri())


def _body(browser: Chromium, session: str) -> str:
    return browser.evaluate(session, "document.body.innerText").strip()


def _click(browser: Chromium, session: str, element_id: str) -> None:
    browser.evaluate(session, f"document.getElementById({json.dumps(element_id)}).click()")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_real_maze_is_the_models_and_its_solution_reaches_success(browser, tmp_path, seed: int) -> None:
    session = _load(browser, tmp_path, "maze", seed)
    cells = browser.evaluate(session, "[...document.querySelectorAll('#maze .cell')]"
                                      ".map(c => [c.getAttribute('aria-label'), c.textContent])")
    layout = chrome.maze(seed)
    assert "".join("#" if label == "Wall" else "." for label, _ in cells) == "".join(layout)
    assert [text for _, text in cells].index("X") == 0 and cells[-1][0] == "Goal"
    blocked = next((b for b in chrome.MOVES if chrome.maze_step(layout, (0, 0), b) == (0, 0)), None)
    if blocked:
        _click(browser, session, blocked)
        assert browser.evaluate(session, "at") == [0, 0]
    for button in chrome.maze_solution(seed):
        assert "Success!" not in _body(browser, session)
        _click(browser, session, button)
    assert _body(browser, session) == chrome.SUCCESS


@pytest.mark.parametrize("seed", SEEDS)
def test_the_real_numbers_are_the_models_and_only_their_product_succeeds(browser, tmp_path, seed: int) -> None:
    session = _load(browser, tmp_path, "multiply", seed)
    shown = []
    for _ in range(chrome.NUMBER_COUNT):
        assert browser.evaluate(session, "document.getElementById('form').hidden") is True
        shown.append(int(browser.evaluate(session, "document.getElementById('number').textContent")))
        _click(browser, session, "next")
    assert shown == chrome.numbers(seed)
    assert browser.evaluate(session, "document.getElementById('form').hidden") is False
    for answer, success in ((f"{chrome.product(seed) + 1}", False), (f" {chrome.product(seed)} ", True)):
        browser.evaluate(session, "document.getElementById('answer').value = ''; "
                                  "document.getElementById('answer').focus()")
        browser.call("Input.insertText", {"text": answer}, session)
        _click(browser, session, "submit")
        result = browser.evaluate(session, "document.getElementById('result').textContent")
        assert result == (chrome.SUCCESS if success else ""), (answer, result)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_real_colours_are_the_models_and_drawing_them_succeeds(browser, tmp_path, seed: int) -> None:
    session = _load(browser, tmp_path, "draw", seed)
    targets = chrome.target_colours(seed)
    shown = browser.evaluate(session, "[...document.querySelectorAll('#targets .swatch')]"
                                      ".map(s => s.getAttribute('aria-label'))")
    assert shown == [chrome.COLOUR_NAMES[hex_] for hex_ in targets]
    palette = browser.evaluate(session, "[...document.querySelectorAll('#palette button')]"
                                        ".map(b => b.getAttribute('aria-label'))")
    assert palette == [name for name, _ in chrome.PALETTE]
    box = browser.evaluate(session, "(() => { const r = document.getElementById('canvas').getBoundingClientRect();"
                                    " return [r.left, r.top, r.width, r.height]; })()")
    left, top, width, height = box

    def stroke(name: str, row: int) -> None:
        browser.evaluate(session, f"document.querySelector('#palette button[aria-label={json.dumps(name)}]')"
                                      ".click()")
        y = top + height * row / 5
        browser.drag(session, [(left + width * k / 10, y) for k in range(2, 9)])

    def verdict() -> str:
        _click(browser, session, "submit")
        return browser.evaluate(session, "document.getElementById('result').textContent")

    for missing in range(len(targets)):  # any two of the three are not enough
        _click(browser, session, "clear")
        for row, hex_ in enumerate(targets, start=1):
            if row - 1 != missing:
                stroke(chrome.COLOUR_NAMES[hex_], row)
        assert verdict() == ""
    _click(browser, session, "clear")
    for row, hex_ in enumerate(targets[:2], start=2):
        stroke(chrome.COLOUR_NAMES[hex_], row)
    browser.drag(session, [(left + width / 2, top + height / 2)] * 2)  # a press without a move draws nothing
    assert verdict() == ""
    stroke(chrome.COLOUR_NAMES[targets[2]], 4)
    assert verdict() == chrome.SUCCESS
    _click(browser, session, "clear")
    stroke(chrome.COLOUR_NAMES[targets[0]], 1)
    assert verdict() == ""
    pixels = browser.evaluate(session, "(() => { const d = document.getElementById('canvas').getContext('2d')"
                                       ".getImageData(0, 0, 300, 300).data; let n = 0;"
                                       " for (let i = 3; i < d.length; i += 4) n += d[i] > 0; return n; })()")
    assert pixels > 0  # the stroke is on the canvas
