"""Near-miss mutations derived from a task's validators.

A `Mutation(name, apply)` changes a solved device a little — a wrong value in one compared
field, an expected row missing, an extra row, a noise row deleted or edited, a wrong file name
or content, a wrong setting value, a wrong answer — so that a correct check must score it below
1.0. The mutations are read off the validator, not listed per task:

* `observe(validator, obs)` runs after `initialize_state` and before `solve`, and records what
  the validator's targets looked like (rows of its source, files, settings);
* `derive(validator, obs)` runs after `solve` and compares: the rows solve added, deleted or
  changed are where the near misses go;
* `satisfy(validator, obs)` makes a validator pass, which is how `not_(...)` is mutated.

A mutation the restore point cannot undo (a log line, another app's preferences) carries its own
`undo(env)`, run before the restore.

All three are `functools.singledispatch` functions over the classes in `validators/`; the
combinators recurse. `answer_matches`, whose expected answer may be read from the device, gets
near misses of the answer `solve` gave. Register rules for your own validator classes with
`derive.register(MyValidator)` (and `observe.register`). A validator with no rule gets no
mutations and a note saying so; every check kind of the specs has rules (a test checks it).
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import posixpath
import re
from typing import Any, Callable, Iterable, Mapping, Sequence

from taskkit import apps
from taskkit.device.quoting import shell_join
from taskkit.device.services import shared_prefs
from taskkit.device.services.logcat import LogEntry
from taskkit.env import TaskEnv
from taskkit.testing.nearvalues import candidates, near_miss, one_char_off
from taskkit.testing.rowwriters import RowWriter, key_value, writer_for
from taskkit.validators import ProviderUri
from taskkit.validators.activity import AppInForeground
from taskkit.validators.detectors import CommandOutputMatches, KeyComponents, UiElementMatches
from taskkit.validators.logcat import PRIORITIES, LogcatMatches
from taskkit.validators.permissions import USER_FLAGS, PermissionGranted
from taskkit.validators.shared_prefs import SharedPrefEquals, same_pref
from taskkit.validators.answers import AnswerEquals
from taskkit.validators.base import AnyOf, Not, Weighted
from taskkit.validators.exists import RowExists
from taskkit.validators.files import FileAbsent, FileContent, FileExists, FolderExists, NoFilesUnder
from taskkit.validators.fuzzy import fuzzy_match, similarity
from taskkit.validators.providers import ProviderRowExists
from taskkit.validators.questions import AnswerMatches
from taskkit.validators.rows import DuplicatesRemoved, RowsAdded, RowsDeleted, RowsUpdated, same_value
from taskkit.validators.settings import SettingEquals
from taskkit.validators.sources import Where

Row = dict[str, Any]
Rows = dict[Any, Row]
MAX_PER_KIND = 5  # at most this many "target row kept"-style mutations per validator


@dataclasses.dataclass(frozen=True)
class Mutation:
    """A named near miss; `apply(env)` changes the solved device (or the answer)."""

    name: str
    apply: Callable[[Any], None]
    undo: Callable[[Any], None] | None = None

    def __repr__(self) -> str:
        return f"Mutation({self.name!r})"


class Observation:
    """The validator's targets before solve, read again (lazily, once) after it."""

    def __init__(self, env: TaskEnv):
        self.env = env
        self.notes: list[str] = []
        self.snapshots: dict[int, Any] = {}
        self.files_before: dict[str, str | None] = {}
        self.settings_before: dict[tuple[str, str], str | None] = {}
        self.matches_before: dict[int, set[Any]] = {}
        self._before: dict[Any, Rows] = {}
        self._after: dict[Any, Rows] = {}

    @property
    def device(self) -> Any:
        return self.env.device

    def capture_rows(self, source: Any) -> None:
        if _ident(source) not in self._before:
            self._before[_ident(source)] = source.read(self.device)

    def before(self, source: Any) -> Rows:
        return self._before[_ident(source)]

    def after(self, source: Any) -> Rows:
        if _ident(source) not in self._after:
            self._after[_ident(source)] = source.read(self.device)
        return self._after[_ident(source)]

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


# ---------------------------------------------------------------------------------- helpers
def _ident(source: Any) -> Any:
    """A dict key for a row source: itself when hashable (equal sources share rows)."""
    try:
        hash(source)
        return source
    except TypeError:
        return id(source)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 32 else text[:29] + "..."


