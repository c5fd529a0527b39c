"""Composite tasks: several existing tasks as weighted sub-goals, with partial reward.

`compose` builds a `TaskEval` class from parts. Each part's params live under its label
(`{{ note.file_name }}` in the goal); `bindings` make one part's param equal another's (the SMS
body is the note's text). The composite initializes the parts in order, scores the weighted
mean of their scores, solves them in order and tears them down in reverse.

`ordered=True` judges the parts as SPA-Bench judges a cross-app task's subtasks (arXiv:2410.15164,
Sec. 5.2 and Appendix E.3): in order, each only if every part before it passed, so the score is
the weight of the passed prefix and a later part never counts once an earlier one failed; the
parts are then one ordered milestone group.
"""
from __future__ import annotations

import sys
import types
from typing import Any, Mapping, Sequence

from taskkit.apps.base import App
from taskkit.env import TaskEnv
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import milestones as milestones_lib
from taskkit.validators.base import CheckResult


class CompositeTask(TaskEval):
    """Base of classes made by `compose`; not registered itself."""

    abstract = True
    parts: tuple[tuple[str, type[TaskEval], float], ...] = ()
    bindings: Mapping[str, str] = {}
    #: Judge the parts in order and stop at the first that fails (SPA-Bench's cross-app way).
    ordered: bool = False

    def __init__(self, params: dict[str, Any] | None = None, *, seed: int | None = None):
        super().__init__(params, seed=seed)
        self.subtasks = [(label, cls(self.params[label]), weight) for label, cls, weight in self.parts]

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        params = {label: part.generate_random_params(rng.child(label)) for label, part, _ in cls.parts}
        for target, source in cls.bindings.items():
            value = _lookup(params, source)
            label, field = target.split(".", 1)
            params[label][field] = value
        return params

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        started = []
        try:
            for label, task, _ in self.subtasks:
                task.initialize_state(env)
                started.append(task)
        except BaseException:
            for task in reversed(started):
                task.teardown(env)
            raise

    def apps(self) -> list[App]:
        """The parts' apps, each once: a part's own (an SPA level's files outside its app's data)
        are saved, restored and watched for side effects as when the part runs alone."""
        return list({app.name: app for _, task, _ in self.subtasks for app in task.apps()}.values())

    def is_successful(self, env: TaskEnv) -> float:
        total = sum(weight for _, _, weight in self.subtasks)
        reasons: list[str] = []
        score = 0.0
        for index, (label, task, weight) in enumerate(self.subtasks):
            part_score = task.is_successful(env)
            if task.last_result is not None:
                reasons += [f"{label}: {reason}" for reason in task.last_result.reasons]
            if self.ordered and part_score < 1.0:
                later = [other for other, _, _ in self.subtasks[index + 1:]]
                reasons += [f"{', '.join(later)}: not judged, {label} failed before"] if later else []
                break
            score += weight * part_score
        self.last_result = CheckResult(score / total, tuple(reasons))
        return self.last_result.score

    def milestones(self) -> tuple[milestones_lib.Group, ...]:
        """The parts' own milestones, named `label.name`; a part that declares none is one
        milestone, its whole check, named by its label (these in one unordered group). Ordered:
        one ordered group, each part's whole check named by its label."""
        if self.ordered:
            return (milestones_lib.ordered(*(milestones_lib.milestone(label, milestones_lib.TaskCheck(task))
                                             for label, task, _ in self.subtasks)),)
        whole = [milestones_lib.milestone(label, milestones_lib.TaskCheck(task))
                 for label, task, _ in self.subtasks if not task.milestones()]
        own = [group for label, task, _ in self.subtasks for group in milestones_lib.prefixed(label, task.milestones())]
        return ((milestones_lib.unordered(*whole),) if whole else ()) + tuple(own)

    def solve(self, env: TaskEnv) -> None:
        for _, task, _ in self.subtasks:
            task.solve(env)

    def gui_reference(self) -> list[Any] | None:
        """The parts' references, one after the other (None if a part has none)."""
        steps: list[Any] = []
        for _, task, _ in self.subtasks:
            part = task.gui_reference()
            if part is None:
                return None
            steps += part
        return steps

    @classmethod
    def has_gui_reference(cls) -> bool:
        return all(part.has_gui_reference() for _, part, _ in cls.parts)

    def teardown(self, env: TaskEnv) -> None:
        try:
            for _, task, _ in reversed(self.subtasks):
                if task.initialized:
                    task.teardown(env)
        finally:
            super().teardown(env)


def _lookup(params: Mapping[str, Any], dotted: str) -> Any:
    value: Any = params
    for part in dotted.split("."):
        value = value[part]
    return value


def compose(
    name: str,
    parts: Sequence[tuple[str, type[TaskEval]] | tuple[str, type[TaskEval], float]],
    template: str,
    *,
    bindings: Mapping[str, str] | None = None,
    complexity: float | None = None,
    tags: Sequence[str] = ("composite",),
    module: str | None = None,
    register: bool = True,
    ordered: bool = False,
    difficulty: str = "",
    optimal_steps: int | None = None,
) -> type[CompositeTask]:
    """A composite task class called `name` made of labelled parts (registered unless told not).

    It belongs to `module`, by default the module that calls `compose`. `ordered`: the parts are
    judged in order, up to the first that fails (see the module's docstring).
    """
    normalized = tuple((p[0], p[1], float(p[2]) if len(p) > 2 else 1.0) for p in parts)  # type: ignore[misc]
    app_names = tuple(dict.fromkeys(app for _, part, _ in normalized for app in part.app_names))
    schema = {
        "type": "object",
        "properties": {label: {"type": "object", **_object_schema(part)} for label, part, _ in normalized},
        "required": [label for label, _, _ in normalized],
        "additionalProperties": False,
    }
    namespace = {
        "name": name,
        "abstract": False,
        "parts": normalized,
        "bindings": dict(bindings or {}),
        "app_names": app_names,
        "template": template,
        "schema": schema,
        "complexity": complexity if complexity is not None else sum(p.complexity for _, p, _ in normalized),
        "tags": tuple(tags),
        "ordered": ordered,
        **({"difficulty": difficulty} if difficulty else {}),
        **({"optimal_steps": optimal_steps} if optimal_steps is not None else {}),
        "__module__": module or sys._getframe(1).f_globals.get("__name__", CompositeTask.__module__),
        "__doc__": f"Composite of {', '.join(p.name for _, p, _ in normalized)}.",
    }
    return types.new_class(name, (CompositeTask,), {"register": register}, lambda ns: ns.update(namespace))


def _object_schema(part: type[TaskEval]) -> dict[str, Any]:
    """The part's own schema minus its top-level `type` (already 'object')."""
    return {k: v for k, v in part.schema.items() if k != "type"}
