"""Every kind of spec check and step, declared once: the registry the whole spec pipeline reads.

Each member of the `Check.kind` and `Step.kind` oneofs of task_protos/task_spec.proto is one
`Kind` below: its oneof field name, its load-time validation, its compilation, a one-line doc
and an example. The spec validator (`validate.py`) and the compiler (`compiler.py`) dispatch
through `CHECKS` and `STEPS`; the reference tables of docs/authoring-specs.md are generated
from them (`reference.py`); tests/specs/test_kinds.py checks them against the proto, the
`taskkit.validators` package (each check kind builds the validator named in `python`, and
every validator has a kind) and the near-miss rules of `taskkit.testing`.

* `validate(checker, msg, path, scope)` reports problems at field paths on `checker` (a
  `validate.Validator`, which offers the shared checks: tables, columns, conditions, templates).
* `compile(build, msg, field)` runs once per spec. For a check it returns a function of one
  instance's params that gives the validator; for a step, a plan with `field` and
  `run(env, run)`. `build` (the spec's `compiler.SpecPlan`) resolves tables, conditions and
  nested checks.

Adding a kind: the message and oneof member in the proto (then `protoc --python_out=.
task_protos/task_spec.proto`), `validate_*`/`compile_*` in checks.py or steps.py, one `Kind`
here, and `python -m taskkit.specs.reference docs/authoring-specs.md` to refresh the docs. A new
check validator also needs near-miss rules (`taskkit.testing.mutations.derive.register`).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence

from taskkit import validators
from taskkit.specs import checks, steps
from taskkit.specs.tables import TableInfo
from taskkit.specs.values import Predicate
from taskkit.task_protos import task_spec_pb2

__all__ = ["Build", "CHECKS", "Kind", "Kinds", "STEPS"]


class Build(Protocol):
    """What compile functions get: the spec being compiled (see `compiler.SpecPlan`)."""

    def table(self, field: str) -> TableInfo | None:
        """The table that validation resolved for the message at `field`."""

    def predicates(self, conditions: Sequence[Any], field: str, info: TableInfo | None) -> tuple[Predicate, ...]:
        """Compiled `Condition` messages (`field` is the list's path)."""

    def compile_check(self, message: Any, field: str) -> checks.Plan:
        """A nested `Check` message, compiled."""

    def app(self, name: str) -> Any:
        """The app model called `name`."""


@dataclasses.dataclass(frozen=True)
class Kind:
    """One member of a `kind` oneof and everything that handles it."""

    field: str  # the oneof member's name, e.g. "rows_added"
    validate: Callable[[Any, Any, str, Any], None]
    compile: Callable[[Build, Any, str], Any]
    doc: str  # one line: what the check passes on, or what the step does
    example: str  # text format of the member, e.g. 'rows_added { table: "expense" params: "expense" }'
    python: Callable[..., Any] | None = None  # check kinds: the taskkit.validators function they build


class Kinds(Mapping[str, Kind]):
    """The kinds of one `kind` oneof (of `message`, a generated proto class), by field name."""

    def __init__(self, message: Any, noun: str, kinds: Sequence[Kind]):
        self.message, self.noun = message, noun
        self._kinds = {kind.field: kind for kind in kinds}
        if len(self._kinds) != len(kinds):
            raise ValueError(f"a {noun} kind is declared twice")

    def __getitem__(self, field: str) -> Kind:
        return self._kinds[field]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)

    def oneof_fields(self) -> list[str]:
        """The members of the proto's `kind` oneof, in the schema's order."""
        return [field.name for field in self.message.DESCRIPTOR.oneofs_by_name["kind"].fields]

    def synopsis(self, field: str) -> str:
        """`name { its fields }`, from the schema."""
        member = self.message.DESCRIPTOR.fields_by_name[field]
        if member.message_type is None:
            return field
        if member.message_type is self.message.DESCRIPTOR:
            return f"{field} {{ <a {self.noun}> }}"
        inner = " ".join(f.name for f in member.message_type.fields)
        return f"{field} {{ {inner} }}" if inner else f"{field} {{ }}"


