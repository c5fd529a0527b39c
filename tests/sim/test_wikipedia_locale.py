"""Wikipedia under B-MoCA's locales shows its own strings, as a phone does: each label by its string
resource (taskkit/sim/gui/translations.org.wikipedia.json, read from res/values-XX/strings.xml of
wikimedia/apps-android-wikipedia at r/2.7.50484-r-2024-04-19 by taskkit/fidelity/app_strings.py);
English screens are as before and read no table; a label the language lacks stays English; the
GUI references find the labels in any of these languages (the B-MoCA runs under `--device_config
test` prove every task: docs/device-configs.md)."""
from __future__ import annotations

import json

import pytest

from taskkit import config, gui_reference as gui, loading, registry
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.apps import wikipedia as app
from taskkit.apps.wikipedia import tasks
from taskkit.config import DeviceConfig, apply
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.fidelity import app_strings
from taskkit.runner import run_episode
from taskkit.sim.gui import localize
from taskkit.suite import TaskInstance
from tests.sim.gui.helpers import find, tap

ID = gui.resource_id


@pytest.fixture(scope="module")
def device():
    phone = sim_device()
    app.require(phone)
    yield phone
    phone.close()


def _open(device, locale: str) -> None:
    """The app's main screen (Explore) on a device set to `locale`."""
    apply.apply(device, DeviceConfig(name=locale, locale=locale))
    _start(device)


def _start(device) -> None:
    app.reset(device)  # stops the app too: it starts afresh, on Explore
    tasks.to_main(device)


def _labels(device) -> list[str]:
    return [label for e in device.ui.screen().elements for label in (e.text, e.content_description) if label]


@pytest.fixture
def restored(device):
    yield device
    apply.restore(device)


def test_korean_shows_the_apps_own_strings_by_resource(restored) -> None:
    device = restored
    _open(device, "ko-KR")
    shown = _labels(device)
    # values-ko: feed, nav_item_saved, nav_item_more, search_hint, view_offline_card_text, card_offline_error_retry
    assert {"탐색", "저장됨", "더 보기", "위키백과 검색", "오프라인 상태에서는 내용을 불러올 수 없습니다.", "다시 시도"} <= set(shown)
    assert "Explore" not in shown and "Search Wikipedia" not in shown
    tap(device, ID("nav_tab_reading_lists"))
    assert "0개 문서" in _labels(device)  # plurals format_reading_list_statistical_summary_without_size, other, for 0
    tap(device, ID("nav_more_container"))
    assert _labels(device) == ["위키백과에 로그인 / 가입", "장소", "설정", "기부"]  # main_drawer_login, places_title, ...
    tap(device, gui.localized([gui.tap(tasks.SETTINGS)], "ko-KR")[0].target)
    shown = _labels(device)
    english = gui.localized([gui.tap("Explore Feed")], "ko-KR")[0].target  # the English label is lost here,
    assert english.indices(device.ui.screen().elements) == []
    by_resource = gui.localized([gui.tap(tasks.FEED)], "ko-KR")[0].target  # its resource is not
    assert [device.ui.screen().elements[i].text for i in by_resource.indices(device.ui.screen().elements)] == ["탐색 피드"]
    # settings_activity_title, preferences_general_heading, preference_title_customize_explore_feed,
    # preference_title_show_link_previews, preference_title_app_theme, color_theme_light
    assert {"설정", "일반", "탐색 피드", "링크 미리보기 보이기", "앱 테마", "밝음"} <= set(shown)
    assert "English" in shown  # the language's own name (appLanguageLocalizedNames), no string resource
    tap(device, "탐색 피드")
    shown = _labels(device)
    assert shown[:2] == ["위로 탐색", "피드 사용자 지정"]  # the framework's Navigate up, feed_configure_activity_title
    # ConfigureFragment describes a row as getString(titleId) + ", " + getString(subtitleId)
    assert "알찬 글" in shown and "알찬 글, 위키백과의 일일 알찬글" in shown
    device.check("input keyevent BACK")
    tap(device, "앱 테마")
    assert find(device, ID("text_size_percent")).text == "100% (기본값)"  # text_size_percent_default, "%s (기본값)"
    assert find(device, ID("buttonDecreaseTextSize")).content_description == "텍스트 크기 줄이기"  # text_size_decrease
    assert find(device, ID("buttonDecreaseTextSize")).text == "T"  # the layout's literal, not a resource


