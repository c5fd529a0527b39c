"""The device config on the screen: the locale's labels, the font scale and right-to-left mirroring.

Applied to every built screen (taskkit/sim/gui/screen.py), after the screens are built in
English, so no screen has to know about them:

* labels: the system screens (launcher, System UI, Settings) show Android's own translation of
  every label in translations.json (AOSP's resource strings, one entry per English text). An app
  with its own table, translations.<package>.json (Wikipedia's: its string resources at the tag
  the simulator models, written by taskkit/fidelity/app_strings.py), shows its own translation
  of every label whose string resource the table names: text, content description and hint,
  including a formatted label ("100% (Default)": the format's arguments kept) and a description
  the app joins from two labels. Every app also translates the framework's chrome —
  descriptions such as "Navigate up" and the dialog buttons (`android:id/button1`…); the labels
  of an app without a table stay English (its translations are the app's own, not modeled). A
  locale is looked up by its full tag, then language and script, then language (an app's table
  lists the chain of its `values-XX` directories each of B-MoCA's locales reads, as Android
  resolves it); a language without translations stays English, and so does a label whose
  resource the language lacks (Android's fallback to the default strings). An app's table is
  read the first time a screen of that app is shown in a locale other than English, once per
  process; English screens cost nothing.
* font scale (`settings get system font_scale`): every text size is multiplied by it (bounds
  stay; Android grows wrap_content views, the simulator does not).
* right-to-left locales (Arabic, Urdu, Persian, Hebrew): every node's bounds are mirrored
  across the screen's vertical axis, as the framework lays views out from the right.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path
from typing import Iterator, Sequence

from taskkit.sim.gui.node import Node
from taskkit.sim.gui.widgets import is_dialog_title

SYSTEM_PACKAGES = ("com.google.android.apps.nexuslauncher", "com.android.systemui", "com.android.settings")
RTL_LANGUAGES = ("ar", "ur", "fa", "he", "iw")
TRANSLATIONS = Path(__file__).with_name("translations.json")
_CHROME_CLASSES = ("android.widget.Button", "android.widget.ImageButton")


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, str]]:
    try:
        return json.loads(TRANSLATIONS.read_text(encoding="utf-8")).get("strings", {})
    except (OSError, ValueError):
        return {}


def _keys(locale: str) -> list[str]:
    """The keys a locale's translations may be stored under, most specific first."""
    parts = locale.replace("_", "-").split("-")
    keys = ["-".join(parts[:i]) for i in range(len(parts), 0, -1)]
    if parts[0] == "zh":
        keys += ["zh-rCN" if "Hant" not in parts else "zh-rTW"]
    if len(parts) > 1 and len(parts[1]) == 2:
        keys.insert(1, f"{parts[0]}-r{parts[1].upper()}")  # Android's resource qualifier (pt-rBR)
    return keys


def _entries(locale: str) -> Iterator[tuple[str, str, str]]:
    """(English label, module or "", this locale's text) for every entry the locale has."""
    keys = _keys(locale)
    for english, entry in _table().items():
        value = next((entry[k] for k in keys if isinstance(entry.get(k), str) and entry[k]), None)
        if value is not None:
            label, _, where = english.partition("@")
            yield label, where, value


@functools.lru_cache(maxsize=64)
def translations(locale: str, package: str = "") -> dict[str, str]:
    """English text -> this locale's text as `package` shows it (empty for English or a language
    with none). A label two modules translate differently ("Dark theme" in Settings and in the
    System UI shade) has a second entry keyed "<label>@<module>", which wins in that module."""
    module = package.rsplit(".", 1)[-1]
    found, own = {}, {}
    for label, where, value in _entries(locale):
        if not where:
            found[label] = value
        elif where == module:
            own[label] = value
    return found | own


@functools.lru_cache(maxsize=16)
def label_translations(locale: str) -> dict[str, tuple[str, ...]]:
    """English label -> every text this locale shows for it, whatever the module (what a GUI
    reference's label may find on any screen: taskkit.gui_reference.in_locale)."""
    found: dict[str, tuple[str, ...]] = {}
    if locale.replace("_", "-").split("-")[0] == "en":
        return found
    for label, _, value in _entries(locale):
        if value not in found.get(label, ()):
            found[label] = (*found.get(label, ()), value)
    return found


