"""Suite families, as AndroidWorld's `--suite_family` names them: which registered tasks a run takes.

* `android_world` — the tasks named as AndroidWorld names them (its 116, listed in its
  android_world/task_metadata.json; a run gets those of them taskkit has);
* `information_retrieval` — AndroidWorld's 25 information-retrieval tasks, exactly the ones its
  information-retrieval registry builds (one per task of its
  task_evals/information_retrieval/proto/tasks.textproto);
* `bmoca`, `spa`, `androidlens` — the tasks taskkit builds from the other seed benchmarks
  (B-MoCA, SPA-Bench, AndroidLens): those tagged with the family's name;
* `taskkit` — taskkit's own tasks, those of none of the benchmarks above (its `Ir*` questions too);
* `all` — every registered task (the default).
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit import metadata, registry

# AndroidWorld's task names (android_world/task_metadata.json, via taskkit/android_world_tasks.json).
ANDROID_WORLD_TASKS: frozenset[str] = frozenset(metadata.android_world())

# AndroidWorld's information-retrieval tasks (the `name`s of its proto/tasks.textproto, commit d9c569f).
INFORMATION_RETRIEVAL_TASKS: frozenset[str] = frozenset({
    "SimpleCalendarEventsOnDate", "SimpleCalendarNextEvent", "SimpleCalendarEventOnDateAtTime",
    "SimpleCalendarAnyEventsOnDate", "SimpleCalendarNextMeetingWithPerson", "SimpleCalendarLocationOfEvent",
    "SimpleCalendarEventsInNextWeek", "SimpleCalendarFirstEventAfterStartTime", "SimpleCalendarEventsInTimeRange",
    "TasksDueOnDate", "TasksHighPriorityTasks", "TasksHighPriorityTasksDueOnDate", "TasksDueNextWeek",
    "TasksCompletedTasksForDate", "TasksIncompleteTasksOnDate",
    "SportsTrackerActivitiesOnDate", "SportsTrackerActivitiesCountForWeek", "SportsTrackerActivityDuration",
    "SportsTrackerLongestDistanceActivity", "SportsTrackerTotalDurationForCategoryThisWeek",
    "SportsTrackerTotalDistanceForCategoryOverInterval",
    "NotesRecipeIngredientCount", "NotesMeetingAttendeeCount", "NotesIsTodo", "NotesTodoItemCount",
})

# The other seed benchmarks' families: a task carries its benchmark's name as a tag.
SEED_FAMILIES = metadata.SEED_BENCHMARKS


def _seed_family(cls: Any) -> bool:
    return any(family in cls.tags for family in SEED_FAMILIES)


# Each predicate sees a task class or a `registry.Deferred` (name, tags): choosing a family compiles no spec.
FAMILIES: dict[str, Callable[[Any], bool]] = {
    "all": lambda cls: True,
    "android_world": lambda cls: cls.name in ANDROID_WORLD_TASKS,
    "information_retrieval": lambda cls: cls.name in INFORMATION_RETRIEVAL_TASKS,
    **{family: (lambda cls, family=family: family in cls.tags) for family in SEED_FAMILIES},
    "taskkit": lambda cls: cls.name not in ANDROID_WORLD_TASKS and not _seed_family(cls),
}


def tasks_in(family: str) -> list[str]:
    """The names of the registered tasks of `family`, in registry order; KeyError names the families."""
    if family not in FAMILIES:
        raise KeyError(f"unknown suite family {family!r}; use one of {', '.join(FAMILIES)}")
    return [name for name in registry.names() if FAMILIES[family](registry.peek(name))]
