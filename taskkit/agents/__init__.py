"""Agents: the interface, the built-in agents, and loading one by name (`--agent NAME[:ARG]`)."""
from __future__ import annotations

from typing import Any

from taskkit import loading
from taskkit.agents.base import (ACTION_TYPES, Action, Agent, AgentUnavailable, Episode, Observation, ReplayMismatch,
                                 StopRun)
from taskkit.agents.builtin import NoopAgent, OracleAgent, RandomAgent, RandomPolicyAgent, ReplayAgent
from taskkit.agents.gui_reference import GuiReferenceAgent, NoGuiReference
from taskkit.agents.human import HumanAgent
from taskkit.errors import TaskkitError
from taskkit.registry import TaskLoadError

BUILTIN = ("oracle", "noop", "random", "random_policy", "gui_reference", "replay:PATH", "human", "llm")


class AgentLoadError(TaskkitError, ValueError):
    """--agent named nothing loadable; the message says what to give instead."""


def load(spec: str, **options: Any) -> Agent:
    """An agent from `--agent`: a built-in name (`oracle`, `noop`, `random`, `random_policy`, `gui_reference`, `replay:PATH`,
    `human`, `llm` — `options` carry the llm's `model`, `base_url`, `api_key_env`, `mode`, and replay's
    `strict_replay`), `package.module:Class` or `path/to/file.py:Class` (a user's Agent
    subclass, built with no arguments)."""
    name, _, argument = spec.partition(":")
    simple = {"oracle": OracleAgent, "noop": NoopAgent, "random": RandomAgent, "random_policy": RandomPolicyAgent,
              "gui_reference": GuiReferenceAgent, "human": HumanAgent}
    if spec in simple:
        return simple[spec]()
    if name == "replay":
        if not argument:
            raise AgentLoadError("--agent replay needs a path: replay:TRAJECTORY.jsonl or replay:OUTPUT_DIR")
        try:
            return ReplayAgent(argument, strict=bool(options.get("strict_replay")))
        except FileNotFoundError as error:
            raise AgentLoadError(f"--agent {spec}: {error}") from None
    if name == "llm":
        return _llm(spec, argument, options)
    if ":" not in spec:
        raise AgentLoadError(f"unknown agent {spec!r}: use {', '.join(BUILTIN)}, package.module:Class "
                             "or path/to/file.py:Class")
    return _user_agent(spec)


def _user_agent(spec: str) -> Agent:
    """`package.module:Class` or `path/to/file.py:Class` (loaded as --task_module loads a file:
    it may import modules beside it), built with no arguments."""
    module_name, _, class_name = spec.rpartition(":")
    try:
        cls = getattr(loading.load_module(module_name, flag="--agent"), class_name)
    except TaskLoadError as error:
        raise AgentLoadError(str(error)) from None
    except AttributeError:
        raise AgentLoadError(f"--agent {spec}: module {module_name} has no {class_name}") from None
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise AgentLoadError(f"--agent {spec}: {class_name} is not a taskkit.agents.Agent subclass")
    return cls()


def _llm(spec: str, model_argument: str, options: dict[str, Any]) -> Agent:
    from taskkit.agents.llm import LlmAgent, LlmUnavailable, M3aAgent

    model = model_argument or options.get("model")
    if not model:
        raise AgentLoadError("--agent llm needs a model: --llm_model NAME (or --agent llm:NAME)")
    modes = {"t3a": LlmAgent, "m3a": M3aAgent}
    mode = options.get("mode") or "t3a"
    if mode not in modes:
        raise AgentLoadError(f"--llm_mode {mode}: use t3a (the element list) or m3a (screenshots with set-of-marks too)")
    try:
        return modes[mode](model, base_url=options.get("base_url"), api_key_env=options.get("api_key_env") or "OPENAI_API_KEY")
    except LlmUnavailable as error:
        raise AgentLoadError(str(error)) from None


__all__ = ["ACTION_TYPES", "Action", "Agent", "AgentLoadError", "AgentUnavailable", "Episode", "GuiReferenceAgent",
           "HumanAgent", "NoGuiReference", "NoopAgent", "Observation", "OracleAgent", "RandomAgent", "ReplayAgent", "ReplayMismatch", "StopRun", "load"]
