"""What a reset costs, counted, fifth pass (issue #37: cheaper resets): file bytes generated from
params (pictures of text, drawings, videos) are made once per inputs and kept; a check's
snapshot reads only the columns it uses; drawing a spec's rows works out an exclusion's operand
once per draw and copies a field named alone without jinja; and a params schema is compiled once."""
from __future__ import annotations

import io
import textwrap
from typing import Callable

import pytest
from PIL import Image, ImageDraw, ImageFont

from taskkit import params
from taskkit.apps import expense, media, pictures, simple_draw_pro
from taskkit.apps.kept import kept
from taskkit.env import Env
from taskkit.specs import templates, values
from taskkit.specs.errors import SpecRuntimeError
from taskkit.specs.values import Predicate, selector
from taskkit.task_protos import task_spec_pb2
from taskkit.validators import rows_deleted, select
from tests.device.test_sqlite import recording

_GENERATED: list[tuple[Callable[..., bytes], tuple]] = [
    (pictures.text_picture, (["Name: Lunch", "Amount: $12.50", "", "x" * 130], "jpg")),
    (pictures.text_picture, (["Shop", "Date, Item, Amount"], "png", 30)),
    (simple_draw_pro.drawing_bytes, ([((100, 300), (900, 1200))], 108, 180, "png", 44)),
    (simple_draw_pro.drawing_bytes, ([((100, 300), (900, 1200))], 108, 180, "jpg", 44, [(1, 2, 3)])),
    (simple_draw_pro.drawing_bytes, ([((1, 2),)], 10, 20, "svg", 4)),
    (media.message_video, (["edna", "pineapple"], 3)),
]


@pytest.mark.parametrize("make, args", _GENERATED)
def test_a_generated_file_is_made_once_and_is_the_bytes_made_without_keeping(make: Callable[..., bytes],
                                                                            args: tuple) -> None:
    first = make(*args)
    assert make(*[list(a) if isinstance(a, list) else a for a in args]) is first  # kept, not made again
    assert first == make.__wrapped__(*args)  # type: ignore[attr-defined]


def test_kept_results_are_keyed_by_value_and_type_and_bounded_in_bytes() -> None:
    made: list[object] = []

    @kept(limit=8)  # two results of 4 bytes
    def make(arg: object) -> bytes:
        made.append(arg)
        return b"%4d" % len(made)

    assert make([1, 2]) == make([1, 2]) == b"   1"
    make([1.0, 2]), make([True, 2])  # equal to [1, 2] in Python, yet each is made: no shared result
    make([1.0, 2])  # kept; [1, 2], the least recently used, went when the third came
    make("a")  # [True, 2] goes
    make([1.0, 2]), make([True, 2]), make([1, 2])
    assert made == [[1, 2], [1.0, 2], [True, 2], "a", [True, 2], [1, 2]]


def _drawn_in_place(lines: list[str], extension: str) -> bytes:
    """A picture of text as `text_picture` made it before its lines were kept: each drawn in place."""
    px = pictures.LINE_PX
    wrapped = [part for line in lines for part in (textwrap.wrap(line, 60) or [""])]
    image = Image.new("RGB", (pictures.WIDTH_PX, 2 * px + px * len(wrapped)), (250, 250, 246))
    pen, font = ImageDraw.Draw(image), ImageFont.load_default(size=26)
    for row, line in enumerate(wrapped):
        pen.text((px, px + px * row), line, fill=(20, 20, 20), font=font)
    out = io.BytesIO()
    image.save(out, format="PNG" if extension == "png" else "JPEG", quality=90)
    return out.getvalue()


_LINES = ["Name: Food bank donation", "Amount: $137.80", "", "ÅÉÖ gjpqy |_/\\ ñ", "W" * 90, "x" * 61,
          "e\u0301\u0301\u0301 ģ̧̇", "中文 ✓", "Note: Paid with credit card"]


