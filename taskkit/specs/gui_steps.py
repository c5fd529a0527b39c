"""A spec's `gui_reference`: validate its `GuiStep` messages and build `taskkit.gui_reference`
steps from them for one instance's params (every string is a template over the params)."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Sequence

from taskkit import gui_reference as gui
from taskkit.specs.errors import SpecRuntimeError
from taskkit.specs.shapes import Shape
from taskkit.specs.steps import render_field
from taskkit.specs.values import PathLookupError, lookup

if TYPE_CHECKING:
    from taskkit.specs.validate import Validator

Scope = dict[str, Shape]
Params = dict[str, Any]
_LOCATOR_FIELDS = ("by", "text", "description", "resource_id", "contains", "class_name")
_TARGETED = {"tap": "", "long_press": "", "type_text": "into", "swipe": "on", "tap_at": "on"}
_FLAGS = ("enter", "back", "home", "wait")


# ----------------------------------------------------------------------------------- validation
def validate(checker: "Validator", step: Any, path: str, scope: Scope) -> None:
    """One `GuiStep`: its `for_each`, then exactly one kind and that kind's fields."""
    scope = checker.for_each_scope(step.for_each, path, scope)
    kind = step.WhichOneof("kind")
    if kind is None:
        checker.problem(path, "empty GUI step: set one of open_app, tap, tap_at, long_press, type_text, swipe, enter, "
                        "back, home, wait, answer")
        return
    field, body = f"{path}.{kind}", getattr(step, kind)
    if kind == "steps":
        if not len(body.step):
            checker.problem(field, "an empty group: give it steps (step { ... } step { ... })")
        for i, inner in enumerate(body.step):
            validate(checker, inner, f"{field}.step[{i}]", scope)
    elif kind == "open_app":
        if not body.strip():
            checker.problem(field, "required: the app's name, e.g. open_app: \"markor\"")
        checker.template(body, field, scope)
    elif kind in _FLAGS and not body:
        checker.problem(field, f"set {kind}: true, or remove the step")
    elif kind in _TARGETED:
        inner = _TARGETED[kind]
        _locator(checker, getattr(body, inner) if inner else body, f"{field}.{inner}" if inner else field, scope)
        if kind == "type_text":
            checker.template(body.text, f"{field}.text", scope)
        if kind == "swipe" and body.direction not in ("up", "down", "left", "right"):
            checker.problem(f"{field}.direction", f"must be up, down, left or right, got {body.direction!r}")
        if kind == "tap_at":
            for axis in ("x", "y"):
                checker.template(getattr(body, axis), f"{field}.{axis}", scope)
    elif kind == "answer":
        source = body.WhichOneof("source")
        if source is None:
            checker.problem(field, "set one of text (a template), read, read_all or count (a locator)")
        elif source == "text":
            checker.template(body.text, f"{field}.text", scope)
        else:
            _locator(checker, getattr(body, source), f"{field}.{source}", scope)


def _locator(checker: "Validator", msg: Any, path: str, scope: Scope) -> None:
    given = [name for name in _LOCATOR_FIELDS if getattr(msg, name)]
    if not given:
        checker.problem(path, "an empty locator: set by, text, description, resource_id, contains or class_name (a template each)")
    for name in given:
        checker.template(getattr(msg, name), f"{path}.{name}", scope)
    if msg.HasField("in_row_of"):
        _locator(checker, msg.in_row_of, f"{path}.in_row_of", scope)


# ----------------------------------------------------------------------------------- building
@dataclasses.dataclass(frozen=True)
class Plan:
    """The compiled `gui_reference` of a spec: `steps(params)` builds one instance's steps."""

    messages: tuple[Any, ...]

    def steps(self, params: Params) -> list[gui.Step]:
        return [step for i, message in enumerate(self.messages) for step in _steps(message, params, f"gui_reference[{i}]")]


