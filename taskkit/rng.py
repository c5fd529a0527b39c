"""Seeded randomness for task parameters: a `random.Random` that carries a seeded Faker."""
from __future__ import annotations

import collections
import functools
import hashlib
import itertools
import random
import threading
from typing import TYPE_CHECKING, Any, Callable

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

    faker = Faker(locale)
    for provider in faker.get_providers():
        provider.random_elements = _summed_once(provider)
    return faker


def _summed_once(provider: Any) -> Callable[..., Any]:
    """`provider.random_elements`, drawing from the provider's own weighted tables (the
    OrderedDicts of its classes: first names, last names, ... with their frequencies) by
    `random.choices` on their cumulative weights summed once, where Faker sums the whole table
    on every draw (thousands of names for one). `random.choices(a, weights=w)` sums `w` and
    then draws exactly as `random.choices(a, cum_weights=sums)` does, so the draws are the same;
    Faker itself keeps each table's keys from its first draw on (`_key_cache`): its tables never
    change. Any other draw (unique, a length to draw, no weights, a table of the caller's) is
    Faker's own."""
    own = provider.random_elements
    tables = {id(value): value for cls in type(provider).__mro__ for value in vars(cls).values()
              if isinstance(value, collections.OrderedDict)}
    sums: dict[int, tuple[tuple[Any, ...], list[float]]] = {}

    def random_elements(elements: Any = ("a", "b", "c"), length: int | None = None, unique: bool = False,
                        use_weighting: bool | None = None) -> Any:
        weighted = provider.__use_weighting__ if use_weighting is None else use_weighting
        if tables.get(id(elements)) is not elements or unique or length is None or not weighted:
            return own(elements, length, unique, use_weighting)
        found = sums.get(id(elements))
        if found is None:
            found = sums[id(elements)] = (tuple(elements), list(itertools.accumulate(elements.values())))
        return provider.generator.random.choices(found[0], cum_weights=found[1], k=length)

    return random_elements


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