def _sorted_keys(rows: Rows) -> list[Any]:
    return sorted(rows, key=lambda k: (str(type(key_value(k))), key_value(k)))


def _update(writer: RowWriter, keys: Any, values: Mapping[str, Any]) -> Callable[[Any], None]:
    """Set `values` in the row `keys` (one key, or a list of keys)."""
    keys = list(keys) if isinstance(keys, list) else [keys]

    def apply(env: TaskEnv) -> None:
        for key in keys:
            writer.update(env.device, key, values)

    return apply


def _delete(writer: RowWriter, keys: Iterable[Any]) -> Callable[[Any], None]:
    keys = list(keys)

    def apply(env: TaskEnv) -> None:
        for key in keys:
            writer.delete(env.device, key)

    return apply


def _restore(writer: RowWriter, row: Row) -> Callable[[Any], None]:
    return lambda env: writer.restore(env.device, dict(row))


def _duplicate(writer: RowWriter, row: Row) -> Callable[[Any], None]:
    return lambda env: writer.duplicate(env.device, dict(row))


def _editable_field(row: Row, key: str, prefer: Sequence[str]) -> str | None:
    """A field of `row` worth editing: a compared one if possible, else any non-key value."""
    for field in list(prefer) + list(row):
        if field != key and field in row and row[field] is not None:
            return field
    return None


def _noise(name: str, source: Any, writer: RowWriter, untouched: Rows, prefer: Sequence[str],
           extra_row: bool) -> list[Mutation]:
    """A noise row deleted, a noise row edited and (optionally) an extra copy of one."""
    if not untouched:
        return []
    key = _sorted_keys(untouched)[0]
    row = untouched[key]
    out = [Mutation(f"{name}: a noise row deleted ({source.key}={key!r})", _delete(writer, [key]))]
    field = _editable_field(row, source.key, prefer)
    if field is not None:
        value = near_miss(row[field], lambda c, old=row[field]: c == old)
        out.append(Mutation(f"{name}: a noise row edited ({field} -> {_short(value)})", _update(writer, key, {field: value})))
    if extra_row:
        out.append(Mutation(f"{name}: an extra row (copy of {source.key}={key!r})", _duplicate(writer, row)))
    return out


def _field_accepts(matcher: Any, field: str, expected: Any) -> Callable[[Any], bool]:
    return lambda candidate: bool(matcher.field_matches(field, expected, candidate))


def _untouched(before: Rows, after: Rows) -> Rows:
    return {k: row for k, row in before.items() if k in after and after[k] == row}


def _together(group: Sequence[Mutation]) -> Mutation:
    """One mutation applying several."""

    def apply(env: TaskEnv) -> None:
        for mutation in group:
            mutation.apply(env)

    def undo(env: TaskEnv) -> None:
        for mutation in reversed(group):
            if mutation.undo is not None:
                mutation.undo(env)

    return Mutation(" + ".join(m.name for m in group), apply, undo)


def _sibling(path: str) -> str:
    """The same file name with a typo: `notes/quick_panda.md` → `notes/quick_pandb.md`."""
    directory, name = posixpath.split(path)
    stem, ext = posixpath.splitext(name)
    return posixpath.join(directory, one_char_off(stem or name) + ext)


def _move(src: str, dst: str) -> Callable[[Any], None]:
    return lambda env: env.device.files.move(src, dst)


def _write(path: str, text: str) -> Callable[[Any], None]:
    return lambda env: env.device.files.write_text(path, text)


# ---------------------------------------------------------------------------------- observe
@functools.singledispatch
def observe(validator: Any, obs: Observation) -> None:
    """Record, before solve, what `derive` will compare with (nothing by default)."""


@observe.register(RowsAdded)
@observe.register(RowsDeleted)
@observe.register(RowsUpdated)
@observe.register(DuplicatesRemoved)
def _observe_rows(validator: Any, obs: Observation) -> None:
    obs.capture_rows(validator.source)


@observe.register(FileExists)
@observe.register(FileAbsent)
@observe.register(FileContent)
def _observe_file(validator: Any, obs: Observation) -> None:
    files = obs.device.files
    path = validator.path
    obs.files_before[path] = files.read_text(path) if files.exists(path) and not files.is_dir(path) else None


@observe.register(SettingEquals)
def _observe_setting(validator: SettingEquals, obs: Observation) -> None:
    obs.settings_before[(validator.namespace, validator.key)] = obs.device.settings.get(validator.namespace, validator.key)


