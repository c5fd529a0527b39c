"""The generated module is what protoc makes of the committed schema, and the schema parses specs."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from google.protobuf import text_format

from taskkit.task_protos import task_spec_pb2

ROOT = Path(__file__).resolve().parents[2]
PROTO = "task_protos/task_spec.proto"
GENERATED = ROOT / "task_protos" / "task_spec_pb2.py"


def test_committed_module_is_what_protoc_generates(tmp_path):
    protoc = shutil.which("protoc")
    if protoc is None:
        pytest.skip("protoc is not installed (tests/setup_and_run.sh installs Debian's protobuf-compiler)")
    subprocess.run([protoc, f"--python_out={tmp_path}", "-I", str(ROOT), str(ROOT / PROTO)], check=True)
    fresh = (tmp_path / "task_protos" / "task_spec_pb2.py").read_bytes()
    assert fresh == GENERATED.read_bytes(), (
        "task_protos/task_spec_pb2.py is stale: run `protoc --python_out=. task_protos/task_spec.proto` "
        "from the repository root and commit the result")


def test_every_message_field_is_documented_in_the_schema():
    text = (ROOT / PROTO).read_text()
    assert "syntax = \"proto3\";" in text
    messages = [m for m in task_spec_pb2.DESCRIPTOR.message_types_by_name.values()]
    assert {"TaskSpec", "Param", "Step", "Check", "AnswerCheck", "Include", "Condition"} <= {m.name for m in messages}
    for message in messages:
        assert f"message {message.name} " in text


def test_unknown_fields_are_rejected_by_the_parser():
    with pytest.raises(text_format.ParseError):
        text_format.Parse('name: "x" nme: "y"', task_spec_pb2.TaskSpec())
