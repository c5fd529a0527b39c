"""GUI references: a task's proof that it can be done through the screens, as an agent would.

A task gives its GUI reference by overriding `TaskEval.gui_reference()` (a spec: a
`gui_reference { ... }` block), returning a short list of steps. Each step names its target in a
locator language resolved against the live screen at that step — never a coordinate:

    from taskkit.gui_reference import answer, back, by, open_app, read, resource_id, tap, text, type_text

    def gui_reference(self):
        return [open_app("markor"), tap("fab_add_new_item"),
                type_text("new_file_dialog__name", self.params["file_name"]), tap("OK"),
                type_text("document__fragment__edit__highlighting_editor", self.params["text"]), back()]

Locators (all combine with `&`: both must hold):
- a plain string, or `by(label)`: text or content description equal to `label`, or a resource
  id ending in `:id/<label>`;
- `text(t)`, `description(d)`, `resource_id(rid)` (the part after `:id/`, or the whole id),
  `contains(t)` (text containing `t`);
- `in_row_of(row, target)`: `target` inside the list row that holds `row` (a row's menu button);
- `below(anchor, target)`: the first `target` after `anchor` in screen order (a row under its
  section header);
- `where(predicate, about)`: any test of a `UIElement` (Python tasks only).

Steps: `open_app`, `tap` (`at=(fx, fy)`: a point inside the target, as fractions of its size),
`long_press`, `type_text` (`clear=True` empties the field first; `type_lines` for a text of
several lines), `swipe` (on an element),
`enter`, `back`, `home`, `wait`, and `answer` (a literal text, or `read(locator)` /
`read_all(locator)` / `count(locator)` / any `elements -> str` reader of the screen). When a
step's target is not on the screen, the screen's scrollable list is scrolled down (then up, from its
end) until it shows (where nothing scrolls, the screen is swiped up once: the home screen opens
its app drawer); each scroll is one more step of the episode: an agent's scroll (AndroidWorld's),
or on B-MoCA's tasks B-MoCA's quicker swipe, which their step limits count
(taskkit.agents.gui_reference). A tap lands on the target's centre, or where a control drawn over
it (a floating button) leaves it uncovered (`clear_point`).

Labels are written in English and hold under any locale: the agent reads the device's locale once
per episode (`getprop persist.sys.locale`) and `localized(steps, locale)` lets each label locator
(`by`, `text`, `description`, `contains`; never `resource_id`) also find the text the locale shows
for it (`in_locale`: the simulated screens' own table, taskkit.sim.gui.localize, and the locale's
digits). User data (names, titles) matches as written; readers (`read`, `count`) are not translated.

`GuiReferenceAgent` (`taskkit.agents`, `--agent gui_reference`) plays a reference; `mistyped`
and `without_last_step` are the near misses `taskkit.check` runs to prove the reference is
tight (they must score less than the reference).
"""
from __future__ import annotations

import dataclasses
import re
from types import ModuleType
from typing import Callable, Sequence, Union

from taskkit.device.services.ui import BoundingBox, UIElement

Elements = Sequence[UIElement]


#: English label -> the other texts the device may show for it (its locale's translations).
Translate = Callable[[str], tuple[str, ...]]


class Locator:
    """Finds elements of a screen; `a & b` finds those both find."""

    def matches(self, element: UIElement, elements: Elements) -> bool:
        raise NotImplementedError

    def localized(self, translate: Translate) -> "Locator":
        """This locator, its English labels also found as `translate` gives them (see `in_locale`)."""
        return self

    def indices(self, elements: Elements) -> list[int]:
        """The positions (AndroidWorld's element indices) of every element found."""
        return [i for i, element in enumerate(elements) if self.matches(element, elements)]

    def __and__(self, other: "Target") -> "Locator":
        return _Both(self, locator(other))


@dataclasses.dataclass(frozen=True)
class _Label(Locator):
    """An element by one of its labels: `field` is text, description, resource id or any (or
    contains, a part of its text; or class, its class name)."""

    value: str
    field: str = "any"
    also: tuple[str, ...] = ()  # the same label as the device's locale shows it (never a resource id)

    def matches(self, element: UIElement, elements: Elements) -> bool:
        if self.field == "any":
            return any(self._holds(field, element) for field in ("text", "description", "resource_id"))
        return self._holds(self.field, element)

    def _holds(self, field: str, element: UIElement) -> bool:
        """Whether `element`'s `field` is this label (only that field is looked at)."""
        labels = (self.value, *self.also)
        if field == "text":
            return element.text in labels
        if field == "description":
            return element.content_description in labels
        if field == "contains":
            return any(label in (element.text or "") for label in labels)
        if field == "resource_id":
            rid = element.resource_name or ""
            return rid == self.value or rid.endswith(f":id/{self.value}")
        name = element.class_name or ""
        return name == self.value or name.endswith(f".{self.value}")

    def localized(self, translate: Translate) -> Locator:
        also = () if self.field in ("resource_id", "class") else tuple(t for t in translate(self.value) if t != self.value)
        return dataclasses.replace(self, also=also) if also else self

    def __str__(self) -> str:
        return repr(self.value) if self.field == "any" else f"{self.field}({self.value!r})"


