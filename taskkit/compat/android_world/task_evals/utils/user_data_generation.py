"""`android_world.task_evals.utils.user_data_generation`: random names, numbers, file names and
noise files for tasks, and clearing the user's storage.

Every draw comes from the module-level `random` that the suite seeds per instance, so a task's
params are reproducible. `generate_random_string`, `generate_random_number` and
`generate_modified_file_name` draw as AndroidWorld's do; names, addresses, sentences and file-name
words come from taskkit's own pools (Faker's locale data for names), so params built from those
differ from AndroidWorld's (docs/android-world.md). `write_to_gallery` draws the text on a white
JPEG (Pillow's built-in font) in the Gallery's folder; `write_video_file_to_device` writes taskkit's
Motion-JPEG MP4 of the messages (AndroidWorld renders mp4v frames with OpenCV) and
`write_mp3_file_to_device` a silent, tagged MP3 of the duration (taskkit.apps.media).
`COMMON_GIVEN_NAMES` are Faker's en_US first names, not AndroidWorld's list.
"""
from __future__ import annotations

import datetime
import io
import os
import random
import re
import string
from typing import Any

import faker
from faker.providers.person import en_US as en_US_person
from PIL import Image, ImageDraw, ImageFont

from taskkit.apps import media
from taskkit.compat.android_world.env import adb_utils, device_constants
from taskkit.compat.android_world._device import device_of
from taskkit.compat.android_world.utils import file_utils

_FAKER = faker.Faker("en_US")
COMMON_GIVEN_NAMES: list[str] = sorted({name for name in en_US_person.Provider.first_names if name.isalpha()})
# Android's standard public folders (android.os.Environment.DIRECTORY_*) with plausible files.
EMULATOR_DIRECTORIES: dict[str, list[str]] = {
    "Alarms": ["sunrise_chime.mp3", "gentle_wake.mp3", "gym_alarm.mp3", "school_bell.mp3", "soft_bells.mp3"],
    "Audiobooks": ["space_saga_ch1.mp3", "roman_history.mp3", "garden_guide.mp3", "detective_tale.mp3"],
    "DCIM": ["lake_trip.jpg", "family_dinner.jpg", "first_snow.jpg", "city_walk.jpg", "graduation.jpg"],
    "Documents": ["tax_return.pdf", "lease_agreement.pdf", "meeting_agenda.pdf", "travel_plan.pdf", "cv.pdf"],
    "Download": ["installer.apk", "brochure.pdf", "photos_backup.zip", "poster.png", "trailer.mp4"],
    "Movies": ["road_movie.mp4", "nature_doc.mp4", "short_film.mp4", "concert_clip.mp4"],
    "Music": ["summer_mix.mp3", "piano_pieces.mp3", "live_session.mp3", "acoustic_set.mp3"],
    "Notifications": ["ping.mp3", "chime.mp3", "pop.mp3", "knock.mp3"],
    "Pictures": ["sunset_pier.jpg", "birthday_cake.jpg", "puppy.jpg", "mountain_view.jpg"],
    "Podcasts": ["morning_news.mp3", "science_hour.mp3", "cooking_show.mp3", "startup_stories.mp3"],
    "Recordings": ["voice_memo.mp3", "lecture_notes.mp3", "band_practice.mp3", "interview.mp3"],
    "Ringtones": ["classic_ring.mp3", "marimba.mp3", "retro_phone.mp3", "synth_tone.mp3"],
}
_ADJECTIVES = ("quiet", "golden", "rapid", "hidden", "lucky", "silver", "early", "frozen", "gentle", "bold",
               "tiny", "ancient", "bright", "crisp", "dusty", "fresh", "grand", "humble", "lively", "misty")
_NOUNS = ("river", "lantern", "harbor", "meadow", "falcon", "canyon", "pebble", "orchard", "compass", "glacier",
          "summit", "willow", "beacon", "island", "thicket", "prairie", "ember", "garden", "valley", "anchor")
RANDOM_SENTENCES = [
    "Running ten minutes late, start without me.",
    "Can you pick up milk on the way home?",
    "The meeting moved to 3 pm in room B.",
    "Happy birthday! Hope you have a great day.",
    "Don't forget the dentist appointment tomorrow.",
    "I left the keys under the mat.",
    "Dinner is ready whenever you are.",
    "Call me when you land.",
]


def generate_random_string(length: int) -> str:
    """`length` random ASCII letters and digits."""
    return "".join(random.choices(string.ascii_letters + string.digits, k=length))


def _generate_random_date_str() -> str:
    """A date of 2023 before the device's day, as `YYYY_MM_DD`."""
    start = datetime.date(2023, 1, 1)
    days = (device_constants.DT.date() - datetime.timedelta(days=1) - start).days
    return (start + datetime.timedelta(days=random.randint(0, days))).strftime("%Y_%m_%d")


def generate_modified_file_name(base_file_name: str) -> str:
    """`base_file_name` with a date, four random characters or a word (backup, copy, final,
    edited) added before or after its stem, keeping the extension."""
    kind = random.choice(["date_prefix", "random_suffix", "fixed_suffix"])
    as_prefix = random.choice([True, False])
    stem, extension = os.path.splitext(base_file_name)
    if kind == "date_prefix":
        modification = _generate_random_date_str()
    elif kind == "random_suffix":
        modification = generate_random_string(4)
    else:
        modification = random.choice(["backup", "copy", "final", "edited"])
    return f"{modification}_{stem}{extension}" if as_prefix else f"{stem}_{modification}{extension}"


