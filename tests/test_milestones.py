"""Milestones (AndroidLens' progress): ordered and unordered groups checked after every step, the
must-hold rule, the row's `progress` and `milestones`, composites' milestones from their parts,
and the summary's mean progress."""
from __future__ import annotations

import pytest

from taskkit import TaskEval, report
from taskkit.agents import Action, Agent, load
from taskkit.apps.composite.tasks import MarkorCreateNoteAndSms
from taskkit.runner import run_episode
from taskkit.suite import TaskInstance, instantiate
from taskkit.validators import app_in_foreground, milestone, ordered, unordered


class Opens(Agent):
    """Opens the given apps one per step, then declares the task complete."""

    name = "opens"

    def __init__(self, *apps: str):
        super().__init__()
        self.apps = list(apps)

    def step(self, observation):
        if not self.apps:
            return Action("status", goal_status="complete")
        return Action("open_app", app_name=self.apps.pop(0))


def _task(make_groups, held: bool = False) -> type[TaskEval]:
    class VisitTwoApps(TaskEval, register=False):
        name = "VisitTwoApps"
        app_names = ("clock", "contacts")
        template = "Open Clock, then Contacts."
        complexity = 1.0

        def is_successful(self, env) -> float:
            return 1.0 if env.device.activity.foreground_package() else 0.0

        def milestones(self):
            clock = milestone("clock", app_in_foreground("clock"), must_hold=held)
            return make_groups(clock, milestone("contacts", app_in_foreground("contacts")))

    return VisitTwoApps


@pytest.mark.parametrize("groups, held, reached, progress", [
    (lambda a, b: (ordered(a, b),), False, {"clock": 2, "contacts": 3}, 1.0),  # contacts at 1 is too early
    (lambda a, b: (unordered(a, b),), False, {"clock": 2, "contacts": 1}, 1.0),
    (lambda a, b: (ordered(b, a),), False, {"contacts": 1, "clock": 2}, 1.0),
    (lambda a, b: (unordered(a, b),), True, {"clock": None, "contacts": 1}, 0.5),  # Clock not in front at the end
    (lambda a, b: (ordered(a, b),), True, {"clock": None, "contacts": 3}, 0.0),  # the prefix breaks at clock
])
def test_rows_record_the_step_each_milestone_was_reached_and_the_progress(env, groups, held, reached, progress):
    task = _task(groups, held)
    result = run_episode(env, TaskInstance(task, 0, 1, {}), Opens("Contacts", "Clock", "Contacts"), 30)
    assert result.error is None and result.steps == 4
    assert result.milestones == reached and result.progress == progress
    assert any("milestone clock: reached at step 2 but no longer holds" in r for r in result.reasons) == held


def test_a_task_without_milestones_has_no_progress(env):
    result = run_episode(env, instantiate(MarkorCreateNoteAndSms.parts[0][1], 30, 0), load("noop"), 30)
    assert result.progress is None and result.milestones is None


def test_a_composite_s_parts_are_its_milestones(env):
    instance = instantiate(MarkorCreateNoteAndSms, 30, 0)
    labels = [label for label, _, _ in MarkorCreateNoteAndSms.parts]
    solved = run_episode(env, instance, load("oracle"), 30)
    assert solved.milestones == {label: 1 for label in labels} and solved.progress == 1.0
    idle = run_episode(env, instance, load("noop"), 30)
    assert idle.milestones == {label: None for label in labels} and idle.progress == 0.0


def test_two_milestones_of_one_name_are_refused_as_the_task_s_error(env):
    task = _task(lambda a, b: (ordered(a), unordered(a, b)))
    result = run_episode(env, TaskInstance(task, 0, 1, {}), load("noop"), 30)
    assert result.error_kind == "task" and "milestone names must differ; clock repeats" in result.error


