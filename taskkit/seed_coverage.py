"""Which of a seed benchmark's published tasks taskkit covers, and with what.

`taskkit/bmoca_tasks.json` lists B-MoCA's 131 daily tasks as its Appendix B.1 prints them (app,
instruction, step limit, detector) plus the tasks only its first version lists. Each entry
names the taskkit task and params that state it word for word (`task`, and in `params` the
values the instruction names; those it leaves open, such as a start volume, are any draw's;
`goal` where the task keeps the other version's wording of the same task), or why
taskkit leaves it out (`not_covered`: a proprietary app, online content, an app taskkit models
differently). `python -m taskkit.seed_coverage` prints the table docs/families.md carries,
then what the other seed families hold against their papers (`families_summary`: SPA-Bench's
single-app ladders and cross-app tasks, AndroidLens' tasks and how many are Chinese);
`--write docs/families.md` puts the table there, between its markers.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import re
import sys
from pathlib import Path
from typing import Any

from taskkit import families, loading, metadata, registry

BMOCA_FILE = metadata.BMOCA_FILE


@dataclasses.dataclass(frozen=True)
class Entry:
    """One published task and what taskkit does with it."""

    app: str
    instruction: str
    step_limit: int
    detector: str
    paper: str  # "v2" (the 131 of ICLR 2025) or "v1" (the first version's list only)
    representative: bool  # one of the paper's six representative tasks
    task: str | None = None
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    goal: str | None = None  # the task's goal where it words the instruction as the other version does
    not_covered: str | None = None


@functools.lru_cache(maxsize=1)
def bmoca() -> tuple[Entry, ...]:
    """B-MoCA's tasks, in its table's order."""
    data = json.loads(BMOCA_FILE.read_text(encoding="utf-8"))
    return tuple(Entry(app=e["app"], instruction=e["instruction"], step_limit=e["step_limit"],
                       detector=f"{e['detector_kind']}: {e['detector']}", paper=e.get("paper", "v2"),
                       representative=bool(e.get("representative")), task=e.get("task"),
                       params=e.get("params", {}), goal=e.get("goal"), not_covered=e.get("not_covered"))
                 for e in data["tasks"])


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(entries: tuple[Entry, ...]) -> str:
    """The coverage table: what each published task is in taskkit, or why it is not there."""
    covered = sum(e.task is not None for e in entries)
    lines = [f"{covered} of {len(entries)} tasks covered.", "",
             "| app | instruction | step limit | taskkit task (params) or why not |", "|---|---|---|---|"]
    for e in entries:
        mark = " (representative)" if e.representative else ""
        where = (f"`{e.task}`" + (f" `{json.dumps(e.params, ensure_ascii=False)}`" if e.params else "")
                 if e.task else f"not covered: {e.not_covered}")
        paper = " (v1 only)" if e.paper == "v1" else ""
        lines.append(f"| {e.app} | {_cell(e.instruction)}{mark}{paper} | {e.step_limit} | {_cell(where)} |")
    return "\n".join(lines) + "\n"


CHINESE_TAG = "lang:zh-CN"  # the tag of a task that runs under zh-CN with Chinese goals
CROSS_APP_TAG = "cross-app"


@dataclasses.dataclass(frozen=True)
class FamilyCount:
    """A seed family's registered tasks: how many, how many Chinese, how many cross-app."""

    tasks: int
    chinese: int
    cross_app: int
    cross_app_chinese: int


def family_count(family: str) -> FamilyCount:
    """Count `family`'s registered tasks by their tags (the built-in tasks loaded first)."""
    loading.load_builtin()
    tags = [registry.peek(name).tags for name in families.tasks_in(family)]
    cross = [t for t in tags if CROSS_APP_TAG in t]
    return FamilyCount(len(tags), sum(CHINESE_TAG in t for t in tags), len(cross), sum(CHINESE_TAG in t for t in cross))


def families_summary() -> str:
    """One line per other seed family: what taskkit has against what the paper publishes."""
    spa, lens = family_count("spa"), family_count("androidlens")
    single, single_zh = spa.tasks - spa.cross_app, spa.chinese - spa.cross_app_chinese
    return (f"SPA-Bench: {single} single-app ladder tasks ({single_zh} in Chinese) and {spa.cross_app} cross-app "
            f"tasks ({spa.cross_app - spa.cross_app_chinese} English, {spa.cross_app_chinese} Chinese); the paper "
            "has 300 single-app and 40 cross-app tasks, half of each Chinese.\n"
            f"AndroidLens: {lens.tasks} tasks ({lens.tasks - lens.chinese} English, {lens.chinese} Chinese); the paper "
            "has 571 (172 English, 399 Chinese).\n")


_MARKED = re.compile(r"(<!-- bmoca-coverage:[^\n]*-->\n).*?(<!-- /bmoca-coverage -->)", re.S)


def write(doc: Path) -> None:
    """Replace the table between `doc`'s bmoca-coverage markers with the current one."""
    text = doc.read_text(encoding="utf-8")
    if not _MARKED.search(text):
        raise SystemExit(f"{doc}: no <!-- bmoca-coverage: ... --> … <!-- /bmoca-coverage --> markers; add them where the table goes")
    doc.write_text(_MARKED.sub(lambda m: m[1] + markdown(bmoca()) + m[2], text), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"] and len(sys.argv) == 3:
        write(Path(sys.argv[2]))
    elif len(sys.argv) == 1:
        sys.stdout.write(markdown(bmoca()) + "\n" + families_summary())
    else:
        sys.stderr.write("usage: python -m taskkit.seed_coverage [--write DOC.md]\n")
        raise SystemExit(2)
