"""Contacts through the simulated GUI: the list, creating a contact (first name, last name,
phone → the contacts provider the checks read) and the INSERT intent; the Contacts tasks' GUI
references are proved in test_gui_references.py."""
from __future__ import annotations

from taskkit.apps import contacts
from tests.sim.gui.helpers import find, tap, texts

PEOPLE = "am start -n com.google.android.contacts/com.android.contacts.activities.PeopleActivity"


def test_create_a_contact(device) -> None:
    contacts.add_contact(device, "Zoe Young", "+12125550100")
    device.check(PEOPLE)
    assert "Zoe Young" in texts(device)
    tap(device, "Create new contact")
    assert device.activity.foreground() == ("com.google.android.contacts/"
                                            "com.android.contacts.activities.ContactEditorActivity")
    assert find(device, "First name").is_focused
    device.check("input text Ada")
    tap(device, "Last name")
    device.check("input text Lovelace")
    tap(device, "Phone")
    device.check("input text '(415) 555-0100'")
    tap(device, "Save")
    assert {"name": "Ada Lovelace", "number": "(415) 555-0100"} in contacts.list_contacts(device)
    assert device.activity.foreground().endswith("QuickContactActivity")
    assert {"Ada Lovelace", "(415) 555-0100"} <= set(texts(device))
    device.check("input keyevent KEYCODE_BACK")
    names = [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith("cliv_name_textview")]
    assert names == ["Ada Lovelace", "Zoe Young"]


def test_an_empty_form_saves_nothing_and_back_discards(device) -> None:
    device.check(PEOPLE)
    tap(device, "Create new contact")
    tap(device, "Save")
    assert contacts.list_contacts(device) == [] and "No contacts" in texts(device)
    tap(device, "Create new contact")
    device.check("input text Ghost")
    device.check("input keyevent KEYCODE_BACK")
    assert contacts.list_contacts(device) == []
    tap(device, "Create new contact")
    assert find(device, "First name").text == "First name"  # a new editor is empty


def test_the_insert_intent_fills_the_editor(device) -> None:
    device.check("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact "
                 "--es name 'Grace Brewster Hopper' --es phone +12125550177")
    assert [find(device, hint).text for hint in ("Grace Brewster", "Hopper", "+12125550177")]
    tap(device, "Save")
    assert contacts.list_contacts(device) == [{"name": "Grace Brewster Hopper", "number": "+12125550177"}]
