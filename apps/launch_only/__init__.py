"""The rest of AndroidWorld's apps, launch-only so far: their packages and launcher activities
(as AndroidWorld's adb_utils maps app names to activities, and each app's AndroidManifest.xml),
under AndroidWorld's names, so tasks naming them load, open them (OpenAppTaskEval) and list them.

Their data (playlists, map favourites, browser pages) is not modelled yet: the
tasks that read it are the missing ones listed in docs/android-world.md.
"""
from __future__ import annotations

from taskkit.apps.base import App

CHROME = App(name="chrome", package="com.android.chrome", activity="com.google.android.apps.chrome.Main",
             aliases=("google chrome",))
OSMAND = App(name="osmand", package="net.osmand", activity="net.osmand.plus.activities.MapActivity")
RETRO_MUSIC = App(name="retro music", package="code.name.monkey.retromusic", activity=".activities.MainActivity",
                  aliases=("retro", "retro player"))
VLC = App(name="vlc", package="org.videolan.vlc", activity=".gui.MainActivity", aliases=("vlc player",))

APPS = (CHROME, OSMAND, RETRO_MUSIC, VLC)
