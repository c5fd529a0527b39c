"""Name what a leaking teardown left behind: files, directories and settings that changed.

`state_digest` says *whether* the device changed; `listing` gives the lines it is made of
(directories, file checksums, settings) so `difference` can say *what* changed. Used only to
explain a failure, so it may cost a few extra round trips.
"""
from __future__ import annotations

from taskkit.device.base import Device
from taskkit.device.quoting import shell_quote
from taskkit.device.state import DIGEST_ROOTS

_MARK = "--taskkit-listing--"


def listing(device: Device, roots: tuple[str, ...] = DIGEST_ROOTS) -> set[str]:
    """One line per directory (`dir PATH`), file (`file PATH MD5`) and setting (`setting NS K=V`)."""
    quoted = " ".join(shell_quote(root) for root in roots)
    sections = [f"find {quoted} -type d", f"find {quoted} -type f -exec md5sum {{}} +",
                "settings list system", "settings list secure", "settings list global"]
    parts = device.check(f"; echo {_MARK}; ".join(sections)).split(_MARK + "\n")
    lines: set[str] = set()
    lines.update(f"dir {line}" for line in parts[0].splitlines() if line)
    for line in parts[1].splitlines():
        checksum, _, path = line.partition("  ")
        if path:
            lines.add(f"file {path} {checksum}")
    for namespace, part in zip(("system", "secure", "global"), parts[2:]):
        lines.update(f"setting {namespace} {line}" for line in part.splitlines() if line)
    return lines


def difference(before: set[str], after: set[str], limit: int = 6) -> str:
    """"added: …; removed: …; changed: …" over paths and setting keys (at most `limit` each)."""
    def name(line: str) -> str:
        kind, _, rest = line.partition(" ")
        if kind == "file":
            return "file " + rest.rsplit(" ", 1)[0]
        if kind == "setting":
            return "setting " + rest.split("=", 1)[0]
        return line

    old = {name(line): line for line in before - after}
    new = {name(line): line for line in after - before}
    parts = []
    for label, keys in (("added", sorted(set(new) - set(old))), ("removed", sorted(set(old) - set(new))),
                        ("changed", sorted(set(old) & set(new)))):
        if keys:
            more = f" (+{len(keys) - limit} more)" if len(keys) > limit else ""
            parts.append(f"{label}: {', '.join(keys[:limit])}{more}")
    return "; ".join(parts) or "no difference in files or settings (the digest changed for another reason)"
