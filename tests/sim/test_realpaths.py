"""taskkit.sim.realpaths answers what `os.path.realpath` answers, on generated trees of folders,
files and links (relative, absolute, dangling, looping, through `..`), for paths through them."""
from __future__ import annotations

import os
import tempfile

from hypothesis import given, settings, strategies as st

from taskkit.sim.realpaths import real_path

NAMES = ("a", "b", "c", "f", "l1", "l2", "l3", "x")
TARGETS = ("a", "b/c", "../a", "..", "nowhere", "l1", "a/b/../c", "l2/x", "f", "/", "ROOT/c", "ROOT/l2")
_components = st.sampled_from((*NAMES, ".", ".."))


@st.composite
def trees(draw):
    folders = draw(st.lists(st.lists(st.sampled_from(("a", "b", "c")), min_size=1, max_size=3), max_size=6))
    links = draw(st.dictionaries(st.sampled_from(("l1", "l2", "a/l3", "b/l1", "a/b/l2")), st.sampled_from(TARGETS)))
    files = draw(st.lists(st.sampled_from(("f", "a/f", "b/c/f")), max_size=2))
    path = draw(st.lists(_components, max_size=6))
    return folders, links, files, path


def _build(root: str, folders, links, files) -> None:
    for parts in folders:
        os.makedirs(os.path.join(root, *parts), exist_ok=True)
    for name in files:
        try:
            open(os.path.join(root, name), "w").close()
        except OSError:
            pass
    for name, target in links.items():
        try:
            os.symlink(target.replace("ROOT", root), os.path.join(root, name))
        except OSError:  # its folder is missing or a file, or the name is taken
            pass


@settings(max_examples=400, deadline=None)
@given(trees(), st.booleans())
def test_the_kernels_answer_is_realpaths(tree, follow: bool) -> None:
    folders, links, files, parts = tree
    with tempfile.TemporaryDirectory() as root:
        root = os.path.realpath(root)
        _build(root, folders, links, files)
        path = os.path.join(root, *parts)
        folder, name = os.path.split(path)
        expected = (os.path.realpath(path) if follow or name in ("", ".", "..")
                    else os.path.join(os.path.realpath(folder), name))
        assert real_path(path, follow) == expected


def test_a_dangling_link_resolves_to_where_a_create_would_land(tmp_path) -> None:
    """open(O_CREAT) follows a dangling link, so the sandbox must see its target, not its name."""
    outside = tmp_path / "outside"
    (tmp_path / "inside").mkdir()
    (tmp_path / "inside" / "link").symlink_to(outside)
    assert real_path(str(tmp_path / "inside" / "link")) == os.path.realpath(outside)
    assert real_path(str(tmp_path / "inside" / "link"), follow=False) == os.path.realpath(tmp_path / "inside") + "/link"
