"""The agent loop with a screen: elements in every observation, clicks by index landing on the
element's centre, trajectories written and replayed to the same score, the oracle as a run mode
that no agent can reach, and the cost of a step in round trips."""
from __future__ import annotations

import gc
import json
import types
from pathlib import Path

import pytest

from taskkit import registry, suite
from taskkit.agents import Action, Agent, Observation, load
from taskkit.agents.base import Episode
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.runner import run_episode, run_suite
from taskkit.task import TaskEval
from tests.agents.screens import SWITCH_BOUNDS, scripted_screen


@pytest.fixture
def env():
    device = sim_device()
    with scripted_screen() as taps:
        environment = Env(device)
        environment.taps = taps
        yield environment
    device.close()


def wifi_instances(count: int = 1) -> list[suite.TaskInstance]:
    from taskkit import loading

    loading.load_builtin()
    return [suite.instantiate(registry.get("SystemWifiTurnOn"), 30, index) for index in range(count)]


class ClickWifiSwitch(Agent):
    """A user agent: find the switch beside 'Wi-Fi' in the elements, click it by index."""

    name = "click-wifi"

    def step(self, observation: Observation) -> Action:
        self.seen = observation
        for index, element in enumerate(observation.ui_elements):
            if element.class_name == "android.widget.Switch":
                if element.is_checked:
                    return Action("status", goal_status="complete")
                return Action("click", index=index)
        return Action("status", goal_status="infeasible")


def test_a_user_agent_reads_elements_and_clicks_by_index(env) -> None:
    result = run_episode(env, wifi_instances()[0], ClickWifiSwitch(), 30)
    assert result.error is None and result.score == 1.0 and result.steps == 2
    x1, y1, x2, y2 = SWITCH_BOUNDS
    assert env.taps == [((x1 + x2) // 2, (y1 + y2) // 2)]  # the centre of the element


def test_an_index_out_of_range_is_the_agents_mistake(env) -> None:
    class Wrong(Agent):
        def step(self, observation: Observation) -> Action:
            if observation.step == 0:
                return Action("click", index=99)
            self.error = observation.last_action_error
            return Action("status", goal_status="complete")

    agent = Wrong()
    result = run_episode(env, wifi_instances()[0], agent, 30)
    assert result.error is None and result.score == 0.0
    assert "index 99 is out of range: the screen has 5 element(s)" in agent.error


def test_random_agent_suite_writes_trajectories_and_replay_reproduces_the_scores(env, tmp_path: Path) -> None:
    instances = wifi_instances(6)
    first = run_suite(env, instances, load("random"), 30, output_dir=str(tmp_path))
    assert all(r.error is None for r in first)
    for result in first:
        lines = [json.loads(line) for line in (tmp_path / result.trajectory).read_text().splitlines()]
        assert len(lines) == result.steps and lines[-1]["action"] is not None
        assert all(line["elements"] and line["screen_error"] is None for line in lines)  # elements every step
    replayed = run_suite(env, instances, load(f"replay:{tmp_path}"), 30, output_dir=str(tmp_path / "again"))
    assert [r.score for r in replayed] == [r.score for r in first]
    assert [r.steps for r in replayed] == [r.steps for r in first]


def test_the_same_seed_gives_the_same_random_episode(env, tmp_path: Path) -> None:
    runs = [run_suite(env, wifi_instances(3), load("random"), 30, output_dir=str(tmp_path / str(i))) for i in range(2)]
    texts = [[(tmp_path / str(i) / r.trajectory).read_text() for r in run] for i, run in enumerate(runs)]
    strip = [[[{k: v for k, v in json.loads(line).items() if k != "agent_seconds"} for line in text.splitlines()]
              for text in run] for run in texts]
    assert strip[0] == strip[1]


def test_screenshots_only_for_agents_that_ask(env, tmp_path: Path) -> None:
    class Looks(ClickWifiSwitch):
        wants_screenshot = True

    plain = ClickWifiSwitch()
    run_episode(env, wifi_instances()[0], plain, 30)
    assert plain.seen.screenshot is None
    looks = Looks()
    result = run_episode(env, wifi_instances()[0], looks, 30, output_dir=str(tmp_path), save_screenshots=True)
    assert looks.seen.screenshot.startswith(b"\x89PNG\r\n\x1a\n")
    assert sorted(p.name for p in (tmp_path / "trajectories" / result.instance_id).iterdir()) == [
        "step_000.png", "step_001.png"]


@pytest.mark.parametrize("screenshot, most", [(False, 2), (True, 3)])
def test_one_step_costs_at_most_three_round_trips(env, screenshot: bool, most: int) -> None:
    from taskkit.runner import observe

    agent = types.new_class("A", (ClickWifiSwitch,), {}, lambda ns: ns.update(wants_screenshot=screenshot))()
    env.device.settings.put("global", "wifi_on", "0")  # so that the agent clicks
    env.device.stats.reset()
    observation = observe(env, agent, "goal", 0, 10, None)
    action = agent.step(observation)
    from taskkit.actions import perform

    perform(env, action, observation.ui_elements)
    assert env.device.stats.round_trips == most


def test_a_device_without_uiautomator_says_so() -> None:
    from taskkit.sim.device import SimDevice

    device = SimDevice()  # a bare simulated device: no display attached
    try:
        observation = __import__("taskkit.runner", fromlist=["observe"]).observe(
            Env(device), ClickWifiSwitch(), "goal", 0, 10, None)
    finally:
        device.close()
    assert observation.ui_elements == () and "uiautomator: inaccessible or not found" in observation.screen_error


def test_a_user_agent_cannot_reach_the_task_or_its_solution(env) -> None:
    """Everything reachable from what the agent receives is plain data: no task, no bound method
    of one, no Env or device."""
    received: list[object] = []

    class Curious(Agent):
        def reset(self, episode: Episode) -> None:
            received.append(episode)
            super().reset(episode)

        def step(self, observation: Observation) -> Action:
            received.append(observation)
            return Action("status", goal_status="complete")

    result = run_episode(env, wifi_instances()[0], Curious(), 30)
    assert result.agent == "agent" and not hasattr(received[0], "solve")
    seen: set[int] = set()
    stack = list(received)
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType)):
            continue
        seen.add(id(item))
        assert not isinstance(item, (TaskEval, Env)), f"the agent can reach {item!r}"
        assert not (callable(item) and isinstance(getattr(item, "__self__", None), TaskEval))
        stack.extend(gc.get_referents(item))


def test_the_oracle_is_a_run_mode_recorded_in_the_row(env) -> None:
    result = run_episode(env, wifi_instances()[0], load("oracle"), 30)
    assert result.agent == "oracle" and result.score == 1.0 and result.trajectory is None
