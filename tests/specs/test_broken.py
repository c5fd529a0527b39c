"""Each deliberately broken spec is rejected with its precise `file:line:col: field: message`."""
from __future__ import annotations

from pathlib import Path

import pytest

from taskkit import loading, registry, specs

BROKEN = Path(__file__).parent / "broken"

EXPECTED = {
    "answer_outside_oracle": "5:9: setup[0].answer: an answer step belongs in the oracle only",
    "bad_tolerance": "8:5: success.answer.tolerance: a tolerance only applies to match: NUMBER, not STRING",
    "bad_weight": "8:13: success.weighted.check[1].weight: must be ≥ 0, got -2",
    "condition_column": "12:15: success.answer.select.where[1].field: table events has no column 'start_time' "
                        "(did you mean start_ts?)",
    "duplicate_name": "1:1: name: task name 'ExpenseAddSingle' is already defined in taskkit.apps.expense.tasks",
    "expr_syntax": "6:24: params[1].expr: expr syntax error: unexpected ')'",
    "gui_bad_direction": "7:43: gui_reference[0].swipe.direction: must be up, down, left or right, got 'sideways'",
    "gui_empty_locator": "8:17: gui_reference[1].tap: an empty locator: set by, text, description, resource_id, "
                         "contains or class_name",
    "gui_unknown_param": "8:69: gui_reference[0].type_text.text: template uses unknown param 'levle' (did you mean "
                         "level?)",
    "missing_oracle": "1:1: oracle: required: the reference solution's steps (the oracle agent runs them)",
    "not_a_list": "6:72: success.rows_deleted.where[0].param: IN needs a list (e.g. a param path over rows), "
                  "got a string",
    "syntax_error": "4:7: goal: syntax error: String missing ending quote: '\"Add an expense of {{ amount }}.'",
    "type_mismatch": "11:29: params[0].rows.fields[1].choice: type mismatch: a string does not fit the INTEGER "
                     "column expense.amount",
    "templated_command": "8:5: success.command_output_matches.command: a command is literal text, not a template "
                         "(a param must never become a command)",
    "two_generators": "8:3: params[0].choice: 'choice' and 'int_range' are both set; choose one generator "
                      "(they exclude each other)",
    "unknown_app": "2:18: apps[1]: unknown app 'pro expenses' (did you mean pro expense?); apps: ",
    "unknown_column": "11:14: params[0].rows.fields[1].name: table expense has no column 'ammount' "
                      "(did you mean amount?) (a field that is not a column needs `extra: true`)",
    "unknown_faker_provider": "5:31: params[0].faker.provider: unknown Faker provider 'first_nam' "
                              "(did you mean first_name, first_name_male, first_name_female?)",
    "unknown_field": "7:12: params[0].choice.strngs: unknown field 'strngs' in Choice (did you mean strings?)",
    "unknown_include": "4:24: include[1].task: unknown task 'SimpleSmsSnd' (did you mean SimpleSmsSend, ",
    "unknown_param_in_template": "4:33: goal: template uses unknown param 'levle' (did you mean level?) (params: level)",
    "unknown_param_reference": "6:35: params[1].ref: unknown param reference 'titel' (did you mean title?) "
                               "(params: title)",
    "unknown_row_field": "4:48: goal: template: item (a row of table expense) has no field 'nmae' (fields: name)",
    "unknown_table": "8:5: params[0].rows.table: no app of this spec has a table 'expenses' "
                     "(tables: pro expense: expense)",
}


def test_every_broken_spec_has_an_expectation():
    assert {path.stem for path in BROKEN.glob("*.textproto")} == set(EXPECTED)


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_broken_spec_error(stem):
    loading.load_builtin()  # the duplicate-name case collides with a built-in Python task
    path = BROKEN / f"{stem}.textproto"
    with pytest.raises(specs.SpecError) as caught:
        specs.load_file(path)
    error = caught.value
    text = str(error)
    assert "\n" not in text
    assert text.startswith(f"{path}:{EXPECTED[stem]}"), text
    line, col, field = EXPECTED[stem].split(":")[:3]
    assert (error.path, error.line, error.col, error.field) == (str(path), int(line), int(col), field.strip())
    assert stem not in registry.names()


def test_load_dir_reports_every_broken_spec_and_registers_none():
    before = set(registry.names())
    result = specs.load_dir(BROKEN, register=False)
    # the duplicate name only collides when registering (with the built-in Python task)
    assert [cls.name for cls in result.classes] == ["ExpenseAddSingle"]
    reported = sorted(Path(error.path).stem for error in result.errors)
    assert reported == sorted(set(EXPECTED) - {"duplicate_name"})
    assert set(registry.names()) == before