@pytest.mark.parametrize("line_px", [pictures.LINE_PX, 14])  # at 14 px a line's letters reach into the next
def test_a_picture_drawn_from_kept_line_masks_is_the_picture_drawn_afresh(monkeypatch: pytest.MonkeyPatch,
                                                                          line_px: int) -> None:
    monkeypatch.setattr(pictures, "LINE_PX", line_px)
    lines = [*_LINES, f"Rendered once at {line_px} px"]
    cases = [(some, extension) for extension in ("jpg", "png") for some in (lines, lines[::-1], lines[2:5], [""], [])]
    afresh = [_drawn_in_place(some, extension) for some, extension in cases]
    rendered: list[str] = []
    render = ImageFont.FreeTypeFont.getmask2
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2",
                        lambda font, text, *args, **kwargs: rendered.append(text) or render(font, text, *args, **kwargs))
    assert [pictures.text_picture.__wrapped__(some, extension) for some, extension in cases] == afresh
    assert rendered.count(lines[-1]) == 1 and len(set(rendered)) == len(rendered)  # each line rendered once at most


# --- snapshot reads -----------------------------------------------------------------------------
TABLE = expense.EXPENSES


@pytest.fixture(scope="module")
def expenses(module_device) -> Env:
    expense.APP.reset(module_device)
    TABLE.insert(module_device, [{"name": name, "amount": amount, "category": category, "note": "a note " * 20,
                                  "created_date": 1, "modified_date": 1}
                                 for name, amount, category in [("Rent", 120000, 1), ("Milk", 250, 3), ("Gym", 250, 2),
                                                                ("Book club", 1500, 3)]])
    return Env(module_device)


def _read(env: Env, action: Callable[[], object]) -> tuple[object, list[str], int]:
    """What `action` returns, the commands it sends and the bytes it receives."""
    received = env.device.stats.bytes_received
    sent = recording(env.device)
    try:
        return action(), sent, env.device.stats.bytes_received - received
    finally:
        del env.device._shell


def _cheap(row: dict) -> bool:
    return row["amount"] < 2000 and row.get("no_such_column") is None


_cheap.fields = frozenset({"amount", "no_such_column"})  # type: ignore[attr-defined]


@pytest.mark.parametrize("function, field", [("values", "name"), ("sum", "amount"), ("count", "")])
def test_a_selection_reads_only_the_columns_its_predicate_and_field_name(expenses: Env, function: str,
                                                                         field: str) -> None:
    narrow, sent, narrow_bytes = _read(expenses, lambda: select(TABLE, _cheap, function, field).items(expenses.device))
    whole, _, whole_bytes = _read(expenses, lambda: select(TABLE, lambda r: _cheap(r), function, field).items(expenses.device))
    assert narrow == whole and narrow in (["Milk", "Gym", "Book club"], [2000], [3])
    columns = ", ".join(f'"{c}"' for c in TABLE.column_names if c in {TABLE.key, "amount", field})
    assert len(sent) == 1 and f"SELECT {columns} FROM" in sent[0] and narrow_bytes < whole_bytes / 3


def test_a_deletion_check_reads_its_targets_keys_only(expenses: Env) -> None:
    check = rows_deleted(TABLE, "category = 3")
    (snapshot, sent, _) = _read(expenses, lambda: check.snapshot(expenses))
    keys = {key for key, row in TABLE.read(expenses.device).items() if row["category"] == 3}
    assert len(keys) == 2 and snapshot.targets == {key: {TABLE.key: key} for key in keys}
    assert f'SELECT "{TABLE.key}" FROM' in sent[-1]


def test_a_spec_selector_names_every_field_its_conditions_read() -> None:
    def leaf(field: str) -> Predicate:
        return Predicate(field, "leaf", field=field, op="IS_NULL")

    where = selector([leaf("a"), Predicate("p", "any", parts=(leaf("b"), Predicate("n", "not", parts=(leaf("c"),))))], {})
    assert where.fields == {"a", "b", "c"}  # type: ignore[attr-defined]


