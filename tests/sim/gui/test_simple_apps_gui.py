"""Simple Draw Pro and Simple Gallery Pro through the simulated GUI: what a drag draws, what Save as
writes in each format, pictures in screenshots, Copy to / Move to with the shared folder picker."""
from __future__ import annotations

import io

from PIL import Image

from taskkit.apps import receipts, simple_draw_pro, simple_gallery_pro
from taskkit.rng import TaskRng
from tests.sim.gui.helpers import find, tap, texts

DRAW = "am start -n com.simplemobiletools.draw.pro/.activities.MainActivity"
GALLERY = "am start -n com.simplemobiletools.gallery.pro/.activities.MainActivity"


def _with_id(device, rid: str) -> list[str]:
    """The texts of the screen's elements whose id is `rid`, in order."""
    return [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith(f":id/{rid}")]


def _pixel(device, x: int, y: int) -> tuple[int, int, int]:
    return Image.open(io.BytesIO(device.ui.screenshot())).convert("RGB").getpixel((x, y))


def test_a_drag_draws_a_stroke_that_the_screenshot_shows_and_undo_removes(device) -> None:
    device.check(DRAW)
    assert "Undo" not in texts(device)
    device.check("input swipe 200 1000 900 1000 300")
    assert _pixel(device, 550, 1000) == simple_draw_pro.BRUSH_COLOUR
    tap(device, "Undo")
    assert _pixel(device, 550, 1000) == (255, 255, 255) and "Undo" not in texts(device)


def test_save_as_writes_the_typed_name_with_the_chosen_format_where_the_picker_points(device) -> None:
    device.check(DRAW)
    device.check("input swipe 200 800 900 1400 300")
    for extension in simple_draw_pro.EXTENSIONS:
        tap(device, "menu_save")
        assert find(device, "folder_value").text == "Internal/Simple Draw"
        assert find(device, "save_image_filename").text.startswith("image_2023_10_15_")
        device.check(f"input keycombination 113 29 && input keyevent DEL && input text sketch_{extension}")
        tap(device, f"save_image_radio_{extension}")
        tap(device, "folder_value")
        assert find(device, "alertTitle").text == "Select a folder"
        box = find(device, "filepicker_list").bbox
        device.check(f"input swipe {box.center[0]} {box.y_max - 20} {box.center[0]} {box.y_min + 20} 300")
        tap(device, "Pictures")
        assert [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith("breadcrumb_text")] \
            == ["Internal", "> Pictures"]
        tap(device, "OK")  # the picker's
        assert find(device, "folder_value").text == "Internal/Pictures"
        tap(device, "OK")  # the dialog's
        data = device.files.read_bytes(f"{simple_draw_pro.PICTURES}/sketch_{extension}.{extension}")
        assert simple_draw_pro.format_of(data) == extension
    svg = device.files.read_text(f"{simple_draw_pro.PICTURES}/sketch_svg.svg")
    assert svg.count("<path ") == 1 and 'stroke="#f57c00"' in svg
    png = Image.open(io.BytesIO(device.files.read_bytes(f"{simple_draw_pro.PICTURES}/sketch_png.png"))).convert("RGB")
    assert simple_draw_pro.BRUSH_COLOUR in {colour for _, colour in png.getcolors(1 << 16)}


def test_the_gallery_shows_pictures_and_copy_to_and_move_to_carry_them_to_the_chosen_folder(device) -> None:
    receipt = receipts.random_receipt(TaskRng(7))
    simple_gallery_pro.add_picture(device, simple_gallery_pro.DCIM, "receipt_a.jpg", receipts.receipt_jpeg(receipt))
    simple_gallery_pro.add_picture(device, simple_gallery_pro.DCIM, "receipt_b.jpg", receipts.receipt_jpeg(receipt))
    device.check(GALLERY)
    assert find(device, "dir_name").text == "DCIM" and find(device, "photo_cnt").text == "2"
    tap(device, "DCIM")
    tap(device, "receipt_a.jpg")
    view = find(device, "gestures_view").bbox
    r, g, b = _pixel(device, *view.center)
    assert min(r, g, b) > 200  # the receipt's paper, not the viewer's black
    tap(device, "More options")
    tap(device, "Copy to")
    tap(device, "Internal")
    tap(device, "Download")
    tap(device, "OK")
    assert device.files.read_bytes(f"{simple_gallery_pro.DOWNLOAD}/receipt_a.jpg") == \
        device.files.read_bytes(f"{simple_gallery_pro.DCIM}/receipt_a.jpg")
    device.check("input keyevent BACK")
    tap(device, "receipt_b.jpg")
    tap(device, "More options")
    tap(device, "Move to")
    tap(device, "Internal")
    tap(device, "Documents")
    tap(device, "OK")
    assert not device.files.exists(f"{simple_gallery_pro.DCIM}/receipt_b.jpg")
    assert device.files.exists(f"{simple_gallery_pro.STORAGE_ROOT}/Documents/receipt_b.jpg")
    assert "receipt_b.jpg" not in texts(device)  # the viewer closed: the folder shows what is left


def test_the_gallery_lists_folders_and_media_last_modified_first(device) -> None:
    """Simple-Gallery 6.28.1's default sortings are by date modified, descending (Config.kt
    directorySorting; integers.xml default_sorting 33794): a folder by its newest medium, whose
    picture is its thumbnail."""
    red, blue = (Image.new("RGB", (40, 40), colour) for colour in ((255, 0, 0), (0, 0, 255)))
    for folder, name, picture, when in (("Alpha", "old.png", red, "202301011200"),
                                        ("Alpha", "new.png", blue, "202303011200"),
                                        ("Zulu", "mid.png", red, "202302011200")):
        data = io.BytesIO()
        picture.save(data, "PNG")
        path = simple_gallery_pro.add_picture(device, f"{simple_gallery_pro.STORAGE_ROOT}/Pictures/{folder}", name,
                                              data.getvalue())
        device.check(f"touch -t {when} '{path}'")
    device.check(GALLERY)
    assert _with_id(device, "dir_name") == ["Alpha", "Zulu"]  # Alpha holds the newest picture (March); by name it would be first too
    device.check(f"touch -t 202304011200 '{simple_gallery_pro.STORAGE_ROOT}/Pictures/Zulu/mid.png'")
    device.check("input keyevent BACK")
    device.check(GALLERY)
    assert _with_id(device, "dir_name") == ["Zulu", "Alpha"]
    tap(device, "Alpha")
    assert _with_id(device, "medium_name") == ["new.png", "old.png"]
    device.check("input keyevent BACK")
    thumb = [e.bbox for e in device.ui.screen().elements if (e.resource_name or "").endswith(":id/dir_thumbnail")][1]
    assert _pixel(device, thumb.x_min + 4, thumb.y_min + 4) == (0, 0, 255)  # Alpha's newest picture


def test_the_folder_picker_describes_rows_as_simple_commons_does() -> None:
    """Long.formatSize's units and one decimal; the plural `items` ("1 item", not "1 items")."""
    from taskkit.sim.gui.folderpicker import children_line, format_size

    assert [format_size(n) for n in (0, 812, 1023, 1024, 12525, 1500000)] == \
        ["0 B", "812 B", "1,023 B", "1 kB", "12.2 kB", "1.4 MB"]
    assert [children_line(n) for n in (0, 1, 2)] == ["0 items", "1 item", "2 items"]