@dataclasses.dataclass(frozen=True)
class _Exists:
    """What an existence check looks for: rows of `source` matching `where`.

    `values` are the column values a matching row holds, when `where` gives them (a dict, or
    `provider_row_exists`'s fields): a near value of each must make the row stop matching.
    """

    source: Any
    where: Where
    description: str
    values: Mapping[str, Any] | None = None

    def test(self) -> Callable[[Row], bool] | None:
        """`where` as a test of one row on the host; None for SQL text (only the device runs it)."""
        if callable(self.where):
            return self.where
        if self.values is not None:
            return lambda row: all(same_value(value, row.get(f)) for f, value in self.values.items())
        return None


def _exists(validator: Any) -> _Exists:
    if isinstance(validator, ProviderRowExists):
        match, matcher = dict(validator.match), validator.matcher
        return _Exists(ProviderUri(validator.uri, projection=tuple(match)), lambda row: matcher.row_matches(match, row),
                       _short(match), match)
    values = dict(validator.where) if isinstance(validator.where, Mapping) else None
    return _Exists(validator.source, validator.where, validator.description, values)


@observe.register(RowExists)
@observe.register(ProviderRowExists)
def _observe_exists(validator: Any, obs: Observation) -> None:
    looked_for = _exists(validator)
    obs.matches_before[id(validator)] = set(looked_for.source.select(obs.device, looked_for.where))


@observe.register(LogcatMatches)
def _observe_log(validator: LogcatMatches, obs: Observation) -> None:
    obs.snapshots[id(validator)] = validator.snapshot(obs.env)


@observe.register(Weighted)
def _observe_parts(validator: Weighted, obs: Observation) -> None:
    for part, _ in validator.parts:
        observe(part, obs)
        if isinstance(validator, AnyOf):
            obs.snapshots[id(part)] = part.snapshot(obs.env)


@observe.register(Not)
def _observe_not(validator: Not, obs: Observation) -> None:
    observe(validator.part, obs)


# ---------------------------------------------------------------------------------- derive
@functools.singledispatch
def derive(validator: Any, obs: Observation) -> list[Mutation]:
    """The near misses of a solved state that `validator` must reject."""
    obs.note(f"no mutation rule for {type(validator).__name__} (register one with derive.register)")
    return []


@derive.register(RowsAdded)
def _derive_added(v: RowsAdded, obs: Observation) -> list[Mutation]:
    source, writer = v.source, writer_for(v.source)
    name = source.describe()
    before, after = obs.before(source), obs.after(source)
    added = {k: row for k, row in after.items() if k not in before}
    claimed: set[Any] = set()
    out: list[Mutation] = []
    for index, expected in enumerate(v.expected, 1):
        label = f"{name}: new row {index}" if len(v.expected) > 1 else f"{name}: the new row"
        key = next((k for k in _sorted_keys(added) if k not in claimed and v.matcher.row_matches(expected, added[k])), None)
        if key is None:
            obs.note(f"{label} matches no row that solve added: its near misses are not derived")
            continue
        claimed.add(key)
        for field, value in expected.items():
            wrong = near_miss(value, _field_accepts(v.matcher, field, value))
            out.append(Mutation(f"{label}: wrong {field} ({_short(wrong)})", _update(writer, key, {field: wrong})))
        out.append(Mutation(f"{label} missing", _delete(writer, [key])))
    if added:
        first = _sorted_keys(added)[0]
        out.append(Mutation(f"{name}: one extra new row", _duplicate(writer, added[first])))
    prefer = [f for row in v.expected for f in row]
    return out + _noise(name, source, writer, _untouched(before, after), prefer, extra_row=False)


@derive.register(RowsDeleted)
def _derive_deleted(v: RowsDeleted, obs: Observation) -> list[Mutation]:
    source, writer = v.source, writer_for(v.source)
    name = source.describe()
    before, after = obs.before(source), obs.after(source)
    removed = [k for k in _sorted_keys(before) if k not in after]
    out = [Mutation(f"{name}: deleted row {source.key}={k!r} kept", _restore(writer, before[k]))
           for k in removed[:MAX_PER_KIND]]
    return out + _noise(name, source, writer, _untouched(before, after), (), extra_row=True)


