"""app_in_foreground: the app in front, by AndroidWorld's app name, in Python and in specs."""
from __future__ import annotations

from pathlib import Path

import pytest

from taskkit import apps, specs
from taskkit.validators import app_in_foreground


def test_the_app_in_front_is_what_counts(env) -> None:
    check = app_in_foreground("clock")
    apps.get("clock").launch(env.device)
    assert check.evaluate(env, None).score == 1.0
    apps.get("camera").launch(env.device)
    result = check.evaluate(env, None)
    assert result.score == 0.0
    assert result.reasons == ("the app in front is com.android.camera2, expected clock (com.google.android.deskclock)",)
    env.device.check("input keyevent HOME")
    assert app_in_foreground("phone").evaluate(env, None).score == 0.0  # aliases resolve; the launcher is in front


def test_a_spec_naming_an_unknown_app_fails_at_load_time(tmp_path: Path) -> None:
    path = tmp_path / "open.textproto"
    path.write_text('name: "OpenGallery" apps: "settings" complexity: 1 goal: "Open the gallery."\n'
                    'success { app_in_foreground { app: "galery" } }\n'
                    'oracle { shell { command: "true" } }\n')
    with pytest.raises(specs.SpecError) as caught:
        specs.load_file(path, register=False)
    assert caught.value.field == "success.app_in_foreground.app" and "unknown app 'galery'" in caught.value.message
