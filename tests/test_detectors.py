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


@pytest.mark.parametrize("build", [lambda: ui_element_matches({"colour": "x"}, checked=True),
                                   lambda: ui_element_matches({"text": "x"}, shiny=True),
                                   lambda: key_components([]),
                                   lambda: command_output_matches("true", "(")])
def test_a_malformed_detector_is_refused_when_built(build) -> None:
    with pytest.raises(Exception) as raised:
        build()
    assert isinstance(raised.value, (ValueError, __import__("re").error))
