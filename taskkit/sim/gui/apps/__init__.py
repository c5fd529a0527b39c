"""The modeled apps' screens, one module per app; importing this package registers them.

Adding an app is one module here (see taskkit/sim/gui/app.py for the API) and its name below.
"""
from __future__ import annotations

# Each module registers its screens when imported.
from taskkit.sim.gui.apps import (  # noqa: F401
    audio_recorder, broccoli, calculator, calendar, chrome, clock, contacts, dialer, expense, files, joplin, markor,
    opentracks, osmand, retro_music, settings, simple_draw_pro, simple_gallery_pro, sms, tasks_org, vlc, wikipedia,
)
