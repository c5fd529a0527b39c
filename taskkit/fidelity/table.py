"""How closely the simulated apps follow the real ones: plays every built-in task's GUI reference
(seed 0), reads each screen's `uiautomator dump`, and per app package counts the resource ids
found in the real app's resources and the static labels found in its strings.

    python -m taskkit.fidelity.table --sources DIR [--json] [--write docs/fidelity.md]
    python -m taskkit.fidelity.table --recall [--sources DIR] [--json]   (the other direction: taskkit.fidelity.recall)

DIR holds one checkout per source, named `<repo name>-<tag>`: each app model's `SOURCE` (and its
libraries, e.g. Simple-Commons at the commit the app pins) plus Android 13's framework resources,
AndroidX AppCompat's and Material Components' (`FRAMEWORK`, `APPCOMPAT` and `MATERIAL` in
taskkit.sim.gui.source). `--help` prints the commands that fetch them.

What is counted, per app package (distinct values over every screen of the app's package):

* ids: each `resource-id`. `PKG:id/NAME` is found when a layout or menu of the app, one of its
  libraries, AppCompat or Material Components declares `@+id/NAME` (or a values file an `id` item);
  `android:id/NAME` when the framework's resources do.
* static labels: each non-empty `text` and `content-desc`. A label is found when it equals a string
  of the default `values/` of the app, its libraries, AppCompat, Material Components or the
  framework (strings, string arrays, plurals; a literal text or title of a layout or menu counts
  too), or matches one with its format arguments (`%s`, `%1$d`, ...) filled in (a plural's "one"
  form only for 1), or is one once data is taken out (code joins a count and a string: "3 Songs"),
  or each of its lines, or of its parts joined by ", ", is found or data (a question followed by
  paths; Audio Recorder's "0 Mb, M4a, 44.1kHz", AppConstants.SEPARATOR between strings); the string
  values of the app's bundled JSON assets count as strings (Pro Expense's currency codes,
  assets/currencies.json). A label that is not found is user data, and left out, when an editable
  field shows it, or when nothing is left of it once every task parameter, every text value of the
  device's databases, every file name on the device, file extensions, digits, a size's unit and the
  names of months and weekdays are taken out of it, or when it is the start of such a value cut at
  an `android:maxLength` one of the app's layouts declares (a TextView's length filter: Pro
  Expense's 20-character names); otherwise it is a static label the real app does not have: a
  difference, listed.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import importlib
import json
import os
import pkgutil
import re
import sqlite3
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterable, Iterator

from taskkit.apps import media
from taskkit.errors import TaskkitError
from taskkit.fidelity import recall, screen_map
from taskkit.fidelity.layouts import Index, LayoutError
from taskkit.fidelity.recall import Visits
from taskkit.sim.gui.source import APPCOMPAT, FRAMEWORK, MATERIAL, Source

SHARED = (FRAMEWORK, APPCOMPAT, MATERIAL)  # resources every app's screens may show

_ID_REF = re.compile(r"@\+?id/([A-Za-z0-9_.]+)")
_FORMAT = re.compile(r"%(?:\d+\$)?[-#+ 0,(]*\d*(?:\.\d+)?([a-zA-Z%])")
_DATE_WORDS = re.compile(r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                         r"sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s|sday)?|"
                         r"wed(?:nesday)?|thu(?:rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|am|pm)\b",
                         re.IGNORECASE)
_SIZE_UNITS = re.compile(r"(?<=\d )(?:B|kB|MB|GB|TB)\b")  # Simple-Commons' formatSize
_LITERAL_ATTRS = ("text", "title", "contentDescription", "hint")
_ANDROID = "{http://schemas.android.com/apk/res/android}"


class SourcesError(TaskkitError, ValueError):
    """The sources directory lacks a checkout the table needs."""


@dataclasses.dataclass
class Resources:
    """What a set of checkouts declares: ids, literal strings and format patterns."""

    ids: set[str] = dataclasses.field(default_factory=set)
    strings: set[str] = dataclasses.field(default_factory=set)
    max_lengths: set[int] = dataclasses.field(default_factory=set)  # the layouts' android:maxLength values
    #: (pattern, quantity): a plural's "one" form matches only 1, its "other" form anything else
    formats: list[tuple[re.Pattern[str], str | None]] = dataclasses.field(default_factory=list)

    def add_string(self, value: str, quantity: str | None = None) -> None:
        value = _unescape(value)
        if not value:
            return
        if _FORMAT.search(value) is None:
            self.strings.add(value)
            return
        if not any(char.isalpha() for char in _FORMAT.sub("", value)):
            return  # "%1$s", "%d/%d": no words of its own, it would match any label
        parts, at = [], 0
        for match in _FORMAT.finditer(value):
            parts.append(re.escape(value[at:match.start()]))
            kind = match.group(1)
            parts.append("%" if kind == "%" else r"(\d[\d,.]*)" if kind in "dfx" else "(.+?)")
            at = match.end()
        parts.append(re.escape(value[at:]))
        self.formats.append((re.compile("".join(parts), re.DOTALL), quantity))

    def has_label(self, label: str) -> bool:
        label = label.strip()
        if label in self.strings:
            return True
        for pattern, quantity in self.formats:
            match = pattern.fullmatch(label)
            if match is None:
                continue
            counts = [group for group in match.groups() if group.isdigit()]
            if quantity not in ("one", "other") or not counts or (counts[0] == "1") == (quantity == "one"):
                return True
        return False

    def merge(self, other: "Resources") -> "Resources":
        return Resources(self.ids | other.ids, self.strings | other.strings, self.max_lengths | other.max_lengths,
                         self.formats + other.formats)


def _unescape(value: str) -> str:
    value = re.sub(r"</?(?:b|i|u|big|small)>", "", value.strip())  # escaped markup Html.fromHtml renders as styling
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    value = re.sub(r"\s+", " ", value) if "\\n" not in value else value
    value = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), value)  # aapt's \uXXXX
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), value)


def _res_dirs(root: Path, res: str | None) -> Iterator[Path]:
    for folder, dirs, _ in os.walk(root / (res or "")):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("build", "test", "androidTest")]
        if Path(folder).name == "res" and Path(folder).parent.name not in ("test", "androidTest"):
            yield Path(folder)


def read_resources(root: Path, res: str | None = None) -> Resources:
    """The ids of every layout and menu, the default strings and the string values of the bundled
    JSON assets (`assets` beside `res`) of the checkout at `root`."""
    found = Resources()
    for res_dir in _res_dirs(root, res):
        for path in sorted((res_dir.parent / "assets").rglob("*.json")):
            _read_json(path, found)
        for sub in sorted(res_dir.iterdir()) if res_dir.is_dir() else ():
            kind = sub.name.split("-", 1)[0]
            for path in sorted(sub.glob("*.xml")):
                if kind in ("layout", "menu"):
                    _read_layout(path, found)
                elif sub.name == "values":
                    _read_values(path, found)
    return found


def _parse(path: Path) -> ET.Element | None:
    try:
        return ET.parse(path).getroot()
    except ET.ParseError:
        return None


def _read_json(path: Path, found: Resources) -> None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError):
        return
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.add_string(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def _read_layout(path: Path, found: Resources) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    found.ids.update(match.group(1) for match in _ID_REF.finditer(text))
    root = _parse(path)
    for element in root.iter() if root is not None else ():
        if (element.get(_ANDROID + "maxLength") or "").isdigit():
            found.max_lengths.add(int(element.get(_ANDROID + "maxLength", "")))
        for attr in _LITERAL_ATTRS:
            value = element.get(_ANDROID + attr) or element.get("app:" + attr)
            if value and not value.startswith(("@", "?")):
                found.add_string(value)


def _read_values(path: Path, found: Resources) -> None:
    root = _parse(path)
    for element in root if root is not None else ():
        if element.tag in ("item", "public") and element.get("type") == "id":
            found.ids.add(element.get("name", ""))
        elif element.tag == "string":
            found.add_string("".join(element.itertext()))
        elif element.tag == "string-array":
            for item in element:
                found.add_string("".join(item.itertext()))
        elif element.tag == "plurals":
            for item in element:
                found.add_string("".join(item.itertext()), item.get("quantity"))


# -- the simulated apps -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Modelled:
    """One simulated app that names the source it follows."""

    module: str
    package: str
    source: Source


def modelled_apps() -> list[Modelled]:
    """Every app model under taskkit/sim/gui/apps/ with a `SOURCE`, by package."""
    from taskkit.sim.gui import apps

    found = []
    for info in pkgutil.iter_modules(apps.__path__):
        module = importlib.import_module(f"{apps.__name__}.{info.name}")
        source = getattr(module, "SOURCE", None)
        if isinstance(source, Source):
            found.append(Modelled(info.name, module.APP.package, source))
    return sorted(found, key=lambda app: app.package)


def measured_apps() -> list[Modelled]:
    """The precision table's rows: every app model, and the system screen that names its source
    (PermissionController's runtime-permission dialog, taskkit/sim/gui/permissions.py), by package."""
    from taskkit.sim.gui import permissions

    system = Modelled("permissions", permissions.PACKAGE, permissions.SOURCE)
    return sorted([*modelled_apps(), system], key=lambda app: app.package)


def checkout(sources_dir: Path, source: Source) -> Path:
    """The folder of `source` under `sources_dir`, or SourcesError naming how to fetch it."""
    folder = sources_dir / source.folder
    if not folder.is_dir():
        raise SourcesError(f"{folder} is missing: fetch it with `{source.fetch_command(str(sources_dir))}`")
    return folder


def commit_of(folder: Path) -> str:
    """The checkout's commit (`git rev-parse HEAD`); for a folder that is no git work tree (a
    partial copy of a repository's files), a note with the first line of its README.md, which
    says what the copy holds and from which commits."""
    try:
        done = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=False, env={**os.environ, "GIT_CEILING_DIRECTORIES": str(folder.parent)})
    except OSError:
        done = None
    if done is not None and done.returncode == 0:
        return done.stdout.strip()
    readme = folder / "README.md"
    lines = readme.read_text(encoding="utf-8", errors="replace").splitlines() if readme.is_file() else []
    said = next((line.strip().replace("|", "/") for line in lines if line.strip()), "")
    return f"not a git checkout (partial copy; README.md: {said})" if said else "not a git checkout (partial copy)"


