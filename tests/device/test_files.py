"""The Files service: pure command builders and parsers, then against the simulated device."""
from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskkit.device.base import CommandFailed, ShellResult
from taskkit.device.services import files as F
from taskkit.device.services.files import FileStat, Files, LsEntry
from taskkit.device.reference import DEVICE_EPOCH
from tests.device.conftest import BareSimDevice

NAME_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00")
names = st.text(NAME_CHARS, min_size=1, max_size=20).filter(lambda n: n not in (".", ".."))
WEIRD = ["a b", "it's", 'say "hi"', "new\nline", "$(touch canary)", "`id`", "x;y&&z", "*", "-rf",
         "\u202eevil", "e\u0301", "\U0001F600.txt", "tab\there"]


# --- builders -------------------------------------------------------------------------------
def test_builders_quote_every_path():
    assert F.build_cat("/sdcard/it's here") == "cat '/sdcard/it'\\''s here'"
    assert F.build_remove("/sdcard/d", recursive=True) == "rm -rf /sdcard/d"
    assert F.build_find("/sdcard", "f", "*.jpg") == "find -H /sdcard -type f -name '*.jpg' -print0"
    assert F.build_stat("/sdcard/$(x)") == "stat -L -c '%s %Y %a %F' '/sdcard/$(x)'"
    assert F.build_listdir("/sdcard/a b") == "cd '/sdcard/a b' && find . -mindepth 1 -maxdepth 1 -print0"
    assert F.build_md5(["/a", "/b c"]) == "md5sum /a '/b c'"


@pytest.mark.parametrize("path", ["sdcard/x", "-rf", "", "./x"])
def test_relative_paths_are_refused(path):
    with pytest.raises(ValueError):
        F.build_cat(path)


def test_find_type_is_checked():
    with pytest.raises(ValueError):
        F.build_find("/sdcard", type="x")


# --- parsers --------------------------------------------------------------------------------
def test_parse_find0():
    assert F.parse_find0("/b\0/a\0/a b\nc\0") == ["/a", "/a b\nc", "/b"]
    assert F.parse_find0("./x\0./.y\0", "./") == [".y", "x"]
    assert F.parse_find0("") == []


@settings(max_examples=60)
@given(st.lists(names, unique=True, max_size=8))
def test_parse_find0_round_trip(entries):
    text = "".join(f"./{name}\0" for name in entries)
    assert F.parse_find0(text, "./") == sorted(entries, key=lambda s: s.encode())


def test_parse_stat():
    assert F.parse_stat("/a", "12 1697384040 660 regular file\n") == FileStat("/a", 12, 1697384040, 0o660, "file")
    assert F.parse_stat("/a", "0 5 660 regular empty file\n").kind == "file"
    assert F.parse_stat("/d", "4096 5 771 directory\n") == FileStat("/d", 4096, 5, 0o771, "dir")
    assert F.parse_stat("/l", "3 5 777 symbolic link\n").kind == "link"
    assert F.parse_stat("/p", "0 5 600 fifo\n").kind == "other"
    with pytest.raises(ValueError):
        F.parse_stat("/a", "garbage")


def test_parse_md5sum_with_and_without_paths():
    a, b = "0" * 32, "f" * 32
    text = f"{a}  /x\n{b}  /new\nline\n"
    assert F.parse_md5sum(text, ["/x", "/missing", "/new\nline"]) == {"/x": a, "/new\nline": b}
    assert F.parse_md5sum(f"{a}  /x\n{b}  /y z\n") == {"/x": a, "/y z": b}


@settings(max_examples=60)
@given(st.lists(st.tuples(names, st.booleans(), st.binary(max_size=8)), max_size=6))
def test_parse_md5sum_round_trip(items):
    paths = ["/" + name for name, _, _ in items]
    present = {"/" + name: hashlib.md5(data).hexdigest() for name, ok, data in items if ok}
    text = "".join(f"{present[p]}  {p}\n" for p in paths if p in present)
    assert F.parse_md5sum(text, paths) == present


