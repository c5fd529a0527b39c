"""The seed benchmarks' screen and command detectors, as validators.

* `command_output_matches(command, pattern)` — B-MoCA's adb-command detector: a shell command's
  output matches a regular expression (searched, multi-line).
* `ui_element_matches(selector, **attributes)` — B-MoCA's UI-attribute detector: an element of
  the current screen chosen by `selector` (`resource_id`, `text`, `content_desc`, `class_name`;
  each a regular expression matched whole; `resource_id` also matches the id's name alone) holds
  the attributes (`checked`, `selected`, `enabled`, `focused`, `clickable`, `text`, ...).
* `key_components(items)` — SPA-Bench's coarse check: the final screen's visible text, lower-cased
  and concatenated (texts and content descriptions in dump order), contains every item,
  lower-cased; with `ocr=True` the words tesseract reads in the screenshot count too.

They read the device at check time only (Stateless); the command is the task author's (a value
from the task's params must be quoted with `taskkit.device.quoting.shell_quote`).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterable

from taskkit.device.services import ocr
from taskkit.device.services.ui import UIElement
from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless

# The selector keys and the UIElement field each reads.
SELECTORS = {"resource_id": "resource_name", "text": "text", "content_desc": "content_description",
             "class_name": "class_name"}
# The attributes an element is checked for and the UIElement field each reads.
ATTRIBUTES = {"checked": "is_checked", "selected": "is_selected", "enabled": "is_enabled", "focused": "is_focused",
              "clickable": "is_clickable", "checkable": "is_checkable", "editable": "is_editable",
              "scrollable": "is_scrollable", "text": "text", "content_desc": "content_description"}


@dataclasses.dataclass(frozen=True)
class CommandOutputMatches(Stateless):
    command: str
    pattern: str

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        output = env.device.shell(self.command).stdout
        if re.search(self.pattern, output, re.MULTILINE):
            return CheckResult(1.0)
        return CheckResult(0.0, (f"the output of `{self.command[:80]}` does not match /{self.pattern}/: "
                                 f"{output.strip()[:120]!r}",))


def command_output_matches(command: str, pattern: str) -> CommandOutputMatches:
    """The shell command's output matches the regular expression `pattern` (searched)."""
    re.compile(pattern)  # a bad pattern is the author's error, said when the task is built
    return CommandOutputMatches(command, pattern)


def _selected(element: UIElement, selector: tuple[tuple[str, str], ...]) -> bool:
    for key, pattern in selector:
        value = getattr(element, SELECTORS[key]) or ""
        names = (value, value.rpartition(":id/")[2]) if key == "resource_id" else (value,)
        if not any(re.fullmatch(pattern, name) for name in names):
            return False
    return True


@dataclasses.dataclass(frozen=True)
class UiElementMatches(Stateless):
    selector: tuple[tuple[str, str], ...]
    attributes: tuple[tuple[str, Any], ...]

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        chosen = [e for e in env.device.ui.screen().elements if _selected(e, self.selector)]
        if not chosen:
            return CheckResult(0.0, (f"no element on the screen matches {dict(self.selector)}",))
        for element in chosen:
            if all(getattr(element, ATTRIBUTES[name]) == value for name, value in self.attributes):
                return CheckResult(1.0)
        found = {name: getattr(chosen[0], ATTRIBUTES[name]) for name, _ in self.attributes}
        return CheckResult(0.0, (f"the element matching {dict(self.selector)} has {found}, "
                                 f"expected {dict(self.attributes)}",))


def ui_element_matches(selector: dict[str, str], **attributes: Any) -> UiElementMatches:
    """An element of the current screen chosen by `selector` holds `attributes`."""
    unknown = sorted(set(selector) - set(SELECTORS)) + sorted(set(attributes) - set(ATTRIBUTES))
    if unknown or not selector:
        raise ValueError(f"ui_element_matches: unknown selector or attribute {unknown}; selectors: "
                         f"{', '.join(SELECTORS)}; attributes: {', '.join(ATTRIBUTES)}" if unknown else
                         "ui_element_matches needs a selector")
    for pattern in selector.values():
        re.compile(pattern)
    return UiElementMatches(tuple(sorted(selector.items())), tuple(sorted(attributes.items())))


@dataclasses.dataclass(frozen=True)
class KeyComponents(Stateless):
    items: tuple[str, ...]
    ocr: bool = False

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        shown = "".join(f"{e.text or ''}{e.content_description or ''}" for e in env.device.ui.screen().elements)
        if self.ocr:  # also the words drawn as pixels (a photo of a receipt, a canvas)
            shown += " " + ocr.screen_words(env.device.ui.screenshot())
        missing = [item for item in self.items if _folded(item) not in _folded(shown)]
        if not missing:
            return CheckResult(1.0)
        return CheckResult(0.0, (f"the screen does not show {', '.join(repr(m) for m in missing)}",))


def _folded(text: str) -> str:
    """Text as SPA-Bench matches it: lower-cased and concatenated (whitespace dropped, so a line
    the screen wraps or a doubled space does not matter)."""
    return "".join(text.lower().split())


def key_components(items: Iterable[str], ocr: bool = False) -> KeyComponents:
    """SPA-Bench's key components (its Appendix D.1): the screen's visible text contains every
    item, both lower-cased and concatenated (whitespace dropped); with `ocr`, the text tesseract
    reads in the screenshot counts too (Debian's tesseract-ocr)."""
    listed = tuple(items)
    if not listed:
        raise ValueError("key_components needs at least one item")
    return KeyComponents(listed, ocr)
