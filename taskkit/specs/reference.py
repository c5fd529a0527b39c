"""The reference tables of spec checks and steps in the docs, generated from `kinds`.

    python -m taskkit.specs.reference docs/authoring-specs.md   # rewrite the tables in place
    python -m taskkit.specs.reference                           # print them

Each table sits between `<!-- BEGIN generated check kinds ... -->` and
`<!-- END generated check kinds -->` (and the same for steps); everything else in the file is
left as written. tests/specs/test_kinds.py fails when the committed tables are stale.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from taskkit.specs.kinds import CHECKS, STEPS, Kinds

_BEGIN, _END = "<!-- BEGIN generated {noun} kinds", "<!-- END generated {noun} kinds -->"
_NOTE = " (from taskkit/specs/kinds.py; refresh: python -m taskkit.specs.reference docs/authoring-specs.md) -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(kinds: Kinds) -> str:
    """The markdown table of `kinds`, one row per kind in the schema's order."""
    if kinds.noun == "check":
        lines = ["| check | passes when | example | Python |", "|---|---|---|---|"]
    else:
        lines = [f"| {kinds.noun} | does | example |", "|---|---|---|"]
    for field in kinds.oneof_fields():
        kind = kinds[field]
        cells = [f"`{kinds.synopsis(field)}`", kind.doc, f"`{kind.example}`"]
        if kind.python is not None:
            cells.append(f"`{kind.python.__name__}`")
        lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return "\n".join(lines)


def refresh(text: str) -> str:
    """`text` with each generated table rewritten from the registry."""
    for kinds in (STEPS, CHECKS):
        begin, end = _BEGIN.format(noun=kinds.noun), _END.format(noun=kinds.noun)
        start, stop = text.find(begin), text.find(end)
        if start < 0 or stop < start:
            raise ValueError(f"no `{begin} ... -->` ... `{end}` block to fill")
        text = text[:start] + begin + _NOTE + "\n" + table(kinds) + "\n" + text[stop:]
    return text


def main(paths: Sequence[str]) -> int:
    if not paths:
        print(table(STEPS) + "\n\n" + table(CHECKS))
    for name in paths:
        path = Path(name)
        path.write_text(refresh(path.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
