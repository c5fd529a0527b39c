"""The seed benchmarks' screen and command detectors, as validators.

* `command_output_matches(command, pattern)` — B-MoCA's adb-command detector: a shell command's
  output matches a regular expression (searched, multi-line).
* `ui_element_matches(selector, **attributes)` — B-MoCA's UI-attribute detector: an element of
  the current screen chosen by `selector` (`resource_id`, `text`, `content_desc`, `class_name`;
  each a regular expression matched whole; `resource_id` also matches the id's name alone) holds
  the attributes (`checked`, `selected`, `enabled`, `focused`, `clickable`, `text`, ...).
* `key_components(items)` — SPA-Bench's coarse check: a screen's visible text, lower-cased and
  concatenated (texts and content descriptions in dump order), contains every item, lower-cased;
  with `ocr=True` the words tesseract reads in the screenshot count too. As SPA-Bench defines it
  (`screens="episode"`, the default) the episode's screens are tried from the last back to the
  first, and the check passes on the first that holds every item; `screens="final"` reads the
  final screen only.

They read the device at check time; `key_components` also the screens the episode kept
(`ScreenLog`, which the runner and taskkit.gym fill for a task that asks for them, see
`screen_log`). The command is the task author's (a value from the task's params must be quoted
with `taskkit.device.quoting.shell_quote`).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Iterable, Sequence

from taskkit.device.services import ocr
from taskkit.device.services.ui import UIElement
from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless, leaves

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


#: Which screens `key_components` reads: the episode's, from the last back (SPA-Bench's), or the final one.
SCREENS = ("episode", "final")


def _shown(elements: Iterable[UIElement]) -> str:
    """A screen's visible text as key components match it: texts and descriptions in dump order, folded."""
    return _folded("".join(f"{e.text or ''}{e.content_description or ''}" for e in elements))


class ScreenLog:
    """The screens one episode showed, kept for its key components: per step only the folded
    visible text and, when a check asks for OCR, the screenshot (never the dump). `texts[i]` is
    the screen after the agent's first i steps (0: the first screen); the runner and taskkit.gym
    keep one per observation, and the screen at check time, read live, comes after them.
    `matched` is the index of the screen the last passing check matched on (see `key_components`)."""

    def __init__(self, ocr: bool):
        self.ocr = ocr
        self.texts: list[str] = []
        self.shots: list[bytes] = []
        self.matched: int | None = None

    def keep(self, env: TaskEnv, elements: Sequence[UIElement] | None, screenshot: bytes | None) -> None:
        """Keep the screen an observation showed: its elements and screenshot when it has them
        (None: the agent did not ask for them, so they are read here)."""
        self.texts.append(_shown(env.device.ui.screen().elements if elements is None else elements))
        if self.ocr:
            self.shots.append(env.device.ui.screenshot() if screenshot is None else screenshot)


def screen_log(validators: Iterable[Any]) -> ScreenLog | None:
    """A log for an episode judged by `validators` (their combinations included), or None when
    none of them reads the episode's screens: the episode then keeps nothing per step."""
    readers = [v for validator in validators for v in leaves(validator)
               if isinstance(v, KeyComponents) and v.screens == "episode"]
    return ScreenLog(any(v.ocr for v in readers)) if readers else None


@dataclasses.dataclass(frozen=True)
class KeyComponents(Stateless):
    items: tuple[str, ...]
    ocr: bool = False
    screens: str = "episode"

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        log = getattr(env, "screens", None) if self.screens == "episode" else None
        final = len(log.texts) if log is not None else 0
        missing = self._missing(_shown(env.device.ui.screen().elements), env.device.ui.screenshot)
        if not missing:
            return self._matched(log, final)
        for index in range(final - 1, -1, -1):  # SPA's order: from the last screen back to the first
            shot = log.shots[index] if log.ocr else None
            if not self._missing(log.texts[index], None if shot is None else lambda: shot):
                return self._matched(log, index)
        which = f"none of the episode's {final + 1} screens shows them all; the final one" if log else "the screen"
        return CheckResult(0.0, (f"{which} does not show {', '.join(repr(m) for m in missing)}",))

    def _missing(self, text: str, screenshot: Callable[[], bytes] | None) -> list[str]:
        """The items a screen of folded `text` lacks; with `ocr`, the words read in `screenshot()`
        count too, read only when the text alone lacks some (OCR costs seconds)."""
        missing = [item for item in self.items if _folded(item) not in text]
        if missing and self.ocr and screenshot is not None:  # the words drawn as pixels (a receipt's photo)
            words = _folded(ocr.screen_words(screenshot()))
            missing = [item for item in missing if _folded(item) not in words]
        return missing

    @staticmethod
    def _matched(log: ScreenLog | None, index: int) -> CheckResult:
        if log is not None:
            log.matched = index
        return CheckResult(1.0)


def _folded(text: str) -> str:
    """Text as SPA-Bench matches it: lower-cased and concatenated (whitespace dropped, so a line
    the screen wraps or a doubled space does not matter)."""
    return "".join(text.lower().split())


def key_components(items: Iterable[str], ocr: bool = False, screens: str = "episode") -> KeyComponents:
    """SPA-Bench's key components (its Appendix D.1): a screen's visible text contains every item,
    both lower-cased and concatenated (whitespace dropped); with `ocr`, the text tesseract reads in
    the screenshot counts too (Debian's tesseract-ocr). `screens="episode"` (SPA's way) tries the
    episode's screens "starting from the last screenshot and moving backward until a match is
    found or the first screenshot is reached" and records the matching screen's index in the
    episode's `ScreenLog.matched` (the row's `key_components_step`); `screens="final"` reads the
    final screen only."""
    listed = tuple(items)
    if not listed:
        raise ValueError("key_components needs at least one item")
    if screens not in SCREENS:
        raise ValueError(f"key_components: screens must be one of {', '.join(SCREENS)}, got {screens!r}")
    return KeyComponents(listed, ocr, screens)
