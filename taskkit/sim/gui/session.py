"""One command's view of the GUI: the device state, the display metrics, the GUI store, and the
navigation every screen uses (push, replace, finish, back, home, launch), focus, drafts and
scroll offsets.

The window stack of each app is reconciled with the activity manager's task stack (taskkit/sim/
commands/activity.py) whenever it is read: a new task (after a force-stop) starts the app over
at the screen of its activity; an activity started from outside (`am start`, `monkey`, the
launcher) pops back to its screen or opens it on top; an intent `am start` delivered opens what
the app opens for it. Navigating inside an app brings the activity of the new top screen to the
front, so `dumpsys activity` and the screen agree.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Mapping

from taskkit.sim.commands.activity import foreground_component, launcher_intent, log_start, set_foreground, start_home
from taskkit.sim.commands.settings import all_settings, put_setting
from taskkit.device.reference import SCREEN_DENSITY
from taskkit.sim.commands.system import display_size
from taskkit.sim.gui import cache
from taskkit.sim.gui.app import APPS, AppScreens, Frame, Intent, Opening
from taskkit.sim.gui.layout import Metrics
from taskkit.sim.gui.store import Store
from taskkit.device.catalog import LAUNCHER, get as get_package, split_component
from taskkit.sim.state import SimState


class Session:
    """The GUI of one device for the length of one command; `save()` writes what changed."""

    def __init__(self, state: SimState):
        self.state = state
        self.store = Store(state)
        self._settings: Mapping[str, Mapping[str, str | None]] = {}
        # whether the screen being built is to be drawn (a screenshot): what only a drawing
        # shows, a custom view's paint, may be left out of one that is only dumped or touched
        self.drawing = False

    @functools.cached_property
    def m(self) -> Metrics:
        """The display's metrics: its size and density (`wm density` forces one in the secure
        settings), read when first needed (a key press going home measures nothing)."""
        forced = self.setting("secure", "display_density_forced")
        density = int(forced) if forced and forced.isdigit() and int(forced) > 0 else SCREEN_DENSITY
        return Metrics(*display_size(self.state), density)

    # --- settings (read once per command) ----------------------------------------------------
    def setting(self, namespace: str, key: str) -> str | None:
        return self.settings()[namespace].get(key)

    def settings(self) -> Mapping[str, Mapping[str, str | None]]:
        """Every namespace's settings (read over one connection, kept while the database holds
        them: taskkit/sim/gui/cache.py); never changed in place."""
        if not self._settings:
            self._settings = cache.remember(self.state, "settings", lambda: all_settings(self.state))
        return self._settings

    def inputs(self) -> tuple[Any, ...]:
        """What a screen is built from besides the files it reads: the GUI store, device.json's
        config and the settings (the key of a kept screen: taskkit/sim/gui/cache.py)."""
        return self.store.data, self.state.config, cache.Same(self.settings())

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        put_setting(self.state, namespace, key, value)
        self._settings = {}

    @property
    def locale(self) -> str:
        """The system locale (`persist.sys.locale`, as the framework reads it at start)."""
        return str(self.state.config.get("props", {}).get("persist.sys.locale") or "en-US")

    @property
    def font_scale(self) -> float:
        """`settings get system font_scale` (1.0 when unset or unreadable)."""
        try:
            return float(self.setting("system", "font_scale") or 1.0)
        except ValueError:
            return 1.0

    @property
    def dark(self) -> bool:
        """The system Dark theme is on (`secure ui_night_mode` 2)."""
        return self.setting("secure", "ui_night_mode") == "2"

    # --- the window stacks ------------------------------------------------------------------
    def foreground(self) -> tuple[str, str]:
        """(package, full activity class) in front."""
        component = foreground_component(self.state) or LAUNCHER.launch_component or ""
        return split_component(component)

    def _task(self, package: str) -> dict[str, Any] | None:
        return next((t for t in self.state.config.get("tasks", []) if t.get("package") == package), None)

    def frames(self, package: str) -> list[Frame]:
        """The window stack of `package` (bottom first), reconciled with its task."""
        app = APPS.get(package)
        if app is None:
            return []
        task = self._task(package)
        component = task["component"] if task else f"{package}/{app.launch_activity}"
        activity = split_component(component)[1]
        task_id = int(task["id"]) if task else 0
        record = self.store.data["apps"].get(package)
        stored = _stored_frames(record, app)
        intent, seq = self._fresh_intent(package, task_id, component, record if stored is not None else None)
        if stored is None or record.get("task") != task_id:
            self.store.forget_frames({f.id for f in stored or []})
            frames = self._new_frames(app, app.open(activity, intent))
        else:
            frames = stored
            if intent is not None or not frames or frames[-1].activity != activity:
                frames = self._reopen(app, frames, app.open(activity, intent))
        self._store_frames(package, task_id, frames, seq)
        if task is not None and frames and frames[-1].activity != activity:
            set_foreground(self.state, f"{package}/{frames[-1].activity}")  # an intent opened more
        return frames

    def _fresh_intent(self, package: str, task_id: int, component: str,
                      record: dict[str, Any] | None) -> tuple[Intent | None, int]:
        delivered = self.store.data["intents"].get(package)
        seen = int(record.get("intent", 0)) if record and record.get("task") == task_id else 0
        if not isinstance(delivered, dict) or not isinstance(delivered.get("seq"), int) \
                or delivered["seq"] <= seen or delivered.get("task") != task_id \
                or delivered.get("component") != component:
            return None, seen
        intent = Intent(delivered.get("action"), delivered.get("data"), delivered.get("type"),
                        dict(delivered.get("extras") or {}))
        return intent, int(delivered["seq"])

    def _new_frames(self, app: AppScreens, openings: list[Opening]) -> list[Frame]:
        frames = []
        for opening in openings:
            frame = Frame(self.store.new_id(), opening.screen, dict(opening.args),
                          app.full_class(opening.activity) if opening.activity else app.activity_of(opening.screen))
            frames.append(frame)
            if opening.focus:
                self.store.data["focus"] = frame.key(opening.focus)
            for name, text in opening.drafts.items():
                self.set_draft(frame, name, text)
        return frames

    def _reopen(self, app: AppScreens, frames: list[Frame], openings: list[Opening]) -> list[Frame]:
        """Pop back to the first opening's screen if it is open, then open the rest on top."""
        first = openings[0]
        wanted = app.full_class(first.activity) if first.activity else app.activity_of(first.screen)
        found = [i for i, f in enumerate(frames) if f.screen == first.screen and f.activity == wanted
                 and (not first.args or f.args == dict(first.args))]
        if found:
            self.store.forget_frames({f.id for f in frames[found[-1] + 1:]})
            return frames[:found[-1] + 1] + self._new_frames(app, openings[1:])
        return frames + self._new_frames(app, openings)

    def _store_frames(self, package: str, task_id: int, frames: list[Frame], seq: int) -> None:
        frames_json = [f.as_json() for f in frames]
        self.store.data["apps"][package] = {"frames": frames_json, "intent": seq, "task": task_id}  # gui.json's order

    def top(self) -> tuple[str, AppScreens | None, Frame | None]:
        """(package in front, its screens if modeled, its top frame)."""
        package, _ = self.foreground()
        frames = self.frames(package)
        return package, APPS.get(package), (frames[-1] if frames else None)

    def _set_frames(self, package: str, frames: list[Frame]) -> None:
        """Replace the stack of `package` (in front) and bring its top activity forward."""
        record = self.store.data["apps"][package]
        record["frames"] = [f.as_json() for f in frames]
        _, activity = self.foreground()
        if frames and frames[-1].activity != activity:
            set_foreground(self.state, f"{package}/{frames[-1].activity}")

    # --- navigation -------------------------------------------------------------------------
    def push(self, screen: str, focus: str | None = None, drafts: Mapping[str, str] | None = None,
             **args: Any) -> None:
        """Open `screen` of the app in front on top of its stack, its fields holding `drafts`
        (a dialog's suggested name, an editor's text)."""
        package, app, _ = self.top()
        assert app is not None, f"{package} has no modeled screens"
        opening = Opening(screen, args, focus, drafts=drafts or {})
        self._set_frames(package, self.frames(package) + self._new_frames(app, [opening]))

    def replace(self, screen: str, focus: str | None = None, **args: Any) -> None:
        """Close the top screen and open `screen` in its place (an activity that starts another
        and finishes itself)."""
        package, app, _ = self.top()
        assert app is not None, f"{package} has no modeled screens"
        frames = self.frames(package)
        self.store.forget_frames({frames[-1].id})
        self._set_frames(package, frames[:-1] + self._new_frames(app, [Opening(screen, args, focus)]))

    def finish(self) -> None:
        """Close the top screen; closing an app's last screen shows the home screen (Android 12+
        moves the task to the back, its screens stay)."""
        package, _, _ = self.top()
        self._leave(package)
        frames = self.frames(package)
        if len(frames) > 1:
            self.store.forget_frames({frames[-1].id})
            self._set_frames(package, frames[:-1])
        elif package != LAUNCHER.name:
            self.store.data["focus"] = None
            set_foreground(self.state, LAUNCHER.launch_component or "")  # the task moves back: no start

    def _leave(self, package: str) -> None:
        """Run the `on_leave` of the top screen of `package` (if it has one)."""
        app, frames = APPS.get(package), self.frames(package)
        if app is not None and frames:
            hook = app.screens[frames[-1].screen].on_leave
            if hook is not None:
                hook(self, frames[-1])

    def back(self) -> None:
        """KEYCODE_BACK: close the shade, else the top screen."""
        if self.shade_open:
            self.set_shade(False)
        else:
            self.finish()

    def home(self) -> None:
        """KEYCODE_HOME: close the shade and show the launcher's home screen."""
        self.set_shade(False)
        self._leave(self.foreground()[0])
        self.store.data["focus"] = None
        start_home(self.state)  # logs the home intent's START line, as KEYCODE_HOME does
        launcher = APPS.get(LAUNCHER.name)
        if launcher is not None:
            frames = self.frames(LAUNCHER.name)
            if len(frames) > 1 or (frames and frames[0].screen != launcher.first):
                self.store.forget_frames({f.id for f in frames})
                self._set_frames(LAUNCHER.name, self._new_frames(launcher, [Opening(launcher.first)]))

    def launch(self, package: str) -> None:
        """Start `package` as its launcher icon does: its task comes back as it was, or starts."""
        self.set_shade(False)
        task = self._task(package)
        info = get_package(package)
        component = task["component"] if task else (info.launch_component if info else None)
        if component:
            if info is not None and info.launch_activity:  # the icon's START line, even for a task resumed
                log_start(self.state, launcher_intent(info), info.name, info.full_class(info.launch_activity),
                          LAUNCHER.uid)
            set_foreground(self.state, component)

    # --- the shade ----------------------------------------------------------------------------
    @property
    def shade_open(self) -> bool:
        return bool(self.store.data.get("shade"))

    def set_shade(self, open_: bool) -> None:
        self.store.data["shade"] = open_

    # --- text fields, focus, scrolling ---------------------------------------------------------
    def draft(self, frame: Frame, name: str, default: str = "") -> str:
        return self.store.data["drafts"].get(frame.key(name), default)

    def set_draft(self, frame: Frame, name: str, text: str) -> None:
        self.store.data["drafts"][frame.key(name)] = text

    def is_focused(self, frame: Frame, name: str) -> bool:
        return self.store.data.get("focus") == frame.key(name)

    def focus(self, frame: Frame, name: str | None) -> None:
        """Focus the field `name` (None: no field); a tap puts the cursor at the end of its text."""
        self.store.data["focus"] = frame.key(name) if name else None
        if name:
            self.set_cursor(frame.key(name), 0)

    def cursor(self, key: str) -> int:
        """Where the cursor of the field `key` is: how many characters follow it (0: at the end)."""
        return int(self.store.data["cursor"].get(key, 0))

    def set_cursor(self, key: str, after: int) -> None:
        """Put the cursor of the field `key` before its last `after` characters."""
        if after > 0:
            self.store.data["cursor"][key] = after
        else:
            self.store.data["cursor"].pop(key, None)

    def select_all(self, key: str) -> None:
        """Select the whole text of the field `key` (the cursor, the selection's end, at the end)."""
        self.store.data["selected"] = key
        self.set_cursor(key, 0)

    @property
    def focused_key(self) -> str | None:
        return self.store.data.get("focus")

    def type_into(self, key: str, edit: Callable[[str], str]) -> None:
        """Apply `edit(old) -> new` to the text before the cursor of the draft stored under `key`
        (the text after the cursor stays after it)."""
        drafts = self.store.data["drafts"]
        old = drafts.get(key, "")
        split = len(old) - min(self.cursor(key), len(old))
        drafts[key] = edit(old[:split]) + old[split:]

    def scroll(self, frame: Frame, name: str) -> int | None:
        value = self.store.data["scroll"].get(frame.key(name))
        return None if value is None else int(value)

    def set_scroll(self, frame: Frame, name: str, offset: int) -> None:
        self.store.data["scroll"][frame.key(name)] = int(offset)

    # --- persistence ----------------------------------------------------------------------------
    def save(self) -> None:
        """Forget the stacks of apps that no longer have a task and the intents delivered to a
        task that is gone (a task's id is never used again: no later task takes them), then
        write what changed."""
        tasks = {t.get("package"): t.get("id") for t in self.state.config.get("tasks", [])}
        data = self.store.data
        for package in [p for p in data["apps"] if p not in tasks]:
            old = data["apps"].pop(package)
            app = APPS.get(package)
            self.store.forget_frames({f.id for f in (_stored_frames(old, app) if app else None) or []})
        intents = data["intents"]
        gone = [p for p, intent in intents.items()
                if p not in tasks or not isinstance(intent, dict) or str(intent.get("task")) != str(tasks[p])]
        for package in gone:
            del intents[package]
        self.store.save()


def _stored_frames(record: Any, app: AppScreens) -> list[Frame] | None:
    """The frames of a stored record whose screens the app still has; None if it is unusable."""
    try:
        return [f for f in map(Frame.from_json, record["frames"]) if f.screen in app.screens]
    except (KeyError, TypeError, ValueError):
        return None