# ---------------------------------------------------------------------- an app's own labels
_FORMAT = re.compile(r"%(?:(\d+)\$)?[-#+ 0,(]*\d*(?:\.\d+)?([sdf%])")  # java.util.Formatter's, as getString uses


def _arguments(form: str) -> tuple[int, ...]:
    """The argument index of each specifier of an Android format string, in order, `%%` left out."""
    found, implicit = [], 0
    for match in _FORMAT.finditer(form):
        if match[2] != "%":
            found.append(int(match[1]) - 1 if match[1] else implicit)
            implicit += not match[1]
    return tuple(found)


def _pattern(form: str) -> re.Pattern[str]:
    """A pattern matching what `form` shows, one group per argument (in the order they appear)."""
    parts, last = [], 0
    for match in _FORMAT.finditer(form):
        parts.append(re.escape(form[last:match.start()]))
        parts.append("%" if match[2] == "%" else r"(-?\d+)" if match[2] == "d" else "(.+?)")
        last = match.end()
    return re.compile("".join(parts) + re.escape(form[last:]))


def _fill(form: str, values: Sequence[str]) -> str:
    """`form` with its arguments given as shown (strings); `%%` is a percent sign."""
    implicit = iter(range(len(values)))

    def one(match: re.Match[str]) -> str:
        if match[2] == "%":
            return "%"
        index = int(match[1]) - 1 if match[1] else next(implicit, 0)
        return values[index] if index < len(values) else match[0]
    return _FORMAT.sub(one, form)


@dataclasses.dataclass(frozen=True)
class AppWords:
    """One app's own labels in one locale: English text -> this locale's text, where the label's
    string resource is known (taskkit/fidelity/app_strings.py writes the table)."""

    anywhere: dict[str, str]
    in_view: dict[tuple[str, str], str]  # (view id after ":id/", English text): a resource shown only there
    formats: tuple[tuple[re.Pattern[str], tuple[int, ...], str], ...]  # English pattern, its groups' args, locale form
    joins: tuple[str, ...]  # separators of descriptions the app joins from two labels

    def text(self, english: str, view: str = "") -> str | None:
        """What the locale shows for `english` in view `view` (None: no known resource, stays)."""
        shown = self.in_view.get((view, english)) or self.anywhere.get(english)
        if shown is not None:
            return shown
        for pattern, order, form in self.formats:
            match = pattern.fullmatch(english)
            if match:
                values = [""] * (max(order) + 1)
                for group, index in enumerate(order):
                    values[index] = match[group + 1]
                return _fill(form, values)
        return None

    def description(self, english: str, view: str = "") -> str | None:
        """A content description: a label, or two the app joins (a card type's title and subtitle)."""
        shown = self.text(english, view)
        for separator in self.joins if shown is None else ():
            for match in re.finditer(re.escape(separator), english):
                head, tail = self.text(english[:match.start()]), self.text(english[match.end():])
                if head is not None and tail is not None:
                    return head + separator + tail
        return shown


def app_table_path(package: str) -> Path:
    return TRANSLATIONS.with_name(f"translations.{package}.json")


