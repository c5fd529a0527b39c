"""The apps' published phone screenshots, paired with the simulated screens that show the same
thing: the manifest (taskkit/fidelity/published.json), read and checked, and the simulated device
brought to each screen with the screenshot's data.

Each entry of the manifest names a screenshot file of an app (in the folder the app publishes at
the tag its model follows: the model's `SOURCE`), the screen it shows, the part of the picture
that is the phone's screen (`crop`, when the picture frames it), which system bars that part
shows (`bars`: both, status or none), the density the simulated screen is laid out at, how the
device is set up (`setup`: shell commands, calls of taskkit.apps helpers, table rows, files of the
app's checkout, pictures; or the name of a set-up under `setups`, shared by the screens of one data set) and the GUI-reference steps that reach the screen from the home screen
(`steps`: `["tap", "Songs"]`; a locator is a label, or `{"id": NAME}`, `{"text": T}`,
`{"description": D}`, `{"contains": T}`). `unstated` says which of the screenshot's data could
not be stated.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import io
import json
import posixpath
import re
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from taskkit import gui_reference
from taskkit.actions import ActionError, perform
from taskkit.agents.base import Action, Episode
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.device import catalog
from taskkit.device.base import Device
from taskkit.env import Env
from taskkit.errors import TaskkitError
from taskkit.runner import observe
from taskkit.sim.gui.layout import Metrics
from taskkit.sim.gui.source import Source

MANIFEST = Path(__file__).with_name("published.json")
BARS = ("both", "status", "none")
STEP_ACTIONS = ("open_app", "tap", "long_press", "type_text", "swipe", "enter", "back", "home", "wait")
_LOCATORS: dict[str, Callable[[str], gui_reference.Locator]] = {
    "id": gui_reference.resource_id, "text": gui_reference.text, "description": gui_reference.description,
    "contains": gui_reference.contains}
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\.(?:png|jpe?g|webp)")
MAX_STEPS = 40  # actions (scrolls included) a screen's steps may take


class ManifestError(TaskkitError, ValueError):
    """An entry of the manifest is malformed: names an unknown app, helper, table or step."""


class StepsFailed(TaskkitError, RuntimeError):
    """The steps did not reach the screen on the simulated device."""


@dataclasses.dataclass(frozen=True)
class PublishingApp:
    """Where an app publishes its phone screenshots at the tag its model follows."""

    key: str  # the model's module under taskkit.sim.gui.apps
    source: Source
    package: str
    path: str | None  # the folder in the repository; None: the app publishes none
    none: str = ""  # why there are none
    shot: str = ""  # the commit that last changed the screenshots before the tag, and its date
    extra: tuple[str, ...] = ()  # other paths of the checkout the set-ups read (`push`)

    def fetch_hint(self, root: str = "DIR") -> str:
        """Where the screenshots (and the files the set-ups read) come from and where the command
        looks for them."""
        paths = " ".join((self.path or "", *self.extra))
        return f"{self.source.repo}@{self.source.tag}:{paths} -> {root}/{self.source.folder}/"

    @property
    def label(self) -> str:
        """The app's name as the launcher shows it."""
        info = catalog.get(self.package)
        return info.label if info else self.package


@dataclasses.dataclass(frozen=True)
class Pairing:
    """One published screenshot and how the simulated device shows the same screen."""

    app: PublishingApp
    file: str
    screen: str
    steps: tuple[gui_reference.Step, ...]
    setup: tuple[dict[str, Any], ...] = ()
    crop: tuple[int, int, int, int] | None = None
    bars: str = "both"
    density: int = 420
    unstated: str = ""

    @property
    def repo_path(self) -> str:
        """The screenshot's path in its repository."""
        return posixpath.join(self.app.path or "", self.file)

    @property
    def cited(self) -> str:
        """`owner/name@tag:path`."""
        return f"{self.app.source.repo}@{self.app.source.tag}:{self.repo_path}"

    def located(self, root: Path) -> Path:
        """Where the screenshot is under the screenshots folder `root`."""
        return root / self.app.source.folder / self.repo_path

    def published(self, root: Path) -> Image.Image:
        """The published picture, cut to the phone's screen."""
        with Image.open(self.located(root)) as picture:
            image = picture.convert("RGB")
        return image.crop(self.crop) if self.crop else image

    def display(self, aspect: float, width: int = 1080) -> tuple[int, int, int, int]:
        """The simulated display (width, height) whose part the screenshot shows has `aspect`
        (height / width), and the rows of it that part spans (top, bottom)."""
        metrics = Metrics(width, width, self.density)
        top = 0 if self.bars != "none" else metrics.status_bar
        cut = 0 if self.bars == "both" else metrics.navigation_bar
        height = round(width * aspect) + top + cut
        return width, height, top, height - cut


