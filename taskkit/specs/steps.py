"""Step kinds: how each `Step` member is validated at load time and run: a plan with `run(env, run)`.

For each kind, `validate_<kind>(checker, msg, path, scope)` reports problems on the checker
(`validate.Validator`) and `compile_<kind>(build, msg, field)` builds the plan once per spec;
`run` executes it against one task instance's params on a device. Every value that reaches a
shell goes through `shell_quote` and every value that reaches SQL through `sql_literal`.
`kinds.STEPS` declares which functions serve which kind; `for_each` wraps any plan in `ForEach`.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence


from taskkit.env import TaskEnv
from taskkit.specs import templates
from taskkit.specs.errors import SpecRuntimeError
from taskkit.specs.shapes import Shape
from taskkit.specs.tables import TableInfo
from taskkit.specs.values import PathLookupError, Predicate, all_match, coerce, lookup, operand

if TYPE_CHECKING:
    from taskkit.specs.kinds import Build
    from taskkit.specs.validate import Validator as Checker

Context = Mapping[str, Any]
Scope = dict[str, Shape]


@dataclasses.dataclass
class Run:
    """What a step sees: the params, and (for the oracle's answer) the expected answer."""

    params: Context
    expected_answer: Callable[[], str]


def render_field(source: str, context: Context, field: str, *, shell: bool = False) -> str:
    try:
        return templates.render(source, dict(context), shell=shell)
    except Exception as error:
        raise SpecRuntimeError(field, f"{type(error).__name__}: {error}") from None


@dataclasses.dataclass(frozen=True)
class Assigns:
    """Column values (Assign messages) resolved against the params."""

    field: str
    items: tuple[Any, ...]
    info: TableInfo | None

    def values(self, context: Context) -> dict[str, Any]:
        out = {}
        for i, item in enumerate(self.items):
            value = operand(item, context, f"{self.field}[{i}]")
            column = self.info.column(item.column) if self.info else None
            out[item.column] = coerce(value, column.affinity if column else "")
        return out


def rows_from(paths: Sequence[str], inline: Sequence[Assigns], context: Context, field: str) -> list[dict[str, Any]]:
    """The rows named by param paths (each a row or a list of rows), then the inline rows."""
    rows: list[dict[str, Any]] = []
    for i, path in enumerate(paths):
        try:
            value = lookup(context, path)
        except PathLookupError as error:
            raise SpecRuntimeError(f"{field}.params[{i}]", f"{path}: {error}") from None
        for row in value if isinstance(value, list) else [value]:
            if not isinstance(row, Mapping):
                raise SpecRuntimeError(f"{field}.params[{i}]", f"{path} holds {type(row).__name__}, not rows")
            rows.append(dict(row))
    rows += [assigns.values(context) for assigns in inline]
    return rows


@dataclasses.dataclass(frozen=True)
class InsertRows:
    field: str
    info: TableInfo
    params: tuple[str, ...]
    rows: tuple[Assigns, ...]
    overrides: Assigns

    def rows_for(self, context: Context) -> list[dict[str, Any]]:
        extra = self.overrides.values(context)
        return [self.info.fill({**row, **extra}) for row in rows_from(self.params, self.rows, context, self.field)]

    def run(self, env: TaskEnv, run: Run) -> None:
        self.info.table.insert(env.device, self.rows_for(run.params))
        self.info.app.force_stop(env.device)


def _keys(env: TaskEnv, info: TableInfo, where: Sequence[Predicate], context: Context) -> list[Any]:
    """Keys of the rows matching every condition (one query)."""
    rows = info.table.rows(env.device)
    return [row[info.table.key] for row in rows if all_match(where, row, context)]


@dataclasses.dataclass(frozen=True)
class DeleteRows:
    field: str
    info: TableInfo
    where: tuple[Predicate, ...]

    def run(self, env: TaskEnv, run: Run) -> None:
        keys = _keys(env, self.info, self.where, run.params)
        if keys:
            self.info.table.delete(env.device, self.info.table.keys_in(keys))
        self.info.app.force_stop(env.device)


@dataclasses.dataclass(frozen=True)
class UpdateRows:
    field: str
    info: TableInfo
    where: tuple[Predicate, ...]
    changes: Assigns

    def run(self, env: TaskEnv, run: Run) -> None:
        keys = _keys(env, self.info, self.where, run.params)
        if keys:
            self.info.table.update(env.device, self.info.table.keys_in(keys), self.changes.values(run.params))
        self.info.app.force_stop(env.device)


@dataclasses.dataclass(frozen=True)
class WriteFile:
    field: str
    path: str
    content: str

    def run(self, env: TaskEnv, run: Run) -> None:
        path = render_field(self.path, run.params, f"{self.field}.path")
        env.device.files.write_text(path, render_field(self.content, run.params, f"{self.field}.content"))


@dataclasses.dataclass(frozen=True)
class RemoveFile:
    field: str
    path: str
    recursive: bool

    def run(self, env: TaskEnv, run: Run) -> None:
        env.device.files.remove(render_field(self.path, run.params, f"{self.field}.path"), recursive=self.recursive)


@dataclasses.dataclass(frozen=True)
class SetSetting:
    field: str
    namespace: str
    key: str
    value: str
    delete: bool

    def run(self, env: TaskEnv, run: Run) -> None:
        if self.delete:
            env.device.settings.delete(self.namespace, self.key)
        else:
            env.device.settings.put(self.namespace, self.key, render_field(self.value, run.params, f"{self.field}.value"))


@dataclasses.dataclass(frozen=True)
class ClearApp:
    field: str
    app: Any
    pm_clear: bool

    def run(self, env: TaskEnv, run: Run) -> None:
        self.app.force_stop(env.device)
        if self.pm_clear:
            env.device.packages.clear(self.app.package)
        else:
            self.app.reset(env.device)


@dataclasses.dataclass(frozen=True)
class Shell:
    """A command whose every interpolated value is one shell-quoted word."""

    field: str
    command: str
    allow_failure: bool

    def render(self, context: Context) -> str:
        return render_field(self.command, context, f"{self.field}.command", shell=True)

    def run(self, env: TaskEnv, run: Run) -> None:
        command = self.render(run.params)
        if self.allow_failure:
            env.device.shell(command)
        else:
            env.device.check(command)


@dataclasses.dataclass(frozen=True)
class ProviderInsert:
    field: str
    uri: str
    values: Assigns

    def run(self, env: TaskEnv, run: Run) -> None:
        env.device.content.insert(self.uri, self.values.values(run.params))


@dataclasses.dataclass(frozen=True)
class Answer:
    field: str
    text: str

    def run(self, env: TaskEnv, run: Run) -> None:
        text = render_field(self.text, run.params, f"{self.field}.text") if self.text else run.expected_answer()
        env.submit_answer(text)


@dataclasses.dataclass(frozen=True)
class ForEach:
    """Run `plan` once per item of the list at `path`, with `item` and `index` in scope."""

    field: str
    path: str
    plan: Any

    def run(self, env: TaskEnv, run: Run) -> None:
        try:
            items = lookup(run.params, self.path)
        except PathLookupError as error:
            raise SpecRuntimeError(f"{self.field}.for_each", f"{self.path}: {error}") from None
        for index, item in enumerate(items if isinstance(items, list) else [items]):
            self.plan.run(env, Run({**run.params, "item": item, "index": index}, run.expected_answer))


# ----------------------------------------------------------------------------------- the kinds
def validate_insert_rows(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    info = checker.table(msg, path)
    checker.rows(msg, path, info, scope, "nothing to insert: give params (rows from params) or rows (inline)")
    checker.assigns(msg.set, f"{path}.set", info, scope)


def compile_insert_rows(build: Build, msg: Any, field: str) -> InsertRows:
    info = build.table(field)
    inline = tuple(Assigns(f"{field}.rows[{i}].set", tuple(row.set), info) for i, row in enumerate(msg.rows))
    return InsertRows(field, info, tuple(msg.params), inline, Assigns(f"{field}.set", tuple(msg.set), info))


def validate_selection(checker: Checker, msg: Any, path: str, scope: Scope) -> TableInfo | None:
    """`delete_rows` (and the start of `update_rows`): a table and its non-empty `where`."""
    info = checker.table(msg, path)
    checker.conditions(msg.where, f"{path}.where", info, scope,
                       "required: the conditions picking the rows (use clear_app to empty an app)")
    return info


def validate_update_rows(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    info = validate_selection(checker, msg, path, scope)
    checker.assigns(msg.set, f"{path}.set", info, scope, "required: the columns to change")


def compile_delete_rows(build: Build, msg: Any, field: str) -> DeleteRows:
    info = build.table(field)
    return DeleteRows(field, info, build.predicates(msg.where, f"{field}.where", info))


def compile_update_rows(build: Build, msg: Any, field: str) -> UpdateRows:
    info = build.table(field)
    return UpdateRows(field, info, build.predicates(msg.where, f"{field}.where", info),
                      Assigns(f"{field}.set", tuple(msg.set), info))


def validate_write_file(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.required_template(msg.path, f"{path}.path", scope)
    checker.template(msg.content, f"{path}.content", scope)


def compile_write_file(build: Build, msg: Any, field: str) -> WriteFile:
    return WriteFile(field, msg.path, msg.content)


def validate_remove_file(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.required_template(msg.path, f"{path}.path", scope)


def compile_remove_file(build: Build, msg: Any, field: str) -> RemoveFile:
    return RemoveFile(field, msg.path, msg.recursive)


def validate_set_setting(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.setting(msg, path)
    if msg.delete and msg.value:
        checker.problem(f"{path}.value", "`delete: true` takes no value")
    elif not msg.delete:
        checker.template(msg.value, f"{path}.value", scope)


def compile_set_setting(build: Build, msg: Any, field: str) -> SetSetting:
    return SetSetting(field, msg.namespace, msg.key, msg.value, msg.delete)


def validate_clear_app(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.app_name(msg.app, f"{path}.app")


def compile_clear_app(build: Build, msg: Any, field: str) -> ClearApp:
    return ClearApp(field, build.app(msg.app), msg.pm_clear)


def validate_shell(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.required_template(msg.command, f"{path}.command", scope)


def compile_shell(build: Build, msg: Any, field: str) -> Shell:
    return Shell(field, msg.command, msg.allow_failure)


def validate_provider_insert(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    checker.provider_uri(msg.uri, f"{path}.uri")
    checker.assigns(msg.set, f"{path}.set", None, scope, "required: the columns to insert")


def compile_provider_insert(build: Build, msg: Any, field: str) -> ProviderInsert:
    return ProviderInsert(field, msg.uri, Assigns(f"{field}.set", tuple(msg.set), None))


def validate_answer(checker: Checker, msg: Any, path: str, scope: Scope) -> None:
    if checker.section != "oracle":
        checker.problem(path, "an answer step belongs in the oracle only")
    if msg.text:
        checker.template(msg.text, f"{path}.text", scope)
    elif not checker.model.answer_checks:
        checker.problem(path, "an empty answer submits the success check's expected answer, but the success "
                              "check has no answer check; give `text`")


def compile_answer(build: Build, msg: Any, field: str) -> Answer:
    return Answer(field, msg.text)
