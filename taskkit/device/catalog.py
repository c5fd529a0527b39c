"""The packages installed on the device image AndroidWorld uses, as data: the one place for them.

One `Package` per installed app: its launch activity, label, system flag, version code, APK
path, the private-data folders it creates and the intent filters it answers. The app models
(`taskkit.apps`: an `App`'s launch activity) and the simulated device (`am`, `pm`, `monkey`,
`dumpsys`, the launcher; `taskkit.sim.packages.install_all` lays out `/data/data/<pkg>/`) read
nothing else.

Launch activities and third-party version codes are AndroidWorld's (android-apps.md §3).
System version codes and APK paths are illustrative values of the right shape, not read from a
device. `CATALOG` order is the order `pm list packages` prints.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
from typing import Iterable


ACTION_MAIN = "android.intent.action.MAIN"
CATEGORY_LAUNCHER = "android.intent.category.LAUNCHER"
CATEGORY_HOME = "android.intent.category.HOME"
CATEGORY_DEFAULT = "android.intent.category.DEFAULT"

# Folders every package's data directory gets; `Package.data_dirs` adds the app-specific ones.
ALWAYS_DIRS = ("cache", "code_cache")
_APP_DIRS = ("databases", "shared_prefs", "files")


@dataclasses.dataclass(frozen=True)
class IntentFilter:
    """An activity's intent filter: what `am start -a ACTION [-d URI] [-t TYPE]` can reach."""

    action: str
    activity: str  # class name, full or starting with "." (relative to the package)
    schemes: tuple[str, ...] = ()  # data schemes accepted; empty: the intent must carry no data
    mime_types: tuple[str, ...] = ()  # "type/subtype" or "type/*"; empty: no type allowed
    categories: tuple[str, ...] = ()  # besides DEFAULT, which every filter here accepts

    def matches(self, action: str | None, scheme: str | None, mime: str | None,
                categories: Iterable[str]) -> bool:
        """Android's match rules, reduced to action + scheme + type + categories."""
        if action != self.action:
            return False
        if (scheme is None) != (not self.schemes) or (scheme and scheme.lower() not in self.schemes):
            return False
        if (mime is None) != (not self.mime_types):
            return False
        if mime and not any(_mime_matches(pattern, mime) for pattern in self.mime_types):
            return False
        allowed = set(self.categories) | {CATEGORY_DEFAULT}
        return all(category in allowed for category in categories)


def _mime_matches(pattern: str, mime: str) -> bool:
    kind, _, sub = pattern.lower().partition("/")
    want_kind, _, want_sub = mime.lower().partition("/")
    return kind in ("*", want_kind) and sub in ("*", want_sub)


@dataclasses.dataclass(frozen=True)
class Package:
    """One installed package."""

    name: str
    label: str
    version_code: int
    system: bool
    launch_activity: str | None = None  # class name; ".X" is relative to `name`
    activities: tuple[str, ...] = ()  # further activities `am start -n` may name
    filters: tuple[IntentFilter, ...] = ()
    data_dirs: tuple[str, ...] = _APP_DIRS
    apk_path: str | None = None  # None: derived (/data/app/~~.../base.apk)

    # --- components ---------------------------------------------------------------------
    def full_class(self, cls: str) -> str:
        """`.X` → `<package>.X`; a full class name is returned unchanged."""
        return self.name + cls if cls.startswith(".") else cls

    @property
    def launch_component(self) -> str | None:
        """The launch activity as `pkg/.Short` (the form `am start -n` and `cmp=` use)."""
        if self.launch_activity is None:
            return None
        return short_component(self.name, self.full_class(self.launch_activity))

    @property
    def launch_component_full(self) -> str | None:
        """The launch activity as `pkg/full.Class` (the form window titles use)."""
        if self.launch_activity is None:
            return None
        return f"{self.name}/{self.full_class(self.launch_activity)}"

    def has_activity(self, cls: str) -> bool:
        """Whether `cls` (full or relative) names an activity of this package."""
        wanted = self.full_class(cls)
        known = ((self.launch_activity,) if self.launch_activity else ()) + self.activities
        known += tuple(f.activity for f in self.filters)
        return any(self.full_class(k) == wanted for k in known)

    # --- files --------------------------------------------------------------------------
    @property
    def path(self) -> str:
        """The base APK path `pm path` prints."""
        if self.apk_path:
            return self.apk_path
        return f"/data/app/~~{_token(self.name, 'dir')}/{self.name}-{_token(self.name, 'apk')}/base.apk"

    @property
    def data_dir(self) -> str:
        return f"/data/data/{self.name}"

    @property
    def de_data_dir(self) -> str:
        """Device-encrypted storage (/data/user_de/0/<pkg>), e.g. DeskClock's alarms.db."""
        return f"/data/user_de/0/{self.name}"

    @property
    def uid(self) -> int:
        """A stable app uid (10000 + position), for dumpsys output."""
        return 10100 + CATALOG.index(self)


