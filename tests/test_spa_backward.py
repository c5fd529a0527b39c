"""SPA-Bench's key components as its Appendix D.1 defines them: the episode's screens are read
"starting from the last screenshot and moving backward until a match is found or the first
screenshot is reached" (issue #36 item 1). A correct solution followed by HOME still passes, a
wrong one still fails, the row records the last screen that held every component, the
final-screen rule stays an option, and a task without key components keeps nothing per step."""
from __future__ import annotations

import json
import types

import pytest

from taskkit import loading, registry, suite
from taskkit.agents.base import Action, Agent, Episode, Observation
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.device.services import ocr
from taskkit.device.services.ui import Screen, UIElement
from taskkit.gui_reference import home, mistyped
from taskkit.runner import run_episode
from taskkit.validators import all_of, key_components
from taskkit.validators.detectors import ScreenLog, screen_log

SPA_TASKS = ("SpaContactsCreateL1", "SpaMarkorNoteL2", "SpaSettingsDisplaySoundL1")


class FakeUi:
    """A device's UI showing one screen of texts; counts the screenshots taken."""

    def __init__(self, *texts: str):
        self.texts, self.shots = texts, 0

    def screen(self) -> Screen:
        return Screen("app/.Main", tuple(UIElement(text=text) for text in self.texts))

    def screenshot(self) -> bytes:
        self.shots += 1
        return b"final-png"


def fake_env(final: FakeUi, *kept: str, ocr_shots: tuple[bytes, ...] | None = None) -> types.SimpleNamespace:
    """An env whose final screen is `final` and whose episode kept the screens `kept` (texts)."""
    env = types.SimpleNamespace(device=types.SimpleNamespace(ui=final), screens=None)
    if kept or ocr_shots is not None:
        env.screens = ScreenLog(ocr=ocr_shots is not None)
        for index, text in enumerate(kept):
            env.screens.keep(env, (UIElement(text=text),), None if ocr_shots is None else ocr_shots[index])
    return env


def test_the_last_screen_holding_every_component_matches_from_the_last_back() -> None:
    check = key_components(["Agent", "Saved"])
    env = fake_env(FakeUi("Home"), "Agent", "Agent Saved", "Contacts", "agent  saved", "Settings")
    result = check.evaluate(env, None)
    assert result.score == 1.0 and env.screens.matched == 3  # the later of the two, not the first
    env = fake_env(FakeUi("Agent", "saved"), "Agent Saved")
    assert check.evaluate(env, None).passed and env.screens.matched == 1  # the final screen comes last


def test_no_screen_holding_them_all_fails_and_says_so() -> None:
    env = fake_env(FakeUi("Home"), "Agent", "Saved", "Contacts")  # each on a screen, never together
    result = key_components(["Agent", "Saved"]).evaluate(env, None)
    assert result.score == 0.0 and env.screens.matched is None
    assert result.reasons == ("none of the episode's 4 screens shows them all; the final one does not show "
                              "'Agent', 'Saved'",)


def test_the_final_screen_rule_stays_an_option() -> None:
    env = fake_env(FakeUi("Home"), "Agent Saved")
    assert key_components(["Agent"]).evaluate(env, None).passed
    final = key_components(["Agent"], screens="final").evaluate(env, None)
    assert final.score == 0.0 and final.reasons == ("the screen does not show 'Agent'",)
    with pytest.raises(ValueError, match="screens must be one of episode, final"):
        key_components(["Agent"], screens="first")


def test_ocr_reads_a_kept_screenshot_only_where_the_text_lacks_a_component(monkeypatch) -> None:
    read: list[bytes] = []
    monkeypatch.setattr(ocr, "screen_words", lambda png: read.append(png) or {b"shot1": "MUFFIN"}.get(png, ""))
    final = FakeUi("Gallery")
    env = fake_env(final, "Muffin", "Gallery", "Gallery", ocr_shots=(b"shot0", b"shot1", b"shot2"))
    assert key_components(["muffin"], ocr=True).evaluate(env, None).passed
    assert env.screens.matched == 1 and read == [b"final-png", b"shot2", b"shot1"]  # shot0 never read
    assert final.shots == 1  # the final screen's screenshot: taken at check time, once


def test_only_key_components_on_the_episodes_screens_ask_for_a_log() -> None:
    assert screen_log([key_components(["a"], screens="final")]) is None
    log = screen_log([all_of(key_components(["a"]), key_components(["b"], ocr=True))])
    assert log is not None and log.ocr


@pytest.fixture(scope="module")
def spa_env(module_device):
    from taskkit.env import Env

    loading.load_builtin()
    return Env(module_device)


def _play(env, name: str, variant=None):
    instance = suite.instantiate(registry.get(name), 30, 0)
    return run_episode(env, instance, GuiReferenceAgent(variant), 30)


