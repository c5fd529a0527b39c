"""B-MoCA's step limits per published instance (issue #36 item 6): a task class that stands for
several published instructions gives each instance its own published limit, decided by its
params through taskkit/bmoca_tasks.json ("call 2000-0202": 14, "call 123-4578": 13)."""
from __future__ import annotations

from typing import Any

from taskkit import loading, registry, seed_coverage
from taskkit.agents.base import Action, Agent, Episode, Observation
from taskkit.env import Env
from taskkit.rng import TaskRng
from taskkit.runner import run_episode
from taskkit.suite import TaskInstance


def setup_module() -> None:
    loading.load_builtin()


def _published(entry: seed_coverage.Entry) -> Any:
    """The published instance: seed 0's draw with the params the instruction names."""
    cls = registry.get(entry.task)
    return cls({**cls.from_seed(0).params, **entry.params})


def test_every_covered_instance_gets_the_papers_step_limit() -> None:
    covered = [e for e in seed_coverage.bmoca() if e.task is not None]
    wrong = [(e.instruction, e.step_limit, _published(e).max_steps) for e in covered
             if _published(e).max_steps != e.step_limit]
    assert not wrong
    several = {e.task for e in covered if len({o.step_limit for o in covered if o.task == e.task}) > 1}
    assert {"PhoneCallLocalNumber", "PhoneCallNamedNumber", "ClockCreateTwoAlarms"} <= several


def test_a_draw_that_is_no_published_instance_keeps_the_classs_limit() -> None:
    cls = registry.get("PhoneCallLocalNumber")
    assert cls({"number": "555-0134"}).max_steps == 13  # its docstring's instance, "call 223-4458"


class Home(Agent):
    """Presses HOME until the budget is spent; records the budget it was told."""

    name = "home"
    wants_ui_elements = False

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        self.told = episode.max_steps

    def step(self, observation: Observation) -> Action:
        return Action("navigate_home")


def test_the_episode_of_call_2000_0202_has_14_steps(sim_device) -> None:
    entry = next(e for e in seed_coverage.bmoca() if e.instruction == "call 2000-0202")
    base = registry.get(entry.task)

    class Published(base, register=False):  # the published instance as the suite would draw it
        name = base.name

        @classmethod
        def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
            return {**base.generate_random_params(rng), **entry.params}

    agent = Home()
    result = run_episode(Env(sim_device), TaskInstance(Published, 0, 0), agent, 30)
    assert (result.error, result.params) == (None, {"number": "2000-0202"})
    assert result.max_steps == result.steps == agent.told == 14 == entry.step_limit
