"""Reading a recorded trajectory (written by `taskkit.trajectory`): its steps, in order, each
with the action taken and the digest of the screen it was taken on."""
from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from taskkit.agents.base import Action

if TYPE_CHECKING:
    from taskkit.device.services.ui import UIElement

#: The folder of an output directory that holds one `<instance_id>.jsonl` per episode.
DIRECTORY = "trajectories"


def elements_digest(elements: list[dict[str, Any]]) -> str:
    """A short sha256 of the elements (as `UIElement.as_dict()`), to see at a glance whether two
    screens are the same."""
    return hashlib.sha256(json.dumps(elements, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def screen_digest(elements: Sequence[UIElement]) -> str:
    """`elements_digest` of the elements' `as_dict()`, from each element's kept JSON: the list's
    JSON is its items' joined by ", " (json.dumps' default separator)."""
    text = "[" + ", ".join(element.digest_text for element in elements) + "]"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclasses.dataclass(frozen=True)
class RecordedStep:
    """One step of a trajectory: the action, and the digest of the elements it was chosen on
    (None in a file that does not record one)."""

    action: Action
    elements_digest: str | None


def read_steps(path: str | Path) -> Iterator[RecordedStep]:
    """The steps of a trajectory file that hold an action, in order."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if record.get("action") is not None:
                    yield RecordedStep(Action.from_dict(record["action"]), record.get("elements_digest"))
            except (json.JSONDecodeError, ValueError, TypeError, AttributeError) as error:
                raise ValueError(f"{path}:{number}: not a trajectory step: {error}") from None
