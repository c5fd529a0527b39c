"""The views issue #35's recall table named missing on Simple Calendar's and Simple SMS Messenger's
screens, where their layouts put them and doing what the apps do: Simple-Commons' search menu
nesting, the calendar's event rows, selection, event menu and dialogs, the SMS thread's date
separators and menu, and the new conversation's suggestions and letter scroller. Each screen is
also audited: what its dump names is drawn (taskkit.sim.gui.audit)."""
from __future__ import annotations

from taskkit.apps import calendar, contacts, sms
from taskkit.rng import TaskRng
from taskkit.sim.gui import audit
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.screen import build
from taskkit.sim.gui.session import Session
from tests.sim.gui.helpers import find, tap, texts

CALENDAR = "am start -n com.simplemobiletools.calendar.pro/.activities.MainActivity"
SMS = "am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity"


def _tree(device) -> Node:
    return build(Session(device.state)).window


def _ids(device) -> list[str]:
    """The ids of every node of the screen (the dump's containers too), in document order."""
    return [node.resource_id.rpartition(":id/")[2] for node in _tree(device).walk() if node.resource_id]


def _drawn(device) -> None:
    assert audit.audit(build(Session(device.state), drawn=True), 1080, 2400) == []


def _path(root: Node, rid: str) -> list[str]:
    """The app's ids of the ancestors of the node with id `rid`, outermost first, and its own."""
    def walk(node: Node, above: list[str]) -> list[str] | None:
        mine = node.resource_id and not node.resource_id.startswith("android:")
        here = above + [node.resource_id.rpartition(":id/")[2]] if mine else above
        if node.resource_id.endswith(f":id/{rid}"):
            return here
        return next((found for child in node.children if (found := walk(child, here)) is not None), None)
    found = walk(root, [])
    assert found is not None, f"no {rid}"
    return found


def _event(device, day: int, title: str, description: str = "") -> None:
    calendar.EVENTS.insert(device, [{**calendar.random_event(TaskRng(day), day=day, hour=10, title=title),
                                     "description": description}])


def test_the_search_menu_nests_as_menu_search_xml_and_its_icon_opens_and_closes_the_search(device) -> None:
    device.check(SMS)
    assert _path(_tree(device), "top_toolbar_search") == ["main_menu", "top_app_bar_layout", "top_toolbar_holder",
                                                          "top_toolbar_search"]
    assert _path(_tree(device), "settings")[:4] == ["main_menu", "top_app_bar_layout", "top_toolbar_holder", "top_toolbar"]
    containers = {"main_menu", "top_app_bar_layout", "top_toolbar_holder", "top_toolbar"}
    assert not any(node.clickable for node in _tree(device).walk()
                   if node.resource_id.rpartition(":id/")[2] in containers)  # containers take no touch
    tap(device, "top_toolbar_search_icon")
    assert find(device, "top_toolbar_search").is_focused
    device.check("input text Jo")
    tap(device, "top_toolbar_search_icon")  # open: closeSearch clears the text
    field = find(device, "top_toolbar_search")
    assert field.text == "Search" and not field.is_focused
    _drawn(device)


def test_the_month_view_at_today_shows_settings_on_the_bar_and_not_in_the_overflow(device) -> None:
    device.check(CALENDAR)
    shown = _ids(device)
    assert "settings" in shown and "go_to_today" not in shown
    assert {"swipe_refresh_layout", "fragment_months_viewpager"} <= set(shown)
    assert _path(_tree(device), "month_calendar_holder")[-3:] == ["swipe_refresh_layout", "fragment_months_viewpager",
                                                                   "month_calendar_holder"]
    tap(device, "More options")
    assert "Settings" not in texts(device) and "About" in texts(device)
    device.check("input keyevent KEYCODE_BACK")
    tap(device, "top_right_arrow")  # away from today: Go to today takes the slot, Settings the overflow
    assert "go_to_today" in _ids(device) and "settings" not in _ids(device)
    tap(device, "More options")
    assert "Settings" in texts(device)


