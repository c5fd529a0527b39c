"""The app registry: every app model by AndroidWorld's lowercase name or an alias."""
from __future__ import annotations

from apps import calendar, contacts, expense, files, markor, settings, sms
from apps.base import App

__all__ = ["App", "all_apps", "get"]

_APPS: tuple[App, ...] = (
    calendar.APP,
    contacts.APP,
    expense.APP,
    files.APP,
    markor.APP,
    settings.APP,
    sms.APP,
)


def _index(apps: tuple[App, ...]) -> dict[str, App]:
    index: dict[str, App] = {}
    for app in apps:
        for key in (app.name, *app.aliases):
            key = key.lower()
            if key in index and index[key] is not app:
                raise ValueError(f"app name {key!r} is claimed by both {index[key].name!r} and {app.name!r}")
            index[key] = app
    return index


_BY_NAME = _index(_APPS)


def get(name: str) -> App:
    """The app called `name` (case-insensitive; AndroidWorld names and aliases)."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise KeyError(f"unknown app {name!r}; known apps: {known}") from None


def all_apps() -> list[App]:
    """Every registered app, in name order."""
    return sorted(_APPS, key=lambda app: app.name)
