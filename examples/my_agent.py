"""A user agent: `python -m taskkit.run --agent examples.my_agent:OpenAppAgent`.

It opens the task's first app, then declares the goal complete. An LLM agent has the same
shape: read the observation, return one AndroidWorld action per step.
"""
from __future__ import annotations

from taskkit.agents import Action, Agent, Observation


class OpenAppAgent(Agent):
    name = "open-app"

    def step(self, observation: Observation) -> Action:
        if observation.step == 0 and self.episode.app_names:
            return Action("open_app", app_name=self.episode.app_names[0])
        return Action("status", goal_status="complete")