@pytest.mark.parametrize("locale, expected", [
    # values-de: preference_title_customize_explore_feed, view_top_read_card_title, text_size_percent_default
    ("de-DE", ("Entdecken-Feed", "Meistgelesen", "100% (Standard)")),
    # zh-Hans-CN reads values-zh (Simplified), not values-zh-rTW / -rHK
    ("zh-Hans-CN", ("探索订阅源", "热门阅读", "100%（默认）")),
])
def test_another_locale_shows_its_own_strings(restored, locale, expected) -> None:
    device = restored
    feed, top_read, size = expected
    _open(device, locale)
    tap(device, ID("nav_more_container"))
    tap(device, gui.localized([gui.tap(tasks.SETTINGS)], locale)[0].target)
    tap(device, feed)
    assert top_read in _labels(device)
    device.check("input keyevent BACK")
    tap(device, gui.localized([gui.tap(tasks.APP_THEME)], locale)[0].target)
    assert find(device, ID("text_size_percent")).text == size


def test_a_label_the_language_lacks_stays_english(restored) -> None:
    """values-ur has feed ("اکتشاف") but no nav_item_saved: Android falls back to values/, "Saved".
    It has main_drawer_login (the More menu) but not the Edits tab's own string of the same English
    text (suggested_edits_encourage_account_creation_login_button, on MessageCardView's positiveButton)."""
    device = restored
    _open(device, "ur-PK")
    shown = _labels(device)
    assert "اکتشاف" in shown and "Saved" in shown and "Explore" not in shown
    tap(device, ID("nav_tab_edits"))
    assert find(device, ID("positiveButton")).text == "Log in / join Wikipedia"
    tap(device, ID("nav_more_container"))
    assert _labels(device)[0] == "داخل ہوں / ویکیپیڈیا میں شامل ہوں"
    _open(device, "ak-GH")  # the app has no values-ak: every label as in English
    assert "Explore" in _labels(device) and "Search Wikipedia" in _labels(device)


def test_a_plural_takes_the_form_the_devices_locale_picks() -> None:
    """format_reading_list_statistical_summary_without_size at 0: pt-PT and pt-BR both read values-pt
    (pt-BR first values-pt-rBR), but CLDR's rule for pt-PT makes 0 "other", for pt-BR "one" (whose
    form in the app names no count: the app itself shows "1 artigo" for an empty list)."""
    words = {locale: localize.app_words(locale, app.PACKAGE).text("0 articles")
             for locale in ("pt-PT", "pt-BR", "ko-KR")}
    assert words == {"pt-PT": "0 artigos", "pt-BR": "1 artigo", "ko-KR": "0개 문서"}
    assert localize.app_words("ar-EG", app.PACKAGE).text("0 articles") is None  # values-ar has no such plural


def test_english_is_unchanged_and_reads_no_table(device) -> None:
    localize.app_table.cache_clear()
    localize.app_words.cache_clear()
    _start(device)
    assert {"Explore", "Saved", "More", "Search Wikipedia", "Retry"} <= set(_labels(device))
    tap(device, ID("nav_more_container"))
    assert _labels(device) == ["Log in / join Wikipedia", "Places", "Settings", "Donate"]
    settings = gui.localized([gui.tap(tasks.SETTINGS)], "en-US")[0].target  # the reference's locator, in English
    assert [device.ui.screen().elements[i].text for i in settings.indices(device.ui.screen().elements)] == ["Settings"]
    assert localize.app_table.cache_info().currsize == 0 and localize.app_words.cache_info().currsize == 0


def test_the_representative_task_passes_under_korean() -> None:
    """bmoca-105 (ko-KR, density 550): the reference finds Settings, Explore Feed and the card types
    by their resources in Korean."""
    loading.load_builtin()
    phone = sim_device()
    try:
        apply.apply(phone, config.resolve("bmoca-105")[0])
        agent = GuiReferenceAgent()
        task = registry.get("BmocaWikipediaDisableTop2AndRandomizer")
        result = run_episode(Env(phone), TaskInstance(task, 0, 30), agent, 30)
        assert result.error is None and result.score == 1.0, (agent.problem, result.reasons)
    finally:
        phone.close()


