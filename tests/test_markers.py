"""The suite's markers (issue #21 item 12) are applied where they are true: read from a test's
code, its fixtures and the helpers they call; `slow` from tests/slow_tests.txt, which names only
tests that exist."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests import conftest

TESTS = Path(__file__).resolve().parent


def _spawns() -> None:
    subprocess.run([sys.executable, "-c", "pass"], check=True)


def _through_a_helper() -> None:
    _spawns()


def _reads_the_screen(device) -> str:
    return device.check("uiautomator dump /sdcard/window_dump.xml")


def _plain() -> int:
    return 1 + 1


def test_signs_are_found_in_the_code_and_through_the_helpers_it_calls() -> None:
    found = {name: conftest._reached(globals()[name]) for name in ("_spawns", "_through_a_helper",
                                                                    "_reads_the_screen", "_plain")}
    assert found == {"_spawns": {"subprocess"}, "_through_a_helper": {"subprocess"},
                     "_reads_the_screen": {"gui"}, "_plain": frozenset()}


def test_adb_fixtures_and_helpers_carry_the_adb_sign() -> None:
    from tests.device import test_adb_device

    assert "adb" in conftest._reached(test_adb_device.adb_port.__wrapped__)
    assert "adb" in conftest._reached(test_adb_device.private_adb_server)


def test_every_slow_entry_names_a_test_that_exists() -> None:
    for entry in sorted(conftest._slow_tests()):
        path, _, rest = entry.partition("::")
        assert (TESTS.parent / path).is_file(), entry
        if rest:
            name = rest.split("[")[0].split("::")[-1]
            tree = ast.parse((TESTS.parent / path).read_text(encoding="utf-8"))
            defined = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
            assert name in defined, entry
