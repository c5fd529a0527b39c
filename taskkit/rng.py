"""Seeded randomness for task parameters: a `random.Random` that carries a seeded Faker."""
from __future__ import annotations

import hashlib
import random

from faker import Faker


def instance_seed(run_seed: int, task_name: str, index: int) -> int:
    """AndroidWorld's per-instance seed: sha256(f"{seed}_{task}_{i}") mod 2**32."""
    digest = hashlib.sha256(f"{run_seed}_{task_name}_{index}".encode("utf-8")).hexdigest()
    return int(digest, 16) % 2**32


class TaskRng(random.Random):
    """`random.Random` seeded for one task instance, with `faker` seeded from it.

    Faker gets its own seed drawn from this generator at construction, so Faker calls and
    `random` calls never disturb each other's sequences.
    """

    def __init__(self, seed: int, locale: str = "en_US"):
        super().__init__(seed)
        self.seed_value = seed
        self.faker = Faker(locale)
        self.faker.seed_instance(self.getrandbits(64))

    def child(self, label: str) -> "TaskRng":
        """An independent generator for a named part (e.g. one sub-task of a composite)."""
        digest = hashlib.sha256(f"{self.seed_value}/{label}".encode("utf-8")).hexdigest()
        return TaskRng(int(digest, 16) % 2**32)
