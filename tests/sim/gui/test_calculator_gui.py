"""The Calculator through the simulated GUI: AOSP ExactCalculator's ids and labels, formulas shown
as the app shows them, the live preview and `=`, DEL/clear, DEG/RAD and inverse keys, the state
kept across a force-stop, and the formula evaluator on its own (no `eval`)."""
from __future__ import annotations

import math

import pytest

from taskkit.apps import calculator
from taskkit.apps.calculator import formula as calc
from tests.sim.gui.helpers import find, tap

ID = "com.google.android.calculator:id/"


def _open(device) -> None:
    calculator.APP.launch(device)


def _press(device, *keys: str) -> None:
    for key in keys:
        tap(device, lambda e, k=key: e.resource_name == ID + k)


def _shown(device, rid: str) -> str | None:
    """The text of element `rid` ("" when empty), None when it is not on the screen."""
    found = [e.text or "" for e in device.ui.screen().elements if e.resource_name == ID + rid]
    return found[0] if found else None


def test_the_pads_carry_aosp_ids_labels_and_descriptions(device) -> None:
    _open(device)
    elements = {e.resource_name.rpartition(":id/")[2]: e for e in device.ui.screen().elements if e.resource_name}
    wanted = {f"digit_{d}" for d in range(10)} | {
        "dec_point", "op_add", "op_sub", "op_mul", "op_div", "op_pct", "eq", "del", "clr", "fun_sin", "fun_cos",
        "fun_tan", "fun_ln", "fun_log", "op_fact", "const_pi", "const_e", "op_pow", "lparen", "rparen", "op_sqrt",
        "toggle_mode", "toggle_inv", "formula", "result_preview", "mode"}
    assert wanted <= set(elements)
    assert (elements["op_mul"].text, elements["op_mul"].content_description) == ("×", "multiply")
    assert (elements["op_sub"].text, elements["op_div"].text, elements["op_sqrt"].text) == ("\u2212", "÷", "√")
    assert elements["del"].content_description == "delete" and elements["clr"].is_enabled
    assert (elements["toggle_mode"].text, elements["toggle_mode"].content_description) == ("deg", "switch to degrees")
    assert elements["mode"].text == "rad" and not elements["formula"].text
    assert elements["formula"].content_description == "No formula"


@pytest.mark.parametrize("keys, shown", [
    (("digit_3", "op_mul", "digit_5"), "3×5"),
    (("digit_6", "op_fact"), "6!"),
    (("fun_cos", "digit_1", "digit_8", "digit_0", "rparen"), "cos(180)"),
    (("digit_5", "digit_0", "op_pct", "digit_2", "digit_8"), "50%28"),
    (("op_sqrt", "digit_2", "digit_5"), "√25"),
    (("digit_4", "digit_5", "op_mul", "const_pi", "op_div", "digit_1", "digit_8", "digit_0"), "45×π÷180"),
])
def test_keys_type_the_formula_as_the_app_shows_it(device, keys, shown) -> None:
    _open(device)
    _press(device, *keys)
    assert _shown(device, "formula") == shown


def test_preview_then_equals_shows_the_final_result(device) -> None:
    _open(device)
    _press(device, *calc.keys_for("2÷(1÷4+1÷5)"))
    assert _shown(device, "result_preview").startswith("4.44")
    _press(device, "eq")
    assert _shown(device, "result_final").startswith("4.44") and _shown(device, "result_preview") is None
    assert _shown(device, "formula") == "2÷(1÷4+1÷5)"
    _press(device, "op_add", "digit_1")  # an operator continues from the result
    assert _shown(device, "formula").startswith("4.44") and _shown(device, "formula").endswith("+1")
    _press(device, "eq", "digit_7")  # a digit starts over
    assert _shown(device, "formula") == "7"


def test_errors_delete_and_clear(device) -> None:
    _open(device)
    _press(device, "digit_1", "op_div", "digit_0", "eq")
    assert _shown(device, "result_final") == "Can't divide by 0" and _shown(device, "formula") == "1÷0"
    _press(device, "del")
    assert _shown(device, "formula") == "1÷"
    _press(device, "fun_ln")
    assert _shown(device, "formula") == "1÷ln("
    _press(device, "del")  # a function name goes at once
    assert _shown(device, "formula") == "1÷"
    _press(device, "clr")
    assert _shown(device, "formula") == ""


def test_degree_mode_and_inverse_keys(device) -> None:
    _open(device)
    _press(device, "fun_cos", "digit_1", "digit_8", "digit_0", "rparen", "eq")
    assert _shown(device, "result_final").startswith("\u22120.598")  # radians first, as the app starts
    _press(device, "toggle_mode", "clr", "fun_cos", "digit_1", "digit_8", "digit_0", "rparen", "eq")
    assert _shown(device, "result_final") == "\u22121" and _shown(device, "mode") == "deg"
    _press(device, "toggle_inv")
    assert find(device, lambda e: e.resource_name == ID + "toggle_inv").is_selected
    _press(device, "fun_arcsin", "digit_1", "rparen")
    assert _shown(device, "formula") == "sin\u207b\u00b9(1)"
    _press(device, "eq")
    assert _shown(device, "result_final") == "90"


def test_the_display_survives_a_force_stop_and_pm_clear_resets_it(device) -> None:
    _open(device)
    _press(device, "digit_4", "digit_2")
    device.activity.force_stop(calculator.PACKAGE)
    _open(device)
    assert _shown(device, "formula") == "42"
    calculator.reset(device)
    _open(device)
    assert _shown(device, "formula") == ""


@pytest.mark.parametrize("formula, value", [
    ("1+1", 2), ("2+24÷3", 10), ("10!÷(2!×8!)", 45), ("50%28", 14), ("2π", 2 * math.pi),
    ("\u22123+1", -2), ("2^3^2", 512), ("\u22122^2", -4), ("ln(1234", math.log(1234)),
    ("(3×4×5)^(1÷3)", 60 ** (1 / 3)),
])
def test_the_evaluator(formula, value) -> None:
    assert calc.evaluate(formula) == pytest.approx(value)


@pytest.mark.parametrize("formula, message", [
    ("1÷0", "Can't divide by 0"), ("1+", "Bad expression"), ("2)", "Bad expression"), ("(\u22121)!", "Not a number"),
    ("ln(0)", "Not a number"), ("", "Bad expression"), ("__import__('os')", "Bad expression"),
])
def test_the_evaluator_refuses_what_has_no_value(formula, message) -> None:
    with pytest.raises(calc.FormulaError, match=message):
        calc.evaluate(formula)


def test_result_text_and_keys() -> None:
    assert [calc.result_text(v) for v in (15.0, -0.5, 2 / 3, 1e20)] == ["15", "\u22120.5", "0.666666666667", "1E20"]
    assert calc.keys_for("cos(60)") == ["fun_cos", "digit_6", "digit_0", "rparen"]
    assert calc.preview("3×") == "" and calc.preview("12") == "" and calc.preview("3×5") == "15"