@functools.lru_cache(maxsize=None)
def app_table(package: str) -> dict | None:
    """The app's own table (None: the app has none), read once per process."""
    try:
        return json.loads(app_table_path(package).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def _chain(table: dict, locale: str) -> list[str]:
    """The app's `values-XX` directories `locale` reads, most specific first."""
    listed = table.get("locales", {}).get(locale.replace("_", "-"))
    return listed if listed is not None else _keys(locale)


def _resolved(entry: dict, chain: list[str], locale: str) -> list[tuple[str, str]]:
    """(English text, this locale's text) of one resource: a string (from the first directory of
    the chain that has it), or a plural at each count the screens show (stored per locale, as the
    locale's plural rule picks its form); empty where it has none (it stays English)."""
    if "text" in entry:
        shown = next((entry["text"][q] for q in chain if q in entry["text"]), None)
        return [] if shown is None else [(entry["text"][""], shown)]
    return [(_fill(forms[""], [count]), _fill(forms[locale], [count]))
            for count, forms in entry["plural"].items() if locale in forms]


@functools.lru_cache(maxsize=64)
def app_words(locale: str, package: str) -> AppWords | None:
    """`package`'s own labels as `locale` shows them (None: no table, or no language of it)."""
    table = app_table(package)
    chain = _chain(table, locale) if table is not None else []
    if table is None or not chain:
        return None
    anywhere: dict[str, str] = {}
    in_view: dict[tuple[str, str], str] = {}
    formats = []
    for entry in table["strings"].values():
        resolved = _resolved(entry, chain, locale.replace("_", "-"))
        for english, shown in resolved:
            if _arguments(english):
                formats.append((_pattern(english), _arguments(english), shown))
            elif not entry.get("views"):
                anywhere[english] = shown
        for view in entry.get("views", ()):  # its views show it, translated or (the language lacks it) not
            english = entry["text"][""]
            in_view[(view, english)] = dict(resolved).get(english, english)
    if not (anywhere or in_view or formats):
        return None
    return AppWords(anywhere, in_view, tuple(formats), tuple(j["separator"] for j in table.get("joins", ())))


def app_texts(package: str, resource: str) -> frozenset[str]:
    """Every text string resource `resource` of `package` has in the app's table (its default
    and each language's): what a locale-proof locator of that label may find."""
    entry = (app_table(package) or {}).get("strings", {}).get(resource)
    if entry is None or "text" not in entry:
        raise KeyError(f"{package} has no string {resource!r} in {app_table_path(package).name}: "
                       "add it to taskkit/fidelity/app_strings.py and run it")
    return frozenset(entry["text"].values())


_ARABIC_INDIC, _EXTENDED_ARABIC_INDIC = "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669", \
    "\u06f0\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8\u06f9"
#: The locales whose default numbering system (CLDR, as ICU ships it: NumberElements/default)
#: is not Latin digits; Arabic's own regions that default to Latin are listed apart.
_NATIVE_DIGITS = {"ar": _ARABIC_INDIC, "fa": _EXTENDED_ARABIC_INDIC, "ur-IN": _EXTENDED_ARABIC_INDIC}
_LATIN_DIGIT_REGIONS = {"ar": ("AE", "DZ", "EH", "LY", "MA", "TN")}


def native_digits(locale: str) -> dict[int, str] | None:
    """A `str.translate` table from 0-9 to the locale's default digits (ar-EG: Arabic-Indic), or
    None where it writes Latin digits (en, ko, ur-PK, ar-AE)."""
    parts = locale.replace("_", "-").split("-")
    region = next((p.upper() for p in parts[1:] if len(p) == 2), "")
    if region in _LATIN_DIGIT_REGIONS.get(parts[0], ()):
        return None
    digits = _NATIVE_DIGITS.get(f"{parts[0]}-{region}") or _NATIVE_DIGITS.get(parts[0])
    return None if digits is None else str.maketrans("0123456789", digits)


def is_rtl(locale: str) -> bool:
    return locale.replace("_", "-").split("-")[0] in RTL_LANGUAGES


def localize(root: Node, package: str, locale: str, font_scale: float, width: int) -> Node:
    """`root` with the locale's labels, the font scale and the layout direction applied."""
    english = locale.startswith("en")
    words = translations(locale, package) if not english else {}
    whole = package in SYSTEM_PACKAGES
    own = app_words(locale, package) if not english and not whole else None
    rtl = is_rtl(locale)
    if not words and own is None and font_scale == 1.0 and not rtl:
        return root

    def visit(node: Node) -> Node:
        changes: dict = {}
        chrome = whole or node.resource_id.startswith("android:id/button") or node.class_name in _CHROME_CLASSES \
            or is_dialog_title(node)
        view = node.resource_id.rpartition(":id/")[2]
        if node.text and node.field is None:
            shown = own.text(node.text, view) if own else None
            if shown is None and chrome:
                shown = words.get(node.text)
            if shown is not None:
                changes["text"] = shown
        if node.content_desc:
            shown = own.description(node.content_desc, view) if own else None
            if shown is None:
                shown = words.get(node.content_desc)
            if shown is not None:
                changes["content_desc"] = shown
        if node.hint:
            shown = own.text(node.hint, view) if own else words.get(node.hint) if whole else None
            if shown is not None:
                changes["hint"] = shown
        if font_scale != 1.0 and node.text_size:
            changes["text_size"] = max(1, round(node.text_size * font_scale))
        if rtl:
            x1, y1, x2, y2 = node.bounds
            changes["bounds"] = (width - x2, y1, width - x1, y2)
        changes["children"] = [visit(child) for child in node.children]
        return dataclasses.replace(node, **changes)
    return visit(root)
