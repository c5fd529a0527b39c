"""`--agent llm`: an agent in the style of AndroidWorld's T3A (`--llm_mode t3a`, text) or M3A
(`--llm_mode m3a`, multimodal), over any OpenAI-compatible chat-completions endpoint.

M3A's view adds two images to each step's message: the screenshot, and the same screenshot with
set-of-marks (each element's bounds outlined and numbered with the index actions name,
taskkit.agents.set_of_marks); the element list stays, as M3A keeps it.

Each step the model gets the goal, the numbered UI elements and the history of its earlier
actions (with their errors), and answers with one AndroidWorld JSON action — the last JSON
object in its reply is taken, so it may reason first. A reply with no valid action is the
agent's mistake: it becomes `last_action_error` for the next step (`wait` is performed), and the
episode goes on. Timeouts and retries are the `openai` client's own (`timeout`, `max_retries`); an
endpoint that still does not answer (no connection, a timeout, HTTP 5xx) raises `AgentUnavailable`,
which ends the run as an infrastructure failure (exit 3, resumable) instead of failing every episode;
per step the agent reports prompt and completion tokens, retries and the raw reply, which the
trajectory records. Install with `pip install 'taskkit[llm]'`.
"""
from __future__ import annotations

import base64
import json
import os
import re
from typing import Any

from taskkit.agents import set_of_marks
from taskkit.agents.base import ACTION_TYPES, Action, Agent, AgentUnavailable, Episode, Observation
from taskkit.errors import TaskkitError

SYSTEM_PROMPT = """You operate an Android phone to achieve a goal. Each turn you see the goal, \
the numbered UI elements of the current screen and your earlier actions. Reply with exactly one \
action as a JSON object, for example {"action_type": "click", "index": 3}.
Actions: click/long_press {"index": N}; input_text {"index": N, "text": "...", "clear_text": true to replace what the field holds}; \
scroll {"index": N, "direction": "up|down|left|right"}; swipe {"direction": ...}; \
navigate_back; navigate_home; keyboard_enter; open_app {"app_name": "..."}; wait; \
answer {"text": "..."} to answer a question; status {"goal_status": "complete"} when the goal is \
achieved or {"goal_status": "infeasible"} when it cannot be."""
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")


class LlmUnavailable(TaskkitError, RuntimeError):
    """The optional `openai` client is not installed."""


def parse_reply(text: str) -> Action:
    """The last JSON object of a model reply as an Action (else its last B-MoCA text action);
    ValueError saying what is wrong."""
    candidates = _JSON_OBJECT.findall(text or "")
    if not candidates:  # B-MoCA's text actions (tap(3), swipe(up), press(HOME)) serve too
        try:
            return Action.from_text(text)
        except ValueError:
            raise ValueError("the reply holds no JSON action") from None
    try:
        data = json.loads(candidates[-1])
    except json.JSONDecodeError as error:
        raise ValueError(f"the reply's action is not valid JSON: {error.msg}") from None
    if data.get("action_type") not in ACTION_TYPES:
        raise ValueError(f"unknown action_type {data.get('action_type')!r}")
    return Action.from_dict(data)


class LlmAgent(Agent):
    """One chat completion per step; see the module doc."""

    name = "llm"

    def __init__(self, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 timeout: float = 60.0, max_retries: int = 2, temperature: float = 0.0):
        try:
            import openai
        except ImportError:
            raise LlmUnavailable("--agent llm needs the OpenAI client: pip install 'taskkit[llm]'") from None
        api_key = os.environ.get(api_key_env) or ("unused" if base_url else None)
        if not api_key:
            raise LlmUnavailable(f"--agent llm: set {api_key_env} to the API key (or --llm_base_url for a local server)")
        self.model, self.temperature = model, temperature
        self.client = openai.OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries)
        # No connection, a timeout, or HTTP 5xx still after the retries: an infrastructure failure.
        self._unreachable = (openai.APIConnectionError, openai.InternalServerError)
        self._usage: dict[str, Any] = {}

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        self.history: list[str] = []

    def messages(self, observation: Observation) -> list[dict[str, Any]]:
        """The chat messages for this step: the system prompt, then the goal, screen and history."""
        parts = [f"Goal: {observation.goal}", f"Step {observation.step + 1} of {observation.max_steps}.",
                 f"Foreground app: {observation.foreground or 'unknown'}"]
        if observation.instruction:
            parts.insert(1, f"Instruction for this step: {observation.instruction}")
        if observation.screen_error:
            parts.append(f"(The screen could not be read: {observation.screen_error})")
        parts.append("UI elements:\n" + (observation.describe_elements() or "(none)"))
        if self.history:
            parts.append("Your earlier actions:\n" + "\n".join(self.history))
        if observation.last_action_error:
            parts.append(f"Your last action failed: {observation.last_action_error}")
        parts.append("Reply with one JSON action.")
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": self.content("\n\n".join(parts), observation)}]

    def content(self, text: str, observation: Observation) -> Any:
        """The user message's content: the text alone (T3A's view)."""
        return text

    def step(self, observation: Observation) -> Action:
        try:
            raw = self.client.chat.completions.with_raw_response.create(
                model=self.model, messages=self.messages(observation), temperature=self.temperature)
        except self._unreachable as error:  # the client has retried already: the endpoint is down
            raise AgentUnavailable(f"--agent llm: the endpoint {self.client.base_url} did not answer after "
                                   f"{self.client.max_retries} retries ({type(error).__name__}: {error})") from None
        completion = raw.parse()
        reply = completion.choices[0].message.content or ""
        usage = completion.usage
        self._usage = {"prompt_tokens": getattr(usage, "prompt_tokens", 0) or 0,
                       "completion_tokens": getattr(usage, "completion_tokens", 0) or 0,
                       "retries": int(getattr(raw, "retries_taken", 0) or 0), "reply": reply[:2000]}
        try:
            action = parse_reply(reply)
        except (ValueError, TypeError) as error:
            self._usage["parse_error"] = str(error)
            self.history.append(f"{observation.step + 1}. (no valid action: {error})")
            return Action("unknown", text=f"model reply had no valid action: {error}")
        self.history.append(f"{observation.step + 1}. {json.dumps(action.to_dict())}")
        return action

    def usage(self) -> dict[str, Any]:
        return dict(self._usage)


M3A_NOTE = ("Two screenshots follow: the screen, then the same screen with each UI element outlined and "
            "labelled with its index.")


def _image_part(png: bytes) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode("ascii")}}


class M3aAgent(LlmAgent):
    """The M3A view (see the module doc): the text, the screenshot and its set-of-marks copy."""

    name = "llm"
    wants_screenshot = True

    def content(self, text: str, observation: Observation) -> Any:
        if observation.screenshot is None:  # the screen could not be captured: the text view
            return text
        marked = set_of_marks.annotate(observation.screenshot, observation.ui_elements)
        return [{"type": "text", "text": f"{text}\n\n{M3A_NOTE}"}, _image_part(observation.screenshot),
                _image_part(marked)]