def _contexts(for_each: str, params: Params, path: str) -> list[Params]:
    if not for_each:
        return [params]
    try:
        items = lookup(params, for_each)
    except PathLookupError as error:
        raise SpecRuntimeError(f"{path}.for_each", f"{for_each}: {error}") from None
    return [{**params, "item": item, "index": index}
            for index, item in enumerate(items if isinstance(items, list) else [items])]


def _steps(message: Any, params: Params, path: str) -> list[gui.Step]:
    """One `GuiStep` message's steps: once, or per item of its `for_each`; a group's in order."""
    out: list[gui.Step] = []
    for context in _contexts(message.for_each, params, path):
        if message.WhichOneof("kind") == "steps":
            out += [step for i, inner in enumerate(message.steps.step)
                    for step in _steps(inner, context, f"{path}.steps.step[{i}]")]
        else:
            out.append(_step(message, context, path))
    return out


def _step(message: Any, context: Params, path: str) -> gui.Step:
    kind = message.WhichOneof("kind")
    field, body = f"{path}.{kind}", getattr(message, kind)
    render: Callable[[str, str], str] = lambda source, where: render_field(source, context, where)  # noqa: E731
    if kind == "open_app":
        return gui.open_app(render(body, field))
    if kind in _FLAGS:
        return {"enter": gui.enter, "back": gui.back, "home": gui.home, "wait": gui.wait}[kind]()
    if kind == "tap":
        return gui.tap(_build_locator(body, render, field))
    if kind == "long_press":
        return gui.long_press(_build_locator(body, render, field))
    if kind == "type_text":
        return gui.type_text(_build_locator(body.into, render, f"{field}.into"), render(body.text, f"{field}.text"),
                             clear=body.clear)
    if kind == "swipe":
        return gui.swipe(_build_locator(body.on, render, f"{field}.on"), body.direction)
    if kind == "tap_at":
        at = tuple(_fraction(render(getattr(body, axis), f"{field}.{axis}"), f"{field}.{axis}") for axis in ("x", "y"))
        return gui.tap(_build_locator(body.on, render, f"{field}.on"), at=at)  # type: ignore[arg-type]
    source = body.WhichOneof("source")
    if source == "text":
        return gui.answer(render(body.text, f"{field}.text"))
    found = _build_locator(getattr(body, source), render, f"{field}.{source}")
    return gui.answer({"read": gui.read, "read_all": gui.read_all, "count": gui.count}[source](found))


def _fraction(text: str, field: str) -> float:
    """A tap_at coordinate: empty is the centre (0.5); otherwise a number in [0, 1]."""
    try:
        value = float(text) if text.strip() else 0.5
    except ValueError:
        raise SpecRuntimeError(field, f"{text!r} is not a number (a fraction from 0 to 1)") from None
    if not 0.0 <= value <= 1.0:
        raise SpecRuntimeError(field, f"{value:g} is outside 0..1 (a fraction of the element's size)")
    return value


def _build_locator(msg: Any, render: Callable[[str, str], str], path: str) -> gui.Locator:
    parts: list[gui.Locator] = [_BUILDERS[name](render(getattr(msg, name), f"{path}.{name}"))
                                for name in _LOCATOR_FIELDS if getattr(msg, name)]
    found = parts[0]
    for part in parts[1:]:
        found = found & part
    if msg.HasField("in_row_of"):
        found = gui.in_row_of(_build_locator(msg.in_row_of, render, f"{path}.in_row_of"), found)
    return found


_BUILDERS: dict[str, Callable[[str], gui.Locator]] = {
    "by": gui.by, "text": gui.text, "description": gui.description, "resource_id": gui.resource_id,
    "contains": gui.contains, "class_name": gui.class_name}


def compile_plan(messages: Sequence[Any]) -> Plan | None:
    """The plan of a spec's `gui_reference` messages (None when it gives none)."""
    return Plan(tuple(messages)) if len(messages) else None
