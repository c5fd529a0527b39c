"""TaskRng's Faker: one Faker per locale per process (issue #37), drawing exactly what a Faker of
each instance's own, seeded alike, draws."""
from __future__ import annotations

import faker
import pytest

from taskkit import families, loading, registry
from taskkit.rng import SeededFaker, TaskRng, _shared_faker


def _own_faker(self: TaskRng) -> faker.Faker:
    """TaskRng.faker as it was: a Faker of the instance's own, built and seeded on first use."""
    if self._faker is None:
        self._faker = faker.Faker(self.locale)
        self._faker.seed_instance(self._faker_seed)
    return self._faker


# Tasks whose params Faker shapes (names, sentences, notes, events, contacts), from several apps.
FAKER_TASKS = ("SimpleCalendarAddOneEvent", "TasksDueOnDate", "MarkorEditNote", "SimpleSmsReply",
               "NotesIsTodo", "ContactsAddContact", "ExpenseDeleteMultiple", "RecipeDeleteMultipleRecipes",
               "RetroCreatePlaylist", "MarkorCreateNoteAndSms")


def test_faker_is_built_once_per_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    real = faker.Faker

    def counting(locale: str, *args: object, **kwargs: object) -> faker.Faker:
        built.append(locale)
        return real(locale, *args, **kwargs)

    _shared_faker.cache_clear()
    monkeypatch.setattr(faker, "Faker", counting)
    try:
        names = [TaskRng(seed).faker.name() for seed in range(20)]
        names += [TaskRng(seed, locale="de_DE").faker.name() for seed in range(5)]
    finally:
        _shared_faker.cache_clear()  # not to keep the counting one's Fakers for later tests
    assert built == ["en_US", "de_DE"]
    assert len(set(names)) > 10  # still seeded per instance


def test_interleaved_draws_are_each_instances_own() -> None:
    """Two instances drawing in turn, plain and `unique`, draw what each would draw alone."""
    def draws(rng: TaskRng, other: TaskRng | None) -> list[str]:
        out = []
        for _ in range(6):
            out += [rng.faker.name(), rng.faker.unique.first_name(), rng.faker.sentence()]
            if other is not None:
                other.faker.unique.first_name()  # the other instance's draw in between
                other.faker.address()
        return out

    for seed in range(4):
        alone = draws(TaskRng(seed), None)
        assert draws(TaskRng(seed), TaskRng(seed + 50)) == alone
        own = TaskRng(seed)
        own._faker = None
        assert draws(own, None) == alone


@pytest.mark.parametrize("name", FAKER_TASKS)
def test_params_are_those_of_a_faker_of_their_own(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    loading.load_builtin()
    cls = registry.get(name)
    reads: list[str] = []
    read = SeededFaker.__getattr__
    monkeypatch.setattr(SeededFaker, "__getattr__", lambda self, attr: reads.append(attr) or read(self, attr))
    shared = [cls.generate_random_params(TaskRng(seed)) for seed in (0, 7, 30)]
    assert reads, f"{name} draws nothing from Faker: pick a task that does"
    monkeypatch.setattr(TaskRng, "faker", property(_own_faker))
    assert shared == [cls.generate_random_params(TaskRng(seed)) for seed in (0, 7, 30)]


def test_the_listed_tasks_exist_and_draw_with_faker() -> None:
    """The list above names real tasks of the android_world family (a rename would empty the test)."""
    loading.load_builtin()
    assert set(FAKER_TASKS) <= set(families.tasks_in("android_world"))


def test_threads_drawing_at_once_each_draw_their_own() -> None:
    """The shared Faker is put on a generator's state for the whole of each call (one lock), so
    threads switching as often as the interpreter can still draw what each would draw alone."""
    import sys
    import threading

    def draws(seed: int) -> list[str]:
        rng = TaskRng(seed)
        return [rng.faker.name() + rng.faker.sentence() for _ in range(150)]

    alone = {seed: draws(seed) for seed in range(4)}
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        together: dict[int, list[str]] = {}
        threads = [threading.Thread(target=lambda s=seed: together.__setitem__(s, draws(s))) for seed in alone]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert together == alone
