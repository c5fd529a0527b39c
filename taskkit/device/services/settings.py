"""The settings provider through the `settings` shell command.

Limits of the command itself, and therefore of this service:

- `settings get` prints `null` for a missing key, so a value that *is* the text `null` reads back
  as None.
- `settings list` prints `key=value` lines, so a value containing a newline cannot be told apart
  from the next key with certainty. `parse_list` treats a line as a continuation of the previous
  value unless it looks like `key=value` with a non-empty key free of whitespace; a continuation
  line that itself looks like that is misread as a new key. `get` and `put` are exact for every
  value, multi-line ones included.
- The command reads `--user` as an option wherever it appears, so it cannot be a key or a value.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from taskkit.device.quoting import shell_join

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device

NAMESPACES = ("system", "secure", "global")
SNAPSHOT_MARKER = "::taskkit-settings-snapshot-next-namespace::"  # no "=", no leading "-"
Snapshot = dict[str, dict[str, str]]
_LIST_KEY = re.compile(r"[^\s=]+")


def _check_namespace(ns: str) -> str:
    if ns not in NAMESPACES:
        raise ValueError(f"settings namespace must be one of system, secure, global; got {ns!r}")
    return ns


def _check_word(kind: str, word: str) -> str:
    if word == "--user":
        raise ValueError(f"the settings command cannot take --user as a {kind}")
    return word


def _check_key(key: str) -> str:
    if not key:
        raise ValueError("a settings key must not be empty")
    return _check_word("key", key)


# --- commands -------------------------------------------------------------------------------
def build_get(ns: str, key: str) -> str:
    return shell_join(["settings", "get", _check_namespace(ns), _check_key(key)])


def build_put(ns: str, key: str, value: str) -> str:
    return shell_join(["settings", "put", _check_namespace(ns), _check_key(key), _check_word("value", value)])


def build_delete(ns: str, key: str) -> str:
    return shell_join(["settings", "delete", _check_namespace(ns), _check_key(key)])


def build_list(ns: str) -> str:
    return shell_join(["settings", "list", _check_namespace(ns)])


def build_snapshot() -> str:
    """List all three namespaces in one command, separated by `SNAPSHOT_MARKER` lines."""
    separator = f" && {shell_join(['echo', SNAPSHOT_MARKER])} && "
    return separator.join(build_list(ns) for ns in NAMESPACES)


def build_restore(current: Snapshot, target: Snapshot) -> str | None:
    """One command turning `current` into `target` (puts and deletes), or None if equal."""
    steps: list[str] = []
    for ns in NAMESPACES:
        now, wanted = current.get(ns, {}), target.get(ns, {})
        for key in sorted(set(now) | set(wanted)):
            if key not in wanted:
                steps.append(build_delete(ns, key))
            elif now.get(key) != wanted[key]:
                steps.append(build_put(ns, key, wanted[key]))
    return " && ".join(steps) if steps else None


# --- output ---------------------------------------------------------------------------------
def _strip_newline(stdout: str) -> str:
    return stdout[:-1] if stdout.endswith("\n") else stdout


def parse_get(stdout: str) -> str | None:
    """The value printed by `settings get` (exactly: only the final newline is removed)."""
    value = _strip_newline(stdout)
    return None if value == "null" else value


def parse_delete(stdout: str) -> bool:
    """Whether `settings delete` removed a row (`Deleted 1 rows`)."""
    match = re.search(r"Deleted (\d+) rows", stdout)
    if match is None:
        raise ValueError(f"unexpected output of settings delete: {stdout!r}")
    return int(match.group(1)) > 0


def parse_list(stdout: str) -> dict[str, str]:
    """`key=value` lines into a dict; see the module docstring for multi-line values."""
    values: dict[str, str] = {}
    last: str | None = None
    for line in _strip_newline(stdout).split("\n") if stdout else []:
        key, eq, value = line.partition("=")
        if eq and _LIST_KEY.fullmatch(key):
            values[key] = value
            last = key
        elif last is not None:
            values[last] += "\n" + line
        elif line:
            raise ValueError(f"unexpected line in settings list output: {line!r}")
    return values


def parse_snapshot(stdout: str) -> Snapshot:
    """The output of `build_snapshot()`: three `settings list` outputs between marker lines."""
    lines = stdout.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline
    groups: list[list[str]] = [[]]
    for line in lines:
        if line == SNAPSHOT_MARKER:
            groups.append([])
        else:
            groups[-1].append(line)
    if len(groups) != len(NAMESPACES):
        raise ValueError("settings snapshot output does not hold three namespaces")
    return {ns: parse_list("".join(line + "\n" for line in group)) for ns, group in zip(NAMESPACES, groups)}


# --- the service ----------------------------------------------------------------------------
class Settings:
    """Read and write the system, secure and global settings of a device."""

    def __init__(self, device: "Device"):
        self.device = device

    def get(self, ns: str, key: str) -> str | None:
        """The value of `key`, or None when it is not set."""
        return parse_get(self.device.check(build_get(ns, key)))

    def put(self, ns: str, key: str, value: str) -> None:
        """Set `key` of namespace `ns` (system, secure, global) to `value` (`settings put`)."""
        self.device.run(build_put(ns, key, value))

    def delete(self, ns: str, key: str) -> bool:
        """Delete `key`; whether it existed."""
        return parse_delete(self.device.check(build_delete(ns, key)))

    def list(self, ns: str) -> dict[str, str]:
        """Every key of namespace `ns` with its value (`settings list`)."""
        return parse_list(self.device.check(build_list(ns)))

    def snapshot(self) -> Snapshot:
        """All three namespaces, in one round trip."""
        return parse_snapshot(self.device.check(build_snapshot()))

    def restore(self, snapshot: Snapshot) -> None:
        """Make the settings equal `snapshot`: one read, then one batched write if anything differs."""
        command = build_restore(self.snapshot(), snapshot)
        if command is not None:
            self.device.check(command)