def _app(key: str, entry: dict[str, Any]) -> PublishingApp:
    try:
        model = importlib.import_module(f"taskkit.sim.gui.apps.{key}")
        source, package = model.SOURCE, model.PACKAGE
    except (ImportError, AttributeError):
        raise ManifestError(f"app {key!r}: no simulated app model taskkit.sim.gui.apps.{key} with a SOURCE") from None
    return PublishingApp(key, source, package, entry.get("path"), entry.get("none", ""),
                         entry.get("shot", ""), tuple(entry.get("extra", ())))


def _locator(value: Any, where: str) -> gui_reference.Target:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and len(value) == 1:
        (kind, label), = value.items()
        if kind in _LOCATORS and isinstance(label, str):
            return _LOCATORS[kind](label)
    raise ManifestError(f"{where}: a locator is a label or one of {{{', '.join(sorted(_LOCATORS))}: TEXT}}, got {value!r}")


def _step(raw: Any, where: str) -> gui_reference.Step:
    if not isinstance(raw, list) or not raw or raw[0] not in STEP_ACTIONS:
        raise ManifestError(f"{where}: a step is [ACTION, ARGS...] with ACTION one of {', '.join(STEP_ACTIONS)}, got {raw!r}")
    action, *args = raw
    if action in ("tap", "long_press", "type_text", "swipe") and args:
        args[0] = _locator(args[0], where)
    try:
        return getattr(gui_reference, action)(*args)
    except (TypeError, ValueError) as problem:
        raise ManifestError(f"{where}: {raw!r}: {problem}") from None


def _helper(name: str, where: str) -> Callable[..., Any]:
    module, _, function = name.rpartition(".")
    try:
        found = getattr(importlib.import_module(f"taskkit.apps.{module}"), function)
    except (ImportError, AttributeError, ValueError):
        found = None
    if not callable(found):
        raise ManifestError(f"{where}: no helper taskkit.apps.{name}")
    return found


def _table(name: str, where: str) -> Any:
    module, _, table = name.partition(".")
    try:
        return importlib.import_module(f"taskkit.apps.{module}").APP.table(table)
    except (ImportError, AttributeError, KeyError):
        raise ManifestError(f"{where}: no table {name!r} (APP.table of taskkit.apps.<app>)") from None


_SETUP_FORMS = ({"shell"}, {"call"}, {"call", "args"}, {"rows", "values"}, {"push", "to"}, {"pictures"})


def check_setup(action: Any, where: str) -> None:
    """Raise ManifestError unless `action` is one set-up action the device can run."""
    if not isinstance(action, dict) or set(action) not in _SETUP_FORMS:
        raise ManifestError(f"{where}: a set-up action is {{shell}}, {{call[, args]}}, {{rows, values}}, "
                            f"{{push, to}} or {{pictures}}, got {action!r}")
    if "shell" in action and not isinstance(action["shell"], str):
        raise ManifestError(f"{where}: shell takes one command line")
    if "call" in action:
        try:
            inspect.signature(_helper(action["call"], where)).bind(None, **action.get("args", {}))
        except TypeError as problem:
            raise ManifestError(f"{where}: {action['call']}: {problem}") from None
    if "rows" in action:
        table = _table(action["rows"], where)
        unknown = {column for row in action["values"] for column in row if table.column(column) is None}
        if unknown:
            raise ManifestError(f"{where}: table {action['rows']} has no column {', '.join(sorted(unknown))}")
    if "pictures" in action:
        spec = action["pictures"]
        if not (isinstance(spec, dict) and isinstance(spec.get("folder"), str) and isinstance(spec.get("count"), int)):
            raise ManifestError(f"{where}: pictures takes {{folder, count[, colour]}}")


