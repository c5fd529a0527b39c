"""The base of B-MoCA's one-screen tasks on Chrome, Contacts, Files, Camera and the Phone: open
the app and tap a few controls, judged by B-MoCA's detector (a logcat line or a UI element;
its Appendix B.1 tables) and by the device state where the task leaves some.

B-MoCA's instruction is the template, its step limit the budget (complexity = limit / 10), and
`optimal_steps` the GUI reference's action count. Most of these detectors read a line an app or
a service logs when a screen opens, so `solve` drives the screens with `input tap`, as the
Settings tasks do (apps/settings/bmoca.py), after opening the app with `monkey -p` (the
launcher's intent), finding each control as the GUI reference does under the device's locale
(its English label or its translation, `gui_reference.localized`) and scrolling the list as the
GUI reference scrolls it, so a solve holds under every device config. Every task starts with
its app closed (TaskEval's setup force-stops every running app), so opening it starts its
process and creates its activity.
"""
from __future__ import annotations

from typing import Any, ClassVar

from taskkit import metadata
from taskkit.device.base import Device
from taskkit.device.gestures import swipe_command
from taskkit.device.services.ui import BoundingBox
from taskkit.env import TaskEnv
from taskkit.errors import TaskkitError
from taskkit.gui_reference import Locator, Step, Target, clear_point, localized, open_app, tap
from taskkit.task import TaskEval
from taskkit.validators import all_of, logcat_matches
from taskkit.validators.base import Validator

_SCROLLS = 6  # a target not in view is looked for by scrolling the list this many times at most


def _scroll_down(screen: Any, bmoca: bool = True) -> str:
    """The GUI reference's look further down the screen's last list (or the whole screen): on a
    B-MoCA task B-MoCA's quick stroke up across its middle 60 % (taskkit.agents.gui_reference.
    swipes_for); on another family's, an agent's scroll."""
    boxes = [e.bbox for e in screen.elements if e.is_scrollable]
    box = boxes[-1] if boxes else BoundingBox(0, 0, *screen.size)
    return swipe_command(box, "up", towards=True) if bmoca else swipe_command(box, "down")


def _on_device(device: Device, target: Target) -> Locator:
    """`target` as the device's screens show it: its English labels also found in the device's
    locale (`gui_reference.localized`, the translation table the simulated screens draw from), as
    the GUI reference finds them; resource ids as they are."""
    return localized([tap(target)], device.props.get("persist.sys.locale") or None)[0].target


def find_and_tap(device: Device, target: Target, fraction: float | None = None) -> None:
    """Tap `target`, found on the live screen as the GUI reference finds it under the device's
    locale (scrolling the list to find it), where the GUI reference taps it (`clear_point`: its
    centre unless a control is drawn over it) or, for a slider, `fraction` of the way along it."""
    found_by = _on_device(device, target)
    for _ in range(_SCROLLS):
        screen = device.ui.screen()
        elements = screen.elements
        found = found_by.indices(elements)
        point = clear_point(elements, found[-1]) if found else None
        if point is not None:
            break
        device.check(_scroll_down(screen))
    else:
        raise TaskkitError(f"{target!r} is not on the screen")
    box = elements[found[-1]].bbox
    x, y = point if fraction is None else (round(box.x_min + fraction * (box.x_max - box.x_min)), box.center[1])
    device.check(f"input tap {x} {y}")


def reveal(device: Device, texts: list[str]) -> bool:
    """Scroll the screen's list down (as `find_and_tap` does) until its text holds every one of
    `texts` as SPA's key components read it (case and spaces ignored); whether they all showed
    (if not, the list is left where it is)."""
    wanted = ["".join(t.lower().split()) for t in texts]
    for _ in range(_SCROLLS):
        screen = device.ui.screen()
        shown = "".join(f"{e.text or ''}{e.content_description or ''}" for e in screen.elements)
        folded = "".join(shown.lower().split())
        if all(w in folded for w in wanted):
            return True
        device.check(_scroll_down(screen, bmoca=False))
    return False


def tap_through(device: Device, package: str, targets: list[Target]) -> None:
    """Open `package` as its launcher icon does (`monkey -p`) and tap each target in turn."""
    device.check(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    for target in targets:
        find_and_tap(device, target)


class BmocaAppTask(TaskEval, register=False):
    """One of B-MoCA's tasks on one app: open `app` (its AndroidWorld name), tap `TAPS`; pass when
    `detector()` (B-MoCA's: by default its logcat detector `LOGCAT`, (Tag:Level, regex)) and
    `state()` (None: no state to read) both hold."""

    abstract = True
    step_limit: ClassVar[int] = 10
    package: ClassVar[str]
    TAPS: ClassVar[tuple[Target, ...]] = ()
    LOGCAT: ClassVar[tuple[str, str]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        cls.complexity, cls.difficulty = metadata.from_step_limit(cls.step_limit)
        if "optimal_steps" not in cls.__dict__:
            cls.optimal_steps = 1 + len(cls.TAPS)
        super().__init_subclass__(**kwargs)

    def taps(self) -> list[Target]:
        """What to tap once the app is open."""
        return list(self.TAPS)

    def prepare(self, env: TaskEnv) -> None:
        """Put the device in the task's start state (after the apps were closed)."""

    def detector(self) -> Validator:
        return logcat_matches(*self.LOGCAT)

    def state(self) -> Validator | None:
        return None

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        self.prepare(env)

    def validator(self) -> Validator:
        state = self.state()
        return self.detector() if state is None else all_of(state, self.detector())

    def solve(self, env: TaskEnv) -> None:
        tap_through(env.device, self.package, self.taps())

    def gui_reference(self) -> list[Step]:
        return [open_app(self.app_names[0])] + [tap(target) for target in self.taps()]
