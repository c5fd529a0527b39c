"""A user agent: `python -m taskkit.run --agent examples.my_agent:FindAndTap --output_dir out/`.

It opens the task's app, then reads the numbered UI elements, taps the first clickable one
whose label shares a word with the goal (by index: the runner taps the element's centre), types
into the first empty text field when the goal quotes a text, and declares the goal complete when
nothing is left to try. An LLM agent has the same shape: read the observation, return one
AndroidWorld action per step.
"""
from __future__ import annotations

import re

from taskkit.agents import Action, Agent, Episode, Observation


class FindAndTap(Agent):
    name = "find-and-tap"

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        self.words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", episode.goal)}
        self.tapped: set[str] = set()

    def step(self, observation: Observation) -> Action:
        if observation.step == 0 and self.episode.app_names:  # episodes start on the home screen
            return Action("open_app", app_name=self.episode.app_names[0])
        quoted = re.findall(r"'([^']+)'", observation.goal)
        for index, element in enumerate(observation.ui_elements):
            label = element.describe()
            if element.is_editable and not element.text and quoted:
                return Action("input_text", index=index, text=quoted[0])
            if element.is_clickable and label not in self.tapped and self.words & set(label.lower().split()):
                self.tapped.add(label)
                return Action("click", index=index)
        return Action("status", goal_status="complete")
