"""Put a device config on a device through shell commands only (one path for a real phone, an
emulator and the simulated device), read it back, and restore the previous one.

What each field runs (Android 13; the device must be rooted for the locale, the time zone and
the launcher's layout — an emulator after `adb root`):

- size and density: `wm size WxH`, `wm density D` (WindowManagerShellCommand);
- font scale: `settings put system font_scale F` (Settings.System.FONT_SCALE);
- dark theme: `cmd uimode night yes|no` (UiModeManagerService's shell command);
- locale: `setprop persist.sys.locale TAG` then `setprop ctl.restart zygote` — the framework
  reads the locale from `persist.sys.locale` when it starts (AOSP core/jni/AndroidRuntime.cpp
  `readLocale`), so the restart applies it; only run when the locale changes;
- time zone and clock: `setprop persist.sys.timezone Z`, `settings put system time_12_24 24|12`;
- home screen: the launcher's own layout, the `favorites` table of Launcher3's launcher.db
  (rows on the desktop container -100, `itemType` 0 = an app, its launch intent), then the
  launcher is force-stopped so it reloads it;
- wallpaper: stock Android 13 has no shell command that sets one, so taskkit records it as
  `settings put secure taskkit_wallpaper NAME`; the simulated launcher draws it, a real phone
  keeps its wallpaper (docs/device-configs.md).

Before anything changes, the device's current values are written to RECORD on the device, so a
run killed half-way is put back by `recover` at the next start (like a restore point).
"""
from __future__ import annotations

import json
import re
from typing import Any

from taskkit.apps import all_apps
from taskkit.config import DeviceConfig
from taskkit.device.base import Device
from taskkit.device.quoting import shell_quote, sql_literal
from taskkit.errors import TaskkitError
from taskkit.rng import TaskRng

RECORD = "/data/local/tmp/taskkit/device_config_restore.json"
LAUNCHER = "com.google.android.apps.nexuslauncher"
LAUNCHER_DB = f"/data/data/{LAUNCHER}/databases/launcher.db"
DESKTOP, APPLICATION, COLUMNS = -100, 0, 4
_FAVORITES = ("CREATE TABLE IF NOT EXISTS favorites (_id INTEGER PRIMARY KEY, title TEXT, intent TEXT, "
              "container INTEGER, screen INTEGER, cellX INTEGER, cellY INTEGER, spanX INTEGER, spanY INTEGER, "
              "itemType INTEGER, profileId INTEGER DEFAULT 0, rank INTEGER NOT NULL DEFAULT 0)")
# One shell command reads every value a config sets, one line each (in this order).
_READ = ("wm size; wm density; settings get system font_scale; settings get secure ui_night_mode; "
         "getprop persist.sys.locale; getprop persist.sys.timezone; settings get system time_12_24; "
         "settings get secure taskkit_wallpaper")


class ConfigNotApplied(TaskkitError, RuntimeError):
    """A value read back after applying differs from the config's (the message names it)."""


def read(device: Device) -> dict[str, Any]:
    """The device's current values of every config field (raw, as the commands print them)."""
    out = device.check(_READ)
    size = re.search(r"Override size: (\d+x\d+)", out) or re.search(r"Physical size: (\d+x\d+)", out)
    density = re.search(r"Override density: (\d+)", out) or re.search(r"Physical density: (\d+)", out)
    lines = [line for line in out.splitlines() if not re.match(r"(Physical|Override) (size|density):", line)]
    lines += [""] * (6 - len(lines))
    return {"size": size.group(1) if size else "", "size_override": "Override size" in out,
            "density": int(density.group(1)) if density else 0, "density_override": "Override density" in out,
            "font_scale": lines[0], "night": lines[1], "locale": lines[2], "time_zone": lines[3],
            "time_12_24": lines[4], "wallpaper": lines[5]}


def _layout(config: DeviceConfig) -> list[str]:
    """The launch components on the home screen, in order: a seeded shuffle of the modeled
    apps, of which a seeded number (at least 4) are kept (B-MoCA moves and drops icons)."""
    components = sorted(app.component for app in all_apps())
    rng = TaskRng(config.icon_seed or 0)
    rng.shuffle(components)
    return components[:rng.randint(min(4, len(components)), len(components))]


def _favorites(config: DeviceConfig) -> str:
    rows = []
    for index, component in enumerate(_layout(config)):
        intent = f"#Intent;action=android.intent.action.MAIN;category=android.intent.category.LAUNCHER;component={component};end"
        rows.append(f"({index + 1}, {sql_literal(component.split('/')[0])}, {sql_literal(intent)}, {DESKTOP}, 0, "
                    f"{index % COLUMNS}, {index // COLUMNS}, 1, 1, {APPLICATION})")
    insert = ("INSERT INTO favorites (_id, title, intent, container, screen, cellX, cellY, spanX, spanY, itemType) "
              f"VALUES {', '.join(rows)};") if rows else ""
    return f"{_FAVORITES}; DELETE FROM favorites; {insert}"


