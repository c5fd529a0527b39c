"""taskkit.fidelity.compare and its manifest (taskkit.fidelity.published): every pairing resolves
without the screenshots, the command writes a sheet and an index from one synthetic screenshot,
and a folder without the screenshots is one line and exit code 2."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from taskkit.fidelity import compare, published
from taskkit.gui_reference import Step
from taskkit.sim.gui.apps import markor


def test_every_pairing_of_the_manifest_resolves():
    apps, pairings = published.load()
    assert {p.app.key for p in pairings} == {key for key, app in apps.items() if app.path}  # one at least per app
    assert apps["audio_recorder"].path is None and apps["audio_recorder"].none
    for pairing in pairings:
        assert pairing.app.source.folder and pairing.cited.startswith(f"{pairing.app.source.repo}@{pairing.app.source.tag}:")
        assert pairing.steps and all(isinstance(step, Step) for step in pairing.steps)
        assert pairing.steps[0].action == "open_app"
        assert pairing.bars in published.BARS and pairing.screen


def _manifest(tmp_path: Path, **entry: object) -> Path:
    screen = {"app": "markor", "file": "01.jpg", "screen": "files", "bars": "none", "density": 400,
              "setup": [{"call": "markor.create_note", "args": {"name": "QuickNote.md", "text": "x"}}],
              "steps": [["open_app", "markor"]], **entry}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"apps": {"markor": {"path": "shots", "shot": "abc, 2022-01-22", "extra": ["samples"]}},
                                "screens": [screen]}))
    return path


@pytest.mark.parametrize("entry, problem", [
    ({"app": "nowhere"}, "app must be"),
    ({"file": "../01.jpg"}, "file must be"),
    ({"steps": [["fly", "x"]]}, "a step is"),
    ({"steps": [["tap", {"colour": "red"}]]}, "a locator is"),
    ({"setup": [{"call": "markor.no_such_helper"}]}, "no helper"),
    ({"setup": [{"call": "markor.create_note", "args": {"title": "x"}}]}, "create_note"),
    ({"setup": [{"rows": "expense.expense", "values": [{"price": 1}]}]}, "no column price"),
    ({"setup": [{"push": "/etc/passwd", "to": "/sdcard/x"}]}, "outside the app's extra paths"),
    ({"setup": [{"push": "samples/../../x", "to": "/sdcard/x"}]}, "outside the app's extra paths"),
    ({"setup": "no such set-up"}, "no set-up named"),
    ({"bars": "some"}, "bars must be"),
    ({"crop": [10, 10, 5, 20]}, "crop is"),
])
def test_a_bad_entry_is_named(tmp_path, entry, problem):
    with pytest.raises(published.ManifestError, match=problem):
        published.load(_manifest(tmp_path, **entry))


def test_the_display_has_the_screenshots_aspect_without_the_bars_it_does_not_show():
    _, pairings = published.load()
    for bars, cut in (("both", 0), ("status", 126), ("none", 63 + 126)):
        pairing = published.Pairing(pairings[0].app, "1.png", "s", pairings[0].steps, bars=bars, density=420)
        width, height, top, bottom = pairing.display(2.0)
        assert (width, bottom - top, height) == (1080, 2160, 2160 + cut)


def test_the_command_writes_a_sheet_and_an_index(tmp_path, capsys, monkeypatch):
    # tesseract's readings, stood in for: of the published picture's three words, the simulated
    # screen's dump shows two (the title, the note) and its picture reads as the third
    readings = iter(["Markor QuickNote.md Elsewhere Nowhere 12:30", "Nowhere"])
    monkeypatch.setattr(compare, "screen_words", lambda png: next(readings))
    shots = tmp_path / "DIR" / markor.SOURCE.folder / "shots"
    shots.mkdir(parents=True)
    Image.new("RGB", (530, 1000), (200, 30, 30)).save(shots / "01.jpg")
    out = tmp_path / "out"
    assert compare.main(["--screenshots", str(tmp_path / "DIR"), "--output_dir", str(out),
                         "--manifest", str(_manifest(tmp_path)), "--ocr"]) == 0
    with Image.open(out / "markor-01.jpg") as sheet:
        assert sheet.height == compare.HEIGHT + compare._CAPTION + compare._GAP
        left = sheet.convert("RGB").getpixel((compare._GAP + 20, compare._CAPTION + 20))
        assert left[0] > 150 and left[1] < 80  # the published picture, on the left
    index = (out / "index.html").read_text()
    assert "markor-01.jpg" in index and "gsantner/markor@v2.10.9:shots/01.jpg" in index
    assert '<td class="n">3/4</td>' in index  # markor, quicknote, nowhere of markor, quicknote, elsewhere, nowhere
    assert "markor-01.jpg" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [[], ["--screenshots", "{empty}"]])
def test_no_screenshots_is_one_line_saying_where_they_are(tmp_path, capsys, argv):
    (tmp_path / "empty").mkdir()
    assert compare.main([arg.format(empty=tmp_path / "empty") for arg in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "gsantner/markor@v2.10.9:metadata/en-US/phoneScreenshots" in err and "sparse-checkout" in err
    assert "Dimowner/AudioRecorder@05545b9: publishes no phone screenshots" in err


def test_an_output_dir_that_is_a_file_is_one_line(tmp_path, capsys):
    shots = tmp_path / "DIR" / markor.SOURCE.folder / "shots"
    shots.mkdir(parents=True)
    Image.new("RGB", (53, 100)).save(shots / "01.jpg")
    (tmp_path / "file").write_text("")
    assert compare.main(["--screenshots", str(tmp_path / "DIR"), "--output_dir", str(tmp_path / "file"),
                         "--manifest", str(_manifest(tmp_path))]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_rewriting_the_fidelity_document_keeps_the_side_by_side_section() -> None:
    """`taskkit.fidelity.table --write` regenerates its own sections and keeps the others."""
    from taskkit.fidelity.table import kept_sections

    old = "# Fidelity\n\n## Recall\nold figures\n\n## Side by side\n| pair | words |\n"
    new = "# Fidelity\n\n## Recall\nnew figures\n"
    assert new + kept_sections(old, new) == new + "\n## Side by side\n| pair | words |\n"
    assert kept_sections(new, new) == ""
