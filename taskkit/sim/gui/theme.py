"""Each app's default theme colours, light and dark, from the app's own resources.

`theme(package, dark)` gives the palette the renderer draws an app's window with: its
background, text, muted (secondary) text, divider and switch-track colours, its primary colour
(a filled toolbar, a FAB) and accent (focused fields, checked controls). Where a value comes from
is cited beside it (repository, file, resource name); docs/sim-gui.md ("Looks") lists the
commits. Apps without a modelled theme keep a neutral Material palette.
"""
from __future__ import annotations

import dataclasses

Color = tuple[int, int, int]


def rgb(value: str) -> Color:
    """`#RRGGBB` (or `#AARRGGBB`, alpha dropped) as an RGB tuple."""
    digits = value.lstrip("#")[-6:]
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


@dataclasses.dataclass(frozen=True)
class Palette:
    """The colours of one variant (light or dark) of a theme."""

    background: Color
    text: Color
    muted: Color
    line: Color
    track: Color
    primary: Color  # FABs and filled buttons
    accent: Color  # focused fields, checked controls
    toolbar: Color | None = None  # a filled app bar (None: the bar takes the background)


NEUTRAL_LIGHT = Palette(rgb("#FFFFFF"), rgb("#202124"), rgb("#5F6368"), rgb("#DADCE0"), rgb("#BDC1C6"),
                        rgb("#1A73E8"), rgb("#1A73E8"))
NEUTRAL_DARK = Palette(rgb("#202124"), rgb("#E8EAED"), rgb("#9AA0A6"), rgb("#3C4043"), rgb("#5F6368"),
                       rgb("#8AB4F8"), rgb("#8AB4F8"))


def _variant(base: Palette, **changes: object) -> Palette:
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


# Simple Mobile Tools (Simple-Commons commons/src/main/res/values/colors.xml): `color_primary`
# #F57C00 (also `color_accent`); light: `theme_light_background_color` = `md_grey_white`
# #FFFFFF, `theme_light_text_color` = `md_grey_800_dark` #2D2D2D; dark:
# `theme_dark_background_color` #2D2D2D, `theme_dark_text_color` = `md_grey_200` #EEEEEE; the
# switch's `track_deactivated` #B2B2B2. The toolbar takes the background colour
# (BaseSimpleActivity.getRequiredStatusBarColor → getProperBackgroundColor).
_SIMPLE = (_variant(NEUTRAL_LIGHT, background=rgb("#FFFFFF"), text=rgb("#2D2D2D"), track=rgb("#B2B2B2"),
                    primary=rgb("#F57C00"), accent=rgb("#F57C00")),
           _variant(NEUTRAL_DARK, background=rgb("#2D2D2D"), text=rgb("#EEEEEE"), track=rgb("#B2B2B2"),
                    primary=rgb("#F57C00"), accent=rgb("#F57C00")))
# Markor (app/src/main/res/values/colors.xml): `primary` #1E2135 (the navy toolbar), `accent`
# #F04B4B, `light__background` #EEEEEE, `dark__background` = `dark_grey` #212121.
_MARKOR = (_variant(NEUTRAL_LIGHT, background=rgb("#EEEEEE"), primary=rgb("#F04B4B"), accent=rgb("#F04B4B"),
                    toolbar=rgb("#1E2135")),
           _variant(NEUTRAL_DARK, background=rgb("#212121"), primary=rgb("#F04B4B"), accent=rgb("#F04B4B"),
                    toolbar=rgb("#1E2135")))
# Pro Expense (app/src/main/res/values/theme.xml `colorPrimary` = `blue_light_500` #039BE5,
# `colorSurface` white; values-night/theme.xml `colorPrimary` = `blue_light_200` #81D4FA,
# `colorSurface` = `dark_gray` #212121).
_EXPENSE = (_variant(NEUTRAL_LIGHT, primary=rgb("#039BE5"), accent=rgb("#039BE5")),
            _variant(NEUTRAL_DARK, background=rgb("#212121"), primary=rgb("#81D4FA"), accent=rgb("#81D4FA")))
# Broccoli (app/src/main/res/values/themes.xml `colorPrimary` = `green_800` #2E7D32, a filled
# toolbar; values-night/themes.xml: `colorSecondaryToolbar` = `colorSurface`).
_BROCCOLI = (_variant(NEUTRAL_LIGHT, primary=rgb("#2E7D32"), accent=rgb("#2E7D32"), toolbar=rgb("#2E7D32")),
             _variant(NEUTRAL_DARK, primary=rgb("#2E7D32"), accent=rgb("#66BB6A")))
# Audio Recorder (AppConstants.DEFAULT_THEME_COLOR = THEME_BLUE_GREY; ColorMap: `md_blue_gray_700`
# #1C2733 as the whole window's colour, values/colors.xml) in both variants: the app draws its
# own dark window whatever the system theme.
_RECORDER_PALETTE = _variant(NEUTRAL_DARK, background=rgb("#1C2733"), line=rgb("#253343"),
                             primary=rgb("#253343"), accent=rgb("#FFFFFF"))
_RECORDER = (_RECORDER_PALETTE, _RECORDER_PALETTE)
# Retro Music (app/src/main/res/values/colors.xml `window_color_light` white, `darkColorSurface`
# #202124; PreferenceUtil.baseTheme "auto" follows the system; styles.xml `colorAccent` =
# `md_deep_purple_A400` #651FFF).
_RETRO = (_variant(NEUTRAL_LIGHT, primary=rgb("#651FFF"), accent=rgb("#651FFF")),
          _variant(NEUTRAL_DARK, background=rgb("#202124"), primary=rgb("#7C4DFF"), accent=rgb("#7C4DFF")))

THEMES: dict[str, tuple[Palette, Palette]] = {
    "com.simplemobiletools.calendar.pro": _SIMPLE,
    "com.simplemobiletools.smsmessenger": _SIMPLE,
    "com.simplemobiletools.draw.pro": _SIMPLE,
    "com.simplemobiletools.gallery.pro": _SIMPLE,
    "net.gsantner.markor": _MARKOR,
    "com.arduia.expense": _EXPENSE,
    "com.flauschcode.broccoli": _BROCCOLI,
    "com.dimowner.audiorecorder": _RECORDER,
    "code.name.monkey.retromusic": _RETRO,
}


def theme(package: str, dark: bool) -> Palette:
    """The palette `package` draws its window with (its dark variant when `dark`)."""
    light_variant, dark_variant = THEMES.get(package, (NEUTRAL_LIGHT, NEUTRAL_DARK))
    return dark_variant if dark else light_variant