def test_a_days_rows_show_their_colour_bar_and_description_and_a_selection_shares_and_keeps_the_day(device) -> None:
    _event(device, 15, "Standup", "Daily sync\nroom 4")
    _event(device, 15, "Lunch")
    device.check(CALENDAR)
    tap(device, "Change view")
    tap(device, "Daily view")
    assert "fragment_days_viewpager" in _ids(device)
    assert find(device, "Daily sync room 4").resource_name.endswith(":id/event_item_description")
    assert _ids(device).count("event_item_color_bar") == 2 and _ids(device).count("event_item_description") == 1
    _drawn(device)
    element = find(device, "Standup")
    device.check(f"input swipe {element.bbox.center[0]} {element.bbox.center[1]} "
                 f"{element.bbox.center[0]} {element.bbox.center[1]} 600")
    shown = _ids(device)
    assert {"cab_share", "cab_delete", "actionbar_title", "fragment_days_viewpager", "calendar_fab"} <= set(shown)
    # the action mode's bar lies over the search menu, which Android's dump still lists
    assert shown.index("top_toolbar_search") < shown.index("cab_delete")
    _drawn(device)  # the menu is wholly under the bar, as its covered_by_design mark says
    tap(device, "top_toolbar_search_icon")  # the bar's close button on top takes the tap: the selection ends
    assert "actionbar_title" not in _ids(device) and not find(device, "top_toolbar_search").is_focused


def test_duplicate_opens_a_new_event_filled_in_and_save_adds_a_second_row(device) -> None:
    _event(device, 16, "Review", "Quarterly numbers")
    device.check(CALENDAR)
    tap(device, "Change view")
    tap(device, "Simple event list")
    tap(device, "Review")
    shown = _ids(device)
    assert {"event_toolbar", "duplicate", "delete", "save", "event_show_on_map", "event_description_divider"} <= set(shown)
    _drawn(device)
    tap(device, "duplicate")
    assert "New Event" in texts(device) and "duplicate" not in _ids(device)
    assert find(device, "event_title").text == "Review"
    tap(device, "save")
    rows = [row for row in device.sqlite.query(calendar.DB_PATH, "SELECT * FROM events") if row["title"] == "Review"]
    assert len(rows) == 2 and {row["description"] for row in rows} == {"Quarterly numbers"}


def test_the_calendars_radio_dialogs_carry_their_holder_and_group(device) -> None:
    device.check(CALENDAR)
    tap(device, "Change view")
    assert _path(_tree(device), "dialog_radio_group")[-2:] == ["dialog_radio_holder", "dialog_radio_group"]
    _drawn(device)


def test_a_thread_separates_messages_by_time_and_its_delete_removes_the_conversation(device) -> None:
    sms.receive(device, "+12125550134", "Morning", date_ms=1697350000000)
    sms.receive(device, "+12125550134", "Still there?", date_ms=1697350100000)  # 100 s later: no separator
    sms.receive(device, "+12125550134", "Evening", date_ms=1697380000000)
    sms.receive(device, "+12125550111", "Other thread", date_ms=1697380000000)
    device.check(SMS)
    tap(device, "+12125550134")
    shown = _ids(device)
    assert shown.count("thread_date_time") == 2
    assert {"thread_messages_fastscroller", "delete", "dial_number", "manage_people"} <= set(shown)
    _drawn(device)
    tap(device, "delete")
    assert "Are you sure you want to delete all messages of this conversation?" in texts(device)
    tap(device, "Yes")
    assert [m["address"] for m in sms.messages(device, "inbox")] == ["+12125550111"]
    assert device.activity.foreground().endswith(".activities.MainActivity")


def test_a_new_conversation_suggests_the_contacts_last_written_with(device) -> None:
    contacts.add_contact(device, "Jane Doe", "+1 212-555-0134")
    contacts.add_contact(device, "Ann Lee", "+14155550100")
    sms.receive(device, "+12125550134", "Hi")
    sms.receive(device, "+12125550199", "From a number no contact has")
    device.check(SMS)
    tap(device, "conversations_fab")
    shown = _ids(device)
    assert shown.count("suggested_contact_holder") == 1  # Jane only: an unknown number is no suggestion
    assert {"suggestions_label", "add_contact_divider", "contacts_letter_fastscroller",
            "contacts_letter_fastscroller_thumb"} <= set(shown)
    assert shown.count("item_contact_image") == 2
    _drawn(device)
    tap(device, "suggested_contact_image")  # the card takes the tap
    assert device.activity.foreground().endswith("ThreadActivity") and "Jane Doe" in texts(device)
