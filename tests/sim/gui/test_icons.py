"""The icon table names real glyphs: each code point of taskkit.sim.gui.icons draws what the
Material Icons font draws for the icon's name (its ligature), and every icon the mappings use
has a code point."""
from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont, features
import pytest

from taskkit.sim.gui import icons, launcher


def test_every_mapped_icon_has_a_code_point() -> None:
    used = {*icons.BY_ID.values(), *icons.BY_DESC.values(), *launcher.APP_GLYPHS.values(),
            *(name for pair in icons.CHECKABLE.values() for name in pair)}
    assert sorted(used - icons.CODEPOINTS.keys()) == []


@pytest.mark.skipif(not features.check("raqm"), reason="ligatures need Pillow's libraqm layout")
def test_each_code_point_draws_the_icon_its_name_draws() -> None:
    font = ImageFont.truetype(icons.MATERIAL_ICONS, 48, layout_engine=ImageFont.Layout.RAQM)

    def drawn(text: str) -> bytes:
        image = Image.new("L", (600, 64))
        ImageDraw.Draw(image).text((0, 0), text, font=font, fill=255)
        return image.tobytes()

    wrong = [name for name, code in icons.CODEPOINTS.items() if drawn(name) != drawn(chr(code))]
    assert wrong == []