def test_every_english_label_of_the_modelled_screens_names_its_resource(device) -> None:
    """The table holds every label the English screens show, but for texts no string resource
    gives: the layout's literal "T", the font family names (strings_no_translate.xml), the
    language's own name, the size without "(Default)" and the framework's chrome."""
    table = localize.app_table(app.PACKAGE)
    english = {entry["text"][""] for entry in table["strings"].values() if "text" in entry}
    words = localize.app_words("ko-KR", app.PACKAGE)
    not_resources = {"T", "sans-serif", "serif", "English", "More options", "Navigate up", "Light"}
    seen: set[str] = set()
    _start(device)
    for tab in ("nav_tab_explore", "nav_tab_reading_lists", "nav_tab_search", "nav_tab_edits"):
        tap(device, ID(tab))
        seen |= set(_labels(device))
    for go in (ID("nav_more_container"), tasks.SETTINGS, tasks.FEED, "More options"):
        tap(device, go)
        seen |= set(_labels(device))
    device.check("input keyevent BACK")
    device.check("input keyevent BACK")
    tap(device, tasks.APP_THEME)
    seen |= set(_labels(device))
    unknown = {label for label in seen - english - not_resources
               if words.text(label) is None and words.description(label) is None and not label.isdigit()}
    assert not unknown, sorted(unknown)
    assert {"100% (Default)", "0 articles", "Featured article, Daily featured article on Wikipedia"} <= seen


def test_the_references_labels_are_the_tables() -> None:
    table = localize.app_table(app.PACKAGE)["strings"]
    for label in (tasks.SETTINGS, tasks.FEED, tasks.LINK_PREVIEWS, tasks.APP_THEME,
                  *(tasks.card_title(i) for i in range(len(tasks.CARD_TITLES)))):
        assert table[label.name]["text"][""] == label.english, label
    assert table["default_reading_list_name"]["views"] == ["item_title"]  # "Saved" there, nav_item_saved elsewhere


# --------------------------------------------------------------------------- the generator
def test_locales_resolve_as_android_matches_resource_directories() -> None:
    dirs = ["values-zh", "values-zh-rTW", "values-zh-rHK", "values-pt", "values-pt-rBR", "values-ar",
            "values-b+sr+Latn", "values-night", "values-sw600dp"]
    assert app_strings.resolve("zh-Hans-CN", dirs) == ["zh"]
    assert app_strings.resolve("zh-Hant-TW", dirs) == ["zh-rTW"]
    assert app_strings.resolve("pt-BR", dirs) == ["pt-rBR", "pt"] and app_strings.resolve("pt-PT", dirs) == ["pt"]
    assert app_strings.resolve("ar-EG", dirs) == ["ar"] and app_strings.resolve("ak-GH", dirs) == []
    assert app_strings.resolve("sr-Latn-RS", dirs) == ["b+sr+Latn"]


def test_string_resources_are_read_as_aapt2_does() -> None:
    strings, plurals = app_strings.parse_strings(
        '<resources><string name="a">Track what you\\\'ve  been\n reading</string><string name="b">"  kept  "</string>'
        '<string name="c">One\\nTwo \\u0041</string><plurals name="p"><item quantity="one">1 article</item>'
        '<item quantity="other">%d articles</item></plurals></resources>')
    assert strings == {"a": "Track what you've been reading", "b": "  kept  ", "c": "One\nTwo A"}
    assert plurals == {"p": {"one": "1 article", "other": "%d articles"}}


def test_one_english_text_of_two_resources_translated_apart_must_be_scoped() -> None:
    strings = {"nav_item_saved": {"text": {"": "Saved", "es": "Guardado"}},
               "default_reading_list_name": {"text": {"": "Saved", "es": "Guardados"}}}
    with pytest.raises(app_strings.SourceError, match="differ in translation"):
        app_strings._check_unambiguous(app_strings.WIKIPEDIA, strings)
    strings["default_reading_list_name"]["views"] = ["item_title"]
    app_strings._check_unambiguous(app_strings.WIKIPEDIA, strings)


def test_the_table_cites_its_source_and_covers_b_mocas_locales() -> None:
    table = json.loads(localize.app_table_path(app.PACKAGE).read_text(encoding="utf-8"))
    assert (table["repository"], table["tag"]) == ("wikimedia/apps-android-wikipedia", f"r/{app.VERSION}")
    assert len(table["commit"]) == 40
    assert set(table["locales"]) == {locale for locale in config.LOCALES if not locale.startswith("en")}
