"""SPA-Bench's ladders as registered tasks (Spa<ladder>L<level>[Zh], built by task.py from
ladders.py), and its cross-app tasks (cross_app.py) registered with them."""
from __future__ import annotations

from taskkit.apps.spa import cross_app  # noqa: F401  (the loader imports each app's `tasks` only: registers them)
from taskkit.apps.spa.ladders import LADDERS
from taskkit.apps.spa.task import DIFFICULTY, KEY_LENGTH, LANGUAGE_TAG, SpaTask, ladder_task

__all__ = ["DIFFICULTY", "KEY_LENGTH", "LANGUAGE_TAG", "SpaTask", "TASKS", "ladder_task"]

TASKS: tuple[type[SpaTask], ...] = tuple(
    ladder_task(ladder, level, zh, __name__) for ladder in LADDERS for zh in (False, True) if not zh or ladder.chinese
    for level in (1, 2, 3))
globals().update({task.name: task for task in TASKS})  # importable by name, as hand-written classes are