def commands(config: DeviceConfig, current: dict[str, Any]) -> list[str]:
    """The shell commands that put `config` on a device whose values are `current`."""
    width, height = config.size
    run = [f"wm size {width}x{height}", f"wm density {int(config.density)}",
           f"settings put system font_scale {float(config.font_scale)}",
           f"cmd uimode night {'yes' if config.dark else 'no'}",
           f"setprop persist.sys.timezone {shell_quote(config.time_zone)}",
           f"settings put system time_12_24 {'24' if config.clock_24h else '12'}",
           f"settings put secure taskkit_wallpaper {shell_quote(config.wallpaper)}"]
    if config.icon_seed is not None:
        run += [f"mkdir -p {shell_quote(LAUNCHER_DB.rsplit('/', 1)[0])}",
                f"sqlite3 {shell_quote(LAUNCHER_DB)} {shell_quote(_favorites(config))}", f"am force-stop {LAUNCHER}"]
    # the image's own apps (B-MoCA's Wikipedia): installed for user 0 from the image; a device
    # whose image lacks one keeps going, and the tasks that need it say so
    run += [f"{{ pm install-existing {shell_quote(name)} >/dev/null 2>&1 || true; }}" for name in config.packages]
    if current.get("locale") != config.locale:
        run += locale_commands(config.locale)
    return run


def locale_commands(tag: str) -> list[str]:
    """Set the locale and restart the framework, then wait (up to a minute) until the settings
    service answers again."""
    return [f"setprop persist.sys.locale {shell_quote(tag)}", "setprop ctl.restart zygote",
            "i=0; while [ $i -lt 60 ]; do settings get system font_scale >/dev/null 2>&1 && break; "
            "sleep 1; i=$((i+1)); done"]


def verify(device: Device, config: DeviceConfig) -> None:
    """Read every value back; ConfigNotApplied names the first that differs."""
    now = read(device)
    width, height = config.size
    expected = {"size": f"{width}x{height}", "density": int(config.density), "night": "2" if config.dark else "1",
                "locale": config.locale, "time_zone": config.time_zone, "wallpaper": config.wallpaper,
                "time_12_24": "24" if config.clock_24h else "12"}
    for key, value in expected.items():
        if now[key] != value:
            raise ConfigNotApplied(f"device config {config.name!r}: {key} reads {now[key]!r} after applying, not {value!r}")
    if abs(float(now["font_scale"] or 0) - float(config.font_scale)) > 1e-6:
        raise ConfigNotApplied(f"device config {config.name!r}: font_scale reads {now['font_scale']!r}, not {config.font_scale}")


def apply(device: Device, config: DeviceConfig) -> dict[str, Any]:
    """Record the current values on the device, put `config` on it and verify it; returns the
    recorded values (what `restore` puts back). A record left by a killed run is kept: it holds
    the values from before that run, which are the ones to come back to."""
    if device.shell(f"test -f {shell_quote(RECORD)}").exit_code == 0:
        previous = json.loads(device.check(f"cat {shell_quote(RECORD)}"))
    else:
        previous = read(device)
        if config.icon_seed is not None:
            previous["favorites"] = device.check(f"sqlite3 {shell_quote(LAUNCHER_DB)} '.dump favorites' 2>/dev/null || true")
        previous["absent"] = [name for name in config.packages if not device.packages.is_installed(name)]
        device.files.write_text(RECORD, json.dumps(previous))
    device.check(" && ".join(commands(config, read(device))))
    verify(device, config)
    return previous


def restore(device: Device, previous: dict[str, Any] | None = None) -> bool:
    """Put back the values recorded before `apply` (from RECORD when not given), then drop the
    record; False when there was nothing to restore."""
    if previous is None:
        if device.shell(f"test -f {shell_quote(RECORD)}").exit_code != 0:
            return False
        previous = json.loads(device.check(f"cat {shell_quote(RECORD)}"))
    run = [f"wm size {shell_quote(previous['size'])}" if previous.get("size_override") else "wm size reset",
           f"wm density {int(previous['density'])}" if previous.get("density_override") else "wm density reset"]
    for namespace, key, value in (("system", "font_scale", previous.get("font_scale")),
                                  ("system", "time_12_24", previous.get("time_12_24")),
                                  ("secure", "taskkit_wallpaper", previous.get("wallpaper"))):
        run.append(f"settings put {namespace} {key} {shell_quote(value)}" if value and value != "null"
                   else f"settings delete {namespace} {key}")
    run.append(f"cmd uimode night {'yes' if previous.get('night') == '2' else 'no'}")
    if previous.get("time_zone"):
        run.append(f"setprop persist.sys.timezone {shell_quote(previous['time_zone'])}")
    if "favorites" in previous:  # the launcher's layout as it was (its table's .dump)
        run += [f"sqlite3 {shell_quote(LAUNCHER_DB)} {shell_quote('DROP TABLE IF EXISTS favorites; ' + previous['favorites'])}",
                f"am force-stop {LAUNCHER}"]
    run += [f"{{ pm uninstall -k --user 0 {shell_quote(name)} >/dev/null 2>&1 || true; }}"
            for name in previous.get("absent", ())]  # the apps the config installed, gone again
    if previous.get("locale") and read(device)["locale"] != previous["locale"]:
        run += locale_commands(previous["locale"])
    device.check(" && ".join(run) + f" && rm -f {shell_quote(RECORD)}")
    return True


def recover(device: Device) -> bool:
    """At a CLI's start: put back the config a killed run left applied (True if there was one)."""
    return restore(device)
