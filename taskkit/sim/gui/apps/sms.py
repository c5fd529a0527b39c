"""Simple SMS Messenger: the conversation list, a thread (messages, compose box, send) and a new
conversation with a recipient field, over the telephony provider the SMS checks read.

Layouts and labels follow SimpleMobileTools/Simple-SMS-Messenger (app/src/main/res/layout/
activity_main.xml, activity_thread.xml, layout_thread_send_message_holder.xml,
activity_new_conversation.xml; values/strings.xml): the list `conversations_list` with rows
`conversation_frame` (the letter avatar `conversation_image`, `conversation_address`,
`conversation_body_short`, `conversation_date`), the
FAB `conversations_fab`, the placeholder "No stored conversations have been found" with "Start a
conversation"; a thread's `thread_messages_list` of `thread_message_body` bubbles (the newest at the
bottom), the EditText `thread_type_message` ("Type a message…") and the send button
`thread_send_message` (text "SMS", description "OK", clickable once there is text); a new
conversation's `new_conversation_address` ("Add Contact or Number…"), the confirm check
`new_conversation_confirm` and the contacts that match what was typed. The list's top is
Simple-Commons' MySearchMenu `main_menu`: the field `top_toolbar_search` "Search" (from two
characters on, the conversations whose contact or latest message holds the text, in
`search_results_list`; fewer: "Type in at least 2 characters to start the search."), menu_main.xml's
Settings and About icons and its overflow (Show archived conversations;
MainActivity.refreshMenuItems hides the recycle bin, off by default, and More apps from us in the
F-Droid build, app/src/fdroid/res/values/bools.xml).

Sending inserts the message into `content://sms/sent` as the app's SmsManager send ends up in the
provider (address, body, read, the device clock as date, the app as creator) — the rows the SMS
tasks check. Opening a thread marks its received messages read, as the app does. Simplified: names
come from the contacts provider's phone rows; drafts live in the GUI state (the app keeps them in
the provider); there is no context menu or attachment picker; search matches conversations, not
single messages; Settings, About and the overflow item do nothing; `am start -a
android.intent.action.SENDTO -d smsto:NUMBER [--es sms_body TEXT]` opens the thread with NUMBER with
the text in the compose box.

Pinned: AndroidWorld installs com.simplemobiletools.smsmessenger_85.apk; this model follows
SimpleMobileTools/Simple-SMS-Messenger 5.19.3 (versionCode 85) with Simple-Commons b72ded2a75, the
commit its gradle/libs.versions.toml pins.
"""
from __future__ import annotations

import dataclasses

from datetime import datetime, timezone
from typing import Any

from taskkit.apps.common import normalize_phone
from taskkit.apps.sms import BOX_URIS, PACKAGE, SMS_URI, TYPE_INBOX
from taskkit.sim import providers
from taskkit.sim.devicetime import device_zone
from taskkit.sim.gui import appdata, pictures, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import Node, Painted
from taskkit.sim.gui.searchmenu import search_menu
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source, simple_commons

SOURCE = Source("SimpleMobileTools/Simple-SMS-Messenger", "5.19.3", 85, (simple_commons("b72ded2a75"),))
ID = f"{PACKAGE}:id/"
PHONES = "content://com.android.contacts/data/phones"
_RECEIVED, _SENT = (232, 234, 237), (210, 227, 252)


# --- data ---------------------------------------------------------------------------------------
def same_number(a: str, b: str) -> bool:
    """Two addresses name the same phone (their last ten digits agree), or are equal."""
    da, db = normalize_phone(a).lstrip("+"), normalize_phone(b).lstrip("+")
    if len(da) >= 7 and len(db) >= 7:
        return da[-10:] == db[-10:]
    return a.strip() == b.strip()


def messages(ui: Session) -> list[dict[str, Any]]:
    """Every SMS, oldest first."""
    cursor = appdata.query(ui, SMS_URI, ["_id", "thread_id", "address", "body", "date", "type", "read"],
                             sort="date ASC, _id ASC")
    return [dict(zip(cursor.columns, row)) for row in cursor.rows]


