"""`python -m taskkit.fidelity.table` on a tiny fake source tree (CI has no internet): the ids
and static labels it counts, the user data it leaves out, a missing checkout (one line, exit 2)
and the JSON it prints. Every app model it reads names a source."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from taskkit.fidelity import table as fidelity
from taskkit.sim.gui.source import APPCOMPAT, FRAMEWORK, MATERIAL, Source

APP = fidelity.Modelled("fake", "org.example.notes", Source("example/notes", "v1.0", 7))
DUMP = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node text="" resource-id="android:id/content" class="android.widget.FrameLayout" package="org.example.notes" content-desc="">
<node text="Notes" resource-id="org.example.notes:id/title" class="android.widget.TextView" package="org.example.notes" content-desc="" />
<node text="" resource-id="org.example.notes:id/invented" class="android.widget.ImageButton" package="org.example.notes" content-desc="Navigate up" />
<node text="3 notes" resource-id="" class="android.widget.TextView" package="org.example.notes" content-desc="" />
<node text="1 notes" resource-id="" class="android.widget.TextView" package="org.example.notes" content-desc="" />
<node text="Delete groceries.md?" resource-id="android:id/message" class="android.widget.TextView" package="org.example.notes" content-desc="" />
<node text="Create a new file" resource-id="android:id/alertTitle" class="android.widget.TextView" package="org.example.notes" content-desc="" />
<node text="groceries.md" resource-id="" class="android.widget.TextView" package="org.example.notes" content-desc="" />
<node text="Oct 14, 12:30" resource-id="" class="android.widget.TextView" package="org.example.notes" content-desc="" />
<node text="my own words" resource-id="" class="android.widget.EditText" package="org.example.notes" content-desc="" />
</node>
<node text="12:00" resource-id="com.android.systemui:id/clock" class="android.widget.TextView" package="com.android.systemui" content-desc="" />
</hierarchy>"""


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    app = tmp_path / APP.source.folder / "app/src/main/res"
    _write(app / "layout/main.xml", '<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android">'
                                    '<TextView android:id="@+id/title" android:text="@string/app_name"/>'
                                    '<TextView android:id="@+id/count" android:text="Notes"/></LinearLayout>')
    _write(app / "values/strings.xml", '<resources><string name="app_name">Example</string>'
                                       '<string name="ask">Delete %1$s?</string>'
                                       '<string name="any">%1$s</string>'
                                       '<plurals name="notes"><item quantity="one">%d note</item>'
                                       '<item quantity="other">%d notes</item></plurals></resources>')
    _write(app / "values-de/strings.xml", '<resources><string name="ask">Create a new file</string></resources>')
    framework = tmp_path / FRAMEWORK.folder / str(FRAMEWORK.res)
    _write(framework / "values/ids.xml", '<resources><item type="id" name="content"/><item type="id" name="message"/>'
                                         '<item type="id" name="alertTitle"/></resources>')
    compat = tmp_path / APPCOMPAT.folder / str(APPCOMPAT.res)
    _write(compat / "values/strings.xml", '<resources><string name="abc_action_bar_up_description">Navigate up'
                                          '</string></resources>')
    _write(tmp_path / APPCOMPAT.folder / "README.md", "\npartial copy of a|b at abc123\n\nmore\n")
    material = tmp_path / MATERIAL.folder / str(MATERIAL.res) / "com/google/android/material/dialog/res"
    _write(material / "layout/dialog.xml", '<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android">'
                                           '<Button android:id="@+id/invented_elsewhere"/></LinearLayout>')
    _write(tmp_path / MATERIAL.folder / "catalog/res/values/strings.xml",  # not a library folder: ignored
           '<resources><string name="demo">Create a new file</string></resources>')
    return tmp_path


def _seen(data: set[str]) -> dict[str, fidelity.Seen]:
    seen: dict[str, fidelity.Seen] = {}
    fidelity.read_dump(DUMP, "FakeTask", seen, data)
    return seen


def test_ids_and_static_labels_are_counted_against_the_checkouts(sources: Path, monkeypatch) -> None:
    monkeypatch.setattr(fidelity, "measured_apps", lambda: [APP])
    apps, folders = fidelity.locate(sources)
    [row] = fidelity.build_rows(apps, folders, _seen({"groceries.md", "groceries"}))
    assert (row.ids_found, row.ids_total) == (4, 5)  # content, message, alertTitle (framework), title; not invented
    assert row.missing_ids == (("org.example.notes:id/invented", "FakeTask"),)
    # found: Notes (a layout's literal), Navigate up (AppCompat), 3 notes (the plural's other form),
    # Delete groceries.md? (a format); the plural's "one" form does not take 1 "notes"; another
    # language's strings do not count; the file name, the date and the typed text are user data
    assert (row.labels_found, row.labels_total) == (4, 6)
    assert [label for label, _ in row.missing_labels] == ["1 notes", "Create a new file"]
    assert row.screens == 1


def test_escaped_markup_and_unicode_escapes_are_read_as_android_shows_them() -> None:
    """PermissionController's permgrouprequest_microphone, "Allow &lt;b>%1$s&lt;/b> to record
    audio?", is shown through Html.fromHtml: bold, without the tags; its grant_dialog_button_deny,
    "Don\\u2019t allow", with the typographic apostrophe aapt decodes."""
    found = fidelity.Resources()
    found.add_string("Allow <b>%1$s</b> to record audio?")
    found.add_string("Don\\u2019t allow")
    assert found.has_label("Allow Audio Recorder to record audio?") and found.has_label("Don\u2019t allow")


