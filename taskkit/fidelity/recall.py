"""Recall: the share of the views a real screen shows by default that the simulated screen's dump
has, per screen and per app.

    python -m taskkit.fidelity.table --recall [--sources DIR] [--json] [--write docs/fidelity.md]

What a real screen shows comes from the data table taskkit.fidelity.screen_map (each simulated
screen's layouts, list rows, menus and the code's hide/show rules) read by
taskkit.fidelity.layouts (includes expanded, `gone`/`invisible` dropped, bare containers kept
apart, toolbar items placed as AppCompat places them). The ids each layout shows are kept in the
committed fixture `real_layouts.json` (with the sources' commits), so the recall is computed
without the sources; `--recall --sources DIR` reads them again and rewrites the fixture.

An id counts once per screen: expected = the screen's ids by default; found = those the dump of
that screen (any visit, every GUI reference played at seed 0) shows. An app's recall sums its
measured screens. A screen that is not the app's own layout is listed as not measured, with why.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from taskkit.fidelity import screen_map
from taskkit.fidelity.layouts import Found, Index, LayoutError, on_bar

FIXTURE = Path(__file__).with_name("real_layouts.json")


# -- the fixture --------------------------------------------------------------------------------------


def read_layouts(index: Index, package: str) -> dict[str, Any]:
    """The fixture entry of one app: every layout and menu the screen map names for `package`,
    read from `index` (LayoutError when one is not there)."""
    entry: dict[str, Any] = {}
    for real in screen_map.SCREENS[package].values():
        for key in real.keys():
            if key not in entry:
                entry[key] = _read(index, key).as_json()
    return dict(sorted(entry.items()))


def _read(index: Index, key: str) -> Found:
    kind, _, name = key.partition(":")
    if kind in ("menu", "tabs"):
        return index.menu(name, every_item=kind == "tabs")
    return index.layout(name, window=kind == "screen")


def load_fixture(path: Path = FIXTURE) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def write_fixture(data: dict[str, Any], path: Path = FIXTURE) -> None:
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# -- what a real screen shows -------------------------------------------------------------------------


def expected(package: str, real: screen_map.Real, layouts: dict[str, Any]) -> list[str]:
    """The resource ids (as a dump writes them) the real screen shows by default."""
    hidden = {rid for rule in real.hidden for rid in rule.ids}
    shown = {rid for rule in real.shown for rid in rule.ids}
    keep = lambda rid: rid not in hidden  # noqa: E731
    ids: list[str] = []
    always: list[str] = []
    if_room: list[str] = []
    overflow: list[str] = []
    for key in real.keys():
        found = layouts[key]
        revealed = [rid for rid in found["hidden"] if rid in shown]
        if key.startswith("menu:"):
            always += [rid for rid in found["ids"] + revealed if keep(rid)]
            if_room += [rid for rid in found["if_room"] if keep(rid)]
            overflow += [rid for rid in found["overflow"] if keep(rid)]
        else:
            ids += [rid for rid in found["ids"] + revealed if keep(rid)]
    ids += on_bar(always, if_room, overflow)
    return list(dict.fromkeys(_dump_id(package, rid) for rid in ids))


def _dump_id(package: str, rid: str) -> str:
    return f"android:id/{rid[8:]}" if rid.startswith("android:") else f"{package}:id/{rid}"


# -- the rows -----------------------------------------------------------------------------------------


@dataclasses.dataclass
class Visits:
    """What one simulated screen's dumps showed: the ids and the tasks that passed through it."""

    ids: set[str] = dataclasses.field(default_factory=set)
    tasks: set[str] = dataclasses.field(default_factory=set)


@dataclasses.dataclass(frozen=True)
class ScreenRow:
    """One screen's recall."""

    package: str
    screen: str
    expected: int
    found: int
    missing: tuple[str, ...]
    tasks: int
    android_world: bool  # an AndroidWorld task passes through it
    not_measured: str = ""

    @property
    def recall(self) -> float | None:
        return self.found / self.expected if self.expected else None


def screen_rows(visits: dict[tuple[str, str], Visits], layouts: dict[str, Any],
                android_world: set[str]) -> list[ScreenRow]:
    """A row per visited screen of the mapped apps (an unmapped one says so: not measured)."""
    rows = []
    for (package, key), seen in sorted(visits.items()):
        real = screen_map.SCREENS.get(package, {}).get(key)
        aw = bool(seen.tasks & android_world)
        if real is None:
            rows.append(ScreenRow(package, key, 0, 0, (), len(seen.tasks), aw, "no entry in taskkit/fidelity/screen_map.py"))
            continue
        if real.not_measured:
            rows.append(ScreenRow(package, key, 0, 0, (), len(seen.tasks), aw, real.not_measured))
            continue
        want = expected(package, real, layouts[package])
        missing = tuple(rid for rid in want if rid not in seen.ids)
        rows.append(ScreenRow(package, key, len(want), len(want) - len(missing), missing, len(seen.tasks), aw))
    return rows


def _percent(found: int, total: int) -> str:
    return f"{100 * found / total:.0f} % ({found}/{total})" if total else "–"


def table(rows: list[ScreenRow]) -> str:
    """The recall as Markdown: per app, then per screen with its missing ids."""
    out = ["| app package | screens measured | recall of default-visible ids |", "|---|---|---|"]
    for package in sorted({row.package for row in rows}):
        mine = [row for row in rows if row.package == package and not row.not_measured]
        out.append(f"| {package} | {len(mine)} | {_percent(sum(r.found for r in mine), sum(r.expected for r in mine))} |")
    out += ["", "| app package | screen | AndroidWorld | recall | missing ids |", "|---|---|---|---|---|"]
    for row in rows:
        figure = row.not_measured and f"not measured: {row.not_measured}" or _percent(row.found, row.expected)
        missing = ", ".join(f"`{rid.split(':id/', 1)[1]}`" for rid in row.missing)
        out.append(f"| {row.package} | {row.screen} | {'yes' if row.android_world else ''} | {figure} | {missing} |")
    return "\n".join(out)


def as_json(rows: list[ScreenRow]) -> list[dict[str, Any]]:
    return [{**dataclasses.asdict(row), "recall": row.recall} for row in rows]


def android_world_tasks() -> set[str]:
    from taskkit.families import ANDROID_WORLD_TASKS

    return set(ANDROID_WORLD_TASKS)
