"""Android 13's runtime-permission dialog: PermissionController's GrantPermissionsActivity, shown
when an app calls `requestPermissions` for a permission it has not been granted.

Follows packages/modules/Permission at Android 13 (LineageOS/android_packages_modules_Permission,
branch lineage-20.0 = android-13.0.0_r*): PermissionController/res/layout/grant_permissions.xml
(`grant_dialog`, `permission_icon`, `permission_message`, the button list) and res/values/
strings.xml. For the microphone group (RECORD_AUDIO, a foreground-only group) it shows three
buttons: `permission_allow_foreground_only_button` "While using the app"
(grant_dialog_button_allow_foreground), `permission_allow_one_time_button` "Only this time"
(grant_dialog_button_allow_one_time) and `permission_deny_button` "Don’t allow"
(grant_dialog_button_deny, with a typographic apostrophe); the message is
permgrouprequest_microphone, "Allow <b>APP</b> to record audio?". Asked again after a denial, the deny button is `permission_deny_and_dont_ask_again_button`
(same label), and a second denial fixes it: later requests are denied without a dialog
(GrantPermissionsViewModel, Android 11+). The answers store what PermissionController stores:
While using the app grants with USER_SET, Only this time with USER_SET|ONE_TIME, Don't allow
revokes with USER_SET (USER_FIXED the second time); BACK cancels, changing nothing. The state is
the package manager's (`pm grant`, `dumpsys package`: taskkit/sim/commands/activity.py).

Ids are in PermissionController's resource package (`com.android.permissioncontroller:id/…`), its
nodes in the package Google's builds install it as (`com.google.android.permissioncontroller`).
Simplified: the dialog is a screen of the requesting app's window stack, so the activity in front
stays the app's (on Android it is GrantPermissionsActivity, in the app's task); a one-time grant
is not revoked when the app leaves the screen; the labels stay English under other locales.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from taskkit.sim.commands.activity import Grant, permission, set_permission
from taskkit.sim.gui import widgets
from taskkit.sim.gui.app import Frame, Screen
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source

#: The dialog's resources, as taskkit.fidelity.table reads them (no versionCode: the emulator
#: image's own PermissionController, not an APK AndroidWorld installs).
SOURCE = Source("LineageOS/android_packages_modules_Permission", "lineage-20.0", res="PermissionController/res")
PACKAGE = "com.google.android.permissioncontroller"
ACTIVITY = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"
ID = "com.android.permissioncontroller:id/"
SCREEN = "grant_permissions"
DENY = "Don\u2019t allow"  # grant_dialog_button_deny, with its typographic apostrophe
#: permission -> the dialog's question (PermissionController's permgrouprequest_* of its group).
_QUESTIONS = {"android.permission.RECORD_AUDIO": "Allow {app} to record audio?"}
_PANEL = (255, 255, 255)

#: What the requesting app does with the answer (its onRequestPermissionsResult), by package.
OnResult = Callable[[Session, str, bool], None]
_RESULTS: dict[str, OnResult] = {}


def screen(package: str, on_result: OnResult) -> Screen:
    """The dialog as a screen of `package` (register it as `SCREEN`); `on_result(ui, permission,
    granted)` runs after an answer, with the dialog closed."""
    _RESULTS[package] = on_result
    return Screen(_dialog)


def check(ui: Session, name: str, app_label: str) -> bool:
    """Activity.checkSelfPermission, then requestPermissions when it is not granted: True if the
    app in front holds `name`; else False, with the dialog opened unless the user fixed a denial."""
    package = ui.foreground()[0]
    grant = permission(ui.state, package, name)
    if grant.granted:
        return True
    if "USER_FIXED" not in grant.flags:
        ui.push(SCREEN, permission=name, app=app_label, again="USER_SET" in grant.flags)
    return False


def _answer(frame: Frame, granted: bool, flags: frozenset[str]):
    def act(ui: Session) -> None:
        package, name = ui.foreground()[0], str(frame.args["permission"])
        set_permission(ui.state, package, name, Grant(granted, flags))
        ui.finish()
        _RESULTS[package](ui, name, granted)
    return act


def _dialog(ui: Session, frame: Frame) -> list[Node]:
    """grant_permissions.xml: the icon and message over the buttons, stacked full width."""
    m = ui.m
    again = bool(frame.args.get("again"))
    buttons = [("permission_allow_foreground_only_button", "While using the app",
                _answer(frame, True, frozenset({"USER_SET"}))),
               ("permission_allow_one_time_button", "Only this time",
                _answer(frame, True, frozenset({"USER_SET", "ONE_TIME"}))),
               ("permission_deny_and_dont_ask_again_button" if again else "permission_deny_button", DENY,
                _answer(frame, False, frozenset({"USER_SET", "USER_FIXED"} if again else {"USER_SET"})))]
    left, right = m.dp(24), m.width - m.dp(24)
    height = m.dp(24 + 36 + 16 + 64 + 24 + 48 * len(buttons) + 8 * (len(buttons) - 1) + 24)
    top = (m.height - height) // 2
    y = top + m.dp(24)
    icon = widgets.icon_button(ui, ((m.width - m.dp(36)) // 2, y, (m.width + m.dp(36)) // 2, y + m.dp(36)), "",
                               None, f"{ID}permission_icon", class_name="android.widget.ImageView")
    y += m.dp(36 + 16)
    question = _QUESTIONS.get(str(frame.args["permission"]), "Allow {app} to use this permission?")
    message = widgets.text(ui, (left + m.dp(24), y, right - m.dp(24), y + m.dp(64)),
                           question.format(app=frame.args["app"]), f"{ID}permission_message", size_dp=20)
    content = Node("android.widget.LinearLayout", resource_id=f"{ID}content_container",
                   bounds=(left, top, right, y + m.dp(64)), children=[icon, message])
    y += m.dp(64 + 24)
    rows = []
    for rid, label, action in buttons:
        box = (left + m.dp(24), y, right - m.dp(24), y + m.dp(48))
        rows.append(widgets.button(ui, box, label, action, f"{ID}{rid}"))
        y += m.dp(48 + 8)
    bar = Node("android.widget.LinearLayout", bounds=(left, rows[0].bounds[1], right, rows[-1].bounds[3]),
               children=rows)
    dialog = Node("android.widget.LinearLayout", resource_id=f"{ID}grant_dialog",
                  bounds=(left, top, right, top + height), background=_PANEL, children=[content, bar])
    singleton = Node("android.widget.LinearLayout", resource_id=f"{ID}grant_singleton",
                     bounds=(0, 0, m.width, m.height), children=[dialog])
    return [_in_package(Node("android.widget.ScrollView", bounds=singleton.bounds, children=[singleton]))]


def _in_package(node: Node) -> Node:
    """`node` and its children as PermissionController's views."""
    return dataclasses.replace(node, package=PACKAGE, children=[_in_package(c) for c in node.children])
