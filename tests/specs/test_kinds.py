"""The registry of check and step kinds (taskkit/specs/kinds.py) agrees with the proto, the
`taskkit.validators` package, the near-miss rules and the docs; the kinds that mirror Python
validators work end to end."""
from __future__ import annotations

import inspect
import textwrap
import typing
from pathlib import Path

import pytest
from google.protobuf import text_format

from taskkit import specs
from taskkit import validators
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.specs import kinds, reference
from taskkit.testing.mutations import derive
from taskkit.testing.session import Session

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "authoring-specs.md"
REGISTRIES = [kinds.CHECKS, kinds.STEPS]


@pytest.mark.parametrize("registry", REGISTRIES, ids=lambda r: r.noun)
def test_every_oneof_member_has_exactly_one_kind_in_the_schemas_order(registry):
    assert list(registry) == registry.oneof_fields()


def _validator_class(factory) -> type:
    return typing.get_type_hints(factory)["return"]


def _validator_factories() -> set[str]:
    """The functions `taskkit.validators` exports that return a validator (a class with `evaluate`)."""
    found = set()
    for name in validators.__all__:
        value = getattr(validators, name)
        if inspect.isfunction(value) and hasattr(typing.get_type_hints(value).get("return"), "evaluate"):
            found.add(name)
    return found


def test_every_check_kind_builds_a_python_validator_and_every_validator_has_a_kind():
    built = [kind.python.__name__ for kind in kinds.CHECKS.values()]
    assert all(getattr(validators, name) is kind.python for name, kind in zip(built, kinds.CHECKS.values()))
    assert sorted(built) == sorted(_validator_factories())
    assert all(kind.python is None for kind in kinds.STEPS.values())


@pytest.mark.parametrize("field", list(kinds.CHECKS))
def test_every_check_kinds_validator_has_near_miss_rules(field):
    cls = _validator_class(kinds.CHECKS[field].python)
    assert derive.dispatch(cls) is not derive.dispatch(object), f"no derive rule for {cls.__name__}"


@pytest.mark.parametrize("registry", REGISTRIES, ids=lambda r: r.noun)
def test_every_example_is_one_member_of_its_kind(registry):
    for field, kind in registry.items():
        message = text_format.Parse(kind.example, registry.message())
        assert message.WhichOneof("kind") == field, kind.example
        assert kind.doc and "\n" not in kind.doc


def test_the_docs_reference_tables_are_generated_from_the_registry():
    """Regenerated tables, not a checklist: a stale doc names the command that refreshes it."""
    text = DOCS.read_text()
    assert reference.refresh(text) == text, (
        "docs/authoring-specs.md is stale: run `python -m taskkit.specs.reference docs/authoring-specs.md`")
    for registry in REGISTRIES:
        assert all(f"`{registry.synopsis(field)}`" in text for field in registry)


def test_an_empty_check_lists_every_kind(tmp_path):
    path = tmp_path / "empty.textproto"
    path.write_text('name: "KindsEmpty" apps: "settings" complexity: 1 goal: "x" success { } '
                    'oracle { shell { command: "true" } }')
    with pytest.raises(specs.SpecError) as caught:
        specs.load_file(path, register=False)
    assert caught.value.message == "empty check: set one of " + ", ".join(kinds.CHECKS)


# ----------------------------------------------------------------------------------- end to end
SMS_SENT = '''
name: "KindsSmsSent"
apps: "simple sms messenger"
complexity: 1
goal: "Text {{ number }}: {{ message }}"
params { name: "number" choice { strings: ["+12125550123", "+14695550130"] } }
params { name: "message" choice { strings: ["On my way", "Running ten minutes late"] } }
success {
  all {
    check { provider_row_exists { uri: "content://sms/sent" set { column: "address" param: "number" }
                                  set { column: "body" param: "message" } fuzzy: "body" phone: "address" } }
    check { row_exists { uri: "content://sms/sent" where { field: "address" op: PHONE_EQ param: "number" }
                         where { field: "body" op: FUZZY_EQ param: "message" } } }
  }
}
oracle {
  provider_insert { uri: "content://sms/sent" set { column: "address" param: "number" }
                    set { column: "body" param: "message" } set { column: "read" int: 1 } }
}
'''
EXPENSE_EXISTS = '''
name: "KindsExpenseExists"
apps: "pro expense"
complexity: 1
goal: "Add an expense named {{ name }}."
params { name: "name" choice { strings: ["Taxi ride", "Coffee beans"] } }
success { row_exists { table: "expense" where { field: "name" op: EQ param: "name" ignore_case: true } } }
oracle { insert_rows { table: "expense" rows { set { column: "name" param: "name" } set { column: "amount" int: 500 } } } }
'''
COUNT = '''
name: "KindsCountExpenses"
apps: "pro expense"
complexity: 1
goal: "How many expenses are there?"
params {
  name: "expenses"
  rows { table: "expense" count: 2 max_count: 6 fields { name: "name" faker { provider: "word" } } }
}
setup { insert_rows { table: "expense" params: "expenses" } }
success { answer_equals { match: NUMBER expected: "{{ expenses | length }}" } }
oracle { answer { } }
'''


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    device = sim_device(tmp_path_factory.mktemp("kinds") / "device")
    with Session(Env(device)) as session:
        yield session
    device.close()


