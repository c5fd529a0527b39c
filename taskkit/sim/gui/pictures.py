"""Pictures the apps draw from their own data or resources: a drawable named by a layout or an
adapter, a Simple Mobile Tools letter avatar, a photo cut to its tile. What to draw is decided
here; `render` draws it.

A picture is named by `Node.image`:

- a file path: the picture in the file, scaled to fit the view (ImageView's default fitCenter);
  `<path>#t=<ms>` is a video's frame at that time;
- `crop:<path>`: the picture cut to fill the view (centerCrop, as Glide's CenterCrop does for
  Simple Gallery's thumbnails);
- `res:<app>/<drawable>`: one of `DRAWABLES`, an app's drawable as taskkit draws it: the
  Material glyph the vector drawable is (or, for a drawable of the app's own, the nearest one,
  said beside it, or its shape as path data measured on the drawable, filled by
  taskkit.sim.gui.vector), in the drawable's tint, on the bitmap's background where it has one,
  or a gradient (a `<shape>` with one).

A letter avatar is what Simple-Commons paints on a canvas, so it is a `Painted` oval and letter
(`letter_avatar`).
"""
from __future__ import annotations

import dataclasses
import unicodedata

from taskkit.sim.gui.node import Box, Painted

Color = tuple[int, int, int]
CROP, RES = "crop:", "res:"


@dataclasses.dataclass(frozen=True)
class Drawable:
    """An app's drawable as taskkit draws it (light and dark variants of each colour)."""

    glyph: str = ""  # the Material icon it is (icons.CODEPOINTS)
    tint: tuple[Color, Color] = ((0, 0, 0), (255, 255, 255))
    fill: tuple[Color, Color] | None = None  # a bitmap's background filling the view
    share: float = 1.0  # the glyph's size as a share of the view's shorter side (a vector fills it: 1.0)
    corner: float = 0.0  # the fill's corner radius as a share of the shorter side
    gradient: tuple[int, int] = (0, 0)  # a black gradient's alpha at the top and at the bottom edge
    path: str = ""  # the drawable's shape as path data (vector.mask), filled in its tint
    viewport: tuple[float, float] = (24.0, 24.0)  # the path's android:viewportWidth and viewportHeight


_MARKOR_TINT = ((0x75, 0x75, 0x75), (0x9E, 0x9E, 0x9E))  # res/values/colors.xml light__/dark__secondary_text
_EXPENSE_TINT = ((0x21, 0x21, 0x21), (0x21, 0x21, 0x21))  # item_expense_recent.xml app:tint @color/dark_gray

DRAWABLES: dict[str, Drawable] = {
    # Markor (gsantner/markor v2.10.9): MarkorFileBrowserFactory's folderImage, fileImage and
    # selectedItemImage, tinted by GsFileBrowserListAdapter with secondary_text (the selection: accent).
    "markor/ic_folder_white_24dp": Drawable("folder", _MARKOR_TINT),
    "markor/ic_file_white_24dp": Drawable("insert_drive_file", _MARKOR_TINT),
    "markor/ic_check_black_24dp": Drawable("check", ((0xF0, 0x4B, 0x4B), (0xF0, 0x4B, 0x4B))),
    # Retro Music (v6.1.0): RetroGlideExtension's DEFAULT_SONG_IMAGE, drawable[-night]-xxhdpi/
    # default_audio_art.webp: a dark note (#454545; night #7C7C7C) on light grey (#E2E2E2; night
    # #111111), the note about two fifths of the picture's height; the row's card rounds it by 8 dp of 45.
    "retro_music/default_audio_art": Drawable("music_note", ((0x45, 0x45, 0x45), (0x7C, 0x7C, 0x7C)),
                                              ((0xE2, 0xE2, 0xE2), (0x11, 0x11, 0x11)), share=0.55, corner=8 / 45),
    # Broccoli (v1.2.6): drawable/placeholder.xml, Material's local_florist path, 50 dp, tinted
    # colorControlNormal (gray_600 #757575), unscaled (scaleType="center") in recipe_item.xml's
    # 120 dp square card_image.
    "broccoli/placeholder": Drawable("local_florist", ((0x75, 0x75, 0x75), (0x9E, 0x9E, 0x9E)), share=50 / 120),
    # Simple Gallery (6.28.1): drawable/gradient_background.xml, gradient_grey_start #CC000000 at
    # the bottom (angle 90) to transparent: dir_shadow_holder and medium_name's background.
    "simple_gallery_pro/gradient_background": Drawable(gradient=(0, 0xCC)),
    # Broccoli: drawable/scrim.xml, transparent at the bottom (angle 90) to #BF000000 at the top,
    # under activity_recipe_details.xml's toolbar over the recipe's photo.
    "broccoli/scrim": Drawable(gradient=(0xBF, 0)),
    # Pro Expense (v1.0.0-beta05): ExpenseCategoryProviderImpl's category drawables. ic_outcome,
    # ic_income, ic_food, ic_social, ic_transportation and ic_education are Material's
    # remove_circle_outline, add_circle_outline, fastfood, people, train and menu_book paths;
    # ic_household (a sofa), ic_clothes, ic_healthcare and ic_donation are the app's own drawings,
    # drawn as the nearest Material icon; ic_entertainment, the app's own too, is drawn as its
    # shape: res/drawable/ic_entertainment.xml (viewport 682.67 x 682) fills a rounded rectangle,
    # x 21-661 and y 111-559, less a play triangle with corners (277, 239), (277, 431) and (444, 335).
    "expense/ic_outcome": Drawable("remove_circle_outline", _EXPENSE_TINT),
    "expense/ic_income": Drawable("add_circle_outline", _EXPENSE_TINT),
    "expense/ic_food": Drawable("fastfood", _EXPENSE_TINT),
    "expense/ic_household": Drawable("weekend", _EXPENSE_TINT),
    "expense/ic_social": Drawable("people", _EXPENSE_TINT),
    "expense/ic_entertainment": Drawable(tint=_EXPENSE_TINT, viewport=(682.66675, 682.0), path=(
        "M101,111H581C625,111 661,147 661,191V479C661,523 625,559 581,559H101C57,559 21,523 21,479V191"
        "C21,147 57,111 101,111ZM277,239V431L444,335Z")),
    "expense/ic_transportation": Drawable("train", _EXPENSE_TINT),
    "expense/ic_clothes": Drawable("checkroom", _EXPENSE_TINT),
    "expense/ic_healthcare": Drawable("medical_services", _EXPENSE_TINT),
    "expense/ic_education": Drawable("menu_book", _EXPENSE_TINT),
    "expense/ic_donation": Drawable("volunteer_activism", _EXPENSE_TINT),
}


