"""Reading spec files: parse, locate, validate, compile, register; every error as a `SpecError`.

`load_file(path)` gives the task class of one `.textproto` file. `load_dir(dir)` loads every
`*.textproto` under `dir` (recursively, in path order), compiling specs that include other
specs of the same directory after them, and collects every error instead of stopping.
`load_listed` compiles a spec `listing` registered by name only; for a spec taskkit ships
(task_protos/) it skips the dry run — `load_dir` still does it, and the test suite loads every
shipped spec that way — so a run or `--list_tasks` pays only for what the class needs.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from pathlib import Path
from typing import Any, Callable

from google.protobuf import text_format

from taskkit import registry
from taskkit.specs import cache, compiler, positions, validate
from taskkit.specs.errors import SpecError, SpecRuntimeError
from taskkit.task import TaskEval

from taskkit.task_protos import task_spec_pb2

_PARSE_PREFIX = re.compile(r"^\d+:\d+ : ")
_NO_FIELD = re.compile(r'Message type "([\w.]+)" has no field named "([^"]+)"\.?')
_TWICE = re.compile(r'Message type "[\w.]+" should not have multiple "([^"]+)" fields')
_ONEOF = re.compile(r'Field "(\w+)" is specified along with field "(\w+)", another member of oneof "(\w+)"')


@dataclasses.dataclass
class LoadResult:
    """The classes compiled from a directory, and every error met on the way."""

    classes: list[type[TaskEval]] = dataclasses.field(default_factory=list)
    errors: list[SpecError] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Parsed:
    path: str
    spec: Any
    where: positions.Later

    def error(self, field: str, message: str, needle: str = "") -> SpecError:
        found = self.where.locate_text(field, needle) if needle else None
        line, col = found or self.where.locate(field)
        return SpecError(self.path, line, col, field, message)


def parse(path: str | Path) -> Parsed:
    """Read and parse one spec file — taken from the parse cache when these bytes were parsed
    before; a syntax error or unknown field is a SpecError. Positions are scanned when needed."""
    shown = str(path)
    try:
        data = Path(path).read_bytes()
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as read_text() reads it
    except (OSError, UnicodeDecodeError) as error:
        raise SpecError(shown, 1, 1, "", f"cannot read the spec: {error}") from None
    where = positions.Later(text, task_spec_pb2.TaskSpec.DESCRIPTOR)
    spec = cache.cached(data)
    if spec is None:
        spec = _parse_text(shown, text, where)
        cache.remember(data, spec)
    return Parsed(shown, spec, where)


def _parse_text(shown: str, text: str, where: positions.Later) -> Any:
    deep = positions.too_deep(text)
    if deep is not None:
        raise SpecError(shown, *deep, "", f"messages are nested more than {positions.MAX_DEPTH} levels deep; "
                        "flatten the spec (all/any take lists)")
    spec = task_spec_pb2.TaskSpec()
    try:
        text_format.Parse(text, spec)
    except text_format.ParseError as error:
        line, col = error.GetLine() or 1, error.GetColumn() or 1
        raise SpecError(shown, line, col, where.field_at(line, col), _parse_message(str(error))) from None
    return spec


def _parse_message(text: str) -> str:
    """protobuf's message without its position prefix, worded for a spec author."""
    text = _PARSE_PREFIX.sub("", text)
    found = _NO_FIELD.match(text)
    if found:
        message_type, name = found.groups()
        descriptor = task_spec_pb2.DESCRIPTOR.message_types_by_name.get(message_type.rsplit(".", 1)[-1])
        known = [f.name for f in descriptor.fields] if descriptor is not None else []
        if descriptor is None:  # a nested message type
            for candidate in _all_messages():
                if candidate.full_name == message_type:
                    known = [f.name for f in candidate.fields]
        close = difflib.get_close_matches(name, known, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else f" (fields: {', '.join(known)})"
        return f"unknown field {name!r} in {message_type.rsplit('.', 1)[-1]}{hint}"
    twice = _TWICE.match(text)
    if twice:
        return f"{twice.group(1)!r} is given twice; it takes one value"
    oneof = _ONEOF.match(text)
    if oneof:
        first, second, group = oneof.groups()
        return f"{first!r} and {second!r} are both set; choose one {group} (they exclude each other)"
    quoted_line = re.match(r"'.*?': (?=[A-Z])", text)  # protobuf repeats the whole line first
    if quoted_line:
        text = text[quoted_line.end():]
    return f"syntax error: {text}"


def _all_messages() -> list[Any]:
    out, todo = [], list(task_spec_pb2.DESCRIPTOR.message_types_by_name.values())
    while todo:
        message = todo.pop()
        out.append(message)
        todo.extend(message.nested_types)
    return out


def _compile(parsed: Parsed, find_task: Callable[[str], Any], *, register: bool, dry_run: bool = True) -> type[TaskEval]:
    """Validate, compile and (if `dry_run`) dry-run one parsed spec; the first problem as a SpecError."""
    spec = parsed.spec
    model, problems = validate.validate(spec, find_task)
    if problems:
        raise parsed.error(problems[0].field, problems[0].message, problems[0].needle)
    source = str(Path(parsed.path).resolve())
    if register:
        existing = registry.peek(spec.name)
        if existing is not None and existing.source != source:
            raise parsed.error("name", f"task name {spec.name!r} is already defined in {existing.source}")
    try:
        cls = compiler.compile_spec(spec, model, source, register=False, positions=parsed.where)
        if dry_run:
            compiler.dry_run(cls)
    except SpecRuntimeError as error:
        raise parsed.error(error.field, error.message) from None
    except Exception as error:  # a defect the validation missed: still one line, at the spec
        raise parsed.error("", f"the spec does not compile: {type(error).__name__}: {error}") from None
    if register:
        try:
            registry.register(cls)
        except registry.TaskLoadError as error:
            raise parsed.error("name", str(error)) from None
    return cls


# The names of the listed specs being compiled, outermost first: an include of one of them is a cycle.
_BUILDING: list[str] = []


def _find_registered(name: str) -> Any:
    """The class an include names, compiled now if it was listed; LookupError says why there is none."""
    if name in _BUILDING:
        raise LookupError(f"include cycle: {' -> '.join(_BUILDING[_BUILDING.index(name):] + [name])}")
    try:
        return registry.get(name)
    except registry.TaskLoadError as error:
        raise LookupError(str(error)) from None
    except SpecError:
        failed = registry.peek(name)
        raise LookupError(f"task {name!r} is defined by a spec that failed to load ({failed.source})") from None


def load_file(path: str | Path, *, register: bool = True) -> type[TaskEval]:
    """The task class of one spec file (registered unless `register=False`); raises SpecError."""
    return _compile(parse(path), _find_registered, register=register)


def load_dir(directory: str | Path, *, register: bool = True) -> LoadResult:
    """Every `*.textproto` under `directory`, compiled; every bad spec reported in `errors`.

    A spec may include a spec of the same directory whatever their file order; two specs with
    one name, and include cycles, are errors.
    """
    result = LoadResult()
    root = Path(directory)
    if not root.is_dir():
        result.errors.append(SpecError(str(directory), 1, 1, "", "not a directory"))
        return result
    pending: dict[str, Parsed] = {}
    for path in sorted(root.rglob("*.textproto")):
        try:
            parsed = parse(path)
        except SpecError as error:
            result.errors.append(error)
            continue
        name = parsed.spec.name
        if name and name in pending:
            result.errors.append(parsed.error("name", f"task name {name!r} is already defined in {pending[name].path}"))
            continue
        pending[name] = parsed
    done: dict[str, type[TaskEval] | None] = {}  # None: failed
    active: list[str] = []

    def find(name: str) -> Any:
        if name in pending and name not in done:
            if name in active:
                raise LookupError(f"include cycle: {' -> '.join(active[active.index(name):] + [name])}")
            build(name)
        if name in done:
            if done[name] is None:
                raise LookupError(f"task {name!r} is defined by a spec that failed to load ({pending[name].path})")
            return done[name]
        return _find_registered(name)

    def build(name: str) -> None:
        active.append(name)
        try:
            done[name] = _compile(pending[name], find, register=register)
            result.classes.append(done[name])  # type: ignore[arg-type]
        except SpecError as error:
            done[name] = None
            result.errors.append(error)
        finally:
            active.pop()

    for name in pending:
        if name not in done:
            build(name)
    return result


def load_listed(path: str | Path, name: str) -> type[TaskEval]:
    """Compile and register the spec at `path`, listed earlier as the task `name` (`listing`)."""
    _BUILDING.append(name)
    try:
        parsed = parse(path)
        if parsed.spec.name != name:
            raise parsed.error("name", f"the file changed while loading: it named {name!r}, now "
                                       f"{parsed.spec.name!r}; run again")
        return _compile(parsed, _find_registered, register=True, dry_run=not _shipped(parsed.path))
    finally:
        _BUILDING.pop()


def _shipped(path: str | Path) -> bool:
    """Whether the spec at `path` is one of taskkit's own (task_protos/, dry-run by the test suite)."""
    return Path(path).resolve().is_relative_to(Path(task_spec_pb2.__file__).resolve().parent)
