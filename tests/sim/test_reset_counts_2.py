"""What a reset costs, counted, second pass (issue #37: cheaper resets): `pm clear` recreates an
app's first-run databases from bytes built once per process, not by executing their DDL again,
and empties the standard folders where they stand, leaving the very tree it left before; an
incremental restore point is deleted where it stands once restored."""
from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

import pytest

from taskkit import apps
from taskkit.device import catalog, state
from taskkit.device.state import state_digest
from taskkit.sim import commands as sim_commands, databases, packages, providers, sqlite_sandbox, storage
from taskkit.sim.commands import activity
from taskkit.sim.device import SimDevice
from taskkit.sim.state import SimState

# A provider (its databases: taskkit.sim.providers), an app whose first-run database is in its
# device-encrypted storage, one whose database is outside the standard folders, one with none.
CLEARED = ("com.android.providers.contacts", "com.google.android.deskclock", "org.videolan.vlc",
           "com.google.android.calculator")


@pytest.fixture
def device(module_device: SimDevice) -> SimDevice:
    """The module's one simulated device (tests/conftest.py)."""
    return module_device


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The databases the simulator opens with SQLite from now on."""
    opened: list[str] = []
    connect_ = sqlite_sandbox.connect

    def counting(sim: SimState, name: str | os.PathLike[str], **options: object) -> sqlite_sandbox.DeviceConnection:
        opened.append(os.fspath(name))
        return connect_(sim, name, **options)

    monkeypatch.setattr(sqlite_sandbox, "connect", counting)
    return opened


class _Unkept(dict):
    """A build cache that keeps nothing: every database is built by executing its DDL."""

    def __setitem__(self, key: str, value: bytes) -> None:
        pass


def test_a_copied_first_run_database_equals_a_fresh_build(device: SimDevice, monkeypatch: pytest.MonkeyPatch,
                                                            connects: list[str]) -> None:
    ddls = dict.fromkeys({**databases.DATABASES, **providers.DATABASES, **apps.first_run_databases()}.values())
    monkeypatch.setattr(databases, "_BUILT", {})
    device.check("mkdir -p /data/local/tmp/counts2")
    for n, ddl in enumerate(ddls):
        fresh = databases.create_database(device.state, f"/data/local/tmp/counts2/fresh{n}.db", ddl).read_bytes()
        built = len(connects)
        copy = databases.create_database(device.state, f"/data/local/tmp/counts2/sub/copy{n}.db", ddl).read_bytes()
        assert len(connects) == built  # copied: no SQLite
        assert copy == fresh, f"DDL {n} copies differently"
    assert len(connects) == len(ddls) == len(databases._BUILT)  # each DDL executed once


def test_a_database_is_recreated_without_a_stale_journal_and_never_torn(device: SimDevice) -> None:
    path, ddl = "/data/local/tmp/counts2/stale/x.db", "CREATE TABLE t (a INTEGER);"
    host = databases.create_database(device.state, path, ddl)
    for suffix in ("-journal", "-wal", "-shm"):  # left by an app killed mid-transaction
        Path(f"{host}{suffix}").write_bytes(b"stale")
    assert databases.create_database(device.state, path, ddl) == host
    assert sorted(os.listdir(host.parent)) == ["x.db"]
    storage.of(device.state).resync()
    used = storage.of(device.state).used - host.stat().st_size  # once the old file is gone
    try:
        storage.set_quota(device.state, used + 100)  # room for less than the file's bytes
        with pytest.raises(OSError, match="No space left on device"):
            databases.create_database(device.state, path, ddl)
    finally:
        storage.set_quota(device.state, None)
    assert os.listdir(host.parent) == []  # the old file is gone, and no torn new one is there


def test_pm_clear_executes_no_ddl_after_the_first_time(device: SimDevice, connects: list[str]) -> None:
    for package in CLEARED:
        device.check(f"pm clear {package}")
    del connects[:]
    for package in CLEARED:
        assert device.check(f"pm clear {package}") == "Success\n"
    assert connects == []
    assert device.check("sqlite3 /data/data/com.android.providers.contacts/databases/contacts2.db "
                        "'SELECT count(*) FROM raw_contacts'") == "0\n"


# Something in every kind of place a cleared package's folders can hold it.
_MESS = ("mkdir -p {d}/files/a/b {d}/cache/x {d}/extra/y {d}/databases {u} && echo 1 > {d}/files/a/b/f && "
         "echo 2 > {d}/shared_prefs/p.xml; echo 3 > {d}/extra/y/z && : > {d}/databases/old.db-journal && "
         ": > {d}/top && echo 4 > {u}/de")


def _make_mess(device: SimDevice, package: catalog.Package) -> None:
    device.check(_MESS.format(d=package.data_dir, u=package.de_data_dir))
    root = device.state.host_path(package.data_dir)
    (root / "files" / "link").symlink_to("../..")  # (the simulated toybox has no `ln`)
    (root / "lnk").symlink_to("files")


def _clear_as_before(state: SimState, package: catalog.Package) -> None:
    """`pm clear` before it was made cheaper (the oracle): remove every entry of the package's
    folders, make the standard ones again, execute each database's DDL, stamp the whole tree."""
    activity.stop_package(state, package.name)
    for device_dir in (package.data_dir, package.de_data_dir):
        root = state.host_path(device_dir)
        for child in root.iterdir() if root.is_dir() else ():
            if not child.is_symlink() and child.is_dir():
                shutil.rmtree(child)
            else:
                child.unlink()
    packages.create_data_dirs(state, package)
    providers.reset_package_data(state, package.name)
    databases.create_package_databases(state, package.name)
    t = state.clock_epoch
    for device_dir in (package.data_dir, package.de_data_dir):
        for dirpath, dirnames, filenames in os.walk(state.host_path(device_dir)):
            for path in [dirpath, *(os.path.join(dirpath, name) for name in dirnames + filenames)]:
                os.utime(path, (t, t), follow_symlinks=False)