def contact_names(ui: Session) -> list[tuple[str, str]]:
    """(display name, number) of every phone row of the contacts provider."""
    cursor = appdata.query(ui, PHONES, ["display_name", "data1"], sort="display_name ASC")
    return [(str(name or number), str(number)) for name, number in cursor.rows if number]


def title_for(address: str, contacts: list[tuple[str, str]]) -> str:
    """The contact's name for `address`, else the address itself."""
    return next((name for name, number in contacts if same_number(number, address)), address)


def _when(ui: Session, date_ms: int | None, with_time: bool = False) -> str:
    """Simple-Commons' Int.formatDateOrTime: today, the time (24-hour unless `time_12_24` is 12);
    earlier, the date ("Oct 14"), and with `with_time` (hideTimeAtOtherDays off, as the thread's
    date separators have it) the time after it ("Oct 14, 15:34")."""
    zone = device_zone(ui.state)
    when = datetime.fromtimestamp((date_ms or 0) / 1000, timezone.utc).astimezone(zone)
    now = datetime.fromtimestamp(ui.state.clock_epoch, timezone.utc).astimezone(zone)
    if ui.setting("system", "time_12_24") == "12":
        time = f"{when.hour % 12 or 12}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"
    else:
        time = f"{when.hour:02d}:{when.minute:02d}"
    if when.date() == now.date():
        return time
    return f"{when.strftime('%b')} {when.day}" + (f", {time}" if with_time else "")


# --- actions ----------------------------------------------------------------------------------
def open_thread(address: str, thread_id: int | None = None, replace: bool = False):
    """The action that opens the conversation with `address` (marking its messages read)."""
    def act(ui: Session) -> None:
        if thread_id is not None:
            providers.update(ui.state, BOX_URIS["inbox"], {"read": 1, "seen": 1},
                             f"thread_id = {int(thread_id)} AND read = 0")
        (ui.replace if replace else ui.push)("thread", focus="message", address=address)
    return act


def _send(frame: Frame):
    def act(ui: Session) -> None:
        body = ui.draft(frame, "message")
        if not body.strip():
            return
        providers.insert(ui.state, BOX_URIS["sent"],
                         {"address": frame.args["address"], "body": body, "read": 1, "seen": 1},
                         providers.Caller(PACKAGE))
        ui.set_draft(frame, "message", "")
        ui.set_scroll(frame, "messages", 1 << 30)  # to the newest message
    return act


def _confirm(frame: Frame):
    def act(ui: Session) -> None:
        address = ui.draft(frame, "address").strip()
        if address:
            open_thread(address, replace=True)(ui)
    return act


# --- screens ----------------------------------------------------------------------------------
def _search_menu(ui: Session, frame: Frame) -> tuple[list[Node], int]:
    """Simple-Commons' MySearchMenu `main_menu` (menu_search.xml): the field `top_toolbar_search`
    "Search", then menu_main.xml's Settings and About as icons and its overflow menu."""
    icon = (0, 0, ui.m.dp(48), 0)
    return search_menu(ui, frame, ID, (widgets.icon_button(ui, icon, "More options", lambda s: s.push("main_menu")),
                                       widgets.icon_button(ui, icon, "About", widgets.inert, f"{ID}about"),
                                       widgets.icon_button(ui, icon, "Settings", widgets.inert, f"{ID}settings")))


def _main_menu(ui: Session, frame: Frame) -> list[Node]:
    """menu_main.xml's overflow as MainActivity.refreshMenuItems leaves it (no recycle bin by
    default; an F-Droid build hides More apps from us)."""
    return widgets.popup_menu(ui, [("Show archived conversations", widgets.inert)])


