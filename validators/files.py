"""File validators: a file exists, is absent, or holds the expected text; a folder exists; no file
is left under a folder."""
from __future__ import annotations

import dataclasses
from typing import Any

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless
from taskkit.validators.fuzzy import DEFAULT_THRESHOLD, fuzzy_match, similarity


@dataclasses.dataclass(frozen=True)
class FileExists(Stateless):
    path: str

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        ok = env.device.files.exists(self.path) and not env.device.files.is_dir(self.path)
        return CheckResult.verdict([] if ok else [f"file {self.path} does not exist"])


@dataclasses.dataclass(frozen=True)
class FileAbsent(Stateless):
    path: str

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        present = env.device.files.exists(self.path)
        return CheckResult.verdict([f"{self.path} still exists but must be gone"] if present else [])


@dataclasses.dataclass(frozen=True)
class FileContent(Stateless):
    path: str
    expected: str
    fuzzy: bool
    threshold: float

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        try:
            text = env.device.files.read_text(self.path)
        except (FileNotFoundError, NotADirectoryError):  # not there, or a file where a folder of its path should be
            return CheckResult(0.0, (f"file {self.path} does not exist",))
        if (fuzzy_match(text, self.expected, self.threshold) if self.fuzzy else text.strip() == self.expected.strip()):
            return CheckResult(1.0)
        how = f"similarity {similarity(text, self.expected):.2f}" if self.fuzzy else "exact comparison"
        return CheckResult(0.0, (f"{self.path} holds {text[:80]!r}, expected {self.expected[:80]!r} ({how})",))


@dataclasses.dataclass(frozen=True)
class FolderExists(Stateless):
    path: str

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        ok = env.device.files.is_dir(self.path)
        return CheckResult.verdict([] if ok else [f"folder {self.path} does not exist"])


@dataclasses.dataclass(frozen=True)
class NoFilesUnder(Stateless):
    """No file is left anywhere under `path` (an absent folder has none; empty folders may stay)."""

    path: str

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        try:
            left = env.device.files.find(self.path, type="f")
        except FileNotFoundError:
            left = []
        return CheckResult.verdict([f"{len(left)} file(s) left under {self.path}, e.g. {left[0]}"] if left else [])


def folder_exists(path: str) -> FolderExists:
    return FolderExists(path)


def no_files_under(path: str) -> NoFilesUnder:
    return NoFilesUnder(path)


def file_exists(path: str) -> FileExists:
    return FileExists(path)


def file_absent(path: str) -> FileAbsent:
    return FileAbsent(path)


def file_content(path: str, expected: str, *, fuzzy: bool = False, threshold: float = DEFAULT_THRESHOLD) -> FileContent:
    """The file holds `expected` (exactly, ignoring surrounding white space, or fuzzily)."""
    return FileContent(path, expected, fuzzy, threshold)
