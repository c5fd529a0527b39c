"""Browser tasks (AndroidWorld's BrowserMaze, BrowserMultiply and BrowserDraw).

As in AndroidWorld, each task writes a game page to Download/task.html, the agent opens it from
the Files app in Chrome and plays it, and the check reads the screen: Chrome is in front and an
element's text is exactly "Success!". The pages are taskkit's own (taskkit.apps.chrome); their
puzzle comes from the param `browser_task_seed`, which the page's script and the Python model
turn into the same maze, numbers or colours.

Stricter than AndroidWorld: the "Success!" element must not be a text field (typing the word
into the page's answer field does not pass). Different: Chrome's data is not cleared (Chrome is
force-stopped, so no page state survives), and the device clock is left as it is.
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit.apps import chrome
from taskkit.device.quoting import shell_join
from taskkit.device.services.ui import UIElement
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, swipe, tap, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval

_PREAMBLE = "Open the file task.html in Downloads in the file manager; when prompted open it with Chrome."
Match = Callable[[UIElement], bool]


def _named(label: str) -> Match:
    """An element whose text or content description is `label` (not a text field)."""
    return lambda e: label in (e.text, e.content_description) and not e.is_editable


def _elements(env: TaskEnv) -> tuple[UIElement, ...]:
    return env.device.ui.screen().elements


def _centre(elements: tuple[UIElement, ...], match: Match) -> tuple[int, int]:
    found = [e for e in elements if match(e) and e.bbox is not None]
    if not found:
        raise LookupError(f"not on the screen: {[e.text or e.content_description for e in elements]}")
    return found[-1].bbox.center  # type: ignore[union-attr]


def _tap(env: TaskEnv, x: int, y: int) -> None:
    env.device.check(shell_join(["input", "tap", str(x), str(y)]))


def open_task_page() -> list[Step]:
    """Open Downloads/task.html from Files, with Chrome (the preamble of every goal)."""
    return [open_app("files"), tap("Download"), tap("task.html"), tap("Just once")]


class _BrowserTask(TaskEval, register=False):
    """Write the page, let the agent play it in Chrome, read "Success!" from the screen."""

    abstract = True
    kind = ""
    app_names = ("chrome",)
    complexity = 2  # AndroidWorld's
    template = ""
    schema = {
        "type": "object",
        "properties": {"browser_task_seed": {"type": "integer", "minimum": 0, "maximum": chrome.SEED_MAX}},
        "required": ["browser_task_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"browser_task_seed": rng.randint(0, chrome.SEED_MAX)}

    @property
    def page_seed(self) -> int:
        return int(self.params["browser_task_seed"])

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        chrome.APP.force_stop(env.device)  # no page (and none of its state) is open
        env.device.files.write_text(chrome.TASK_FILE, chrome.page_html(self.kind, self.page_seed))

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        screen = env.device.ui.screen()
        if (screen.foreground or "").split("/")[0] != chrome.PACKAGE:
            return 0.0
        shown = any(e.text == chrome.SUCCESS and not e.is_editable for e in screen.elements)
        return 1.0 if shown else 0.0

    def teardown(self, env: TaskEnv) -> None:
        chrome.APP.force_stop(env.device)
        chrome.reset(env.device)
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        """Open the page in Chrome as a VIEW intent, then play it through the screen."""
        env.device.check(shell_join(["am", "start", "-a", "android.intent.action.VIEW", "-d",
                                     "file://" + chrome.TASK_FILE, "-t", "text/html", "-n", chrome.APP.component]))
        self.play(env)

    def play(self, env: TaskEnv) -> None:
        raise NotImplementedError


class BrowserMaze(_BrowserTask):
    """Walk the X through the page's maze to the bottom-right cell with the direction buttons."""

    kind = "maze"
    template = _PREAMBLE + " Then navigate the X to the bottom-right cell, by using the direction buttons."

    def play(self, env: TaskEnv) -> None:
        elements = _elements(env)
        for button in chrome.maze_solution(self.page_seed):
            _tap(env, *_centre(elements, _named(button)))

    def gui_reference(self) -> list[Step]:
        return open_task_page() + [tap(move) for move in chrome.maze_solution(self.params["browser_task_seed"])]


class BrowserMultiply(_BrowserTask):
    """Press the button five times, remember the numbers shown, and submit their product."""

    kind = "multiply"
    complexity = 2.2  # AndroidWorld's
    template = (_PREAMBLE + " Then click the button 5 times, remember the numbers displayed, and enter their "
                "product in the form.")

    def play(self, env: TaskEnv) -> None:
        for _ in range(chrome.NUMBER_COUNT):
            _tap(env, *_centre(_elements(env), _named("Next")))
        _tap(env, *_centre(_elements(env), lambda e: e.is_editable))
        env.device.check(shell_join(["input", "text", str(chrome.product(self.page_seed))]))
        _tap(env, *_centre(_elements(env), _named("Submit")))

    def gui_reference(self) -> list[Step]:
        product = chrome.product(self.params["browser_task_seed"])
        return open_task_page() + [tap("Next")] * chrome.NUMBER_COUNT + [type_text("Product", str(product)), tap("Submit")]


class BrowserDraw(_BrowserTask):
    """Draw on the page's canvas with each of the three colours it shows, then submit."""

    kind = "draw"
    template = (_PREAMBLE + " Then create a drawing using the three colors shown at the top and hit submit.")

    def play(self, env: TaskEnv) -> None:
        elements = _elements(env)
        canvas = next(e for e in elements if e.content_description == chrome.CANVAS_LABEL and e.bbox is not None)
        box = canvas.bbox
        for index, colour in enumerate(chrome.target_colours(self.page_seed)):
            _tap(env, *_centre(elements, _named(chrome.COLOUR_NAMES[colour])))
            y = box.y_min + box.height * (index + 1) // (chrome.TARGET_COUNT + 1)
            env.device.check(shell_join(["input", "swipe", str(box.x_min + box.width // 5), str(y),
                                         str(box.x_max - box.width // 5), str(y), "300"]))
        _tap(env, *_centre(elements, _named("Submit")))

    def gui_reference(self) -> list[Step]:
        steps = open_task_page()
        for colour, direction in zip(chrome.target_colours(self.params["browser_task_seed"]), ("right", "down", "left")):
            steps += [tap(chrome.COLOUR_NAMES[colour]), swipe(chrome.CANVAS_LABEL, direction)]
        return steps + [tap("Submit")]


# B-MoCA's tasks on this app (apps/chrome/bmoca.py) register with this module.
from taskkit.apps.chrome import bmoca  # noqa: E402,F401
