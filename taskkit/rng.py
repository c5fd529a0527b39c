"""Seeded randomness for task parameters: a `random.Random` that carries a seeded Faker."""
from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from faker import Faker


def instance_seed(run_seed: int, task_name: str, index: int) -> int:
    """AndroidWorld's per-instance seed: sha256(f"{seed}_{task}_{i}") mod 2**32."""
    digest = hashlib.sha256(f"{run_seed}_{task_name}_{index}".encode("utf-8")).hexdigest()
    return int(digest, 16) % 2**32


class TaskRng(random.Random):
    """`random.Random` seeded for one task instance, with `faker` seeded from it.

    Faker gets its own seed drawn from this generator at construction, so Faker calls and
    `random` calls never disturb each other's sequences. The Faker itself is made on first use
    (most tasks never call it, and making one costs milliseconds).
    """

    def __init__(self, seed: int, locale: str = "en_US"):
        super().__init__(seed)
        self.seed_value = seed
        self.locale = locale
        self._faker_seed = self.getrandbits(64)
        self._faker: "Faker | None" = None

    @property
    def faker(self) -> "Faker":
        """The Faker seeded for this instance."""
        if self._faker is None:
            from faker import Faker  # imported on first use: a run whose tasks never call it skips it

            self._faker = Faker(self.locale)
            self._faker.seed_instance(self._faker_seed)
        return self._faker

    def child(self, label: str) -> "TaskRng":
        """An independent generator for a named part (e.g. one sub-task of a composite)."""
        digest = hashlib.sha256(f"{self.seed_value}/{label}".encode("utf-8")).hexdigest()
        return TaskRng(int(digest, 16) % 2**32)