def _tree(device: SimDevice, package: catalog.Package) -> list[tuple]:
    """Every path in the package's folders: its name, mode, mtime and content."""
    rows = []
    for device_dir in (package.data_dir, package.de_data_dir, "/data/data", "/data/user_de/0"):
        root = device.state.host_path(device_dir)
        top = os.lstat(root)
        rows.append((device_dir, top.st_mode, top.st_mtime_ns))
        if device_dir.count("/") < 3:
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            for name in sorted(dirnames + filenames):
                path = Path(dirpath, name)
                st = os.lstat(path)
                content = hashlib.md5(path.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else None
                rows.append((str(path.relative_to(root)), st.st_mode, st.st_mtime_ns, content))
    return rows


@pytest.mark.parametrize("name", CLEARED)
def test_pm_clear_leaves_what_it_left_before(device: SimDevice, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    package = catalog.get(name)
    assert package is not None
    _make_mess(device, package)
    with monkeypatch.context() as patch:
        patch.setattr(databases, "_BUILT", _Unkept())
        _clear_as_before(device.state, package)
    before = (_tree(device, package), state_digest(device), device.state.config["foreground"])
    _make_mess(device, package)
    assert device.check(f"pm clear {name}") == "Success\n"
    assert (_tree(device, package), state_digest(device), device.state.config["foreground"]) == before


@pytest.fixture
def commands_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The simulated commands run from now on (their first two words)."""
    run: list[str] = []
    call = sim_commands.call

    def counting(sim: SimState, argv: list[str], *args: object, **kwargs: object) -> int | None:
        run.append(" ".join(argv[:2]))
        return call(sim, argv, *args, **kwargs)

    monkeypatch.setattr(sim_commands, "call", counting)
    return run


def test_an_incremental_restore_is_three_commands_and_retires_its_point_in_one(device: SimDevice,
                                                                              commands_run: list[str]) -> None:
    before = state.listing(device)
    point = state.save_restore_point(device, "counts2.1", ("/data/data/com.android.settings",),
                                     ("com.android.settings",), state.DIGEST_ROOTS, incremental=True)
    device.check("settings put global wifi_on 0 && echo x > /sdcard/Download/counts2")
    del commands_run[:]
    state.restore(device, point)
    # the check, the force-stop, then the recorder's undo, the undo marker, the journal dropped and
    # the folder (which holds no saved copy) in one command (before: four, and before that seven)
    assert commands_run == ["taskkit-changes check-point", "am force-stop", "taskkit-changes restore-point"]
    assert state.listing(device) == before and state.pending_restore_points(device) == []