@pytest.mark.parametrize("name", SPA_TASKS)
def test_a_correct_spa_solution_followed_by_home_still_passes(spa_env, name: str) -> None:
    played = _play(spa_env, name, lambda steps: [*steps, home()])
    assert (played.score, played.error) == (1.0, None), played.reasons
    log = spa_env.screens
    components = registry.get(name).from_seed(played.seed).key_components()
    holds = [all("".join(c.lower().split()) in text for c in components) for text in log.texts]
    # the matched screen is the last kept screen holding every component: the one before HOME
    assert played.key_components_step == max(i for i, held in enumerate(holds) if held) == len(log.texts) - 2


@pytest.mark.parametrize("name", SPA_TASKS)
def test_a_wrong_spa_solution_followed_by_home_still_fails(spa_env, name: str) -> None:
    wrong = _play(spa_env, name, lambda steps: [*(mistyped(steps) or steps[:-1]), home()])
    assert wrong.score == 0.0 and wrong.error is None


class Waiter(Agent):
    """Waits three steps, then declares the goal complete; asks for no dump and no screenshot."""

    name = "waiter"
    wants_ui_elements = False

    def step(self, observation: Observation) -> Action:
        return Action("wait") if observation.step < 3 else Action("status", goal_status="complete")


def _dumps_during(env, name: str) -> tuple[int, object]:
    """How many UI dumps an episode of `name` with `Waiter` reads, and what it kept per step."""
    real, calls = env.device.ui.screen, []
    env.device.ui.screen = lambda: calls.append(1) or real()
    try:
        run_episode(env, suite.instantiate(registry.get(name), 30, 0), Waiter(), 30)
    finally:
        del env.device.ui.screen
    return len(calls), env.screens


def test_a_task_without_key_components_keeps_nothing_per_step(spa_env) -> None:
    dumps, kept = _dumps_during(spa_env, "SystemWifiTurnOn")
    assert (dumps, kept) == (0, None)
    dumps, kept = _dumps_during(spa_env, "SpaSettingsDisplaySoundL1")  # 4 steps: one dump each, one to check
    assert dumps == 5 and len(kept.texts) == 4 and kept.shots == [] and all(isinstance(t, str) for t in kept.texts)


def test_the_gymnasium_env_matches_backwards_too() -> None:
    gymnasium = pytest.importorskip("gymnasium", reason="taskkit.gym needs the gym extra (pip install 'taskkit[gym]')")
    import taskkit.gym  # noqa: F401 - registers taskkit/Task-v0

    penv = gymnasium.make("taskkit/Task-v0", task="SpaSettingsDisplaySoundL1").unwrapped
    try:
        penv.reset(seed=30)
        agent = GuiReferenceAgent(lambda steps: [*steps, home()])
        agent.reset(Episode(penv.task.goal, penv.task.max_steps, (), penv.task.name, "x", 0,
                                  tuple(penv.task.gui_reference()), None))
        terminated = truncated = False
        while not (terminated or truncated):
            action = agent.step(penv._last)
            _, reward, terminated, truncated, info = penv.step(json.dumps(action.to_dict()))
        assert (reward, info["score"]) == (1.0, 1.0) and info["key_components_step"] == info["step"] - 2
    finally:
        penv.close()


def test_taskkit_check_plays_the_gui_reference_followed_by_home(spa_env) -> None:
    """gui_solvable: where the check reads the episode's screens, the reference followed by HOME
    must still score 1.0; a check that also asks for the app in front at the end is named."""
    from taskkit import gui_reference as ref
    from taskkit.task import TaskEval
    from taskkit.testing import properties as props
    from taskkit.testing.session import Session
    from taskkit.validators import app_in_foreground

    def task(in_front: bool) -> type[TaskEval]:
        class OpenClock(TaskEval, register=False):
            name, template, app_names, complexity = "OpenClock", "Open the clock.", ("clock",), 1

            def validator(self):
                return all_of(key_components(["Alarm"]), *([app_in_foreground("clock")] if in_front else []))

            def gui_reference(self):
                return [ref.open_app("clock")]

        return OpenClock

    with Session(spa_env, near_misses=False) as session:
        assert props.check_gui_solvable(session, task(False), 0) is None
        assert props.check_gui_solvable(session, task(True), 0).startswith(
            "the GUI reference followed by HOME: scores 0.0: ")


SPEC = '''
name: "AlarmPageSeen"
apps: "clock"
complexity: 1
goal: "Open the alarms."
success { key_components { items: ["Alarm"] SCREENS } }
oracle { shell { command: "am start -n com.google.android.deskclock/com.android.deskclock.DeskClock" } }
'''


@pytest.mark.parametrize("field, rule", [("", "episode"), ('screens: "final"', "final")])
def test_a_spec_chooses_the_rule_and_a_bad_one_is_refused_at_its_line(tmp_path, field: str, rule: str) -> None:
    from taskkit import specs

    path = tmp_path / "alarm.textproto"
    path.write_text(SPEC.replace("SCREENS", field))
    assert specs.load_file(path, register=False)({}).validator().screens == rule
    path.write_text(SPEC.replace("SCREENS", 'screens: "first"'))
    with pytest.raises(specs.SpecError, match=r"alarm.textproto:6:\d+: success.key_components.screens: one of "
                                              r"'episode', 'final' \(default 'episode'\), got 'first'"):
        specs.load_file(path, register=False)
