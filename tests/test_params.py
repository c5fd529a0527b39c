"""Params: plain JSON data checked against a JSON Schema subset, with clear errors."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from taskkit import TaskEval, TaskDefinitionError
from taskkit import params as params_lib
from taskkit.params import ParamError, SchemaError, check_plain, check_schema, validate

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "count": {"type": "integer", "minimum": 0, "maximum": 10},
        "ratio": {"type": "number"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "mode": {"enum": ["a", "b"]},
    },
    "required": ["name", "count"],
}


def test_valid_params_pass():
    validate({"name": "x", "count": 3, "ratio": 1, "tags": ["t"], "mode": "a"}, SCHEMA)


@pytest.mark.parametrize(
    "params, fragment",
    [
        ({"count": 1}, "missing required field 'name'"),
        ({"name": "x", "count": 1, "extra": 2}, "unknown field 'extra'"),
        ({"name": "x", "count": "3"}, "params.count: expected integer, got string"),
        ({"name": "x", "count": True}, "params.count: expected integer, got boolean"),
        ({"name": "x", "count": 11}, "above the maximum 10"),
        ({"name": "", "count": 1}, "shorter than 1"),
        ({"name": "x", "count": 1, "tags": ["a", 2]}, "params.tags[1]: expected string"),
        ({"name": "x", "count": 1, "mode": "c"}, "is not one of"),
    ],
)
def test_bad_params_name_the_field(params, fragment):
    with pytest.raises(ParamError) as error:
        validate(params, SCHEMA)
    assert fragment in str(error.value)


def test_non_json_values_are_rejected():
    with pytest.raises(ParamError, match="not plain JSON"):
        check_plain({"when": object()})
    with pytest.raises(ParamError, match="not valid JSON"):
        check_plain({"x": float("nan")})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


@given(json_values)
def test_any_json_value_is_plain(value):
    check_plain(value)


def test_unsupported_schema_keyword_is_rejected():
    with pytest.raises(SchemaError, match="unsupported JSON Schema keyword"):
        check_schema({"type": "object", "oneOf": []})
    with pytest.raises(SchemaError, match="required field 'b' is not in properties"):
        check_schema({"type": "object", "properties": {"a": {}}, "required": ["b"]})


def test_task_names_itself_in_param_errors():
    class Greeting(TaskEval, register=False):
        template = "Say {{ word }}"
        schema = {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}

        def is_successful(self, env) -> float:
            return 0.0

    with pytest.raises(ParamError, match=r"^Greeting: params\.word: expected string, got integer"):
        Greeting({"word": 3})
    with pytest.raises(ParamError, match=r"^Greeting: params: unknown field 'other'"):
        Greeting({"word": "hi", "other": 1})
    assert Greeting({"word": "hi"}).goal == "Say hi"


def test_malformed_task_classes_fail_at_definition():
    with pytest.raises(TaskDefinitionError, match="unknown app 'no such app'"):
        class BadApp(TaskEval, register=False):
            app_names = ("no such app",)

    with pytest.raises(TaskDefinitionError, match="complexity must be a positive number"):
        class BadComplexity(TaskEval, register=False):
            complexity = 0

    with pytest.raises(TaskDefinitionError, match="template line 1"):
        class BadTemplate(TaskEval, register=False):
            template = "{% if %}"

    with pytest.raises(TaskDefinitionError, match="unsupported JSON Schema keyword"):
        class BadSchema(TaskEval, register=False):
            schema = {"type": "object", "anyOf": []}


def test_goal_with_a_missing_param_fails_loudly():
    class Missing(TaskEval, register=False):
        template = "Hello {{ who }}"

        def is_successful(self, env) -> float:
            return 0.0

    with pytest.raises(Exception, match="'who' is undefined"):
        _ = Missing({}).goal


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                     | st.text(max_size=5), lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=20)


@given(st.dictionaries(st.text(max_size=4), _JSON, max_size=4))
def test_a_tasks_params_are_its_own_deep_copy_with_every_type_kept(params):
    """TaskEval keeps its own copy (taskkit.task._copied): equal, of the same types all the way
    down (True stays a bool, 1.0 a float), sharing no list or dict with the caller's."""
    import enum

    from taskkit.task import _copied

    copied = _copied(params)
    assert copied == params

    def same(a, b):
        assert type(a) is type(b)
        if isinstance(a, (list, dict)):
            assert a is not b
            for x, y in zip(a.values() if isinstance(a, dict) else a, b.values() if isinstance(b, dict) else b):
                same(x, y)
    same(params, copied)

    class Level(enum.IntEnum):
        LOW = 1
    assert type(_copied({"level": Level.LOW})["level"]) is Level  # marshal refuses it: deepcopy keeps it


class _Text(str):
    pass


_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5),
                  st.text(max_size=3).map(_Text), st.tuples(st.integers()), st.binary(max_size=2))
_value = st.recursive(_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), inner, max_size=4)), max_leaves=12)


@given(_value)
def test_the_quick_check_and_the_full_walk_agree(value) -> None:
    # check_plain answers plain data of the exact built-in types without its per-node walk
    def refused(check) -> bool:  # type: ignore[no-untyped-def]
        try:
            check(value, "params")
        except ParamError:
            return True
        return False

    assert refused(check_plain) == refused(params_lib._walk)
