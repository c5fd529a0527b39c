"""GUI reference steps the AndroidLens tasks share, built on the apps' own step helpers.

Each helper starts and ends on a stated screen (the app's main list unless said otherwise), so
that a task's reference is the goals' steps one after the other.
"""
from __future__ import annotations

from taskkit.apps.calendar.tasks import day_view_steps, new_event_steps, pick_time_steps
from taskkit.apps.expense.tasks import add_steps as expense_add_steps
from taskkit.apps.markor.tasks import EDITOR, new_note
from taskkit.gui_reference import Step, back, enter, long_press, open_app, tap, type_text

# BACK that only leaves a screen (a sent thread, a saved contact) for the next goal's start; a
# reference never ends on it (`finish`), so that dropping its last step changes the outcome.
LEAVE = back()

__all__ = ["EDITOR", "LEAVE", "alarm_steps", "contact_steps", "copy_note_steps", "day_view_steps", "expense_add_steps",
           "finish", "new_event_steps", "new_note", "paste_sms_steps", "reply_steps", "sms_steps"]


def sms_steps(to: str, body: str, *, contact: bool = False) -> list[Step]:
    """From the conversation list: a new conversation with `to` (a number confirmed with ENTER,
    or a contact's name picked from the matches), `body` typed and sent, back to the list."""
    return [*_open_thread(to, contact), *reply_steps(body)]


def reply_steps(body: str) -> list[Step]:
    """In an open thread: `body` typed and sent, back to the conversation list."""
    return [type_text("thread_type_message", body), tap("thread_send_message"), LEAVE]


def _open_thread(to: str, contact: bool) -> list[Step]:
    return [tap("conversations_fab"), type_text("new_conversation_address", to), tap(to) if contact else enter()]


def paste_sms_steps(to: str, *, contact: bool = False) -> list[Step]:
    """As `sms_steps`, the body pasted from the clipboard (long press, Paste) instead of typed."""
    return [*_open_thread(to, contact), long_press("thread_type_message"), tap("Paste"), tap("thread_send_message"), LEAVE]


def copy_note_steps(file_name: str) -> list[Step]:
    """Open Markor, open the note, select its whole text and Copy it, leave the note."""
    return [open_app("markor"), tap(file_name), long_press(EDITOR), tap("Select all"), tap("Copy"), back()]


def contact_steps(person: str, number: str) -> list[Step]:
    """From the contact list: Create new contact, the names and phone, Save, back to the list."""
    first, _, last = person.partition(" ")
    return [tap("Create new contact"), type_text("First name", first), type_text("Last name", last),
            type_text("Phone", number), tap("Save"), LEAVE]


def finish(steps: list[Step]) -> list[Step]:
    """The reference without a trailing `LEAVE`."""
    return steps[:-1] if steps and steps[-1] is LEAVE else steps


def alarm_steps(hour: int, minutes: int) -> list[Step]:
    """On the Clock's Alarm tab: Add alarm, the time on the clock face, OK (a one-time alarm)."""
    return pick_time_steps("Add alarm", hour, minutes, -1)
