"""`TaskkitError`: the root of the exceptions taskkit raises on purpose.

Each of taskkit's exceptions also derives from the built-in class that says what kind of
mistake it is (ValueError for bad input, RuntimeError for a device or state failure, ...), so
`except TaskkitError` catches everything taskkit raises and nothing a bug in it raises.
"""
from __future__ import annotations


class TaskkitError(Exception):
    """Any error taskkit raises on purpose (bad input, a device failure, a broken task)."""
