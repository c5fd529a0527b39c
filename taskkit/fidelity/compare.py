"""Side by side: each app's published phone screenshots beside the simulated screen that shows
the same thing, with the same data where the screenshot's data can be stated.

    python -m taskkit.fidelity.compare --screenshots DIR [--output_dir docs/screens/compare] [--ocr]

DIR holds each app's checkout (or just its screenshot folder) at the tag its model follows, as
`DIR/<repo name>-<tag>/<path>`; the pairs, the screens' set-ups and the steps that reach them are
in taskkit/fidelity/published.json (read by taskkit.fidelity.published). Without DIR, or with a
DIR holding none of the screenshots, the command prints where to get them and exits with 2.

Each pair is rendered on a fresh simulated device whose display has the aspect of the part of
the picture that is the phone's screen, and written as one JPEG sheet (both pictures scaled to
one height, captioned with the app, the screen and the screenshot's path@tag), with index.html
listing them. `--ocr` adds a measure per pair: the share of the words (3 letters or more) tesseract
reads in the published screenshot that the simulated screen shows (in its window dump's texts as
drawn, or read by tesseract in its screenshot; within the part compared).
"""
from __future__ import annotations

import argparse
import dataclasses
import io
import re
import sys
from pathlib import Path

import jinja2
from PIL import Image, ImageDraw, ImageFont

from taskkit.connect import sim_device
from taskkit.device.services.ocr import screen_words
from taskkit.errors import TaskkitError
from taskkit.fidelity.published import MANIFEST, Pairing, PublishingApp, load, reach, set_up
from taskkit.fidelity.tour import capture

