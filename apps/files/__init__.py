"""Files (DocumentsUI): shared-storage files that file-management tasks move and delete.

AndroidWorld's seed files hold 20 random characters (reference android-apps.md §4.14).
"""
from __future__ import annotations

import string
import urllib.parse

from taskkit.apps.base import App
from taskkit.apps.common import random_name_stem
from taskkit.rng import TaskRng

PACKAGE = "com.google.android.documentsui"
STORAGE_ROOT = "/storage/emulated/0"
DOWNLOAD_DIR = f"{STORAGE_ROOT}/Download"
DOCUMENTS_DIR = f"{STORAGE_ROOT}/Documents"
# The top-level shared-storage folders file tasks pick from.
FOLDERS = (
    "Alarms", "Audiobooks", "DCIM", "Documents", "Download", "Movies", "Music", "Notifications",
    "Pictures", "Podcasts", "Recordings", "Ringtones",
)  # fmt: skip
EXTENSIONS = (".txt", ".pdf", ".jpg", ".png", ".mp3", ".docx", ".csv", ".zip")
CONTENT_LENGTH = 20
_CONTENT_CHARS = string.ascii_letters + string.digits


def random_file(rng: TaskRng, ext: str | None = None) -> dict[str, str]:
    """{"name": "calm_river_final.pdf", "content": <20 random letters and digits>}."""
    ext = rng.choice(EXTENSIONS) if ext is None else ext
    content = "".join(rng.choice(_CONTENT_CHARS) for _ in range(CONTENT_LENGTH))
    return {"name": random_name_stem(rng) + ext, "content": content}


# --- the URIs a viewer app is given for a file ------------------------------------------------
_DOCUMENTS = "content://com.android.externalstorage.documents/document/primary%3A"


def document_uri(path: str) -> str:
    """The content URI the Files app (DocumentsUI) hands a viewer for a file in shared storage."""
    relative = path[len(STORAGE_ROOT) + 1:] if path.startswith(STORAGE_ROOT + "/") else path.lstrip("/")
    return _DOCUMENTS + urllib.parse.quote(relative, safe="")


def path_of_uri(uri: str) -> str | None:
    """The shared-storage path of a `file://` or Files content URI (None for anything else)."""
    if uri.startswith(_DOCUMENTS):
        return f"{STORAGE_ROOT}/{urllib.parse.unquote(uri[len(_DOCUMENTS):])}"
    if uri.startswith("file://"):
        path = urllib.parse.unquote(uri[len("file://"):])
        return STORAGE_ROOT + path[len("/sdcard"):] if path == "/sdcard" or path.startswith("/sdcard/") else path
    return None


APP = App(
    name="files",
    package=PACKAGE,
    data_paths=tuple(f"{STORAGE_ROOT}/{folder}" for folder in FOLDERS),  # every folder the file tasks touch
)
