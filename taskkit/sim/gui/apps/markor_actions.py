"""Markor's editor formatting bar for a Markdown file: its buttons, in the app's order, and what each
does to the text, as pure functions of the text and its selection.

Facts from gsantner/markor v2.10.9 (read, not copied):
format/markdown/MarkdownActionButtons.java (`getActiveActionList`: the buttons, their icons and
descriptions; `onActionClick`), format/ActionButtonBase.java (`runInlineAction`,
`runRegexReplaceAction`: each pattern tried in order on each line of the selection, the first that
matches replaces its match; the cursor keeps its distance from the text's end; `runCommonAction`:
delete lines, indent by `getDocumentIndentSize` 4, the accordion, start new line below),
format/markdown/MarkdownReplacePatternGenerator.java and
frontend/textview/ReplacePatternGeneratorHelper.java (the prefix patterns), AppSettings
`getUnorderedListCharacter` ("-"), strings from res/values/strings.xml and
string-not_translatable.xml. With no saved order (`action_order` preferences), every EDIT-mode
action shows, plus Rotate (DisplayMode.ANY).

A `Text` is the text with its selection (start, end), start == end being the cursor.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Callable

Text = tuple[str, int, int]
Edit = Callable[[Text], Text]

_LIST_CHAR = "-"  # AppSettings.getUnorderedListCharacter's default
_INDENT = 4  # AppSettings.getDocumentIndentSize's default

# MarkdownReplacePatternGenerator's line prefixes (Java's \s: Python's [ \t\n\x0b\f\r])
_S = r"[ \t\x0b\f\r]"
ORDERED = rf"^({_S}*)(([0-9]+)(\.|\))({_S}))"  # Java's \d: ASCII digits
HEADING = rf"^({_S}{{0,3}})(#{{1,6}}{_S})"
QUOTE = rf"^(>{_S})"
CHECKED = rf"^({_S}*)((-|\*|\+){_S}\[(x|X)\]{_S})"
UNCHECKED = rf"^({_S}*)((-|\*|\+){_S}\[{_S}\]{_S})"
UNORDERED = rf"^({_S}*)((-|\*|\+){_S})"
LEADING = rf"^({_S}*)"
PREFIXES = (ORDERED, HEADING, QUOTE, CHECKED, UNCHECKED, UNORDERED, LEADING)  # PREFIX_PATTERNS' order

Rule = tuple[str, str]  # a pattern and its replacement (Python's \g<1> for Java's $1)


def _target_or(target: str, replacement: str, alternative: str) -> list[Rule]:
    """ReplacePatternGeneratorHelper.replaceWithTargetPatternOrAlternative: a line with the target
    prefix gets `alternative`, a line with any other prefix `replacement`."""
    return [(pattern, alternative if pattern == target else replacement) for pattern in PREFIXES]


def _heading(level: int) -> list[Rule]:
    """setOrUnsetHeadingWithLevel: the same level is removed, another level becomes this one,
    any other prefix gives way to it."""
    hashes = "#" * level
    return [(rf"^({_S}{{0,3}}){hashes} ", r"\g<1>"), (HEADING, rf"\g<1>{hashes} "),
            *[(pattern, rf"{hashes}\g<1> ") for pattern in PREFIXES]]


def _lines(text: str, start: int, end: int) -> tuple[int, int]:
    """The start of the line holding `start` and the end of the line holding `end`."""
    return text.rfind("\n", 0, start) + 1, (text.find("\n", end) + 1 or len(text) + 1) - 1


def replace_lines(rules: list[Rule]) -> Edit:
    """runRegexReplaceAction: on each line of the selection the first rule whose pattern matches
    replaces its first match; the selection's end keeps its distance from the text's end."""
    def edit(value: Text) -> Text:
        text, start, end = value
        first, last = _lines(text, start, end)
        lines = [_first_match(line, rules) for line in text[first:last].split("\n")]
        new = text[:first] + "\n".join(lines) + text[last:]
        cursor = len(new) - (len(text) - end)
        if start == end:
            return new, cursor, cursor
        line_end = _lines(new, first, first)[1]  # the selection's start keeps its distance from its line's end
        return new, max(first, line_end - (_lines(text, start, start)[1] - start)), cursor
    return edit


def _first_match(line: str, rules: list[Rule]) -> str:
    for pattern, replacement in rules:
        if re.search(pattern, line):
            return re.sub(pattern, replacement, line, count=1)
    return line


_WRAPPED = re.compile(r"(\*\*|~~|_|`)[a-zA-Z0-9\s]*(\*\*|~~|_|`)")


def inline(marker: str) -> Edit:
    """runInlineAction: with no selection the marker goes either side of the cursor, which stays
    between ("----\\n" goes once, before it); a selection already wrapped (inside or just outside)
    is unwrapped, otherwise it is wrapped."""
    def edit(value: Text) -> Text:
        text, start, end = value
        size = len(marker)
        if start == end:
            if marker == "----\n":
                return text[:start] + marker + text[start:], start + size, start + size
            return text[:start] + marker * 2 + text[start:], start + size, start + size
        if end < len(text) and _WRAPPED.fullmatch(text[start:end]):
            inner = text[start + size:end - size]
            return text[:start] + inner + text[end:], start, start + len(inner)
        if end <= len(text) - size and start >= size and _WRAPPED.fullmatch(text[start - size:end + size]):
            return text[:start - size] + text[start:end] + text[end + size:], start - size, end - size
        return text[:start] + marker + text[start:end] + marker + text[end:], start + size, end + 2 * size
    return edit


def insert_at_cursor(snippet: str, cursor: int) -> Edit:
    """HighlightingEditor.insertOrReplaceTextOnCursor: `snippet` replaces the selection, the
    cursor lands `cursor` characters into it."""
    def edit(value: Text) -> Text:
        text, start, end = value
        return text[:start] + snippet + text[end:], start + cursor, start + cursor
    return edit


def delete_lines(value: Text) -> Text:
    """Delete lines: the selection's lines go, with the line break after them (before them on the
    last line)."""
    text, start, end = value
    first, last = _lines(text, start, end)
    on_last = last == len(text)
    cut_from = first - (1 if on_last and first > 0 else 0)
    new = text[:cut_from] + text[last + (0 if on_last else 1):]
    return new, cut_from, cut_from


def new_line_below(value: Text) -> Text:
    """Start new line below: the cursor goes to its line's end and ENTER breaks the line there."""
    text, _, end = value
    at = _lines(text, end, end)[1]
    return text[:at] + "\n" + text[at:], at + 1, at + 1


