"""The factory image: filesystem, settings, properties, clock, first-run app databases."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from taskkit.sim import databases, image
from taskkit.device.reference import DEVICE_EPOCH
from taskkit.sim.state import SETTINGS_DB, SimState

SHARED = ("Alarms", "Audiobooks", "DCIM", "Documents", "Download", "Movies", "Music",
          "Notifications", "Pictures", "Podcasts", "Recordings", "Ringtones", "Android")

# A toy app's first-run database: the image takes app schemas from the app models, so the
# simulator's own tests use one of their own.
TOY_DB = "/data/data/org.example.toy/databases/toy.db"
TOY_DDL = ("CREATE TABLE items (item_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, qty INTEGER NOT NULL);"
           "CREATE TABLE kinds (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO kinds VALUES (1, 'Regular');")
TOY_COLUMNS = {"item_id", "name", "qty"}

REQUIRED_SETTINGS = {
    "global": {"airplane_mode_on": "0", "wifi_on": "1", "bluetooth_on": "0", "auto_time": "0",
               "auto_time_zone": "0", "heads_up_notifications_enabled": "1", "adb_enabled": "1",
               "device_provisioned": "1", "development_settings_enabled": "1"},
    "system": {"screen_brightness": "102", "screen_brightness_mode": "0", "time_12_24": "24",
               "font_scale": "1.0", "accelerometer_rotation": "0", "user_rotation": "0"},
    "secure": {"ui_night_mode": "1", "location_mode": "3",
               "sms_default_application": "com.simplemobiletools.smsmessenger"},
}
REQUIRED_PROPS = {"ro.build.version.sdk": "33", "ro.build.version.release": "13",
                  "ro.product.model": "sdk_gphone64_x86_64", "ro.product.device": "emu64x",
                  "ro.build.type": "userdebug", "ro.debuggable": "1", "persist.sys.timezone": "UTC"}


@pytest.fixture
def hooks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the provider and package hooks instead of running them."""
    from taskkit.sim import packages, providers

    calls: list[str] = []
    monkeypatch.setattr(providers, "create_databases", lambda state: calls.append("providers"))
    monkeypatch.setattr(packages, "install_all", lambda state: calls.append("packages"))
    return calls


@pytest.fixture
def state(tmp_path: Path, hooks: list[str]) -> SimState:
    sim = SimState(tmp_path / "dev")
    image.build(sim, {TOY_DB: TOY_DDL})
    return sim


def _table(state: SimState, device_path: str, sql: str, args: tuple = ()) -> list[tuple]:
    con = sqlite3.connect(state.host_path(device_path))
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def test_filesystem_skeleton(state: SimState) -> None:
    for path in ("/data/data", "/data/local/tmp", "/data/system/users/0", "/data/media/0"):
        assert state.host_path(path).is_dir(), path
    for name in SHARED:
        assert state.host_path(f"/sdcard/{name}").is_dir(), name
    assert sorted(p.name for p in state.host_path("/sdcard").iterdir()) == sorted(SHARED)


def test_symlinks_resolve_inside_the_state_dir(state: SimState) -> None:
    fs = state.fs_root.resolve()
    for link in image.SYMLINKS:
        host = state.fs_root / link.lstrip("/")
        assert host.is_symlink(), link
        assert host.resolve().is_dir() and host.resolve().is_relative_to(fs), link
    assert (state.fs_root / "sdcard").resolve() == state.host_path("/data/media/0").resolve()


def test_settings_database_schema_and_defaults(state: SimState) -> None:
    for ns, required in REQUIRED_SETTINGS.items():
        columns = _table(state, SETTINGS_DB, f"PRAGMA table_info({ns})")
        assert [(c[1], c[2], c[5]) for c in columns] == [("name", "TEXT", 1), ("value", "TEXT", 0)]
        stored = dict(_table(state, SETTINGS_DB, f"SELECT name, value FROM {ns}"))
        assert required.items() <= stored.items(), ns
    android_id = dict(_table(state, SETTINGS_DB, "SELECT name, value FROM secure"))["android_id"]
    assert len(android_id) == 16 and int(android_id, 16) >= 0


def test_props_clock_and_config_are_saved(state: SimState) -> None:
    saved = json.loads((state.root / "device.json").read_text())
    assert saved["clock_epoch"] == DEVICE_EPOCH
    assert REQUIRED_PROPS.items() <= saved["props"].items()
    assert saved["props"]["ro.serialno"]
    assert SimState(state.root).clock_epoch == DEVICE_EPOCH
    assert state.logcat_path.read_text() == ""


