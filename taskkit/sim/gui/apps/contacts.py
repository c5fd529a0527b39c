"""Contacts: the contact list, a contact's details, and the editor that creates a contact (first
name, last name, phone) in the contacts provider the checks read.

Labels follow AOSP Contacts (packages/apps/Contacts, res/values/strings.xml: `searchHint`
"Search contacts", `action_menu_add_new_contact_button` and `contact_editor_title_new_contact`
"Create new contact", `name_given` "First name", `name_family` "Last name", `phoneLabelsGroup`
"Phone", `menu_save` "Save"; the phone type spinner described "<label> Phone" with the types of
core/res `phoneType*` "Mobile", "Work", "Home", …; res/layout/floating_action_button.xml `floating_action_button`,
res/layout/editor_save_button.xml `editor_menu_save_button`), which Google Contacts shares.

Save writes what the Contacts app writes through ContactsContract: a local raw contact, a
structured-name row (given and family name; the provider joins the display name) and a mobile
phone row. Saving an empty form saves nothing. `am start -a android.intent.action.INSERT -t
vnd.android.cursor.dir/contact [--es name NAME] [--es phone NUMBER]` opens the editor filled in
(ContactsContract.Intents.Insert). The list's "Create new contact" starts the editor as
DefaultContactBrowseListFragment does, `ACTION_INSERT` on Contacts.CONTENT_URI with the app's
own package (ImplicitIntentsUtil.startActivityInApp); a contact's "Edit contact"
(QuickContactActivity's `menu_edit`, string `menu_editContact`) starts it as
EditorIntents.createEditContactIntent does, `ACTION_EDIT` on the contact's lookup URI with
ContactEditorActivity named; both log ActivityTaskManager's START line from the app's uid
(taskkit/sim/commands/activity.py `log_start`). Simplified: one phone field, no account
picker, photo, custom label or "More fields"; the search box is not a search; the edit page
("Edit contact", `contact_editor_title_existing_contact`) shows the contact's name and first
phone, and its Save closes it without writing (editing a contact is not modelled).
"""
from __future__ import annotations

from typing import Any

from taskkit.apps.contacts import DATA_URI, NAME_MIMETYPE, PACKAGE, PHONE_LABELS, PHONE_MIMETYPE, RAW_CONTACTS_URI
from taskkit.sim import providers
from taskkit.sim.commands.activity import Intent as StartIntent, log_start, process_uid
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
EDITOR = "com.android.contacts.activities.ContactEditorActivity"
DETAILS = "com.android.contacts.quickcontact.QuickContactActivity"
CONTACTS_URI = "content://com.android.contacts/contacts"
PHONES_URI = "content://com.android.contacts/data/phones"
_FIELDS = (("first", "First name"), ("last", "Last name"), ("phone", "Phone"))
INSERT_ACTION, EDIT_ACTION = "android.intent.action.INSERT", "android.intent.action.EDIT"


# --- data ---------------------------------------------------------------------------------------
def contacts(ui: Session) -> list[dict[str, Any]]:
    """Every contact with a name, in the list's order (by display name)."""
    cursor = appdata.query(ui, CONTACTS_URI, ["_id", "display_name"], sort="display_name COLLATE NOCASE ASC")
    return [{"id": int(row[0]), "name": str(row[1])} for row in cursor.rows if row[1]]


def phones(ui: Session, contact_id: int) -> list[str]:
    cursor = appdata.query(ui, PHONES_URI, ["data1"], f"contact_id = {int(contact_id)}", sort="_id ASC")
    return [str(row[0]) for row in cursor.rows if row[0]]


def _save(frame: Frame):
    """The editor's Save: the raw contact, its name and phone rows, then its details."""
    def act(ui: Session) -> None:
        first, last, phone = (ui.draft(frame, name).strip() for name, _ in _FIELDS)
        if not (first or last or phone) or "contact" in frame.args:  # an edit page writes nothing
            ui.finish()
            return
        caller = providers.Caller(PACKAGE)
        raw_uri = providers.insert(ui.state, RAW_CONTACTS_URI, {"account_type": None, "account_name": None}, caller)
        raw_id = int(raw_uri.rstrip("/").rsplit("/", 1)[1])
        if first or last:
            providers.insert(ui.state, DATA_URI, {"raw_contact_id": raw_id, "mimetype": NAME_MIMETYPE,
                                                  "data2": first or None, "data3": last or None}, caller)
        if phone:
            providers.insert(ui.state, DATA_URI, {"raw_contact_id": raw_id, "mimetype": PHONE_MIMETYPE,
                                                  "data1": phone, "data2": dict(PHONE_LABELS)[_label(ui, frame)]},
                             caller)
        row = appdata.query(ui, f"{RAW_CONTACTS_URI}/{raw_id}", ["contact_id"]).rows
        ui.replace("details", contact=int(row[0][0]) if row and row[0][0] is not None else 0)
    return act


def _start_editor(ui: Session, action: str, data: str, drafts: dict[str, str] | None = None, **args: Any) -> None:
    """Start ContactEditorActivity with `action` on `data` (its START line) and open the editor."""
    explicit = action == EDIT_ACTION  # EditorIntents names the class; INSERT goes by the app's package
    log_start(ui.state, StartIntent(action, data=data, package=None if explicit else PACKAGE),
              PACKAGE, EDITOR, process_uid(PACKAGE))
    ui.push("editor", focus="first", drafts=drafts, **args)


