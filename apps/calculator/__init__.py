"""Calculator (Google's, `com.google.android.calculator`): the formula and result its screen shows.

Launcher activity `com.android.calculator2.Calculator` (the class of AOSP ExactCalculator's
AndroidManifest.xml, which Google's app keeps). The app stores no table a task reads: what was
typed lives on its screen (the formula field `formula`, the result line `result_preview` while
typing and `result_final` after `=`), which is where B-MoCA's calculator detectors look. The
simulated app keeps that screen's state in its shared preferences (`DISPLAY_STATE`,
taskkit/sim/gui/apps/calculator.py), so a restore point brings the screen back; `reset` is
`pm clear`, which also closes the app (a fresh formula, radian mode). Formulas,
their keys and their values: `taskkit.apps.calculator.formula`.
"""
from __future__ import annotations

from taskkit.apps.base import App
from taskkit.device.base import Device

PACKAGE = "com.google.android.calculator"
# The display's state (formula, result, DEG/RAD, inverse) as the simulated app keeps it: its default
# shared preferences (`degree_mode` is ExactCalculator's key; the `display_*` keys are taskkit's
# stand-in for the app's saved instance state).
DISPLAY_STATE = f"/data/data/{PACKAGE}/shared_prefs/{PACKAGE}_preferences.xml"


def reset(device: Device) -> None:
    """Clear the app's data: an empty formula at the next start."""
    device.packages.clear(PACKAGE)


APP = App(name="calculator", package=PACKAGE, data_paths=(DISPLAY_STATE,), reset=reset)
