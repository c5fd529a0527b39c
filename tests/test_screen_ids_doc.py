"""docs/screen-ids.md lists the ids the screens show: replaying a few GUI references finds no
(package, activity, id) the committed reference lacks (regenerate it with
`python -m taskkit.fidelity.screen_ids --write docs/screen-ids.md`)."""
from __future__ import annotations

import re
from pathlib import Path

from taskkit.fidelity import screen_ids

DOC = Path(__file__).resolve().parents[1] / "docs" / "screen-ids.md"


def _documented() -> set[tuple[str, str, str]]:
    found, package, activity = set(), "", ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            package = line[3:]
        elif line.startswith("### "):
            activity = line[4:]
        elif match := re.match(r"\| `([^`]+)` \|", line):
            found.add((package, activity, match.group(1)))
    return found


def test_the_screens_of_sampled_references_are_all_documented() -> None:
    seen = screen_ids.collect(["MarkorCreateNote", "SimpleSmsSend", "ExpenseDeleteSingle"])
    shown = {(package, activity, rid) for (package, activity), ids in seen.items() for rid in ids}
    assert len(shown) > 30
    assert sorted(shown - _documented()) == []


def test_a_user_data_label_is_marked_as_data() -> None:
    into: dict = {}
    xml = ('<hierarchy><node package="p" class="android.widget.TextView" resource-id="p:id/title" text="Lunch with Ana"'
           ' content-desc=""/><node package="p" class="android.widget.Button" resource-id="p:id/save" text="Save"'
           ' content-desc=""/></hierarchy>')
    screen_ids.read_screen(xml, "p.Main", {"Lunch with Ana"}, into)
    assert into[("p", "p.Main")] == {"p:id/title": screen_ids.IdEntry("TextView", "(data)"),
                                     "p:id/save": screen_ids.IdEntry("Button", "Save")}