@dataclasses.dataclass(frozen=True)
class _Where(Locator):
    predicate: Callable[[UIElement], bool]
    about: str

    def matches(self, element: UIElement, elements: Elements) -> bool:
        return bool(self.predicate(element))

    def __str__(self) -> str:
        return self.about


@dataclasses.dataclass(frozen=True)
class _InRowOf(Locator):
    row: Locator
    target: Locator

    def matches(self, element: UIElement, elements: Elements) -> bool:
        if element.bbox is None or not self.target.matches(element, elements):
            return False
        rows = [e.bbox.center[1] for e in elements if e.bbox is not None and self.row.matches(e, elements)]
        return any(element.bbox.y_min <= y <= element.bbox.y_max for y in rows)

    def localized(self, translate: Translate) -> Locator:
        return _InRowOf(self.row.localized(translate), self.target.localized(translate))

    def __str__(self) -> str:
        return f"{self.target} in the row of {self.row}"


@dataclasses.dataclass(frozen=True)
class _Below(Locator):
    """The first `target` after the first `anchor` in screen order (a row under its section header)."""

    anchor: Locator
    target: Locator

    def matches(self, element: UIElement, elements: Elements) -> bool:
        return any(elements[i] is element for i in self.indices(elements))

    def indices(self, elements: Elements) -> list[int]:
        anchors = self.anchor.indices(elements)
        after = [i for i in self.target.indices(elements) if anchors and i > anchors[0]]
        return after[:1]

    def localized(self, translate: Translate) -> Locator:
        return _Below(self.anchor.localized(translate), self.target.localized(translate))

    def __str__(self) -> str:
        return f"{self.target} below {self.anchor}"


@dataclasses.dataclass(frozen=True)
class _Both(Locator):
    first: Locator
    second: Locator

    def matches(self, element: UIElement, elements: Elements) -> bool:
        return self.first.matches(element, elements) and self.second.matches(element, elements)

    def localized(self, translate: Translate) -> Locator:
        return _Both(self.first.localized(translate), self.second.localized(translate))

    def __str__(self) -> str:
        return f"{self.first} & {self.second}"


Target = Union[str, Locator]


def locator(target: Target) -> Locator:
    """A locator from a step's target (a plain string is `by(string)`)."""
    if isinstance(target, Locator):
        return target
    if isinstance(target, str):
        return by(target)
    raise TypeError(f"a GUI step's target is a string or a locator, not {type(target).__name__}")


def by(label: str) -> Locator:
    """Text or content description `label`, or a resource id ending in `:id/<label>`."""
    return _Label(label)


def text(value: str) -> Locator:
    return _Label(value, "text")


def description(value: str) -> Locator:
    return _Label(value, "description")


def contains(value: str) -> Locator:
    """An element whose text contains `value` (a list row's subtitle: "October 12 2023 07:45 · running")."""
    return _Label(value, "contains")


def resource_id(value: str) -> Locator:
    """`value` is the part after `:id/` (`btn_save`) or the whole id (`pkg:id/btn_save`)."""
    return _Label(value, "resource_id")


def class_name(value: str) -> Locator:
    """An element of class `value`: whole (`android.widget.EditText`) or its simple name (`EditText`),
    as for a field without a label (a React Native search box)."""
    return _Label(value, "class")


def in_row_of(row: Target, target: Target) -> Locator:
    """`target` in the list row that holds `row` (where every row has the same menu button)."""
    return _InRowOf(locator(row), locator(target))


def below(anchor: Target, target: Target) -> Locator:
    """The first `target` after `anchor` in screen order: the event under its day's header."""
    return _Below(locator(anchor), locator(target))


def where(predicate: Callable[[UIElement], bool], about: str = "a matching element") -> Locator:
    """Elements for which `predicate(element)` holds; `about` names them in messages."""
    return _Where(predicate, about)


