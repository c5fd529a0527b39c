"""B-MoCA's Wikipedia tasks (v2, its Table 15; one of them, "disable the top 2 and 'randomizer'
topics ...", is a representative task): the main screen's tabs, the Explore feed's card types,
the link previews switch and the text size.

Each is judged as B-MoCA's evaluator judges it (gimme1dollar/b-moca,
bmoca/environment/evaluator_script/wikipedia/*.py): the tab's `nav_tab_*` element selected
(`org.wikipedia:id/nav_tab_explore` for "go back / return to the feed"), and
org.wikipedia_preferences.xml's `feedCardsEnabled` string equal to the target list,
`textSizeMultiplier` equal to the target int, `showLinkPreviews` false. Where the paper's table
prints another value than the evaluator checks, the evaluator's is taken, because it is the one
the app writes (docs/families.md, "Wikipedia", lists each with the paper's text beside it):
the table's lists of 9 or 11 entries (the app writes one per FeedContentType: 10), "top 2" as
one `false`, "odd-numbered" and "prime-numbered" lists that are other tasks' and
"increase ... to 180%" with -5 (the evaluator: 8, the app's maximum, 180 %). B-MoCA reads the
list as the file's last element (`root[-1]`), which holds only for the key order its device
wrote; taskkit reads the key by name.

The tasks need the app: B-MoCA's image installs it, AndroidWorld's does not. The simulated device
lists it (taskkit.device.catalog); on a device without it every task stops at set-up with an
infrastructure error naming the package and the version to install (`apps.wikipedia.require`).

`solve` writes the preferences as the app writes them (the app stopped first) and opens the app
(`monkey -p`: its main screen opens on Explore), tapping a tab by its id where the task is a tab;
`gui_reference` goes where a user goes: More > Settings > Explore Feed (offline the feed shows
no card whose menu offers "Customize the feed"), the card types' switches, BACK to the feed;
More > Settings > App theme and the text size slider. It finds labels by resource id or by the
app's string resource (`_String`: the label in whatever language the device shows it, from the
app's own table), never by their English text, so it holds under every B-MoCA locale.
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from taskkit import metadata
from taskkit.apps import wikipedia as app
from taskkit.apps.bmoca_detect import find_and_tap
from taskkit.device.base import Device
from taskkit.device.services import shared_prefs
from taskkit.env import TaskEnv
from taskkit.device.services.ui import UIElement
from taskkit.gui_reference import Elements, Locator, Step, Translate, back, in_row_of, open_app, resource_id, tap
from taskkit.sim.gui import localize
from taskkit.task import TaskEval
from taskkit.validators import all_of, shared_pref_equals, ui_element_matches
from taskkit.validators.base import Validator


@dataclasses.dataclass(frozen=True)
class _String(Locator):
    """The label of the app's string resource `name` (text or description): its English text, and
    once localized for a device's locale (gui_reference.localized) its text in any language of the
    app's own table (taskkit/sim/gui/translations.org.wikipedia.json), so a reference never
    depends on the English label. The table is read only when a non-English device plays it."""

    name: str
    english: str
    localized_: bool = False

    def matches(self, element: UIElement, elements: Elements) -> bool:
        texts = localize.app_texts(app.PACKAGE, self.name) if self.localized_ else (self.english,)
        return element.text in texts or element.content_description in texts

    def localized(self, translate: Translate) -> Locator:
        return dataclasses.replace(self, localized_=True)

    def __str__(self) -> str:
        return f"@string/{self.name} ({self.english!r})"


PREFS_FILE = f"{app.PACKAGE}_preferences"
EXPLORE, SAVED, SEARCH = "nav_tab_explore", "nav_tab_reading_lists", "nav_tab_search"
SWITCH = resource_id("feed_content_type_checkbox")
SETTINGS = _String("settings_item_preferences", "Settings")  # view_main_drawer.xml's Settings row
FEED = _String("preference_title_customize_explore_feed", "Explore Feed")
LINK_PREVIEWS = _String("preference_title_show_link_previews", "Show link previews")
APP_THEME = _String("preference_title_app_theme", "App theme")
# Each FeedContentType's title resource (feed/FeedContentType.kt titleId), in declaration order.
CARD_TITLES = ("view_featured_article_card_title", "view_top_read_card_title", "view_featured_image_card_title",
               "view_because_you_read_card_title", "view_card_news_title", "on_this_day_card_title",
               "view_random_card_title", "view_main_page_card_title")
# The customize screen's rows as B-MoCA numbers them (1-based, top to bottom, logged out: the
# first eight card types) and the instructions' words for them.
FEATURED, TOP_READ, RANDOMIZER = 0, 1, 6
ODD, EVEN, PRIME = (0, 2, 4, 6), (1, 3, 5, 7), (1, 2, 4, 6)  # rows 1 3 5 7, 2 4 6 8, 2 3 5 7
HISTORY = (3, 5)  # "...from your history", "Events in history on this day"
DAY = (2, 5)  # "Picture of the day", "On this day"


def tab_selected(tab: str) -> Validator:
    """B-MoCA's UI-element detector: the bottom bar's `tab` is selected."""
    return ui_element_matches({"resource_id": f"{app.PACKAGE}:id/{tab}"}, selected=True)


def to_main(device: Device) -> None:
    """Open the app as its launcher icon does: its main screen, on Explore."""
    device.check(f"monkey -p {app.PACKAGE} -c android.intent.category.LAUNCHER 1")


def card_title(index: int) -> Locator:
    """Card type `index`'s title on the customize screen, in the device's language."""
    return _String(CARD_TITLES[index], app.CARD_TYPES[index].title)


def _open_settings() -> list[Step]:
    """Open the app, its More menu and Settings (the menu's row is found by its label's resource:
    its container's id is on no leaf a screen lists)."""
    return [open_app("wikipedia"), tap(resource_id("nav_more_container")), tap(SETTINGS)]


class _WikipediaTask(TaskEval, register=False):
    """One of B-MoCA's Wikipedia tasks: `disabled` (the card types it turns off, by index),
    `text_size` (the multiplier it sets), `link_previews_off`, and the tab it ends on."""

    abstract = True
    app_names = ("wikipedia",)
    tags = ("bmoca", "wikipedia", "category:web-shopping")
    step_limit: ClassVar[int] = 10
    disabled: ClassVar[tuple[int, ...] | None] = None
    text_size: ClassVar[int | None] = None
    link_previews_off: ClassVar[bool] = False
    tab: ClassVar[str | None] = EXPLORE

    def __init_subclass__(cls, **kwargs: Any) -> None:
        cls.complexity, cls.difficulty = metadata.from_step_limit(cls.step_limit)
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("abstract"):
            cls.optimal_steps = len(cls.reference())

    @classmethod
    def enabled(cls) -> list[bool]:
        """The `feedCardsEnabled` list the task ends with (one entry per FeedContentType)."""
        return [i not in (cls.disabled or ()) for i in range(len(app.CARD_TYPES))]

    @classmethod
    def reference(cls) -> list[Step]:
        steps = _open_settings()
        if cls.link_previews_off:
            steps.append(tap(LINK_PREVIEWS))
        if cls.disabled is not None:
            steps += [tap(FEED)] + [tap(in_row_of(card_title(i), SWITCH)) for i in cls.disabled] + [back()]
        if cls.text_size is not None:
            fraction = 0.02 if cls.text_size == app.MIN_TEXT_SIZE else 0.98  # the slider's ends: -5 and 8
            steps += [tap(APP_THEME), tap(resource_id("text_size_seek_bar"), at=(fraction, 0.5))]
            if cls.tab is not None:
                steps.append(back())  # the theme sheet closes: Settings
        if cls.tab is not None:
            steps.append(back())  # Settings closes: the main screen, on Explore
        return steps

    _installed_here = False  # whether the set-up installed the app (it goes again at teardown)

    def initialize_state(self, env: TaskEnv) -> None:
        self._installed_here = app.require(env.device)  # AndroidWorld's image: from the image, for the task
        super().initialize_state(env)

    def teardown(self, env: TaskEnv) -> None:
        super().teardown(env)
        if self._installed_here:
            app.uninstall(env.device)

    def validator(self) -> Validator:
        checks: list[Validator] = []
        if self.disabled is not None:
            checks.append(shared_pref_equals(app.PACKAGE, PREFS_FILE, app.FEED_CARDS_ENABLED, app.encode(self.enabled())))
        if self.link_previews_off:
            checks.append(shared_pref_equals(app.PACKAGE, PREFS_FILE, app.SHOW_LINK_PREVIEWS, False))
        if self.text_size is not None:
            checks.append(shared_pref_equals(app.PACKAGE, PREFS_FILE, app.TEXT_SIZE, self.text_size))
        if self.tab is not None:
            checks.append(tab_selected(self.tab))
        return checks[0] if len(checks) == 1 else all_of(*checks)

    def solve(self, env: TaskEnv) -> None:
        device = env.device
        entries: dict[str, shared_prefs.Pref] = {}
        if self.disabled is not None:
            entries |= app.saved_cards(self.enabled(), list(range(len(app.CARD_TYPES))))
        if self.link_previews_off:
            entries[app.SHOW_LINK_PREVIEWS] = shared_prefs.Pref("boolean", False)
        if self.text_size is not None:
            entries[app.TEXT_SIZE] = shared_prefs.Pref("int", self.text_size)
        if entries:
            app.write_prefs(device, entries)
        to_main(device)

    def gui_reference(self) -> list[Step]:
        return self.reference()


class BmocaWikipediaOpen(_WikipediaTask):
    template = "open Wikipedia"
    step_limit = 4

    @classmethod
    def reference(cls) -> list[Step]:
        return [open_app("wikipedia")]


class _TabTask(_WikipediaTask, register=False):
    abstract = True

    @classmethod
    def reference(cls) -> list[Step]:
        return [open_app("wikipedia"), tap(resource_id(str(cls.tab)))]

    def solve(self, env: TaskEnv) -> None:
        to_main(env.device)
        find_and_tap(env.device, resource_id(str(self.tab)))


class BmocaWikipediaSavedTab(_TabTask):
    template = "go to saved tab in Wikipedia"
    step_limit = 5
    tab = SAVED


class BmocaWikipediaSearchTab(_TabTask):
    template = "go to search tab in Wikipedia"
    step_limit = 5
    tab = SEARCH


_FEED = "in the feed customization settings on Wikipedia and go back to the feed"


class BmocaWikipediaDisableTop1AndRandomizer(_WikipediaTask):
    template = f"disable the top 1 and 'randomizer' topics {_FEED}"
    step_limit = 10
    disabled = (0, RANDOMIZER)


class BmocaWikipediaDisableTop2(_WikipediaTask):
    template = f"disable the top 2 topics {_FEED}"
    step_limit = 10
    disabled = (0, 1)


class BmocaWikipediaDisableTop2AndRandomizer(_WikipediaTask):
    """B-MoCA's representative Wikipedia task (its Section 4.1 words it "... at feed customize
    setting ..."; the table's wording is the template)."""

    template = f"disable the top 2 and 'randomizer' topics {_FEED}"
    step_limit = 11
    disabled = (0, 1, RANDOMIZER)


class BmocaWikipediaDisableLinkPreviewsAndTopRead(_WikipediaTask):
    template = "disable the 'show link previews', 'top read' feed settings, and return to the feed on Wikipedia"
    step_limit = 11
    disabled = (TOP_READ,)
    link_previews_off = True


class BmocaWikipediaTextSize50(_WikipediaTask):
    template = "decrease the text size to 50% in Wikipedia"
    step_limit = 12
    text_size = app.MIN_TEXT_SIZE
    tab = None


class BmocaWikipediaDisableHistoryTopics(_WikipediaTask):
    template = f"disable the topics that are related to 'history' {_FEED}"
    step_limit = 12
    disabled = HISTORY


class BmocaWikipediaDisableDayTopics(_WikipediaTask):
    template = f"disable the topics that include 'day' in their names {_FEED}"
    step_limit = 13
    disabled = DAY


class BmocaWikipediaDisableOddTopics(_WikipediaTask):
    template = f"disable the topics with odd-numbered indices {_FEED}"
    step_limit = 14
    disabled = ODD


class BmocaWikipediaDisableEvenTopics(_WikipediaTask):
    template = f"disable the topics with even-numbered indices {_FEED}"
    step_limit = 14
    disabled = EVEN


class BmocaWikipediaDisablePrimeTopics(_WikipediaTask):
    template = f"disable the topics with prime-numbered indices {_FEED}"
    step_limit = 14
    disabled = PRIME


class BmocaWikipediaTextSize180(_WikipediaTask):
    template = "increase the text size to 180% in Wikipedia"
    step_limit = 15
    text_size = app.MAX_TEXT_SIZE
    tab = None


class BmocaWikipediaFeaturedOffTextSize50(_WikipediaTask):
    template = "disable featured article feed, decrease the text size to 50%, and return to the feed on Wikipedia"
    step_limit = 17
    disabled = (FEATURED,)
    text_size = app.MIN_TEXT_SIZE


class BmocaWikipediaFeaturedOffTextSize180(_WikipediaTask):
    template = "disable featured article feed, increase the text size to 180%, and return to the feed on Wikipedia"
    step_limit = 19
    disabled = (FEATURED,)
    text_size = app.MAX_TEXT_SIZE
