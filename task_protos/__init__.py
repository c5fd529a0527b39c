"""Declarative task specs: the `TaskSpec` protobuf schema and the built-in `*.textproto` specs.

`task_spec.proto` is the schema; `task_spec_pb2.py` is generated from it with
`protoc --python_out=. task_protos/task_spec.proto` (run from the repository root) and
committed. `taskkit.specs` loads, validates and compiles the specs into `TaskEval` classes.
"""
