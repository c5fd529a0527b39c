"""An app's shared preferences: `/data/data/PKG/shared_prefs/FILE.xml`, read and written.

The file is what Android's SharedPreferencesImpl writes through XmlUtils.writeMapXml: a `<map>`
of `<string name="k">v</string>`, `<int name="k" value="1" />`, `<long …/>`, `<float …/>`,
`<boolean …/>` and `<set name="k"><string>a</string>…</set>`. `parse` gives each key its typed
value (`Pref`: the element's kind and the Python value: str, int, float, bool, frozenset);
`render` writes them back in that layout; `put` changes one key of a file's text.
Reading another app's data needs a rooted device (the simulated one is); the app must not be
running when its file is written, or it writes its own copy back.
"""
from __future__ import annotations

import dataclasses
import posixpath
import xml.etree.ElementTree as ElementTree
from typing import Any

from taskkit.errors import TaskkitError

KINDS = ("string", "int", "long", "float", "boolean", "set")
_HEADER = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n"


class PrefsError(TaskkitError, ValueError):
    """The file is not a shared-preferences map."""


@dataclasses.dataclass(frozen=True)
class Pref:
    """One key's value and the element it is written as."""

    kind: str
    value: Any


def path(package: str, file: str) -> str:
    """Where `package` keeps the preferences file `file` (given with or without `.xml`)."""
    name = file if file.endswith(".xml") else file + ".xml"
    if not name[:-4] or "/" in name:
        raise ValueError(f"not a shared-preferences file name: {file!r}")
    return posixpath.join("/data/data", package, "shared_prefs", name)


def _typed(kind: str, text: str) -> Any:
    if kind == "boolean":
        if text not in ("true", "false"):
            raise PrefsError(f"boolean value {text!r}")
        return text == "true"
    return float(text) if kind == "float" else int(text)


def parse(text: str) -> dict[str, Pref]:
    """The typed entries of a shared-preferences file's text."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise PrefsError(f"not XML: {error}") from None
    if root.tag != "map":
        raise PrefsError(f"the root element is <{root.tag}>, not <map>")
    entries: dict[str, Pref] = {}
    for element in root:
        name = element.get("name")
        if element.tag not in KINDS or name is None:
            raise PrefsError(f"unexpected <{element.tag}> in <map>")
        if element.tag == "string":
            value: Any = element.text or ""
        elif element.tag == "set":
            value = frozenset(item.text or "" for item in element)
        else:
            try:
                value = _typed(element.tag, element.get("value", ""))
            except ValueError as error:
                raise PrefsError(f"{name}: {error}") from None
        entries[name] = Pref(element.tag, value)
    return entries


# FastXmlSerializer's ESCAPE_TABLE (frameworks/base core/java/com/android/internal/util/
# FastXmlSerializer.java, Android 10-13), used for attribute values and text alike: the control
# characters as numeric references, `"` `&` `<` `>` by name; `'` and everything else as is.
_ESCAPES = {**{code: f"&#{code};" for code in range(32)}, ord('"'): "&quot;", ord("&"): "&amp;",
            ord("<"): "&lt;", ord(">"): "&gt;"}


def _escape(text: str) -> str:
    return text.translate(_ESCAPES)


def _element(name: str, pref: Pref) -> str:
    key = f'"{_escape(name)}"'
    if pref.kind == "string":
        return f"    <string name={key}>{_escape(str(pref.value))}</string>\n"
    if pref.kind == "set":
        items = "".join(f"        <string>{_escape(item)}</string>\n" for item in sorted(pref.value))
        return f"    <set name={key}>\n{items}    </set>\n" if items else f"    <set name={key} />\n"
    value = ("true" if pref.value else "false") if pref.kind == "boolean" else repr(pref.value) \
        if pref.kind == "float" else str(int(pref.value))
    return f'    <{pref.kind} name={key} value="{value}" />\n'


def render(entries: dict[str, Pref]) -> str:
    """The file's text for `entries`, laid out as Android writes it."""
    if not entries:
        return _HEADER + "<map />\n"
    return _HEADER + "<map>\n" + "".join(_element(name, pref) for name, pref in entries.items()) + "</map>\n"


def put(text: str | None, name: str, pref: Pref) -> str:
    """`text` (None: no file yet) with `name` set to `pref`."""
    if pref.kind not in KINDS:
        raise ValueError(f"preference kind must be one of {', '.join(KINDS)}, not {pref.kind!r}")
    entries = parse(text) if text else {}
    entries[name] = pref
    return render(entries)
