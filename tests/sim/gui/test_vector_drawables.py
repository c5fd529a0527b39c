"""Vector drawables drawn as their shape (taskkit.sim.gui.vector): the path data parser, the
even-odd fill that leaves a hole, and Pro Expense's ic_entertainment in its category circle."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from taskkit.apps import expense
from taskkit.sim.gui import pictures, vector
from tests.sim.gui.helpers import find

SQUARE_WITH_HOLE = "M2,2H22V22H2ZM8,8v8h8v-8z"  # absolute outline, relative inner contour winding back


def test_path_data_reads_absolute_relative_and_compact_numbers() -> None:
    assert vector.contours("M2,2H22V22H2Z") == [[(2, 2), (22, 2), (22, 22), (2, 22)]]
    assert vector.contours("m1 1l2-1 0 2z") == [[(1, 1), (3, 0), (3, 2)]]  # implicit repeat after l, "2-1"
    [curve] = vector.contours("M0,0C0,10 10,10 10,0L5,-5Z")
    assert curve[0] == (0, 0) and curve[-2] == (10, 0) and max(y for _, y in curve) == pytest.approx(7.5)
    for unread in ("M0,0A5,5 0 0 1 10,10Z", "M0,0S1,1 2,2Z", "M0,0L1,1Z 3", "M0,0L1"):
        with pytest.raises(vector.PathError):
            vector.contours(unread)


def test_an_inner_contour_is_a_hole() -> None:
    mask = vector.mask(SQUARE_WITH_HOLE, (24.0, 24.0), (48, 48))
    assert mask.getpixel((8, 8)) == 255 and mask.getpixel((24, 24)) == 0 and mask.getpixel((2, 2)) == 0
    wide = vector.mask(SQUARE_WITH_HOLE, (24.0, 24.0), (96, 48))  # fitCenter: a 48 px square in the middle
    row = [wide.getpixel((x, 6)) for x in range(96)]
    assert row[27] == row[70] == 0 and set(row[29:67]) == {255}  # x 28 to 68, the square's edges anti-aliased


def test_pro_expenses_entertainment_icon_is_a_play_button_in_a_rounded_rectangle(device) -> None:
    """res/drawable/ic_entertainment.xml at v1.0.0-beta05: the rectangle spans the width, a sixth
    of the height is left clear above and below, and the play triangle is cut out of its middle."""
    assert pictures.DRAWABLES["expense/ic_entertainment"].glyph == ""  # not Material's film strip (theaters)
    expense.EXPENSES.insert(device, [expense.EXPENSES.fill({"name": "Cinema", "amount": 1200, "category": 6,
                                                            "created_date": 1697380000000, "modified_date": 0})])
    device.check(f"am start -n {expense.PACKAGE}/.ui.MainActivity")
    box = find(device, "imv_category").bbox
    screen = Image.open(io.BytesIO(device.exec_out("screencap -p"))).convert("RGB")
    side = box.x_max - box.x_min

    def at(fx: float, fy: float) -> tuple[int, int, int]:
        return screen.getpixel((box.x_min + round(fx * side), box.y_min + round(fy * side)))

    def near(colour: tuple[int, int, int], expected: tuple[int, int, int]) -> bool:
        return all(abs(a - b) <= 8 for a, b in zip(colour, expected))

    circle, ink = (0xB3, 0xE5, 0xFC), (0x21, 0x21, 0x21)  # cv_category's fill, dark_gray tint
    assert near(at(0.5, 0.08), circle) and near(at(0.5, 0.92), circle)  # clear above and below the rectangle
    assert near(at(0.1, 0.5), ink) and near(at(0.9, 0.5), ink) and near(at(0.5, 0.25), ink)
    assert near(at(0.47, 0.49), circle)  # the play triangle shows the circle through it
