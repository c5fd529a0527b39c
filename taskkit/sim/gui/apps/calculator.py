"""Calculator (Google's, `com.google.android.calculator`): the display and both pads.

Ids, labels and descriptions follow AOSP ExactCalculator (packages/apps/ExactCalculator:
res/layout/display_two_line.xml `formula`; pad_numeric.xml `digit_0` … `digit_9`, `dec_point`
"point", `del` "delete"; pad_operator_one_col.xml `op_div` ÷, `op_mul` ×, `op_sub` −, `op_add` +,
`clr` "clear"; pad_advanced.xml `toggle_inv` "inv", `toggle_mode` "deg"/"rad", `op_pct` %,
`fun_sin`/`fun_cos`/`fun_tan` and their inverses, `fun_ln`, `fun_log`, `op_fact` !, `const_pi` π,
`const_e` e, `op_pow` ^, `lparen`, `rparen`, `op_sqrt` √; input_pad.xml `eq`; toolbar.xml's
`mode` indicator; values/strings.xml), with what B-MoCA's detectors show of Google's app: the
result line is `result_preview` while typing and `result_final` after `=` (AOSP has one
`result`), and `clr` is on the screen from the start. State (formula, shown result, DEG/RAD,
inverse) is kept in the app's default shared preferences (`DISPLAY_STATE`): `degree_mode` as
ExactCalculator's Evaluator keeps it, and taskkit's `display_formula`, `display_result`,
`display_error`, `display_inverse` standing in for the app's saved instance state (so a
restore point, which force-stops the app, brings the screen back; the real app forgets its
formula when force-stopped). No database, and no check reads them: the tasks read the screen.
Simplified: both pads always show (the app slides the advanced pad in), no history, no
copy/paste, 12 significant digits.
"""
from __future__ import annotations

from taskkit.apps.calculator import DISPLAY_STATE, PACKAGE
from taskkit.apps.calculator import formula as calc
from taskkit.device.services import shared_prefs
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
# (key id, label, content description): AOSP ExactCalculator's strings.xml
_DESC = {"dec_point": "point", "op_add": "plus", "op_sub": "minus", "op_mul": "multiply", "op_div": "divide",
         "op_pct": "percent", "op_fact": "factorial", "op_pow": "power", "op_sqrt": "square root",
         "const_pi": "pi", "const_e": "Euler's number", "lparen": "left parenthesis",
         "rparen": "right parenthesis", "fun_sin": "sine", "fun_cos": "cosine", "fun_tan": "tangent",
         "fun_ln": "natural logarithm", "fun_log": "logarithm", "fun_arcsin": "inverse sine",
         "fun_arccos": "inverse cosine", "fun_arctan": "inverse tangent"}
_ADVANCED = (("toggle_inv", "toggle_mode", "fun_sin", "fun_cos", "fun_tan"),
             ("fun_ln", "fun_log", "op_fact", "const_pi", "const_e"),
             ("op_pow", "op_sqrt", "lparen", "rparen", "op_pct"))
_NUMERIC = (("clr", "del", "op_div", "op_mul"), ("digit_7", "digit_8", "digit_9", "op_sub"),
            ("digit_4", "digit_5", "digit_6", "op_add"), ("digit_1", "digit_2", "digit_3", "eq"),
            ("dec_point", "digit_0", "", ""))
_INVERSE = {"fun_sin": "fun_arcsin", "fun_cos": "fun_arccos", "fun_tan": "fun_arctan"}


# the display's state -> its key in the app's default shared preferences
_KEYS = {"formula": "display_formula", "final": "display_result", "error": "display_error", "inv": "display_inverse"}


def _state(ui: Session) -> dict[str, str]:
    """The display's state: formula, final (the result after `=`), error, mode ("deg" or ""), inv."""
    try:
        stored = shared_prefs.parse(appdata.read_text(ui, DISPLAY_STATE) or "<map />")
    except shared_prefs.PrefsError:
        stored = {}
    state = {name: str(stored[key].value) if key in stored else "" for name, key in _KEYS.items()}
    degrees = stored.get("degree_mode")
    state["mode"] = "deg" if degrees is not None and degrees.value is True else ""
    return state


def _store(ui: Session, **changes: str) -> None:
    state = {**_state(ui), **changes}
    entries = {key: shared_prefs.Pref("string", state[name]) for name, key in _KEYS.items()}
    entries["degree_mode"] = shared_prefs.Pref("boolean", state["mode"] == "deg")
    appdata.write_text(ui, DISPLAY_STATE, shared_prefs.render(dict(sorted(entries.items()))))


