"""The Phone app through the simulated GUI: the dial pad (AOSP Dialer's ids), the number shown as
typed and formatted, the call button, the in-call screen (InCallUI's ids), End call back to the
dial pad with a call-log row, the CALL intent, Telecom's emergency line, KEYCODE_ENDCALL, and
the call surviving the app's force-stop."""
from __future__ import annotations

import pytest

from taskkit.apps import dialer
from tests.sim.gui.helpers import find, tap, texts

ID = "com.google.android.dialer:id/"
INCALL = "com.google.android.dialer/com.android.incallui.InCallActivity"


def _rid(name: str):
    return lambda e: e.resource_name == ID + name


def _dial(device, number: str) -> None:
    dialer.APP.launch(device)
    tap(device, "key pad")
    for ch in number:
        tap(device, _rid(dialer.KEY_IDS[ch]))


def _calls(device) -> list[dict]:
    return device.content.query(dialer.CALLS_URI, projection=["number", "type", "duration"])


def _telecom_lines(device) -> list[str]:
    return [line for line in device.shell("logcat -d -v threadtime -s Telecom:I").stdout.splitlines()
            if " Telecom " in line or "Telecom:" in line]


def test_the_dial_pad_and_a_call_through_the_screens(device) -> None:
    _dial(device, "2234458")
    assert find(device, _rid("digits")).text == "223-4458"
    assert find(device, _rid("two")).content_description == "2,ABC"
    assert find(device, _rid("deleteButton")).content_description == "backspace"
    tap(device, _rid("deleteButton"))
    tap(device, _rid("nine"))
    assert find(device, _rid("digits")).text == "223-4459"
    tap(device, "dial")
    assert device.activity.foreground() == INCALL
    assert find(device, _rid("contactgrid_contact_name")).text == "223-4459"
    assert find(device, _rid("incall_end_call")).is_enabled and _calls(device) == []
    assert _telecom_lines(device) == []  # not an emergency number
    tap(device, "End call")
    assert device.activity.foreground().endswith("GoogleDialtactsActivity")
    assert not find(device, _rid("digits")).text  # the pad was cleared when the call was placed
    assert _calls(device) == [{"number": "2234459", "type": "2", "duration": "0"}]
    device.check("input keyevent KEYCODE_BACK")
    assert "223-4459" in texts(device) and "Outgoing call" in texts(device)  # Recents


@pytest.mark.parametrize("number, shown", [
    ("11489", "11489"), ("311311", "311311"), ("1234578", "1234578"), ("20000202", "(200) 002-02"),
    ("264451193", "(264) 451-193"), ("3017130622", "(301) 713-0622"), ("*#06#", "*#06#"),
])
def test_numbers_are_formatted_as_b_moca_records_them(number, shown) -> None:
    assert dialer.format_number(number) == shown


def test_the_call_intent_and_the_emergency_line(device) -> None:
    device.check("am start -a android.intent.action.CALL -d tel:911")
    lines = _telecom_lines(device)
    assert len(lines) == 1 and lines[0].endswith(" I Telecom : CreateConnectionProcessor: Emergency number detected")
    assert device.activity.foreground() == INCALL
    assert find(device, _rid("contactgrid_contact_name")).text == "911"
    device.check("input keyevent KEYCODE_ENDCALL")
    assert "Call ended" in texts(device) and not [e for e in device.ui.screen().elements if _rid("incall_end_call")(e)]
    assert _calls(device) == [{"number": "911", "type": "2", "duration": "0"}]
    device.check("input keyevent KEYCODE_ENDCALL")  # no call: nothing more
    assert len(_calls(device)) == 1


def test_the_call_outlives_a_force_stop_of_the_dialer(device) -> None:
    device.check("am start -a android.intent.action.CALL -d tel:112")
    device.activity.force_stop(dialer.PACKAGE)
    device.check(f"am start -n {INCALL}")
    assert find(device, _rid("contactgrid_contact_name")).text == "112"
    dialer.reset(device)  # ends the call, then empties the log
    assert _calls(device) == []