# -- what the screens show ----------------------------------------------------------------------------


@dataclasses.dataclass
class Seen:
    """What one app package's screens showed: ids and labels, each with the first task that showed it."""

    ids: dict[str, str] = dataclasses.field(default_factory=dict)
    labels: dict[str, str] = dataclasses.field(default_factory=dict)
    data: dict[str, set[str]] = dataclasses.field(default_factory=dict)  # label -> the data around at the time
    screens: int = 0
    visits: dict[str, Visits] = dataclasses.field(default_factory=dict)  # screen key (screen_map) -> its dumps' ids


def read_dump(xml: str, task: str, seen: dict[str, Seen], data: set[str], screen: tuple[str, str] | None = None) -> None:
    """Add the ids and labels of one window dump to `seen`, by each node's package; `screen`:
    the (package, screen key) of the app screen in front (taskkit.fidelity.screen_map), whose
    visits get the ids its package's nodes show."""
    packages = set()
    visit = seen.setdefault(screen[0], Seen()).visits.setdefault(screen[1], Visits()) if screen else None
    if visit is not None:
        visit.tasks.add(task)
    for node in ET.fromstring(xml).iter("node"):
        package = node.get("package", "")
        entry = seen.setdefault(package, Seen())
        packages.add(package)
        if node.get("resource-id"):
            entry.ids.setdefault(node.get("resource-id", ""), task)
            if visit is not None and screen is not None and package == screen[0]:
                visit.ids.add(node.get("resource-id", ""))
        typed = node.get("class", "").endswith("EditText")  # what a field holds is the user's
        for label in (node.get("text", ""), node.get("content-desc", "")):
            if label.strip():
                entry.labels.setdefault(label, task)
                entry.data.setdefault(label, set()).update({label} if typed else data)
    for package in packages:
        seen[package].screens += 1


