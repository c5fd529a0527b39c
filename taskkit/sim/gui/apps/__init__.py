"""The modeled apps' screens, one module per app; importing this package registers them.

Adding an app is one module here (see taskkit/sim/gui/app.py for the API) and its name below.
"""
from __future__ import annotations

from taskkit.sim.gui.apps import contacts, settings, sms  # noqa: F401 - each registers its screens
