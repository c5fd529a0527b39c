"""A suite: task instances built reproducibly from (seed, task names, n_task_combinations)."""
from __future__ import annotations

import dataclasses
import functools
from typing import Any, Collection, Iterable, Iterator, Sequence, overload

from taskkit import registry
from taskkit.errors import TaskkitError
from taskkit.loading import where
from taskkit.rng import instance_seed
from taskkit.task import TaskEval


MAX_EPISODES = 10_000_000
"""The most episodes one suite (one run) may have: tasks × n_task_combinations × device configs."""
MAX_TASK_COMBINATIONS = 10_000_000
"""The most instances per task (`--n_task_combinations`)."""


class TaskBuildError(TaskkitError, RuntimeError):
    """A task's params or goal could not be built for this seed (a bug in the task)."""


class SuiteSizeError(TaskkitError, ValueError):
    """A suite of no instances, or past MAX_EPISODES or MAX_TASK_COMBINATIONS: the message names the limit."""


@dataclasses.dataclass(frozen=True)
class TaskInstance:
    """One parameterized task: its class, index and instance seed; its params are drawn when first
    asked for (a `--parallel` parent, which only hands out jobs, never draws them)."""

    task: type[TaskEval]
    index: int
    seed: int
    #: The device config the episode runs under (`DeviceConfig.as_json()`), if the run sets one.
    device_config: dict[str, Any] | None = None

    @property
    def instance_id(self) -> str:
        suffix = f"@{self.device_config['name']}" if self.device_config else ""
        return f"{self.task.name}_{self.index}{suffix}"

    @functools.cached_property
    def _built(self) -> tuple[dict[str, Any], str | None]:
        try:
            built = self.task.from_seed(self.seed)
            built.goal  # noqa: B018 - the goal must render too
        except Exception as error:  # noqa: BLE001 - a task bug, recorded for that task alone
            return {}, f"building the task failed: {where(error)}{type(error).__name__}: {error}"
        return built.params, None

    @property
    def params(self) -> dict[str, Any]:
        """The instance's params ({} if they could not be built)."""
        return self._built[0]

    @property
    def error(self) -> str | None:
        """Why the params or the goal could not be built, if they could not (the episode is then
        recorded as this task's error and the rest of the suite runs)."""
        return self._built[1]

    def create(self) -> TaskEval:
        """A fresh task object (each episode gets its own); raises TaskBuildError if it has none."""
        if self.error is not None:
            raise TaskBuildError(self.error)
        return self.task.with_params(self.params, self.seed)


def instantiate(task: type[TaskEval], run_seed: int, index: int, device_config: dict[str, Any] | None = None,
                config_axis: bool = False, fixed_task_seed: bool = False) -> TaskInstance:
    """Instance `index` of `task` for `run_seed`, seeded as AndroidWorld seeds it.

    `fixed_task_seed` gives every instance instance 0's seed, hence the same params
    (AndroidWorld's `use_identical_params`). Under a device config the instance is the same
    (AndroidWorld-compatible) unless `config_axis`: then the config's name is part of the seed,
    so each config draws its own params. A task whose params or goal cannot be built gives an
    instance carrying the error.
    """
    key = f"{task.name}@{device_config['name']}" if device_config and config_axis else task.name
    return TaskInstance(task, index, instance_seed(run_seed, key, 0 if fixed_task_seed else index), device_config)


def check_combinations(n_task_combinations: int) -> None:
    """Raise SuiteSizeError unless 1 <= n_task_combinations <= MAX_TASK_COMBINATIONS."""
    if n_task_combinations < 1:
        raise SuiteSizeError(f"--n_task_combinations must be at least 1, got {n_task_combinations}")
    if n_task_combinations > MAX_TASK_COMBINATIONS:
        raise SuiteSizeError(f"--n_task_combinations {n_task_combinations} is more than suite.MAX_TASK_COMBINATIONS "
                             f"({MAX_TASK_COMBINATIONS}); ask for fewer")