def _token(name: str, salt: str) -> str:
    """A stable stand-in for the random base64 folder names of /data/app."""
    digest = hashlib.sha256(f"{salt}:{name}".encode()).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode()


def short_component(package: str, cls: str) -> str:
    """ComponentName.flattenToShortString: `pkg/.Cls` when the class starts with the package."""
    if cls.startswith(package + "."):
        return f"{package}/{cls[len(package):]}"
    return f"{package}/{cls}"


def split_component(component: str) -> tuple[str, str]:
    """`pkg/.Cls` or `pkg/full.Cls` → (pkg, full class). Raises ValueError without a `/`."""
    package, sep, cls = component.partition("/")
    if not sep or not package or not cls:
        raise ValueError(f"not a component name: {component!r}")
    return package, package + cls if cls.startswith(".") else cls


def _launcher_filter(activity: str) -> IntentFilter:
    return IntentFilter(ACTION_MAIN, activity, categories=(CATEGORY_LAUNCHER,))


def _app(name: str, label: str, version: int, activity: str, *, system: bool = False,
         activities: tuple[str, ...] = (), filters: tuple[IntentFilter, ...] = (),
         data_dirs: tuple[str, ...] = _APP_DIRS, apk: str | None = None) -> Package:
    """A package with a launcher activity."""
    return Package(name, label, version, system, activity, activities,
                   (_launcher_filter(activity),) + filters, data_dirs, apk)


_SMS_SCHEMES = ("sms", "smsto", "mms", "mmsto")

