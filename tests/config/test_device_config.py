"""Device configs: the B-MoCA set and its split, seeded draws, user files, and applying a config
through shell commands (read back, restored, recovered after a killed run) on the simulated
device, whose screens then show it."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from taskkit import config
from taskkit.config import ConfigError, DeviceConfig, apply
from taskkit.connect import sim_device
from taskkit.sim.gui import localize


@pytest.fixture
def device():
    phone = sim_device()
    yield phone
    phone.close()


def test_the_bmoca_set_has_its_papers_environments_and_split() -> None:
    found = config.builtin_set()
    assert len(found.split("train")) == 35 and len(found.split("test")) == 10
    env = found.configs["bmoca-105"]  # B-MoCA's "Test Env 105": Korean, larger icons (its repository's row)
    assert (env.device_type, env.density, env.font_scale, env.locale, env.wallpaper, env.dark) == \
        ("Pixel 3", 550, 0.85, "ko-KR", "12_ocean", False)
    assert found.configs["bmoca-109"].size == (1200, 800) and found.configs["bmoca-109"].locale == "ar-EG"
    assert found.configs["bmoca-021"].locale == "es-US"  # a training row from the paper's table
    assert found.configs["bmoca-100"].icon_seed is None  # the vanilla home screen
    assert {c.locale for c in found.configs.values()} == set(config.LOCALES)
    assert not set(found.splits["train"]) & set(found.splits["test"])


def test_draws_are_seeded_and_resolve_names_what_it_takes() -> None:
    assert config.draw(7) == config.draw(7) and config.draw(7) != config.draw(8)
    assert [c.name for c in config.resolve("test")][:2] == ["bmoca-100", "bmoca-101"]
    assert config.resolve("random", seed=3) == [config.draw(3)]
    with pytest.raises(ConfigError, match="unknown device config 'bmoca-999'"):
        config.resolve("bmoca-999")
    with pytest.raises(ConfigError, match="wallpaper 'plaid'"):
        DeviceConfig(wallpaper="plaid")


def test_a_user_set_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"configs": [{"name": "big", "density": 700, "font_scale": 1.15},
                                            {"name": "de", "locale": "de-DE"}], "splits": {"test": ["de"]}}))
    assert [c.name for c in config.resolve(f"{path}")] == ["big", "de"]
    assert [c.name for c in config.resolve(f"{path}:test")] == ["de"]
    assert config.resolve(f"{path}:big")[0].density == 700
    path.write_text(json.dumps({"configs": [{"name": "x", "colour": "red"}]}))
    with pytest.raises(ConfigError, match="unknown field\\(s\\) colour"):
        config.resolve(str(path))


def test_apply_reads_back_and_restore_brings_every_value_back(device) -> None:
    before = apply.read(device)
    env = config.resolve("bmoca-105")[0]
    apply.apply(device, env)
    now = apply.read(device)
    assert (now["size"], now["density"], now["font_scale"], now["night"], now["locale"], now["wallpaper"]) == \
        ("1080x2160", 550, "0.85", "1", "ko-KR", "12_ocean")
    assert apply.restore(device) and apply.read(device) == before
    assert not apply.restore(device)  # nothing left to restore


def test_a_killed_run_is_recovered_to_the_config_before_it(device) -> None:
    before = apply.read(device)
    apply.apply(device, config.resolve("bmoca-030")[0])
    apply.apply(device, config.resolve("bmoca-105")[0])  # a second run starting over a killed one
    assert apply.recover(device)  # the next start: the values from before the first run
    assert apply.read(device) == before


def _bounds(device) -> dict[str, tuple]:
    return {e.text: (e.bbox.x_min, e.bbox.y_min, e.bbox.x_max, e.bbox.y_max) for e in device.ui.screen().elements if e.text}


def test_the_simulated_screen_follows_the_config(device) -> None:
    device.check("input keyevent HOME")
    home, shot = _bounds(device), device.ui.screenshot()
    env = DeviceConfig(name="t", device_type="Pixel 3", density=330, font_scale=1.15, locale="ar-EG", dark=True,
                       wallpaper="02_blue", icon_seed=4)
    apply.apply(device, env)
    device.check("input keyevent HOME")
    shown = _bounds(device)
    # a seeded subset of the icons (and the search box); a system app's label is in Arabic here
    after = {label: box for label, box in shown.items() if label in home}
    assert len(after) >= 4 + 1 and after != {label: home[label] for label in after}  # laid out anew
    rtl_shot = device.ui.screenshot()
    assert rtl_shot != shot
    apply.apply(device, dataclasses.replace(env, locale="de-DE"))  # the same, left to right
    device.check("input keyevent HOME")
    ltr = _bounds(device)
    assert len(ltr) == len(shown) and set(after) <= set(ltr) and device.ui.screenshot() != rtl_shot
    for label, (x1, y1, x2, y2) in after.items():  # every element mirrored across the screen
        assert (x1, y1, x2, y2) == (1080 - ltr[label][2], ltr[label][1], 1080 - ltr[label][0], ltr[label][3]), label
    xml = device.check("uiautomator dump /dev/tty")
    assert "[0,0][1080,2160]" in xml  # the Pixel 3's screen
    apply.restore(device)
    device.check("input keyevent HOME")
    assert _bounds(device) == home


def test_localize_uses_the_locales_translations_only_where_android_translates(monkeypatch) -> None:
    from taskkit.sim.gui.node import Node

    table = {"Navigate up": {"resource": "framework:action_bar_up_description", "ko": "위로 이동"},
             "Display": {"resource": "settings:display_settings", "ko": "디스플레이"}}
    monkeypatch.setattr(localize, "_table", lambda: table)
    localize.translations.cache_clear()
    try:
        tree = Node(children=[Node(text="Display", text_size=10), Node(content_desc="Navigate up")])
        settings = localize.localize(tree, "com.android.settings", "ko-KR", 1.5, 1080)
        assert [c.text or c.content_desc for c in settings.children] == ["디스플레이", "위로 이동"]
        assert settings.children[0].text_size == 15
        other = localize.localize(tree, "com.arduia.expense", "ko-KR", 1.0, 1080)
        assert [c.text or c.content_desc for c in other.children] == ["Display", "위로 이동"]  # app text stays
    finally:
        localize.translations.cache_clear()


TRANSLATED = json.loads(localize.TRANSLATIONS.read_text(encoding="utf-8"))
# The languages the device-config issue asks for beyond English: each has AOSP's translations.
REQUIRED_LANGUAGES = ("ko", "es", "fr", "de", "zh-rCN", "ja", "ar")


@pytest.mark.parametrize("language", REQUIRED_LANGUAGES)
def test_every_required_language_translates_the_system_screens_main_labels(language) -> None:
    have = {label for label, entry in TRANSLATED["strings"].items() if entry.get(language)}
    main = {"Settings", "Network & internet", "Connected devices", "Display", "Airplane mode", "Bluetooth",
            "Navigate up", "Cancel", "OK", "Dark theme@systemui", "Open settings"}
    assert main <= have, sorted(main - have)
    assert language in TRANSLATED["sources"] and all("@" in s and ":" in s for s in TRANSLATED["sources"][language].values())


@pytest.mark.parametrize("locale, language", [("ko-KR", "ko"), ("es-US", "es"), ("fr-CA", "fr"), ("de-DE", "de"),
                                              ("zh-Hans-CN", "zh-rCN"), ("ja-JP", "ja"), ("ar-AE", "ar")])
def test_a_device_in_b_mocas_locales_shows_androids_labels_where_android_would(device, locale, language) -> None:
    def texts() -> list[str]:
        return [e.text or e.content_description for e in device.ui.screen().elements]

    words = {label: entry[language] for label, entry in TRANSLATED["strings"].items() if entry.get(language)}
    apply.apply(device, DeviceConfig(name=language, locale=locale))
    try:
        device.check("am start -n com.android.settings/.Settings")
        shown = texts()
        assert words["Network & internet"] in shown and words["Display"] in shown and "Network & internet" not in shown
        device.check("input swipe 540 10 540 1400 200")  # the shade: System UI's own words
        assert words["Dark theme@systemui"] in texts() and words["Open settings"] in texts()
        device.check("input keyevent BACK")
        device.check("input keyevent HOME")
        assert words["Settings"] in texts()  # the launcher shows the Settings app's own translated label
        device.check("am start -n net.gsantner.markor/.activity.MainActivity")
        shown = texts()  # an app keeps its own labels (the toolbar's "More options" is Android's)
        assert list(dict.fromkeys(label for label in shown if label and label != words.get("More options", "More options"))) == [
            "Markor", "Go to", "Sort by", "Search", "¯\\_(ツ)_/¯", "Create a new file or folder", "Files", "To-Do",
            "QuickNote", "More"], shown
    finally:
        apply.restore(device)
    device.check("am start -n com.android.settings/.Settings")
    assert "Network & internet" in texts()


def test_the_same_commands_apply_a_config_over_stock_adb(tmp_path: Path) -> None:
    """One code path: the config goes on a device reached through the adb server exactly as on
    the in-process one (the served simulator stands in for a rooted emulator)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from check_cost import Link

    link = Link(tmp_path / "device")
    try:
        before = apply.read(link.device)
        apply.apply(link.device, config.resolve("bmoca-105")[0])
        assert apply.read(link.device)["locale"] == "ko-KR"
        assert 'bounds="[0,0][1080,2160]"' in link.device.check("uiautomator dump /dev/tty")
        apply.restore(link.device)
        assert apply.read(link.device) == before
    finally:
        link.close()


def test_cjk_text_falls_back_to_the_default_font_for_latin_letters_and_punctuation() -> None:
    """Android's CJK fallback font has no Latin glyphs: a mixed label ("Wi‑Fi は自動的に ON") is
    drawn in runs, each with a font that has its characters, so no character becomes a box."""
    from taskkit.sim.gui import render

    line = "Wi-Fi は自動的に ON…"
    runs = render._runs(line, render._script_font(line))
    assert "".join(part for part, _ in runs) == line
    assert runs == [("Wi-Fi ", None), ("は自動的に", render._CJK_FONT), (" ON…", None)]
    assert render._runs("Wi-Fi on", render._script_font("Wi-Fi on")) == [("Wi-Fi on", None)]
