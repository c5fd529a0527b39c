"""Phone (Google's Dialer, `com.google.android.dialer`): the dial pad, calls and the call log.

Package and launcher activity (`.extensions.GoogleDialtactsActivity`) as the Pixel images' dialer
declares them; calls run in `com.android.incallui.InCallActivity`. B-MoCA's detectors name
`com.android.dialer:id/...`, AOSP Dialer's package on its AOSP emulator image; taskkit models the
Google Dialer of AndroidWorld's Pixel image (the package AndroidWorld's tasks open), whose views
carry the same AOSP ids under its own package, so the tasks match ids by name
(`contactgrid_contact_name`, `incall_end_call`). A call placed (the call button, or `am start -a
android.intent.action.CALL -d tel:N`) shows the in-call screen; ending it writes the call-log row
(taskkit/sim/telecom.py). `reset` ends a call, empties the call log and clears the app's data.
"""
from __future__ import annotations

from taskkit.apps.base import App
from taskkit.device.base import Device
from taskkit.sim.telecom import CALLS_URI, EMERGENCY_NUMBERS, OUTGOING_TYPE, dialable, is_emergency

__all__ = ["APP", "CALLS_URI", "CALLLOG_DB", "DIALPAD", "EMERGENCY_NUMBERS", "KEY_IDS", "OUTGOING_TYPE", "PACKAGE", "dialable",
           "format_number", "is_emergency", "reset"]

PACKAGE = "com.google.android.dialer"
CALLLOG_DB = "/data/data/com.android.providers.contacts/databases/calllog.db"
# The dial pad's keys (id, character, letters): AOSP DialpadView's BUTTON_IDS and
# primaryLettersMapping, in the pad's order.
DIALPAD = (("one", "1", ""), ("two", "2", "ABC"), ("three", "3", "DEF"), ("four", "4", "GHI"), ("five", "5", "JKL"),
           ("six", "6", "MNO"), ("seven", "7", "PQRS"), ("eight", "8", "TUV"), ("nine", "9", "WXYZ"),
           ("star", "*", ""), ("zero", "0", "+"), ("pound", "#", ""))
KEY_IDS = {char: rid for rid, char, _ in DIALPAD}  # the key that types each character


def format_number(number: str) -> str:
    """The number as the dial pad's field and the in-call screen show it in the US: 7 digits as
    "223-4458", 8 to 10 as "(301) 713-0622" (partly filled: "(200) 002-02"), anything else —
    short codes, a leading 1, `*`, `#`, `+` — as typed (libphonenumber's AsYouTypeFormatter
    patterns for the US, as B-MoCA's detectors record them)."""
    digits = dialable(number)
    if not digits.isdigit() or digits.startswith("1") or not 7 <= len(digits) <= 10:
        return digits
    if len(digits) == 7:
        return f"{digits[:3]}-{digits[3:]}"
    return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


def reset(device: Device) -> None:
    """End a call in progress (KEYCODE_ENDCALL, as AndroidWorld's end_call_if_active), empty the
    call log and clear the app's data."""
    device.check("input keyevent KEYCODE_ENDCALL")
    device.content.delete(CALLS_URI)
    device.packages.clear(PACKAGE)


APP = App(name="dialer", package=PACKAGE, aliases=("phone",), data_paths=(CALLLOG_DB,), reset=reset)
