"""taskkit's tasks as an OpenEnv environment over HTTP (pip install 'taskkit[openenv]').

    python -m taskkit.openenv --port 8000 --tasks SystemWifiTurnOn     # the server (taskkit.openenv.server)
    TaskkitEnv(base_url="http://127.0.0.1:8000")                        # its client (taskkit.openenv.client)

Each session is a `taskkit/Task-v0` Gymnasium environment on a device of its own: the same
observations, rewards and ends (see taskkit.gym), as OpenEnv's typed messages
(taskkit.openenv.models). docs/training.md has the whole story. The names below are imported
on first use: importing the package alone does not import openenv-core.
"""
from __future__ import annotations

import sys

from taskkit.lazy import exports

INSTALL = "pip install 'taskkit[openenv]'"
#: Sessions (each a device) served at once by default, and at most.
DEFAULT_SESSIONS = 4
MAX_SESSIONS = 64


def skip_web_ui() -> None:
    """Let openenv-core go without gradio in this process, as it does where gradio is not
    installed: it imports gradio for its web UI (served with ENABLE_WEB_INTERFACE), which taskkit
    never serves, at about 6 s of CPU. Call it before openenv is imported, in a process that does
    not use gradio itself (the server's, a training script's)."""
    sys.modules.setdefault("gradio", None)  # type: ignore[arg-type]


__all__ = ["TaskkitEnv", "TaskkitAction", "TaskkitObservation", "TaskkitState"]
__getattr__ = exports(__name__, {"TaskkitEnv": "taskkit.openenv.client", "TaskkitAction": "taskkit.openenv.models",
                                 "TaskkitObservation": "taskkit.openenv.models",
                                 "TaskkitState": "taskkit.openenv.models"})
