"""B-MoCA's tasks on Chrome, Contacts, Files, Camera and the Phone: the lines the simulated apps
and services log for them (each matching B-MoCA's detector regex, and only where it should), the
screens behind them, and per task the reference solution passing while a near miss fails."""
from __future__ import annotations

import re

import pytest

from taskkit.apps import chrome, contacts, dialer, files
from taskkit.apps.bmoca_detect import BmocaAppTask, tap_through
from taskkit.apps.camera import bmoca as camera_bmoca
from taskkit.apps.chrome import bmoca as chrome_bmoca
from taskkit.apps.contacts import bmoca as contacts_bmoca
from taskkit.apps.dialer import bmoca as dialer_bmoca
from taskkit.apps.files import bmoca as files_bmoca
from taskkit.rng import TaskRng
from taskkit.sim.commands.activity import format_uid
from tests.apps.test_settings_bmoca import _episode
from tests.sim.gui.helpers import find, tap, texts

MODULES = (camera_bmoca, chrome_bmoca, contacts_bmoca, dialer_bmoca, files_bmoca)
TASKS = [cls for module in MODULES for cls in vars(module).values()
         if isinstance(cls, type) and issubclass(cls, BmocaAppTask) and not cls.abstract
         and cls.__module__ == module.__name__]
CATEGORIES = {"chrome": "web-shopping", "contacts": "communication", "phone": "communication", "files": "system",
              "camera": "utility"}


def _log(device, tag: str) -> list[str]:
    """The messages logged under `tag`, oldest first."""
    return [line.split(": ", 1)[1] for line in device.check(f"logcat -d -v threadtime -s {tag}").splitlines()
            if ": " in line and f" {tag}" in line]


def _matching(device, tag: str, pattern: str) -> list[str]:
    return [line for line in _log(device, tag) if re.search(pattern, line)]


# --- the lines ------------------------------------------------------------------------------------
def test_an_apps_process_start_is_logged_once_with_its_uid(device) -> None:
    for package in (contacts.PACKAGE, "com.android.camera2"):
        device.check(f"am force-stop {package}")
        device.check(f"monkey -p {package} 1")
        device.check(f"monkey -p {package} 1")  # its process runs: no second line
    lines = _log(device, "ActivityManager")
    assert len(lines) == 2
    assert re.fullmatch(r"Start proc \d+:com\.google\.android\.contacts/u0a\d+ for pre-top-activity "
                        r"\{com\.google\.android\.contacts/com\.android\.contacts\.activities\.PeopleActivity\}",
                        lines[0])
    # B-MoCA's detectors, written for AOSP Contacts and Camera, match the modelled apps' lines
    assert re.search(contacts_bmoca.BmocaContactsOpen().detector().pattern, lines[0])
    assert re.search(camera_bmoca.BmocaCameraOpen().detector().pattern, lines[1])
    assert not re.search(contacts_bmoca.BmocaContactsOpen().detector().pattern, lines[1])


def test_format_uid_follows_user_handle() -> None:
    assert (format_uid(1000), format_uid(10102), format_uid(10000)) == ("1000", "u0a102", "u0a0")


def test_the_dialer_logs_main_activity_on_create_only_when_its_task_is_created(device) -> None:
    device.check(f"am force-stop {dialer.PACKAGE}")
    device.check("am start -a android.intent.action.CALL -d tel:5550100")  # InCallActivity: not MainActivity
    assert _log(device, "Dialer") == []
    device.check("input keyevent KEYCODE_ENDCALL")
    device.check(f"am force-stop {dialer.PACKAGE}")
    device.check(f"monkey -p {dialer.PACKAGE} 1")
    device.check("input keyevent HOME")
    device.check(f"monkey -p {dialer.PACKAGE} 1")  # brought back: no new onCreate
    assert _log(device, "Dialer") == ["MainActivity.onCreate - enter"]


