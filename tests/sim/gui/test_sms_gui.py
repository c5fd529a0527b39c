"""Simple SMS Messenger through the simulated GUI: the conversation list, a thread, compose and
send (into the telephony provider the SMS checks read), a new conversation, the clipboard; the
SMS tasks' GUI references are proved in test_gui_references.py."""
from __future__ import annotations

from taskkit.apps import contacts, sms
from tests.sim.gui.helpers import find, tap, texts

MAIN = "am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity"


def test_the_list_shows_each_conversation_newest_first_with_contact_names(device) -> None:
    device.check(MAIN)
    assert "No stored conversations have been found" in texts(device)
    sms.receive(device, "+12125550111", "Older one", date_ms=1697380000000)
    sms.receive(device, "+12125550134", "Newer one", date_ms=1697384000000)
    contacts.add_contact(device, "Jane Doe", "+1 212-555-0134")
    rows = [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith("conversation_address")]
    assert rows == ["Jane Doe", "+12125550111"]
    assert find(device, "Newer one").resource_name.endswith(":id/conversation_body_short")


def test_compose_and_send_writes_the_sent_box(device) -> None:
    sms.receive(device, "+12125550134", "Are we still on for lunch?")
    device.check(MAIN)
    tap(device, "+12125550134")
    assert device.activity.foreground().endswith(".activities.ThreadActivity")
    assert sms.messages(device, "inbox")[0]["read"] == "1"  # opening the thread read it
    send = find(device, "thread_send_message")
    assert send.text == "SMS" and send.content_description == "OK" and not send.is_clickable
    tap(device, "thread_type_message")
    device.check("input text \"Yes,%ssee%syou%sat%snoon\"")
    assert find(device, "thread_send_message").is_clickable
    tap(device, "thread_send_message")
    sent = sms.messages(device, "sent")
    assert [(m["address"], m["body"], m["type"]) for m in sent] == [("+12125550134", "Yes, see you at noon", "2")]
    assert sent[0]["creator"] == "com.simplemobiletools.smsmessenger"
    assert find(device, "thread_type_message").text == "Type a message\u2026"  # the box is empty again
    bubbles = [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith("thread_message_body")]
    assert bubbles == ["Are we still on for lunch?", "Yes, see you at noon"]  # oldest first, newest at the bottom


def test_new_conversation_by_number_and_by_contact(device) -> None:
    contacts.add_contact(device, "Ann Lee", "+14155550100")
    device.check(MAIN)
    tap(device, "conversations_fab")
    assert find(device, "new_conversation_address").is_focused
    assert "Ann Lee" in texts(device)  # the contacts to pick from
    device.check("input text Ann")
    tap(device, "Ann Lee")
    assert "Ann Lee" in texts(device) and device.activity.foreground().endswith("ThreadActivity")
    device.check("input keyevent KEYCODE_BACK")
    assert device.activity.foreground().endswith(".activities.MainActivity")  # the new screen was replaced
    tap(device, "conversations_fab")
    device.check("input text +12125550199")
    tap(device, "Confirm selection")
    device.check("input text hello && input keyevent KEYCODE_ENTER && input text there")
    tap(device, "thread_send_message")
    assert sms.messages(device, "sent")[0]["body"] == "hello\nthere"  # ENTER is a new line in the box


def test_sendto_intent_opens_the_thread_with_the_text(device) -> None:
    device.check("am start -a android.intent.action.SENDTO -d smsto:+12125550134 --es sms_body 'Hi there'")
    assert device.activity.foreground().endswith(".activities.ThreadActivity")
    assert find(device, "thread_type_message").text == "Hi there"
    device.check("input keyevent KEYCODE_BACK")
    assert device.activity.foreground().endswith(".activities.MainActivity")


def test_the_clipboard_pastes_into_the_focused_field(device) -> None:
    """Clipper's broadcast fills the clipboard; KEYCODE_PASTE types it where the cursor is."""
    from taskkit.apps import clipper

    clipper.set_clipboard(device, "Meet at 5, gate B")
    assert clipper.clipboard(device) == "Meet at 5, gate B"
    sms.receive(device, "+12125550134", "Where?")
    device.check(MAIN)
    tap(device, "+12125550134")
    tap(device, "thread_type_message")
    device.check("input text Re:%s")
    device.check("input keyevent KEYCODE_PASTE")
    tap(device, "thread_send_message")
    assert [m["body"] for m in sms.messages(device, "sent")] == ["Re: Meet at 5, gate B"]


def test_ctrl_a_selects_the_fields_text_for_the_next_delete_or_typing(device) -> None:
    """`input keycombination 113 29` (Ctrl+A) selects all: DEL then empties the field, typing
    replaces it; a tap in between drops the selection, and other combinations select nothing."""
    sms.receive(device, "+12125550134", "Where?")
    device.check(MAIN)
    tap(device, "+12125550134")
    tap(device, "thread_type_message")
    device.check("input text draft")
    device.check("input keycombination 113 29 && input keyevent 67 && input text Hi")
    assert find(device, "thread_type_message").text == "Hi"
    device.check("input keycombination 114 29 && input text Yo")
    assert find(device, "thread_type_message").text == "Yo"
    device.check("input keycombination 113 29")
    tap(device, "thread_type_message")  # the tap drops the selection: DEL deletes one character
    device.check("input keyevent 67")
    assert find(device, "thread_type_message").text == "Y"
    device.check("input text es && input keycombination 113 30 && input keyevent 67")  # Ctrl+B selects nothing
    assert find(device, "thread_type_message").text == "Ye"


def test_copy_puts_the_focused_fields_text_on_the_clipboard(device) -> None:
    """KEYCODE_COPY copies the field (all of it: the simulator has no selection); SystemCopyToClipboard
    is solved through the GUI that way and fails on a one-character slip."""
    from taskkit.apps import clipper
    from taskkit.apps.clipper.tasks import SystemCopyToClipboard
    from taskkit.env import Env

    task = SystemCopyToClipboard({"clipboard_content": "Order No: A123456"})
    env = Env(device)
    task.initialize_state(env)
    sms.receive(device, "+12125550134", "Where?")
    device.check(MAIN)
    tap(device, "+12125550134")
    tap(device, "thread_type_message")
    device.check("input text 'Order No: A123457'")
    device.check("input keyevent KEYCODE_COPY")
    assert clipper.clipboard(device) == "Order No: A123457" and task.is_successful(env) == 0.0
    device.check(MAIN)  # reading the clipboard brought Clipper to the front, as on a phone
    tap(device, "+12125550134")
    tap(device, "thread_type_message")
    device.check("input text 'Order No: A123456'")
    device.check("input keyevent 278")
    assert task.is_successful(env) == 1.0
    task.teardown(env)
