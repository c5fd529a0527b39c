"""A tour of the screens the GUI references visit: each built-in task's reference played on the
simulated device, the screen captured (PNG and its visible texts) before every step.

The contact sheet (`contact_sheet`) and the legibility test read it. Identical screens (the same
PNG bytes) are kept once, so the tour is what an agent sees, each screen once.
"""
from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, Callable, Iterator

from taskkit import loading, registry
from taskkit.agents.base import Action, Observation
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.runner import run_episode
from taskkit.sim.device import SimDevice
from taskkit.sim.gui.node import Box, Node, reachable
from taskkit.sim.gui.render import is_clipped, render_png, text_layout
from taskkit.sim.gui.screen import build
from taskkit.sim.gui.session import Session
from taskkit.suite import TaskInstance


OnStep = Callable[[SimDevice, str, dict[str, Any], Observation], None]


@dataclasses.dataclass(frozen=True)
class Shot:
    """One screen as an agent sees it: the screenshot and the dump's texts as drawn (the lines in
    view, without a word an ellipsis cuts or a row a list cuts), with their boxes."""

    task: str
    step: int
    package: str
    png: bytes
    texts: tuple[tuple[str, Box], ...]

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.png).hexdigest()


def capture(device: SimDevice, task: str = "", step: int = 0) -> Shot:
    """The screen of `device` now: its PNG (as `screencap -p` draws it) and the texts its dump shows."""
    ui = Session(device.state)
    view = build(ui, drawn=True)
    ui.save()
    texts = tuple((_drawn(node), node.bounds) for node in reachable(view.window)  # a covered node is not seen
                  if node.shown_text.strip() and node.bounds[2] > node.bounds[0] and node.bounds[3] > node.bounds[1]
                  and not is_clipped(node))
    return Shot(task, step, view.package, render_png(view, ui.m.width, ui.m.height), texts)


def _drawn(node: Node) -> str:
    """The node's text as the screen shows it: the lines drawn, a word an ellipsis cuts left out."""
    lines = text_layout(node, node.shown_text)[1]
    return " ".join(line.rsplit(" ", 1)[0] if line.endswith("\u2026") and " " in line else
                    ("" if line.endswith("\u2026") else line) for line in lines)


class _Watcher(GuiReferenceAgent):
    """The GUI reference, handing the device to `on_step` before each step."""

    def __init__(self, on_step: OnStep, device: SimDevice, task: str, params: dict[str, Any]) -> None:
        super().__init__()
        self.on_step, self.device, self.task, self.task_params = on_step, device, task, params

    def step(self, observation: Observation) -> Action:
        self.on_step(self.device, self.task, self.task_params, observation)
        return super().step(observation)


def referenced_tasks() -> list[str]:
    """The built-in tasks that give a GUI reference and run on the simulated device in its own
    locale (en-US), by name: the screens are compared with the apps' default strings, so a task
    that puts the device in another language (tagged `lang:…`, SPA's Chinese variants) is left out."""
    loading.load_builtin()
    return sorted(cls.name for cls in registry.all_tasks() if cls.has_gui_reference() and not cls.real_device_only
                  and not any(tag.startswith("lang:") for tag in cls.tags))


def walk(on_step: OnStep, tasks: list[str] | None = None, seed: int = 0) -> Iterator[str]:
    """Play the references of `tasks` (default: all) at instance seed `seed` on one fresh simulated
    device, calling `on_step(device, task, params, observation)` before every step; yields each
    task's name once its reference has been played."""
    loading.load_builtin()
    device = sim_device()
    try:
        for name in tasks if tasks is not None else referenced_tasks():
            instance = TaskInstance(registry.get(name), 0, seed)
            run_episode(Env(device), instance, _Watcher(on_step, device, name, instance.params), seed)
            yield name
    finally:
        device.close()


def tour(tasks: list[str] | None = None, seed: int = 0) -> Iterator[Shot]:
    """Every distinct screen the references of `tasks` (default: all) visit at instance seed `seed`,
    in task order then step order."""
    seen: set[str] = set()
    shots: list[Shot] = []
    for _ in walk(lambda device, task, params, observation: shots.append(capture(device, task, observation.step)),
                  tasks, seed):
        for shot in shots:
            if shot.digest not in seen:
                seen.add(shot.digest)
                yield shot
        shots.clear()
