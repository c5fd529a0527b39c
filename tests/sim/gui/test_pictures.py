"""The pictures the real screens draw from the app's data or resources (taskkit.sim.gui.pictures),
each a node with its layout's id and drawn in the screenshot: Markor's file and folder icons,
Simple SMS Messenger's letter avatars, Retro Music's album-art placeholder, Pro Expense's
category icons, Simple Gallery's cropped thumbnails, Broccoli's placeholder and photo header; and
the screens issue #35 names as drawn but unreadable: Audio Recorder's rename dialog and Markor's
editor title."""
from __future__ import annotations

import io
import re
from xml.etree import ElementTree

from PIL import Image

from taskkit.apps import broccoli, contacts, expense, markor, retro_music, sms
from taskkit.rng import TaskRng
from taskkit.sim.gui import icons, pictures
from taskkit.sim.gui.apps import broccoli as broccoli_gui
from tests.sim.gui.helpers import find, tap, texts
from tests.sim.gui.test_recall_views import _drawn

Box = tuple[int, int, int, int]


def _screen(device) -> Image.Image:
    return Image.open(io.BytesIO(device.exec_out("screencap -p"))).convert("RGB")


def _boxes(device, rid: str) -> list[Box]:
    """The bounds of every node of the window dump (containers too) whose id ends in `:id/<rid>`."""
    found = []
    for node in ElementTree.fromstring(device.check("uiautomator dump /dev/tty")).iter("node"):
        if node.get("resource-id", "").endswith(f":id/{rid}"):
            x1, y1, x2, y2 = map(int, re.findall(r"\d+", node.get("bounds", "")))
            found.append((x1, y1, x2, y2))
    return found


def _colours(screen: Image.Image, box: Box) -> set[tuple[int, int, int]]:
    return {colour for _, colour in screen.crop(box).getcolors(1 << 20)}


def _near(a: tuple[int, ...], b: tuple[int, ...], slack: int = 3) -> bool:
    return all(abs(x - y) <= slack for x, y in zip(a, b))


def _inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


# --- the letter avatar rule ----------------------------------------------------------------------
def test_javas_string_hash_and_the_simple_apps_letter() -> None:
    assert pictures.java_hash("hello") == 99162322 and pictures.java_hash("") == 0
    assert pictures.java_hash("polygenelubricants") == -2 ** 31  # Math.abs leaves it negative
    assert pictures.java_hash("\U0001F600") == pictures.java_hash("\ud83d\ude00".encode("utf-16", "surrogatepass")
                                                                   .decode("utf-16"))
    assert [pictures.name_letter(n) for n in ("jane", "Émile", "+1212", "")] == ["J", "E", "+", "A"]
    assert pictures.letter_colour("Jane Doe") == pictures.LETTER_COLOURS[abs(pictures.java_hash("Jane Doe")) % 10]


def test_every_drawable_names_a_glyph_of_the_icon_font() -> None:
    glyphs = {d.glyph for d in pictures.DRAWABLES.values() if d.glyph}
    assert glyphs and sorted(glyphs - icons.CODEPOINTS.keys()) == []


