"""The fonts ship with the package and draw every glyph the screens use: screenshots never read
a system font (a machine without Debian's font packages draws the same pixels), each shipped file
is the one fonts/README.md names, and no label, translation or icon falls back to `.notdef`."""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import textwrap

from PIL import ImageFont

from taskkit.sim.gui import icons, localize, render

README = icons.FONTS / "README.md"
MISSING = chr(0x10FFFD)  # a private-use code point no font here has: it draws `.notdef`


def test_every_font_path_is_package_data_and_listed_in_the_readme() -> None:
    listed = set(re.findall(r"[\w-]+\.(?:ttf|otf)", README.read_text(encoding="utf-8")))
    paths = {render.ROBOTO, render.ROBOTO_MEDIUM, render._CJK_FONT, render._HANGUL_FONT, render._RTL_FONT,
             icons.MATERIAL_ICONS}
    for path in paths:
        assert path.startswith(str(icons.FONTS)), path
    assert {p.rsplit("/", 1)[1] for p in paths} == listed == {p.name for p in icons.FONTS.glob("*.?tf")}


def _missing(path: str, text: str) -> list[str]:
    """The characters of `text` the font at `path` draws as `.notdef`."""
    font = ImageFont.truetype(path, 24)

    def drawn(char: str) -> tuple[tuple[int, int], bytes]:
        mask = font.getmask(char)
        return mask.size, bytes(mask)

    notdef = drawn(MISSING)
    return sorted({char for char in text if not char.isspace() and drawn(char) == notdef})


def test_every_translated_label_has_its_glyphs_in_the_font_the_screen_picks() -> None:
    strings = json.loads(localize.TRANSLATIONS.read_text(encoding="utf-8"))["strings"]
    texts = {text for english, entry in strings.items()
             for text in [english, *(v for k, v in entry.items() if "-" in k or len(k) == 2 or k.startswith("zh"))]
             if not k_is_meta(text)}
    missing: dict[str, list[str]] = {}
    for text in texts:
        for run, path in render._runs(text, render._script_font(text)):
            if lost := _missing(path or render.ROBOTO, run):
                missing[text] = lost
    assert missing == {}


def k_is_meta(text: str) -> bool:
    """Provenance values of the table (`settings:name`, `settings_newer`), not labels."""
    return bool(re.fullmatch(r"[a-z_]+(:[a-z_0-9.]+)?", text))


def test_every_icon_code_point_is_in_the_icon_font() -> None:
    assert _missing(icons.MATERIAL_ICONS, "".join(chr(code) for code in icons.CODEPOINTS.values())) == []


def test_a_screenshot_draws_without_any_system_font(tmp_path) -> None:
    """Font loading is refused outside the package: a screenshot still renders, glyphs included."""
    code = textwrap.dedent(f"""
        from PIL import ImageFont
        from taskkit.sim.gui import icons
        real = ImageFont.truetype
        def packaged_only(font, *args, **kwargs):
            assert str(font).startswith(str(icons.FONTS)), f"a system font was read: {{font}}"
            return real(font, *args, **kwargs)
        ImageFont.truetype = packaged_only
        ImageFont.load_default = lambda *a, **k: (_ for _ in ()).throw(AssertionError("Pillow's default font"))
        from taskkit.connect import sim_device
        device = sim_device()
        device.check("am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity")
        png = device.pull_screenshot() if hasattr(device, "pull_screenshot") else device.ui.screenshot()
        assert png.startswith(b"\\x89PNG") and len(png) > 5000, len(png)
        device.close()
        print("ok")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stderr[-2000:]


def test_the_shipped_files_are_the_ones_the_readme_names() -> None:
    """Each file is the one recorded (SHA-256 of Debian's package file; the Hangul subset's as made)."""
    digests = {path.name: hashlib.sha256(path.read_bytes()).hexdigest()[:16] for path in icons.FONTS.glob("*.?tf")}
    assert digests == {"DejaVuSans.ttf": "abdc775b21b1bc47", "DroidSansFallbackFull.ttf": "acb6440a713d880a",
                       "MaterialIcons-Regular.ttf": "29c11fa532ebb58d", "NotoSansCJKkr-Hangul.otf": "7ca6c411ef62fe06",
                       "Roboto-Medium.ttf": "7984aafeaf437899",
                       "Roboto-Regular.ttf": "797e35f7f5d6020a"}