def device_data(fs_root: Path, params: Any) -> set[str]:
    """The user data a screen may show: the task's parameters, the text values of every database
    of the device, the tags of its songs and the name (and stem) of every file on it."""
    found: set[str] = set()
    _flatten(params, found)
    for folder, dirs, files in os.walk(fs_root):
        for name in dirs + files:
            found.update((name, os.path.splitext(name)[0]))
        for name in files:
            if name.endswith(".db"):
                found.update(_db_texts(Path(folder) / name))
            elif name.endswith(".mp3"):  # a song's tags, as the music apps list them
                tags = media.mp3_tags((Path(folder) / name).read_bytes())
                found.update((tags.title, tags.artist, tags.album) if tags else ())
    return {value for value in found if len(value.strip()) >= 2}


def _flatten(value: Any, into: set[str]) -> None:
    if isinstance(value, dict):
        for item in value.values():
            _flatten(item, into)
    elif isinstance(value, (list, tuple, set)):
        for item in value:
            _flatten(item, into)
    elif value is not None:
        into.update(str(value).splitlines() or [str(value)])


def _db_texts(path: Path) -> set[str]:
    found: set[str] = set()
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                for row in db.execute(f'SELECT * FROM "{table}"'):
                    for cell in row:
                        if isinstance(cell, str) and cell:
                            found.update(cell.splitlines())
    except sqlite3.Error:
        pass
    return found


