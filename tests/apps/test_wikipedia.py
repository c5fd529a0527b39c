"""Wikipedia (B-MoCA's): what the simulated app writes where the real one does, the tasks' targets
(B-MoCA's evaluator's, not the paper's misprinted lists), and a device without the app refused.
Every task's reference solution and GUI reference are proven by tests/test_seed_coverage.py and
tests/sim/gui/test_gui_references.py."""
from __future__ import annotations

import pytest

from taskkit import config
from taskkit.apps import wikipedia as app
from taskkit.apps.wikipedia import tasks
from taskkit.config import apply
from taskkit.device import catalog
from taskkit.device.errors import DeviceError
from taskkit.device.services import shared_prefs
from taskkit.env import Env
from taskkit.gui_reference import in_row_of, resource_id
from tests.apps.test_settings_bmoca import _episode
from tests.sim.gui.helpers import find, tap, texts

SWITCH = resource_id("feed_content_type_checkbox")


def _prefs(device) -> dict[str, shared_prefs.Pref]:
    return app.read(device.files.read_text(app.PREFS) if device.files.exists(app.PREFS) else "")


def _to_settings(device) -> None:
    app.require(device)  # AndroidWorld's image has it for no user: installed from the image
    app.reset(device)
    tasks.to_main(device)
    tap(device, resource_id("nav_more_container"))
    tap(device, "Settings")


def _to_customize(device) -> None:
    _to_settings(device)
    tap(device, "Explore Feed")


def test_the_model_reads_and_writes_the_apps_encodings() -> None:
    assert app.encode([False, True]) == "[false,true]"  # Gson, no spaces
    assert app.cards_enabled({}) == [True] * 10  # no key yet: every card on (restoreState)
    assert [app.percent(v) for v in (app.MIN_TEXT_SIZE, 0, app.MAX_TEXT_SIZE)] == [50, 100, 180]
    assert [c.title for c in app.CARD_TYPES if c.in_config] == [
        "Featured article", "Top read", "Picture of the day", "Because you read", "In the news", "On this day",
        "Randomizer", "Today on Wikipedia"]


def test_the_customize_screen_lists_eight_types_and_writes_ten_switches_when_left(device) -> None:
    _to_customize(device)
    shown = texts(device)
    assert shown[0] == "Customize the feed"
    assert [t for t in shown if t in {c.title for c in app.CARD_TYPES}][:3] == ["Featured article", "Top read",
                                                                                "Picture of the day"]
    tap(device, in_row_of("Top read", SWITCH))
    assert app.FEED_CARDS_ENABLED not in _prefs(device)  # kept on the screen until it is left (onPause)
    device.check("input keyevent BACK")
    stored = _prefs(device)
    assert stored[app.FEED_CARDS_ENABLED] == shared_prefs.Pref("string", "[true,false" + ",true" * 8 + "]")
    assert stored[app.FEED_CARDS_ORDER].value == "[0,1,2,3,4,5,6,7,8,9]"
    assert texts(device)[0] == "Settings"


def test_home_leaves_the_customize_screen_too(device) -> None:
    _to_customize(device)
    tap(device, in_row_of("Featured article", SWITCH))
    device.check("input keyevent HOME")
    assert app.cards_enabled(_prefs(device))[0] is False


def test_hide_all_turns_every_card_type_off(device) -> None:
    _to_customize(device)
    tap(device, "More options")
    tap(device, "Hide all")
    device.check("input keyevent BACK")
    assert app.cards_enabled(_prefs(device)) == [False] * 10


def test_link_previews_and_the_text_size_are_written_at_once_and_clamped(device) -> None:
    _to_settings(device)
    tap(device, "Show link previews")
    assert _prefs(device)[app.SHOW_LINK_PREVIEWS] == shared_prefs.Pref("boolean", False)
    tap(device, "App theme")
    assert find(device, resource_id("text_size_percent")).text == "100% (Default)"
    for _ in range(7):
        tap(device, resource_id("buttonDecreaseTextSize"))
    assert _prefs(device)[app.TEXT_SIZE] == shared_prefs.Pref("int", -5)  # -7 asked, -5 the app's minimum
    assert find(device, resource_id("text_size_percent")).text == "50%"
    tap(device, resource_id("buttonIncreaseTextSize"))
    assert find(device, resource_id("text_size_percent")).text == "60%"


