"""Check kinds: how each `Check` member is validated at load time and built into a validator.

For each kind, `validate_<kind>(checker, msg, path, scope)` reports problems on the checker
(`validate.Validator`) and `compile_<kind>(build, msg, field)` returns a function of one
instance's params giving the `taskkit.validators` validator of the same name (`answer` gives
`answer_matches`); conditions become row predicates. `kinds.CHECKS` declares which functions
serve which kind.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from taskkit import apps
from taskkit.apps.common import normalize_phone
from taskkit.device import catalog
from taskkit.device.services import shared_prefs
from taskkit.specs.errors import SpecRuntimeError
from taskkit.specs.shapes import Shape
from taskkit.specs.steps import Assigns, render_field, rows_from
from taskkit.specs.tables import TableInfo
from taskkit.specs.values import PathLookupError, coerce, lookup, selector
from taskkit.validators import (
    ProviderUri, all_of, answer_equals, answer_matches, any_of, app_in_foreground, command_output_matches, duplicates_removed,
    file_absent, file_content, file_exists, folder_exists, key_components, logcat_matches, no_files_under, not_,
    permission_granted, provider_row_exists, row_exists, rows_added, rows_deleted, rows_updated, select, setting_equals,
    shared_pref_equals, ui_element_matches, weighted,
)
from taskkit.validators.answers import AnswerEquals
from taskkit.validators.detectors import SCREENS
from taskkit.validators.permissions import RUNTIME_PERMISSIONS, unknown_permission
from taskkit.validators.questions import AnswerMatches

if TYPE_CHECKING:
    from taskkit.specs.kinds import Build
    from taskkit.specs.validate import Validator as Checker

Context = Mapping[str, Any]
Scope = dict[str, Shape]
Make = Callable[[Context], Any]


@dataclasses.dataclass(frozen=True)
class Plan:
    """One compiled check: `build(context)` gives its validator for one instance's params."""

    field: str
    make: Make
    weight: float = 1.0

    def build(self, context: Context) -> Any:
        return self.make(context)


def weight_of(check: Any) -> float:
    """A `Check` message's weight inside `weighted` (default 1)."""
    return check.weight if check.HasField("weight") else 1.0


def _source(info: TableInfo | None, uri: str, projection: Sequence[str] = ()) -> Any:
    if info is not None:
        return info.table
    return ProviderUri(uri, projection=tuple(projection) or None)


def _phone(value: Any) -> Any:
    return normalize_phone(str(value)) if value is not None else value


def _phones(fields: Sequence[str]) -> dict[str, Callable[[Any], Any]]:
    """Normalizers comparing `fields` as phone numbers."""
    return {field: _phone for field in fields}


def _tolerance(checker: Checker, msg: Any, path: str, match: str) -> None:
    if not msg.HasField("tolerance"):
        return
    if match != "NUMBER":
        checker.problem(f"{path}.tolerance", f"a tolerance only applies to match: NUMBER, not {match}")
    elif msg.tolerance < 0:
        checker.problem(f"{path}.tolerance", f"must be ≥ 0, got {msg.tolerance:g}")


