"""What a ladder does at a level: the base of the per-app kinds (kinds.py).

A kind draws every param its top level uses in one fixed order, so the same seed gives L1, L2
and L3 the same values and each level keeps the params of those below (L1 ⊂ L2 ⊂ L3). An instance
is one level of one language: it sets the device up, builds the state check, solves through
device commands and gives the GUI reference.
"""
from __future__ import annotations

from typing import Any, ClassVar, Sequence

from taskkit.env import TaskEnv
from taskkit.gui_reference import Step
from taskkit.rng import TaskRng
from taskkit.validators import Validator

NOISE_SEED = {"type": "integer", "minimum": 0}
TEXT = {"type": "string", "minLength": 1}
PHONE = {"type": "string", "pattern": r"^\+?[0-9]{7,15}$"}


class Kind:
    """One ladder's behaviour; subclasses name their app and params and implement the five parts."""

    app_names: ClassVar[tuple[str, ...]] = ()
    #: The app's tag (default: its name, spaces as underscores).
    tag: ClassVar[str] = ""
    #: The params each level adds (L1's, L2's, L3's), each a key of `properties`.
    adds: ClassVar[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = ((), (), ())
    #: Each param's JSON schema.
    properties: ClassVar[dict[str, dict[str, Any]]] = {}

    def __init__(self, params: dict[str, Any], level: int, chinese: bool):
        self.p, self.level, self.chinese = params, level, chinese

    @classmethod
    def names(cls, level: int) -> tuple[str, ...]:
        """The params of `level` (its own and those of the levels below)."""
        return tuple(name for added in cls.adds[:level] for name in added)

    @classmethod
    def schema(cls, level: int) -> dict[str, Any]:
        names = cls.names(level)
        return {"type": "object", "properties": {name: cls.properties[name] for name in names},
                "required": list(names), "additionalProperties": False}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        """Every param of L3, drawn in one fixed order (a level keeps its own: `names`)."""
        raise NotImplementedError

    def at(self, level: int) -> bool:
        """Whether this task's level includes level `level`'s part."""
        return self.level >= level

    def setup(self, env: TaskEnv) -> None:
        """The start state (the app's data already reset by the task)."""

    def extra_paths(self) -> tuple[str, ...]:
        """Paths outside the apps' data the episode writes (saved and restored with them)."""
        return ()

    def teardown(self, env: TaskEnv) -> None:
        """Undo what the app's restore does not cover."""

    def check(self) -> Validator:
        """The device state the level asks for (SPA's MLLM check's stand-in)."""
        raise NotImplementedError

    def solve(self, env: TaskEnv) -> None:
        """The reference solution: the state written by device commands, then the screen SPA's
        key components are read from opened."""
        raise NotImplementedError

    def steps(self) -> Sequence[Step]:
        """The GUI reference."""
        raise NotImplementedError