CATALOG: tuple[Package, ...] = (
    # --- the launcher (home) -------------------------------------------------------------
    Package(
        "com.google.android.apps.nexuslauncher", "Pixel Launcher", 33, True,
        ".NexusLauncherActivity", (),
        (IntentFilter(ACTION_MAIN, ".NexusLauncherActivity", categories=(CATEGORY_HOME,)),),
        _APP_DIRS, "/system_ext/priv-app/NexusLauncherRelease/NexusLauncherRelease.apk",
    ),
    # --- system apps ---------------------------------------------------------------------
    _app("com.android.settings", "Settings", 33, ".Settings", system=True,
         activities=(".Settings$WifiSettingsActivity", ".Settings$DisplaySettingsActivity",
                     ".Settings$BluetoothSettingsActivity"),
         filters=(IntentFilter("android.settings.SETTINGS", ".Settings"),
                  IntentFilter("android.settings.WIFI_SETTINGS", ".Settings$WifiSettingsActivity"),
                  IntentFilter("android.settings.DISPLAY_SETTINGS", ".Settings$DisplaySettingsActivity"),
                  IntentFilter("android.settings.BLUETOOTH_SETTINGS",
                               ".Settings$BluetoothSettingsActivity")),
         apk="/system_ext/priv-app/Settings/Settings.apk"),
    _app("com.google.android.contacts", "Contacts", 4040004, "com.android.contacts.activities.PeopleActivity",
         system=True, activities=("com.android.contacts.activities.ContactEditorActivity",),
         filters=(IntentFilter("android.intent.action.INSERT",
                               "com.android.contacts.activities.ContactEditorActivity",
                               mime_types=("vnd.android.cursor.dir/contact",
                                           "vnd.android.cursor.dir/raw_contact",
                                           "vnd.android.cursor.dir/person")),),
         apk="/product/app/GoogleContacts/GoogleContacts.apk"),
    _app("com.google.android.dialer", "Phone", 10681248, ".extensions.GoogleDialtactsActivity",
         system=True, activities=("com.android.incallui.InCallActivity",),
         filters=(IntentFilter("android.intent.action.DIAL", ".extensions.GoogleDialtactsActivity"),
                  IntentFilter("android.intent.action.DIAL", ".extensions.GoogleDialtactsActivity",
                               schemes=("tel",)),
                  IntentFilter("android.intent.action.CALL", "com.android.incallui.InCallActivity",
                               schemes=("tel",))),
         apk="/product/priv-app/GoogleDialer/GoogleDialer.apk"),
    # Google Calculator: launcher activity as AOSP ExactCalculator's manifest names it; the
    # version code and APK path are taskkit's (not read from an image).
    _app("com.google.android.calculator", "Calculator", 80000000, "com.android.calculator2.Calculator",
         system=True, apk="/product/app/CalculatorGooglePrebuilt/CalculatorGooglePrebuilt.apk"),
    _app("com.google.android.deskclock", "Clock", 72000099, "com.android.deskclock.DeskClock",
         system=True,
         filters=(IntentFilter("android.intent.action.SET_ALARM", "com.android.deskclock.DeskClock"),
                  IntentFilter("android.intent.action.SET_TIMER", "com.android.deskclock.DeskClock"),
                  IntentFilter("android.intent.action.SHOW_ALARMS", "com.android.deskclock.DeskClock")),
         apk="/product/app/PrebuiltDeskClockGoogle/PrebuiltDeskClockGoogle.apk"),
    _app("com.android.camera2", "Camera", 33, "com.android.camera.CameraLauncher", system=True,
         filters=(IntentFilter("android.media.action.STILL_IMAGE_CAMERA", "com.android.camera.CameraLauncher"),
                  IntentFilter("android.media.action.IMAGE_CAPTURE", "com.android.camera.CameraLauncher"),
                  IntentFilter("android.media.action.VIDEO_CAMERA", "com.android.camera.CameraLauncher"),
                  IntentFilter("android.media.action.VIDEO_CAPTURE", "com.android.camera.CameraLauncher")),
         apk="/system/app/Camera2/Camera2.apk"),
    _app("com.google.android.documentsui", "Files", 330000000,
         "com.android.documentsui.files.FilesActivity", system=True,
         activities=("com.android.documentsui.picker.PickActivity",),
         filters=(IntentFilter("android.intent.action.GET_CONTENT",
                               "com.android.documentsui.picker.PickActivity", mime_types=("*/*",)),
                  IntentFilter("android.intent.action.OPEN_DOCUMENT",
                               "com.android.documentsui.picker.PickActivity", mime_types=("*/*",))),
         data_dirs=("shared_prefs", "files"),
         apk="/system/priv-app/DocumentsUIGoogle/DocumentsUIGoogle.apk"),
    _app("com.android.chrome", "Chrome", 559913233, "com.google.android.apps.chrome.Main", system=True,
         activities=("org.chromium.chrome.browser.history.HistoryActivity",),
         filters=(IntentFilter("android.intent.action.VIEW", "com.google.android.apps.chrome.Main",
                               schemes=("http", "https")),),
         data_dirs=("databases", "shared_prefs", "files", "app_chrome"),
         apk="/product/app/Chrome/Chrome.apk"),
    # --- AndroidWorld's third-party apps ------------------------------------------------
    _app("com.simplemobiletools.smsmessenger", "Simple SMS Messenger", 85, ".activities.MainActivity",
         activities=(".activities.ThreadActivity", ".activities.NewConversationActivity"),
         filters=(IntentFilter("android.intent.action.SENDTO", ".activities.MainActivity",
                               schemes=_SMS_SCHEMES),
                  IntentFilter("android.intent.action.SEND", ".activities.MainActivity",
                               mime_types=("text/plain",)),
                  IntentFilter("android.intent.action.VIEW", ".activities.MainActivity",
                               schemes=_SMS_SCHEMES))),
    _app("com.simplemobiletools.calendar.pro", "Simple Calendar Pro", 238, ".activities.MainActivity",
         activities=(".activities.EventActivity", ".activities.TaskActivity"),
         # the app's manifest: EventActivity takes INSERT of a calendar event (CalendarContract)
         filters=(IntentFilter("android.intent.action.INSERT", ".activities.EventActivity",
                               mime_types=("vnd.android.cursor.dir/event", "vnd.android.cursor.item/event")),)),
    _app("com.arduia.expense", "Pro Expense", 11, ".ui.MainActivity"),
    _app("com.flauschcode.broccoli", "Broccoli", 1020600, ".MainActivity"),
    _app("net.gsantner.markor", "Markor", 146, ".activity.MainActivity",
         activities=(".activity.DocumentActivity",),
         filters=(IntentFilter("android.intent.action.SEND", ".activity.DocumentActivity",
                               mime_types=("text/plain", "text/markdown")),)),
    _app("org.tasks", "Tasks", 130605, "com.todoroo.astrid.activity.MainActivity"),
    _app("de.dennisguse.opentracks", "OpenTracks", 5705, ".TrackListActivity"),
    _app("net.cozic.joplin", "Joplin", 2097740, ".MainActivity"),
    _app("code.name.monkey.retromusic", "Retro Music", 10603, ".activities.MainActivity"),
    _app("org.videolan.vlc", "VLC", 13050408, ".gui.MainActivity",
         data_dirs=("app_db", "shared_prefs", "files")),
    _app("net.osmand", "OsmAnd", 4613, "net.osmand.plus.activities.MapActivity"),
    _app("com.dimowner.audiorecorder", "Audio Recorder", 926, ".app.welcome.WelcomeActivity",
         activities=(".app.main.MainActivity",)),
    _app("com.simplemobiletools.gallery.pro", "Simple Gallery Pro", 396, ".activities.MainActivity"),
    _app("com.simplemobiletools.draw.pro", "Simple Draw Pro", 79, ".activities.MainActivity"),
    _app("ca.zgrs.clipper", "Clipper", 1, "ca.zgrs.clipper.Main", data_dirs=()),
    # ADBKeyboard (github.com/senzhk/ADBKeyBoard), the input method SPA-Bench's agents type
    # non-ASCII text with: no launcher activity; its IME service takes text by broadcast.
    Package("com.android.adbkeyboard", "ADB Keyboard", 1, False, data_dirs=()),
    # --- providers and system UI (no launcher activity) ------------------------------------
    Package("com.android.providers.telephony", "Phone and Messaging Storage", 33, True,
            apk_path="/system/priv-app/TelephonyProvider/TelephonyProvider.apk"),
    Package("com.android.providers.contacts", "Contacts Storage", 33, True,
            apk_path="/system/priv-app/ContactsProvider/ContactsProvider.apk"),
    Package("com.android.providers.settings", "Settings Storage", 33, True, data_dirs=(),
            apk_path="/system/priv-app/SettingsProvider/SettingsProvider.apk"),
    Package("com.android.systemui", "System UI", 33, True, data_dirs=("shared_prefs", "files"),
            apk_path="/system_ext/priv-app/SystemUIGoogle/SystemUIGoogle.apk"),
    # --- B-MoCA's third-party apps (its image installs them; AndroidWorld's does not) ------------
    # Wikipedia 2.7.50484-r-2024-04-19 (B-MoCA's apks_versions.txt; version code 50484), listed
    # last so the packages above keep their uids. Its tasks refuse a device without it (apps/wikipedia).
    _app("org.wikipedia", "Wikipedia", 50484, ".main.MainActivity",
         activities=(".settings.SettingsActivity", ".feed.configure.ConfigureActivity",
                     ".theme.ThemeFittingRoomActivity")),
)