def test_contacts_editor_starts_log_insert_and_edit(device) -> None:
    contacts.add_contact(device, "Ada Byron", "+16175550123")
    tap_through(device, contacts.PACKAGE, ["Create new contact"])
    assert texts(device)[0] == "Create new contact"
    device.check("input keyevent BACK")
    tap(device, "Ada Byron")
    tap(device, "Edit contact")
    assert texts(device)[:3] == ["Edit contact", "Save", "Ada"]
    starts = [line for line in _log(device, "ActivityTaskManager") if "ContactEditorActivity" in line]
    assert len(starts) == 2
    insert, edit = starts
    assert "act=android.intent.action.INSERT dat=content://com.android.contacts/contacts pkg=" in insert
    assert re.search(r"act=android\.intent\.action\.EDIT dat=content://com\.android\.contacts/contacts/lookup/\S+/\d+ ",
                     edit)
    insert_detector = contacts_bmoca.BmocaContactsInsertPage().detector().pattern
    assert re.search(insert_detector, insert) and not re.search(insert_detector, edit)
    tap(device, "Save")  # the edit page writes nothing
    assert [c["name"] for c in contacts.list_contacts(device)] == ["Ada Byron"]


def test_chrome_counts_its_tabs_across_a_restart_and_logs_history(device) -> None:
    desc = lambda: find(device, "tab_switcher_button").content_description  # noqa: E731
    tap_through(device, chrome.PACKAGE, [])
    assert desc() == "1 open tab, tap to switch tabs"
    tap_through(device, chrome.PACKAGE, [chrome_bmoca.MENU, "New tab"])
    assert desc() == "2 open tabs, tap to switch tabs"
    device.check(f"am force-stop {chrome.PACKAGE}")
    tap_through(device, chrome.PACKAGE, [chrome_bmoca.MENU, "History"])
    assert texts(device) == ["History"]
    device.check("input keyevent BACK")
    assert desc() == "2 open tabs, tap to switch tabs"
    history = _matching(device, "ActivityTaskManager", chrome_bmoca.BmocaChromeHistory().detector().pattern)
    assert history == [f"START u0 {{cmp=com.android.chrome/org.chromium.chrome.browser.history.HistoryActivity "
                       f"(has extras)}} from uid {_uid(device, chrome.PACKAGE)}"]


def _uid(device, package: str) -> int:
    return int(re.search(r"userId=(\d+)", device.check(f"dumpsys package {package}")).group(1))


@pytest.mark.parametrize("cls", [files_bmoca.BmocaFilesListAudio, files_bmoca.BmocaFilesListImages,
                                 files_bmoca.BmocaFilesListVideos, files_bmoca.BmocaFilesListDownloads],
                         ids=lambda c: c.__name__)
def test_each_root_logs_a_line_only_its_own_detector_matches(device, cls) -> None:
    tap_through(device, files.PACKAGE, cls.TAPS)
    lines = _log(device, "DirectoryFragment")
    assert len(lines) == 1 and lines[0].startswith("Showing directory: content://com.android.providers.")
    others = [other for other in files_bmoca.__dict__.values() if isinstance(other, type)
              and issubclass(other, files_bmoca._ListRoot) and not other.abstract and other is not cls]
    assert re.search(cls.LOGCAT[1], lines[0])
    assert not [other.__name__ for other in others if re.search(other.LOGCAT[1], lines[0])]


def test_the_storage_root_and_its_download_folder_are_not_the_downloads_root(device) -> None:
    device.check("mkdir -p /sdcard/Download && echo x > /sdcard/Download/a.txt")
    tap_through(device, files.PACKAGE, [files_bmoca.ROOTS, "sdk_gphone64_x86_64", "Download"])
    assert "a.txt" in texts(device)
    assert _log(device, "DirectoryFragment") == [
        "Showing directory: content://com.android.externalstorage.documents/document/primary%3A"]
    assert not _matching(device, "DirectoryFragment", files_bmoca.BmocaFilesListDownloads.LOGCAT[1])


def test_a_media_root_lists_the_storages_files_of_its_kind(device) -> None:
    device.check("mkdir -p /sdcard/Music/Band /sdcard/Movies && echo x > /sdcard/Music/Band/song.mp3 "
                 "&& echo y > /sdcard/Movies/clip.mp4")
    tap_through(device, files.PACKAGE, [files_bmoca.ROOTS, "Audio"])
    assert texts(device)[:2] == ["Audio", "song.mp3"] and "clip.mp4" not in texts(device)


