"""What a process pays the first time: templates compiled and pictures drawn once per machine,
a spec template's names found once per process (issue #37)."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterator

import jinja2
import pytest

import taskkit.apps.media  # noqa: F401 - generators of MADE
import taskkit.apps.pictures  # noqa: F401
import taskkit.apps.simple_draw_pro  # noqa: F401

from taskkit import apps, compiled_templates, task, user_cache
from taskkit.apps import kept as kept_module
from taskkit.apps.kept import kept
from taskkit.specs import templates

GOAL = "Send {{ name }} {{ amount | money }} on {{ start | when }}{% if note %}: {{ note }}{% endif %}"
PARAMS = {"name": "Ann O'Neil", "amount": 12345, "start": 1_700_000_000, "note": "rent; $(rm -rf /)"}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A fresh user cache, the processes' compiled templates forgotten, and compiles counted."""
    monkeypatch.setenv("TASKKIT_CACHE_DIR", str(tmp_path / "cache"))
    compiles: list[str] = []
    real = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: str, *args: object, **kwargs: object) -> object:
        compiles.append(source)
        return real(self, source, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    forget()
    yield compiles
    forget()


def forget() -> None:
    """What a new process would not have: the in-memory compiled templates."""
    task._goal_template.cache_clear()
    templates._template.cache_clear()


def render_all() -> list[str]:
    return [
        task._goal_template(GOAL).render(**PARAMS),
        templates.render(GOAL, PARAMS),
        templates.render("echo {{ note }} > {{ name }}", PARAMS, shell=True),
        templates.render("echo {{ note }} > {{ name }}", PARAMS),
    ]


def fresh() -> list[str]:
    """The same templates compiled from their source, as before the cache."""
    return [
        task.jinja_environment().from_string(GOAL).render(**PARAMS),
        templates.ENV.from_string(GOAL).render(**PARAMS),
        templates.SHELL.from_string("echo {{ note }} > {{ name }}").render(**PARAMS),
        templates.ENV.from_string("echo {{ note }} > {{ name }}").render(**PARAMS),
    ]


def test_a_template_is_compiled_once_per_machine_and_renders_the_same(cache: list[str]) -> None:
    expected = fresh()
    cache.clear()
    assert render_all() == expected  # the goal, spec and shell environments each compile their own
    assert len(cache) == 4
    forget()
    assert render_all() == expected  # the next process loads all four, compiling none
    assert len(cache) == 4


def test_a_changed_source_is_compiled_again(cache: list[str], tmp_path: Path) -> None:
    folder = tmp_path / "cache" / "templates"
    changed = GOAL.replace("Send", "Pay")
    templates.render(GOAL, PARAMS)
    (goal_entry,) = folder.iterdir()
    assert templates.render(changed, PARAMS) == templates.ENV.from_string(changed).render(**PARAMS)
    assert cache.count(changed) == 2  # its own entry, and the fresh one
    (changed_entry,) = set(folder.iterdir()) - {goal_entry}
    changed_entry.write_bytes(goal_entry.read_bytes())  # the entry now holds the other source's code
    forget()
    cache.clear()
    assert templates.render(changed, PARAMS) == templates.ENV.from_string(changed).render(**PARAMS)
    assert cache == [changed, changed]  # jinja's checksum refused it


def test_an_entry_appears_whole_through_a_rename(cache: list[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Concurrent processes (test workers, pool workers) read a whole entry or none."""
    renamed: list[tuple[bytes, Path]] = []
    real = os.replace

    def replace(source: str, target: Path) -> None:
        renamed.append((Path(source).read_bytes(), Path(target)))
        real(source, target)

    monkeypatch.setattr(user_cache.os, "replace", replace)
    templates.render(GOAL, PARAMS)
    (entry,) = (tmp_path / "cache" / "templates").iterdir()
    assert renamed == [(entry.read_bytes(), entry)]


@pytest.mark.parametrize("damage", ["unwritable", "truncated", "garbage"])
def test_an_unusable_cache_compiles_instead(cache: list[str], tmp_path: Path, damage: str) -> None:
    folder = tmp_path / "cache"
    if damage == "unwritable":
        folder.write_text("a file where the folder should be")
    else:
        render_all()
        for entry in (folder / "templates").iterdir():
            data = entry.read_bytes()
            entry.write_bytes(data[: len(data) // 2] if damage == "truncated" else data[:40] + b"\xff" * 80)
    forget()
    cache.clear()
    assert render_all() == fresh()
    assert len(cache) == 4 + 4


def test_entries_are_read_only_from_a_folder_no_one_else_may_write(cache: list[str], tmp_path: Path) -> None:
    """An entry is code the process runs: one in a folder group or others may write to is not loaded."""
    render_all()
    folder = tmp_path / "cache" / "templates"
    assert folder.stat().st_mode & 0o777 == 0o700 and len(list(folder.iterdir())) == 4
    folder.chmod(0o770)
    forget()
    cache.clear()
    assert render_all() == fresh() and len(cache) == 4 + 4  # each compiled again, none loaded
    folder.chmod(0o700)
    forget()
    cache.clear()
    assert render_all() == fresh() and len(cache) == 4  # the fresh() compiles only


def test_the_key_tells_environments_apart() -> None:
    keys = {compiled_templates._compiler_key(env) for env in (task.jinja_environment(), templates.ENV, templates.SHELL)}
    assert len(keys) == 3
    other = templates.ENV.overlay()
    other.filters = {**other.filters, "extra": str}
    assert compiled_templates._compiler_key(other) not in keys


def test_a_spec_template_s_names_are_found_once(monkeypatch: pytest.MonkeyPatch) -> None:
    found: list[object] = []
    real = templates.meta.find_undeclared_variables
    monkeypatch.setattr(templates.meta, "find_undeclared_variables", lambda tree: found.append(tree) or real(tree))
    source = "{{ name }} {% for x in items %}{{ x.title }}{% endfor %} {{ now }} {{ unique_sentinel_38 }}"
    names = [templates.free_names(templates.parse(source)) for _ in range(3)]
    assert names == [{"name", "items", "unique_sentinel_38"}] * 3  # `now` is a global; `x` is defined
    assert len(found) == 1  # the validator asks for each template's names several times


def test_a_versioned_result_is_made_once_per_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKKIT_CACHE_DIR", str(tmp_path / "cache"))
    made: list[str] = []
    version = ["1"]

    def make(text: str) -> bytes:
        made.append(text)
        return text.encode() * 2

    def process() -> Callable[[str], bytes]:  # each process keeps its own results in memory
        return kept(version=lambda: version[0])(make)

    assert process()("ab") == process()("ab") == b"abab" and made == ["ab"]
    assert process()("cd") == b"cdcd" and made == ["ab", "cd"]
    version[0] = "2"  # the maker's code or libraries changed: made again
    assert process()("ab") == b"abab" and made == ["ab", "cd", "ab"]
    monkeypatch.setattr(kept_module, "DISK_SLOTS", 1)  # "ab" and "cd" now take the same file in turn
    assert [process()(text) for text in ("ab", "cd", "ab", "ab")] == [b"abab", b"cdcd", b"abab", b"abab"]
    assert made == ["ab", "cd", "ab", "ab", "cd", "ab"]
    (tmp_path / "cache").rename(tmp_path / "old")
    (tmp_path / "cache").write_text("a file where the folder should be")
    assert process()("ab") == process()("ab") == b"abab" and made == ["ab", "cd", "ab", "ab", "cd", "ab", "ab", "ab"]


MADE = [  # a generator of each kind kept per machine: module of taskkit.apps, function, inputs
    ("pictures", "text_picture", (["Receipt 4711 (first-time test)", "Coffee $3.50", "Total " + "x" * 70],)),
    ("simple_draw_pro", "drawing_bytes", ([((10, 20), (90, 40))], 120, 80, "png", 6)),
    ("media", "message_video", (["first-time", "test"], 1)),
]


def test_pictures_drawings_and_videos_made_once_are_read_by_the_next_process_without_pillow(tmp_path: Path) -> None:
    env = dict(os.environ, TASKKIT_CACHE_DIR=str(tmp_path / "cache"))
    code = ("import hashlib, sys; from taskkit import apps; import taskkit.apps.media, taskkit.apps.pictures, "
            "taskkit.apps.simple_draw_pro; "
            f"print(*[hashlib.sha256(getattr(getattr(apps, m), f)(*a)).hexdigest() for m, f, a in {MADE!r}], "
            "'PIL.Image' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
            for _ in range(2)]
    drawn = [hashlib.sha256(getattr(getattr(apps, m), f).__wrapped__(*a)).hexdigest() for m, f, a in MADE]
    assert runs == [[*drawn, "True"], [*drawn, "False"]]
