"""`android_world.utils.file_utils`: files on the device, through taskkit's file service (every
path through its quoting). Each function takes `env.controller` as AndroidWorld's do."""
from __future__ import annotations

import contextlib
import dataclasses
import datetime
import os
import posixpath
import tempfile
from typing import Any, Iterator

from taskkit.compat.android_world._device import device_of


@dataclasses.dataclass(frozen=True)
class FileWithMetadata:
    file_name: str
    full_path: str
    file_size: int
    change_time: datetime.datetime


def _files(env: Any) -> Any:
    return device_of(env).files


def convert_to_posix_path(*args: str) -> str:
    """Join path parts with `/` whatever the host's separator."""
    return posixpath.join(*(str(arg).replace(os.sep, "/") for arg in args))


def get_local_tmp_directory() -> str:
    return tempfile.gettempdir()


@contextlib.contextmanager
def tmp_directory_from_device(device_path: str, env: Any, timeout_sec: float | None = None) -> Iterator[str]:
    """A temporary host copy of a device folder's files (not its subfolders), removed afterwards."""
    files = _files(env)
    if not files.is_dir(device_path):
        raise FileNotFoundError(f"{device_path} does not exist on the device")
    with tempfile.TemporaryDirectory(prefix="taskkit-aw-") as local_dir:
        for name in files.listdir(device_path):
            path = posixpath.join(device_path, name)
            if not files.is_dir(path):
                with open(os.path.join(local_dir, name), "wb") as handle:
                    handle.write(files.read_bytes(path))
        yield local_dir


def copy_data_to_device(local_path: str, remote_path: str, env: Any, timeout_sec: float | None = None) -> None:
    """Copy a host file to the device path (into it, when it is a device folder, as `adb push`
    does), or a host folder's files into the device folder."""
    files = _files(env)
    if os.path.isfile(local_path) and files.is_dir(remote_path):
        remote_path = posixpath.join(remote_path, os.path.basename(local_path))
    if os.path.isdir(local_path):
        for name in sorted(os.listdir(local_path)):
            if os.path.isfile(os.path.join(local_path, name)):
                copy_data_to_device(os.path.join(local_path, name), posixpath.join(remote_path, name), env)
        return
    with open(local_path, "rb") as handle:
        files.write_bytes(remote_path, handle.read())


def create_file(file_name: str, directory_path: str, env: Any, content: str = "") -> None:
    """Write a file (its folder made if missing); non-empty content gets a final newline, as
    AndroidWorld's does."""
    _files(env).write_text(posixpath.join(directory_path, file_name), content + "\n" if content else "")


def mkdir(directory_path: str, env: Any) -> None:
    _files(env).mkdir(directory_path)


def remove_single_file(target: str, base_path: str, env: Any) -> None:
    _files(env).remove(posixpath.join(base_path, target), recursive=True)


def clear_directory(directory_path: str, env: Any) -> None:
    """Remove everything inside the folder, keeping the folder."""
    files = _files(env)
    if files.is_dir(directory_path):
        for name in files.listdir(directory_path):
            files.remove(posixpath.join(directory_path, name), recursive=True)


def check_file_or_folder_exists(target: str, base_path: str, env: Any) -> bool:
    return _files(env).exists(posixpath.join(base_path, target))


def check_file_exists(path: str, env: Any) -> bool:
    files = _files(env)
    return files.exists(path) and not files.is_dir(path)


def check_directory_exists(path: str, env: Any) -> bool:
    return _files(env).is_dir(path)


def get_file_list_with_metadata(directory_path: str, env: Any, timeout_sec: float | None = None) -> list[FileWithMetadata]:
    """Every file and folder in the folder with its size and change time (UTC)."""
    files, found = _files(env), []
    for name in files.listdir(directory_path):
        path = posixpath.join(directory_path, name)
        stat = files.stat(path)
        if stat is not None:
            found.append(FileWithMetadata(name, path, stat.size,
                                          datetime.datetime.fromtimestamp(stat.mtime, datetime.timezone.utc)))
    return found
