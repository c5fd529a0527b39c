"""The simulated device never touches a host path outside its state directory.

Beside the state directory lies a canary directory: a secret text file, an SQLite database and a
shell script holding a secret, with access times older than their modification times (so that
reading or listing them shows). The canary is also the process's working directory (where
relative SQLite names land) and, while temporary-file forms run, SQLite's temp directory.
Symbolic links inside the device's filesystem point at it, absolutely and through long `..`
chains, as any command able to create links could leave them. Every SQL and shell form of path
access (the restore points' recorder verbs too) runs with every path form, as do pushes, pulls
and sync-service requests (a sample of 40 pairs used to leave most of them unrun); Hypothesis
generates the link layouts `host_path` must resolve. After every one, the canary and the
directory holding both must be exactly as before, and no output may show the secret.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import sqlite3
import stat
import urllib.parse
from pathlib import Path
from typing import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskkit.device.quoting import shell_join, shell_quote, sql_literal
from taskkit.device.state import MANIFEST, RESTORE_ROOT, UNDO_MARKER
from taskkit.sim.adbd import A_WRTE, AdbdServer, SyncFrame
from taskkit.sim.state import SimState
from tests.sim.test_adbd import RawHost

SECRET = "CANARY-SECRET-5d1e9b"
_PAST = 1_600_000_000 * 10**9  # canary times: atime one minute before mtime
TMP = "/data/local/tmp"
UP = "../" * 40
# Links planted inside the device's filesystem (device path -> target; {canary} and {canary_rel}
# are the canary's host path with and without its leading slash).
LINKS = {
    f"{TMP}/abs": "{canary}",
    f"{TMP}/rel": UP + "{canary_rel}",
    f"{TMP}/abs_secret": "{canary}/secret.txt",
    f"{TMP}/rel_db": UP + "{canary_rel}/secret.db",
    f"{TMP}/chain": "abs",
    f"{TMP}/loop": "loop",
    "/data/media/0/Download/out": "{canary}",
    f"{TMP}/main.db-journal": "{canary}/journal",
    f"{TMP}/main.db-wal": "{canary}/wal",
    # restore points (taskkit-changes save-point, restore-point) that are, or hold, links
    f"{RESTORE_ROOT}/abs.1": "{canary}",
    f"{RESTORE_ROOT}/rel.1": UP + "{canary_rel}",
    f"{RESTORE_ROOT}/mark.1/{UNDO_MARKER}": "{canary}/secret.txt",
    f"{RESTORE_ROOT}/mark.1/{MANIFEST}": "{canary}/secret.txt",
}
# Device paths that reach the canary if links or `..` are followed the host's way.
DEVICE_PATHS = [
    f"{TMP}/abs/secret.txt", f"{TMP}/rel/secret.txt", f"{TMP}/abs_secret", f"{TMP}/abs/new.txt",
    f"{TMP}/abs", f"{TMP}/abs/", f"{TMP}/rel/sub/new", f"{TMP}/rel_db", f"{TMP}/chain/script.sh",
    f"{TMP}/chain/secret.db", f"{TMP}/loop/x", "/sdcard/Download/out/secret.txt",
    "/storage/emulated/0/Download/out/new", "{canary}/secret.txt", "{canary}/new",
    UP + "{canary_rel}/script.sh", "{fs}/data/local/tmp/abs/secret.txt",
]
# SQLite file names: host paths as SQLite reads them (relative ones from the canary) and device paths.
SQL_PATHS = [
    "{canary}/secret.db", "{canary}/new.db", "secret.db", "new.db", "../new.db", UP + "{canary_rel}/new.db",
    f"{TMP}/abs/secret.db", f"{TMP}/rel/new.db", f"{TMP}/rel_db", f"{TMP}/chain/new.db", f"{TMP}/loop/x.db",
    "{fs}/data/local/tmp/abs/new.db", "{fs}/data/local/tmp/rel/secret.db", "{fs}/../../canary/new.db",
    f"{TMP}/main.db",
]


def _split_concat(path: str) -> str:
    half = len(path) // 2
    return f"({sql_literal(path[:half])} || {sql_literal(path[half:])})"


# How a file name appears in SQL: literals, URIs (with queries, escapes, an authority), expressions.
FILENAMES: dict[str, Callable[[str], str]] = {
    "literal": sql_literal,
    "uri": lambda p: sql_literal("file:" + p),
    "uri_rwc": lambda p: sql_literal(f"file:{p}?mode=rwc"),
    "uri_ro_shared": lambda p: sql_literal(f"file:{p}?mode=ro&cache=shared"),
    "uri_escaped": lambda p: sql_literal("file:" + urllib.parse.quote(p, safe="")),
    "uri_localhost": lambda p: sql_literal("file://localhost" + p if p.startswith("/") else "file:" + p),
    "uri_fragment": lambda p: sql_literal(f"file:{p}#x?mode=memory"),
    "concat": _split_concat,
    "uri_concat": lambda p: f"({sql_literal('file:')} || {sql_literal(p)})",
    "substr": lambda p: f"(substr({sql_literal('x' + p)}, 2))",
    "char": lambda p: "char(" + ",".join(str(ord(c)) for c in p) + ")",
}
STATEMENTS = [
    "ATTACH {F} AS x; SELECT * FROM x.t;",
    "VACUUM INTO {F};",
    "ATTACH DATABASE {F} AS x; CREATE TABLE x.pwn(a); INSERT INTO x.pwn VALUES (1);",
    "ATTACH {F} AS x; PRAGMA x.journal_mode = WAL; CREATE TABLE x.w(a);",
    "CREATE TABLE IF NOT EXISTS v(a); VACUUM main INTO {F};",
    "ATTACH {F} AS x; DETACH x; ATTACH {F} AS y; SELECT count(*) FROM y.sqlite_master;",
    "SELECT load_extension({F});",
]
# How the SQL reaches the device's sqlite3: argument, stdin, -cmd, on a database, over adbd.
SQL_RUNNERS: dict[str, Callable[[str], str]] = {
    "argument": lambda sql: shell_join(["sqlite3", ":memory:", sql]),
    "database": lambda sql: shell_join(["sqlite3", f"{TMP}/main.db", sql]),
    "stdin": lambda sql: f"printf '%s\\n' {shell_quote(sql)} | sqlite3 {TMP}/main.db",
    "cmd": lambda sql: shell_join(["sqlite3", "-cmd", sql, ":memory:", ".quit"]),
}
SHELL_FORMS = [
    "cat {P}", "echo pwned > {P}", "echo pwned >> {P}", "cat < {P}", "sh {P}", "head -n 3 {P}",
    "tail {P}", "wc {P}", "md5sum {P}", "sha256sum {P}", "grep -r CANARY {P}", "ls -la {P}",
    "ls -R {P}", "find {P}", "find -L {P} -type f -exec cat {{}} +", "stat {P}", "test -e {P} && echo yes",
    "cp {P} /data/local/tmp/copy", "cp -r {P} /data/local/tmp/copytree", "cp /data/local/tmp/src {P}",
    "mv /data/local/tmp/src {P}", "mv {P} /data/local/tmp/moved", "touch {P}", "touch -d 2001-01-01 {P}",
    "mkdir {P}", "mkdir -p {P}/sub", "rm {P}", "rm -rf {P}", "rmdir {P}", "tee {P} < /data/local/tmp/src",
    "cd {P} && ls -la && cat secret.txt", "date -r {P}", "screencap {P}", "echo {P}/*",
    "sqlite3 {P} 'SELECT * FROM t'", "sqlite3 {P} 'CREATE TABLE pwn(a)'",
    "sqlite3 file:{P}?mode=ro 'SELECT * FROM t'",
    "sqlite3 :memory: '.read {P}'", "sqlite3 :memory: '.output {P}' 'SELECT 1'",
    "sqlite3 :memory: '.once {P}' 'SELECT 1'", "sqlite3 :memory: '.open {P}' 'SELECT * FROM t'",
    "sqlite3 {TMP}/main.db '.backup {P}'", "sqlite3 :memory: '.restore {P}'",
    "sqlite3 :memory: '.import {P} t'", "sqlite3 :memory: '.save {P}'", "sqlite3 :memory: '.log {P}'",
    "sqlite3 :memory: '.shell cat {P}'", "sqlite3 :memory: '.system cat {P}'",
]
# The recorder's restore points (each form run with every path: a few, all of them checked): one
# watching a path that a link leads away, and ones that are, or hold, links (LINKS).
POINT_FORMS = [
    f"taskkit-changes save-point {RESTORE_ROOT}/p.1 '{{{{}}}}' {{P}}; echo pwned > {{P}}; rm -rf {{P}};"
    f" taskkit-changes restore-point {RESTORE_ROOT}/p.1",
    *(f"taskkit-changes {verb} {RESTORE_ROOT}/{name}" for verb in ("check-point", "restore-point")
      for name in ("abs.1", "rel.1", "mark.1")),
    *(f"taskkit-changes save-point {RESTORE_ROOT}/{name} '{{{{}}}}' {{P}}" for name in ("abs.1", "rel.1", "mark.1")),
]
SYNC_REQUESTS = [b"RECV", b"SEND", b"STAT", b"STA2", b"LST2", b"LIST", b"LIS2"]


# ================================================================================================
# The sandbox: a device, a canary beside it, a server on the same state
# ================================================================================================
def _entry(path: Path) -> tuple:
    """What an escape could change about one entry (read without touching its atime)."""
    info = os.lstat(path)
    digest = None
    if stat.S_ISREG(info.st_mode):
        fd = os.open(path, os.O_RDONLY | os.O_NOATIME)
        with os.fdopen(fd, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
    return (info.st_mode, info.st_size, info.st_mtime_ns, info.st_atime_ns, info.st_ctime_ns, digest)


def _tree(root: Path) -> dict[str, tuple]:
    """Every entry under `root` (links not followed), listed without touching atimes."""
    found = {".": _entry(root)}
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOATIME)
    try:
        names = sorted(os.listdir(fd))
    finally:
        os.close(fd)
    for name in names:
        path = root / name
        if stat.S_ISDIR(os.lstat(path).st_mode):
            found.update({f"{name}/{k}": v for k, v in _tree(path).items()})
        else:
            found[name] = _entry(path)
    return found


@dataclasses.dataclass
class Sandbox:
    base: Path
    canary: Path
    server: AdbdServer

    @property
    def state(self) -> SimState:
        return self.server.device.state

    def expand(self, template: str) -> str:
        return template.format(canary=self.canary, canary_rel=str(self.canary).lstrip("/"),
                               fs=self.state.fs_root, TMP=TMP)

    def plant(self) -> None:
        """(Re)create the links and the files the forms use, as an attacker could have left them."""
        for device_path, target in LINKS.items():
            host = self.state.fs_root / device_path.lstrip("/")
            host.parent.mkdir(parents=True, exist_ok=True)
            if os.path.lexists(host):
                if not host.is_symlink() and host.is_dir():
                    continue
                host.unlink()
            os.symlink(self.expand(target), host)
        (self.state.fs_root / TMP.lstrip("/") / "src").write_text("src\n")

    def snapshot(self) -> dict[str, object]:
        """The canary tree and the listing of the directory holding it and the state dir."""
        base = os.lstat(self.base)
        return {"base": (base.st_mtime_ns, sorted(os.listdir(self.base))), "canary": _tree(self.canary)}

    def check(self, action: Callable[[], bytes | str]) -> None:
        """Run `action` and assert it neither changed the canary nor showed its secret."""
        self.plant()
        before = self.snapshot()
        try:
            output = action()
        finally:
            sqlite3.connect(":memory:").execute("PRAGMA temp_store_directory = ''")  # process-wide
        after = self.snapshot()
        assert after == before
        text = output if isinstance(output, str) else output.decode("utf-8", "replace")
        assert SECRET not in text

    def shell(self, command: str) -> str:
        result = self.server.device.shell(command)
        return result.stdout + result.stderr


def _make_canary(canary: Path) -> None:
    canary.mkdir()
    (canary / "secret.txt").write_text(SECRET + "\n")
    (canary / "script.sh").write_text(f"echo {SECRET}\n")
    (canary / "sub").mkdir()
    (canary / "sub" / "note.txt").write_text(SECRET + "\n")
    con = sqlite3.connect(canary / "secret.db")
    con.execute("CREATE TABLE t(v TEXT)")
    con.execute("INSERT INTO t VALUES (?)", (SECRET,))
    con.commit()
    con.close()
    for path in sorted(canary.rglob("*"), reverse=True) + [canary]:  # children before parents
        os.utime(path, ns=(_PAST, _PAST + 60 * 10**9), follow_symlinks=False)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Iterator[Sandbox]:
    base = tmp_path_factory.mktemp("sandbox")
    canary = base / "canary"
    _make_canary(canary)
    saved_cwd = os.getcwd()
    os.chdir(canary)
    try:
        with AdbdServer(base / "state", port=0) as server:
            yield Sandbox(base, canary, server)
    finally:
        os.chdir(saved_cwd)


# ================================================================================================
# Path resolution
# ================================================================================================
def test_host_path_resolves_links_as_device_paths(tmp_path):
    state = SimState(tmp_path)
    fs = state.fs_root
    (fs / "data/media/0/Download").mkdir(parents=True)
    (fs / "storage/self").mkdir(parents=True)
    (fs / "storage/emulated").mkdir(parents=True)
    (fs / "sdcard").symlink_to("storage/self/primary")
    (fs / "storage/self/primary").symlink_to("../emulated/0")
    (fs / "storage/emulated/0").symlink_to("../../data/media/0")
    (fs / "abs").symlink_to("/data/media/0")
    (fs / "data/up").symlink_to("../../../../../data/media")
    for k in range(41):
        (fs / f"hop{k}").symlink_to(f"/hop{k + 1}")
    (fs / "hop41").mkdir()
    assert state.host_path("/sdcard/Download") == fs / "data/media/0/Download"
    assert state.host_path("/storage/self/primary/Download") == fs / "data/media/0/Download"
    assert state.host_path("/abs/Download") == fs / "data/media/0/Download"
    assert state.host_path("/data/up/0") == fs / "data/media/0"
    assert state.host_path("/data/../../..") == fs
    assert state.host_path("/abs", follow=False) == fs / "abs"
    assert state.host_path("/hop1/x") == fs / "hop41/x"  # 40 links: the most Linux follows
    with pytest.raises(OSError) as raised:
        state.host_path("/hop0/x")
    assert raised.value.errno == 40  # ELOOP


_COMPONENTS = st.sampled_from(["..", ".", "a", "b", "c", "x", "y", "", "..", ".."])
_DIRS = ["", "a", "a/b", "c"]  # real directories; links are planted as their entries x, y, z


@given(links=st.dictionaries(st.tuples(st.sampled_from(_DIRS), st.sampled_from(["x", "y", "z"])),
                             st.tuples(st.booleans(), st.lists(_COMPONENTS, max_size=12)), max_size=8),
       query=st.lists(_COMPONENTS, max_size=8), follow=st.booleans())
def test_host_path_never_leaves_the_filesystem(tmp_path_factory, links, query, follow):
    """Whatever links a device holds, every device path maps inside fs (or is ELOOP)."""
    state = SimState(tmp_path_factory.mktemp("links") / "deep" / "er" / "state")
    for directory in _DIRS:
        (state.fs_root / directory).mkdir(parents=True, exist_ok=True)
    for (directory, name), (absolute, parts) in links.items():
        target = ("/" if absolute else "") + "/".join(parts)
        os.symlink(target or ".", state.fs_root / directory / name)
    try:
        host = state.host_path("/".join(query), "/a", follow)
    except OSError as exc:
        assert exc.errno == 40  # ELOOP
        return
    real_root = os.path.realpath(state.fs_root)
    checked = os.path.realpath(host if follow or host == state.fs_root else host.parent)
    assert checked == real_root or checked.startswith(real_root + os.sep)


# ================================================================================================
# SQL, shell, push/pull, sync
# ================================================================================================
@pytest.mark.parametrize("runner", sorted(SQL_RUNNERS))
@pytest.mark.parametrize("statement", STATEMENTS)
def test_sql_forms_stay_inside_the_state_directory(sandbox, statement, runner):
    """Every statement with every file name form, path and runner (not a sample)."""
    for filename in sorted(FILENAMES):
        for path in SQL_PATHS:
            sql = statement.format(F=FILENAMES[filename](sandbox.expand(path)))
            sandbox.check(lambda: sandbox.shell(SQL_RUNNERS[runner](sql)))


@pytest.mark.parametrize("statement", STATEMENTS)
def test_sql_over_adbd_stays_inside_the_state_directory(sandbox, statement):
    client = RawHost(sandbox.server.port)
    client.connect()
    try:
        for filename in sorted(FILENAMES):
            for path in SQL_PATHS:
                sql = statement.format(F=FILENAMES[filename](sandbox.expand(path)))
                sandbox.check(lambda: client.run("shell:" + shell_join(["sqlite3", ":memory:", sql])))
    finally:
        client.close()


_BIG = "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 5000)"
TEMP_FORMS = [
    "PRAGMA temp_store_directory = {canary_lit}; PRAGMA temp_store = FILE; "
    f"CREATE TEMP TABLE tt(a); {_BIG} INSERT INTO tt SELECT randomblob(1000) FROM c;",
    f"PRAGMA temp_store = 1; CREATE TEMP TABLE tt(a); {_BIG} INSERT INTO tt SELECT randomblob(1000) FROM c;",
    f"PRAGMA temp_store = FILE; {_BIG} SELECT count(*) FROM (SELECT randomblob(2000) AS b FROM c ORDER BY b);",
    f"{_BIG} SELECT count(*) FROM (SELECT randomblob(2000) AS b FROM c ORDER BY b);",
    f"ATTACH '' AS scratch; CREATE TABLE scratch.s(a); {_BIG} INSERT INTO scratch.s SELECT randomblob(1000) FROM c;",
    f"CREATE TABLE IF NOT EXISTS big(a); DELETE FROM big; {_BIG} INSERT INTO big SELECT randomblob(1000) FROM c; VACUUM;",
]


@pytest.mark.parametrize("sql", TEMP_FORMS)
@pytest.mark.parametrize("database", [":memory:", "/data/local/tmp/temp.db"])
def test_sqlite_temporary_files_stay_in_memory(sandbox, sql, database):
    """With the process's SQLite temp directory set to the canary, nothing may spill there."""
    command = shell_join(["sqlite3", database, sql.format(canary_lit=sql_literal(str(sandbox.canary)))])

    def run() -> str:
        sqlite3.connect(":memory:").execute(f"PRAGMA temp_store_directory = {sql_literal(str(sandbox.canary))}")
        return sandbox.shell(command)

    sandbox.check(run)