# ----------------------------------------------------------------------------------- combinators
def validate_checks(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    """`all`, `any`: at least one check, each valid."""
    if not len(msg.check):
        checker.problem(path, "empty: give at least one check")
    for i, inner in enumerate(msg.check):
        checker.check(inner, f"{path}.check[{i}]", scope)


def validate_weighted(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    validate_checks(checker, msg, path, scope)
    if len(msg.check) and sum(weight_of(check) for check in msg.check) <= 0:
        checker.problem(path, "the weights add up to 0")


def validate_not(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.check(msg, path, scope)


def _parts(build: Build, msg: Any, field: str) -> list[Plan]:
    return [build.compile_check(inner, f"{field}.check[{i}]") for i, inner in enumerate(msg.check)]


def compile_all(build: Build, msg: Any, field: str) -> Make:
    parts = _parts(build, msg, field)
    return lambda ctx: all_of(*[part.build(ctx) for part in parts])


def compile_any(build: Build, msg: Any, field: str) -> Make:
    parts = _parts(build, msg, field)
    return lambda ctx: any_of(*[part.build(ctx) for part in parts])


def compile_weighted(build: Build, msg: Any, field: str) -> Make:
    parts = _parts(build, msg, field)
    return lambda ctx: weighted(*[(part.build(ctx), part.weight) for part in parts])


def compile_not(build: Build, msg: Any, field: str) -> Make:
    inner = build.compile_check(msg, field)
    return lambda ctx: not_(inner.build(ctx), f"the state `{field}` checks for")


# ----------------------------------------------------------------------------------- rows
def validate_rows_added(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    info = checker.source(msg, path)
    checker.rows(msg, path, info, scope, "no expected rows: give params (rows from params) or rows (inline)")
    for name in ("compare", "fuzzy", "phone"):
        for i, column in enumerate(getattr(msg, name)):
            checker.column(column, f"{path}.{name}[{i}]", info)


def _expected_rows(info: TableInfo | None, paths: Sequence[str], inline: Sequence[Assigns], compare: Sequence[str],
                   context: Context, field: str) -> list[dict[str, Any]]:
    expected = []
    for row in rows_from(paths, inline, context, field):
        if compare:
            row = {k: v for k, v in row.items() if k in compare}
        elif info is not None:
            row = {k: v for k, v in row.items() if k in info.columns}
        if info is not None:
            row = {k: coerce(v, info.columns[k].affinity) if k in info.columns else v for k, v in row.items()}
        expected.append(row)
    return expected


def compile_rows_added(build: Build, msg: Any, field: str) -> Make:
    info = build.table(field)
    inline = tuple(Assigns(f"{field}.rows[{i}].set", tuple(row.set), info) for i, row in enumerate(msg.rows))
    paths, compare, fuzzy, phone, uri = tuple(msg.params), tuple(msg.compare), tuple(msg.fuzzy), tuple(msg.phone), msg.uri

    def make(ctx: Context) -> Any:
        expected = _expected_rows(info, paths, inline, compare, ctx, field)
        projection = sorted({k for row in expected for k in row}) if info is None else ()
        return rows_added(_source(info, uri, projection), expected, fuzzy=fuzzy, normalize=_phones(phone))
    return make


def validate_selection(checker: Checker, msg: Any, path: str, scope: Scope) -> TableInfo | None:
    """`rows_deleted`, `row_exists` (and the start of `rows_updated`): a source and its `where`."""
    info = checker.source(msg, path)
    checker.conditions(msg.where, f"{path}.where", info, scope, "required: the conditions picking the rows")
    return info


def validate_rows_updated(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    info = validate_selection(checker, msg, path, scope)
    checker.assigns(msg.set, f"{path}.set", info, scope, "required: the values the rows must hold")
    for i, column in enumerate(msg.fuzzy):
        checker.column(column, f"{path}.fuzzy[{i}]", info)


def _where(build: Build, msg: Any, field: str) -> tuple[Any, Any]:
    """The source of a `where` check and a function of the params giving its row predicate."""
    info = build.table(field)
    where = build.predicates(msg.where, f"{field}.where", info)
    return _source(info, msg.uri), lambda ctx: selector(where, ctx)


def compile_rows_deleted(build: Build, msg: Any, field: str) -> Make:
    source, chosen = _where(build, msg, field)
    return lambda ctx: rows_deleted(source, chosen(ctx))


def compile_rows_updated(build: Build, msg: Any, field: str) -> Make:
    source, chosen = _where(build, msg, field)
    changes, fuzzy = Assigns(f"{field}.set", tuple(msg.set), build.table(field)), tuple(msg.fuzzy)
    return lambda ctx: rows_updated(source, chosen(ctx), changes.values(ctx), fuzzy=fuzzy)


def compile_row_exists(build: Build, msg: Any, field: str) -> Make:
    source, chosen = _where(build, msg, field)
    return lambda ctx: row_exists(source, chosen(ctx))


def validate_provider_row_exists(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.provider_uri(msg.uri, f"{path}.uri")
    checker.assigns(msg.set, f"{path}.set", None, scope, "required: the values the row must hold")
    columns = [assign.column for assign in msg.set]
    for name in ("fuzzy", "phone"):
        for i, column in enumerate(getattr(msg, name)):
            if column not in columns:
                checker.problem(f"{path}.{name}[{i}]", f"{column!r} is not a column given by `set` ({', '.join(columns)})")


def compile_provider_row_exists(build: Build, msg: Any, field: str) -> Make:
    values, uri, fuzzy, phone = Assigns(f"{field}.set", tuple(msg.set), None), msg.uri, tuple(msg.fuzzy), tuple(msg.phone)
    return lambda ctx: provider_row_exists(uri, values.values(ctx), fuzzy=fuzzy, normalize=_phones(phone))


def validate_duplicates_removed(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    info = checker.table(msg, path)
    if not len(msg.fields):
        checker.problem(f"{path}.fields", "required: the columns that make rows duplicates")
    for i, column in enumerate(msg.fields):
        checker.column(column, f"{path}.fields[{i}]", info)


def compile_duplicates_removed(build: Build, msg: Any, field: str) -> Make:
    source, fields = _source(build.table(field), ""), tuple(msg.fields)
    return lambda ctx: duplicates_removed(source, fields)


# ----------------------------------------------------------------------------------- files, settings
def validate_file(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.required_template(msg.path, f"{path}.path", scope)


def validate_file_content(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    validate_file(checker, msg, path, scope)
    checker.template(msg.content, f"{path}.content", scope)


def _compile_path_check(factory: Callable[[str], Any]) -> Callable[[Build, Any, str], Make]:
    """The compiler of a check kind whose only field is a `path` template."""
    def compile_check(build: Build, msg: Any, field: str) -> Make:
        path = msg.path
        return lambda ctx: factory(render_field(path, ctx, f"{field}.path"))
    return compile_check


compile_file_exists = _compile_path_check(file_exists)
compile_file_absent = _compile_path_check(file_absent)
compile_folder_exists = _compile_path_check(folder_exists)
compile_no_files_under = _compile_path_check(no_files_under)


def validate_app_in_foreground(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.required_template(msg.app, f"{path}.app", scope)
    if "{" not in msg.app:
        try:
            apps.get(msg.app)
        except KeyError as error:
            checker.problem(f"{path}.app", error.args[0])


def compile_app_in_foreground(build: Build, msg: Any, field: str) -> Make:
    app = msg.app
    return lambda ctx: app_in_foreground(render_field(app, ctx, f"{field}.app"))


def compile_file_content(build: Build, msg: Any, field: str) -> Make:
    path, content, fuzzy = msg.path, msg.content, msg.fuzzy
    return lambda ctx: file_content(render_field(path, ctx, f"{field}.path"), render_field(content, ctx, f"{field}.content"),
                                    fuzzy=fuzzy)


def validate_setting_equals(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.setting(msg, path)
    if not len(msg.values) and not msg.unset:
        checker.problem(f"{path}.values", "required: the accepted value(s) (or unset: true)")
    for i, value in enumerate(msg.values):
        checker.template(value, f"{path}.values[{i}]", scope)


def compile_setting_equals(build: Build, msg: Any, field: str) -> Make:
    namespace, key, values, unset = msg.namespace, msg.key, tuple(msg.values), msg.unset

    def make(ctx: Context) -> Any:
        rendered: list[Any] = [render_field(v, ctx, f"{field}.values[{i}]") for i, v in enumerate(values)]
        return setting_equals(namespace, key, rendered + ([None] if unset else []))
    return make


# --------------------------------------------------------------------------------- detectors
_SELECTOR_FIELDS = ("resource_id", "text", "content_desc", "class_name")
_ATTRIBUTE_FIELDS = ("checked", "selected", "enabled", "focused")


def _literal(checker: Checker, value: str, path: str, what: str) -> None:
    """A command or a pattern is the author's text: a template here is refused."""
    if "{{" in value or "{%" in value:
        checker.problem(path, f"a {what} is literal text, not a template (a param must never become a {what})")


def _regex(checker: Checker, value: str, path: str) -> None:
    _literal(checker, value, path, "pattern")
    try:
        re.compile(value)
    except re.error as error:
        checker.problem(path, f"not a regular expression: {error}")


def validate_command_output_matches(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    if not msg.command.strip():
        checker.problem(f"{path}.command", "required: the shell command whose output is matched")
    _literal(checker, msg.command, f"{path}.command", "command")
    if not msg.pattern:
        checker.problem(f"{path}.pattern", "required: the regular expression the output must match")
    _regex(checker, msg.pattern, f"{path}.pattern")


def compile_command_output_matches(build: Build, msg: Any, field: str) -> Make:
    command, pattern = msg.command, msg.pattern
    return lambda ctx: command_output_matches(command, pattern)


def validate_ui_element_matches(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    selector = [name for name in _SELECTOR_FIELDS if getattr(msg, name)]
    if not selector:
        checker.problem(path, f"required: a selector ({', '.join(_SELECTOR_FIELDS)})")
    for name in selector:
        _regex(checker, getattr(msg, name), f"{path}.{name}")
    if not any(msg.HasField(name) for name in _ATTRIBUTE_FIELDS):
        checker.problem(path, f"required: an attribute to check ({', '.join(_ATTRIBUTE_FIELDS)})")


def compile_ui_element_matches(build: Build, msg: Any, field: str) -> Make:
    selector = {name: getattr(msg, name) for name in _SELECTOR_FIELDS if getattr(msg, name)}
    attributes = {name: getattr(msg, name) for name in _ATTRIBUTE_FIELDS if msg.HasField(name)}
    return lambda ctx: ui_element_matches(selector, **attributes)


def validate_key_components(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    if not len(msg.items):
        checker.problem(f"{path}.items", "required: the texts the screen must show")
    for i, item in enumerate(msg.items):
        checker.required_template(item, f"{path}.items[{i}]", scope)
    if msg.screens and msg.screens not in SCREENS:
        checker.problem(f"{path}.screens", f"one of {', '.join(map(repr, SCREENS))} (default 'episode'), "
                                           f"got {msg.screens!r}")


def compile_key_components(build: Build, msg: Any, field: str) -> Make:
    items, ocr, screens = tuple(msg.items), msg.ocr, msg.screens or SCREENS[0]
    return lambda ctx: key_components((render_field(item, ctx, f"{field}.items[{i}]") for i, item in enumerate(items)),
                                      ocr, screens)


def validate_logcat_matches(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    _literal(checker, msg.tag, f"{path}.tag", "tag")
    try:
        logcat_matches(msg.tag, "", msg.level or None)  # the tag and level as the validator reads them
    except ValueError as error:
        checker.problem(f"{path}.level" if "level" in str(error) else f"{path}.tag", str(error))
    if not msg.pattern:
        checker.problem(f"{path}.pattern", "required: the regular expression the line's message must match")
    _regex(checker, msg.pattern, f"{path}.pattern")


def compile_logcat_matches(build: Build, msg: Any, field: str) -> Make:
    tag, pattern, level = msg.tag, msg.pattern, msg.level or None
    return lambda ctx: logcat_matches(tag, pattern, level)


_PREF_TYPES: dict[str, type] = {"STRING": str, "INT": int, "FLOAT": float}


def validate_shared_pref_equals(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    for name in ("package", "file", "key"):
        if not getattr(msg, name).strip():
            checker.problem(f"{path}.{name}", f"required: the preference's {name}")
        _literal(checker, getattr(msg, name), f"{path}.{name}", name)
    try:
        if msg.file:
            shared_prefs.path(msg.package or "p", msg.file)
    except ValueError as error:
        checker.problem(f"{path}.file", f"{error} (the file's name under shared_prefs/, `.xml` optional)")
    kind = msg.Type.Name(msg.type)
    if kind == "SET":
        if msg.value:
            checker.problem(f"{path}.value", "a SET preference lists its strings in `items`")
        for i, item in enumerate(msg.items):
            checker.template(item, f"{path}.items[{i}]", scope)
        return
    if len(msg.items):
        checker.problem(f"{path}.items", "only a SET preference has items")
    checker.required_template(msg.value, f"{path}.value", scope)
    if "{{" not in msg.value and "{%" not in msg.value and msg.value:
        try:
            pref_value(kind, msg.value, [])
        except ValueError as error:
            checker.problem(f"{path}.value", str(error))


def pref_value(kind: str, value: str, items: Sequence[str]) -> Any:
    """A `SharedPrefEquals` value, rendered, as the Python value of its `type`."""
    if kind == "SET":
        return frozenset(items)
    if kind == "BOOLEAN":
        if value not in ("true", "false"):
            raise ValueError(f"a BOOLEAN preference is true or false, not {value!r}")
        return value == "true"
    try:
        return _PREF_TYPES[kind](value)
    except ValueError:
        raise ValueError(f"not {'an' if kind == 'INT' else 'a'} {kind}: {value!r}") from None


def compile_shared_pref_equals(build: Build, msg: Any, field: str) -> Make:
    package, file, key, value, items = msg.package, msg.file, msg.key, msg.value, tuple(msg.items)
    kind = msg.Type.Name(msg.type)

    def make(ctx: Context) -> Any:
        rendered = [render_field(item, ctx, f"{field}.items[{i}]") for i, item in enumerate(items)]
        text = render_field(value, ctx, f"{field}.value")
        try:
            expected = pref_value(kind, text, rendered)
        except ValueError as error:
            raise SpecRuntimeError(f"{field}.value", str(error)) from None
        return shared_pref_equals(package, file, key, expected)
    return make


def _installed_packages() -> list[str]:
    """The packages a check may name: the device image's (`pm list packages`) and those of registered app models."""
    return sorted({package.name for package in catalog.installed()} | {app.package for app in apps.all_apps()})


def validate_permission_granted(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    installed = _installed_packages()
    if not msg.package.strip():
        checker.problem(f"{path}.package", "required: the package that holds the permission, e.g. com.dimowner.audiorecorder")
    elif msg.package not in installed:
        close = difflib.get_close_matches(msg.package, installed, n=3)
        hint = f"did you mean {', '.join(close)}?" if close else "the device's packages: `adb shell pm list packages`"
        checker.problem(f"{path}.package", f"{msg.package!r} is not installed on the device ({hint}); "
                                           "an app of your own registers its package with taskkit.apps.register")
    if not msg.permission.strip():
        checker.problem(f"{path}.permission", "required: the runtime permission, e.g. android.permission.RECORD_AUDIO")
    elif msg.permission not in RUNTIME_PERMISSIONS:
        checker.problem(f"{path}.permission", unknown_permission(msg.permission))


def compile_permission_granted(build: Build, msg: Any, field: str) -> Make:
    package, name = msg.package, msg.permission
    one_time = msg.one_time if msg.HasField("one_time") else None
    return lambda ctx: permission_granted(package, name, one_time)


# ----------------------------------------------------------------------------------- answers
def validate_answer(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.model.answer_checks.append(path)
    match = msg.Match.Name(msg.match)
    sources = [name for name, present in (("expected", len(msg.expected) > 0), ("expected_param", bool(msg.expected_param)),
                                          ("select", msg.HasField("select"))) if present]
    if len(sources) != 1:
        checker.problem(path, "give exactly one of expected (templates), expected_param (a param path) or select (rows)")
    _tolerance(checker, msg, path, match)
    if msg.time_unit and match not in ("DATE", "TIME", "DATETIME"):
        checker.problem(f"{path}.time_unit", f"time_unit only applies to DATE, TIME and DATETIME matches, not {match}")
    for i, template in enumerate(msg.expected):
        checker.template(template, f"{path}.expected[{i}]", scope)
    if msg.expected_param:
        checker.path_in(msg.expected_param, f"{path}.expected_param", scope)
    if msg.HasField("select"):
        _validate_select(checker, msg.select, f"{path}.select", scope, match, path)


def _validate_select(checker: Checker, select_msg: Any, spath: str, scope: Scope, match: str, path: str) -> None:
    info = checker.table(select_msg, spath)
    for i, condition in enumerate(select_msg.where):
        checker.condition(condition, f"{spath}.where[{i}]", info, scope)
    function = select_msg.Function.Name(select_msg.function)
    if function == "FUNCTION_UNSPECIFIED":
        checker.problem(f"{spath}.function", "required: COUNT, SUM, IDENTITY, MIN or MAX")
    elif function == "COUNT":
        if select_msg.field:
            checker.problem(f"{spath}.field", "COUNT takes no field")
    else:
        affinity = checker.column(select_msg.field, f"{spath}.field", info)
        if function == "SUM" and affinity == "TEXT":
            checker.problem(f"{spath}.field", f"SUM needs a numeric column; {select_msg.field} is TEXT")
    if function in ("COUNT", "SUM") and match != "NUMBER":
        checker.problem(f"{path}.match", f"{function} gives a number: use match: NUMBER")
    if select_msg.HasField("scale") and function == "COUNT":
        checker.problem(f"{spath}.scale", "COUNT is not scaled")


def _fixed_items(field: str, texts: Sequence[str], param: str, context: Context) -> list[Any]:
    """The expected items given by templates (one each) or a param path (a value or a list)."""
    if texts:
        return [render_field(t, context, f"{field}.expected[{i}]") for i, t in enumerate(texts)]
    try:
        value = lookup(context, param)
    except PathLookupError as error:
        raise SpecRuntimeError(f"{field}.expected_param", f"{param}: {error}") from None
    return list(value) if isinstance(value, list) else [value]


def _select(build: Build, msg: Any, field: str) -> Callable[[Context], Any]:
    """A function of the params giving the `select(...)` of an answer's `select` message."""
    spath = f"{field}.select"
    info = build.table(spath)
    where = build.predicates(msg.where, f"{spath}.where", info)
    function = "values" if msg.function == msg.IDENTITY else msg.Function.Name(msg.function).lower()
    column, scale = msg.field, msg.scale if msg.HasField("scale") else None
    return lambda ctx: select(info.table, selector(where, ctx), function, column, scale)


def compile_answer(build: Build, msg: Any, field: str) -> Make:
    match, millis = msg.Match.Name(msg.match).lower(), msg.time_unit == msg.MILLIS
    tolerance = msg.tolerance if msg.HasField("tolerance") else 0.0
    if msg.HasField("select"):
        expected = _select(build, msg.select, field)
    else:
        texts, param = tuple(msg.expected), msg.expected_param
        expected = lambda ctx: _fixed_items(field, texts, param, ctx)  # noqa: E731
    return lambda ctx: answer_matches(expected(ctx), match=match, tolerance=tolerance, millis=millis, label=field)


def validate_answer_equals(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.model.answer_checks.append(path)
    checker.required_template(msg.expected, f"{path}.expected", scope)
    _tolerance(checker, msg, path, msg.Match.Name(msg.match))


def compile_answer_equals(build: Build, msg: Any, field: str) -> Make:
    text, number = msg.expected, msg.match == msg.NUMBER
    tolerance = msg.tolerance if msg.HasField("tolerance") else 0.0

    def make(ctx: Context) -> Any:
        expected = render_field(text, ctx, f"{field}.expected").strip()
        if number:
            try:
                float(expected)
            except ValueError:
                raise SpecRuntimeError(f"{field}.expected", f"{expected!r} is not a number (match: NUMBER)") from None
        return answer_equals(expected, kind="number" if number else "string", tolerance=tolerance)
    return make


def find_answers(validator: Any) -> list[Any]:
    """The answer checks inside a built validator tree, in order (for the oracle's answer step)."""
    if isinstance(validator, (AnswerMatches, AnswerEquals)):
        return [validator]
    found: list[Any] = []
    for part, _ in getattr(validator, "parts", ()) or ():
        found += find_answers(part)
    inner = getattr(validator, "part", None)
    if inner is not None:
        found += find_answers(inner)
    return found


def answer_text(validator: AnswerMatches | AnswerEquals) -> str:
    """The answer an answer check expects, as the oracle submits it."""
    return validator.expected if isinstance(validator, AnswerEquals) else validator.expected_answer()
