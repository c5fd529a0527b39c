"""`--agent human`: a person at the terminal plays the agent (how a task author tries a task).

Each step prints the goal, the foreground app and the numbered elements, then reads one action:
AndroidWorld's JSON form (`{"action_type": "click", "index": 3}`) or a short form —
`click 3`, `long 3`, `type 2 hello world`, `scroll 4 down`, `swipe up`, `open Contacts`,
`back`, `home`, `enter`, `wait`, `answer 42`, `done`, `infeasible`. A line that is not an
action is explained and asked again.
"""
from __future__ import annotations

import json
import sys
from typing import Callable, TextIO

from taskkit.agents.base import Action, Agent, Observation

HELP = ("actions: click N | long N | type N TEXT | scroll N DIR | swipe DIR | open APP | back | home | enter "
        "| wait | answer TEXT | done | infeasible | a JSON action")
_KEYS = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter", "wait": "wait"}


def parse_command(line: str) -> Action:
    """One line typed by a person → an Action; ValueError saying what is wrong."""
    text = line.strip()
    if text.startswith("{"):
        return Action.from_dict(json.loads(text))
    word, _, rest = text.partition(" ")
    word = word.lower()
    if word in _KEYS and not rest:
        return Action(_KEYS[word])
    if word in ("done", "complete", "infeasible") and not rest:
        return Action("status", goal_status="infeasible" if word == "infeasible" else "complete")
    if word == "answer":
        return Action("answer", text=rest)
    if word == "open" and rest:
        return Action("open_app", app_name=rest.strip())
    if word == "swipe":
        return Action("swipe", direction=rest.strip().lower())
    if word in ("click", "tap", "long", "type", "scroll"):
        index_text, _, tail = rest.strip().partition(" ")
        if not index_text.isdigit():
            raise ValueError(f"{word} needs an element number, e.g. `{word} 3`")
        index = int(index_text)
        if word in ("click", "tap"):
            return Action("click", index=index)
        if word == "long":
            return Action("long_press", index=index)
        if word == "type":
            return Action("input_text", index=index, text=tail)
        return Action("scroll", index=index, direction=tail.strip().lower())
    raise ValueError(f"not an action: {text!r}")


class HumanAgent(Agent):
    """Reads each action from a person (stdin) after showing the screen (stdout)."""

    name = "human"

    def __init__(self, read: Callable[[], str] | None = None, out: TextIO | None = None):
        self._read = read or (lambda: input("action> "))
        self._out = out or sys.stdout

    def step(self, observation: Observation) -> Action:
        show = self._out.write
        show(f"\nstep {observation.step + 1}/{observation.max_steps} · goal: {observation.goal}\n")
        if observation.instruction:
            show(f"this step: {observation.instruction}\n")
        show(f"foreground: {observation.foreground}\n")
        if observation.screen_error:
            show(f"(the screen could not be read: {observation.screen_error})\n")
        if observation.last_action_error:
            show(f"last action failed: {observation.last_action_error}\n")
        show(observation.describe_elements() + "\n" + HELP + "\n")
        while True:
            try:
                line = self._read()
            except EOFError:
                return Action("status", goal_status="complete")
            try:
                return parse_command(line)
            except (ValueError, TypeError) as error:
                show(f"{error}\n")
