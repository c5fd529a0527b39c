"""Cross-app tasks built from existing ones, with partial reward."""
from __future__ import annotations

from taskkit.apps.markor.tasks import MarkorCreateNote
from taskkit.apps.settings.tasks import OpenAppTaskEval, SystemBluetoothTurnOn, SystemWifiTurnOff, SystemWifiTurnOn
from taskkit.apps.sms.tasks import SimpleSmsSend
from taskkit.composite import compose

MarkorCreateNoteAndSms = compose(
    "MarkorCreateNoteAndSms",
    [("note", MarkorCreateNote), ("sms", SimpleSmsSend)],
    template=(
        "Create a new note in Markor named {{ note.file_name }} with the following text: {{ note.text }} "
        "Then share the entire content of the note with the phone number {{ sms.number }} via SMS using "
        "Simple SMS Messenger."
    ),
    bindings={"sms.message": "note.text"},
    complexity=1.8,  # AndroidWorld's
)

# AndroidWorld's composite system task: half the reward for each setting.
TurnOffWifiAndTurnOnBluetooth = compose(
    "TurnOffWifiAndTurnOnBluetooth",
    [("wifi", SystemWifiTurnOff), ("bluetooth", SystemBluetoothTurnOn)],
    template="Turn off WiFi, then enable bluetooth",
    complexity=2,
)

# AndroidWorld's: half the reward for Wi-Fi, half for the app in front.
TurnOnWifiAndOpenApp = compose(
    "TurnOnWifiAndOpenApp",
    [("wifi", SystemWifiTurnOn), ("app", OpenAppTaskEval)],
    template="Turn on Wifi, then open the {{ app.app_name }} app",
    complexity=2,
)