def _without_data(label: str, data: Iterable[str], gap: str = " ") -> str:
    """`label` with data, file extensions, digits and date words taken out (runs of them become `gap`)."""
    rest = label
    for value in sorted(data, key=len, reverse=True):
        if value in rest:
            rest = rest.replace(value, gap)
    rest = re.sub(r"\.[A-Za-z0-9]{1,4}\b", gap, _SIZE_UNITS.sub(gap, rest))  # sizes, then file extensions
    rest = _DATE_WORDS.sub(gap, re.sub(r"\d+", gap, rest))
    return re.sub(r"\s+", " ", rest)


def is_data(label: str, data: Iterable[str]) -> bool:
    """Nothing but user data is left of `label` once data, digits and date words are taken out."""
    return not any(char.isalpha() for char in _without_data(label, data))


def is_cut_data(label: str, data: Iterable[str], max_lengths: set[int]) -> bool:
    """`label` is the start of a data value, cut at one of the `max_lengths` (a TextView's
    android:maxLength filter)."""
    return len(label) in max_lengths and any(len(value) > len(label) and value.startswith(label) for value in data)


def screens_seen(seen: dict[str, Seen]) -> dict[tuple[str, str], Visits]:
    """(package, screen key) -> what that simulated screen's dumps showed."""
    return {(package, key): visit for package, entry in seen.items() for key, visit in entry.visits.items()}


def play_references(seed: int = 0, tasks: list[str] | None = None) -> dict[str, Seen]:
    """Play the GUI references of `tasks` (default: every built-in one) on a fresh simulated
    device; return what each package's screens showed (and each mapped app screen, for the recall)."""
    from taskkit.device.services.ui import build_dump
    from taskkit.fidelity import tour
    from taskkit.sim.gui.session import Session

    seen: dict[str, Seen] = {}

    def record(device: Any, task: str, params: dict[str, Any], observation: Any) -> None:
        read_dump(device.check(build_dump()), task, seen, device_data(device.state.fs_root, params),
                  screen_map.screen_key(Session(device.state)))

    for _ in tour.walk(record, tasks, seed):
        pass
    return seen


# -- the table -----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Row:
    """One app's figures and its differences."""

    package: str
    source: str
    tag: str
    version_code: int | None
    screens: int
    ids_found: int
    ids_total: int
    labels_found: int
    labels_total: int
    missing_ids: tuple[tuple[str, str], ...]  # (id, the first task that showed it)
    missing_labels: tuple[tuple[str, str], ...]

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def compare(app: Modelled, seen: Seen, own: Resources, framework: Resources) -> Row:
    """The row of one app: its screens' ids and static labels against its resources."""
    everything = own.merge(framework)
    found_ids, missing_ids = 0, []
    for rid, task in sorted(seen.ids.items()):
        package, _, name = rid.partition(":id/")
        if (framework if package == "android" else own).ids.__contains__(name):
            found_ids += 1
        else:
            missing_ids.append((rid, task))
    found_labels, missing_labels = 0, []
    for label, task in sorted(seen.labels.items()):
        data = seen.data.get(label, set())
        if _has_label(everything, label, data):
            found_labels += 1
        elif not is_data(label, data) and not is_cut_data(label, data, own.max_lengths):
            missing_labels.append((label, task))
    return Row(app.package, app.source.repo, app.source.tag, app.source.version_code, seen.screens, found_ids,
               len(seen.ids), found_labels, found_labels + len(missing_labels), tuple(missing_ids),
               tuple(missing_labels))


def _has_label(resources: Resources, label: str, data: set[str]) -> bool:
    """The label is a string of `resources`; or it is one joined to data by code ("3 Songs",
    "3 Songs  •  12:04"); or its lines, or its parts joined by ", ", are (one at least), the
    others data (a question followed by the paths it is about; "0 Mb, M4a, 44.1kHz")."""
    if resources.has_label(label) or resources.has_label(_without_data(label, data, " ").strip(" •·,:-")):
        return True
    parts = [part for part in re.split(r"\n|, ", label) if part.strip()]
    found = [resources.has_label(part) for part in parts]
    return len(parts) > 1 and any(found) and all(ok or is_data(part, data) for ok, part in zip(found, parts))