def move_line(up: bool) -> Edit:
    """ActionButtonBase.moveLineSelectionBy1: the selection's lines swap with the line above
    (below); the selection moves with them."""
    def edit(value: Text) -> Text:
        text, start, end = value
        first, last = _lines(text, start, end)
        if (up and first == 0) or (not up and last == len(text)):
            return value
        other_first, other_last = _lines(text, first - 1, first - 1) if up else _lines(text, last + 1, last + 1)
        lines, other = text[first:last], text[other_first:other_last]
        if up:
            new = text[:other_first] + lines + "\n" + other + text[last:]
            shift = other_first - first
        else:
            new = text[:first] + other + "\n" + lines + text[other_last:]
            shift = len(other) + 1
        return new, start + shift, end + shift
    return edit


def renumber(value: Text) -> Text:
    """The ordered list around the cursor numbered 1, 2, 3 … (AutoTextFormatter.
    renumberOrderedList, for one level: the items next to each other with the cursor line's indent
    and delimiter; nothing when the cursor's line is no item)."""
    text, start, end = value
    lines = text.split("\n")
    index = text.count("\n", 0, start)
    here = re.match(ORDERED, lines[index])
    if here is None:
        return value
    item = lambda i: (found := re.match(ORDERED, lines[i])) is not None and found.group(1, 4) == here.group(1, 4)  # noqa: E731
    top = index
    while top > 0 and item(top - 1):
        top -= 1
    bottom = index
    while bottom + 1 < len(lines) and item(bottom + 1):
        bottom += 1
    shift = [0, 0]
    offset = sum(len(line) + 1 for line in lines[:top])
    for i in range(top, bottom + 1):
        found = re.match(ORDERED, lines[i])
        assert found is not None
        number = str(i - top + 1)  # getNextOrderedValue: the list's first item restarts at 1
        delta = len(number) - len(found.group(3))
        number_end = offset + found.end(3)
        lines[i] = lines[i][:found.start(3)] + number + lines[i][found.end(3):]
        shift = [shift[0] + (delta if number_end < start else 0), shift[1] + (delta if number_end < end else 0)]
        offset += len(lines[i]) + 1
    return "\n".join(lines), start + shift[0], end + shift[1]


