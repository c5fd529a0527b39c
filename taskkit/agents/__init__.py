"""Agents: the interface, the built-in agents, and loading a user's agent by name."""
from __future__ import annotations

import importlib

from taskkit.agents.base import ACTION_TYPES, Action, Agent, Episode, Observation
from taskkit.agents.builtin import NoopAgent, OracleAgent

BUILTIN = {"oracle": OracleAgent, "noop": NoopAgent}


class AgentLoadError(ValueError):
    """--agent named nothing loadable; the message says what to give instead."""


def load(spec: str) -> Agent:
    """`oracle`, `noop`, or `package.module:Class` (a user's Agent subclass, built with no args)."""
    if spec in BUILTIN:
        return BUILTIN[spec]()
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


__all__ = ["ACTION_TYPES", "Action", "Agent", "AgentLoadError", "Episode", "NoopAgent", "Observation", "OracleAgent", "load"]