@derive.register(RowsUpdated)
def _derive_updated(v: RowsUpdated, obs: Observation) -> list[Mutation]:
    source, writer = v.source, writer_for(v.source)
    name = source.describe()
    before, after = obs.before(source), obs.after(source)
    changed = [k for k in _sorted_keys(before) if k in after and after[k] != before[k]]
    out: list[Mutation] = []
    for k in changed[:MAX_PER_KIND]:
        label = f"{name}: updated row {source.key}={k!r}"
        for field, value in v.changes.items():
            wrong = near_miss(value, _field_accepts(v.matcher, field, value))
            out.append(Mutation(f"{label}: wrong {field} ({_short(wrong)})", _update(writer, k, {field: wrong})))
        other = _editable_field({f: x for f, x in after[k].items() if f not in v.changes}, source.key, ())
        if other is not None:
            value = near_miss(after[k][other], lambda c, old=after[k][other]: c == old)
            out.append(Mutation(f"{label}: another field changed ({other})", _update(writer, k, {other: value})))
        out.append(Mutation(f"{label} deleted", _delete(writer, [k])))
    return out + _noise(name, source, writer, _untouched(before, after), list(v.changes), extra_row=True)


@derive.register(DuplicatesRemoved)
def _derive_duplicates(v: DuplicatesRemoved, obs: Observation) -> list[Mutation]:
    source, writer = v.source, writer_for(v.source)
    name = source.describe()
    before, after = obs.before(source), obs.after(source)
    groups: dict[tuple, list[Any]] = {}
    for k in _sorted_keys(before):
        groups.setdefault(tuple(before[k].get(f) for f in v.fields), []).append(k)
    duplicated = [keys for keys in groups.values() if len(keys) > 1]
    out: list[Mutation] = []
    for index, keys in enumerate(duplicated[:MAX_PER_KIND], 1):
        label = f"{name}: duplicate group {index}"
        kept = [k for k in keys if k in after]
        gone = [k for k in keys if k not in after]
        if kept:
            out.append(Mutation(f"{label}: every copy deleted", _delete(writer, kept)))
            field = _editable_field(after[kept[0]], source.key, v.fields)
            if field is not None:
                value = near_miss(after[kept[0]][field], lambda c, old=after[kept[0]][field]: c == old)
                out.append(Mutation(f"{label}: the kept copy edited ({field})", _update(writer, kept[0], {field: value})))
        if gone:
            out.append(Mutation(f"{label}: one extra copy kept", _restore(writer, before[gone[0]])))
    single = {k: row for k, row in _untouched(before, after).items() if not any(k in keys for keys in duplicated)}
    return out + _noise(name, source, writer, single, v.fields, extra_row=True)


@derive.register(FileExists)
def _derive_file_exists(v: FileExists, obs: Observation) -> list[Mutation]:
    other = _sibling(v.path)
    return [Mutation(f"file {v.path}: wrong file name ({posixpath.basename(other)})", _move(v.path, other))]


@observe.register(NoFilesUnder)
def _observe_files_under(validator: NoFilesUnder, obs: Observation) -> None:
    files = obs.device.files
    try:
        for path in files.find(validator.path, type="f")[:1]:
            obs.files_before[path] = files.read_text(path)
    except FileNotFoundError:
        pass


@derive.register(FolderExists)
def _derive_folder_exists(v: FolderExists, obs: Observation) -> list[Mutation]:
    other = _sibling(v.path)
    return [Mutation(f"folder {v.path}: wrong name ({posixpath.basename(other)})", _move(v.path, other)),
            Mutation(f"folder {v.path}: a file of that name instead",
                     lambda env: (env.device.files.remove(v.path, recursive=True), _write(v.path, "not a folder")(env)))]


@derive.register(NoFilesUnder)
def _derive_no_files_under(v: NoFilesUnder, obs: Observation) -> list[Mutation]:
    kept = [(path, text) for path, text in obs.files_before.items() if path.startswith(v.path + "/")]
    return [Mutation(f"{v.path}: one file kept ({posixpath.basename(path)})", _write(path, text or ""))
            for path, text in kept[:1]]


@derive.register(FileAbsent)
def _derive_file_absent(v: FileAbsent, obs: Observation) -> list[Mutation]:
    text = obs.files_before.get(v.path) or "near miss: the file is still here"
    return [Mutation(f"file {v.path}: still there", _write(v.path, text))]


