"""Wikipedia (wikimedia/apps-android-wikipedia, `org.wikipedia`): the Explore feed's card types and
the app's preferences, at the version B-MoCA installs (its asset/environments/resource/
apks_versions.txt: 2.7.50484-r-2024-04-19, the repository's tag `r/2.7.50484-r-2024-04-19`).

All of it lives in the default shared preferences `org.wikipedia_preferences.xml` (Prefs.kt,
res/values/preference_keys.xml), which is where B-MoCA's detectors read it:

* `feedCardsEnabled`: one boolean per `FeedContentType` in its declaration order (feed/
  FeedContentType.kt, `saveState`), Gson's `[true,false,...]` as a string; the customize screen
  lists the card types by `feedCardsOrder` (the declaration order until the user drags one), less
  Suggested edits while logged out and the Accessibility card (never shown there). Absent
  until the customize screen first saves: every card enabled.
* `textSizeMultiplier`: an int from -5 to 8 (res/values/dimens.xml min/maxTextSizeMultiplier),
  each step 10 % of the default size (`textSizeMultiplierFactor` 0.1): -5 is 50 %, 8 is 180 %.
  Absent until first changed: 0.
* the Settings switches (res/xml/preferences.xml): `showLinkPreviews` and the others, booleans
  written when toggled; absent: their default.
* `colorTheme`: the theme's id (theme/Theme.kt: 0 Light, 1 Dark, 2 Black, 3 Sepia).

The feed's content is online (its cards come from the REST API); offline the app shows its
search bar and its offline card, which is all the simulated app shows
(taskkit/sim/gui/apps/wikipedia.py).
"""
from __future__ import annotations

import dataclasses
import json
from typing import Callable

from taskkit.apps.base import App
from taskkit.device.base import Device
from taskkit.device.errors import DeviceError
from taskkit.device.services import shared_prefs

PACKAGE = "org.wikipedia"
VERSION = "2.7.50484-r-2024-04-19"  # B-MoCA's APK (apks_versions.txt), the source tag r/<VERSION>
PREFS = shared_prefs.path(PACKAGE, f"{PACKAGE}_preferences")

FEED_CARDS_ENABLED = "feedCardsEnabled"
FEED_CARDS_ORDER = "feedCardsOrder"
FEED_CARDS_LANG_SUPPORTED = "feedCardsLangSupported"
FEED_CARDS_LANG_DISABLED = "feedCardsLangDisabled"
TEXT_SIZE = "textSizeMultiplier"
COLOR_THEME = "colorTheme"
SHOW_LINK_PREVIEWS = "showLinkPreviews"
MIN_TEXT_SIZE, MAX_TEXT_SIZE = -5, 8
THEMES = {"Light": 0, "Dark": 1, "Black": 2, "Sepia": 3}  # Theme.kt: name -> marshalling id


@dataclasses.dataclass(frozen=True)
class CardType:
    """One `FeedContentType`: its code, its title and subtitle (res/values/strings.xml) and
    whether the customize screen lists it for a logged-out user."""

    code: int
    title: str
    subtitle: str
    in_config: bool = True


# FeedContentType's entries in declaration order: `feedCardsEnabled[i]` is CARD_TYPES[i]'s switch.
CARD_TYPES = (
    CardType(6, "Featured article", "Daily featured article on Wikipedia"),
    CardType(3, "Top read", "Daily most-viewed articles"),
    CardType(7, "Picture of the day", "Daily featured image from Wikimedia Commons"),
    CardType(8, "Because you read", "Suggestions based on a recently read article from your history"),
    CardType(0, "In the news", "Articles about current events"),
    CardType(1, "On this day", "Events in history on this day"),
    CardType(5, "Randomizer", "Generate random articles to read"),
    CardType(4, "Today on Wikipedia", "Main page of Wikipedia with daily featured content"),
    CardType(9, "Suggested edits", "Suggestions to add content to Wikipedia", in_config=False),  # logged in only
    CardType(10, "", "", in_config=False),  # ACCESSIBILITY: showInConfig = false
)
# The Settings switches of res/xml/preferences.xml: key -> (title, summary, default).
SWITCHES = {
    SHOW_LINK_PREVIEWS: ("Show link previews", "Show a quick preview of articles when tapping on links.", True),
    "collapseTables": ("Collapse tables", "Automatically collapse tables in articles, such as infoboxes, "
                                          "references, and notes.", True),
    "downloadReadingListArticles": ("Download reading list articles", "", True),
    "downloadOnlyOverWiFi": ("Download only over Wi-Fi", "", False),
    "showImages": ("Show images", "Enable or disable loading of images in pages. Uncheck this setting if your "
                                  "Internet connection is slow, or if your data plan is limited.", True),
    "preferOfflineContent": ("Prefer offline content", "Save data usage by loading articles that are available "
                                                       "offline rather than always loading the latest version of "
                                                       "an article", False),
}
# What `reset` takes out of the preferences: the state the tasks change.
_TASK_KEYS = (FEED_CARDS_ENABLED, FEED_CARDS_ORDER, FEED_CARDS_LANG_SUPPORTED, FEED_CARDS_LANG_DISABLED,
              TEXT_SIZE, COLOR_THEME, *SWITCHES)


