"""Where each field of a text-format spec is: field path → (line, col), from protobuf's tokenizer.

`text_format.Parse` checks syntax and field names but keeps no positions, so this module walks
the same text with protobuf's own `Tokenizer`, beside the message descriptor, and records the
1-based line and column of every field name and list element under its path
(`params[1].rows.fields[0].name`). Semantic errors are then reported at the offending field.
"""
from __future__ import annotations

import re
from typing import Any

from google.protobuf import text_format

_QUOTES = ("'", '"')
_INDEX = re.compile(r"\[\d+\]$")


MAX_DEPTH = 64  # nested messages; real specs stay under 10


def too_deep(text: str, limit: int = MAX_DEPTH) -> tuple[int, int] | None:
    """(line, col) of the first message nested deeper than `limit`, or None.

    Checked before parsing, with protobuf's tokenizer (strings and comments are skipped), since
    both protobuf's parser and this module's walker recurse once per level.
    """
    tok = text_format.Tokenizer(text.splitlines(True))
    depth = 0
    try:
        while not tok.AtEnd():
            if tok.token in ("{", "<"):
                depth += 1
                if depth > limit:
                    return tok._line + 1, tok._column + 1
            elif tok.token in ("}", ">"):
                depth -= 1
            tok.NextToken()
    except text_format.ParseError:
        return None  # a syntax error: the parser reports it with its position
    return None


class Positions:
    """Field paths of one spec file and where they are."""

    def __init__(self, entries: list[tuple[int, int, str]], values: dict[str, list[tuple[int, int, str]]] | None = None):
        self.entries = entries
        self.values = values or {}  # field path → its value tokens (line, col, raw text)
        self._first: dict[str, tuple[int, int]] = {}
        for line, col, path in entries:
            self._first.setdefault(path, (line, col))

    def locate(self, field: str) -> tuple[int, int]:
        """The position of `field`, or of its nearest ancestor that is present (else 1:1)."""
        path = field
        while path:
            if path in self._first:
                return self._first[path]
            path = _parent(path)
        return (1, 1)

    def locate_text(self, field: str, needle: str) -> tuple[int, int] | None:
        """The position of the word `needle` inside the field's string value, if it is there."""
        pattern = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(needle) + r"(?![A-Za-z0-9_])")
        for line, col, text in self.values.get(field, []):
            if "\n" in text:
                continue
            found = pattern.search(text)
            if found:
                return line, col + found.start()
        return None

    def field_at(self, line: int, col: int) -> str:
        """The path of the last field that starts at or before (line, col)."""
        best = ""
        for entry_line, entry_col, path in self.entries:
            if (entry_line, entry_col) <= (line, col):
                best = path
        return best


def _parent(path: str) -> str:
    if _INDEX.search(path):
        return _INDEX.sub("", path)
    return path.rsplit(".", 1)[0] if "." in path else ""


def _is_repeated(field: Any) -> bool:
    if field is None:
        return False
    flag = getattr(field, "is_repeated", None)
    if flag is not None:
        return bool(flag() if callable(flag) else flag)
    return field.label == field.LABEL_REPEATED


class _Walker:
    def __init__(self, text: str):
        self.tok = text_format.Tokenizer(text.splitlines(True))
        self.out: list[tuple[int, int, str]] = []
        self.values: dict[str, list[tuple[int, int, str]]] = {}

    def here(self) -> tuple[int, int]:
        return self.tok._line + 1, self.tok._column + 1  # the tokenizer counts from 0

    def message(self, descriptor: Any, prefix: str, close: str | None) -> None:
        tok = self.tok
        counts: dict[str, int] = {}
        while not tok.AtEnd():
            token = tok.token
            if close is not None and token == close:
                tok.NextToken()
                return
            if token in (",", ";", "}", ">"):
                tok.NextToken()
                continue
            line, col = self.here()
            if token == "[":  # an extension or Any type name: not used by specs, skip it
                while not tok.AtEnd() and tok.token != "]":
                    tok.NextToken()
                tok.NextToken()
                name = "[ext]"
            else:
                name = token
                tok.NextToken()
            field = descriptor.fields_by_name.get(name) if descriptor is not None else None
            sub = field.message_type if field is not None else None
            repeated = _is_repeated(field)
            base = f"{prefix}.{name}" if prefix else name
            self.out.append((line, col, base))
            tok.TryConsume(":")
            if tok.token == "[":
                tok.NextToken()
                while not tok.AtEnd() and tok.token != "]":
                    if tok.token == ",":
                        tok.NextToken()
                        continue
                    path = self.indexed(base, name, counts, repeated)
                    self.out.append((*self.here(), path))
                    self.value(sub, path)
                tok.TryConsume("]")
            else:
                path = self.indexed(base, name, counts, repeated)
                if path != base:
                    self.out.append((line, col, path))
                self.value(sub, path)

    @staticmethod
    def indexed(base: str, name: str, counts: dict[str, int], repeated: bool) -> str:
        if not repeated:
            return base
        index = counts.get(name, 0)
        counts[name] = index + 1
        return f"{base}[{index}]"

    def value(self, descriptor: Any, path: str) -> None:
        tok = self.tok
        if tok.token in ("{", "<"):
            close = "}" if tok.token == "{" else ">"
            tok.NextToken()
            self.message(descriptor, path, close)
            return
        if tok.token == "-":
            tok.NextToken()
        tokens = self.values.setdefault(path, [])
        first = tok.token
        tokens.append((*self.here(), first))
        tok.NextToken()
        if first[:1] in _QUOTES:  # adjacent strings concatenate
            while tok.token and tok.token[0] in _QUOTES:
                tokens.append((*self.here(), tok.token))
                tok.NextToken()


def scan(text: str, descriptor: Any) -> Positions:
    """Every field path of `text` (a text-format message of type `descriptor`) and its position.

    Tolerant of malformed text: it records what it could read before the first problem, which
    is what locating a syntax error needs.
    """
    walker = _Walker(text)
    try:
        walker.message(descriptor, "", None)
    except Exception:  # a syntax error: text_format.Parse reports it; keep what was read
        pass
    return Positions(walker.out, walker.values)


class Later:
    """The positions of `text`, scanned the first time one is asked for: only an error needs them,
    so a spec that compiles and runs cleanly is never scanned."""

    def __init__(self, text: str, descriptor: Any):
        self._text, self._descriptor = text, descriptor
        self._scanned: Positions | None = None

    def _positions(self) -> Positions:
        if self._scanned is None:
            self._scanned = scan(self._text, self._descriptor)
        return self._scanned

    def locate(self, field: str) -> tuple[int, int]:
        return self._positions().locate(field)

    def locate_text(self, field: str, needle: str) -> tuple[int, int] | None:
        return self._positions().locate_text(field, needle)

    def field_at(self, line: int, col: int) -> str:
        return self._positions().field_at(line, col)
