"""Simple Calendar Pro's event screen rows (taskkit/sim/gui/apps/calendar_rows.py): All-day hides the
times and saves a day-long event, the reminder picker offers the app's choices and writes
`reminder_N_minutes`, the event types dialog lists the stored types and writes `event_type`, and an
edited event shows what it has stored."""
from __future__ import annotations

import pytest

from taskkit.apps import calendar
from taskkit.connect import sim_device
from taskkit.sim.gui import audit
from taskkit.sim.gui.apps.calendar import open_event
from taskkit.sim.gui.apps.calendar_rows import reminder_text
from taskkit.sim.gui.screen import build
from taskkit.sim.gui.session import Session
from tests.sim.gui.helpers import find, labels, tap

NEW = "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/event --es title {}"
CHOICES = ["No reminder", "At start", "1 minute before", "5 minutes before", "10 minutes before", "30 minutes before",
           "1 hour before", "Custom"]


@pytest.fixture(scope="module")
def device():
    phone = sim_device()
    yield phone
    phone.close()


def _new_event(device, title: str) -> None:
    device.check("am force-stop " + calendar.PACKAGE)
    device.check(NEW.format(title))


def _row(device, title: str) -> dict:
    [row] = [r for r in device.sqlite.query(calendar.DB_PATH, f"SELECT * FROM events WHERE title = '{title}'")]
    return row


def _ids(device) -> list[str]:
    return [(e.resource_name or "").rpartition(":id/")[2] for e in device.ui.screen().elements]


def _checked(device) -> list[str]:
    return [e.text for e in device.ui.screen().elements if e.is_checked]


def test_a_new_event_shows_the_rows_with_the_apps_defaults_and_draws_them(device) -> None:
    _new_event(device, "Standup")
    shown = labels(device)
    assert shown.index("All-day") < shown.index("10 minutes before") < shown.index("Add another reminder") \
        < shown.index("No repetition") < shown.index("Regular event") < shown.index("Event color")
    assert not find(device, "event_all_day").is_checked
    assert audit.audit(build(Session(device.state), drawn=True), 1080, 2400) == []


def test_all_day_hides_the_times_and_saves_the_whole_day(device) -> None:
    _new_event(device, "Offsite")
    assert "event_start_time" in _ids(device)
    tap(device, "All-day")
    assert find(device, "event_all_day").is_checked and "event_start_time" not in _ids(device)
    assert "event_end_time" not in _ids(device) and "event_start_date" in _ids(device)
    tap(device, "save")
    row = _row(device, "Offsite")
    assert row["flags"] & 1 and row["start_ts"] % 86400 == 0 and row["end_ts"] - row["start_ts"] == 43200


def test_the_reminder_picker_offers_the_apps_choices_and_writes_the_pick(device) -> None:
    _new_event(device, "Review")
    tap(device, "event_reminder_1")
    assert [e.text for e in device.ui.screen().elements if e.text] == CHOICES and _checked(device) == ["10 minutes before"]
    tap(device, "30 minutes before")
    assert find(device, "event_reminder_1").text == "30 minutes before"
    tap(device, "event_reminder_2")  # "Add another reminder"
    tap(device, "1 hour before")
    assert find(device, "event_reminder_3").text == "Add another reminder"
    tap(device, "save")
    row = _row(device, "Review")
    assert (row["reminder_1_minutes"], row["reminder_2_minutes"], row["reminder_3_minutes"]) == (30, 60, -1)


def test_no_reminder_drops_the_next_row_and_an_all_day_event_may_remind_during_the_day(device) -> None:
    _new_event(device, "Quiet")
    tap(device, "event_reminder_1")
    tap(device, "No reminder")
    assert find(device, "event_reminder_1").text == "No reminder" and "event_reminder_2" not in _ids(device)
    tap(device, "All-day")
    tap(device, "event_reminder_1")
    assert [e.text for e in device.ui.screen().elements if e.text][-1] == "During the day at hh:mm"
    assert _checked(device) == ["No reminder"]


def test_the_event_types_dialog_lists_the_stored_types_and_writes_the_pick(device) -> None:
    device.sqlite.execute(calendar.DB_PATH, "INSERT INTO event_types (title, color, caldav_calendar_id, caldav_display_name, "
                                            "caldav_email, type) VALUES ('Work', -16776961, 0, '', '', 0)")
    _new_event(device, "Planning")
    tap(device, "event_type")  # the title inside the holder
    radios = [e.text for e in device.ui.screen().elements if e.class_name == "android.widget.RadioButton"]
    assert radios == ["Regular event", "Work", "Add a new type"] and _checked(device) == ["Regular event"]
    assert "Manage event types" in labels(device)
    tap(device, "Work")
    assert find(device, "event_type").text == "Work"
    tap(device, "save")
    work = device.sqlite.query(calendar.DB_PATH, "SELECT id FROM event_types WHERE title = 'Work'")[0]["id"]
    assert _row(device, "Planning")["event_type"] == work


def test_an_edited_event_shows_what_it_stored(device) -> None:
    _new_event(device, "Stored")
    tap(device, "All-day")
    tap(device, "event_reminder_1")
    tap(device, "5 minutes before")
    tap(device, "save")
    event_id = _row(device, "Stored")["id"]
    device.check("am force-stop " + calendar.PACKAGE)
    session = Session(device.state)
    session.launch(calendar.PACKAGE)
    open_event(int(event_id))(session)
    session.save()
    assert find(device, "event_all_day").is_checked and find(device, "event_reminder_1").text == "5 minutes before"
    tap(device, "All-day")  # unchecked again: the flag goes on Save
    tap(device, "save")
    assert not _row(device, "Stored")["flags"] & 1


@pytest.mark.parametrize("seconds, text", [(-1, "No reminder"), (0, "At start"), (60, "1 minute before"),
                                           (7200, "2 hours before"), (86400, "1 day before"), (1209600, "2 weeks before"),
                                           (-30600, "During the day at 08:30")])
def test_reminder_labels(seconds: int, text: str) -> None:
    assert reminder_text(seconds) == text