def _edit(contact: int):
    """A contact's "Edit contact": the editor on its lookup URI, filled with its name and first phone."""
    def act(ui: Session) -> None:
        found = appdata.query(ui, f"{CONTACTS_URI}/{contact}", ["lookup"]).rows
        lookup = str(found[0][0]) if found and found[0][0] else ""
        names = appdata.query(ui, DATA_URI, ["data2", "data3"],
                                f"contact_id = {int(contact)} AND mimetype = '{NAME_MIMETYPE}'").rows
        values = (*(names[0] if names else ("", "")), next(iter(phones(ui, contact)), ""))
        drafts = {name: str(v) for (name, _), v in zip(_FIELDS, values) if v}
        _start_editor(ui, EDIT_ACTION, f"{CONTACTS_URI}/lookup/{lookup}/{contact}", drafts, contact=contact)
    return act


def _label(ui: Session, frame: Frame) -> str:
    return ui.draft(frame, "label", PHONE_LABELS[0][0])


def _choose(label: str):
    """A label of the spinner's list: set it on the editor below and close the list."""
    def act(ui: Session) -> None:
        ui.finish()
        _, _, editor = ui.top()
        if editor is not None:
            ui.set_draft(editor, "label", label)
    return act


# --- screens ----------------------------------------------------------------------------------
def _list(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    top = m.status_bar + m.dp(72)
    nodes = [widgets.text(ui, (m.dp(16), m.status_bar + m.dp(12), m.width - m.dp(16), top - m.dp(12)),
                          "Search contacts", f"{ID}open_search_bar", action=lambda session: None)]
    people = contacts(ui)
    if people:
        rows = [widgets.Row(m.dp(64), lambda b, p=p: widgets.list_item(
            ui, b, p["name"], action=lambda session, c=p["id"]: session.push("details", contact=c),
            long_action=lambda session: None, title_rid=f"{ID}cliv_name_textview")) for p in people]
        nodes.append(widgets.scroll_list(ui, frame, "list", (0, top, m.width, m.content_bottom), rows,
                                         rid=f"{ID}contact_list"))
    else:
        nodes.append(widgets.text(ui, (m.dp(16), top + m.dp(32), m.width - m.dp(16), top + m.dp(80)), "No contacts"))
    create = lambda session: _start_editor(session, INSERT_ACTION, CONTACTS_URI)  # noqa: E731
    nodes.append(widgets.fab(ui, create, f"{ID}floating_action_button", "Create new contact"))
    return nodes


def _details(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    contact = int(frame.args.get("contact", 0))
    name = next((p["name"] for p in contacts(ui) if p["id"] == contact), "")
    edit = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Edit contact", _edit(contact), f"{ID}menu_edit")
    nodes, top = widgets.app_bar(ui, "", actions=(edit,))
    nodes.append(widgets.text(ui, (m.dp(16), top, m.width - m.dp(16), top + m.dp(72)), name,
                              f"{ID}large_title", size_dp=28))
    rows = [widgets.Row(m.dp(72), lambda b, n=n: widgets.list_item(ui, b, n, "Mobile", action=lambda session: None,
                                                                   title_rid=f"{ID}header",
                                                                   subtitle_rid=f"{ID}sub_header"))
            for n in phones(ui, contact)]
    nodes.append(widgets.scroll_list(ui, frame, "data", (0, top + m.dp(80), m.width, m.content_bottom), rows,
                                     rid=f"{ID}communication_card"))
    return nodes


def _editor(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    save = widgets.button(ui, (0, 0, m.dp(96), 0), "Save", _save(frame), f"{ID}editor_menu_save_button")
    title = "Edit contact" if "contact" in frame.args else "Create new contact"
    nodes, top = widgets.app_bar(ui, title, actions=(save,))
    y = top + m.dp(16)
    for name, hint in _FIELDS:
        nodes.append(widgets.edit_text(ui, frame, name, (m.dp(72), y, m.width - m.dp(24), y + m.dp(56)), hint))
        y += m.dp(72)
    label = _label(ui, frame)
    nodes.append(widgets.button(ui, (m.dp(72), y - m.dp(8), m.dp(232), y + m.dp(40)), label,
                                lambda session: session.push("labels"), f"{ID}spinner", desc=f"{label} Phone",
                                class_name="android.widget.Spinner"))
    return nodes


def _labels(ui: Session, frame: Frame) -> list[Node]:
    """The spinner's drop-down: one row per phone type."""
    m = ui.m
    top = m.height // 3
    return [widgets.text(ui, (m.dp(72), top + i * m.dp(48), m.width - m.dp(72), top + (i + 1) * m.dp(48)), label,
                         "android:id/text1", action=_choose(label))
            for i, (label, _) in enumerate(PHONE_LABELS)]


def _opener(activity: str, intent: Intent | None) -> list[Opening] | None:
    """INSERT opens the editor, filled in from the Insert extras `name` and `phone`."""
    if activity != EDITOR:
        return None
    extras = intent.extras if intent is not None else {}
    parts = providers.split_name(extras.get("name", ""))
    first = " ".join(p for p in (parts["data2"], parts["data5"]) if p)
    drafts = {k: v for k, v in (("first", first), ("last", parts["data3"] or ""),
                                ("phone", extras.get("phone", ""))) if v}
    return [Opening("editor", focus="first", activity=activity, drafts=drafts)]


APP = register(AppScreens(
    PACKAGE,
    {"list": Screen(_list), "details": Screen(_details, DETAILS), "editor": Screen(_editor, EDITOR),
     "labels": Screen(_labels, EDITOR)},
    first="list", opener=_opener))