# --- drawing a spec's params ----------------------------------------------------------------------
def test_an_expression_naming_a_variable_is_its_value_without_jinja(monkeypatch: pytest.MonkeyPatch) -> None:
    context = {"created_time": [1], "none": 2, "x": 3, "é": 4}
    by_jinja = {name: templates._expression(name)(**context) for name in ("none", "é", "x + 1", "now")}
    compiled: list[str] = []
    real = templates._expression
    monkeypatch.setattr(templates, "_expression", lambda source: compiled.append(source) or real(source))
    assert templates.evaluate("created_time", context) is context["created_time"]  # the value itself, as jinja's
    assert templates.evaluate("x", context) == 3 and compiled == []
    # a literal (`none`), a name jinja may read otherwise, an operation, a global: jinja's answers
    assert {name: templates.evaluate(name, context) for name in by_jinja} == by_jinja == {
        "none": None, "é": 4, "x + 1": 4, "now": templates.BUILTINS["now"]}
    with pytest.raises(TypeError):  # jinja refuses a variable called self: so does evaluate
        templates.evaluate("self", {"self": 1})
    assert compiled == [*by_jinja, "self"]


def _excluding(param: str) -> Predicate:
    condition = task_spec_pb2.Condition(field="title", op=task_spec_pb2.Condition.EQ, param=param, ignore_case=True)
    leaf = Predicate("exclude_if[0]", "leaf", field="title", op="EQ", message=condition, ignore_case=True, affinity="TEXT")
    return Predicate("exclude_if[0]", "not", parts=(Predicate("exclude_if[0].not", "not", parts=(leaf,)),))


def test_a_bound_condition_works_out_its_operand_once_and_answers_as_test(monkeypatch: pytest.MonkeyPatch) -> None:
    scope = {"targets": [{"title": "Renew passport"}]}
    rows = [{"title": "renew PASSPORT"}, {"title": "Walk the dog"}, {}]
    worked: list[str] = []
    real = values.coerce_operand
    monkeypatch.setattr(values, "coerce_operand", lambda *args: worked.append(args[2]) or real(*args))
    predicate = _excluding("targets.0.title")
    assert [predicate.test(row, scope) for row in rows] == [True, False, False] and len(worked) == 3
    bound = predicate.bound(scope)
    assert [bound(row) for row in rows] == [True, False, False] and len(worked) == 4
    broken = _excluding("targets.5.title").bound(scope)
    for _ in range(2):  # an operand that cannot be worked out fails each row that needs it, as test does
        with pytest.raises(SpecRuntimeError, match="index 5 is past the end"):
            broken(rows[0])


def test_a_params_schema_is_compiled_once_and_a_changed_schema_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[dict] = []
    compile_ = params._compile
    monkeypatch.setattr(params, "_compile", lambda schema: compiled.append(schema) or compile_(schema))
    monkeypatch.setattr(params, "_CHECKERS", {})
    schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}, "additionalProperties": False}
    first = {key: value for key, value in schema.items()}  # (a shallow copy: it shares "properties")
    old = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}, "additionalProperties": False}
    for n in (1, 2, 3):
        params.validate({"n": n}, schema)
    assert [c for c in compiled if "properties" in c] == [old]  # once for three values (and its one property)
    schema["properties"]["n"]["maximum"] = 2  # changed in place, as `first` sees it too
    with pytest.raises(params.ParamError, match=r"params.n: 3 is above the maximum 2"):
        params.validate({"n": 3}, first)
    params.validate({"n": 3}, old)  # the schema as it was: its checker kept, from its own copy
    with pytest.raises(params.ParamError, match=r"params: unknown field 'm'"):
        params.validate({"n": 1, "m": 1}, old)
    assert len([c for c in compiled if "properties" in c]) == 2
