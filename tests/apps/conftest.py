"""Fixtures for the app-model tests: a fresh simulated device and hostile text."""
from __future__ import annotations

import pytest

# Text that breaks naive quoting: quotes, newlines, shell and SQL metacharacters, unicode.
HOSTILE_TEXTS = (
    "It's \"quoted\" and 'single'",
    "line one\nline two\n\nline four",
    "windows\r\nline\rcarriage return",
    "$(rm -rf /) `id` ${HOME} && echo pwned; | > /dev/null",
    "Café — naïve 日本語 🙂 emoji",
    "'; DROP TABLE events; --",
    "back\\slash \\n not a newline\ttab",
    "  leading and trailing spaces  ",
    "100% of $5 * 2 = {x} [y] <z> ~ # ! ?",
)


@pytest.fixture
def device(sim_device):
    """A fresh simulated device (the suite's `sim_device`)."""
    return sim_device


@pytest.fixture
def hostile() -> tuple[str, ...]:
    """Texts that must round-trip through the device exactly."""
    return HOSTILE_TEXTS
