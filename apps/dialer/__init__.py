"""Phone (Google's Dialer, `com.google.android.dialer`): the app AndroidWorld's OpenAppTaskEval
opens as "dialer".

Launch-only: its package and launcher activity (`.extensions.GoogleDialtactsActivity`, as the
Pixel images' dialer declares it). Calls are not modelled.
"""
from __future__ import annotations

from taskkit.apps.base import App

PACKAGE = "com.google.android.dialer"

APP = App(name="dialer", package=PACKAGE, aliases=("phone",))
