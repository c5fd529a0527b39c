"""The random policy's steps as AndroidWorld JSON actions (plain dicts), with the mix of a real
agent's steps that issue #37 measured throughput on.

A leaf module: it imports nothing of taskkit, so benchmarks/random_policy.py can drive another
checkout's environment (an older commit, to compare with) with the very same policy.
"""
from __future__ import annotations

import random
from typing import Any, Sequence

#: The kinds of step and their weights in percent (back and home share their 13 % equally).
POLICY_MIX = (("click", 55), ("input_text", 10), ("scroll", 10), ("back_or_home", 13), ("open_app", 7),
              ("status", 5))
#: What a random step types into a field.
WORDS = ("hello", "42", "Meeting", "note", "2023-10-15", "test")


def mixed_step(rng: random.Random, count: int, editable: Sequence[int], scrollable: Sequence[int],
               app_names: Sequence[str]) -> dict[str, Any]:
    """One step on a screen of `count` elements (`editable` and `scrollable`: the indices of its
    fields and scrollable views): a kind drawn by POLICY_MIX, then its target.

    A kind the screen cannot take falls back: typing with no field clicks, scrolling with no
    scrollable view scrolls the screen, clicking with no element (or opening an app when the task
    names none) goes back or home.
    """
    kinds, weights = zip(*POLICY_MIX)
    kind = rng.choices(kinds, weights)[0]
    if kind == "input_text" and editable:
        return {"action_type": "input_text", "index": rng.choice(editable), "text": rng.choice(WORDS)}
    if kind == "scroll":
        index = rng.choice(scrollable) if scrollable else None
        step = {"action_type": "scroll", "direction": rng.choice(("up", "down"))}
        return step if index is None else {**step, "index": index}
    if kind == "open_app" and app_names:
        return {"action_type": "open_app", "app_name": rng.choice(app_names)}
    if kind == "status":
        return {"action_type": "status", "goal_status": "complete"}
    if kind in ("click", "input_text") and count:
        return {"action_type": "click", "index": rng.randrange(count)}
    return {"action_type": rng.choice(("navigate_back", "navigate_home"))}