@derive.register(FileContent)
def _derive_file_content(v: FileContent, obs: Observation) -> list[Mutation]:
    if v.fuzzy:
        accepts = lambda text: similarity(text, v.expected) >= v.threshold  # noqa: E731
    else:
        accepts = lambda text: text.strip() == v.expected.strip()  # noqa: E731
    wrong = near_miss(v.expected, accepts)
    other = _sibling(v.path)
    return [
        Mutation(f"file {v.path}: wrong content ({_short(wrong)})", _write(v.path, wrong)),
        Mutation(f"file {v.path}: wrong file name ({posixpath.basename(other)})", _move(v.path, other)),
    ]


@derive.register(SettingEquals)
def _derive_setting(v: SettingEquals, obs: Observation) -> list[Mutation]:
    device = obs.device
    wrong: list[str] = []
    start = obs.settings_before.get((v.namespace, v.key))
    if start is not None and start not in v.accepted:
        wrong.append(start)
    now = device.settings.get(v.namespace, v.key)
    for candidate in itertools.islice(_setting_candidates(now), 6):
        if candidate not in v.accepted and candidate not in wrong and len(wrong) < 2:
            wrong.append(candidate)
    if not wrong:
        obs.note(f"setting {v.namespace}/{v.key}: no value outside the accepted ones was found")
    return [Mutation(f"setting {v.namespace}/{v.key} = {value!r}",
                     lambda env, value=value: env.device.settings.put(v.namespace, v.key, value))
            for value in wrong]


@derive.register(AppInForeground)
def _derive_foreground(v: AppInForeground, obs: Observation) -> list[Mutation]:
    other = next(app for app in apps.all_apps() if app.package != v.package and app.activity)
    return [Mutation(f"{v.app}: the home screen in front instead", lambda env: env.device.check("input keyevent HOME")),
            Mutation(f"{v.app}: {other.name} in front instead", lambda env: other.launch(env.device))]



def _setting_candidates(value: str | None) -> Iterable[str]:
    for candidate in candidates(value if value is not None else "0"):
        yield str(candidate)
    yield from ("0", "1")


@derive.register(RowExists)
@derive.register(ProviderRowExists)
def _derive_exists(v: Any, obs: Observation) -> list[Mutation]:
    looked_for = _exists(v)
    source = looked_for.source
    name = source.describe()
    now = source.select(obs.device, looked_for.where)
    new = [k for k in _sorted_keys(now) if k not in obs.matches_before.get(id(v), set())]
    if not new:
        obs.note(f"{name}: solve added no row matching {looked_for.description}")
        return []
    writer = writer_for(source)
    out = [Mutation(f"{name}: the matching row has a wrong {field} ({_short(wrong)})", _update(writer, new, {field: wrong}))
           for field, wrong in _breaking_values(looked_for, now[new[0]], obs)]
    return out + [Mutation(f"{name}: the matching row missing", _delete(writer, new))]


def _breaking_values(looked_for: _Exists, row: Row, obs: Observation) -> list[tuple[str, Any]]:
    """(field, value): a near value of one field of `row` that the check must reject, per field.

    With known `values` each of their fields is mutated, even when the check takes every near
    value (which shows the check up); otherwise only the fields whose change stops the match.
    """
    test = looked_for.test()
    if test is None:
        obs.note(f"{looked_for.source.describe()}: an SQL condition is not tested on the host: "
                 "only the missing row is derived")
        return []
    fields = list(looked_for.values or [f for f in row if f != looked_for.source.key])
    found = []
    for field in fields:
        wrong = near_miss(row.get(field), lambda c, field=field: test({**row, field: c}))
        if looked_for.values is not None or not test({**row, field: wrong}):
            found.append((field, wrong))
    return found


@derive.register(AnswerEquals)
def _derive_answer(v: AnswerEquals, obs: Observation) -> list[Mutation]:
    if v.kind == "number":
        number = float(v.expected) + v.tolerance + 1
        wrong = str(int(number)) if number.is_integer() else str(number)
    else:
        wrong = near_miss(v.expected, lambda text: fuzzy_match(text, v.expected, v.threshold))
    return [
        Mutation(f"answer: wrong ({_short(wrong)})", lambda env: env.submit_answer(wrong)),
        Mutation("answer: none given", lambda env: env.submit_answer("")),
    ]