def _then(*edits: Edit) -> Edit:
    def edit(value: Text) -> Text:
        for step in edits:
            value = step(value)
        return value
    return edit


@dataclasses.dataclass(frozen=True)
class Button:
    """One button of the bar: its content description (the action's string), the Material icon its
    drawable is (or the label a drawable of the app's own shows) and its edit (None: a dialog or
    another app the simulator does not open)."""

    desc: str
    icon: str
    edit: Edit | None = None
    label: str = ""


_ACCORDION = "<details markdown='1'><summary>Expand / Collapse</summary>\n"  # R.string.expand_collapse

# getActiveActionList's EDIT (and ANY) items, in order; drawables ic_*_black_24dp are Material's icons.
BUTTONS: tuple[Button, ...] = (
    Button("Check list", "check_box", replace_lines(_target_or(UNCHECKED, rf"\g<1>{_LIST_CHAR} [ ] ",
                                                                  rf"\g<1>{_LIST_CHAR} [x] "))),
    Button("Unordered list", "list", replace_lines(_target_or(UNORDERED, rf"\g<1>{_LIST_CHAR} ", r"\g<1>"))),
    Button("Bold", "format_bold", inline("**")),
    Button("Italic", "format_italic", inline("_")),
    Button("Delete lines", "delete", delete_lines),
    Button("Open link", "open_in_browser"),  # opens the link around the cursor in the browser
    Button("Attach", "attach_file"),  # a dialog: file, image, audio, link, date, colour
    Button("Special Key", "keyboard"),  # a dialog of keys
    Button("Date and time", "access_time"),  # DatetimeFormatDialog
    Button("Inline code", "code", inline("`")),
    Button("Ordered list", "format_list_numbered",
           _then(replace_lines(_target_or(ORDERED, r"\g<1>1. ", r"\g<1>")), renumber)),
    Button("Table", "view_module"),  # a dialog asking the number of columns
    Button("Quote", "format_quote", replace_lines(_target_or(QUOTE, r">\g<1> ", ""))),
    Button("Heading 1", "", replace_lines(_heading(1)), label="H1"),  # thirdparty format_header_1: "H1"
    Button("Heading 2", "", replace_lines(_heading(2)), label="H2"),
    Button("Heading 3", "", replace_lines(_heading(3)), label="H3"),
    Button("Horizontal line", "more_horiz", inline("----\n")),
    Button("Strike out", "format_strikethrough", inline("~~")),
    Button("Accordion", "arrow_drop_down", insert_at_cursor(_ACCORDION + "\n\n</details>", len(_ACCORDION))),
    Button("Indent", "format_indent_increase", _then(replace_lines([("^", " " * _INDENT)]), renumber)),
    Button("De-indent", "format_indent_decrease", _then(replace_lines([(rf"^{_S}{{1,{_INDENT}}}", "")]), renumber)),
    Button("Start new line below", "keyboard_return", new_line_below),
    Button("Move text one line up", "arrow_upward", _then(move_line(up=True), renumber)),
    Button("Move text one line down", "arrow_downward", _then(move_line(up=False), renumber)),
    Button("Insert snippet", "file_copy"),  # a dialog of the snippets folder's files
    Button("Rotate", "rotate_left"),  # turns the screen
)