HEIGHT = 440  # px of each picture on a sheet
_CAPTION = 68  # px above the pictures
_GAP = 12
_QUALITY = 50
_WORD = re.compile(r"[a-z]{3,}")
_ENVIRONMENT = jinja2.Environment(loader=jinja2.PackageLoader("taskkit", "templates"), autoescape=True,
                                  undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


@dataclasses.dataclass(frozen=True)
class Pair:
    """A written sheet: which screenshot, where its sheet is, and the words measure (None: not run)."""

    pairing: Pairing
    sheet: str
    display: str
    words: tuple[int, int] | None = None  # (published words the simulated screen shows, published words)


def how_to_get(apps: dict[str, PublishingApp]) -> str:
    """One line: where each app's screenshots are and the command that fetches one."""
    where = "; ".join(app.fetch_hint() for app in apps.values() if app.path)
    absent = "; ".join(f"{app.source.repo}@{app.source.tag}: {app.none}" for app in apps.values() if not app.path)
    return (f"compare: --screenshots DIR must hold the apps' published screenshots: {where} "
            "(e.g. git clone --depth 1 --filter=blob:none --sparse --branch TAG https://github.com/REPO DIR/NAME-TAG "
            f"&& git -C DIR/NAME-TAG sparse-checkout set PATH); none published: {absent}")


def simulated(pairing: Pairing, root: Path, aspect: float) -> tuple[Image.Image, str, set[str]]:
    """The simulated screen of `pairing` (the part the screenshot shows), its display's size, and
    the words its window dump shows drawn in that part."""
    width, height, top, bottom = pairing.display(aspect)
    device = sim_device()
    try:
        device.run(f"wm size {width}x{height}")
        device.run(f"wm density {pairing.density}")
        set_up(device, pairing, root)
        reach(device, pairing.steps)
        shot = capture(device)
    finally:
        device.close()
    with Image.open(io.BytesIO(shot.png)) as picture:
        screen = picture.convert("RGB").crop((0, top, width, bottom))
    words = {word for text, box in shot.texts if top <= box[1] and box[3] <= bottom for word in _words(text)}
    return screen, f"{width}x{height} px at {pairing.density} dpi", words


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _scaled(image: Image.Image, height: int) -> Image.Image:
    return image.resize((max(1, round(image.width * height / image.height)), height), Image.LANCZOS)


def _fit(text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int) -> str:
    """`text` cut to `width` px (an ellipsis marks the cut)."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def sheet(published: Image.Image, simulated_screen: Image.Image, title: str, source: tuple[str, str],
          labels: tuple[str, str], height: int = HEIGHT) -> Image.Image:
    """The two pictures at one height side by side under `title` and the `source` lines, each
    picture with its label."""
    a, b = _scaled(published, height), _scaled(simulated_screen, height)
    width = a.width + b.width + 3 * _GAP
    page = Image.new("RGB", (width, height + _CAPTION + _GAP), (255, 255, 255))
    pen = ImageDraw.Draw(page)
    big, small = ImageFont.load_default(size=13), ImageFont.load_default(size=10)
    pen.text((_GAP, 4), _fit(title, big, width - 2 * _GAP), fill=(20, 20, 20), font=big)
    for y, line in zip((22, 35), source):
        pen.text((_GAP, y), _fit(line, small, width - 2 * _GAP), fill=(60, 60, 60), font=small)
    for x, image, caption in ((_GAP, a, labels[0]), (2 * _GAP + a.width, b, labels[1])):
        pen.text((x, 52), _fit(caption, small, image.width), fill=(110, 110, 110), font=small)
        page.paste(image, (x, _CAPTION))
        pen.rectangle((x - 1, _CAPTION - 1, x + image.width, _CAPTION + height), outline=(180, 180, 180))
    return page


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def shown_words(published: Image.Image, screen: Image.Image, dumped: set[str]) -> tuple[int, int]:
    """(distinct words of 3+ letters tesseract reads in `published` that the simulated `screen`
    shows: words of its window dump `dumped` or words tesseract reads in it; distinct words
    tesseract reads in `published`). The dump alone misses what a canvas draws (Calendar's month
    grid), tesseract alone misses light text on pictures: either counts."""
    words = _words(screen_words(_png(published)))
    return len(words & (dumped | _words(screen_words(_png(screen))))), len(words)


def compare(pairing: Pairing, root: Path, out: Path, ocr: bool) -> Pair:
    """Write the sheet of `pairing` into `out`."""
    published = pairing.published(root)
    screen, display, words = simulated(pairing, root, published.height / published.width)
    name = f"{pairing.app.key}-{Path(pairing.file).stem}.jpg"
    title = f"{pairing.app.label}: {pairing.screen}"
    labels = (f"published (shot {pairing.app.shot})", f"taskkit simulator, {display}")
    source = (f"{pairing.app.source.repo}@{pairing.app.source.tag}:", pairing.repo_path)
    sheet(published, screen, title, source, labels).save(out / name, quality=_QUALITY, optimize=True)
    return Pair(pairing, name, display, shown_words(published, screen, words) if ocr else None)


def write_index(pairs: list[Pair], out: Path, command: str) -> None:
    """index.html: every sheet with its app, screen, source and what could not be stated."""
    rows = [{"app": p.pairing.app.label, "screen": p.pairing.screen, "cited": p.pairing.cited, "sheet": p.sheet,
             "display": p.display, "unstated": p.pairing.unstated,
             "words": None if p.words is None else f"{p.words[0]}/{p.words[1]}"} for p in pairs]
    (out / "index.html").write_text(_ENVIRONMENT.get_template("compare.html.j2").render(rows=rows, command=command))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", help="the folder of the apps' checkouts at their tags (DIR/<repo name>-<tag>/...)")
    parser.add_argument("--output_dir", default="docs/screens/compare", help="where the sheets and index.html go")
    parser.add_argument("--manifest", default=str(MANIFEST), help="the pairs (default: taskkit/fidelity/published.json)")
    parser.add_argument("--ocr", action="store_true", help="measure the published words the simulated screen shows (tesseract)")
    args = parser.parse_args(argv)
    try:
        apps, pairings = load(Path(args.manifest))
    except (OSError, ValueError, KeyError) as problem:  # ManifestError is a ValueError
        print(f"compare: {args.manifest}: {problem}", file=sys.stderr)
        return 2
    root = Path(args.screenshots or "")
    present = [p for p in pairings if args.screenshots and p.located(root).is_file()]
    if not present:
        print(how_to_get(apps), file=sys.stderr)
        return 2
    out = Path(args.output_dir)
    if out.exists() and not out.is_dir():
        print(f"compare: --output_dir {out} is not a folder", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    for pairing in pairings:
        if pairing not in present:
            print(f"compare: {pairing.cited} is not under {root}: skipped ({pairing.app.fetch_hint(str(root))})",
                  file=sys.stderr)
    pairs = []
    try:
        for pairing in present:
            pairs.append(compare(pairing, root, out, args.ocr))
            print(f"{out / pairs[-1].sheet}: {pairing.cited}")
    except (TaskkitError, OSError) as problem:
        print(f"compare: {pairing.cited}: {problem}", file=sys.stderr)
        return 2
    write_index(pairs, out, "python -m taskkit.fidelity.compare --screenshots DIR"
                + (f" --output_dir {args.output_dir}" if args.output_dir != "docs/screens/compare" else "")
                + (" --ocr" if args.ocr else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
