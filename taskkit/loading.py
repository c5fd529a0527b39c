"""Where tasks come from: the built-in tasks, spec folders, and user modules.

One loader for every entry point (the CLIs, the pytest plugin, fresh-process checks), so a
spec directory or a `--task_module` loads the same way everywhere. Loading registers the tasks
in `taskkit.registry`: Python tasks as their modules are imported, specs by name only — each is
compiled the first time its class is needed (`resolve`, `registry.get`), so a process (a run,
each `--parallel` worker) compiles only the specs it uses. The built-in tasks are listed from
their index (`taskkit.builtin_index`) where it is kept, so their modules too are imported only
for the tasks a process uses.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import pkgutil
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Iterator, Sequence

from taskkit import apps, builtin_index, registry, specs, task_protos
from taskkit.registry import TaskLoadError

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.task import TaskEval

_BUILTINS_LOADED = False


def load_builtin() -> None:
    """Register the built-in tasks once: from the index of the installed sources where it is kept
    (each built on first use: taskkit.builtin_index), else by importing every `apps.<app>.tasks`
    module and listing the built-in specs, then kept as the index."""
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    spec_dir = Path(task_protos.__file__).parent  # the built-in declarative specs
    found = builtin_index.cached()
    if found is not None:
        builtin_index.defer_all(found)
    else:
        for info in sorted(pkgutil.iter_modules(apps.__path__), key=lambda i: i.name):
            if info.ispkg and importlib.util.find_spec(f"taskkit.apps.{info.name}.tasks") is not None:
                importlib.import_module(f"taskkit.apps.{info.name}.tasks")
        load_spec_dir(spec_dir)
        found = builtin_index.entries(spec_dir)
        if found is not None:
            builtin_index.remember(found)
    _BUILTINS_LOADED = True


def load_tasks(task_modules: Sequence[str], spec_dirs: Sequence[str], replace: bool = False,
               android_world: str | None = None) -> tuple[list[tuple[str, str, str]], list[str]]:
    """The built-in tasks, then AndroidWorld's own from a checkout (`--android_world`: they replace
    the built-ins of their names), then the user's modules and spec folders (as --task_module and
    --spec_dir give them); a user task may take a registered name only if `replace`.

    Returns the (name, old source, new source) of each replaced task and one
    `file:line:col: field: message` line per bad spec; raises TaskLoadError for a module that
    does not load, a name collision or a checkout that cannot be used.
    """
    load_builtin()
    errors: list[str] = []
    replaced_by_checkout = load_android_world(android_world) if android_world else []
    with registry.replacing(replace) as replaced:
        for module in task_modules:
            load_module(module)
        for directory in spec_dirs:
            errors += spec_dir_errors(directory)
    return replaced_by_checkout + replaced, errors


def load_android_world(path: str) -> list[tuple[str, str, str]]:
    """Register the tasks of AndroidWorld's own registry from the checkout at `path`
    (taskkit.compat.android_world.native); TaskLoadError in one line if it cannot be used."""
    from taskkit.compat.android_world import checkout, native

    try:
        with _exit_refused("--android_world", path):
            checkout.use(path)
            return native.register()
    except checkout.CheckoutError as error:
        raise TaskLoadError(str(error)) from None
    except ModuleNotFoundError as error:
        raise TaskLoadError(f"--android_world {path}: AndroidWorld's code needs {error.name!r}: pip install "
                            "'taskkit[android-world]'") from None


def load_spec_dir(directory: str | Path) -> None:
    """Register the tasks of every `*.textproto` spec under `directory` (compiled on first use).

    Raises TaskLoadError whose message is the first listing error's `file:line:col: field: message`.
    """
    errors = spec_dir_errors(directory)
    if errors:
        more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
        raise TaskLoadError(f"{errors[0]}{more}")


def spec_dir_errors(directory: str | Path) -> list[str]:
    """Register the specs under `directory` by name; one `file:line:col: field: message` per spec
    that cannot be listed (does not parse, or takes a name that is taken)."""
    return [str(error) for error in specs.defer_dir(directory)]


def resolve(names: Sequence[str] | None) -> tuple[list["type[TaskEval]"], list[str]]:
    """The classes of the tasks `names` (every registered one if None), compiling the specs among
    them, and one `file:line:col: field: message` line per spec that does not compile.

    An unknown name raises TaskLoadError (with suggestions).
    """
    classes, errors = [], []
    for name in registry.names() if names is None else names:
        try:
            classes.append(registry.get(name))
        except specs.SpecError as error:
            errors.append(str(error))
    return classes, errors


def load_module(spec: str, flag: str = "--task_module") -> ModuleType:
    """Import user code from a module name (`my.tasks`) or a file path (`tasks/mine.py`) and
    return the module; errors name `flag` (the option that gave `spec`)."""
    try:
        return _import_user_module(spec, flag)
    except TaskLoadError:
        raise
    except ModuleNotFoundError as error:
        raise TaskLoadError(f"{flag} {spec}: {error}; give an importable module name or a .py path") from None
    except Exception as error:  # the user's module failed while importing: say where
        raise TaskLoadError(f"{flag} {spec}: {where(error)}{type(error).__name__}: {error}") from None


def _import_user_module(spec: str, flag: str) -> ModuleType:
    """Import `spec` (a module name or a file path) as `load_module` describes; the module may not exit."""
    with _exit_refused(flag, spec):
        if spec.endswith(".py") or "/" in spec or "\\" in spec:
            path = Path(spec).resolve()
            if not path.is_file():
                raise TaskLoadError(f"{flag} {spec}: no such file")
            if str(path.parent) not in sys.path:  # the file may import its sibling modules
                sys.path.insert(0, str(path.parent))
            digest = hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:8]
            name = f"taskkit_user_{path.stem}_{digest}"
            module_spec = importlib.util.spec_from_file_location(name, path)
            assert module_spec and module_spec.loader
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[name] = module
            module_spec.loader.exec_module(module)
            return module
        return importlib.import_module(spec)


@contextlib.contextmanager
def _exit_refused(flag: str, spec: str) -> Iterator[None]:
    """User code taskkit imports may not end the process: its `sys.exit(code)` (SystemExit) is a
    TaskLoadError naming `flag spec`, where it exited and the code it asked for. KeyboardInterrupt
    is not caught: it stays an interrupt."""
    try:
        yield
    except SystemExit as error:
        raise TaskLoadError(f"{flag} {spec}: {where(error)}the module exited while being imported (sys.exit("
                            f"{error.code!r})); code that taskkit loads must not exit the process") from None


def where(error: BaseException) -> str:
    """`file:line: ` of the innermost frame outside taskkit and the standard library, or ''."""
    frames = traceback.extract_tb(error.__traceback__)
    package = str(Path(__file__).resolve().parent)
    stdlib = str(Path(traceback.__file__).resolve().parent)
    for frame in reversed(frames):
        filename = str(Path(frame.filename).resolve())
        if not filename.startswith((package, stdlib)) and not frame.filename.startswith("<"):
            return f"{frame.filename}:{frame.lineno}: "
    return ""
