"""`Env`: what a task and an agent share during one episode; `TaskEnv`, the type tasks take."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from taskkit.device.base import Device

if TYPE_CHECKING:
    from taskkit.validators.detectors import ScreenLog


class TaskEnv(Protocol):
    """What a task's methods, validators and reference solutions may use of an episode's
    environment: the device and the agent's answer. `Env` is the one taskkit builds; an
    adapter (AndroidWorld's `env`, a test double) serves if it has the same members."""

    device: Device
    interaction_cache: str
    scratch_dir: str | None
    undo_elsewhere: bool

    @property
    def answer(self) -> str: ...

    def submit_answer(self, text: str) -> None: ...

    def new_episode(self) -> None: ...


class Env:
    """The device under test plus the agent's answer channel.

    `interaction_cache` keeps AndroidWorld's name for the text an agent answers with (the
    `answer` action); information-retrieval tasks score it.
    """

    def __init__(self, device: Device):
        self.device = device
        self.interaction_cache = ""
        #: A device directory for this episode's scratch files (snapshots); the task sets it.
        self.scratch_dir: str | None = None
        #: Whether an episode's restore also undoes what it wrote outside its task's own data (on
        #: the simulated device, which journals those writes). `taskkit.check` turns it off to see
        #: what a teardown would leave behind on a phone.
        self.undo_elsewhere = True
        #: The screens this episode showed, for checks that read them (SPA's key components);
        #: None: nothing kept. The runner and taskkit.gym set it after the task's set-up.
        self.screens: ScreenLog | None = None

    @property
    def answer(self) -> str:
        return self.interaction_cache

    def submit_answer(self, text: str) -> None:
        self.interaction_cache = text

    def new_episode(self) -> None:
        self.interaction_cache = ""
        self.screens = None