def resource(name: str) -> str:
    """The `Node.image` of the drawable `name` ("app/drawable", a key of `DRAWABLES`)."""
    if name not in DRAWABLES:
        raise KeyError(f"no drawable {name!r} in taskkit.sim.gui.pictures.DRAWABLES")
    return RES + name


def cropped(path: str) -> str:
    """The `Node.image` of the picture file at host `path` cut to fill its view (centerCrop)."""
    return CROP + path


def drawable(image: str) -> Drawable | None:
    """The drawable a `Node.image` names, None when it names a file."""
    return DRAWABLES.get(image[len(RES):]) if image.startswith(RES) else None


def full_colour(image: str) -> bool:
    """Whether drawing the `Node.image` needs every colour: a picture file, or a gradient (a
    screenshot of flat fills and glyphs keeps to a few colours, fast to encode)."""
    if not image:
        return False
    found = drawable(image)
    return found is None or found.gradient != (0, 0)


# --- Simple Mobile Tools' letter avatars ------------------------------------------------------------
# Simple-Commons (commit b72ded2a75, the one Simple SMS Messenger 5.19.3 pins):
# helpers/SimpleContactsHelper.kt getContactLetterIcon: a circle the size of the view, its colour
# letterBackgroundColors[abs(name.hashCode()) % 10] (helpers/Constants.kt: these ten colours at
# alpha 0xCC), the name's letter (extensions/String.kt getNameLetter: the first character of the
# name with its diacritics removed, upper-cased; "A" for an empty name) centred at half the size,
# in the circle colour's getContrastColor (extensions/Int.kt: #333333 when its luma is 149 or more,
# else white).
LETTER_COLOURS: tuple[Color, ...] = (
    (0xD3, 0x2F, 0x2F), (0xC2, 0x18, 0x5B), (0x19, 0x76, 0xD2), (0x02, 0x88, 0xD1), (0x00, 0x97, 0xA7),
    (0x00, 0x79, 0x6B), (0x38, 0x8E, 0x3C), (0x68, 0x9F, 0x38), (0xF5, 0x7C, 0x00), (0xE6, 0x4A, 0x19))
LETTER_ALPHA = 0xCC / 0xFF
_DARK_GREY, _WHITE = (0x33, 0x33, 0x33), (0xFF, 0xFF, 0xFF)


def java_hash(text: str) -> int:
    """Java's String.hashCode: s[0]·31^(n-1) + … + s[n-1] over UTF-16 code units, as a signed 32-bit int."""
    value = 0
    units = text.encode("utf-16-be")
    for i in range(0, len(units), 2):
        value = (value * 31 + int.from_bytes(units[i:i + 2], "big")) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def name_letter(name: str) -> str:
    """Simple-Commons' getNameLetter: the first character without its diacritics, upper-cased."""
    stripped = "".join(ch for ch in unicodedata.normalize("NFD", name) if not unicodedata.combining(ch))
    return stripped[:1].upper() or "A"


def letter_colour(name: str) -> Color:
    """The avatar colour Simple-Commons picks for `name` (before its 0xCC alpha)."""
    value = java_hash(name)
    index = abs(value) % len(LETTER_COLOURS) if value != -(1 << 31) else 0  # Math.abs(MIN_VALUE) stays negative
    return LETTER_COLOURS[index]


def letter_avatar(box: Box, name: str) -> Painted:
    """The letter avatar of `name` filling `box`, as getContactLetterIcon paints it."""
    colour = letter_colour(name)
    luma = (299 * colour[0] + 587 * colour[1] + 114 * colour[2]) // 1000
    return Painted(box, text=name_letter(name), fill=colour, color=_DARK_GREY if luma >= 149 else _WHITE, oval=True,
                   center=True, size=(box[3] - box[1]) // 2, alpha=LETTER_ALPHA)
