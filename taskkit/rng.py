"""Seeded randomness for task parameters: a `random.Random` that carries a seeded Faker."""
from __future__ import annotations

import functools
import hashlib
import random
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from faker import Faker


def instance_seed(run_seed: int, task_name: str, index: int) -> int:
    """AndroidWorld's per-instance seed: sha256(f"{seed}_{task}_{i}") mod 2**32."""
    digest = hashlib.sha256(f"{run_seed}_{task_name}_{index}".encode("utf-8")).hexdigest()
    return int(digest, 16) % 2**32


class TaskRng(random.Random):
    """`random.Random` seeded for one task instance, with `faker` seeded from it.

    Faker gets its own seed drawn from this generator at construction, so Faker calls and
    `random` calls never disturb each other's sequences. The Faker is made on first use (most
    tasks never call it); see `SeededFaker` for how it is shared.
    """

    def __init__(self, seed: int, locale: str = "en_US"):
        super().__init__(seed)
        self.seed_value = seed
        self.locale = locale
        self._faker_seed = self.getrandbits(64)
        self._faker: "SeededFaker | None" = None

    @property
    def faker(self) -> "Faker":
        """The Faker seeded for this instance."""
        if self._faker is None:
            self._faker = SeededFaker(self.locale, self._faker_seed)
        return self._faker  # type: ignore[return-value] - it answers as a Faker does

    def child(self, label: str) -> "TaskRng":
        """An independent generator for a named part (e.g. one sub-task of a composite)."""
        digest = hashlib.sha256(f"{self.seed_value}/{label}".encode("utf-8")).hexdigest()
        return TaskRng(int(digest, 16) % 2**32)


_DRAWING = threading.RLock()


@functools.lru_cache(maxsize=None)
def _shared_faker(locale: str) -> "Faker":
    """The process's Faker for `locale`: built once (building one loads its providers, which
    costs milliseconds: once per task instance before)."""
    from faker import Faker  # imported on first use: a run whose tasks never call it skips it

    return Faker(locale)


class SeededFaker:
    """One generator's Faker: the process's Faker for its locale, put on this generator's own
    random state (`random.Random(seed)`, which is what `Faker.seed_instance(seed)` makes) for
    every call, under one lock, and with its own record of the values `unique` gave. So it draws
    what a Faker of its own seeded alike draws, however the draws of several (and of several
    threads) interleave: a provider reads `generator.random` when called
    (faker/providers/__init__.py), with nothing else of a draw kept on the Faker.
    """

    def __init__(self, locale: str, seed: int):
        from faker.proxy import UniqueProxy

        self._shared = _shared_faker(locale)
        self._random = random.Random(seed)
        self.unique = UniqueProxy(self)  # type: ignore[arg-type] - it reads its draws through this view

    def __getattr__(self, name: str) -> Any:
        if name == "random":
            return self._random
        found = getattr(self._shared, name)
        if not callable(found):
            return found

        def draw(*args: Any, **kwargs: Any) -> Any:  # on this generator's state, one thread at a time
            with _DRAWING:
                self._shared.random = self._random
                return found(*args, **kwargs)
        return draw