# --- the apps ---------------------------------------------------------------------------------------
def test_sms_conversations_show_their_letter_avatars(device) -> None:
    sms.receive(device, "+12125550111", "Older one", date_ms=1697380000000)
    sms.receive(device, "+12125550134", "Newer one", date_ms=1697384000000)
    contacts.add_contact(device, "Jane Doe", "+1 212-555-0134")
    device.check("am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity")
    avatars, titles = _boxes(device, "conversation_image"), _boxes(device, "conversation_address")
    assert len(avatars) == 2 and all(a[2] <= t[0] for a, t in zip(avatars, titles))  # in the gutter, before the name
    screen = _screen(device)
    for box, name in zip(avatars, ("Jane Doe", "+12125550111")):
        x1, y1, x2, y2 = box
        spot = screen.getpixel((x1 + (x2 - x1) // 5, (y1 + y2) // 2))  # inside the circle, off the letter
        colour = pictures.letter_colour(name)
        assert _near(spot, tuple(round(255 + (c - 255) * pictures.LETTER_ALPHA) for c in colour)), (name, spot)
        assert (255, 255, 255) in _colours(screen, box)  # the white letter (and the corners)


def test_markor_rows_show_folder_and_file_icons(device) -> None:
    device.files.mkdir(markor.note_path("Projects"))
    markor.create_note(device, "a.md", "x\n")
    device.check("am start -n net.gsantner.markor/.activity.MainActivity")
    icons_ = _boxes(device, "opoc_filesystem_item__image")
    assert len(icons_) == 2 and all(b[2] - b[0] == b[3] - b[1] == round(28 * 420 / 160) for b in icons_)
    screen = _screen(device)
    folder, file = (screen.crop(b) for b in icons_)
    assert folder.tobytes() != file.tobytes()  # ic_folder_white_24dp, ic_file_white_24dp
    assert any(_near(c, (0x75, 0x75, 0x75), 8) for c in _colours(screen, icons_[0]))  # secondary_text tint


def test_retro_song_rows_show_the_album_art_placeholder(device) -> None:
    retro_music.write_songs(device, [retro_music.random_song(TaskRng(i), t) for i, t in enumerate(retro_music.TITLES[:3])])
    device.check(f"am start -n {retro_music.PACKAGE}/.activities.MainActivity")
    tap(device, "Songs")
    arts, cards = _boxes(device, "image"), _boxes(device, "imageTextContainer")
    assert len(arts) == 3 and arts == cards
    screen = _screen(device)
    x1, y1, x2, y2 = arts[0]
    assert _near(screen.getpixel((x1 + 8, (y1 + y2) // 2)), (0xE2, 0xE2, 0xE2))  # default_audio_art's grey
    assert _near(screen.getpixel(((x1 + x2) // 2, (y1 + y2) // 2 + (y2 - y1) // 8)), (0x45, 0x45, 0x45), 40)  # its note


def test_expense_rows_show_their_category_icons(device) -> None:
    rows = [expense.EXPENSES.fill({"name": name, "amount": 1250, "category": category, "created_date": 1697380000000 + i,
                                   "modified_date": 0})
            for i, (name, category) in enumerate((("Lunch", 3), ("Rent", 4)))]
    expense.EXPENSES.insert(device, rows)
    device.check(f"am start -n {expense.PACKAGE}/.ui.MainActivity")
    cards, glyphs = _boxes(device, "cv_category"), _boxes(device, "imv_category")
    assert len(cards) == len(glyphs) == 2 and all(_inside(g, c) for g, c in zip(glyphs, cards))
    screen = _screen(device)
    x1, y1, x2, y2 = cards[0]
    assert _near(screen.getpixel((x1 + (x2 - x1) // 5, (y1 + y2) // 2)), (0xB3, 0xE5, 0xFC))  # the circle
    assert screen.crop(glyphs[0]).tobytes() != screen.crop(glyphs[1]).tobytes()  # ic_household, ic_food


def test_gallery_tiles_crop_their_picture_and_carry_the_name_over_it(device) -> None:
    picture = Image.new("RGB", (900, 300), (0, 0, 255))
    picture.paste((255, 0, 0), (300, 0, 600, 300))  # red in the middle third only
    data = io.BytesIO()
    picture.save(data, "PNG")
    device.files.write_bytes("/storage/emulated/0/DCIM/wide.png", data.getvalue())
    device.check("am start -n com.simplemobiletools.gallery.pro/.activities.MainActivity")
    [thumb] = _boxes(device, "dir_thumbnail")
    assert 1080 // 2 - 4 <= thumb[2] - thumb[0] == thumb[3] - thumb[1] <= 1080 // 2  # two columns of squares
    assert all(_inside(b, thumb) for b in _boxes(device, "dir_name") + _boxes(device, "photo_cnt"))
    screen = _screen(device)
    assert _near(screen.getpixel((thumb[0] + 2, thumb[1] + 2)), (255, 0, 0))  # centerCrop: the corner is the middle
    tap(device, "DCIM")
    [tile] = _boxes(device, "medium_thumbnail")
    assert _near(_screen(device).getpixel((tile[0] + 2, tile[1] + 2)), (255, 0, 0))


def test_broccoli_draws_its_placeholder_and_a_recipes_photo(device) -> None:
    picture = Image.new("RGB", (400, 300), (200, 60, 30))
    data = io.BytesIO()
    picture.save(data, "JPEG")
    device.files.write_bytes(f"{broccoli_gui.PICTURES_DIR}/soup.jpg", data.getvalue())
    broccoli.RECIPES.insert(device, [broccoli.RECIPES.fill({"title": "Plain Rice"}),
                                     broccoli.RECIPES.fill({"title": "Soup", "imageName": "soup.jpg"})])
    device.check(f"am start -n {broccoli.PACKAGE}/.MainActivity")
    rice, soup = _boxes(device, "card_image")
    screen = _screen(device)
    assert any(_near(c, (0x75, 0x75, 0x75), 8) for c in _colours(screen, rice))  # placeholder.xml's local_florist
    assert _near(screen.getpixel(((soup[0] + soup[2]) // 2, (soup[1] + soup[3]) // 2)), (200, 60, 30), 12)
    tap(device, "Soup")
    [header] = _boxes(device, "backdrop")  # RecipeDetailsActivity.onCreate scrolls half the 400 dp app bar away
    assert header[3] == round(400 * 420 / 160) // 2 and find(device, "backdrop").content_description == "Recipe photo"
    screen = _screen(device)
    assert _near(screen.getpixel(((header[0] + header[2]) // 2, header[3] - 8)), (200, 60, 30), 12)
    up = find(device, "Navigate up").bbox
    assert max(sum(c) for c in _colours(screen, (up.x_min, up.y_min, up.x_max, up.y_max))) > 600  # light, on the scrim
    tap(device, "Navigate up")
    tap(device, "Plain Rice")
    # no photo: the bar is collapsed, its empty backdrop dumped under the toolbar (drawn over it, as the app's)
    [bar] = _boxes(device, "toolbar")
    assert _boxes(device, "backdrop") == [bar] and find(device, "backdrop").content_description == "Recipe photo"
    screen = _screen(device)
    assert not any(_near(c, (200, 60, 30), 40) for c in _colours(screen, bar))
    assert len(_colours(screen, (bar[0], bar[1], bar[0] + 20, bar[3]))) == 1  # the bar's flat colour at its edge
    _drawn(device)  # the covered_by_design mark is true: the toolbar covers both wholly


def test_audio_recorders_rename_dialog_is_its_own_layout_and_readable(device) -> None:
    device.check("am start -n com.dimowner.audiorecorder/.app.welcome.WelcomeActivity")
    tap(device, "Start recording")
    tap(device, "btn_record_stop")
    tap(device, "txt_name")
    for rid in ("parentPanel", "customPanel", "custom", "dialog_title", "input_name", "dialog_negative_btn",
                "dialog_positive_btn"):
        assert len(_boxes(device, rid)) == 1, rid
    assert not _boxes(device, "alertTitle") and not _boxes(device, "button1")
    screen = _screen(device)
    save, cancel = _boxes(device, "dialog_positive_btn")[0], _boxes(device, "dialog_negative_btn")[0]
    assert any(_near(c, (255, 214, 0)) for c in _colours(screen, save))  # raised on md_yellow_A700
    assert min(sum(c) for c in _colours(screen, cancel)) < 200  # dark text on the white panel
    assert "New name" in texts(device)


def test_markors_editor_title_is_the_documents_name_without_its_extension(device) -> None:
    markor.create_note(device, "lunch.md", "x\n")
    device.check("am start -n net.gsantner.markor/.activity.MainActivity")
    tap(device, "lunch.md")
    assert find(device, "note__activity__text_note_title").text == "lunch"