def answer_near_misses(answer: str) -> list[Mutation]:
    """Near misses of a solved free-form answer: none, a digit off, the last item missing, half."""
    out = [Mutation("answer: none given", lambda env: env.submit_answer(""))]
    digit = re.search(r"\d(?!\d)", answer)  # the last digit of the first number
    if digit:
        off = answer[:digit.start()] + str((int(digit.group()) + 1) % 10) + answer[digit.end():]
        out.append(Mutation(f"answer: a digit off ({_short(off)})", lambda env: env.submit_answer(off)))
    items = [item for item in re.split(r",\s*|\s+and\s+", answer) if item.strip()]
    if len(items) > 1:
        shorter = ", ".join(items[:-1])
        out.append(Mutation(f"answer: the last item missing ({_short(shorter)})", lambda env: env.submit_answer(shorter)))
    elif not digit and len(answer.strip()) >= 4:
        half = answer.strip()[: len(answer.strip()) // 2]
        out.append(Mutation(f"answer: half of it ({_short(half)})", lambda env: env.submit_answer(half)))
    return out


def _derive_solved_answer(v: Any, obs: Observation) -> list[Mutation]:
    """For answer checks whose expected answer is computed from the device: mutate solve's answer."""
    if not (obs.env.answer or "").strip():
        obs.note(f"{type(v).__name__}: solve gave no answer to mutate")
        return []
    return answer_near_misses(obs.env.answer)


derive.register(AnswerMatches)(_derive_solved_answer)


@derive.register(Weighted)  # AllOf too: every part must pass, so every part's near miss counts
def _derive_parts(v: Weighted, obs: Observation) -> list[Mutation]:
    return [m for part, weight in v.parts if weight > 0 for m in derive(part, obs)]


@derive.register(AnyOf)
def _derive_any(v: AnyOf, obs: Observation) -> list[Mutation]:
    passing = [part for part, _ in v.parts if part.evaluate(obs.env, obs.snapshots[id(part)]).passed]
    per_part = [derive(part, obs) for part in passing]
    if not per_part or not all(per_part):
        obs.note("any_of: an alternative that passes has no near misses, so none can be judged")
        return []
    if len(per_part) == 1:
        return per_part[0]
    longest = max(len(ms) for ms in per_part)  # break every passing alternative at once
    combined = [[ms[i % len(ms)] for ms in per_part] for i in range(longest)]
    return [_together(group) for group in combined]


@derive.register(Not)
def _derive_not(v: Not, obs: Observation) -> list[Mutation]:
    found = satisfy(v.part, obs)
    if not found:
        obs.note(f"not_({type(v.part).__name__}): no rule makes the forbidden state hold")
    return [dataclasses.replace(m, name=f"{v.description} reached: {m.name}") for m in found]


@derive.register(CommandOutputMatches)
def _derive_command(v: CommandOutputMatches, obs: Observation) -> list[Mutation]:
    obs.note(f"command_output_matches `{v.command[:40]}`: what its command reads is unknown to the checker, so no "
             "near miss is derived (pair it with a state check to have one)")
    return []


@derive.register(UiElementMatches)
@derive.register(KeyComponents)
def _derive_screen(v: UiElementMatches | KeyComponents, obs: Observation) -> list[Mutation]:
    """A screen check must fail once the screen it read is gone: the home screen, or one step back.
    So must SPA's key components read on the episode's screens from the last back: the lifecycle
    solves by device commands, so its only screen is the final one (that a screen shown earlier
    still counts is gui_solvable's: the GUI reference followed by HOME still scores 1.0)."""
    return [Mutation("the home screen in front instead", lambda env: env.device.check("input keyevent HOME")),
            Mutation("one screen back", lambda env: env.device.check("input keyevent BACK"))]


_PACKAGE = re.compile(r"\b[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+\b")
_FILLER = "taskkit near miss: an entry the mark counts"


def _relog(mark_count: int, tag: str, lines: list[LogEntry]) -> Callable[[Any], None]:
    """Clear the log, then log `mark_count` filler entries of `tag` (the mark skips as many at
    its time when the clock has not moved, as on the simulated device) and `lines` again."""
    entries = [("V", tag, _FILLER)] * mark_count + [(e.priority, e.tag, e.message) for e in lines]
    script = " && ".join(["logcat -c"] + [shell_join(["log", "-p", p.lower(), "-t", t, "--", m or " "]) for p, t, m in entries])
    return lambda env: env.device.check(script)


@derive.register(LogcatMatches)
def _derive_log(v: LogcatMatches, obs: Observation) -> list[Mutation]:
    """The matching lines logged otherwise: under another tag, for another package (a dotted name in
    the message one letter off), one priority below the level. The log cannot be un-written, so
    each near miss clears it and logs the solved lines again, changed; its undo logs them as they
    were (the other entries of the log are gone: run `taskkit.check` on a test device)."""
    mark = obs.snapshots[id(v)]
    lines = obs.device.logcat.since(mark, v.tag)
    matching = [e for e in lines if re.search(v.pattern, e.message)
                and PRIORITIES.index(e.priority) >= PRIORITIES.index(v.level)]
    undo = _relog(mark.count, v.tag, lines)

    def changed(name: str, change: Callable[[LogEntry], LogEntry | None]) -> list[Mutation]:
        altered = []
        for entry in lines:
            new = change(entry) if entry in matching else entry
            if new is None:
                return []
            altered.append(new)
        return [Mutation(f"logcat {v.tag}: {name}", _relog(mark.count, v.tag, altered), undo)]

    def other_package(e: LogEntry) -> LogEntry | None:
        for found in _PACKAGE.finditer(e.message):  # the first dotted name the pattern depends on
            message = e.message[:found.start()] + one_char_off(found.group()) + e.message[found.end():]
            if not re.search(v.pattern, message):
                return dataclasses.replace(e, message=message)
        return None

    out = changed(f"the line logged under {one_char_off(v.tag)!r}", lambda e: dataclasses.replace(e, tag=one_char_off(v.tag)))
    out += changed("the line names another package", other_package)
    if v.level != "V":
        below = PRIORITIES[PRIORITIES.index(v.level) - 1]
        out += changed(f"the line logged at {below}", lambda e: dataclasses.replace(e, priority=below))
    return out


@derive.register(SharedPrefEquals)
def _derive_pref(v: SharedPrefEquals, obs: Observation) -> list[Mutation]:
    """Another value of the same type, the value under another type, the key gone. The file is
    written back by each mutation's undo (it may belong to an app outside the task's)."""
    text = obs.device.files.read_text(v.path)
    entries = shared_prefs.parse(text)
    stored = entries[v.key]
    undo = _write(v.path, text)

    def with_pref(pref: shared_prefs.Pref | None) -> Callable[[Any], None]:
        changed = {k: e for k, e in entries.items() if k != v.key}
        if pref is not None:
            changed[v.key] = pref
        return _write(v.path, shared_prefs.render(changed))

    if stored.kind == "set":
        items = sorted(stored.value)
        other = frozenset(items[:-1]) if items else frozenset({"x"})
    else:
        other = near_miss(stored.value, lambda c: same_pref(shared_prefs.Pref(stored.kind, c), v.value))
    as_text = shared_prefs.Pref("string", str(stored.value)) if stored.kind != "string" else \
        shared_prefs.Pref("int", 1) if stored.value != "1" else shared_prefs.Pref("int", 0)
    return [Mutation(f"shared pref {v.key} = {_short(other)}", with_pref(shared_prefs.Pref(stored.kind, other)), undo),
            Mutation(f"shared pref {v.key} stored as <{as_text.kind}>", with_pref(as_text), undo),
            Mutation(f"shared pref {v.key} missing", with_pref(None), undo)]


def _set_permission(v: PermissionGranted, granted: bool, flags: Iterable[str]) -> Callable[[Any], None]:
    """Give `v`'s permission this state: granted or revoked (`pm`), with exactly these user flags
    (dump names, e.g. USER_SET); other flags are left as they are."""
    def apply(env: Any) -> None:
        packages = env.device.packages
        (packages.grant if granted else packages.revoke)(v.package, v.name)
        packages.clear_permission_flags(v.package, v.name, *USER_FLAGS.values())
        if flags:
            packages.set_permission_flags(v.package, v.name, *(USER_FLAGS[f] for f in flags))
    return apply


def _permission_now(v: PermissionGranted, obs: Observation) -> Callable[[Any], None]:
    """What sets `v`'s permission back to its state now (an undo)."""
    granted, flags = obs.device.packages.runtime_permission(v.package, v.name)
    return _set_permission(v, granted, sorted(f for f in flags if f in USER_FLAGS))


@derive.register(PermissionGranted)
def _derive_permission(v: PermissionGranted, obs: Observation) -> list[Mutation]:
    """The dialog denied (revoked, USER_SET), and with `one_time` set the other kind of grant. The
    permission lives outside the apps' data, so each mutation's undo sets it back as solve left it."""
    undo = _permission_now(v, obs)
    out = [Mutation(f"permission {v.name} denied", _set_permission(v, False, ["USER_SET"]), undo)]
    if v.one_time is not None:
        other = [] if v.one_time else ["ONE_TIME"]
        out.append(Mutation(f"permission {v.name} granted {'for good' if v.one_time else 'only this time'}",
                            _set_permission(v, True, ["USER_SET", *other]), undo))
    return out


# ---------------------------------------------------------------------------------- satisfy
@functools.singledispatch
def satisfy(validator: Any, obs: Observation) -> list[Mutation]:
    """Changes that make `validator` pass (used to mutate `not_(validator)`); none by default."""
    return []


@satisfy.register(FileExists)
def _satisfy_file_exists(v: FileExists, obs: Observation) -> list[Mutation]:
    return [Mutation(f"file {v.path} created", _write(v.path, "near miss"))]


@satisfy.register(FolderExists)
def _satisfy_folder_exists(v: FolderExists, obs: Observation) -> list[Mutation]:
    return [Mutation(f"folder {v.path} created", lambda env: env.device.files.mkdir(v.path))]


@satisfy.register(NoFilesUnder)
def _satisfy_no_files_under(v: NoFilesUnder, obs: Observation) -> list[Mutation]:
    return [Mutation(f"every file under {v.path} removed", lambda env: env.device.files.remove(v.path, recursive=True))]


@satisfy.register(FileAbsent)
def _satisfy_absent(v: FileAbsent, obs: Observation) -> list[Mutation]:
    return [Mutation(f"file {v.path} removed", lambda env: env.device.files.remove(v.path, recursive=True))]


@satisfy.register(PermissionGranted)
def _satisfy_permission(v: PermissionGranted, obs: Observation) -> list[Mutation]:
    answer = ["USER_SET", *(["ONE_TIME"] if v.one_time else [])]
    return [Mutation(f"permission {v.name} granted", _set_permission(v, True, answer), _permission_now(v, obs))]


@satisfy.register(FileContent)
def _satisfy_content(v: FileContent, obs: Observation) -> list[Mutation]:
    return [Mutation(f"file {v.path} holds the text", _write(v.path, v.expected))]


@satisfy.register(SettingEquals)
def _satisfy_setting(v: SettingEquals, obs: Observation) -> list[Mutation]:
    values = sorted(value for value in v.accepted if value is not None)
    if not values:
        return [Mutation(f"setting {v.namespace}/{v.key} deleted",
                         lambda env: env.device.settings.delete(v.namespace, v.key))]
    return [Mutation(f"setting {v.namespace}/{v.key} = {values[0]!r}",
                     lambda env: env.device.settings.put(v.namespace, v.key, values[0]))]


@satisfy.register(AppInForeground)
def _satisfy_foreground(v: AppInForeground, obs: Observation) -> list[Mutation]:
    return [Mutation(f"{v.app} opened", lambda env: env.device.activity.start(v.component))]


@satisfy.register(AnswerEquals)
def _satisfy_answer(v: AnswerEquals, obs: Observation) -> list[Mutation]:
    return [Mutation(f"answer {v.expected!r} given", lambda env: env.submit_answer(v.expected))]


@satisfy.register(AnswerMatches)
def _satisfy_answer_items(v: AnswerMatches, obs: Observation) -> list[Mutation]:
    answer = v.expected_answer()
    return [Mutation(f"answer {answer!r} given", lambda env: env.submit_answer(answer))]


@satisfy.register(RowExists)
@satisfy.register(ProviderRowExists)
def _satisfy_row_exists(v: Any, obs: Observation) -> list[Mutation]:
    looked_for = _exists(v)
    if looked_for.values is None:  # a predicate or SQL text: no row is known to satisfy it
        return []
    row = dict(looked_for.values)
    return [Mutation(f"{looked_for.source.describe()}: a row with {_short(row)} inserted",
                     _duplicate(writer_for(looked_for.source), row))]


@satisfy.register(RowsAdded)
def _satisfy_added(v: RowsAdded, obs: Observation) -> list[Mutation]:
    writer = writer_for(v.source)

    def apply(env: TaskEnv) -> None:
        for row in v.expected:
            writer.duplicate(env.device, dict(row))

    return [Mutation(f"{v.source.describe()}: the expected rows inserted", apply)]


@satisfy.register(Weighted)
def _satisfy_all(v: Weighted, obs: Observation) -> list[Mutation]:
    parts = [satisfy(part, obs) for part, _ in v.parts]
    if isinstance(v, AnyOf):
        return next((found for found in parts if found), [])
    if not all(parts):
        return []
    return [_together([found[0] for found in parts])]