def test_the_tabs_are_selected_as_bmocas_detector_reads_them(device) -> None:
    app.require(device)
    app.reset(device)
    tasks.to_main(device)
    assert find(device, resource_id(tasks.EXPLORE)).is_selected
    tap(device, resource_id(tasks.SAVED))
    assert find(device, resource_id(tasks.SAVED)).is_selected and not find(device, resource_id(tasks.EXPLORE)).is_selected


def test_the_targets_are_bmocas_evaluators_ten_entry_lists() -> None:
    assert app.encode(tasks.BmocaWikipediaDisableTop2.enabled()) == "[false,false,true,true,true,true,true,true,true,true]"
    assert app.encode(tasks.BmocaWikipediaDisablePrimeTopics.enabled()) == \
        "[true,false,false,true,false,true,false,true,true,true]"
    assert app.encode(tasks.BmocaWikipediaDisableEvenTopics.enabled()) == \
        "[true,false,true,false,true,false,true,false,true,true]"
    assert tasks.BmocaWikipediaTextSize180.text_size == 8  # the paper's table prints -5
    assert tasks.BmocaWikipediaDisableTop2AndRandomizer.step_limit == 11


def _paper_list(device) -> None:
    """The paper's Table 15 list for "disable the top 2 topics" (9 entries, one false), on the feed."""
    app.write_prefs(device, {app.FEED_CARDS_ENABLED: shared_prefs.Pref("string", "[false" + ",true" * 8 + "]")})
    tasks.to_main(device)


def _switches_only(device) -> None:
    """The right switches, the customize screen never left (nothing written, the feed not shown)."""
    _to_customize(device)
    tap(device, in_row_of("Featured article", SWITCH))
    tap(device, in_row_of("Top read", SWITCH))


@pytest.mark.parametrize("near_miss", [_paper_list, _switches_only])
def test_a_near_miss_of_disable_top_2_fails(task_env, near_miss) -> None:
    assert _episode(task_env, tasks.BmocaWikipediaDisableTop2, near_miss) == 0.0
    assert _episode(task_env, tasks.BmocaWikipediaDisableTop2) == 1.0


def test_a_device_without_the_app_is_an_infrastructure_error_naming_it(task_env, monkeypatch) -> None:
    monkeypatch.setattr(type(task_env.device.packages), "is_installed", lambda self, package: False)
    task = tasks.BmocaWikipediaOpen({})
    with pytest.raises(DeviceError, match=r"org\.wikipedia is not installed .* 2\.7\.50484-r-2024-04-19"):
        task.initialize_state(task_env)


def test_the_package_is_listed_last_so_the_others_keep_their_uids() -> None:
    assert catalog.CATALOG[-1].name == app.PACKAGE and catalog.CATALOG[-1].launch_component == "org.wikipedia/.main.MainActivity"


def _has_wikipedia(device) -> bool:
    listed = device.check("pm list packages")
    home = device.ui.screen().elements
    return "package:org.wikipedia\n" in listed and any(e.text == "Wikipedia" for e in home)


def test_only_bmocas_image_has_the_app(device) -> None:
    """AndroidWorld's image (the default device) lists no Wikipedia, in `pm list packages` or the
    launcher's drawer; a B-MoCA config installs it from the image and takes it away again when
    restored; a Wikipedia task installs it for itself on the default device."""
    def drawer() -> None:
        device.check("input keyevent HOME")
        device.check("input swipe 540 1800 540 600 300")  # the drawer lists every installed app
    drawer()
    assert not _has_wikipedia(device) and device.shell("monkey -p org.wikipedia 1").exit_code != 0
    previous = apply.apply(device, config.resolve("bmoca-100")[0])
    drawer()
    assert _has_wikipedia(device)
    apply.restore(device, previous)
    drawer()
    assert not _has_wikipedia(device)
    task = tasks.BmocaWikipediaOpen({})
    task.initialize_state(Env(device))
    assert device.packages.is_installed(app.PACKAGE)
    task.teardown(Env(device))
    assert not device.packages.is_installed(app.PACKAGE)