def _main(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = _search_menu(ui, frame)
    contacts = contact_names(ui)
    threads: dict[int, dict[str, Any]] = {}
    for row in messages(ui):
        threads[int(row["thread_id"] or 0)] = row  # the latest message of each thread wins
    latest = sorted(threads.items(), key=lambda item: (item[1]["date"] or 0, item[1]["_id"]), reverse=True)
    query = ui.draft(frame, "search").strip().casefold()
    box = (0, top, m.width, m.content_bottom)
    if query:  # MainActivity.searchTextChanged: two characters at least, then the matches
        latest = [(t, msg) for t, msg in latest if len(query) >= 2 and query in
                  f"{title_for(str(msg['address'] or ''), contacts)}\n{msg['body'] or ''}".casefold()]
        if not latest:
            nodes.append(widgets.text(ui, (m.dp(16), top + m.dp(32), m.width - m.dp(16), top + m.dp(80)),
                                      "Type in at least 2 characters to start the search." if len(query) < 2
                                      else "No items found.", f"{ID}search_placeholder"))
            return nodes
    if not latest:
        nodes.append(widgets.text(ui, (m.dp(16), top + m.dp(32), m.width - m.dp(16), top + m.dp(80)),
                                  "No stored conversations have been found", f"{ID}no_conversations_placeholder"))
        nodes.append(widgets.text(ui, (m.dp(96), top + m.dp(88), m.width - m.dp(96), top + m.dp(136)),
                                  "Start a conversation", f"{ID}no_conversations_placeholder_2",
                                  action=lambda session: session.push("new", focus="address")))
    else:
        def row(thread_id: int, message: dict[str, Any]) -> widgets.Row:
            address = str(message["address"] or "")
            title = title_for(address, contacts)
            return widgets.Row(m.dp(76), lambda b: widgets.list_item(
                ui, b, title, str(message["body"] or ""),
                action=open_thread(address, thread_id), long_action=lambda session: None,
                rid=f"{ID}conversation_frame", title_rid=f"{ID}conversation_address",
                subtitle_rid=f"{ID}conversation_body_short", trailing=_when(ui, message["date"]),
                trailing_rid=f"{ID}conversation_date", leading=_avatar(ui, b, title), indent_dp=4 + 12 + 48 + 12))

        found = widgets.scroll_list(ui, frame, "list", box, [row(t, msg) for t, msg in latest],
                                    rid=f"{ID}search_results_list" if query else f"{ID}conversations_list")
        # qtalk's RecyclerViewFastScroller around the list (its handle shows only while dragged)
        nodes.append(found if query else widgets.wrapper(f"{ID}conversations_fastscroller", found))
    nodes.append(widgets.fab(ui, lambda session: session.push("new", focus="address"), f"{ID}conversations_fab"))
    return nodes


def _avatar(ui: Session, row: tuple[int, int, int, int], title: str, rid: str = "conversation_image") -> Node:
    """item_conversation.xml's `conversation_image` (48 dp, 16 dp in: the holder's small_margin and
    its own normal_margin, centred on the row; item_contact_with_number.xml's `item_contact_image`
    sits at the same place): no contact photo here, so the letter avatar
    SimpleContactsHelper.loadContactImage falls back to for the conversation's title
    (BaseConversationsAdapter.setupView; taskkit.sim.gui.pictures.letter_avatar)."""
    m = ui.m
    x, middle, half = row[0] + m.dp(16), (row[1] + row[3]) // 2, m.dp(24)
    box = (x, middle - half, x + 2 * half, middle + half)
    return Node("android.widget.ImageView", resource_id=f"{ID}{rid}", bounds=box,
                paint=(pictures.letter_avatar(box, title),))


def _bubble(ui: Session, box: tuple[int, int, int, int], message: dict[str, Any]) -> Node:
    m = ui.m
    x1, y1, x2, y2 = box
    sent = message["type"] != TYPE_INBOX
    width = (x2 - x1) * 4 // 5
    left = x2 - m.dp(16) - width if sent else x1 + m.dp(16)
    body = Node(widgets.TEXT_VIEW, text=str(message["body"] or ""), resource_id=f"{ID}thread_message_body",
                bounds=(left, y1 + m.dp(6), left + width, y2 - m.dp(6)), background=_SENT if sent else _RECEIVED,
                text_size=m.dp(16), long_clickable=True)
    return Node("android.view.ViewGroup", resource_id=f"{ID}thread_message_holder", bounds=box, children=[body])


def _lines(ui: Session, text: str) -> int:
    per_line = max(8, int((ui.m.width * 4 // 5 - ui.m.dp(16)) / (ui.m.dp(16) * 0.55)))
    return sum(max(1, -(-len(part) // per_line)) for part in text.split("\n"))


def _thread_items(ui: Session, shown: list[dict[str, Any]]) -> list[widgets.Row]:
    """ThreadActivity.getThreadItems: a date separator (item_thread_date_time.xml `thread_date_time`,
    centred) above a message sent more than MIN_DATE_TIME_DIFF_SECS (300 s) after the last
    separator's, then the message's bubble; the SIM badge beside it shows with two SIM cards only."""
    m = ui.m
    rows: list[widgets.Row] = []
    last = 0
    for message in shown:
        seconds = int(message["date"] or 0) // 1000
        if seconds - last > 300:
            label = _when(ui, message["date"], with_time=True)
            rows.append(widgets.Row(m.dp(8 + 24), lambda b, t=label: widgets.text(
                ui, (b[0] + m.dp(16), b[1] + m.dp(8), b[2] - m.dp(16), b[3]), t, f"{ID}thread_date_time", size_dp=14)))
            last = seconds
        rows.append(widgets.Row(m.dp(24) + _lines(ui, str(message["body"] or "")) * m.dp(22),
                                lambda b, r=message: _bubble(ui, b, r)))
    return rows


def _thread_actions(ui: Session, frame: Frame, address: str, title: str, shown: list[dict[str, Any]]) -> tuple[Node, ...]:
    """menu_thread.xml as ThreadActivity.refreshMenuItems leaves it for one participant (right to
    left): the overflow (Archive, Conversation details, Add number to contact for an unnamed
    number, Block number, Mark as Unread: not carried out), `manage_people` "Add Person" and Dial
    number (not carried out), Delete (asks, then deletes the conversation) while it has messages."""
    icon = (0, 0, ui.m.dp(48), 0)
    overflow = ["Archive", "Conversation details"] if shown else ["Conversation details"]
    overflow += ["Add number to contact"] if title == address and any(c.isdigit() for c in address) else []
    overflow += ["Block number"] + (["Mark as Unread"] if shown else [])
    actions = [widgets.icon_button(ui, icon, "More options", lambda s: s.push("thread_menu", items=overflow)),
               dataclasses.replace(widgets.icon_button(ui, icon, "Add Person", widgets.inert, f"{ID}manage_people"),
                                   icon="person_add"),
               dataclasses.replace(widgets.icon_button(ui, icon, "Dial number", widgets.inert, f"{ID}dial_number"),
                                   icon="phone")]
    if shown:
        thread_id = int(shown[-1]["thread_id"] or 0)
        actions.append(widgets.icon_button(ui, icon, "Delete", lambda s: s.push("delete", thread=thread_id),
                                           f"{ID}delete"))
    return tuple(actions)


def _thread(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    address = str(frame.args.get("address", ""))
    title = title_for(address, contact_names(ui))
    shown = [row for row in messages(ui) if same_number(str(row["address"] or ""), address)]
    nodes, top = widgets.app_bar(ui, title, rid=f"{ID}thread_toolbar",
                                 actions=_thread_actions(ui, frame, address, title, shown))
    compose_top = m.content_bottom - m.dp(64)
    listed = widgets.scroll_list(ui, frame, "messages", (0, top, m.width, compose_top), _thread_items(ui, shown),
                                 rid=f"{ID}thread_messages_list", from_end=True)
    nodes.append(widgets.wrapper(f"{ID}thread_messages_fastscroller", listed))
    typed = ui.draft(frame, "message")
    holder = [widgets.icon_button(ui, (m.dp(4), compose_top, m.dp(52), m.content_bottom), "Attachment", None,
                                  f"{ID}thread_add_attachment", class_name="android.widget.ImageView"),
              widgets.edit_text(ui, frame, "message", (m.dp(56), compose_top, m.width - m.dp(64), m.content_bottom),
                                "Type a message\u2026", f"{ID}thread_type_message", single_line=False),
              widgets.button(ui, (m.width - m.dp(60), compose_top + m.dp(8), m.width - m.dp(8), m.content_bottom - m.dp(8)),
                             "SMS", _send(frame) if typed.strip() else None, f"{ID}thread_send_message", desc="OK")]
    nodes.append(Node("android.view.ViewGroup", resource_id=f"{ID}message_holder",
                      bounds=(0, compose_top, m.width, m.content_bottom), children=holder))
    return nodes


def _thread_menu(ui: Session, frame: Frame) -> list[Node]:
    return widgets.popup_menu(ui, [(label, widgets.inert) for label in frame.args.get("items") or []])


def _confirm_delete(ui: Session, frame: Frame) -> list[Node]:
    """ThreadActivity.askConfirmDelete: Simple-Commons' ConfirmationDialog (dialog_message.xml:
    `message_scrollview`, `message`); Yes deletes the conversation's messages (deleteConversation,
    the recycle bin being off by default) and closes the thread."""
    thread_id = int(frame.args["thread"])

    def delete(s: Session) -> None:
        providers.delete(s.state, SMS_URI, f"thread_id = {thread_id}")
        s.finish()
        s.finish()

    def body(box: tuple[int, int, int, int]) -> list[Node]:
        message = widgets.text(ui, box, "Are you sure you want to delete all messages of this conversation?",
                               f"{ID}message", size_dp=18)
        return [Node("android.widget.ScrollView", resource_id=f"{ID}message_scrollview", bounds=box, children=[message])]
    return widgets.dialog(ui, "", owner=PACKAGE, body=body, body_dp=88, positive=("Yes", delete),
                          negative=("No", Session.finish))


def _new(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = widgets.app_bar(ui, "New conversation", rid=f"{ID}new_conversation_toolbar")
    typed = ui.draft(frame, "address")
    field_bottom = top + m.dp(56)
    nodes.append(widgets.edit_text(ui, frame, "address", (m.dp(16), top, m.width - m.dp(72), field_bottom),
                                   "Add Contact or Number\u2026", f"{ID}new_conversation_address",
                                   on_enter=_confirm(frame)))
    if typed.strip():
        nodes.append(widgets.icon_button(ui, (m.width - m.dp(64), top, m.width - m.dp(8), field_bottom),
                                         "Confirm selection", _confirm(frame), f"{ID}new_conversation_confirm",
                                         class_name="android.widget.ImageView"))
    wanted = typed.strip().casefold()
    matches = [(name, number) for name, number in contact_names(ui)
               if not wanted or wanted in name.casefold() or (normalize_phone(wanted) and normalize_phone(wanted) in normalize_phone(number))]
    nodes.append(Node("android.widget.ImageView", resource_id=f"{ID}add_contact_divider", background=(0xD8, 0xD8, 0xD8),
                      bounds=(0, field_bottom, m.width, field_bottom + 2)))
    y = field_bottom + 2
    suggested = _suggestions(ui)
    if suggested:
        nodes += _suggestion_row(ui, y, suggested)
        y += m.dp(32 + 108)
    rows = [widgets.Row(m.dp(72), lambda b, c=c: widgets.list_item(
        ui, b, c[0], c[1], action=open_thread(c[1], replace=True), rid=f"{ID}item_contact_frame",
        title_rid=f"{ID}item_contact_name", subtitle_rid=f"{ID}item_contact_number",
        leading=_avatar(ui, b, c[0], "item_contact_image"), indent_dp=72)) for c in matches]
    listed = widgets.scroll_list(ui, frame, "contacts", (0, y, m.width, m.content_bottom), rows,
                                 rid=f"{ID}contacts_list")
    nodes.append(listed)
    if matches:
        nodes += _letter_scroller(ui, y, [name for name, _ in matches])
    return nodes


def _suggestions(ui: Session) -> list[tuple[str, str]]:
    """Context.getSuggestedContacts: the senders of the 50 latest messages that are contacts
    (an unknown number is skipped), each once, newest first."""
    contacts = contact_names(ui)
    found: list[tuple[str, str]] = []
    for message in sorted(messages(ui), key=lambda r: (r["date"] or 0, r["_id"]), reverse=True)[:50]:
        address = str(message["address"] or "")
        name = title_for(address, contacts)
        if name != address and not any(same_number(address, number) for _, number in found):
            found.append((name, address))
    return found


def _suggestion_row(ui: Session, top: int, suggested: list[tuple[str, str]]) -> list[Node]:
    """activity_new_conversation.xml's "Suggestions" (`suggestions_label`) over the
    HorizontalScrollView `suggestions_scrollview` of item_suggested_contact.xml cards (a 64 dp
    letter avatar `suggested_contact_image`, the name under it); a tap opens the thread."""
    m = ui.m
    label = widgets.text(ui, (m.dp(16), top, m.width - m.dp(16), top + m.dp(32)), "Suggestions",
                         f"{ID}suggestions_label", size_dp=14)
    y = top + m.dp(32)
    cards = []
    for i, (name, number) in enumerate(suggested):
        x = m.dp(8) + i * m.dp(72)
        if x + m.dp(64) > m.width:
            break
        image = (x, y, x + m.dp(64), y + m.dp(64))
        cards.append(Node("android.widget.RelativeLayout", resource_id=f"{ID}suggested_contact_holder",
                          bounds=(x, y, x + m.dp(64), y + m.dp(100)), clickable=True, focusable=True,
                          action=open_thread(number, replace=True), children=[
                              Node("android.widget.ImageView", resource_id=f"{ID}suggested_contact_image", bounds=image,
                                   paint=(pictures.letter_avatar(image, name),)),
                              widgets.text(ui, (x, y + m.dp(64), x + m.dp(64), y + m.dp(100)), name,
                                           f"{ID}suggested_contact_name", size_dp=14)]))
    scroller = Node("android.widget.HorizontalScrollView", resource_id=f"{ID}suggestions_scrollview",
                    bounds=(0, y, m.width, y + m.dp(100)), children=[
                        Node("android.widget.LinearLayout", resource_id=f"{ID}suggestions_holder",
                             bounds=(0, y, m.width, y + m.dp(100)), children=cards)])
    return [label, scroller]


def _letter_scroller(ui: Session, top: int, names: list[str]) -> list[Node]:
    """reddit's FastScrollerView `contacts_letter_fastscroller` (32 dp at the end, `big_margin`
    above and below its letters: the contacts' initials, painted) and its FastScrollerThumbView
    `contacts_letter_fastscroller_thumb` beside it (its bubble shows only while dragged)."""
    m = ui.m
    letters = list(dict.fromkeys(pictures.name_letter(name) for name in names))
    bottom = min(m.content_bottom, top + m.dp(48) + m.dp(20) * len(letters))
    column = (m.width - m.dp(32), top, m.width, bottom)
    paint = tuple(Painted((column[0], top + m.dp(24) + m.dp(20) * i, column[2], top + m.dp(44) + m.dp(20) * i),
                                   letter, size=m.dp(12), center=True) for i, letter in enumerate(letters)
                  if top + m.dp(44) + m.dp(20) * i <= bottom)
    return [Node("android.widget.LinearLayout", resource_id=f"{ID}contacts_letter_fastscroller", bounds=column, paint=paint),
            Node("android.view.ViewGroup", resource_id=f"{ID}contacts_letter_fastscroller_thumb",
                 bounds=(column[0] - m.dp(72), top, column[0] - m.dp(16), bottom))]


def _opener(activity: str, intent: Intent | None) -> list[Opening] | None:
    """SENDTO/VIEW `sms:`/`smsto:` NUMBER opens the thread with NUMBER (`sms_body` in the box)."""
    if intent is None or not intent.data or ":" not in intent.data:
        return None
    scheme, _, rest = intent.data.partition(":")
    address = rest.split("?", 1)[0].strip("/")
    if scheme.lower() not in ("sms", "smsto", "mms", "mmsto") or not address:
        return None
    body = intent.extras.get("sms_body", "")
    return [Opening("main"), Opening("thread", {"address": address}, focus="message",
                                     drafts={"message": body} if body else {})]


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_main), "thread": Screen(_thread, ".activities.ThreadActivity"),
     "new": Screen(_new, ".activities.NewConversationActivity"), "main_menu": Screen(_main_menu),
     "thread_menu": Screen(_thread_menu, ".activities.ThreadActivity"),
     "delete": Screen(_confirm_delete, ".activities.ThreadActivity")},
    first="main", opener=_opener))
