"""Screenshots are legible: OCR (Debian's tesseract-ocr) reads back the words the dump shows.

The screens are those the GUI references visit (taskkit.fidelity.tour, instance seed 0), taken
deterministically: the first tasks of each set of apps, at most a few distinct screens per
app. Each screenshot is OCRed at half size in one tesseract process; a text whose words that
pass misses is OCRed again in its own box (a second process), as tesseract's page layout skips
text inside filled shapes such as buttons. Also: icon controls with different meanings look
different, and a checked radio button or switch differs from an unchecked one.
"""
from __future__ import annotations

import collections
import functools
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageOps

from taskkit import registry
from taskkit.fidelity import tour as tour_module
from taskkit.fidelity.tour import Shot, referenced_tasks
from taskkit.sim.gui import icons
from taskkit.sim.gui.node import Node, reachable
from taskkit.sim.gui.render import render_png
from taskkit.sim.gui.screen import View

TASKS_PER_APPS = 2  # the first tasks (by name) of each set of apps
SCREENS_PER_APP = 12  # distinct screens OCRed per app, in tour order
_WORD = re.compile(r"[0-9A-Za-z]+")


def sampled_tasks() -> list[str]:
    """The first tasks of each single app, then the first task of each set of apps that brings an
    app no single-app task showed (the long cross-app tasks add few screens and much time)."""
    by_apps: dict[tuple[str, ...], list[str]] = collections.defaultdict(list)
    for name in referenced_tasks():
        by_apps[tuple(registry.get(name).app_names)].append(name)
    chosen = [name for apps, names in by_apps.items() if len(apps) == 1 for name in names[:TASKS_PER_APPS]]
    shown = {apps[0] for apps in by_apps if len(apps) == 1}
    for apps, names in sorted(by_apps.items()):
        if len(apps) > 1 and not set(apps) <= shown:
            chosen.append(names[0])
            shown |= set(apps)
    return sorted(chosen)


@functools.cache
def _sample() -> tuple[tuple[Shot, ...], frozenset[tuple[str, str]]]:
    """The sampled tour, once per test process: its distinct screens, and every icon-only control
    (an ImageButton/ImageView without text or picture) on them that maps to no Material icon."""
    unmapped: set[tuple[str, str]] = set()
    original = tour_module.render_png

    def watch(view, width, height):
        for root in (view.window, *view.bars):
            for node in reachable(root):  # a view drawn under another by design is not seen
                if (node.class_name.endswith(("ImageButton", "ImageView")) and not node.text and not node.image
                        and (node.content_desc or node.clickable) and icons.icon_name(node) is None):
                    unmapped.add((node.resource_id, node.content_desc))
        return original(view, width, height)

    tour_module.render_png = watch
    try:
        shots = tuple(tour_module.tour(sampled_tasks()))
    finally:
        tour_module.render_png = original
    return shots, frozenset(unmapped)


