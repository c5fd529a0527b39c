"""apps: the registry finds every app by its AndroidWorld name or an alias."""
from __future__ import annotations

import pytest

from taskkit import apps
from taskkit.apps.base import App


@pytest.mark.parametrize(
    "name, package",
    [
        ("simple calendar pro", "com.simplemobiletools.calendar.pro"),
        ("Calendar", "com.simplemobiletools.calendar.pro"),
        ("simple calendar", "com.simplemobiletools.calendar.pro"),
        ("pro expense", "com.arduia.expense"),
        ("EXPENSE", "com.arduia.expense"),
        ("simple sms messenger", "com.simplemobiletools.smsmessenger"),
        ("sms", "com.simplemobiletools.smsmessenger"),
        ("simple sms", "com.simplemobiletools.smsmessenger"),
        ("messages", "com.simplemobiletools.smsmessenger"),
        ("contacts", "com.google.android.contacts"),
        ("markor", "net.gsantner.markor"),
        ("settings", "com.android.settings"),
        ("System", "com.android.settings"),
        ("files", "com.google.android.documentsui"),
        ("tasks", "org.tasks"),
        ("Tasks.org", "org.tasks"),
        ("open tracks sports tracker", "de.dennisguse.opentracks"),
        ("OpenTracks", "de.dennisguse.opentracks"),
        ("joplin", "net.cozic.joplin"),
        ("camera", "com.android.camera2"),
        ("clock", "com.google.android.deskclock"),
        ("dialer", "com.google.android.dialer"),
        ("Phone", "com.google.android.dialer"),
    ],
)
def test_get_by_name_or_alias(name, package):
    assert apps.get(name).package == package


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(KeyError) as info:
        apps.get("google chat")
    message = str(info.value)
    assert "google chat" in message and "simple calendar pro" in message and "markor" in message


def test_all_apps_are_distinct_apps_with_lowercase_names():
    listed = apps.all_apps()
    assert all(isinstance(app, App) for app in listed)
    assert len({app.package for app in listed}) == len(listed) == 24
    assert {"com.arduia.expense", "com.flauschcode.broccoli", "net.gsantner.markor"} <= {a.package for a in listed}
    assert all(app.name == app.name.lower() for app in listed)
    assert [app.name for app in listed] == sorted(app.name for app in listed)
    for app in listed:
        assert apps.get(app.name) is app
        assert all(apps.get(alias) is app for alias in app.aliases)


def test_app_data_paths_are_absolute_device_paths():
    for app in apps.all_apps():
        assert all(path.startswith("/") and not path.endswith("/") for path in app.data_paths), app.name