def load(path: Path = MANIFEST) -> tuple[dict[str, PublishingApp], list[Pairing]]:
    """The manifest's apps and pairings, every entry checked (ManifestError names the first bad one)."""
    data = json.loads(path.read_text())
    apps = {key: _app(key, entry) for key, entry in data["apps"].items()}
    pairings, seen = [], set()
    for n, entry in enumerate(data["screens"]):
        where = f"{path.name} screens[{n}] ({entry.get('app')}/{entry.get('file')})"
        app = apps.get(entry.get("app"))
        if app is None or app.path is None:
            raise ManifestError(f"{where}: app must be one of the manifest's apps that publish screenshots")
        if not _FILE_NAME.fullmatch(entry.get("file", "")) or (app.key, entry["file"]) in seen:
            raise ManifestError(f"{where}: file must be a picture's name (.png, .jpg, .jpeg, .webp), once per app")
        seen.add((app.key, entry["file"]))
        if entry.get("bars", "both") not in BARS:
            raise ManifestError(f"{where}: bars must be one of {', '.join(BARS)}")
        crop = entry.get("crop")
        if crop is not None and not (len(crop) == 4 and crop[0] < crop[2] and crop[1] < crop[3]):
            raise ManifestError(f"{where}: crop is [left, top, right, bottom] in the picture's pixels")
        setup = entry.get("setup", [])
        if isinstance(setup, str):  # a named set-up, shared by the screens of one data set
            if setup not in data.get("setups", {}):
                raise ManifestError(f"{where}: no set-up named {setup!r} under setups")
            setup = data["setups"][setup]
        for action in setup:
            check_setup(action, where)
            if "push" in action and (".." in action["push"].split("/")
                                     or not any(action["push"].startswith(f"{extra}/") for extra in app.extra)):
                raise ManifestError(f"{where}: push reads {action['push']!r}, outside the app's extra paths {list(app.extra)}")
        steps = tuple(_step(raw, where) for raw in entry.get("steps", ()))
        pairings.append(Pairing(app, entry["file"], entry["screen"], steps, tuple(setup),
                                tuple(crop) if crop else None, entry.get("bars", "both"),
                                int(entry.get("density", 420)), entry.get("unstated", "")))
    return apps, pairings


def _picture(colour: tuple[int, int, int], n: int) -> bytes:
    """A small JPEG of one colour, a shade lighter for each `n` (neighbouring pictures differ)."""
    shade = tuple(min(255, c + n % 40) for c in colour)
    out = io.BytesIO()
    Image.new("RGB", (64, 48), shade).save(out, "JPEG", quality=70)
    return out.getvalue()


def set_up(device: Device, pairing: Pairing, root: Path) -> None:
    """Run the pairing's set-up on `device` (`root`: the folder of the apps' checkouts)."""
    for action in pairing.setup:
        if "shell" in action:
            device.run(action["shell"])
        elif "call" in action:
            _helper(action["call"], "setup")(device, **action.get("args", {}))
        elif "rows" in action:
            table = _table(action["rows"], "setup")
            table.insert(device, [table.fill(row) for row in action["values"]])
        elif "push" in action:
            device.files.write_bytes(action["to"], (root / pairing.app.source.folder / action["push"]).read_bytes())
        else:
            spec = action["pictures"]
            colour = tuple(spec.get("colour", (120, 144, 156)))
            for n in range(spec["count"]):
                device.files.write_bytes(posixpath.join(spec["folder"], f"IMG_{n:04d}.jpg"), _picture(colour, n))


def reach(device: Device, steps: tuple[gui_reference.Step, ...]) -> None:
    """Play `steps` from the home screen as the GUI-reference agent plays them; StepsFailed if
    a step's target never shows."""
    env = Env(device)
    agent = GuiReferenceAgent()
    agent.reset(Episode("", MAX_STEPS, (), "compare", "compare", 0, steps, None))
    perform(env, Action("navigate_home"))
    error: str | None = None
    for n in range(MAX_STEPS):
        observation = observe(env, agent, "", n, MAX_STEPS, error)
        action = agent.step(observation)
        if action.ends_episode:
            if action.goal_status != "complete":
                raise StepsFailed(agent.problem or "the steps did not finish")
            return
        try:
            perform(env, action, observation.ui_elements, observation.screen_size)
            error = None
        except ActionError as problem:
            error = str(problem)
    raise StepsFailed(f"the steps took more than {MAX_STEPS} actions")
