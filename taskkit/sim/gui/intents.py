"""Intents for the screens: what `am start` delivered to an app, kept for the app's GUI.

The activity manager (taskkit/sim/commands/activity.py) records which activity is in front,
not the intent that started it; an app's screens need the intent's data and extras (an
`smsto:` number, a new contact's name). So the GUI wraps `am`: after an `am start` (or
`start-activity`, also reached as `cmd activity start`) that started an activity on a device
with this GUI, it stores the intent against the app's task in gui.json, where the app's window
stack picks it up the next time it is read. A plain relaunch that only brought a task to the
front ("Activity not started", no data, no extras) delivers nothing; an intent with data or
extras does (Android compares whole intents, the simulated activity manager only components).
"""
from __future__ import annotations

from taskkit.sim import display
from taskkit.sim.gui import deskclock
from taskkit.sim.commands import Invocation, command
from taskkit.sim.commands.activity import CommandError, am as activity_manager, parse_intent, resolve_activity
from taskkit.sim.gui.session import Session
from taskkit.device.catalog import short_component
from taskkit.sim.state import SimState

_STARTS = (["start"], ["start-activity"])


def record(state: SimState, package: str, intent_fields: dict) -> None:
    """Deliver an intent to `package`'s task: store it, and let the app's screens take it now,
    so the activity in front when `am start` returns is the one the intent opened."""
    ui = Session(state)
    task = next((t for t in state.config.get("tasks", []) if t.get("package") == package), None)
    if task is None:
        return
    seq = int(ui.store.data.get("intent_seq", 0)) + 1
    ui.store.data["intent_seq"] = seq
    ui.store.data["intents"][package] = {"seq": seq, "task": int(task["id"]), "component": task["component"],
                                         **intent_fields}
    ui.frames(package)
    ui.save()


@command("am")
def am(inv: Invocation) -> int:
    """The activity manager's `am`, then the intent of a started activity kept for its screens."""
    code = activity_manager(inv)
    if code != 0 or inv.args[:1] not in _STARTS:
        return code
    output = bytes(inv.stdout) + bytes(inv.stderr)
    try:
        intent, _ = parse_intent(inv.args[1:])
        package, cls = resolve_activity(inv.state, intent)
    except (CommandError, ValueError):
        return code
    if package is None or cls is None or b"Error" in output:
        return code
    if package.name == deskclock.alarms.PACKAGE and intent.action == deskclock.SET_ALARM:
        deskclock.handle_set_alarm(inv.state, intent.extras)  # the app's own handling, GUI or not
    if display.for_state(inv.state) is None:
        return code
    if b"Activity not started" in output and intent.data is None and not intent.extras:
        return code  # the same launch again: the task only came to the front
    fields = {"action": intent.action, "data": intent.data, "type": intent.mime_type,
              "extras": dict(intent.extras), "started": short_component(package.name, cls)}
    record(inv.state, package.name, fields)
    return code