CHECKS = Kinds(task_spec_pb2.Check, "check", [
    Kind("rows_added", checks.validate_rows_added, checks.compile_rows_added,
         "exactly these rows were added (compared on the fields they give, or `compare`; `fuzzy` text, `phone` "
         "numbers) and no other row changed",
         'rows_added { table: "expense" params: "expense" fuzzy: "name" }', validators.rows_added),
    Kind("rows_deleted", checks.validate_selection, checks.compile_rows_deleted,
         "the rows matching `where` right after setup are gone; nothing else changed",
         'rows_deleted { table: "expense" where { field: "name" op: IN param: "targets.name" } }',
         validators.rows_deleted),
    Kind("rows_updated", checks.validate_rows_updated, checks.compile_rows_updated,
         "the rows matching `where` right after setup now hold `set`; nothing else changed",
         'rows_updated { table: "expense" where { field: "name" op: EQ param: "old_name" } '
         'set { column: "name" param: "new_name" } }', validators.rows_updated),
    Kind("row_exists", checks.validate_selection, checks.compile_row_exists,
         "some row matches `where` at check time",
         'row_exists { uri: "content://sms/sent" where { field: "address" op: PHONE_EQ param: "number" } }',
         validators.row_exists),
    Kind("provider_row_exists", checks.validate_provider_row_exists, checks.compile_provider_row_exists,
         "some row of the content provider `uri` holds the values in `set` at check time",
         'provider_row_exists { uri: "content://sms/sent" set { column: "address" param: "number" } '
         'set { column: "body" param: "message" } fuzzy: "body" phone: "address" }', validators.provider_row_exists),
    Kind("duplicates_removed", checks.validate_duplicates_removed, checks.compile_duplicates_removed,
         "of each group of rows equal on `fields`, exactly one remains; nothing else changed",
         'duplicates_removed { table: "expense" fields: ["name", "amount"] }', validators.duplicates_removed),
    Kind("file_exists", checks.validate_file, checks.compile_file_exists,
         "the file is there",
         'file_exists { path: "/sdcard/Documents/Markor/{{ file_name }}" }', validators.file_exists),
    Kind("file_absent", checks.validate_file, checks.compile_file_absent,
         "the file (or directory) is gone",
         'file_absent { path: "/sdcard/Documents/Markor/{{ file_name }}" }', validators.file_absent),
    Kind("folder_exists", checks.validate_file, checks.compile_folder_exists,
         "the folder is there",
         'folder_exists { path: "/sdcard/Documents/Markor/{{ folder }}" }', validators.folder_exists),
    Kind("no_files_under", checks.validate_file, checks.compile_no_files_under,
         "no file is left anywhere under the folder (an absent folder has none)",
         'no_files_under { path: "/sdcard/Documents/Markor" }', validators.no_files_under),
    Kind("file_content", checks.validate_file_content, checks.compile_file_content,
         "the file holds `content` (exactly, ignoring surrounding white space, or `fuzzy`)",
         'file_content { path: "/sdcard/Documents/Markor/{{ file_name }}" content: "{{ text }}" fuzzy: true }',
         validators.file_content),
    Kind("setting_equals", checks.validate_setting_equals, checks.compile_setting_equals,
         "the setting holds one of `values` (with `unset: true`, a missing key passes too)",
         'setting_equals { namespace: "global" key: "wifi_on" values: ["1", "2"] }', validators.setting_equals),
    Kind("app_in_foreground", checks.validate_app_in_foreground, checks.compile_app_in_foreground,
         "the app (AndroidWorld's name) is the one in front",
         'app_in_foreground { app: "{{ app_name }}" }', validators.app_in_foreground),
    Kind("command_output_matches", checks.validate_command_output_matches, checks.compile_command_output_matches,
         "B-MoCA's command detector: the shell command's output matches the regular expression (literal text)",
         'command_output_matches { command: "settings get global wifi_on" pattern: "^1$" }',
         validators.command_output_matches),
    Kind("ui_element_matches", checks.validate_ui_element_matches, checks.compile_ui_element_matches,
         "B-MoCA's UI detector: an element chosen by resource_id/text/content_desc/class_name regexes holds the "
         "attributes set (checked, selected, enabled, focused)",
         'ui_element_matches { class_name: ".*Switch" checked: true }', validators.ui_element_matches),
    Kind("key_components", checks.validate_key_components, checks.compile_key_components,
         "SPA-Bench's key components: a screen's visible text holds every item (case aside); with `ocr` also "
         "the words tesseract reads in the screenshot; the episode's screens from the last back (`screens` "
         "\"episode\", SPA's) or the final one (\"final\")",
         'key_components { items: ["{{ title }}", "Saved"] }', validators.key_components),
    Kind("logcat_matches", checks.validate_logcat_matches, checks.compile_logcat_matches,
         "B-MoCA's logcat detector: a line logged since setup with the tag (and at least `level`) whose message "
         "matches the regular expression (literal text)",
         'logcat_matches { tag: "ActivityTaskManager" level: "I" pattern: "START.*cmp=com.android.settings/" }',
         validators.logcat_matches),
    Kind("shared_pref_equals", checks.validate_shared_pref_equals, checks.compile_shared_pref_equals,
         "the app's shared_prefs/`file`.xml holds `key` with `value` read as `type` (STRING, INT, FLOAT, BOOLEAN; "
         "SET: `items`)",
         'shared_pref_equals { package: "com.dimowner.audiorecorder" file: "com.dimowner.audiorecorder.data.PrefsImpl" '
         'key: "record_counter" type: INT value: "{{ count }}" }', validators.shared_pref_equals),
    Kind("permission_granted", checks.validate_permission_granted, checks.compile_permission_granted,
         "the package holds the runtime permission (`dumpsys package`): with `one_time` true only this time "
         "(\"Only this time\"), false for good (\"While using the app\", `pm grant`); unset, either",
         'permission_granted { package: "com.dimowner.audiorecorder" permission: "android.permission.RECORD_AUDIO" '
         'one_time: false }', validators.permission_granted),
    Kind("answer", checks.validate_answer, checks.compile_answer,
         "the agent's answer holds exactly the expected items, in any order (see [Answers](#answers))",
         'answer { match: NUMBER select { table: "events" where { field: "start_ts" op: GE param: "day_ts" } '
         'function: COUNT } }', validators.answer_matches),
    Kind("answer_equals", checks.validate_answer_equals, checks.compile_answer_equals,
         "the whole answer matches one value: fuzzy text, or with `match: NUMBER` its only number (± `tolerance`)",
         'answer_equals { match: NUMBER expected: "{{ count }}" }', validators.answer_equals),
    Kind("all", checks.validate_checks, checks.compile_all,
         "every check passes (1.0, else 0.0)",
         'all { check { file_absent { path: "{{ old }}" } } check { file_exists { path: "{{ new }}" } } }',
         validators.all_of),
    Kind("any", checks.validate_checks, checks.compile_any,
         "the best check's score",
         'any { check { setting_equals { namespace: "global" key: "wifi_on" values: "1" } } '
         'check { setting_equals { namespace: "global" key: "bluetooth_on" values: "1" } } }', validators.any_of),
    Kind("not", checks.validate_not, checks.compile_not,
         "the inner check does not pass",
         'not { file_exists { path: "/sdcard/Documents/Markor/draft.md" } }', validators.not_),
    Kind("weighted", checks.validate_weighted, checks.compile_weighted,
         "the mean of the checks' scores weighted by their `weight` (default 1): partial reward",
         'weighted { check { weight: 2 file_exists { path: "{{ note }}" } } '
         'check { setting_equals { namespace: "global" key: "wifi_on" values: "1" } } }', validators.weighted),
])

