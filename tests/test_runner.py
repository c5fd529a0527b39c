"""The episode loop: oracle scores 1, noop scores 0, errors are recorded and kept apart."""
from __future__ import annotations

import pytest

from taskkit import TaskEval, loading, registry, suite
from taskkit.agents import Action, Agent, load, AgentLoadError
from taskkit.runner import EpisodeOptions, run_episode, run_suite
from taskkit.suite import TaskInstance

loading.load_builtin()


SIM_INSTANCES = [i for i in suite.build_suite(30) if not i.task.real_device_only]  # as on --device sim
PARTS = 6  # the suite in interleaved parts, so that pytest-xdist's workers share it


def test_the_suite_holds_tasks_solved_from_the_start():
    """What the parts below rely on for their check of verify tasks (a noop scores 1 on them)."""
    assert any(getattr(i.task, "starts_solved", False) for i in SIM_INSTANCES)


@pytest.mark.parametrize("part", range(PARTS))
def test_oracle_solves_and_noop_fails_every_builtin_task(env, part):
    instances = SIM_INSTANCES[part::PARTS]
    oracle = run_suite(env, instances, load("oracle"), 30)
    noop = run_suite(env, instances, load("noop"), 30)
    assert [r.score for r in oracle] == [1.0] * len(instances), [(r.task, r.reasons, r.error) for r in oracle if r.score < 1]
    verify = {i.task.name for i in instances if getattr(i.task, "starts_solved", False)}  # solved from the start
    assert all(r.score == 1.0 for r in noop if r.task in verify)
    assert [r.score for r in noop if r.task not in verify] == [0.0] * (len(instances) - len(verify)), \
        [(r.task, r.score) for r in noop if r.score > 0 and r.task not in verify]
    assert all(r.error is None for r in oracle + noop)
    assert all(r.steps == 1 and r.status == "complete" for r in oracle)


class Tapper(Agent):
    name = "tapper"

    def step(self, observation):
        return Action("click", x=10, y=20)


def test_budget_ends_an_agent_that_never_stops(env):
    instance = suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0)
    result = run_episode(env, instance, Tapper(), 30)
    assert result.steps == result.max_steps == 10
    assert result.status is None and result.score == 0.0 and result.error is None


class Crashes(Agent):
    name = "crashes"

    def step(self, observation):
        raise KeyError("model returned garbage")


def test_agent_exception_is_an_agent_error_and_teardown_runs(env):
    from taskkit.device.state import state_digest

    before = state_digest(env.device)
    instance = suite.instantiate(registry.get("MarkorCreateNote"), 30, 0)
    result = run_episode(env, instance, Crashes(), 30)
    assert result.error_kind == "agent" and "model returned garbage" in result.error
    assert state_digest(env.device) == before


class BrokenSolve(TaskEval, register=False):
    app_names = ("markor",)

    def is_successful(self, env):
        return 0.0

    def solve(self, env):
        raise ValueError("reference solution bug")


def test_broken_reference_solution_is_a_task_error(env):
    result = run_episode(env, TaskInstance(BrokenSolve, 0, 1, {}), load("oracle"), 30)
    assert result.error_kind == "task" and result.error.startswith("solve failed: ")
    assert f"{__file__}:" in result.error and result.error.endswith("ValueError: reference solution bug")  # where it raised


def test_answer_action_reaches_the_env(env):
    class Answers(Agent):
        name = "answers"

        def step(self, observation):
            if observation.step == 0:
                return Action("answer", text="42")
            return Action("status", goal_status="complete")

    result = run_episode(env, suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0), Answers(), 30)
    assert result.answer == "42" and result.steps == 2


def test_agent_specs():
    assert load("oracle").name == "oracle" and load("noop").name == "noop"
    assert load("tests.test_runner:Tapper").name == "tapper"
    with pytest.raises(AgentLoadError, match="unknown agent 'gpt'"):
        load("gpt")
    with pytest.raises(AgentLoadError, match="has no Nope"):
        load("tests.test_runner:Nope")
    with pytest.raises(AgentLoadError, match="not a taskkit.agents.Agent subclass"):
        load("tests.test_runner:BrokenSolve")