# ---------------------------------------------------------------------------------- touching
def _contains(box: BoundingBox, x: int, y: int) -> bool:
    return box.x_min <= x < box.x_max and box.y_min <= y < box.y_max


def _covers(cover: BoundingBox, box: BoundingBox) -> bool:
    return (cover.x_min <= box.x_min and box.x_max <= cover.x_max
            and cover.y_min <= box.y_min and box.y_max <= cover.y_max)


def clear_point(elements: Elements, index: int) -> tuple[int, int] | None:
    """The point of element `index` a careful user touches: its centre, unless a control drawn
    over it (a later clickable element that overlaps it without holding it or lying inside it: a
    floating action button over a list row's menu) takes the touch there; then the uncovered point
    of its box nearest the centre, on a grid of eighths. None when every point is covered."""
    box = elements[index].bbox
    if box is None:
        return None
    over = [e.bbox for e in elements[index + 1:]
            if e.is_clickable and e.bbox is not None and not _covers(box, e.bbox) and not _covers(e.bbox, box)]
    cx, cy = box.center
    points = sorted(((box.x_min + box.width * i // 8, box.y_min + box.height * j // 8)
                     for i in range(1, 8) for j in range(1, 8)),
                    key=lambda p: (abs(p[0] - cx) + abs(p[1] - cy), p))
    for x, y in ((cx, cy), *points):
        if not any(_contains(cover, x, y) for cover in over):
            return x, y
    return None


# ---------------------------------------------------------------------------------- readers
Reader = Callable[[Elements], str]


def read(target: Target) -> Reader:
    """The text of the (last) element `target` finds: an answer read off the screen."""
    found = locator(target)

    def reader(elements: Elements) -> str:
        hits = found.indices(elements)
        if not hits:
            raise LookupError(f"nothing to read: {found} is not on the screen")
        return elements[hits[-1]].text or ""
    return reader


def read_all(target: Target, separator: str = ", ") -> Reader:
    """The texts of every element `target` finds, in screen order, joined by `separator`."""
    found = locator(target)
    return lambda elements: separator.join(elements[i].text or "" for i in found.indices(elements))


def count(target: Target) -> Reader:
    """How many elements `target` finds on the screen, as text."""
    found = locator(target)
    return lambda elements: str(len(found.indices(elements)))


# ---------------------------------------------------------------------------------- steps
ACTIONS = ("open_app", "tap", "long_press", "type_text", "swipe", "enter", "back", "home", "wait", "answer")


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a GUI reference (build it with the functions below)."""

    action: str
    target: Locator | None = None
    text: str | None = None  # typed text, the app's name, or a literal answer
    direction: str | None = None
    clear: bool = False
    reader: Reader | None = None
    at: tuple[float, float] | None = None  # a tap's point inside its target, as fractions of its width and height
    mistyped: bool = False  # a near miss: the typed text or answer with its letters or last digit changed

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown GUI step {self.action!r}: use one of {', '.join(ACTIONS)}")

    def localized(self, translate: Translate) -> "Step":
        """This step, its target's English labels also found as the device's locale shows them."""
        return self if self.target is None else dataclasses.replace(self, target=self.target.localized(translate))

    @property
    def types_a_value(self) -> bool:
        return self.action in ("type_text", "answer")

    def __str__(self) -> str:
        parts = [str(part) for part in (self.target, self.text, self.direction) if part is not None]
        return f"{self.action}({', '.join(parts)})"


def open_app(name: str) -> Step:
    """Open an app by its name, as AndroidWorld's `open_app` action does."""
    return Step("open_app", text=name)


def tap(target: Target, at: tuple[float, float] | None = None) -> Step:
    """Tap the element `target` finds: its centre, or the point `at` (fractions of its width and
    height from its top left: (0.3, 0.5) is 30 % along a slider)."""
    if at is not None and not all(0.0 <= f <= 1.0 for f in at):
        raise ValueError(f"tap at {at}: each fraction must be between 0 and 1")
    return Step("tap", locator(target), at=at)


def long_press(target: Target) -> Step:
    return Step("long_press", locator(target))


def type_text(target: Target, value: str, clear: bool = False) -> Step:
    """Type `value` into the field `target` finds (`clear`: empty it first)."""
    return Step("type_text", locator(target), text=str(value), clear=clear)


def type_lines(target: Target, value: str, clear: bool = False) -> list[Step]:
    """Steps that type a multi-line `value` into the field a line at a time, with ENTER between
    (a user's way; `type_text` of the whole value types it in one action, ENTER for each new
    line, as AndroidWorld's input_text does)."""
    steps: list[Step] = []
    for index, line in enumerate(str(value).split("\n")):
        if index:
            steps.append(enter())
        if line:
            steps.append(type_text(target, line, clear=clear and not steps))
    return steps


def swipe(target: Target, direction: str) -> Step:
    """Swipe on the element `target` finds: up, down, left or right."""
    if direction not in ("up", "down", "left", "right"):
        raise ValueError(f"swipe direction {direction!r}: use up, down, left or right")
    return Step("swipe", locator(target), direction=direction)


def enter() -> Step:
    return Step("enter")


def back() -> Step:
    return Step("back")


def home() -> Step:
    return Step("home")


def wait() -> Step:
    return Step("wait")


def answer(value: str | Reader) -> Step:
    """Answer the question: a literal text, or a reader of the screen (`read`, `count`, ...)."""
    if callable(value):
        return Step("answer", reader=value)
    return Step("answer", text=str(value))


# ---------------------------------------------------------------------------------- locales
def _localize() -> ModuleType:
    """taskkit.sim.gui.localize, imported when a label is first translated: importing it loads the
    whole simulated GUI (taskkit.sim.gui), which a run on a real device or in English never needs."""
    from taskkit.sim.gui import localize

    return localize


def in_locale(locale: str) -> Translate:
    """The translations a device set to `locale` (`getprop persist.sys.locale`) may show for an
    English label: the simulated screens' own table (taskkit.sim.gui.localize), so a reference
    written in English finds "확인" for "OK" under ko-KR, as a user who reads Korean would; and a
    label's digits in the locale's own digits where it writes numbers with them (ar-EG).
    User data (names, titles) matches as it is: the English label is always tried too."""
    localize = _localize()
    words, digits = localize.label_translations(locale), localize.native_digits(locale)

    def translate(label: str) -> tuple[str, ...]:
        found = words.get(label, ())
        if digits is not None:
            found += tuple(dict.fromkeys(t.translate(digits) for t in (label, *found) if t.translate(digits) != t))
        return found
    return translate


def shown_in_locale(label: str, locale: str | None, package: str) -> str:
    """The text a screen of `package` shows for the English `label` on a device set to `locale`,
    the label matched case-insensitively (SPA's key components are written lower-case): Android's
    translation on the system screens (launcher, System UI, Settings: the simulated screens' own
    table); `label` as it is in English, for another app's own labels (they stay English:
    taskkit.sim.gui.localize) and for user data (names, titles), which no table holds."""
    if not locale or locale.replace("_", "-").split("-")[0] == "en" or package not in _localize().SYSTEM_PACKAGES:
        return label
    words = {english.casefold(): shown for english, shown in _localize().translations(locale, package).items()}
    return words.get(label.casefold(), label)


def localized(steps: Sequence[Step], locale: str | None) -> list[Step]:
    """`steps` as played on a device set to `locale` (None or English: as they are)."""
    if not locale or locale.replace("_", "-").split("-")[0] == "en":
        return list(steps)
    translate = in_locale(locale)
    return [step.localized(translate) for step in steps]


# ---------------------------------------------------------------------------------- near misses
def mistype(value: str) -> str:
    """`value` wrong but of the same shape: its letters shifted by one (a→b, z→a) and the first
    digit of its last number changed (12.50 → 22.50, 14:30 → 14:40, "352 m" → "452 n": far
    enough that a tolerance or a rounding cannot take it for the right one) — a wrong name,
    title or number a careless agent might type."""
    wrong = "".join(_shift(c) for c in value)
    numbers = list(re.finditer(r"\d+(?:\.\d+)?", wrong))
    if numbers:
        at = numbers[-1].start()
        wrong = wrong[:at] + ("8" if wrong[at] == "9" else str(int(wrong[at]) + 1)) + wrong[at + 1:]
    return wrong if wrong != value else value + "x"


def _shift(c: str) -> str:
    if not (c.isascii() and c.isalpha()):
        return c
    base = ord("a") if c.islower() else ord("A")
    return chr(base + (ord(c) - base + 1) % 26)


def mistyped(steps: Sequence[Step]) -> list[Step] | None:
    """`steps` with the last typed value (or answer) mistyped; None when nothing is typed."""
    typed = [i for i, step in enumerate(steps) if step.types_a_value]
    if not typed:
        return None
    out = list(steps)
    out[typed[-1]] = dataclasses.replace(out[typed[-1]], mistyped=True)
    return out


def without_last_step(steps: Sequence[Step]) -> list[Step]:
    return list(steps[:-1])
