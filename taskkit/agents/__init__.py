"""Agents: the interface, the built-in agents, and loading one by name (`--agent NAME[:ARG]`)."""
from __future__ import annotations

import importlib
from typing import Any

from taskkit.agents.base import ACTION_TYPES, Action, Agent, Episode, Observation
from taskkit.agents.builtin import NoopAgent, OracleAgent, RandomAgent, ReplayAgent
from taskkit.agents.human import HumanAgent

BUILTIN = ("oracle", "noop", "random", "replay:PATH", "human", "llm")


class AgentLoadError(ValueError):
    """--agent named nothing loadable; the message says what to give instead."""


def load(spec: str, **options: Any) -> Agent:
    """An agent from `--agent`: a built-in name (`oracle`, `noop`, `random`, `replay:PATH`,
    `human`, `llm` — `options` carry the llm's `model`, `base_url`, `api_key_env`) or
    `package.module:Class` (a user's Agent subclass, built with no arguments)."""
    name, _, argument = spec.partition(":")
    if spec in ("oracle", "noop", "random", "human"):
        return {"oracle": OracleAgent, "noop": NoopAgent, "random": RandomAgent, "human": HumanAgent}[spec]()
    if name == "replay":
        if not argument:
            raise AgentLoadError("--agent replay needs a path: replay:TRAJECTORY.jsonl or replay:OUTPUT_DIR")
        try:
            return ReplayAgent(argument)
        except FileNotFoundError as error:
            raise AgentLoadError(f"--agent {spec}: {error}") from None
    if name == "llm":
        return _llm(spec, argument, options)
    if ":" not in spec:
        raise AgentLoadError(f"unknown agent {spec!r}: use {', '.join(BUILTIN)} or package.module:Class")
    module_name, _, class_name = spec.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except ModuleNotFoundError as error:
        raise AgentLoadError(f"--agent {spec}: {error}") from None
    except AttributeError:
        raise AgentLoadError(f"--agent {spec}: module {module_name} has no {class_name}") from None
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise AgentLoadError(f"--agent {spec}: {class_name} is not a taskkit.agents.Agent subclass")
    return cls()


def _llm(spec: str, model_argument: str, options: dict[str, Any]) -> Agent:
    from taskkit.agents.llm import LlmAgent, LlmUnavailable

    model = model_argument or options.get("model")
    if not model:
        raise AgentLoadError("--agent llm needs a model: --llm_model NAME (or --agent llm:NAME)")
    try:
        return LlmAgent(model, base_url=options.get("base_url"), api_key_env=options.get("api_key_env") or "OPENAI_API_KEY")
    except LlmUnavailable as error:
        raise AgentLoadError(str(error)) from None


__all__ = ["ACTION_TYPES", "Action", "Agent", "AgentLoadError", "Episode", "HumanAgent", "NoopAgent", "Observation",
           "OracleAgent", "RandomAgent", "ReplayAgent", "load"]
