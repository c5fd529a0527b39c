"""The device config on the screen: the locale's labels, the font scale and right-to-left mirroring.

Applied to every built screen (taskkit/sim/gui/screen.py), after the screens are built in
English, so no screen has to know about them:

* labels: the system screens (launcher, System UI, Settings) show Android's own translation of
  every label in translations.json (AOSP's resource strings, one entry per English text); other
  apps translate only the framework's chrome — descriptions such as "Navigate up" and the
  dialog buttons (`android:id/button1`…) — and keep their own labels in English (their
  translations are the apps' own, not modeled). A locale is looked up by its full tag, then
  language and script, then language; a language without translations stays English.
* font scale (`settings get system font_scale`): every text size is multiplied by it (bounds
  stay; Android grows wrap_content views, the simulator does not).
* right-to-left locales (Arabic, Urdu, Persian, Hebrew): every node's bounds are mirrored
  across the screen's vertical axis, as the framework lays views out from the right.
"""
from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import Iterator

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
    words = translations(locale, package) if not locale.startswith("en") else {}
    rtl = is_rtl(locale)
    if not words and font_scale == 1.0 and not rtl:
        return root
    whole = package in SYSTEM_PACKAGES

    def visit(node: Node) -> Node:
        changes: dict = {}
        chrome = whole or node.resource_id.startswith("android:id/button") or node.class_name in _CHROME_CLASSES \
            or is_dialog_title(node)
        if words and node.text in words and chrome and node.field is None:
            changes["text"] = words[node.text]
        if words and node.content_desc in words:
            changes["content_desc"] = words[node.content_desc]
        if node.hint in words and whole:
            changes["hint"] = words[node.hint]
        if font_scale != 1.0 and node.text_size:
            changes["text_size"] = max(1, round(node.text_size * font_scale))
        if rtl:
            x1, y1, x2, y2 = node.bounds
            changes["bounds"] = (width - x2, y1, width - x1, y2)
        changes["children"] = [visit(child) for child in node.children]
        return dataclasses.replace(node, **changes)
    return visit(root)