@pytest.mark.parametrize("text, mutations", [
    (SMS_SENT, {"content://sms/sent: the matching row has a wrong address", "content://sms/sent: the matching row "
                "has a wrong body", "content://sms/sent: the matching row missing"}),
    (EXPENSE_EXISTS, {"table expense: the matching row has a wrong name", "table expense: the matching row missing"}),
    (COUNT, {"answer: wrong", "answer: none given"}),
], ids=["provider_row_exists+row_exists", "row_exists", "answer_equals"])
def test_the_kinds_mirroring_python_validators_are_solved_and_kill_their_near_misses(tmp_path, session, text,
                                                                                      mutations):
    path = tmp_path / "spec.textproto"
    path.write_text(textwrap.dedent(text))
    cls = specs.load_file(path, register=False)
    run = session.near_misses(cls, 3)
    assert run.error is None and not run.survived and not run.unapplied, (run.error, run.survived, run.unapplied)
    assert {name.split(" (")[0] for name in run.killed} == mutations


def test_every_validator_is_in_the_readme_table():
    readme = (ROOT / "README.md").read_text().split("### Validators", 1)[1].split("###", 1)[0]
    assert [name for name in sorted(_validator_factories()) if f"`{name}(" not in readme and f"`{name}`" not in readme] == []


def test_an_unusable_expected_answer_names_the_specs_field(tmp_path, env):
    path = tmp_path / "when.textproto"
    path.write_text('name: "KindsWhen"\napps: "settings"\ncomplexity: 1\ngoal: "When?"\n'
                    'params { name: "day" choice { strings: ["soon"] } }\n'
                    'success { answer { match: DATE expected: "{{ day }}" } }\n'
                    'oracle { answer { text: "October 22 2023" } }\n')
    task = specs.load_file(path, register=False).from_seed(0)
    task.initialize_state(env)
    try:
        task.solve(env)
        with pytest.raises(specs.SpecRuntimeError) as caught:
            task.is_successful(env)
    finally:
        task.teardown(env)
    assert str(caught.value).startswith(f"{path.resolve()}:6:11: success.answer: expected answer is not a date")


@pytest.mark.parametrize("success, field, message", [
    ('provider_row_exists { uri: "content://sms/sent" set { column: "body" str: "hi" } fuzzy: "bdy" }',
     "success.provider_row_exists.fuzzy[0]", "'bdy' is not a column given by `set` (body)"),
    ('provider_row_exists { uri: "sms/sent" set { column: "body" str: "hi" } }',
     "success.provider_row_exists.uri", "a provider uri starts with content://, got 'sms/sent'"),
    ('answer_equals { expected: "3" tolerance: 1 }',
     "success.answer_equals.tolerance", "a tolerance only applies to match: NUMBER, not STRING"),
    ('answer_equals { match: NUMBER }', "success.answer_equals.expected", "required"),
    ('row_exists { uri: "content://sms/sent" }', "success.row_exists.where", "required: the conditions picking the rows"),
])
def test_the_new_kinds_report_their_mistakes_at_load_time(tmp_path, success, field, message):
    path = tmp_path / "bad.textproto"
    path.write_text(f'name: "KindsBad" apps: "simple sms messenger" complexity: 1 goal: "x"\nsuccess {{ {success} }}\n'
                    'oracle { answer { text: "3" } }\n')
    with pytest.raises(specs.SpecError) as caught:
        specs.load_file(path, register=False)
    assert (caught.value.field, caught.value.message) == (field, message)
