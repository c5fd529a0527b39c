"""The agent loop on the simulated device's own GUI (taskkit/sim/gui): a user agent navigates
Settings by element index to a score of 1, random episodes replay to the same screens and
scores, and a step costs 2 round trips (3 with a screenshot of the rendered screen)."""
from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import pytest

from taskkit.actions import perform
from taskkit.agents import Action, Agent, Observation, load
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.runner import observe, run_episode, run_suite
from tests.agents.test_agent_loop import wifi_instances


@pytest.fixture
def env():
    device = sim_device()
    yield Env(device)
    device.close()


class WifiThroughSettings(Agent):
    """Opens Settings, then clicks the labels on the way to the Wi-Fi switch, by index."""

    name = "wifi-through-settings"
    PATH = ("Wi‑Fi", "Internet", "Network & internet")  # deepest first: the screen says where we are

    def reset(self, episode) -> None:
        super().reset(episode)
        self.seen: list[Observation] = []

    def step(self, observation: Observation) -> Action:
        self.seen.append(observation)
        elements = observation.ui_elements
        if observation.step == 0:
            return Action("open_app", app_name="Settings")
        if any((e.class_name or "").endswith("Switch") and e.is_checked for e in elements):
            return Action("status", goal_status="complete")
        for label in self.PATH:  # the app bar's title may repeat a label: the last match is the row
            matches = [i for i, e in enumerate(elements) if e.text == label]
            if matches:
                return Action("click", index=matches[-1])
        return Action("status", goal_status="infeasible")


def test_a_user_agent_turns_wifi_on_by_index(env) -> None:
    agent = WifiThroughSettings()
    result = run_episode(env, wifi_instances()[0], agent, 30)
    assert result.error is None and result.score == 1.0
    assert [o.last_action_error for o in agent.seen] == [None] * len(agent.seen)
    assert agent.seen[0].foreground.startswith("com.google.android.apps.nexuslauncher/")
    assert all(o.foreground.startswith("com.android.settings/") for o in agent.seen[1:])
    assert env.device.settings.get("global", "wifi_on") == "1"


def random_then_replay(env: Env, tmp_path: Path) -> None:
    """Random episodes, then their replay: the same screens at every step, the same scores."""
    instances = wifi_instances(3)
    first = run_suite(env, instances, load("random"), 30, output_dir=str(tmp_path / "a"))
    again = run_suite(env, instances, load(f"replay:{tmp_path / 'a'}"), 30, output_dir=str(tmp_path / "b"))
    assert all(r.error is None for r in first + again)
    assert [(r.score, r.steps) for r in again] == [(r.score, r.steps) for r in first]

    def screens(run: str, result) -> list[tuple[str, str]]:
        lines = (tmp_path / run / result.trajectory).read_text().splitlines()
        return [(step["foreground"], step["elements_digest"]) for step in map(json.loads, lines)]

    for a, b in zip(first, again):
        seen = screens("a", a)
        assert seen == screens("b", b) and all(digest for _, digest in seen)
    assert sum(len(screens("a", r)) for r in first) > len(first)  # they did act


def test_random_episodes_replay_to_the_same_screens_and_scores(env, tmp_path: Path) -> None:
    random_then_replay(env, tmp_path)


def test_random_episodes_replay_over_adb(tmp_path: Path) -> None:
    """The same over Debian's adb against the simulator served as adbd (benchmarks/check_cost.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from check_cost import Link

    link = Link(tmp_path / "device")
    try:
        random_then_replay(Env(link.device), tmp_path)
    finally:
        link.close()


@pytest.mark.parametrize("looks, most", [(False, 2), (True, 3)])
def test_a_step_on_the_rendered_screen_costs_at_most_three_round_trips(env, looks: bool, most: int) -> None:
    env.device.shell("am start -a android.settings.WIFI_SETTINGS")

    class ClickSwitch(Agent):
        wants_screenshot = looks

        def step(self, observation: Observation) -> Action:
            return Action("click", index=next(i for i, e in enumerate(observation.ui_elements)
                                              if (e.class_name or "").endswith("Switch")))

    agent = ClickSwitch()
    before = env.device.settings.get("global", "wifi_on")
    env.device.stats.reset()
    observation = observe(env, agent, "Turn Wi-Fi off", 0, 10, None)
    perform(env, agent.step(observation), observation.ui_elements)
    assert env.device.stats.round_trips == most
    assert env.device.settings.get("global", "wifi_on") != before  # the tap on the switch flipped it
    if looks:
        png = observation.screenshot
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == env.device.ui.size()  # IHDR: the screen's size
    else:
        assert observation.screenshot is None


@pytest.mark.parametrize("home", [True, False])
def test_an_episode_starts_on_the_home_screen_unless_the_task_says_not(env, monkeypatch, home: bool) -> None:
    """As AndroidWorld's `start_on_home_screen` (True unless a task sets it): a known first screen."""
    from taskkit import registry

    instance = wifi_instances()[0]
    env.device.shell("am start -n com.google.android.deskclock/com.android.deskclock.DeskClock")  # a previous end
    task_class = registry.get("SystemWifiTurnOn")
    monkeypatch.setattr(task_class, "start_on_home_screen", home, raising=False)
    setup = task_class.initialize_state

    def initialize_then_open_settings(self, env) -> None:  # a task that leaves its app open
        setup(self, env)
        env.device.activity.start("com.android.settings/.Settings")

    monkeypatch.setattr(task_class, "initialize_state", initialize_then_open_settings)
    agent = WifiThroughSettings()
    run_episode(env, instance, agent, 30)
    first = agent.seen[0].foreground
    assert first.startswith("com.google.android.apps.nexuslauncher/" if home else "com.android.settings/")
    assert env.device.shell("pidof com.google.android.deskclock").exit_code == 1  # the last episode's app is closed
