"""`Env`: what a task and an agent share during one episode."""
from __future__ import annotations

from taskkit.device.base import Device


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

    @property
    def answer(self) -> str:
        return self.interaction_cache

    def submit_answer(self, text: str) -> None:
        self.interaction_cache = text

    def new_episode(self) -> None:
        self.interaction_cache = ""
