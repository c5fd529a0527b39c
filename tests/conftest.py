"""Shared fixtures, the hypothesis profile and the suite's markers, applied where they are true.

Markers (`pytest -m "not slow"`, `-m adb`, ...), set by the collection hook below:
  slow        listed in tests/slow_tests.txt (measured with --durations; see that file);
  adb         talks adb: Debian's adb server or the simulator's adbd over a socket;
  gui         reads or drives the simulated GUI (tests/sim/gui, uiautomator, screencap, input);
  subprocess  starts processes (`python -m ...`, `--parallel` workers, the adb client).
adb, gui and subprocess are read from the test's code: the test function, its fixtures, and the
helpers of the test folders they call (followed by name), searched for what each marker means.
"""
from __future__ import annotations

import functools
import inspect
import os
import re
import shutil
import tempfile
import types
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, settings

# A fixed example budget and no deadline: stable on a loaded 2-core machine.
settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# `sim_device` (a fresh simulated device in the test's tmp dir) and `task_env` come from taskkit's
# pytest plugin; imported here so the suite gets them whether or not the plugin is installed.
from taskkit.testing.plugin import sim_device, task_env  # noqa: E402,F401


@pytest.fixture(scope="module")
def module_device():
    """One simulated device for a module's tests (hypothesis examples share it: each resets what it uses)."""
    from taskkit.connect import sim_device as connect_sim_device

    device = connect_sim_device()
    yield device
    device.close()


@pytest.fixture
def env(sim_device):
    from taskkit.env import Env

    return Env(sim_device)


TESTS = Path(__file__).resolve().parent
MARKERS = {
    "slow": "takes seconds; listed in tests/slow_tests.txt from a --durations run (quick run: -m 'not slow')",
    "adb": "talks adb: Debian's adb server or the simulator's adbd over a socket",
    "gui": "reads or drives the simulated GUI (tests/sim/gui, uiautomator, screencap, input)",
    "subprocess": "starts processes (python -m ..., --parallel workers, the adb client)",
}
# What each marker's code says (searched in the test, its fixtures and the test helpers they call).
SIGNS = {
    "adb": re.compile(r"\b(?:ADB|private_adb_server|AdbdServer|served_sim|adb_connect|AdbDevice)\b|\bLink\("),
    "gui": re.compile(r"uiautomator|screencap|\binput (?:tap|swipe|text|keyevent)\b|\bsim\.gui\b|\bgui\.\w"),
    "subprocess": re.compile(r"\bsubprocess\.|\bsys\.executable\b|\bPopen\b|\bmultiprocessing\b|[\"']--parallel[\"']"),
}


def pytest_configure(config: pytest.Config) -> None:
    for name, meaning in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")
    if "TASKKIT_CACHE_DIR" not in os.environ:  # the specs the tests parse stay out of the user's cache
        folder = tempfile.mkdtemp(prefix="taskkit-test-cache-")
        os.environ["TASKKIT_CACHE_DIR"] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = _slow_tests()
    for item in items:
        found = set(_signs(item))
        if "tests/sim/gui/" in item.nodeid:
            found.add("gui")
        if item.nodeid in slow or item.nodeid.split("[")[0] in slow or item.nodeid.split("::")[0] in slow:
            found.add("slow")
        for name in sorted(found):
            item.add_marker(name)


def _slow_tests() -> set[str]:
    """The node ids (a file, a test, or one parametrized case) tests/slow_tests.txt lists."""
    lines = (TESTS / "slow_tests.txt").read_text(encoding="utf-8").splitlines()
    return {line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()}


def _signs(item: pytest.Item) -> Iterator[str]:
    roots: list[Any] = [getattr(item, "obj", None)]
    info = getattr(item, "_fixtureinfo", None)
    for definitions in (info.name2fixturedefs.values() if info is not None else ()):
        roots += [definition.func for definition in definitions]
    for root in roots:
        yield from _reached(root)


@functools.lru_cache(maxsize=None)
def _reached(obj: Any) -> frozenset[str]:
    """The markers whose signs `obj` (a function or class of the test folders) or the test helpers
    it names show; nothing for code outside tests/."""
    return frozenset(_walk(obj, set()))


def _walk(obj: Any, seen: set[int]) -> Iterator[str]:
    obj = inspect.unwrap(obj) if callable(obj) else obj
    if id(obj) in seen or not _ours(obj):
        return
    seen.add(id(obj))
    try:
        source = inspect.getsource(obj)
    except (OSError, TypeError):
        return
    yield from (name for name, sign in SIGNS.items() if sign.search(source))
    scope = getattr(obj, "__globals__", None) or vars(inspect.getmodule(obj) or types.ModuleType("none"))
    for name in _names(obj):
        if name in scope:
            yield from _walk(scope[name], seen)


def _ours(obj: Any) -> bool:
    """Whether `obj` is a function or class defined in the test folders."""
    if not (inspect.isfunction(obj) or inspect.isclass(obj)):
        return False
    try:
        return Path(inspect.getfile(obj)).resolve().is_relative_to(TESTS)
    except TypeError:
        return False


def _names(obj: Any) -> set[str]:
    """The global names `obj`'s code uses (nested functions and a class's methods included)."""
    members = [obj] if inspect.isfunction(obj) else [inspect.unwrap(member) for member in vars(obj).values()
                                                      if inspect.isfunction(inspect.unwrap(member))]
    codes = [member.__code__ for member in members]
    found: set[str] = set()
    while codes:
        code = codes.pop()
        found.update(code.co_names)
        codes += [const for const in code.co_consts if isinstance(const, types.CodeType)]
    return found
