"""Media files: tagged silent MP3s and Motion-JPEG MP4s, read back by taskkit and decoded by
FFmpeg (PyAV, a test dependency) as a player would."""
from __future__ import annotations

import io

import av
import pytest
from hypothesis import given, settings, strategies as st

from taskkit.apps import media

TITLES = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(str.strip)


@given(title=TITLES, artist=TITLES, duration=st.integers(min_value=100, max_value=600_000))
@settings(max_examples=40, deadline=None)
def test_mp3_tags_read_back_what_was_written(title: str, artist: str, duration: int) -> None:
    data = media.mp3_bytes(media.SongTags(title, artist, "Album", duration))
    tags = media.mp3_tags(data)
    assert tags == media.SongTags(title, artist, "Album", media.mp3_length_ms(duration))
    assert abs(tags.duration_ms - duration) <= 18  # half a frame


@pytest.mark.parametrize("duration_ms", [3_000, 200_000])
def test_ffmpeg_decodes_the_mp3_to_its_duration_and_title(duration_ms: int) -> None:
    data = media.mp3_bytes(media.SongTags("Night Drive", "Ann Lee", "", duration_ms))
    with av.open(io.BytesIO(data)) as container:
        assert container.metadata["title"] == "Night Drive" and container.metadata["artist"] == "Ann Lee"
        stream = container.streams.audio[0]
        samples = sum(frame.samples for frame in container.decode(stream))
        assert abs(samples / stream.rate * 1000 - duration_ms) <= 36
        assert container.duration / 1000 == pytest.approx(media.mp3_length_ms(duration_ms), abs=1)


def test_a_file_that_is_not_an_mp3_has_no_tags() -> None:
    assert media.mp3_tags(b"\x89PNG\r\n\x1a\n" + bytes(100)) is None


def test_a_message_video_shows_each_message_for_its_seconds() -> None:
    data = media.message_video(["edna", "pineapple", "Bob"], 8)
    assert media.mp4_duration_ms(data) == 24_000
    frames = media.video_frames(data)
    assert [ms for _, ms in frames] == [8000, 8000, 8000]
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.video[0]
        assert (stream.codec_context.name, stream.width, stream.height) == ("mjpeg", 320, 240)
        decoded = list(container.decode(stream))
        assert [float(frame.time) for frame in decoded] == [0.0, 8.0, 16.0]
        # Each decoded picture is the one taskkit shows at that time (white text: the words differ).
        from PIL import Image, ImageChops

        for frame, (jpeg, _) in zip(decoded, frames):
            ours = Image.open(io.BytesIO(jpeg)).convert("L")
            assert ImageChops.difference(frame.to_image().convert("L"), ours).getextrema()[1] < 16
    assert frames[0][0] != frames[1][0]


def test_a_file_that_is_not_a_video_has_no_frames_or_duration() -> None:
    assert media.video_frames(b"not a video") == [] and media.mp4_duration_ms(b"not a video") is None
    with pytest.raises(ValueError):
        media.mp4_bytes([], 320, 240)
