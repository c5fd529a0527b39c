"""OpenTracks: the recorded tracks, newest first, and a track's statistics (name, activity
type, start, total time, distance, elevation gain, description), read from `tracks`.

Labels follow OpenTracks' track list and statistics screens (distance in km, times as
h:mm:ss, the activity type as the category). Simplified: no recording, map, charts, markers or
editing (no built-in task records or edits a track); ids are taskkit's where no public layout
names them.
"""
from __future__ import annotations

from typing import Any

from taskkit.apps.opentracks import (DB_PATH, KEY, PACKAGE, TABLE, distance_meters, format_start_date,
                                     format_start_time)
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
DETAILS = ".TrackRecordedActivity"


def _clock(ms: int) -> str:
    seconds = int(ms) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _km(track: dict[str, Any]) -> str:
    return f"{distance_meters(track) / 1000:.2f} km"


def _list(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = widgets.app_bar(ui, "OpenTracks", up=False)
    rows = [widgets.Row(m.dp(80), lambda b, t=t: widgets.list_item(
        ui, b, str(t["name"] or ""), f"{format_start_date(t)} {format_start_time(t)} \u00b7 {t['category'] or ''} \u00b7 {_clock(t['totaltime'])}",
        trailing=_km(t), action=lambda s, i=t[KEY]: s.push("details", track=int(i)),
        title_rid=f"{ID}list_item_name", subtitle_rid=f"{ID}list_item_date", trailing_rid=f"{ID}list_item_distance"))
        for t in appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} ORDER BY starttime DESC, {KEY} DESC")]
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, f"{ID}track_list", "No tracks yet"))
    return nodes


def _details(ui: Session, frame: Frame) -> list[Node]:
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} WHERE {KEY} = ?", [int(frame.args.get("track", 0))])
    track = found[0] if found else None
    nodes, top = widgets.app_bar(ui, str(track["name"] or "") if track else "")
    if track is None:
        return nodes
    lines, _ = widgets.details(ui, top, [
        ("Activity type", str(track["category"] or ""), f"{ID}stats_activity_type"),
        ("Start", f"{format_start_date(track)} {format_start_time(track)}", f"{ID}stats_start_datetime"),
        ("Total time", _clock(track["totaltime"]), f"{ID}stats_total_time_value"),
        ("Moving time", _clock(track["movingtime"] or 0), f"{ID}stats_moving_time_value"),
        ("Distance", _km(track), f"{ID}stats_distance_value"),
        ("Elevation gain", f"{round(float(track['elevationgain'] or 0))} m", f"{ID}stats_elevation_gain_value"),
        ("Description", str(track["description"] or ""), f"{ID}stats_description")])
    return nodes + lines


APP = register(AppScreens(PACKAGE, {"list": Screen(_list), "details": Screen(_details, DETAILS)}, first="list"))