def test_action_validation():
    with pytest.raises(ValueError, match="unknown action_type"):
        Action("fly")
    with pytest.raises(ValueError, match="goal_status"):
        Action("status", goal_status="done")
    assert Action.from_dict({"action_type": "scroll", "direction": "down"}).to_dict() == {
        "action_type": "scroll", "direction": "down"}


@pytest.mark.parametrize("returned, message", [
    ({"action_type": "click", "x": 1, "y": 2}, "returned dict"),
    (None, "returned NoneType"),
])
def test_an_agent_returning_something_else_is_an_agent_error(env, returned, message):
    class Sloppy(Agent):
        name = "sloppy"

        def step(self, observation):
            return returned

    result = run_episode(env, suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0), Sloppy(), 30)
    assert result.error_kind == "agent" and message in result.error


def test_an_agent_typing_a_nul_is_an_agent_error(env):
    class Nul(Agent):
        name = "nul"

        def step(self, observation):
            return Action("input_text", text="a\x00b")

    result = run_episode(env, suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0), Nul(), 30)
    assert result.error_kind == "agent" and "NUL" in result.error


def test_every_step_checking_ends_a_gui_episode_at_its_first_successful_step(env):
    """B-MoCA's rule: the check runs after every action and the episode ends when it passes; the
    final-check run of the same reference goes on to its own `status` step."""
    from taskkit.agents.gui_reference import GuiReferenceAgent

    loading.load_builtin()
    instance = suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0)
    final = run_episode(env, instance, GuiReferenceAgent(), 30)
    every = run_episode(env, instance, GuiReferenceAgent(), 30, options=EpisodeOptions(success_check="every_step"))
    assert final.score == every.score == 1.0 and final.status == "complete" and final.first_success_step is None
    assert every.first_success_step == every.steps < final.steps and every.status is None
    noop = run_episode(env, instance, load("noop"), 30, options=EpisodeOptions(success_check="every_step"))
    assert noop.score == 0.0 and noop.first_success_step is None


class Mumbles(Agent):
    """Replies with nothing usable twice (an `unknown` action, as the llm agents make of such a
    reply), then stops; keeps what it was told."""

    name = "mumbles"

    def reset(self, episode):
        super().reset(episode)
        self.told = []

    def step(self, observation):
        self.told.append(observation.last_action_error)
        if observation.step < 2:
            return Action("unknown", text="model reply had no valid action")
        return Action("status", goal_status="infeasible")


@pytest.mark.parametrize("mode, told", [("error", [None, "model reply had no valid action", "model reply had no valid action"]),
                                        ("noop_step", [None, None, None])])
def test_a_malformed_action_costs_a_step_and_tells_the_agent_only_in_error_mode(env, mode, told):
    agent = Mumbles()
    instance = suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0)
    result = run_episode(env, instance, agent, 30, options=EpisodeOptions(malformed_action=mode))
    assert result.steps == 3 and result.status == "infeasible" and result.error is None
    assert [t if t is None else ("model reply had no valid action" if "no valid action" in t else t) for t in agent.told] == told


def test_episode_options_refuse_an_unknown_mode():
    with pytest.raises(ValueError, match="malformed_action must be one of error, noop_step, got 'skip'"):
        EpisodeOptions(malformed_action="skip")


class Listens(Agent):
    """Keeps the low-level instruction of each step, then declares the task infeasible."""

    name = "listens"

    def reset(self, episode):
        super().reset(episode)
        self.heard = []

    def step(self, observation):
        self.heard.append(observation.instruction)
        if observation.step < 2:
            return Action("wait")
        return Action("status", goal_status="infeasible")


def test_low_level_instructions_come_from_the_gui_reference_played_on_the_same_instance(env):
    instance = suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0)
    agent = Listens()
    high = run_episode(env, instance, agent, 30)
    assert high.instructions is None and agent.heard == [None, None, None]
    low = run_episode(env, instance, agent, 30, options=EpisodeOptions(instructions="low"))
    assert low.instructions[0].lower() == "open the settings app" and len(low.instructions) >= 4
    assert agent.heard == low.instructions[:3] and low.error is None and low.score == 0.0  # the reference's own episode was undone