def locate(sources_dir: Path) -> tuple[list[Modelled], dict[str, Path]]:
    """The measured apps and the folder of every checkout they need (SourcesError if one is missing)."""
    if not sources_dir.is_dir():
        raise SourcesError(f"--sources {sources_dir} is not a directory")
    apps = measured_apps()
    folders = {source.folder: checkout(sources_dir, source) for source in SHARED}
    for app in apps:
        for source in (app.source, *app.source.libraries):
            folders[source.folder] = checkout(sources_dir, source)
    return apps, folders


def build_rows(apps: list[Modelled], folders: dict[str, Path], seen: dict[str, Seen]) -> list[Row]:
    """Every modelled app's row."""
    framework = read_resources(folders[FRAMEWORK.folder], FRAMEWORK.res)
    rows = []
    for app in apps:
        own = Resources()
        for source in (app.source, *app.source.libraries, APPCOMPAT, MATERIAL):
            own = own.merge(read_resources(folders[source.folder], source.res))
        rows.append(compare(app, seen.get(app.package, Seen()), own, framework))
    return rows


def recall_fixture(apps: list[Modelled], folders: dict[str, Path]) -> dict[str, Any]:
    """taskkit.fidelity.recall's fixture: per mapped app, the ids of every layout and menu the
    screen map names, read from its checkouts (the app's, then its libraries'), and their commits."""
    layouts, commits = {}, {}
    for app in apps:
        if app.package not in screen_map.SCREENS:
            continue
        sources = (app.source, *app.source.libraries)
        for source in sources:
            commit = commit_of(folders[source.folder])
            commits[source.folder] = commit if "not a git checkout" not in commit else (
                f"{source.repo} tag {source.tag} (an export, no .git)")
        index = Index([(folders[s.folder], res) for s in sources for res in _res_dirs(folders[s.folder], s.res)])
        layouts[app.package] = recall.read_layouts(index, app.package)
    return {"commits": dict(sorted(commits.items())), "layouts": dict(sorted(layouts.items()))}


def _percent(found: int, total: int) -> str:
    return f"{100 * found / total:.0f} % ({found}/{total})" if total else "–"


def table(rows: list[Row]) -> str:
    """The figures as a Markdown table."""
    lines = ["| app package | follows | versionCode | screens | ids found in the real app | static labels found |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r.package} | {r.source} {r.tag} | {r.version_code or '?'} | {r.screens} | "
              f"{_percent(r.ids_found, r.ids_total)} | {_percent(r.labels_found, r.labels_total)} |" for r in rows]
    return "\n".join(lines)


def document(rows: list[Row], commits: dict[str, str], today: datetime.date, recalled: list[recall.ScreenRow],
             fixture_commits: dict[str, str]) -> str:
    """docs/fidelity.md: the table, the sources' commits, every remaining difference, then the
    recall (per app and per screen, with the missing ids)."""
    out = ["# Fidelity of the simulated apps", "",
           f"Generated on {today.isoformat()} by `python -m taskkit.fidelity.table --sources DIR --write "
           "docs/fidelity.md` (how it counts: the module's docstring; the versions: docs/sim-gui.md). "
           "Every built-in task's GUI reference was played at seed 0 and every screen's window dump read.", "",
           table(rows), "", "## Sources", "", "| checkout | commit |", "|---|---|"]
    out += [f"| {name} | {commit} |" for name, commit in commits.items()]
    if any("partial copy" in commit for commit in commits.values()):
        out += ["", "A partial copy holds only the files its README.md lists (read one by one from a public index, "
                "at the commits it names): an id or label of that repository which those files lack counts as "
                "missing, never as found."]
    out += ["", "What the count cannot see: `android:id/NAME` is found when the framework declares NAME, whether "
            "the real screen shows the framework's view or AppCompat's copy of it (which carries the app's "
            "`PKG:id/NAME`).", "", "## Remaining differences", ""]
    if not any(row.missing_ids or row.missing_labels for row in rows):
        out += ["No id or static label of a visited screen is missing from the real apps' resources. What the "
                "models leave out (screens, flows, menu items that do nothing) is listed in each app model's "
                "docstring (taskkit/sim/gui/apps/) and under \"Simplifications\" in docs/sim-gui.md.", ""]
    for row in rows:
        if not row.missing_ids and not row.missing_labels:
            continue
        out += [f"### {row.package}", ""]
        out += [f"- id `{rid}` (not in the real app's layouts or menus; first shown by {task})"
                for rid, task in row.missing_ids]
        out += [f"- label {json.dumps(label, ensure_ascii=False)} (not in the real app's strings; first shown by {task})"
                for label, task in row.missing_labels]
        out.append("")
    out += recall_section(recalled, fixture_commits)
    return "\n".join(out).rstrip() + "\n"