def test_expression_file_names_are_not_authorized_as_sqlite_says(sandbox):
    result = sandbox.server.device.shell(shell_join(["sqlite3", ":memory:", "ATTACH ('a' || '.db') AS x"]))
    assert (result.stderr, result.exit_code) == ("Error: in prepare, not authorized (23)\n", 23)


def test_device_paths_in_sql_still_work(sandbox):
    out = sandbox.shell(
        "sqlite3 /data/local/tmp/legit.db \"CREATE TABLE IF NOT EXISTS t(a); DELETE FROM t; INSERT INTO t VALUES (7); "
        "ATTACH '/data/local/tmp/snap.db' AS taskkit_snap; DROP TABLE IF EXISTS taskkit_snap.t; "
        "CREATE TABLE taskkit_snap.t AS SELECT * FROM t; DETACH taskkit_snap; "
        "VACUUM INTO '/sdcard/Download/copy.db'; ATTACH 'file:/sdcard/Download/copy.db?mode=ro' AS c; "
        "SELECT a FROM c.t;\"; rm /sdcard/Download/copy.db; cd /data/local/tmp; "
        "sqlite3 :memory: \"ATTACH 'snap.db' AS s; SELECT a + 1 FROM s.t;\"")
    assert out == "7\n8\n"


@pytest.mark.parametrize("form", SHELL_FORMS + POINT_FORMS)
def test_shell_forms_stay_inside_the_state_directory(sandbox, form):
    """Every form with every path (sampling 40 of the pairs left most of them never run)."""
    for path in DEVICE_PATHS:
        command = "cd /data/local/tmp && " + form.format(P=shell_quote(sandbox.expand(path)), TMP=TMP)
        sandbox.check(lambda: sandbox.shell(command))


