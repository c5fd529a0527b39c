"""B-MoCA's Files tasks (its Appendix B.1 table): open the file manager, list the audio, image,
video or download files. Each is judged by B-MoCA's detector alone, as opening a page leaves no
state: ActivityTaskManager's START line of DocumentsUI's FilesActivity, or DirectoryFragment's
`Showing directory: URI` line for the root opened from the navigation drawer ("Show roots"):
MediaDocumentsProvider's audio_root, images_root and videos_root, DownloadStorageProvider's
downloads (taskkit/sim/gui/apps/files.py). The storage's own Download folder is not the
Downloads root: its URI (…/document/primary%3ADownload) does not match `download`, case and
all, as on a device.
"""
from __future__ import annotations

from taskkit.apps import files
from taskkit.apps.bmoca_detect import BmocaAppTask

ROOTS = "Show roots"
LINE = "DirectoryFragment:D"


class _FilesTask(BmocaAppTask, register=False):
    abstract = True
    app_names = ("files",)
    package = files.PACKAGE
    tags = ("bmoca", "files", "category:system")


class BmocaFilesOpen(_FilesTask):
    template = "open the file manager app"
    step_limit = 4
    LOGCAT = ("ActivityTaskManager:I", r"^(.*)START(.*)files.FilesActivity")


class _ListRoot(_FilesTask, register=False):
    """Open one root from the drawer."""

    abstract = True
    step_limit = 6


class BmocaFilesListAudio(_ListRoot):
    template = "list audio files in file manager"
    TAPS = (ROOTS, "Audio")
    LOGCAT = (LINE, r"^(.*)Showing directory(.*)audio(.*)root")


class BmocaFilesListImages(_ListRoot):
    template = "list image files in file manager"
    TAPS = (ROOTS, "Images")
    LOGCAT = (LINE, r"^(.*)Showing directory(.*)images")


class BmocaFilesListVideos(_ListRoot):
    template = "list video files in file manager"
    TAPS = (ROOTS, "Videos")
    LOGCAT = (LINE, r"^(.*)Showing directory(.*)videos")


class BmocaFilesListDownloads(_ListRoot):
    template = "list download files in file manager"
    TAPS = (ROOTS, "Downloads")
    LOGCAT = (LINE, r"^(.*)Showing directory(.*)download")