# The packages B-MoCA's image installs and AndroidWorld's does not: a simulated device holds them
# but has them installed for no user until `pm install-existing` (a B-MoCA device config, or the
# set-up of a task of theirs, does it: taskkit.config.apply, apps/wikipedia); taskkit.sim.packages.
BMOCA_IMAGE: tuple[str, ...] = ("org.wikipedia",)
LAUNCHER = CATALOG[0]
LATIN_IME = "com.android.inputmethod.latin/.LatinIME"  # the keyboard a fresh device types with
ADB_KEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"  # ADBKeyboard's input method id
_BY_NAME = {package.name: package for package in CATALOG}


def get(name: str) -> Package | None:
    """The installed package called `name`, or None."""
    return _BY_NAME.get(name)


def installed(third_party: bool | None = None) -> list[Package]:
    """Packages in catalog order; `third_party` True/False keeps only -3 / -s packages."""
    if third_party is None:
        return list(CATALOG)
    return [p for p in CATALOG if p.system != third_party]


def resolve_intent(action: str | None, scheme: str | None, mime: str | None,
                   categories: Iterable[str] = (), package_name: str | None = None,
                   among: Iterable[Package] = CATALOG) -> tuple[Package, str] | None:
    """The first (package, full activity class) whose filter matches, in catalog order, among
    `among` (the installed packages; only `package_name`'s activities when it is given)."""
    cats = tuple(categories)
    for package in among:
        if package_name is not None and package.name != package_name:
            continue
        for intent_filter in package.filters:
            if intent_filter.matches(action, scheme, mime, cats):
                return package, package.full_class(intent_filter.activity)
    return None