@pytest.mark.parametrize("push", [True, False])
@pytest.mark.parametrize("path", DEVICE_PATHS)
def test_push_and_pull_stay_inside_the_state_directory(sandbox, path, push):
    device = sandbox.server.device

    def transfer() -> bytes:
        try:
            if push:
                device.push(b"pwned\n", sandbox.expand(path))
                return b""
            return device.pull(sandbox.expand(path))
        except OSError as exc:
            return str(exc).encode()

    sandbox.check(transfer)


@pytest.mark.parametrize("request_id", SYNC_REQUESTS)
@pytest.mark.parametrize("path", DEVICE_PATHS)
def test_sync_service_stays_inside_the_state_directory(sandbox, request_id, path):
    client = RawHost(sandbox.server.port)
    client.connect()

    def exchange() -> bytes:
        local, remote = client.open("sync:")
        spec = sandbox.expand(path) + (",33188" if request_id == b"SEND" else "")
        frames = [SyncFrame(request_id, 0, spec.encode())]
        if request_id == b"SEND":
            frames += [SyncFrame(b"DATA", 0, b"pwned\n"), SyncFrame(b"DONE", 1_700_000_000)]
        frames.append(SyncFrame(b"QUIT", 0))
        client.send(A_WRTE, local, remote, b"".join(frame.encode() for frame in frames))
        return client.collect(local, remote)[0]

    try:
        sandbox.check(exchange)
    finally:
        client.close()