def recall_section(recalled: list[recall.ScreenRow], fixture_commits: dict[str, str]) -> list[str]:
    """The lines of docs/fidelity.md's recall section."""
    out = ["## Recall: what the real screens show", "",
            "The other direction (`python -m taskkit.fidelity.table --recall`; how it counts: taskkit/fidelity/recall.py, "
            "layouts.py and the cited screen map, screen_map.py): for every app screen the references visit, the ids "
            "the real app's layouts show by default (its includes, list rows and toolbar items expanded; `gone`, "
            "`invisible` and what the code hides on the way dropped; bare layout containers not counted) and the share "
            "the simulated screen's dumps show. The layouts' ids are in taskkit/fidelity/real_layouts.json, read from "
            "the checkouts below (`python -m taskkit.fidelity.table --recall --sources DIR` rereads them).", "",
            recall.table(recalled), "", "| checkout (recall fixture) | commit |", "|---|---|"]
    out += [f"| {name} | {commit} |" for name, commit in fixture_commits.items()]
    return out


def _fetch_help() -> str:
    lines = ["fetch the checkouts with (DIR: the --sources directory):"]
    seen: set[str] = set()
    sources = [*SHARED] + [s for app in measured_apps() for s in (app.source, *app.source.libraries)]
    for source in sources:
        if source.folder not in seen:
            seen.add(source.folder)
            lines.append(f"  {source.fetch_command()}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m taskkit.fidelity.table", description=__doc__.split("\n\n")[0],
                                     epilog=_fetch_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", type=Path, help="the folder that holds the checkouts (not needed for --recall)")
    parser.add_argument("--recall", action="store_true", help="print the recall (taskkit.fidelity.recall: the real "
                        "screens' default-visible ids the simulated ones show) instead, from its committed fixture; "
                        "with --sources, the fixture is read again from the checkouts first")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of the table")
    parser.add_argument("--write", type=Path, help="also write the Markdown document (docs/fidelity.md): precision "
                        "and recall; needs --sources")
    args = parser.parse_args(argv)
    if args.sources is None and (args.write or not args.recall):
        print("fidelity: --sources DIR is needed (for --write, or without --recall); --help says how to fetch it",
              file=sys.stderr)
        return 2
    try:
        apps, folders = locate(args.sources) if args.sources else ([], {})  # checked before the references play
    except SourcesError as error:
        print(f"fidelity: {error}", file=sys.stderr)
        return 2
    if args.recall and args.sources:
        try:
            recall.write_fixture(recall_fixture(apps, folders))
        except LayoutError as error:
            print(f"fidelity: {error}", file=sys.stderr)
            return 2
    seen = play_references()
    fixture = recall.load_fixture()
    recalled = recall.screen_rows(screens_seen(seen), fixture["layouts"], recall.android_world_tasks())
    rows = build_rows(apps, folders, seen) if args.sources else []
    commits = {name: commit_of(folder) for name, folder in sorted(folders.items())}
    if args.json:
        print(json.dumps({"rows": [row.as_json() for row in rows], "commits": commits,
                          "recall": recall.as_json(recalled)}, indent=1, ensure_ascii=False))
    else:
        print(recall.table(recalled) if args.recall else table(rows))
    if args.write:
        text = document(rows, commits, datetime.date.today(), recalled, fixture["commits"])
        old = args.write.read_text(encoding="utf-8") if args.write.is_file() else ""
        args.write.write_text(text + kept_sections(old, text), encoding="utf-8")
    return 0


def kept_sections(old: str, new: str) -> str:
    """The `## ` sections of `old` that `new` has no heading for (written by other commands, such
    as taskkit.fidelity.compare's "Side by side"), in their order, to follow `new`."""
    parts = re.split(r"(?m)^(?=## )", old)[1:]
    headings = set(re.findall(r"(?m)^## .*$", new))
    return "".join("\n" + part.rstrip() + "\n" for part in parts if part.splitlines()[0] not in headings)


if __name__ == "__main__":
    sys.exit(main())
