"""Clock (Google's DeskClock, `com.google.android.deskclock`): the app AndroidWorld's
OpenAppTaskEval opens.

Launch-only so far: its package and launcher activity (`com.android.deskclock.DeskClock`, AOSP
packages/apps/DeskClock AndroidManifest.xml). Its timers and stopwatch, which AndroidWorld's clock
tasks read from the screen, are not modelled yet.
"""
from __future__ import annotations

from taskkit.apps.base import App

PACKAGE = "com.google.android.deskclock"
ACTIVITY = "com.android.deskclock.DeskClock"

APP = App(name="clock", package=PACKAGE, activity=ACTIVITY, aliases=("deskclock",))
