"""A suite: task instances built reproducibly from (seed, task names, n_task_combinations)."""
from __future__ import annotations

import dataclasses
import functools
from typing import Any, Iterable, Sequence

from taskkit import registry
from taskkit.errors import TaskkitError
from taskkit.loading import where
from taskkit.rng import instance_seed
from taskkit.task import TaskEval


class TaskBuildError(TaskkitError, RuntimeError):
    """A task's params or goal could not be built for this seed (a bug in the task)."""


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


def build_suite(seed: int, task_names: Iterable[str] | None = None, n_task_combinations: int = 1,
                device_configs: Sequence[dict[str, Any]] = (), config_axis: bool = False,
                fixed_task_seed: bool = False) -> list[TaskInstance]:
    """Every requested task (all registered ones by default) × `n_task_combinations` instances,
    under each of `device_configs` in turn (config by config) when there are any."""
    if n_task_combinations < 1:
        raise ValueError(f"n_task_combinations must be at least 1, got {n_task_combinations}")
    classes = [registry.get(name) for name in task_names] if task_names else registry.all_tasks()
    return [instantiate(cls, seed, i, config, config_axis, fixed_task_seed) for config in (device_configs or [None])
            for cls in classes for i in range(n_task_combinations)]


def describe_suite(instances: Iterable[TaskInstance]) -> list[dict[str, Any]]:
    """Instance id, seed, params and goal of each instance: what a seed must always reproduce."""
    return [
        {"instance_id": i.instance_id, "seed": i.seed, "params": i.params, "goal": i.create().goal}
        for i in instances
    ]