def test_parse_ls_long():
    text = ("total 12\n"
            "drwxrwx--x 2 root root 4096 2023-10-15 15:34 DCIM\n"
            "-rw-rw---- 1 u0_a100 media_rw   12 2023-10-15 15:34 a b.txt\n"
            "lrwxrwxrwx 1 root root 21 2023-10-15 15:34 /sdcard -> /storage/self/primary\n"
            "crw-rw-rw- 1 root root 1,   3 2023-10-15 15:34 null\n")
    entries = F.parse_ls_long(text)
    assert entries[0] == LsEntry("drwxrwx--x", 2, "root", "root", "4096", "2023-10-15 15:34", "DCIM")
    assert entries[0].is_dir and not entries[1].is_dir
    assert (entries[1].owner, entries[1].group, entries[1].size, entries[1].name) == (
        "u0_a100", "media_rw", "12", "a b.txt")
    assert (entries[2].name, entries[2].target) == ("/sdcard", "/storage/self/primary")
    assert entries[3].size == "1,   3"


@pytest.mark.parametrize("stderr, error", [
    ("cat: /x: No such file or directory\n", FileNotFoundError),
    ("/system/bin/sh: cd: /f: Not a directory\n", NotADirectoryError),
    ("rm: /d: Is a directory\n", IsADirectoryError),
    ("mkdir: '/d': File exists\n", FileExistsError),
    ("cat: /x: Permission denied\n", PermissionError),
    ("weird failure\n", CommandFailed),
])
def test_raise_for(stderr, error):
    with pytest.raises(error):
        F.raise_for(ShellResult("", stderr, 1), "cmd", "/x")
    F.raise_for(ShellResult("", stderr, 0), "cmd", "/x")  # success never raises


# --- against the simulated device -----------------------------------------------------------
def calls(device, action):
    before = device.stats.round_trips
    result = action()
    return result, device.stats.round_trips - before


def test_each_operation_is_one_round_trip(bare_sim_device):
    files = bare_sim_device.files
    assert calls(bare_sim_device, lambda: files.write_text("/sdcard/a.txt", "x"))[1] == 1
    for action in (lambda: files.exists("/sdcard/a.txt"), lambda: files.is_dir("/sdcard"),
                   lambda: files.read_text("/sdcard/a.txt"), lambda: files.listdir("/sdcard"),
                   lambda: files.find("/sdcard"), lambda: files.stat("/sdcard/a.txt"),
                   lambda: files.md5(["/sdcard/a.txt", "/sdcard/b"]),
                   lambda: files.copy("/sdcard/a.txt", "/sdcard/b"), lambda: files.move("/sdcard/b", "/sdcard/c"),
                   lambda: files.ls("/sdcard"), lambda: files.read_bytes("/sdcard/a.txt")):
        assert calls(bare_sim_device, action)[1] == 1
    # mkdir and remove are run for effect: one round trip each, or held back inside a batch
    assert calls(bare_sim_device, lambda: files.mkdir("/sdcard/e"))[1] == 1

    def batched() -> None:
        with bare_sim_device.batch():
            files.mkdir("/sdcard/d")
            files.remove("/sdcard/c")
    assert calls(bare_sim_device, batched)[1] == 1
    assert files.is_dir("/sdcard/d") and not files.exists("/sdcard/c")


def test_read_write_exists(bare_sim_device):
    files = bare_sim_device.files
    assert not files.exists("/sdcard/Notes/n.txt")
    files.write_text("/sdcard/Notes/n.txt", "héllo\nwörld\n")  # parents are created
    assert files.exists("/sdcard/Notes/n.txt") and files.is_dir("/sdcard/Notes")
    assert not files.is_dir("/sdcard/Notes/n.txt")
    assert files.read_text("/sdcard/Notes/n.txt") == "héllo\nwörld\n"
    assert files.read_bytes("/storage/emulated/0/Notes/n.txt") == "héllo\nwörld\n".encode()
    files.write_bytes("/sdcard/bin", b"\x00\xff\n")
    assert files.read_bytes("/sdcard/bin") == b"\x00\xff\n"
    with pytest.raises(FileNotFoundError):
        files.read_text("/sdcard/missing")
    with pytest.raises(IsADirectoryError):
        files.read_text("/sdcard/Notes")


def test_written_files_carry_the_device_clock(bare_sim_device):
    bare_sim_device.state.config["clock_epoch"] = DEVICE_EPOCH + 99
    files = bare_sim_device.files
    files.write_text("/sdcard/New/t.txt", "x")
    assert files.stat("/sdcard/New/t.txt").mtime == DEVICE_EPOCH + 99
    assert files.stat("/sdcard/New").mtime == DEVICE_EPOCH + 99
    assert files.stat("/sdcard/").mtime == DEVICE_EPOCH + 99


