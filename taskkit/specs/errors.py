"""`SpecError`: one problem in one spec file, located at `file:line:col` and a field path."""
from __future__ import annotations

from taskkit.errors import TaskkitError


class SpecError(TaskkitError, ValueError):
    """A spec is malformed. `str(error)` is the one line a person acts on.

    `path` is the spec file, `line`/`col` are 1-based, `field` is the field path
    (`params[2].rows.table`, empty for the file as a whole) and `message` says what is wrong.
    """

    def __init__(self, path: str, line: int, col: int, field: str, message: str):
        super().__init__(path, line, col, field, message)
        self.path, self.line, self.col, self.field, self.message = path, line, col, field, message

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}:"
        return f"{where} {self.field}: {self.message}" if self.field else f"{where} {self.message}"


class SpecRuntimeError(TaskkitError, RuntimeError):
    """A compiled spec failed while drawing params or running a step or check.

    `field` is the field path of the part that failed. At load time (the dry run) it becomes a
    `SpecError` at that field's position; at run time `where` (`file:line:col`) is filled in, so
    the task error names the spec and the field.
    """

    def __init__(self, field: str, message: str, where: str = ""):
        super().__init__(f"{where}: {field}: {message}" if where else f"{field}: {message}")
        self.field, self.message, self.where = field, message, where


class Problem(TaskkitError):
    """A semantic problem found by validation, before it is given a position.

    `needle` is the word in the field's value the problem is about (an unknown param in a
    template), so the error can point at it rather than at the field's start.
    """

    def __init__(self, field: str, message: str, needle: str = ""):
        super().__init__(f"{field}: {message}")
        self.field, self.message, self.needle = field, message, needle