STEPS = Kinds(task_spec_pb2.Step, "step", [
    Kind("insert_rows", steps.validate_insert_rows, steps.compile_insert_rows,
         "inserts rows from params and inline `rows { set { column: .. <value> } }` in one command; `set` overrides "
         "columns of every row (e.g. `set { column: \"created_date\" expr: \"now_ms\" }`); force-stops the app",
         'insert_rows { table: "expense" params: ["noise", "targets"] }'),
    Kind("delete_rows", steps.validate_selection, steps.compile_delete_rows,
         "deletes the rows matching all of `where`; force-stops the app",
         'delete_rows { table: "expense" where { field: "name" op: IN param: "targets.name" } }'),
    Kind("update_rows", steps.validate_update_rows, steps.compile_update_rows,
         "sets columns of the rows matching all of `where`; force-stops the app",
         'update_rows { table: "expense" where { field: "name" op: EQ param: "old_name" } '
         'set { column: "name" param: "new_name" } }'),
    Kind("write_file", steps.validate_write_file, steps.compile_write_file,
         "writes a file (parents created); `path` and `content` are templates",
         'write_file { path: "/sdcard/Documents/Markor/{{ file_name }}" content: "{{ text }}" }'),
    Kind("remove_file", steps.validate_remove_file, steps.compile_remove_file,
         "removes a file, or with `recursive` a tree",
         'remove_file { path: "/sdcard/Documents/Markor/{{ file_name }}" }'),
    Kind("set_setting", steps.validate_set_setting, steps.compile_set_setting,
         "`settings put` (`delete: true` removes the key)",
         'set_setting { namespace: "system" key: "screen_brightness" value: "{{ level }}" }'),
    Kind("clear_app", steps.validate_clear_app, steps.compile_clear_app,
         "the app model's reset, or with `pm_clear` the package manager's `pm clear`",
         'clear_app { app: "markor" }'),
    Kind("shell", steps.validate_shell, steps.compile_shell,
         "a device shell command; every `{{ }}` value is shell-quoted as one word",
         'shell { command: "svc wifi disable" }'),
    Kind("provider_insert", steps.validate_provider_insert, steps.compile_provider_insert,
         "`content insert` of the `set` columns (e.g. an SMS into `content://sms/inbox`)",
         'provider_insert { uri: "content://sms/sent" set { column: "address" param: "number" } '
         'set { column: "body" param: "message" } }'),
    Kind("answer", steps.validate_answer, steps.compile_answer,
         "oracle only: submits an answer (`text`, a template; empty: the success check's expected answer)",
         "answer { }"),
])