def _type(key: str):
    """A key that adds its text; after `=` an operator continues from the result and anything
    else starts a new formula; after an error the formula stays, to be edited."""
    def act(ui: Session) -> None:
        state = _state(ui)
        text, final, formula = calc.KEYS[key], state["final"], state["formula"]
        if final:
            formula = final if text in calc.BINARY or text in ("!", "%") else ""
        if text in calc.BINARY and formula and formula[-1] in calc.BINARY and text != calc.MINUS:
            formula = formula[:-1]  # a second operator replaces the first
        _show(ui, formula + text)
    return act


def _show(ui: Session, formula: str, final: str = "", error: str = "") -> None:
    """Show the formula, the result after `=`, or the error it gave."""
    _store(ui, formula=formula, final=final, error=error)


def _equals(ui: Session) -> None:
    state = _state(ui)
    formula = state["formula"]
    if not formula or state["final"]:
        return
    try:
        _show(ui, formula, final=calc.result_text(calc.evaluate(formula, state["mode"] == "deg")))
    except calc.FormulaError as error:
        _show(ui, formula, error=str(error))


def _delete(ui: Session) -> None:
    state = _state(ui)
    _show(ui, "" if state["final"] else calc.delete_last(state["formula"]))


def _clear(ui: Session) -> None:
    _show(ui, "")


def _toggle(name: str, on: str):
    return lambda ui: _store(ui, **{name: "" if _state(ui)[name] == on else on})


def _key(ui: Session, state: dict[str, str], key: str, box: tuple[int, int, int, int]) -> Node:
    degrees, inverse = state["mode"] == "deg", state["inv"] == "on"
    if key == "toggle_mode":  # the key names the mode it switches to (Calculator.onModeChanged)
        label, desc = ("rad", "switch to radians") if degrees else ("deg", "switch to degrees")
        return widgets.button(ui, box, label, _toggle("mode", "deg"), ID + key, desc=desc)
    if key == "toggle_inv":
        node = widgets.button(ui, box, "inv", _toggle("inv", "on"), ID + key,
                              desc="hide inverse functions" if inverse else "show inverse functions")
        node.selected = inverse
        return node
    if key == "clr":
        return widgets.button(ui, box, "c", _clear, ID + key, desc="clear")
    if key == "del":
        node = widgets.icon_button(ui, box, "delete", _delete, ID + key)
        node.icon = "backspace"  # ic_del
        return node
    if key == "eq":
        return widgets.button(ui, box, "=", _equals, ID + key, desc="equals")
    key = _INVERSE.get(key, key) if inverse else key
    label = calc.KEYS[key][:-1] if key.startswith("fun_") else calc.KEYS[key]  # "cos(" types, "cos" shows
    return widgets.button(ui, box, label, _type(key), ID + key, desc=_DESC.get(key, ""))


def _pad(ui: Session, state: dict[str, str], rows: tuple[tuple[str, ...], ...], top: int,
         row_dp: int) -> tuple[list[Node], int]:
    m = ui.m
    nodes = []
    for r, row in enumerate(rows):
        width = m.width // len(row)
        y = top + r * m.dp(row_dp)
        for c, key in enumerate(row):
            if key:
                nodes.append(_key(ui, state, key, (c * width, y, (c + 1) * width, y + m.dp(row_dp))))
    return nodes, top + len(rows) * m.dp(row_dp)


def _main(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    top = m.status_bar
    state = _state(ui)
    formula, final, degrees = state["formula"], state["final"] or state["error"], state["mode"] == "deg"
    nodes = [widgets.text(ui, (m.dp(16), top + m.dp(8), m.dp(96), top + m.dp(32)), "deg" if degrees else "rad",
                          ID + "mode", desc="degree mode" if degrees else "radian mode", size_dp=14),
             widgets.text(ui, (m.dp(16), top + m.dp(40), m.width - m.dp(16), top + m.dp(104)), formula,
                          ID + "formula", desc="" if formula else "No formula", size_dp=40)]
    line = (m.dp(16), top + m.dp(112), m.width - m.dp(16), top + m.dp(160))
    if final:
        nodes.append(widgets.text(ui, line, final, ID + "result_final", size_dp=36))
    else:
        nodes.append(widgets.text(ui, line, calc.preview(formula, degrees), ID + "result_preview", size_dp=28))
    advanced, bottom = _pad(ui, state, _ADVANCED, top + m.dp(176), 52)
    numeric, _ = _pad(ui, state, _NUMERIC, bottom + m.dp(8), 64)
    return nodes + advanced + numeric


APP = register(AppScreens(PACKAGE, {"main": Screen(_main)}, first="main"))