def test_ending_a_call_logs_in_call_controllers_line(device) -> None:
    device.check("am start -a android.intent.action.CALL -d tel:5550100")
    tap(device, "End call")
    device.check("am start -a android.intent.action.CALL -d tel:5550101")
    device.check("input keyevent KEYCODE_ENDCALL")
    lines = _matching(device, "Telecom", dialer_bmoca.BmocaPhoneEndCall({"number": "5550100"}).detector().pattern)
    assert [re.sub(r"TC@\d+", "TC@N", line) for line in lines] == [
        "InCallController: onCallRemoved: [Call id=TC@N, state=DISCONNECTED]"] * 2
    assert lines[0] != lines[1]  # each call its own id


# --- the tasks ------------------------------------------------------------------------------------
def test_the_tasks_carry_bmocas_wording_limits_and_tags() -> None:
    assert len(TASKS) == 16
    assert len({cls.template for cls in TASKS}) == 16
    for cls in TASKS:
        app = cls.tags[1]
        assert cls.tags == ("bmoca", app, f"category:{CATEGORIES[app]}"), cls.__name__
        assert cls.optimal_steps == len(cls(cls.generate_random_params(TaskRng(0))).gui_reference())
        assert cls.optimal_steps <= 10 * cls.complexity
    assert chrome_bmoca.BmocaChromeHistory().max_steps == 6 and chrome_bmoca.BmocaChromeHistoryV1().max_steps == 5
    assert dialer_bmoca.BmocaPhoneEndCall.complexity == 1.0 and files_bmoca.BmocaFilesListAudio.difficulty == "easy"


def _open(package: str, *targets):
    return lambda device: tap_through(device, package, list(targets))


NEAR_MISSES = {
    # another app opened instead
    chrome_bmoca.BmocaChromeOpen: _open(files.PACKAGE),
    chrome_bmoca.BmocaChromeOpenApp: _open(files.PACKAGE),
    camera_bmoca.BmocaCameraOpen: _open(chrome.PACKAGE),
    contacts_bmoca.BmocaContactsOpen: _open(dialer.PACKAGE),
    files_bmoca.BmocaFilesOpen: _open(chrome.PACKAGE),
    dialer_bmoca.BmocaPhoneOpen: _open(contacts.PACKAGE),
    # the neighbouring control of the same app
    chrome_bmoca.BmocaChromeNewTab: _open(chrome.PACKAGE, chrome_bmoca.MENU, "History"),
    chrome_bmoca.BmocaChromeHistory: _open(chrome.PACKAGE, chrome_bmoca.MENU, "New tab"),
    chrome_bmoca.BmocaChromeHistoryV1: _open(chrome.PACKAGE, chrome_bmoca.MENU, "New tab"),
    contacts_bmoca.BmocaContactsInsertPage: _open(contacts.PACKAGE),
    contacts_bmoca.BmocaContactsEditPage: _open(contacts.PACKAGE, "Create new contact"),
    files_bmoca.BmocaFilesListAudio: _open(files.PACKAGE, files_bmoca.ROOTS, "Videos"),
    files_bmoca.BmocaFilesListImages: _open(files.PACKAGE, files_bmoca.ROOTS, "Audio"),
    files_bmoca.BmocaFilesListVideos: _open(files.PACKAGE, files_bmoca.ROOTS, "Images"),
    files_bmoca.BmocaFilesListDownloads: _open(files.PACKAGE, files_bmoca.ROOTS, "sdk_gphone64_x86_64"),
    # the call left running
    dialer_bmoca.BmocaPhoneEndCall: lambda device: device.check("input keyevent HOME"),
}


@pytest.mark.parametrize("cls", sorted(TASKS, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_the_solve_passes_and_a_near_miss_fails(task_env, cls) -> None:
    assert _episode(task_env, cls) == 1.0
    assert _episode(task_env, cls, NEAR_MISSES[cls]) == 0.0


def test_three_open_tabs_are_not_two(task_env) -> None:
    three = _open(chrome.PACKAGE, chrome_bmoca.MENU, "New tab", chrome_bmoca.MENU, "New tab")
    assert _episode(task_env, chrome_bmoca.BmocaChromeNewTab, three) == 0.0
