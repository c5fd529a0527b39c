"""A trajectory line is `json.dumps` of the step's record, and its digest `elements_digest` of the
elements' dicts, though both are made from each element's kept JSON (taskkit/trajectory.py)."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from taskkit.agents.base import Action, Observation
from taskkit.agents.recorded import elements_digest, screen_digest
from taskkit.device.services.ui import BoundingBox, UIElement
from taskkit.trajectory import TrajectoryWriter

_TEXT = st.none() | st.text(max_size=12)  # any Unicode: quotes, backslashes, NUL, astral characters
_BOX = st.none() | st.builds(BoundingBox, *(st.integers(-5, 3000),) * 4)
_ELEMENTS = st.lists(st.builds(UIElement, text=_TEXT, content_description=_TEXT, class_name=_TEXT, bbox=_BOX,
                               hint=_TEXT, is_checked=st.booleans(), is_enabled=st.booleans(),
                               package_name=_TEXT, resource_name=_TEXT), max_size=5)


@settings(max_examples=60, deadline=None)
@given(elements=_ELEMENTS, foreground=_TEXT, error=_TEXT)
def test_a_line_is_the_records_json(tmp_path_factory, elements, foreground, error) -> None:
    folder = tmp_path_factory.mktemp("run")
    writer = TrajectoryWriter(folder, "Task_0")
    observation = Observation("goal", 3, 10, foreground, tuple(elements), screen_error=error)
    action = Action("click", index=1)
    for element in elements[:1]:  # an element whose JSON was made before (kept) and the others made now
        assert element.json_text
    writer.step(observation, action, error, 0.25, {"tokens": 7})
    writer.close()
    dicts = [element.as_dict() for element in elements]
    expected = {"step": 3, "foreground": foreground, "elements_digest": elements_digest(dicts), "elements": dicts,
                "screen_error": error, "action": action.to_dict(), "action_error": error, "agent_seconds": 0.25,
                "usage": {"tokens": 7}}
    written = (folder / "trajectories" / "Task_0.jsonl").read_text(encoding="utf-8")
    assert written == json.dumps(expected, ensure_ascii=False) + "\n"
    assert screen_digest(elements) == elements_digest(dicts)