def sampled_screens() -> list[Shot]:
    per_app: collections.Counter[str] = collections.Counter()
    shots = []
    for shot in _sample()[0]:
        if per_app[shot.package] < SCREENS_PER_APP:
            per_app[shot.package] += 1
            shots.append(shot)
    return shots


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def tesseract(images: list[Image.Image], workdir: Path, psm: int) -> list[str]:
    """Tesseract's text of each image, in one process (its pages split by form feeds)."""
    names = []
    for i, image in enumerate(images):
        path = workdir / f"{psm}-{i:04d}.png"
        image.save(path)
        names.append(str(path))
    listing = workdir / f"list-{psm}.txt"
    listing.write_text("\n".join(names) + "\n")
    out = subprocess.run(["tesseract", str(listing), "-", "--psm", str(psm), "-l", "eng"], capture_output=True,
                         text=True, check=True, env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"})
    pages = out.stdout.split("\f")
    assert len(pages) >= len(images)
    return pages[:len(images)]


def gray(shot: Shot) -> Image.Image:
    return Image.open(io.BytesIO(shot.png)).convert("L")


def text_crop(screen: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    """The inside of a text's box (off a button's rounded ends), dark text on light."""
    x1, y1, x2, y2 = box
    inset = min((y2 - y1) // 4, (x2 - x1) // 8)
    crop = screen.crop((x1 + inset, y1 + inset // 2, x2 - inset, y2 - inset // 2))
    histogram = crop.histogram()
    background = max(range(256), key=histogram.__getitem__)  # the commonest grey: the fill
    return ImageOps.invert(crop) if background < 128 else crop


def test_ocr_reads_back_95_percent_of_the_visible_words(tmp_path) -> None:
    assert shutil.which("tesseract"), "tesseract-ocr is a test dependency (tests/setup_and_run.sh installs it)"
    shots = sampled_screens()
    assert len(shots) >= 60 and len({s.package for s in shots}) >= 15
    found = total = 0
    worst = []
    pages = tesseract([gray(s).reduce(2) for s in shots], tmp_path, 11)  # half size: the page
    missed = [(i, text, box) for i, (shot, page) in enumerate(zip(shots, pages)) for text, box in shot.texts
              if not set(words(text)) <= set(words(page))]
    # a text the page pass misses (tesseract skips text inside filled shapes: buttons) is read in its own box
    boxes = tesseract([text_crop(gray(shots[i]), box) for i, _, box in missed], tmp_path, 6)
    extra = collections.defaultdict(set)
    for (i, _, _), page in zip(missed, boxes):
        extra[i] |= set(words(page))
    for i, (shot, page) in enumerate(zip(shots, pages)):
        read = set(words(page)) | extra[i]
        wanted = [w for text, _ in shot.texts for w in words(text)]
        hits = sum(w in read for w in wanted)
        found, total = found + hits, total + len(wanted)
        if wanted:
            worst.append((hits / len(wanted), shot.task, shot.step, sorted(set(wanted) - read)[:8]))
    worst.sort()
    print(f"\nOCR: {found}/{total} words over {len(shots)} screens; worst:")
    for share, task, step, missed in worst[:8]:
        print(f"  {share:.0%} {task} step {step}: missed {missed}")
    assert total > 1000 and found / total >= 0.95


def _screen(*nodes: Node, package: str = "com.simplemobiletools.calendar.pro") -> Image.Image:
    window = Node(package=package, bounds=(0, 0, 1080, 2400), children=list(nodes))
    return Image.open(io.BytesIO(render_png(View(window, package, None, (), False), 1080, 2400))).convert("RGB")


BOX = (100, 100, 247, 247)


@pytest.mark.parametrize("rid, desc", [("", "Navigate up"), ("", "More options"), ("", "Search"), ("", "Delete"),
                                       ("com.simplemobiletools.calendar.pro:id/save", "Save"),
                                       ("com.simplemobiletools.draw.pro:id/undo", "Undo"),
                                       ("com.dimowner.audiorecorder:id/btn_record_stop", "")])
def test_every_icon_is_drawn(rid, desc) -> None:
    node = Node("android.widget.ImageButton", resource_id=rid, content_desc=desc, bounds=BOX, clickable=True)
    blank = _screen()
    assert icons.icon_name(node) is not None
    assert ImageChops.difference(_screen(node).crop(BOX), blank.crop(BOX)).getbbox() is not None


def test_icons_with_different_meanings_render_differently() -> None:
    crops = {}
    for rid, desc in (("", "Navigate up"), ("", "More options"), ("", "Delete"), ("", "Search"),
                      ("com.simplemobiletools.calendar.pro:id/save", "Save"), ("net.gsantner.markor:id/fab_add_new_item", "")):
        node = Node("android.widget.ImageButton", resource_id=rid, content_desc=desc, bounds=BOX, clickable=True)
        crops[desc or rid] = _screen(node).crop(BOX).tobytes()
    assert len(set(crops.values())) == len(crops)


@pytest.mark.parametrize("kind", ["android.widget.RadioButton", "android.widget.CheckBox", "android.widget.Switch"])
def test_a_checked_control_differs_from_an_unchecked_one(kind) -> None:
    box = (100, 300, 700, 420)
    on, off = (_screen(Node(kind, text=".png" if kind != "android.widget.Switch" else "", bounds=box, checkable=True,
                            checked=checked, clickable=True, text_size=42)) for checked in (True, False))
    assert ImageChops.difference(on.crop(box), off.crop(box)).getbbox() is not None


def test_every_icon_only_control_the_references_reach_has_an_icon() -> None:
    """Each icon-only control on the sampled tour's screens maps to a Material icon."""
    unmapped = sorted(_sample()[1])
    assert unmapped == [], unmapped
