"""TaskRng's Faker: one Faker per locale per process (issue #37), drawing exactly what a Faker of
each instance's own, seeded alike, draws."""
from __future__ import annotations

import collections

import faker
import hypothesis
import pytest
from hypothesis import strategies as st

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


# Faker methods the tasks call, drawing from weighted tables (names) and from plain ones.
DRAWS = ("first_name", "last_name", "name", "first_name_female", "first_name_male", "company", "address",
         "city", "street_name", "sentence", "word", "job", "email", "phone_number", "date_between")


@hypothesis.given(seed=st.integers(0, 2**64 - 1), methods=st.lists(st.sampled_from(DRAWS), min_size=1, max_size=12))
@hypothesis.settings(max_examples=60, deadline=None)
def test_weighted_draws_are_fakers_own(seed: int, methods: list[str]) -> None:
    """The shared Faker's weighted tables are summed once (taskkit.rng._summed_once): any run of
    draws is what a plain Faker seeded alike draws."""
    rng = TaskRng(0)
    rng._faker_seed = seed
    plain = faker.Faker("en_US")
    plain.seed_instance(seed)
    assert [str(getattr(rng.faker, m)()) for m in methods] == [str(getattr(plain, m)()) for m in methods]


def test_a_weighted_name_is_drawn_without_summing_its_table_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first name is drawn from the sums made at its first draw, not by Faker's own
    random_elements (which sums the table's thousands of weights on every draw); draws that are
    not from the provider's own tables, or unique ones, still are."""
    own = faker.providers.BaseProvider.random_elements
    calls: list[object] = []
    monkeypatch.setattr(faker.providers.BaseProvider, "random_elements",
                        lambda self, *a, **k: calls.append(a) or own(self, *a, **k))
    _shared_faker.cache_clear()
    try:
        rng = TaskRng(3)
        names = [rng.faker.first_name() for _ in range(20)]
        assert calls == []
        mine = collections.OrderedDict([("a", 0.5), ("b", 0.5)])
        assert rng.faker.random_element(mine) in mine and len(calls) == 1
        table = next(p for p in _shared_faker("en_US").get_providers() if hasattr(p, "first_names")).first_names
        assert len(rng.faker.random_elements(table, length=3, unique=True)) == 3 and len(calls) == 2
    finally:
        _shared_faker.cache_clear()
    assert len(set(names)) > 5