def generate_random_file_name() -> str:
    return generate_modified_file_name(f"{random.choice(_ADJECTIVES)}_{random.choice(_NOUNS)}")


def generate_noise_files(base_file_name: str, directory_path: str, env: Any, variant_names: list[str],
                         n: int = 20) -> None:
    """Create 1 to `n` files named as variants of `variant_names` (mostly) or of `base_file_name`."""
    if not variant_names:
        raise ValueError("variant_names must not be empty")
    wanted, names = random.randint(1, n), set()
    while len(names) < wanted:
        source = random.choice(variant_names) if random.random() <= 0.85 else base_file_name
        name = generate_modified_file_name(source)
        if "." not in name:
            name += os.path.splitext(random.choice(variant_names))[1]
        names.add(name)
    for name in sorted(names):
        file_utils.create_file(name, directory_path, env)


def write_to_markor(data: str, file_name: str, env: Any) -> None:
    """Write a note into Markor's folder and stop Markor so it lists it."""
    device_of(env).files.write_text(file_utils.convert_to_posix_path(device_constants.MARKOR_DATA, file_name), data)
    adb_utils.close_app("markor", env)


def _draw_text(text: str, font_size: int = 24) -> Image.Image:
    """Black text on a white image, 10 px margins, a half line for each empty line."""
    font = ImageFont.load_default(size=font_size)
    lines = text.split("\n")
    heights = [font.getbbox(line)[3] if line.strip() else font_size // 2 for line in lines]
    width = max([font.getbbox(line)[2] for line in lines] + [1])
    image = Image.new("RGB", (width + 20, sum(heights) + 20), color=(255, 255, 255))
    draw, y = ImageDraw.Draw(image), 10
    for line, height in zip(lines, heights):
        draw.text((10, y), line, fill=(0, 0, 0), font=font)
        y += height
    return image


def write_to_gallery(data: str, file_name: str, env: Any) -> None:
    """An image showing `data` in the Gallery's folder (DCIM), then the Gallery stopped so it
    lists it; the format follows the name's extension (JPEG by default)."""
    buffer = io.BytesIO()
    extension = os.path.splitext(file_name)[1].lower()
    _draw_text(data).save(buffer, format="PNG" if extension == ".png" else "JPEG")
    path = file_utils.convert_to_posix_path(device_constants.GALLERY_DATA, file_name)
    device_of(env).files.write_bytes(path, buffer.getvalue())
    adb_utils.close_app("simple gallery", env)


def write_video_file_to_device(file_name: str, location: str, env: Any, messages: list[str] | None = None,
                               message_display_time: int = 1, width: int = 320, height: int = 240,
                               fps: int = 30) -> None:
    """A video in `location` showing each message for `message_display_time` seconds (one
    picture per message: `width`, `height` and `fps` do not change what is shown)."""
    del width, height, fps
    data = media.message_video(messages or [generate_random_string(10)], message_display_time)
    device_of(env).files.write_bytes(file_utils.convert_to_posix_path(location, file_name), data)


def write_mp3_file_to_device(remote_path: str, env: Any, artist: str = "test_artist", title: str = "test_title",
                             duration_milliseconds: int = 1000) -> None:
    """A silent MP3 at `remote_path` tagged with `title` and `artist`, lasting the duration."""
    tags = media.SongTags(title, artist, "", duration_milliseconds)
    device_of(env).files.write_bytes(remote_path, media.mp3_bytes(tags))


def clear_internal_storage(env: Any) -> None:
    """Delete every file under the shared storage, keeping the folders."""
    adb_utils.issue_generic_request(["shell", "find", device_constants.EMULATOR_DATA, "-mindepth", "1",
                                     "-type", "f", "-delete"], env)


def clear_device_storage(env: Any) -> None:
    clear_internal_storage(env)


def _faker() -> faker.Faker:
    _FAKER.seed_instance(random.getrandbits(64))  # from the seeded `random`: reproducible
    return _FAKER


def generate_random_name(excluding: str = "") -> str:
    """"Given Family", avoiding the names in `excluding` (space- or comma-separated)."""
    excluded = {word for word in re.split(r"[ ,]+", excluding) if word}
    fake = _faker()
    for _ in range(1000):
        given, family = fake.first_name(), fake.last_name()
        if given not in excluded and family not in excluded:
            return f"{given} {family}"
    raise ValueError(f"no name avoids {excluding!r}")


def generate_random_number() -> str:
    """`+1` and ten random digits."""
    return "+1" + "".join(random.choice(string.digits) for _ in range(10))


def generate_random_address() -> str:
    fake = _faker()
    return f"{fake.street_address()}, {fake.city()}, {fake.state_abbr()} {fake.zipcode()}"


def dict_to_notes(input_dict: dict[str, tuple[str, str]]) -> str:
    """Visit notes, one paragraph per apartment: name, contact number and impression."""
    return "\n".join(f"Visited {name}. Contact: {phone}. Impressions: {impression}.\n"
                     for name, (phone, impression) in input_dict.items())
