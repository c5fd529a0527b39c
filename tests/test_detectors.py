"""The seed benchmarks' detectors as validators: an adb command's output (B-MoCA), a UI element's
attributes (B-MoCA), the screen's key components (SPA-Bench) — each read from the simulated
device's real state and screens, failing before the change and passing after it."""
from __future__ import annotations

import pytest

from taskkit.validators import command_output_matches, key_components, ui_element_matches

WIFI_PAGE = "am start -a android.settings.WIFI_SETTINGS"


def _score(validator, env) -> float:
    return validator.evaluate(env, validator.snapshot(env)).score


def test_a_commands_output_is_matched_by_a_regex(env) -> None:
    check = command_output_matches("settings get global wifi_on", r"^1$")
    env.device.check("svc wifi disable")
    result = check.evaluate(env, None)
    assert result.score == 0.0 and "does not match /^1$/" in result.reasons[0]
    env.device.check("svc wifi enable")
    assert _score(check, env) == 1.0


def test_a_ui_elements_attributes_are_read_from_the_screen(env) -> None:
    env.device.check("svc wifi disable")
    env.device.check(WIFI_PAGE)
    switch_on = ui_element_matches({"class_name": r".*Switch"}, checked=True)
    assert _score(switch_on, env) == 0.0
    assert _score(ui_element_matches({"class_name": r".*Switch"}, checked=False, enabled=True), env) == 1.0
    env.device.check("svc wifi enable")
    assert _score(switch_on, env) == 1.0
    missing = ui_element_matches({"resource_id": "no_such_id"}, checked=True).evaluate(env, None)
    assert missing.score == 0.0 and "no element on the screen matches" in missing.reasons[0]


def test_key_components_are_found_in_the_screens_text_case_aside(env) -> None:
    env.device.check(WIFI_PAGE)
    assert _score(key_components(["INTERNET", "androidwifi"]), env) == 1.0
    result = key_components(["Internet", "Bluetooth pairing"]).evaluate(env, None)
    assert result.score == 0.0 and "'Bluetooth pairing'" in result.reasons[0]
    # lower-cased and concatenated, as SPA-Bench matches OCR text: spacing does not count, letters do
    assert _score(key_components(["android wifi", "Inter\nnet"]), env) == 1.0
    assert _score(key_components(["androidwify"]), env) == 0.0


@pytest.mark.parametrize("build", [lambda: ui_element_matches({"colour": "x"}, checked=True),
                                   lambda: ui_element_matches({"text": "x"}, shiny=True),
                                   lambda: key_components([]),
                                   lambda: command_output_matches("true", "(")])
def test_a_malformed_detector_is_refused_when_built(build) -> None:
    with pytest.raises(Exception) as raised:
        build()
    assert isinstance(raised.value, (ValueError, __import__("re").error))


DETECTOR_SPEC = '''
name: "WifiOnSeenOnScreen"
apps: "settings"
complexity: 1
goal: "Turn wifi on and leave its page open."
setup { shell { command: "svc wifi disable" } }
success {
  all {
    check { command_output_matches { command: "settings get global wifi_on" pattern: "^[12]$" } }
    check { ui_element_matches { class_name: ".*Switch" checked: true } }
    check { key_components { items: ["Internet", "AndroidWifi"] } }
  }
}
oracle { shell { command: "svc wifi enable" } }
oracle { shell { command: "am start -a android.settings.WIFI_SETTINGS" } }
'''


def test_a_spec_written_with_the_detectors_is_solved_by_its_oracle_and_its_near_misses_fail(tmp_path) -> None:
    from taskkit import specs
    from taskkit.testing import check_near_miss, check_solvable

    path = tmp_path / "wifi_on_seen.textproto"
    path.write_text(DETECTOR_SPEC)
    task = specs.load_file(path, register=False)
    check_solvable(task, seeds=[0])  # the oracle scores 1.0 and the start scores less
    assert "near_miss pass" in str(check_near_miss(task, seeds=[0]))  # home, or one screen back, fails the screen checks


def test_key_components_read_the_screenshots_words_with_ocr(env) -> None:
    """A word drawn only as pixels (a picture of a note in the gallery) is found with `ocr=True`,
    never from the dump alone (Debian's tesseract-ocr is a test dependency)."""
    import shutil

    from taskkit.apps import pictures, simple_gallery_pro
    from tests.sim.gui.helpers import tap

    assert shutil.which("tesseract"), "tesseract-ocr is a test dependency (tests/setup_and_run.sh installs it)"
    picture = pictures.text_picture(["BLUEBERRY MUFFIN 4.25", "ORANGE JUICE 3.10"], "png")
    simple_gallery_pro.add_picture(env.device, simple_gallery_pro.DCIM, "note.png", picture)
    env.device.check("am start -n com.simplemobiletools.gallery.pro/.activities.MainActivity")
    tap(env.device, "DCIM")
    tap(env.device, "note.png")
    assert _score(key_components(["Blueberry Muffin"]), env) == 0.0  # not in any text of the dump
    assert _score(key_components(["Blueberry Muffin", "orange juice"], ocr=True), env) == 1.0
    missing = key_components(["Blueberry Scone"], ocr=True).evaluate(env, None)
    assert missing.score == 0.0 and "'Blueberry Scone'" in missing.reasons[0]