def test_the_summary_reports_mean_progress_beside_success():
    rows = [{"task": "T", "instance_id": "T_0", "apps": ["clock"], "score": 1.0, "success": True, "progress": 1.0},
            {"task": "T", "instance_id": "T_1", "apps": ["clock"], "score": 0.0, "success": False, "progress": 0.5},
            {"task": "U", "instance_id": "U_0", "apps": ["clock"], "score": 0.0, "success": False}]
    data = report.summary_json(rows)
    assert data["per_task"]["T"]["mean_progress"] == 0.75 and data["per_task"]["U"]["mean_progress"] is None
    assert data["per_app"]["clock"]["mean_progress"] == 0.75
    text = report.summary(rows)
    assert "progress" in text.splitlines()[2] and "0.750" in text  # the header after the headline
    assert "progress" not in report.summary(rows[2:]).splitlines()[2]  # no task with milestones: no column


_SPEC = """
name: "RadiosOnSpec"
apps: "settings"
complexity: 1
goal: "Turn Wi-Fi on, then Bluetooth."
setup { shell { command: "settings put global wifi_on 0; settings put global bluetooth_on 0" } }
success { setting_equals { namespace: "global" key: "bluetooth_on" values: "1" } }
oracle { shell { command: "settings put global wifi_on 1; settings put global bluetooth_on 1" } }
milestones {
  ordered: true
  milestone { name: "wifi" must_hold: true check { setting_equals { namespace: "global" key: "wifi_on" values: "1" } } }
  milestone { name: "bluetooth" check { setting_equals { namespace: "global" key: "bluetooth_on" values: "1" } } }
}
"""


def test_a_spec_declares_milestones_and_its_rows_report_them(env, tmp_path):
    from taskkit import specs

    path = tmp_path / "radios.textproto"
    path.write_text(_SPEC)
    task = specs.load_file(path, register=False)
    solved = run_episode(env, TaskInstance(task, 0, 1, {}), load("oracle"), 30)
    assert solved.score == 1.0 and solved.milestones == {"wifi": 1, "bluetooth": 1} and solved.progress == 1.0
    idle = run_episode(env, TaskInstance(task, 0, 1, {}), load("noop"), 30)
    assert idle.milestones == {"wifi": None, "bluetooth": None} and idle.progress == 0.0


def test_a_spec_milestone_without_a_check_or_with_a_taken_name_is_refused_at_its_line(tmp_path):
    from taskkit import specs

    path = tmp_path / "radios.textproto"
    path.write_text(_SPEC.replace('name: "bluetooth"', 'name: "wifi"'))
    with pytest.raises(specs.SpecError, match=r"radios.textproto:12:15: milestones\[0\]\.milestone\[1\]\.name: 'wifi' names another"):
        specs.load_file(path, register=False)
    bluetooth = _SPEC.splitlines()[11]
    path.write_text(_SPEC.replace(bluetooth, '  milestone { name: "bluetooth" }'))
    with pytest.raises(specs.SpecError, match=r"radios.textproto:12:\d+: milestones\[0\]\.milestone\[1\]\.check: required"):
        specs.load_file(path, register=False)


def test_taskkit_check_names_a_milestone_the_gui_reference_never_reaches(env):
    from taskkit import gui_reference as ref
    from taskkit.testing import properties as props
    from taskkit.testing.session import Session

    def task(reached_by_reference: bool) -> type[TaskEval]:
        base = _task(lambda a, b: (ordered(a, b),) if reached_by_reference else (ordered(b, a),))

        class OpenClockThenContacts(base, register=False):
            def is_successful(self, env) -> float:
                return float(env.device.activity.foreground_package() == "com.google.android.contacts")

            def gui_reference(self):
                return [ref.open_app("clock"), ref.open_app("contacts")]

        return OpenClockThenContacts

    with Session(env, near_misses=False) as session:
        assert props.check_gui_solvable(session, task(True), 0) is None
        assert props.check_gui_solvable(session, task(False), 0) == (
            "the GUI reference scores 1.0 but never reaches (or does not hold) milestone(s) clock")
