"""A task judged the other seeds' ways, written only against taskkit's public names.

    python -m taskkit.run --task_module examples/seed_judging.py --tasks RecordThenWifiOn
    python -m taskkit.check --task_module examples/seed_judging.py --tasks RecordThenWifiOn

"Record a clip in Audio Recorder, then turn Wi-Fi on and leave its settings page open." Its
check uses every detector B-MoCA and SPA-Bench judge by, and it reports AndroidLens' progress:

* B-MoCA's app data: Audio Recorder's `record_counter` shared preference went up by one;
* B-MoCA's system log: ActivityTaskManager's START line for the Wi-Fi settings page;
* B-MoCA's UI attributes: the page's switch is checked;
* SPA-Bench's key components: the final screen shows "Wi‑Fi" and the network's name;
* milestones: the recording, then the page (ordered), and Wi-Fi on with its switch shown (any
  order, the setting held to the end).
"""
from __future__ import annotations

from typing import Any

from taskkit import TaskEval
from taskkit.apps import audio_recorder
from taskkit.validators import (all_of, key_components, logcat_matches, milestone, ordered, setting_equals,
                                shared_pref_equals, ui_element_matches, unordered)

WIFI_PAGE = r"START u0 \{.*cmp=com\.android\.settings/\.Settings\$WifiSettingsActivity\}"


class RecordThenWifiOn(TaskEval):
    """Record one clip, then turn Wi-Fi on and leave its settings page open."""

    app_names = ("audio recorder", "settings")
    complexity = 2.0
    template = "Record an audio clip in Audio Recorder, then turn Wi-Fi on and leave the Wi-Fi settings open."
    schema = {"type": "object", "properties": {"older": {"type": "integer", "minimum": 0, "maximum": 3}},
              "required": ["older"]}

    @classmethod
    def generate_random_params(cls, rng: Any) -> dict[str, Any]:
        return {"older": rng.randint(0, 3)}  # earlier recordings: the counter starts there

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        env.device.check("svc wifi disable")
        for _ in range(self.params["older"]):
            audio_recorder.save_recording(env.device, 2)

    # --- the checks ----------------------------------------------------------------------------
    def _recorded(self) -> Any:
        return shared_pref_equals(audio_recorder.PACKAGE, audio_recorder.PREFS_FILE, "record_counter",
                                  self.params["older"] + 1)

    def validator(self) -> Any:
        return all_of(self._recorded(), logcat_matches("ActivityTaskManager:I", WIFI_PAGE),
                      ui_element_matches({"resource_id": "android:id/switch_widget"}, checked=True),
                      key_components(["Wi‑Fi", "AndroidWifi"]))

    def milestones(self) -> Any:
        return (ordered(milestone("recorded", self._recorded()),
                        milestone("wifi page", logcat_matches("ActivityTaskManager:I", WIFI_PAGE))),
                unordered(milestone("wifi on", setting_equals("global", "wifi_on", ["1", "2"]), must_hold=True),
                          milestone("switch shown on", ui_element_matches({"resource_id": "android:id/switch_widget"},
                                                                          checked=True))))

    def solve(self, env: Any) -> None:
        audio_recorder.save_recording(env.device, 3)
        env.device.check("svc wifi enable && am start -a android.settings.WIFI_SETTINGS")