def test_listdir_and_find_with_weird_names(bare_sim_device):
    files = bare_sim_device.files
    for name in WEIRD:
        files.write_text(f"/sdcard/Download/{name}", name)
    files.mkdir("/sdcard/Download/sub dir/deeper")
    expected = sorted(WEIRD + ["sub dir"], key=lambda s: s.encode())
    assert files.listdir("/sdcard/Download") == expected
    assert files.find("/sdcard/Download", type="f") == sorted(
        (f"/sdcard/Download/{n}" for n in WEIRD), key=lambda s: s.encode())
    assert files.find("/sdcard", type="d", name="deeper") == ["/sdcard/Download/sub dir/deeper"]
    assert files.find("/sdcard/Download", name="*.txt") == ["/sdcard/Download/\U0001F600.txt"]
    for name in WEIRD:
        assert files.read_text(f"/sdcard/Download/{name}") == name
    assert not files.exists("/sdcard/Download/canary") and not files.exists("/canary")
    with pytest.raises(FileNotFoundError):
        files.listdir("/sdcard/nope")
    with pytest.raises(NotADirectoryError):
        files.listdir("/sdcard/Download/a b")
    with pytest.raises(FileNotFoundError):
        files.find("/sdcard/nope")


def test_stat(bare_sim_device):
    files = bare_sim_device.files
    files.write_text("/sdcard/s.txt", "12345")
    assert files.stat("/sdcard/s.txt") == FileStat("/sdcard/s.txt", 5, DEVICE_EPOCH, 0o660, "file")
    assert files.stat("/sdcard").kind == "dir"  # follows the /sdcard link
    assert files.stat("/sdcard/none") is None


def test_copy_move_remove(bare_sim_device):
    files = bare_sim_device.files
    files.write_text("/sdcard/DCIM/a/p.jpg", "img")
    files.copy("/sdcard/DCIM/a", "/sdcard/b")
    assert files.read_text("/sdcard/b/p.jpg") == "img"
    files.move("/sdcard/b/p.jpg", "/sdcard/q.jpg")
    assert files.listdir("/sdcard/b") == [] and files.read_text("/sdcard/q.jpg") == "img"
    with pytest.raises(FileNotFoundError):
        files.copy("/sdcard/none", "/sdcard/x")
    with pytest.raises(CommandFailed, match="Is a directory"):
        files.remove("/sdcard/DCIM/a")  # a directory without recursive
    files.remove("/sdcard/DCIM/a", recursive=True)
    files.remove("/sdcard/never-existed")
    assert files.listdir("/sdcard/DCIM") == []


def test_md5(bare_sim_device):
    files = bare_sim_device.files
    files.write_bytes("/sdcard/x", b"abc")
    files.write_bytes("/sdcard/new\nline", b"")
    assert files.md5(["/sdcard/x", "/sdcard/none", "/sdcard/new\nline"]) == {
        "/sdcard/x": hashlib.md5(b"abc").hexdigest(), "/sdcard/new\nline": hashlib.md5(b"").hexdigest()}
    assert files.md5([]) == {}


def test_ls(bare_sim_device):
    files = bare_sim_device.files
    files.write_text("/sdcard/a.txt", "hello")
    entries = files.ls("/sdcard")
    assert [e.name for e in entries] == ["DCIM", "Download", "a.txt"]
    assert entries[2] == LsEntry("-rw-rw----", 1, "root", "root", "5", "2023-10-15 15:34", "a.txt")


@settings(max_examples=30)
@given(names, st.text(st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_any_name_and_text_round_trip(tmp_path_factory, name, text):
    device = BareSimDevice(tmp_path_factory.mktemp("dev") / "device")
    files = Files(device)
    path = f"/sdcard/Documents/{name}"
    files.write_text(path, text)
    assert files.read_text(path) == text
    assert files.listdir("/sdcard/Documents") == [name]
    assert files.find("/sdcard/Documents", type="f") == [path]
    assert files.md5([path]) == {path: hashlib.md5(text.encode()).hexdigest()}
    assert files.stat(path).size == len(text.encode())
    files.remove(path)
    assert not files.exists(path)


def test_on_the_factory_image(sim_device):
    files = sim_device.files
    assert "Download" in files.listdir("/sdcard")
    assert files.listdir("/sdcard") == files.listdir("/storage/emulated/0")
    assert "/sdcard/Download" in files.find("/sdcard", type="d")
    files.write_text("/sdcard/Download/r.txt", "r")
    assert files.find("/storage/emulated/0/Download", type="f") == ["/storage/emulated/0/Download/r.txt"]
