"""TaskEval's lifecycle guarantees, AndroidWorld aliases and super() safety, on the simulator."""
from __future__ import annotations

import pytest

from taskkit.apps import markor
from taskkit import LifecycleError, TaskEval
from taskkit.device.state import state_digest
from taskkit.validators import file_content


class WriteNote(TaskEval, register=False):
    """A minimal task: write a note; the check reads it back."""

    app_names = ("markor",)
    template = "Write {{ text }} into note.md"
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    calls: list[str] = []

    @classmethod
    def generate_random_params(cls, rng):
        return {"text": rng.faker.word()}

    def initialize_state(self, env):
        super().initialize_state(env)
        self.calls.append("init")

    def validator(self):
        return file_content(markor.note_path("note.md"), self.params["text"])

    def solve(self, env):
        markor.create_note(env.device, "note.md", self.params["text"])

    def teardown(self, env):
        self.calls.append("teardown")
        super().teardown(env)


def test_is_successful_before_initialize_raises(env):
    with pytest.raises(LifecycleError, match="WriteNote: is_successful called before initialize_state"):
        WriteNote({"text": "x"}).is_successful(env)


def test_initialize_twice_raises(env):
    task = WriteNote({"text": "x"})
    task.initialize_state(env)
    with pytest.raises(LifecycleError, match="initialize_state called twice"):
        task.initialize_state(env)
    task.teardown(env)


def test_lifecycle_scores_and_restores(env):
    before = state_digest(env.device)
    task = WriteNote.from_seed(3)
    task.initialize_state(env)
    assert task.is_successful(env) == 0.0
    assert task.last_result.reasons and "does not exist" in task.last_result.reasons[0]
    task.solve(env)
    assert task.is_successful(env) == 1.0
    task.teardown(env)
    assert state_digest(env.device) == before
    # after teardown the instance can run again
    task.initialize_state(env)
    task.teardown(env)


def test_failed_initialize_restores_the_device(env):
    class Explodes(WriteNote, register=False):
        def initialize_state(self, env):
            super().initialize_state(env)
            markor.create_note(env.device, "half.md", "half-done state")
            raise RuntimeError("boom")

    before = state_digest(env.device)
    task = Explodes({"text": "x"})
    with pytest.raises(RuntimeError, match="boom"):
        task.initialize_state(env)
    assert state_digest(env.device) == before
    assert not task.initialized


def test_teardown_restores_even_when_the_override_raises(env):
    class BadTeardown(WriteNote, register=False):
        def teardown(self, env):
            raise RuntimeError("teardown bug")

    before = state_digest(env.device)
    task = BadTeardown({"text": "x"})
    task.initialize_state(env)
    task.solve(env)
    with pytest.raises(RuntimeError, match="teardown bug"):
        task.teardown(env)
    assert state_digest(env.device) == before


def test_androidworld_aliases_port_unchanged(env):
    class Ported(TaskEval, register=False):
        app_names = ("markor",)
        log: list[str] = []

        def initialize_task(self, env):
            super().initialize_task(env)
            self.log.append("init")

        def is_successful(self, env):
            super_is = 1.0 if env.device.files.exists(markor.note_path("p.md")) else 0.0
            return super_is

        def tear_down(self, env):
            self.log.append("tear_down")
            super().tear_down(env)

        def solve(self, env):
            markor.create_note(env.device, "p.md", "x")

    before = state_digest(env.device)
    task = Ported()
    task.initialize_task(env)
    with pytest.raises(LifecycleError):
        task.initialize_state(env)  # the two names are one method
    task.solve(env)
    assert task.is_successful(env) == 1.0
    task.tear_down(env)
    assert Ported.log == ["init", "tear_down"]
    assert state_digest(env.device) == before


def test_score_outside_unit_interval_is_a_task_bug(env):
    from taskkit.task import TaskDefinitionError

    class Overscores(TaskEval, register=False):
        def is_successful(self, env):
            return 2

    task = Overscores()
    task.initialize_state(env)
    with pytest.raises(TaskDefinitionError, match=r"must return a float in \[0, 1\]"):
        task.is_successful(env)
    task.teardown(env)


def test_name_defaults_to_class_name_and_step_budget():
    class Named(TaskEval, register=False):
        complexity = 2.5

        def is_successful(self, env) -> float:
            return 0.0

    class Renamed(Named, register=False):
        name = "custom_name"

    assert Named.name == "Named" and Named().max_steps == 25
    assert Renamed.name == "custom_name"


def test_super_is_successful_returns_one_as_in_android_world(env) -> None:
    """AndroidWorld-style overrides call super().is_successful(env) first; the base gives 1.0."""
    from taskkit import TaskEval

    class SuperFirst(TaskEval, register=False):
        app_names = ("settings",)
        template = "Turn Wi-Fi on"

        def is_successful(self, env) -> float:
            base = super().is_successful(env)
            return base * (1.0 if env.device.settings.get("global", "wifi_on") == "1" else 0.0)

    task = SuperFirst({})
    task.initialize_state(env)
    try:
        env.device.settings.put("global", "wifi_on", "0")
        assert task.is_successful(env) == 0.0
        env.device.settings.put("global", "wifi_on", "1")
        assert task.is_successful(env) == 1.0
    finally:
        task.teardown(env)


def test_a_task_with_neither_check_is_refused_when_defined() -> None:
    import pytest

    from taskkit import TaskEval
    from taskkit.task import TaskDefinitionError

    with pytest.raises(TaskDefinitionError, match="define is_successful"):
        class NoCheck(TaskEval):  # noqa: F841
            app_names = ("settings",)
            template = "Do something"

    class HelperBase(TaskEval, register=False):  # a base others derive from may leave it out
        app_names = ("settings",)

    with pytest.raises(TaskDefinitionError, match="HelperBase: define is_successful"):
        HelperBase({})
