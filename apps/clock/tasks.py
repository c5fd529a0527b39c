"""Clock tasks (AndroidWorld's ClockTimerEntry, ClockStopWatchRunning, ClockStopWatchPausedVerify).

As in AndroidWorld, the checks read the Clock's screen (`clock.screen_state`): the keypad's entry
and the stopwatch's state exist only there. Each task clears the Clock's data first (the
stopwatch back at zero and paused, the app closed), as AndroidWorld does.
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import clock
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, tap
from taskkit.rng import TaskRng
from taskkit.task import TaskEval

_APP = ("clock",)


def _tap(env: TaskEnv, match) -> None:
    """Tap the first element of the screen that `match` accepts."""
    element = next(e for e in env.device.ui.screen().elements if match(e))
    x, y = element.bbox.center
    env.device.check(f"input tap {x} {y}")


def _open_tab(env: TaskEnv, tab: str) -> None:
    clock.APP.launch(env.device)
    _tap(env, lambda e: e.content_description == tab and e.is_clickable)


class _ClockTask(TaskEval, register=False):
    app_names = _APP
    abstract = True

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        clock.reset(env.device)

    def teardown(self, env: TaskEnv) -> None:
        super().teardown(env)
        clock.reset(env.device)


class ClockTimerEntry(_ClockTask):
    """Enter a timer's length on the keypad without starting it."""

    complexity = 1  # AndroidWorld's
    template = ("Create a timer with {{ hours }} hours, {{ minutes }} minutes, and {{ seconds }} seconds. "
                "Do not start the timer.")
    schema = {"type": "object", "properties": {
        "hours": {"type": "integer", "minimum": 0, "maximum": 23},
        "minutes": {"type": "integer", "minimum": 0, "maximum": 59},
        "seconds": {"type": "integer", "minimum": 0, "maximum": 59},
    }, "required": ["hours", "minutes", "seconds"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"hours": rng.randint(0, 23), "minutes": rng.randint(0, 59), "seconds": rng.randint(1, 59)}

    def is_successful(self, env: TaskEnv) -> float:
        """The Clock is in front with the keypad showing exactly this time (a started timer
        shows a countdown instead)."""
        super().is_successful(env)
        shown = clock.screen_state(env.device).timer_setup
        wanted = (self.params["hours"], self.params["minutes"], self.params["seconds"])
        return 1.0 if shown is not None and clock.parse_timer_text(shown) == wanted else 0.0

    def solve(self, env: TaskEnv) -> None:
        _open_tab(env, "Timer")
        for digit in clock.keypad_digits(self.params["hours"], self.params["minutes"], self.params["seconds"]):
            _tap(env, lambda e, d=digit: (e.resource_name or "").endswith(f":id/timer_setup_digit_{d}"))

    def gui_reference(self) -> list[Step]:
        digits = clock.keypad_digits(self.params["hours"], self.params["minutes"], self.params["seconds"])
        return [open_app("clock"), tap("Timer")] + [tap(f"timer_setup_digit_{digit}") for digit in digits]


class _StopwatchTask(_ClockTask):
    """A stopwatch state read from the screen (`state` names a `ScreenState` field); the reference
    opens the Stopwatch tab and taps `press`, if any."""

    abstract = True
    complexity = 1  # AndroidWorld's
    state = ""
    press: str | None = None

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        return 1.0 if getattr(clock.screen_state(env.device), self.state) else 0.0

    def solve(self, env: TaskEnv) -> None:
        _open_tab(env, "Stopwatch")
        if self.press:
            _tap(env, lambda e: e.content_description == self.press)

    def gui_reference(self) -> list[Step]:
        return [open_app("clock"), tap("Stopwatch")] + ([tap(self.press)] if self.press else [])


class ClockStopWatchRunning(_StopwatchTask):
    """Start the stopwatch: it runs (Pause and Lap on the Stopwatch tab)."""

    template = "Run the stopwatch."
    tags = ("clock",)  # AndroidWorld publishes none
    state = "stopwatch_running"
    press = "Start"


class ClockStopWatchPausedVerify(_StopwatchTask):
    """The stopwatch is already paused at zero: show it paused (AndroidWorld's "verify" task)."""

    template = "Pause the stopwatch."
    state = "stopwatch_paused"
