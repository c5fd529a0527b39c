"""The recall (taskkit.fidelity.recall): every screen of the measured app models has a cited entry
in the screen map, the committed fixture holds every layout the map names (and equals the
sources when they are on this machine), the code's hide/show rules and the toolbar's placing
apply, and, end to end on one Pro Expense reference, the table names the missing ids."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from taskkit.fidelity import recall, screen_map
from taskkit.fidelity import table as fidelity
from taskkit.sim.gui.app import APPS

SOURCES = Path(os.environ.get("TASKKIT_APP_SOURCES", "/tmp/app-sources"))


def test_every_screen_of_the_measured_apps_has_an_entry() -> None:
    measured = {app.package for app in fidelity.modelled_apps()}
    assert set(screen_map.SCREENS) == measured  # every app model with a SOURCE is measured
    missing = {package: screen_map.unmapped(package, list(APPS[package].screens)) for package in measured}
    assert {package: names for package, names in missing.items() if names} == {}, (
        "add these screens to taskkit/fidelity/screen_map.py (their layouts, or why they are not measured)")
    for package, entries in screen_map.SCREENS.items():
        for key, real in entries.items():
            assert bool(real.not_measured) != bool(real.keys()), f"{package} {key}: layouts or a reason, not both"
            assert all(rule.ids and ":" in rule.why for rule in real.hidden + real.shown), f"{package} {key}: cite"


def test_a_new_screen_without_an_entry_is_named() -> None:
    assert screen_map.unmapped("com.arduia.expense", ["home", "invented"]) == ["invented"]
    assert screen_map.unmapped("code.name.monkey.retromusic", ["main"]) == []  # a screen with variants


def test_the_fixture_holds_every_layout_the_map_names() -> None:
    fixture = recall.load_fixture()
    assert set(fixture["commits"]) >= {app.source.folder for app in fidelity.modelled_apps()}
    for package, entries in screen_map.SCREENS.items():
        needed = {key for real in entries.values() for key in real.keys()}
        assert needed <= set(fixture["layouts"][package]), package


@pytest.mark.skipif(not (SOURCES / "markor-v2.10.9").is_dir(),
                    reason=f"the app sources are not at {SOURCES} (TASKKIT_APP_SOURCES): CI reads the committed fixture")
def test_the_fixture_matches_the_sources() -> None:
    apps = fidelity.modelled_apps()
    folders = {source.folder: fidelity.checkout(SOURCES, source) for app in apps
               for source in (app.source, *app.source.libraries)}
    assert fidelity.recall_fixture(apps, folders)["layouts"] == recall.load_fixture()["layouts"], (
        "rewrite it: python -m taskkit.fidelity.table --recall --sources DIR")


def test_hidden_and_shown_rules_and_the_toolbar() -> None:
    layouts = {"screen:main": {"ids": ["title", "list"], "hidden": ["empty", "badge"]},
               "menu:bar": {"ids": ["search"], "if_room": ["sort", "share"], "overflow": ["about"], "hidden": ["delete"]}}
    real = screen_map.Real(screens=("main",), menus=("bar",),
                           hidden=(screen_map.Rule(("list", "about"), "Main.kt:1"),),
                           shown=(screen_map.Rule(("badge", "delete"), "Main.kt:2"),))
    # list hidden by code; badge and delete shown by code; with about hidden nothing goes to the
    # overflow, so search, delete, sort and share want 4 > 3 slots: the overflow button takes one
    assert recall.expected("p", real, layouts) == ["p:id/title", "p:id/badge", "p:id/search", "p:id/delete"]
    assert recall.expected("p", screen_map.Real(screens=("main",)),
                           {"screen:main": {"ids": ["android:list"], "hidden": []}}) == ["android:id/list"]


def test_rows_per_screen_name_the_missing_ids() -> None:
    visits = {("p", "main"): recall.Visits({"p:id/title"}, {"AwTask"}), ("p", "odd"): recall.Visits(set(), {"T"})}
    layouts = {"p": {"screen:main": {"ids": ["title", "list"], "hidden": []}}}
    original = dict(screen_map.SCREENS)
    screen_map.SCREENS["p"] = {"main": screen_map.Real(screens=("main",))}
    try:
        rows = recall.screen_rows(visits, layouts, {"AwTask"})
    finally:
        screen_map.SCREENS.clear()
        screen_map.SCREENS.update(original)
    assert [(r.screen, r.expected, r.found, r.missing, r.android_world) for r in rows] == [
        ("main", 2, 1, ("p:id/list",), True), ("odd", 0, 0, (), False)]
    assert "no entry" in rows[1].not_measured
    text = recall.table(rows)
    assert "| p | 1 | 50 % (1/2) |" in text and "| p | main | yes | 50 % (1/2) | `list` |" in text


@pytest.fixture(scope="module")
def expense_rows() -> list[recall.ScreenRow]:
    seen = fidelity.play_references(tasks=["ExpenseDeleteSingle"])
    return recall.screen_rows(fidelity.screens_seen(seen), recall.load_fixture()["layouts"], {"ExpenseDeleteSingle"})


def test_end_to_end_on_one_pro_expense_reference(expense_rows: list[recall.ScreenRow]) -> None:
    by_screen = {row.screen: row for row in expense_rows if row.package == "com.arduia.expense"}
    home = by_screen["home"]
    assert home.android_world and home.expected > 20 and 0 < home.found <= home.expected
    assert "com.arduia.expense:id/nv_main" not in home.missing  # the closed drawer is not counted
    assert set(home.missing) <= set(recall.expected("com.arduia.expense", screen_map.EXPENSE["home"],
                                                    recall.load_fixture()["layouts"]["com.arduia.expense"]))


def test_the_recall_command_needs_no_sources_and_refuses_a_write_without_them(monkeypatch, capsys) -> None:
    visit = recall.Visits({"com.arduia.expense:id/rv_home"}, {"ExpenseDeleteSingle"})
    seen = {"com.arduia.expense": fidelity.Seen(visits={"home": visit})}
    monkeypatch.setattr(fidelity, "play_references", lambda: seen)
    assert fidelity.main(["--recall"]) == 0
    assert "| com.arduia.expense | home | yes |" in capsys.readouterr().out
    assert fidelity.main(["--recall", "--write", "x.md"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--sources DIR is needed" in err[0]
