"""The app registry: every app model by AndroidWorld's lowercase name or an alias."""
from __future__ import annotations

import dataclasses
import sys

from taskkit.apps import (audio_recorder, broccoli, calculator, calendar, camera, chrome, clipper, clock, contacts,
                          dialer, expense, files, joplin, markor, opentracks, osmand, retro_music, settings, simple_draw_pro,
                          simple_gallery_pro, sms, tasks_org, vlc, wikipedia)
from taskkit.apps.base import App

__all__ = ["App", "all_apps", "first_run_databases", "get", "register"]

_APPS: tuple[App, ...] = (
    audio_recorder.APP,
    broccoli.APP,
    calculator.APP,
    calendar.APP,
    camera.APP,
    chrome.APP,
    clipper.APP,
    clock.APP,
    contacts.APP,
    dialer.APP,
    expense.APP,
    files.APP,
    joplin.APP,
    markor.APP,
    opentracks.APP,
    osmand.APP,
    retro_music.APP,
    settings.APP,
    simple_draw_pro.APP,
    simple_gallery_pro.APP,
    sms.APP,
    tasks_org.APP,
    vlc.APP,
    wikipedia.APP,
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
        raise KeyError(f"unknown app {name!r}; known apps: {known} (an app of your own is registered by "
                       "taskkit.apps.register in a module you load, e.g. with --task_module)") from None


def all_apps() -> list[App]:
    """Every registered app, in name order."""
    return sorted(_APPS, key=lambda app: app.name)


def first_run_databases() -> dict[str, str]:
    """Device path -> DDL of every registered app's first-run databases (what a fresh simulated
    device is built with)."""
    return {path: ddl for app in all_apps() for path, ddl in app.first_run_databases().items()}


def register(app: App) -> App:
    """Add an app model defined outside `apps/` (a user's package, `examples/`); returns it.

    Registering again an app with the same name and package (its module imported twice)
    replaces it; a name or alias another app already has raises ValueError. The app records
    the module that registered it (unless it names one), so a fresh process can import it.
    """
    global _APPS, _BY_NAME
    if not app.module:
        app = dataclasses.replace(app, module=sys._getframe(1).f_globals.get("__name__", ""))
    others = tuple(a for a in _APPS if not (a.name == app.name and a.package == app.package))
    _BY_NAME = _index(others + (app,))
    _APPS = others + (app,)
    return app