def test_a_label_made_only_of_data_is_left_out_but_one_with_words_is_not() -> None:
    assert fidelity.is_data("Record-3.m4a, Oct 14 12:30", {"Record-3"})
    assert fidelity.is_data("12.2 kB", set()) and not fidelity.is_data("3 items", set())
    assert not fidelity.is_data("Record-3 saved", {"Record-3"})


def test_bundled_json_a_length_filter_and_strings_joined_by_a_comma(sources: Path, monkeypatch) -> None:
    """Pro Expense's currency code (assets/currencies.json), its names cut by android:maxLength="20"
    and Audio Recorder's "0 Mb, M4a, 44.1kHz" (strings joined by AppConstants.SEPARATOR) are found
    or data; a cut at another length, or a part no string has, is not."""
    main = sources / APP.source.folder / "app/src/main"
    _write(main / "assets/currencies.json", '[{"code": "USD", "rank": 1}]')
    _write(main / "res/layout/row.xml", '<TextView xmlns:android="http://schemas.android.com/apk/res/android" '
                                        'android:maxLength="5"/>')
    _write(main / "res/values/arrays.xml", '<resources><string name="size">%s Mb</string>'
                                           '<string-array name="formats"><item>M4a</item></string-array></resources>')
    labels = ("USD", "Groce", "Gro", "0 Mb, M4a", "0 Mb, Wav")
    dump = "<hierarchy>" + "".join(f'<node text="{label}" resource-id="" class="android.widget.TextView" '
                                   f'package="{APP.package}" content-desc="" />' for label in labels) + "</hierarchy>"
    seen: dict[str, fidelity.Seen] = {}
    fidelity.read_dump(dump, "FakeTask", seen, {"Groceries"})
    monkeypatch.setattr(fidelity, "measured_apps", lambda: [APP])
    [row] = fidelity.build_rows(*fidelity.locate(sources), seen)
    assert [label for label, _ in row.missing_labels] == ["0 Mb, Wav", "Gro"]
    assert (row.labels_found, row.labels_total) == (2, 4)  # USD and "0 Mb, M4a"; "Groce" is data


def test_a_missing_checkout_is_one_line_and_exit_code_2(sources: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(fidelity, "measured_apps", lambda: [APP])
    monkeypatch.setattr(fidelity, "play_references", lambda: pytest.fail("played before the sources were checked"))
    assert fidelity.main(["--sources", str(sources / "nowhere")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not a directory" in err[0]
    shutil.rmtree(sources / FRAMEWORK.folder)
    assert fidelity.main(["--sources", str(sources)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and FRAMEWORK.folder in err[0] and "git clone" in err[0]


def test_json_rows_and_the_written_document(sources: Path, monkeypatch, capsys, tmp_path: Path) -> None:
    monkeypatch.setattr(fidelity, "measured_apps", lambda: [APP])
    monkeypatch.setattr(fidelity, "play_references", lambda: _seen({"groceries.md"}))
    written = tmp_path / "fidelity.md"
    assert fidelity.main(["--sources", str(sources), "--json", "--write", str(written)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"rows", "commits", "recall"} and out["recall"] == [] and set(out["commits"]) == {APP.source.folder, FRAMEWORK.folder,
                                                                       APPCOMPAT.folder, MATERIAL.folder}
    assert out["commits"][APP.source.folder] == "not a git checkout (partial copy)"
    # a partial copy's README.md says what it is: its first line, a "|" kept out of the table
    assert out["commits"][APPCOMPAT.folder] == "not a git checkout (partial copy; README.md: partial copy of a/b at abc123)"
    [row] = out["rows"]
    assert {key: row[key] for key in ("package", "source", "tag", "version_code", "ids_found", "ids_total")} == {
        "package": "org.example.notes", "source": "example/notes", "tag": "v1.0", "version_code": 7,
        "ids_found": 4, "ids_total": 5}
    assert row["missing_ids"] == [["org.example.notes:id/invented", "FakeTask"]]
    document = written.read_text(encoding="utf-8")
    assert "| org.example.notes | example/notes v1.0 | 7 | 1 | 80 % (4/5) | 67 % (4/6) |" in document
    assert '- label "Create a new file"' in document and "`org.example.notes:id/invented`" in document
    assert "Generated on " in document and f"| {APP.source.folder} | not a git checkout (partial copy) |" in document
    assert "A partial copy holds only the files its README.md lists" in document
    assert "## Recall: what the real screens show" in document  # no app screen visited: the empty recall table


def test_every_app_the_issue_measures_names_its_source() -> None:
    packages = {app.package: app.source for app in fidelity.modelled_apps()}
    assert {"net.gsantner.markor", "com.simplemobiletools.smsmessenger", "com.simplemobiletools.calendar.pro",
            "com.arduia.expense", "code.name.monkey.retromusic", "com.dimowner.audiorecorder",
            "com.simplemobiletools.gallery.pro", "com.simplemobiletools.draw.pro"} <= set(packages)
    assert all(source.version_code for source in packages.values())
    # the runtime-permission dialog's rows too: PermissionController at Android 13
    measured = {app.package: app.source for app in fidelity.measured_apps()}
    assert measured["com.google.android.permissioncontroller"].tag == "lineage-20.0" and set(packages) < set(measured)
