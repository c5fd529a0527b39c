"""The simulated device's Telecom service: placing and ending an outgoing call.

Placing a call logs what Android 13's Telecom logs for an emergency number: packages/services/
Telecomm src/com/android/server/telecom/CreateConnectionProcessor.java,
`adjustAttemptsForEmergency`: `Log.i(this, "Emergency number detected")`, which
android.telecom.Log writes under the tag "Telecom" as "<class>: <message>" (`buildMessage`;
the session postfix ": <session id>" is left out). Ending it writes the call-log row Telecom's
CallLogManager adds when a call disconnects (CallLog.Calls: number, date = when it was placed,
duration in seconds, type 2 = OUTGOING_TYPE, new = 1) through the call-log provider
(`content://call_log/calls`, calllog.db of com.android.providers.contacts). The call in progress
is the service's, kept in device.json: force-stopping the dialer does not end it (its in-call
screen shows it again), `input keyevent ENDCALL` and the End call button do. When it ends,
InCallController (the in-call UI's binder) logs `Log.i(this, "onCallRemoved: %s", call)`
(src/com/android/server/telecom/InCallController.java): "InCallController: onCallRemoved: [Call
id=TC@N, state=DISCONNECTED]", Call.toString shortened to its id (CallsManager's "TC@" + a counter)
and state.
"""
from __future__ import annotations

from typing import Any

from taskkit.sim import providers
from taskkit.sim.logbuffer import SYSTEM_SERVER_PID, append_log
from taskkit.sim.state import SimState

TAG = "Telecom"
CALLS_URI = "content://call_log/calls"
OUTGOING_TYPE = 2  # CallLog.Calls.OUTGOING_TYPE
# 3GPP TS 22.101 §10.1.1: 112 and 911 are emergency numbers on every phone, with or without a SIM.
EMERGENCY_NUMBERS = ("112", "911")
_TELECOM_TID = 1571  # a fixed thread id of system_server's Telecom handler thread (taskkit's)
_CALL = "telecom_call"  # device.json: the call in progress
_COUNT = "telecom_call_count"  # device.json: calls placed since the image was made (their ids)


def dialable(number: str) -> str:
    """The number as Telecom keeps it: digits, `+`, `*`, `#` (separators stripped, as
    PhoneNumberUtils.stripSeparators does)."""
    return "".join(ch for ch in number if ch.isdigit() or ch in "+*#")


def is_emergency(number: str) -> bool:
    return dialable(number) in EMERGENCY_NUMBERS


def active_call(state: SimState) -> dict[str, Any] | None:
    """The call in progress ({"number", "placed"}) or None."""
    call = state.config.get(_CALL)
    return dict(call) if isinstance(call, dict) else None


def place_call(state: SimState, number: str) -> None:
    """An outgoing call to `number` is placed (a call in progress ends first): Telecom's emergency
    line when it is one, and the call held until `end_call`."""
    end_call(state)
    if is_emergency(number):
        append_log(state, "I", TAG, "CreateConnectionProcessor: Emergency number detected",
                   pid=SYSTEM_SERVER_PID, tid=_TELECOM_TID)
    count = int(state.config.get(_COUNT) or 0) + 1
    state.config[_COUNT] = count
    state.config[_CALL] = {"number": dialable(number), "placed": state.clock_epoch * 1000, "id": f"TC@{count}"}
    state.save()


def end_call(state: SimState) -> None:
    """The call in progress (if any) disconnects: its call-log row."""
    call = active_call(state)
    if call is None:
        return
    placed = int(call["placed"])
    providers.insert(state, CALLS_URI, {"number": call["number"], "date": placed, "type": OUTGOING_TYPE,
                                        "duration": max(0, (state.clock_epoch * 1000 - placed) // 1000),
                                        "new": 1, "countryiso": "US"}, providers.Caller("android"))
    state.config[_CALL] = None
    state.save()
    removed = f"[Call id={call.get('id', 'TC@1')}, state=DISCONNECTED]"
    append_log(state, "I", TAG, f"InCallController: onCallRemoved: {removed}", pid=SYSTEM_SERVER_PID, tid=_TELECOM_TID)