@dataclasses.dataclass(frozen=True)
class SuiteShape:
    """Which instance ids a suite has, in order, as plain data: a run's manifest keeps this
    instead of every id (ten million episodes take a few hundred bytes, not 250 MB)."""

    tasks: tuple[str, ...]
    n_task_combinations: int
    device_configs: tuple[str, ...] = ()  # the configs' names; () when the run sets none

    def to_json(self) -> dict[str, Any]:
        return {"tasks": list(self.tasks), "n_task_combinations": self.n_task_combinations,
                "device_configs": list(self.device_configs)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "SuiteShape":
        return cls(tuple(data["tasks"]), int(data["n_task_combinations"]), tuple(data.get("device_configs", ())))

    def __len__(self) -> int:
        return max(1, len(self.device_configs)) * len(self.tasks) * self.n_task_combinations

    def ids(self) -> Iterator[str]:
        """The instance ids in run order: config by config, then task by task, then index."""
        for config in self.device_configs or ("",):
            suffix = f"@{config}" if config else ""
            for task in self.tasks:
                for index in range(self.n_task_combinations):
                    yield f"{task}_{index}{suffix}"

    def __contains__(self, instance_id: object) -> bool:
        if not isinstance(instance_id, str):
            return False
        rest, config = instance_id.rsplit("@", 1) if self.device_configs and "@" in instance_id else (instance_id, "")
        task, _, index = rest.rpartition("_")
        return ((config in self.device_configs if self.device_configs else not config) and task in self.tasks
                and index.isdigit() and str(int(index)) == index and int(index) < self.n_task_combinations)


class Suite(Sequence[TaskInstance]):
    """The instances of a run, in order — config by config, then task by task, then index — each
    built when it is asked for: a suite of millions costs no more memory than one of ten."""

    def __init__(self, seed: int, classes: Sequence[type[TaskEval]], n_task_combinations: int,
                 device_configs: Sequence[dict[str, Any]] = (), config_axis: bool = False,
                 fixed_task_seed: bool = False):
        self.seed, self.classes, self.n = seed, tuple(classes), n_task_combinations
        self.configs: tuple[dict[str, Any] | None, ...] = tuple(device_configs) or (None,)
        self.config_axis, self.fixed_task_seed = config_axis, fixed_task_seed

    @property
    def task_names(self) -> list[str]:
        """The names of the suite's tasks, in order."""
        return [cls.name for cls in self.classes]

    def __len__(self) -> int:
        return len(self.configs) * len(self.classes) * self.n

    @overload
    def __getitem__(self, position: int) -> TaskInstance: ...

    @overload
    def __getitem__(self, position: slice) -> list[TaskInstance]: ...

    def __getitem__(self, position: int | slice) -> TaskInstance | list[TaskInstance]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        if not -len(self) <= position < len(self):
            raise IndexError(f"suite position {position} out of range ({len(self)} instances)")
        config, rest = divmod(position % len(self), len(self.classes) * self.n)
        task, index = divmod(rest, self.n)
        return instantiate(self.classes[task], self.seed, index, self.configs[config], self.config_axis,
                           self.fixed_task_seed)

    @property
    def shape(self) -> SuiteShape:
        """The suite's instance ids as plain data (what a manifest records)."""
        return SuiteShape(tuple(self.task_names), self.n,
                          tuple(config["name"] for config in self.configs if config is not None))

    def without(self, finished: Collection[str]) -> "Remaining":
        """The instances whose ids are not in `finished` (ids of this suite's instances)."""
        return Remaining(self, frozenset(finished))


@dataclasses.dataclass(frozen=True)
class Remaining:
    """A suite's instances but the `finished` ones (ids of instances of the suite), built as iterated."""

    suite: Suite
    finished: frozenset[str]

    @property
    def task_names(self) -> list[str]:
        return self.suite.task_names

    def __iter__(self) -> Iterator[TaskInstance]:
        return (instance for instance in self.suite if instance.instance_id not in self.finished)

    def __len__(self) -> int:
        return len(self.suite) - len(self.finished)


def build_suite(seed: int, task_names: Iterable[str] | None = None, n_task_combinations: int = 1,
                device_configs: Sequence[dict[str, Any]] = (), config_axis: bool = False,
                fixed_task_seed: bool = False, max_episodes: int = MAX_EPISODES) -> Suite:
    """Every requested task (all registered ones by default) × `n_task_combinations` instances,
    under each of `device_configs` in turn (config by config) when there are any; each instance
    is built when asked for. SuiteSizeError past `max_episodes` or MAX_TASK_COMBINATIONS."""
    check_combinations(n_task_combinations)
    classes = [registry.get(name) for name in task_names] if task_names else registry.all_tasks()
    instances = Suite(seed, classes, n_task_combinations, device_configs, config_axis, fixed_task_seed)
    if len(instances) > max_episodes:
        configs = f" × {len(device_configs)} device config(s)" if device_configs else ""
        raise SuiteSizeError(f"the suite would have {len(instances)} episodes ({len(classes)} task(s) × "
                             f"{n_task_combinations}{configs}), more than suite.MAX_EPISODES ({max_episodes}); "
                             "choose fewer tasks or a smaller n_task_combinations")
    return instances


def describe_suite(instances: Iterable[TaskInstance]) -> list[dict[str, Any]]:
    """Instance id, seed, params and goal of each instance: what a seed must always reproduce."""
    return [
        {"instance_id": i.instance_id, "seed": i.seed, "params": i.params, "goal": i.create().goal}
        for i in instances
    ]
