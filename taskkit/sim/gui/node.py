"""The simulated screen's view tree: nodes with exactly the attributes of Android's window dump.

A `Node` is what `uiautomator dump` writes for one accessibility node (AOSP
`AccessibilityNodeInfoDumper`: index, text, resource-id, class, package, content-desc, the
boolean flags, bounds), plus what the simulator needs to act on it: `action`, run when the node
is tapped, and `value`, the position (0.0–1.0) a slider is set to by a tap or a swipe.
"""
from __future__ import annotations

import dataclasses
from typing import Callable
from xml.sax.saxutils import quoteattr

from taskkit.sim.state import SimState

Action = Callable[[SimState], None]
SliderAction = Callable[[SimState, float], None]

# The attributes uiautomator writes, in its order.
_FLAGS = ("checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
          "long_clickable", "password", "selected")


@dataclasses.dataclass
class Node:
    """One view of the screen; `children` are drawn after (above) it."""

    class_name: str = "android.widget.FrameLayout"
    text: str = ""
    resource_id: str = ""
    package: str = ""
    content_desc: str = ""
    bounds: tuple[int, int, int, int] = (0, 0, 0, 0)
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    long_clickable: bool = False
    password: bool = False
    selected: bool = False
    children: list["Node"] = dataclasses.field(default_factory=list)
    action: Action | None = None
    slide: SliderAction | None = None  # a SeekBar: tapped or swiped at a fraction of its width

    def walk(self) -> list["Node"]:
        """This node and every descendant, in drawing (document) order."""
        nodes = [self]
        for child in self.children:
            nodes.extend(child.walk())
        return nodes

    def contains(self, x: int, y: int) -> bool:
        x1, y1, x2, y2 = self.bounds
        return x1 <= x < x2 and y1 <= y < y2


def hit(root: Node, x: int, y: int) -> Node | None:
    """The topmost clickable node under (x, y): the last drawn one, as Android dispatches a tap."""
    found = None
    for node in root.walk():
        if (node.clickable or node.slide is not None) and node.enabled and node.contains(x, y):
            found = node
    return found


def to_xml(root: Node, package_default: str) -> str:
    """Android's window_dump.xml for the tree under `root` (one line, as uiautomator writes it)."""
    parts = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"]

    def emit(node: Node, index: int) -> None:
        x1, y1, x2, y2 = node.bounds
        attrs = {
            "index": str(index), "text": node.text, "resource-id": node.resource_id,
            "class": node.class_name, "package": node.package or package_default, "content-desc": node.content_desc,
            **{flag.replace("_", "-"): "true" if getattr(node, flag) else "false" for flag in _FLAGS},
            "bounds": f"[{x1},{y1}][{x2},{y2}]",
        }
        text = " ".join(f"{name}={quoteattr(value)}" for name, value in attrs.items())
        if node.children:
            parts.append(f"<node {text}>")
            for child_index, child in enumerate(node.children):
                emit(child, child_index)
            parts.append("</node>")
        else:
            parts.append(f"<node {text} />")

    emit(root, 0)
    parts.append("</hierarchy>")
    return "".join(parts)