def test_hooks_run_after_the_base_image(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from taskkit.sim import packages, providers

    seen: list[tuple[str, bool]] = []
    settings_db = lambda s: s.host_path(SETTINGS_DB).exists()  # noqa: E731
    monkeypatch.setattr(providers, "create_databases", lambda s: seen.append(("providers", settings_db(s))))
    monkeypatch.setattr(packages, "install_all", lambda s: seen.append(("packages", settings_db(s))))
    image.build(SimState(tmp_path))
    assert seen == [("providers", True), ("packages", True)]


def test_app_databases_come_from_the_app_models(state: SimState) -> None:
    columns = {c[1]: c for c in _table(state, TOY_DB, "PRAGMA table_info(items)")}
    assert set(columns) == TOY_COLUMNS
    assert columns["item_id"][5] == 1  # the primary key
    assert _table(state, TOY_DB, "SELECT id, title FROM kinds") == [(1, "Regular")]  # seed rows
    assert json.loads((state.root / databases.APP_DATABASES).read_text()) == {TOY_DB: TOY_DDL}
    assert "app_databases" not in json.loads((state.root / "device.json").read_text())  # (12 KB a save, before)


def test_app_tables_assign_ids_and_enforce_not_null(state: SimState) -> None:
    con = sqlite3.connect(state.host_path(TOY_DB))
    try:
        con.execute("INSERT INTO items (name, qty) VALUES ('Lunch', 2)")
        assert con.execute("SELECT item_id FROM items").fetchall() == [(1,)]
        with pytest.raises(sqlite3.IntegrityError):
            con.execute("INSERT INTO items (name) VALUES ('no qty')")
    finally:
        con.close()


def test_an_existing_device_gets_a_new_apps_databases(state: SimState) -> None:
    other_db, other_ddl = "/data/data/org.example.other/databases/o.db", "CREATE TABLE o (id INTEGER PRIMARY KEY);"
    assert databases.install_app_databases(state, {TOY_DB: TOY_DDL, other_db: other_ddl}) == [other_db]
    assert _table(state, other_db, "SELECT count(*) FROM o") == [(0,)]
    assert databases.install_app_databases(state, {other_db: other_ddl}) == []  # already there
    assert set(databases.recorded_app_databases(SimState(state.root))) == {TOY_DB, other_db}


def test_a_device_stored_with_its_app_databases_in_device_json_keeps_them_and_moves_them(state: SimState) -> None:
    (state.root / databases.APP_DATABASES).unlink()  # as a device built before app_databases.json
    old = SimState(state.root)
    old.config["app_databases"] = {TOY_DB: TOY_DDL}
    old.save()
    assert TOY_DB in databases.first_run_databases(SimState(state.root))  # read where it was
    other_db, other_ddl = "/data/data/org.example.other/databases/o.db", "CREATE TABLE o (id INTEGER PRIMARY KEY);"
    moved = SimState(state.root)
    assert databases.install_app_databases(moved, {other_db: other_ddl}) == [other_db]
    assert json.loads((state.root / databases.APP_DATABASES).read_text()) == {TOY_DB: TOY_DDL, other_db: other_ddl}
    assert "app_databases" not in json.loads((state.root / "device.json").read_text())


def test_every_path_has_the_clock_as_mtime(tmp_path: Path) -> None:
    state = SimState(tmp_path)
    image.build(state)  # with the real provider and package hooks
    stamps = {}
    for dirpath, dirnames, filenames in os.walk(state.fs_root):
        for name in dirnames + filenames + ["."]:
            path = os.path.join(dirpath, name)
            stamps[path] = int(os.lstat(path).st_mtime)
    assert len(stamps) > 30
    assert set(stamps.values()) == {DEVICE_EPOCH}
    assert int(state.logcat_path.stat().st_mtime) == DEVICE_EPOCH


def _fingerprint(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): (os.readlink(p).encode() if p.is_symlink() else p.read_bytes())
            for p in sorted(root.rglob("*")) if p.is_symlink() or p.is_file()}


def test_build_is_deterministic(tmp_path: Path, hooks: list[str]) -> None:
    first, second = SimState(tmp_path / "a"), SimState(tmp_path / "b")
    image.build(first)
    image.build(second)
    assert _fingerprint(first.root) == _fingerprint(second.root)


def test_rebuild_replaces_the_previous_device(state: SimState, hooks: list[str]) -> None:
    stray = state.host_path("/sdcard/Download/old.txt")
    stray.write_text("left over")
    state.set_clock(1)
    image.build(state)
    assert not stray.exists()
    assert state.clock_epoch == DEVICE_EPOCH
    assert hooks == ["providers", "packages"] * 2


def test_package_databases_can_be_recreated(state: SimState) -> None:
    con = sqlite3.connect(state.host_path(TOY_DB))
    con.execute("DROP TABLE items")
    con.commit()
    con.close()
    state.set_clock(1_700_000_000)
    assert databases.create_package_databases(state, "org.example.toy") == [TOY_DB]
    assert {c[1] for c in _table(state, TOY_DB, "PRAGMA table_info(items)")} == TOY_COLUMNS
    assert int(state.host_path(TOY_DB).stat().st_mtime) == 1_700_000_000
    assert databases.create_package_databases(state, "com.example.none") == []