def encode(enabled: list[bool]) -> str:
    """A list of switches as Gson writes it (GsonMarshaller): `[true,false]`."""
    return json.dumps(enabled, separators=(",", ":"))


def read(text: str) -> dict[str, shared_prefs.Pref]:
    """The preferences in the file's text (an absent or broken file: none, the app's defaults)."""
    try:
        return shared_prefs.parse(text) if text.strip() else {}
    except shared_prefs.PrefsError:
        return {}


def _listed(prefs: dict[str, shared_prefs.Pref], key: str) -> list:
    """The JSON list stored under `key` (absent or broken: empty)."""
    stored = prefs.get(key)
    try:
        listed = json.loads(stored.value) if stored is not None else []
    except ValueError:
        return []
    return listed if isinstance(listed, list) else []


def cards_enabled(prefs: dict[str, shared_prefs.Pref]) -> list[bool]:
    """Each card type's switch (FeedContentType.restoreState: a missing entry is enabled)."""
    listed = _listed(prefs, FEED_CARDS_ENABLED)
    return [bool(listed[i]) if i < len(listed) else True for i in range(len(CARD_TYPES))]


def cards_order(prefs: dict[str, shared_prefs.Pref]) -> list[int]:
    """Each card type's place on the customize screen (`feedCardsOrder`; missing: its index)."""
    listed = _listed(prefs, FEED_CARDS_ORDER)
    return [int(listed[i]) if i < len(listed) else i for i in range(len(CARD_TYPES))]


def saved_cards(enabled: list[bool], order: list[int]) -> dict[str, shared_prefs.Pref]:
    """What FeedContentType.saveState writes: the switches, the order and the (empty, for a
    single-language app) per-language maps keyed by each type's code."""
    empty = "{" + ",".join(f'"{card.code}":[]' for card in CARD_TYPES) + "}"
    return {FEED_CARDS_ENABLED: shared_prefs.Pref("string", encode(enabled)),
            FEED_CARDS_ORDER: shared_prefs.Pref("string", encode(order)),
            FEED_CARDS_LANG_SUPPORTED: shared_prefs.Pref("string", empty),
            FEED_CARDS_LANG_DISABLED: shared_prefs.Pref("string", empty)}


def text_size(prefs: dict[str, shared_prefs.Pref]) -> int:
    stored = prefs.get(TEXT_SIZE)
    return int(stored.value) if stored is not None and stored.kind == "int" else 0


def percent(multiplier: int) -> int:
    """The size the theme dialog shows for `multiplier` (ThemeChooserDialog.updateFontSize:
    `(100 * (1 + multiplier * 0.1f)).toInt()`, exact for -5..8 in float arithmetic too)."""
    return 100 + 10 * multiplier


def switch_on(prefs: dict[str, shared_prefs.Pref], key: str) -> bool:
    stored = prefs.get(key)
    return bool(stored.value) if stored is not None and stored.kind == "boolean" else SWITCHES[key][2]


class NotInstalled(DeviceError):
    """The device has no Wikipedia app: an infrastructure failure (taskkit installs no APKs)."""


def require(device: Device) -> bool:
    """Have the app installed, as B-MoCA's image has it: from the device's image (`pm
    install-existing`, the simulated device's way: AndroidWorld's image has it for no user) when
    not installed; whether that installed it. Refuse a device whose image lacks it, naming the
    app and the version B-MoCA installs."""
    if device.packages.is_installed(PACKAGE):
        return False
    device.shell(f"pm install-existing {PACKAGE}")
    if not device.packages.is_installed(PACKAGE):
        raise NotInstalled(f"{PACKAGE} is not installed on {device.serial}: B-MoCA's Wikipedia tasks need Wikipedia "
                           f"{VERSION} (B-MoCA's image installs it); install its APK with adb install, then run again")
    return True


def uninstall(device: Device) -> None:
    """Take the app away from user 0 again (its data kept: the task's restore puts it back)."""
    device.check(f"pm uninstall -k --user 0 {PACKAGE}")


def _rewrite(device: Device, change: Callable[[dict[str, shared_prefs.Pref]], dict[str, shared_prefs.Pref]]) -> None:
    """Stop the app (so it does not write its own copy back) and rewrite its preferences."""
    device.activity.force_stop(PACKAGE)
    text = device.files.read_text(PREFS) if device.files.exists(PREFS) else ""
    device.files.write_text(PREFS, shared_prefs.render(change(read(text))))


def write_prefs(device: Device, entries: dict[str, shared_prefs.Pref]) -> None:
    """Set `entries` in the app's preferences, as the app writes them."""
    _rewrite(device, lambda prefs: prefs | entries)


def reset(device: Device) -> None:
    """Take the tasks' keys out of the app's preferences: every feed card on, the default text
    size, theme and switches (the state B-MoCA's snapshot starts from)."""
    _rewrite(device, lambda prefs: {key: pref for key, pref in prefs.items() if key not in _TASK_KEYS})


APP = App(name="wikipedia", package=PACKAGE, data_paths=(PREFS,), reset=reset)
